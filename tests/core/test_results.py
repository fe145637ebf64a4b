"""The one results schema, and the paper-and-ours heatmap pair drawn from it."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from lib.plotting import paper_and_ours_heatmaps
from lib.results import COLUMNS, combine, matrix, tidy


def _paper() -> pd.DataFrame:
    printed = pd.DataFrame({"method": ["FT", "LP", "FT", "LP"], "architecture": ["A", "A", "B", "B"],
                            "value": [-5.0, -1.0, -3.0, 0.5]})
    return tidy(printed, source="paper", paper="p", artefact="table03", tier="published", metric="mRI",
                rename={"architecture": "model"})


def _ours() -> pd.DataFrame:
    run = pd.DataFrame({"regime": ["clean"] * 4, "method": ["LP", "FT", "LP", "FT"], "seed": [0, 0, 1, 1],
                        "mRI": [-2.0, -8.0, -4.0, -6.0]})
    return tidy(run, source="ours", paper="p", artefact="table03", tier="mini", metric="mRI",
                rename={"regime": "model", "mRI": "value"})


def test_tidy_fills_the_schema_and_refuses_what_is_not_in_it():
    frame = _ours()
    assert tuple(frame.columns) == COLUMNS
    assert set(frame["source"]) == {"ours"} and frame["train_dataset"].isna().all()
    with pytest.raises(ValueError, match="not columns of the results schema"):
        tidy(frame, source="ours", paper="p", artefact="a", tier="mini", rename={"value": "score"})
    with pytest.raises(ValueError, match="source must be"):
        tidy(frame, source="both", paper="p", artefact="a", tier="mini")


def test_matrix_averages_seeds_and_keeps_the_given_row_order():
    table = matrix(_ours(), "method", "model", order=["FT", "LP"])
    assert list(table.index) == ["FT", "LP"]
    assert table.loc["FT", "clean"] == -7.0 and table.loc["LP", "clean"] == -3.0


def test_paper_and_ours_share_one_colour_scale_and_the_papers_row_order():
    frame = combine(_ours(), _paper())
    assert list(frame["source"].unique()) == ["paper", "ours"]
    fig = paper_and_ours_heatmaps(frame, "method", "model", center=0.0)
    paper_ax, ours_ax = fig.axes[:2]
    assert [t.get_text() for t in ours_ax.get_yticklabels()] == ["FT", "LP"]  # the paper's order
    limits = {tuple(np.round(a.collections[0].get_clim(), 6)) for a in (paper_ax, ours_ax)}
    assert limits == {(-7.0, 7.0)}  # symmetric around 0 over both sources (ours FT: mean of -8 and -6)
    plt.close(fig)


def test_stacked_heatmaps_put_the_paper_above_ours_on_the_papers_columns():
    frame = combine(_paper(), _ours())
    fig = paper_and_ours_heatmaps(frame, "model", "method", center=0.0, stacked=True)
    paper_ax, ours_ax = fig.axes[:2]
    assert paper_ax.get_position().y0 > ours_ax.get_position().y1  # one above the other
    assert [t.get_text() for t in ours_ax.get_xticklabels()] == ["FT", "LP"]  # the paper's column order
    assert not any(t.get_text() for t in paper_ax.get_xticklabels())  # column labels once, under ours
    assert paper_ax.collections[0].get_clim() == ours_ax.collections[0].get_clim()
    assert len(fig.axes) == 3  # one colour bar for both
    plt.close(fig)


def test_note_rows_are_written_in_the_cells_not_drawn():
    note = lambda frame, value: frame.assign(metric="mRI before", value=value)  # noqa: E731
    frame = combine(_paper(), _ours(), note(_paper(), 10.0), note(_ours().iloc[:2], [1.0, 3.0]))
    fig = paper_and_ours_heatmaps(frame, "method", "model", center=0.0, note="mRI before")
    paper_ax, ours_ax = fig.axes[:2]
    assert [t.get_text() for t in paper_ax.texts] == ["10.0\n(-5.0)", "10.0\n(-3.0)", "10.0\n(-1.0)", "10.0\n(+0.5)"]
    assert [t.get_text() for t in ours_ax.texts] == ["3.0\n(-7.0)", "1.0\n(-3.0)"]  # seeds averaged, like the value
    assert paper_ax.collections[0].get_clim() == (-7.0, 7.0)  # the scale is the values', not the notes'
    plt.close(fig)
    without = combine(_paper(), _ours(), note(_paper().iloc[:1], 10.0))
    fig = paper_and_ours_heatmaps(without, "method", "model", center=0.0, note="mRI before")
    assert [t.get_text() for t in fig.axes[1].texts] == ["-7.0", "-3.0"]  # no note: the value alone
    plt.close(fig)
    with pytest.raises(ValueError, match="not both"):
        paper_and_ours_heatmaps(frame, "method", "model", note="mRI before", errors=True)


def test_paper_and_ours_frame_sets_each_sources_tier_and_puts_the_paper_first():
    from lib.results import paper_and_ours

    printed = pd.DataFrame({"method": ["FT"], "model": ["A"], "value": [-5.0]})
    run = pd.DataFrame({"method": ["FT", "FT"], "model": ["clean", "clean"], "seed": [0, 1], "value": [-1.0, -2.0]})
    frame = paper_and_ours(printed, run, paper="p", artefact="table03", tier="mini", metric="mRI")
    assert tuple(frame.columns) == COLUMNS
    assert list(frame["source"]) == ["paper", "ours", "ours"] and list(frame["tier"]) == ["published", "mini", "mini"]
    assert set(frame["metric"]) == {"mRI"} and set(frame["artefact"]) == {"table03"}
