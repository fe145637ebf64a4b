"""lib.plotting.heatmap: seaborn's annotated heatmap, without the whole-figure draw seaborn forces on every
call, pixel for pixel the same figure."""

import contextlib
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

import lib.plotting as plotting  # noqa: E402


def _four_panels() -> plt.Figure:
    rng = np.random.default_rng(0)
    fig, axes = plt.subplots(2, 2, figsize=(8, 6))
    for i, ax in enumerate(axes.flat):
        matrix = pd.DataFrame(rng.normal(size=(4, 5)), index=[f"method {r}" for r in range(4)],
                              columns=[f"a long dataset name {c}" for c in range(5)])
        matrix.iloc[1, 2] = np.nan
        plotting.heatmap(ax, matrix, center=0.0 if i % 2 else None, cbar=i == 3, title=f"panel {i}")
    return fig


def _png(fig: plt.Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    plt.close(fig)
    return buffer.getvalue()


def test_heatmaps_draw_nothing_until_saved_and_give_the_same_pixels(monkeypatch):
    draws = []
    original = FigureCanvasAgg.draw
    monkeypatch.setattr(FigureCanvasAgg, "draw", lambda canvas: draws.append(1) or original(canvas))
    quick = _four_panels()
    assert draws == []  # seaborn's forced draw (one per heatmap, of the whole figure) is skipped
    quick_png = _png(quick)
    monkeypatch.setattr(plotting, "_no_forced_draw", contextlib.nullcontext)
    forced = _four_panels()
    assert len(draws) >= 4 + 1  # the forced draws, then the saving of the first figure
    assert _png(forced) == quick_png
