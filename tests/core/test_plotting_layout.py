"""`save_figure` writes the PDF in the PNG's layout, frozen and rounded (`freeze_layout`): constrained layout's
solver orders its variables by memory address, and before, Fig. S.4's mini PDF came out with other bytes in about
four processes of ten (one axes' clip box at x = 337.1692990662 or ...663)."""

import io

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.layout_engine import PlaceHolderLayoutEngine

from lib.plotting import LAYOUT_GRID, freeze_layout, save_figure


def constrained_figure() -> plt.Figure:
    fig, axes = plt.subplots(1, 2, layout="constrained")
    fig.colorbar(axes[0].imshow(np.eye(3)), ax=list(axes))
    fig.suptitle("a title")
    fig.supxlabel("a note")
    return fig


def test_the_pdf_is_written_in_the_pngs_layout_rounded_and_the_engine_is_off(tmp_path):
    fig = constrained_figure()
    save_figure(fig, pd.DataFrame(), tmp_path, "f")
    assert isinstance(fig.get_layout_engine(), PlaceHolderLayoutEngine)
    for ax in fig.axes:
        bounds = np.asarray(ax.get_position(original=True).bounds) / LAYOUT_GRID  # before a fixed aspect
        np.testing.assert_allclose(bounds, np.round(bounds), atol=1e-6)
    assert (tmp_path / "f.pdf").stat().st_size > 0
    plt.close(fig)


def test_positions_that_differ_in_their_last_bits_give_the_same_pdf():
    pdfs = []
    for nudge in (0.0, 3e-13):  # a solver's noise, far below the PDF's ten decimals of a point
        fig = constrained_figure()
        fig.savefig(io.BytesIO(), format="png")  # the layout of the PNG's draw
        for ax in fig.axes:
            x0, y0, width, height = ax.get_position(original=True).bounds
            ax.set_position([x0 + nudge, y0 - nudge, width, height])
        freeze_layout(fig)
        pdf = io.BytesIO()
        fig.savefig(pdf, format="pdf", metadata={"CreationDate": None, "Producer": None})
        pdfs.append(pdf.getvalue())
        plt.close(fig)
    assert pdfs[0] == pdfs[1]


def test_subfigures_and_their_titles_are_frozen_on_the_grid_too():
    fig = plt.figure(layout="constrained")
    top, bottom = fig.subfigures(2, 1)
    for sub in (top, bottom):
        sub.suptitle("a panel")
        sub.colorbar(sub.subplots(1, 2)[0].imshow(np.eye(3)))
    fig.savefig(io.BytesIO(), format="png")
    freeze_layout(fig)
    for sub in (top, bottom):
        points = sub.bbox_relative.get_points() / LAYOUT_GRID
        np.testing.assert_allclose(points, np.round(points), atol=1e-6)
        position = np.asarray(sub.texts[0].get_position()) / LAYOUT_GRID
        np.testing.assert_allclose(position, np.round(position), atol=1e-6)
    plt.close(fig)


def test_a_figure_without_a_layout_engine_is_left_as_drawn():
    fig, ax = plt.subplots()
    ax.set_position([0.1234567891, 0.1, 0.5, 0.5])
    freeze_layout(fig)
    assert fig.get_layout_engine() is None and ax.get_position().x0 == 0.1234567891
    plt.close(fig)
