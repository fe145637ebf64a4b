"""One figure style for the project, and saving a figure with the data behind it.

Every figure is written as `<stem>.png`, `<stem>.pdf` and `<stem>.csv` (the tidy data drawn), each
atomically and without timestamps, so re-running a notebook gives identical files; in a notebook the
saved figure is also displayed, so a reader sees every figure the notebook writes. The backend is
the caller's: a Jupyter kernel draws inline, a script without a display falls back to Agg.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from .atomic import atomic_write
from .paths import REPO_ROOT, resolve


def set_style() -> None:
    """The project's plotting style: seaborn's paper context, white grid, 150 dpi."""
    sns.set_theme(context="paper", style="whitegrid", font_scale=1.1)
    plt.rcParams.update({"figure.dpi": 110, "savefig.dpi": 150, "savefig.bbox": "tight", "svg.hashsalt": "0"})


DIVERGING = "vlag_r"  # differences, RIs, correlations: red = loss, blue = gain
SEQUENTIAL = "viridis"  # accuracies and other levels


def heatmap(ax: plt.Axes, matrix: pd.DataFrame, *, center: float | None = None, cmap: str | None = None,
            annot: pd.DataFrame | None = None, fmt: str = ".1f", vmin: float | None = None, vmax: float | None = None,
            cbar: bool = False, title: str = "", label: Callable[[str], str] = str) -> None:
    """The project's one annotated heatmap: diverging around `center` (or sequential without one),
    cells annotated with their value (or with the text of `annot`, e.g. the printed cell), NaN cells
    blank, tick labels passed through `label`."""
    values = matrix.astype(float)
    if annot is None:
        annot_arg: bool | np.ndarray = True
    else:
        annot_arg = annot.reindex(index=matrix.index, columns=matrix.columns).fillna("").to_numpy()
        fmt = ""
    sns.heatmap(values, ax=ax, annot=annot_arg, fmt=fmt, cmap=cmap or (DIVERGING if center is not None else SEQUENTIAL),
                center=center, vmin=vmin, vmax=vmax, cbar=cbar, linewidths=0.4, linecolor="white",
                annot_kws={"fontsize": 7})
    ax.set_xticklabels([label(t.get_text()) for t in ax.get_xticklabels()], rotation=45, ha="right")
    ax.set_yticklabels([label(t.get_text()) for t in ax.get_yticklabels()], rotation=0)
    ax.set_xlabel("")
    ax.set_ylabel("")
    ax.grid(False)
    ax.set_title(title, fontsize=9)


def paper_and_ours_heatmaps(frame: pd.DataFrame, index: str, columns: str, *, center: float | None = None,
                            fmt: str = ".1f", label: Callable[[str], str] = str,
                            titles: tuple[str, str] = ("paper", "ours")) -> plt.Figure:
    """The paper's matrix and ours from one tidy frame (`lib.results`), side by side: one colour
    scale over both, rows in the paper's order (rows only ours has come after), seeds averaged."""
    from .results import matrix

    paper, ours = (frame[frame["source"] == s] for s in ("paper", "ours"))
    order = list(dict.fromkeys(paper[index]))
    matrices = [matrix(paper, index, columns, order), matrix(ours, index, columns, order)]
    values = np.concatenate([m.to_numpy(dtype=float).ravel() for m in matrices])
    values = values[np.isfinite(values)]
    if center is None:
        vmin, vmax = (values.min(), values.max()) if len(values) else (None, None)
    else:
        extent = np.abs(values - center).max() if len(values) else 1.0
        vmin, vmax = center - extent, center + extent
    widths = [max(m.shape[1], 1) + 1.5 for m in matrices]
    rows = max(m.shape[0] for m in matrices)
    fig, axes = plt.subplots(1, 2, figsize=(0.75 * sum(widths) + 1.5, 0.42 * rows + 1.8),
                             gridspec_kw={"width_ratios": widths})
    for ax, m, title, last in zip(axes, matrices, titles, (False, True)):
        heatmap(ax, m, center=center, fmt=fmt, vmin=vmin, vmax=vmax, cbar=last, title=title, label=label)
    fig.tight_layout()
    return fig


def save_figure(fig: plt.Figure, data: pd.DataFrame, out_dir: str | Path, stem: str) -> list[Path]:
    """Write `fig` as PNG and PDF and `data` as CSV under `out_dir` (relative paths from the
    repository root); in a notebook, display the figure and say where it went. Return the paths."""
    out_dir = resolve(out_dir)
    written = []
    for suffix, metadata in ((".png", {"Software": None}), (".pdf", {"CreationDate": None, "Producer": None})):
        path = out_dir / f"{stem}{suffix}"
        atomic_write(path, lambda tmp, s=suffix, m=metadata: fig.savefig(tmp, format=s[1:], metadata=m))
        written.append(path)
    csv_path = out_dir / f"{stem}.csv"
    atomic_write(csv_path, lambda tmp: data.to_csv(tmp, index=False))
    written.append(csv_path)
    _show_in_notebook(fig, out_dir / stem)
    return written


def _show_in_notebook(fig: plt.Figure, stem: Path) -> None:
    """Display `fig` once (then close it, so the inline backend does not draw it again) and name
    the files written, when running in a Jupyter kernel; do nothing elsewhere."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        return
    if get_ipython() is None:
        return
    display(fig)
    plt.close(fig)
    where = stem.relative_to(REPO_ROOT) if stem.is_relative_to(REPO_ROOT) else stem
    print(f"saved {where}.png, .pdf and .csv")
