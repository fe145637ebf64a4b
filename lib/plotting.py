"""One figure style for the project, and saving a figure with the data behind it.

Every figure is written as `<stem>.png`, `<stem>.pdf` and `<stem>.csv` (the tidy data drawn), each
atomically and without timestamps, so re-running a notebook gives identical files; in a notebook the
saved figure is also displayed, so a reader sees every figure the notebook writes. The backend is
the caller's: a Jupyter kernel draws inline, a script without a display falls back to Agg.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
import seaborn.matrix
from matplotlib.layout_engine import PlaceHolderLayoutEngine

from .atomic import atomic_write
from .paths import REPO_ROOT, resolve


def set_style() -> None:
    """The project's plotting style: seaborn's paper context, white grid, 150 dpi."""
    sns.set_theme(context="paper", style="whitegrid", font_scale=1.1)
    plt.rcParams.update({"figure.dpi": 110, "savefig.dpi": 150, "savefig.bbox": "tight", "svg.hashsalt": "0"})


DIVERGING = "vlag_r"  # differences, RIs, correlations: red = loss, blue = gain
SEQUENTIAL = "viridis"  # accuracies and other levels


@contextmanager
def _no_forced_draw() -> Iterator[None]:
    """Inside: seaborn's heatmap skips the whole-figure draw it forces on every call. That draw only decides
    whether overlapping tick labels turn; `sns_heatmap`'s callers set the labels' rotation themselves, and
    it made a figure of n heatmaps cost about n full renders (Table 20's nine panels: 4.7 s instead of 0.9)."""
    with mock.patch.object(seaborn.matrix, "_draw_figure", lambda fig: None):
        yield


def sns_heatmap(ax: plt.Axes, data: pd.DataFrame, **kwargs) -> None:
    """`seaborn.heatmap(data, ax=ax, **kwargs)` without its forced figure draw (`_no_forced_draw`): the
    caller sets the tick labels' rotation afterwards."""
    with _no_forced_draw():
        sns.heatmap(data, ax=ax, **kwargs)


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
    sns_heatmap(ax, values, annot=annot_arg, fmt=fmt, cmap=cmap or (DIVERGING if center is not None else SEQUENTIAL),
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
                            titles: tuple[str, str] = ("paper", "ours"), paper_rows: bool = False,
                            limits: tuple[float, float] | None = None, errors: bool = False,
                            stacked: bool = False, note: str | None = None) -> plt.Figure:
    """The paper's matrix and ours from one tidy frame (`lib.results`), side by side: one colour
    scale over both (`limits`, or the values' range), rows in the paper's order (rows only ours has
    come after), seeds averaged; with `paper_rows`, ours shows every paper row too (blank where ours
    has none), so rows line up; with `errors`, each cell reads "mean ± standard error" (`spread` where
    the source prints one, else the standard error over seeds). With `stacked`, the paper's matrix
    is drawn above ours instead, both with the paper's columns in its order (blank where a source
    has none), so that a wide table stays readable at a notebook's width. With `note` (a metric of the
    frame's rows), those rows are not drawn: each cell reads "note (value)", e.g. Table 10's "2.8 (+1.5)",
    the split's mRI and its difference, coloured by the difference."""
    from .results import matrix

    if note is not None and errors:
        raise ValueError("a heatmap's cells read either 'mean ± standard error' (errors) or 'note (value)' (note), not both")
    noted = frame[frame["metric"] == note] if note is not None else frame.iloc[:0]
    frame = frame.drop(noted.index)
    paper, ours = (frame[frame["source"] == s] for s in ("paper", "ours"))
    order = list(dict.fromkeys(paper[index]))
    matrices = [matrix(paper, index, columns, order), matrix(ours, index, columns, order)]
    if paper_rows:
        matrices[1] = matrices[1].reindex([*order, *(r for r in matrices[1].index if r not in order)])
    if stacked:
        shared = list(dict.fromkeys([*matrices[0].columns, *matrices[1].columns]))
        matrices = [m.reindex(columns=shared) for m in matrices]
    values = np.concatenate([m.to_numpy(dtype=float).ravel() for m in matrices])
    values = values[np.isfinite(values)]
    if limits is not None:
        vmin, vmax = limits
    elif center is None:
        vmin, vmax = (values.min(), values.max()) if len(values) else (None, None)
    else:
        extent = np.abs(values - center).max() if len(values) else 1.0
        vmin, vmax = center - extent, center + extent
    if errors:
        annots = [_with_errors(part, m, index, columns, fmt) for part, m in zip((paper, ours), matrices)]
    elif note is not None:
        annots = [_with_note(matrix(noted[noted["source"] == source], index, columns), m, fmt)
                  for source, m in zip(("paper", "ours"), matrices)]
    else:
        annots = [None, None]
    if stacked:
        return _stacked_heatmaps(matrices, annots, titles, center=center, fmt=fmt, vmin=vmin, vmax=vmax, label=label)
    widths = [(max(m.shape[1], 1) + 1.5) * (1.6 if errors else 1.0) for m in matrices]
    rows = max(m.shape[0] for m in matrices)
    # room for the longest tick labels (rotated column labels, row labels on both panels) and the titles
    longest = [max([len(label(str(t))) for m in matrices for t in getattr(m, axis)] or [0])
               for axis in ("index", "columns")]
    title_lines = max(t.count("\n") + 1 for t in titles)
    fig, axes = plt.subplots(1, 2, figsize=(0.75 * sum(widths) + max(1.5, 0.12 * longest[0]),
                                            max(0.42 * rows + 1.8, 0.42 * rows + 0.9 + 0.17 * title_lines
                                                + 0.05 * longest[1])),
                             gridspec_kw={"width_ratios": widths})
    for ax, m, annot, title, last in zip(axes, matrices, annots, titles, (False, True)):
        heatmap(ax, m, center=center, fmt=fmt, vmin=vmin, vmax=vmax, cbar=last, title=title, label=label, annot=annot)
    fig.tight_layout()
    return fig


def _stacked_heatmaps(matrices: list[pd.DataFrame], annots: list[pd.DataFrame | None], titles: tuple[str, str], *,
                      center: float | None, fmt: str, vmin: float | None, vmax: float | None,
                      label: Callable[[str], str]) -> plt.Figure:
    """`paper_and_ours_heatmaps(stacked=True)`'s figure: the two matrices one above the other, column
    labels under the lower one only, one colour bar beside both."""
    columns = matrices[0].shape[1]
    width = 0.62 * max(columns, 4) * (1.6 if annots[0] is not None else 1.0) + 2.5
    heights = [max(m.shape[0], 1) + 1.0 for m in matrices]
    longest = max([len(label(str(t))) for m in matrices for t in m.columns] or [0])
    fig, axes = plt.subplots(2, 1, figsize=(width, 0.36 * sum(heights) + 0.6 + 0.06 * longest),
                             gridspec_kw={"height_ratios": heights}, layout="constrained")
    for ax, m, annot, title in zip(axes, matrices, annots, titles):
        heatmap(ax, m, center=center, fmt=fmt, vmin=vmin, vmax=vmax, title=title, label=label, annot=annot)
    axes[0].set_xticklabels([])
    fig.colorbar(axes[0].collections[0], ax=axes, shrink=0.8, pad=0.02)
    return fig


def _with_errors(part: pd.DataFrame, means: pd.DataFrame, index: str, columns: str, fmt: str) -> pd.DataFrame:
    """Cell texts "mean ± standard error" of `means` (rows and columns of `part`): the printed `spread`
    where there is one, else the standard error over seeds; the mean alone where neither exists."""
    printed = part.pivot_table(index=index, columns=columns, values="spread", aggfunc="mean", sort=False)
    over_seeds = part.pivot_table(index=index, columns=columns, values="value", aggfunc="sem", sort=False)
    spread = printed.reindex_like(means).combine_first(over_seeds.reindex_like(means))
    text = [[(f"{v:{fmt}}" + (f" ± {e:{fmt}}" if np.isfinite(e) else "")) if np.isfinite(v) else ""
             for v, e in zip(row_means, row_errors)]
            for row_means, row_errors in zip(means.to_numpy(dtype=float), spread.to_numpy(dtype=float))]
    return pd.DataFrame(text, index=means.index, columns=means.columns)


def _with_note(notes: pd.DataFrame, means: pd.DataFrame, fmt: str) -> pd.DataFrame:
    """Cell texts "note\n(±value)" of `means` (the note's mean per cell from `notes`); the value alone
    where the cell has no note, blank where it has no value."""
    notes = notes.reindex_like(means).to_numpy(dtype=float)
    text = [[(f"{n:{fmt}}\n({v:+{fmt}})" if np.isfinite(n) else f"{v:{fmt}}") if np.isfinite(v) else ""
             for v, n in zip(row_values, row_notes)]
            for row_values, row_notes in zip(means.to_numpy(dtype=float), notes)]
    return pd.DataFrame(text, index=means.index, columns=means.columns)


def paper_and_ours_bars(frame: pd.DataFrame, index: str, columns: str, *, label: Callable[[str], str] = str,
                        titles: tuple[str, str] = ("paper", "ours"), ylabel: str = "value",
                        palette: dict[str, str] | None = None) -> plt.Figure:
    """The paper's grouped bars and ours from one tidy frame (`lib.results`), side by side on one y
    axis: one group per `index` value, one bar per `columns` value (coloured by `palette`, the same
    in both panels, in the paper's order), seeds averaged, our seeds' range as a black line."""
    from .results import matrix

    paper, ours = (frame[frame["source"] == s] for s in ("paper", "ours"))
    hues = list(dict.fromkeys([*paper[columns], *ours[columns]]))
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colours = {h: (palette or {}).get(h, cycle[i % len(cycle)]) for i, h in enumerate(hues)}
    matrices = [matrix(part, index, columns).reindex(columns=[h for h in hues if h in set(part[columns])])
                for part in (paper, ours)]
    widths = [max(len(m), 2) + 2.0 for m in matrices]
    fig, axes = plt.subplots(1, 2, figsize=(0.55 * sum(widths) + 3.0, 4.2), sharey=True,
                             gridspec_kw={"width_ratios": widths})
    for ax, m, part, title in zip(axes, matrices, (paper, ours), titles):
        x, width = np.arange(len(m)), 0.8 / max(m.shape[1], 1)
        for j, hue in enumerate(m.columns):
            offset = x + (j - (m.shape[1] - 1) / 2) * width
            ax.bar(offset, m[hue].to_numpy(dtype=float), width, color=colours[hue], label=label(str(hue)))
            spread = part[part[columns] == hue].groupby(index, sort=False)["value"].agg(["min", "max"]).reindex(m.index)
            if part["seed"].nunique() > 1:
                ax.vlines(offset, spread["min"], spread["max"], color="black", linewidth=1)
        ax.set_xticks(x, [label(str(i)) for i in m.index], rotation=45, ha="right", fontsize=7)
        ax.set_title(title, fontsize=9)
    axes[1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    axes[0].set_ylabel(ylabel)
    fig.tight_layout()
    return fig


def paper_and_ours_hbars(frame: pd.DataFrame, group: str, hue: str, *, titles: tuple[str, str] = ("paper", "ours"),
                         xlabel: str = "value", note: str = "", decimals: int = 3) -> plt.Figure:
    """The paper's horizontal grouped bars and ours from one tidy frame, side by side on one x axis: one group
    per `group` value (the paper's order, top down), one bar per `hue` value (the same colour in both panels),
    each labelled with its value, ours with "mean ± `spread`" and an error bar; `note` is written in our panel."""
    paper, ours = (frame[frame["source"] == s] for s in ("paper", "ours"))
    groups = list(dict.fromkeys([*paper[group], *ours[group]]))
    hues = list(dict.fromkeys([*paper[hue], *ours[hue]]))
    colours = dict(zip(hues, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    values = frame["value"].to_numpy(dtype=float)
    spread = np.nan_to_num(frame["spread"].to_numpy(dtype=float))
    low, high = np.nanmin(values - spread), np.nanmax(values + spread)
    margin = 0.15 * (high - low) or 0.05
    fig, axes = plt.subplots(1, 2, figsize=(12.0, 0.4 * len(groups) * max(len(hues), 1) + 1.6), sharex=True)
    height = 0.8 / max(len(hues), 1)
    for ax, part, title in zip(axes, (paper, ours), titles):
        for j, name in enumerate(hues):
            bars = part[part[hue] == name].set_index(group).reindex(groups).dropna(subset=["value"])
            y = np.array([groups.index(g) for g in bars.index]) + (j - (len(hues) - 1) / 2) * height
            errors = bars["spread"].to_numpy(dtype=float)
            ax.barh(y, bars["value"], height=height * 0.95, color=colours[name], label=name,
                    xerr=np.where(np.isfinite(errors), errors, 0.0) if np.isfinite(errors).any() else None)
            for yi, v, e in zip(y, bars["value"], errors):
                text = f"{v:.{decimals}f}".lstrip("0") + (f" ± {e:.{decimals}f}".replace("0.", ".") if np.isfinite(e) else "")
                ax.text(v + (e if np.isfinite(e) else 0.0), yi, f" {text}", va="center", fontsize=7)
        ax.set_yticks(range(len(groups)), groups if ax is axes[0] else [""] * len(groups))
        ax.set_ylim(len(groups) - 0.5, -0.5)
        ax.set_xlim(max(0.0, low - margin), high + 2 * margin)
        ax.set_xlabel(xlabel)
        ax.set_title(title, fontsize=9)
        ax.grid(axis="y", visible=False)
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, fontsize=7, loc="lower center", ncol=len(names), frameon=False)
    if note:
        axes[1].text(0.02, 0.02, note, transform=axes[1].transAxes, fontsize=7, va="bottom", style="italic")
    fig.tight_layout(rect=(0, 0.3 / fig.get_figheight(), 1, 1))  # 0.3 inch for the legend
    return fig


def scatter_with_fit(ax: plt.Axes, points: pd.DataFrame, x: str, y: str, *, hue: str,
                     lines: pd.DataFrame | None = None, size: str | None = None, shade: str | None = None,
                     palette: dict[str, str] | None = None, identity: bool = True, annotate: str | None = None,
                     sizes: tuple[float, float] = (14.0, 120.0)) -> None:
    """Points coloured by `hue`, their area growing with `size` and their colour darkening with `shade`
    (both on a log scale, e.g. parameters and data size; a missing value draws mid-way), the dotted
    identity y = x, and per `hue` value
    the fitted line with its band from `lines` (columns `line` naming a `hue` value, `x`, `fit`, `low`, `high`)."""
    values = list(dict.fromkeys(points[hue]))
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    palette = palette or {v: cycle[i % len(cycle)] for i, v in enumerate(values)}

    def scaled(column: str | None, low: float, high: float) -> np.ndarray:
        if column is None:
            return np.full(len(points), (low + high) / 2)
        logs = np.log10(points[column].astype(float).clip(lower=1e-9)).to_numpy()
        span = np.nanmax(logs) - np.nanmin(logs)
        scaled_ = low + (high - low) * ((logs - np.nanmin(logs)) / span if span > 0 else 0.5)
        return np.where(np.isnan(scaled_), (low + high) / 2, scaled_)  # unknown: the middle

    areas, darkness = scaled(size, *sizes), scaled(shade, 0.45, 1.0)
    for value in values:
        mask = (points[hue] == value).to_numpy()
        base = np.array(plt.matplotlib.colors.to_rgb(palette[value]))
        colours = [tuple(1 - d * (1 - base)) for d in darkness[mask]]
        ax.scatter(points.loc[mask, x], points.loc[mask, y], s=areas[mask], c=colours, edgecolor="black",
                   linewidth=0.3, label=value, zorder=3)
    for name, line in ([] if lines is None else lines.groupby("line", sort=False)):
        colour = palette.get(name, "black")
        ax.fill_between(line["x"], line["low"], line["high"], color=colour, alpha=0.15, lw=0)
        ax.plot(line["x"], line["fit"], "-", color=colour, lw=1.2)
    if identity:
        low = float(min(points[x].min(), points[y].min()))
        high = float(max(points[x].max(), points[y].max()))
        ax.plot([low, high], [low, high], ":", color="grey", lw=0.9, label="y = x")
    for row in points.itertuples() if annotate else ():
        ax.annotate(str(getattr(row, annotate)), (getattr(row, x), getattr(row, y)), fontsize=5,
                    xytext=(2, 2), textcoords="offset points")
    ax.set_xlabel(x)
    ax.set_ylabel(y)


def lines_with_bands(ax: plt.Axes, frame: pd.DataFrame, x: str, y: str, *, hue: str, low: str = "low",
                     high: str = "high", dashed: pd.Series | None = None) -> None:
    """One line of `y` against `x` per `hue` value with its interval (`low`, `high`) as a band;
    the lines of the rows `dashed` marks are dashed."""
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    dashed = pd.Series(False, index=frame.index) if dashed is None else dashed
    for i, (name, line) in enumerate(frame.groupby(hue, sort=False)):
        line = line.sort_values(x)
        colour = cycle[i % len(cycle)]
        ax.fill_between(line[x], line[low], line[high], color=colour, alpha=0.2, lw=0)
        ax.plot(line[x], line[y], "--" if dashed[line.index].any() else "-", marker="o", ms=3, color=colour,
                lw=1.2, label=name)


# adjustText's moves of point labels: a fixed count (its default, one second, ends wherever the machine's speed
# has got to, so the same data drew different layouts); one second made about 250.
LABEL_ITERATIONS = 250


def move_labels_clear(ax: plt.Axes, texts: list, x: Sequence[float], y: Sequence[float]) -> None:
    """Move the point labels `texts` (placed at their points `x`, `y`) clear of the points and of each other, each
    with a leader line to its point, in `LABEL_ITERATIONS` moves of adjustText (so the layout is reproducible)."""
    from adjustText import adjust_text

    ax.figure.canvas.draw()  # adjustText measures the texts: the layout must exist
    adjust_text(texts, x=np.asarray(x, dtype=float), y=np.asarray(y, dtype=float), ax=ax,
                expand=(1.4, 1.6), force_static=(0.4, 0.8), force_text=(0.3, 0.6), iter_lim=LABEL_ITERATIONS,
                arrowprops={"arrowstyle": "-", "color": "0.4", "lw": 0.4})


LAYOUT_GRID = 1e-6  # figure fraction to which a frozen layout's positions are rounded


def freeze_layout(fig: plt.Figure) -> None:
    """Turn the figure's layout engine off, keeping the layout of its last draw with every position the engine
    sets rounded to `LAYOUT_GRID`: the axes', the subfigures' and the figure-level texts' (suptitle, supxlabel).
    Constrained layout's solver (kiwisolver) orders its variables by memory address, so the positions it finds
    vary in their last bits between processes, which a PDF's ten decimals sometimes show (the same figure written
    with other bytes); a PDF drawn after this reproduces in every run. The figure stays frozen."""
    engine = fig.get_layout_engine()
    if engine is None or isinstance(engine, PlaceHolderLayoutEngine):
        return
    fig.set_layout_engine("none")

    def rounded(values: Sequence[float]) -> np.ndarray:
        return np.round(np.asarray(values) / LAYOUT_GRID) * LAYOUT_GRID

    for ax in fig.axes:  # every axes, those of subfigures too (in their subfigure's coordinates)
        ax.set_position(rounded(ax.get_position(original=True).bounds))
    figures = [fig]
    for figure in figures:  # the figure, then its subfigures, theirs, ...
        figures += figure.subfigs
        if figure is not fig:
            figure.bbox_relative.set_points(rounded(figure.bbox_relative.get_points()))
        for text in figure.texts:
            if text.get_transform() == figure.transSubfigure:
                text.set_position(tuple(rounded(text.get_position())))


def save_figure(fig: plt.Figure, data: pd.DataFrame, out_dir: str | Path, stem: str) -> list[Path]:
    """Write `fig` as PNG and PDF (the PDF in the PNG's layout, `freeze_layout`) and `data` as CSV under `out_dir`
    (relative paths from the repository root); in a notebook, display the figure and say where it went. Return
    the paths."""
    out_dir = resolve(out_dir)
    png = io.BytesIO()
    fig.savefig(png, format="png", metadata={"Software": None})  # drawn once: written and displayed
    freeze_layout(fig)  # the PDF takes the PNG's layout, rounded
    atomic_write(out_dir / f"{stem}.png", lambda tmp: Path(tmp).write_bytes(png.getvalue()))
    atomic_write(out_dir / f"{stem}.pdf",
                 lambda tmp: fig.savefig(tmp, format="pdf", metadata={"CreationDate": None, "Producer": None}))
    atomic_write(out_dir / f"{stem}.csv", lambda tmp: data.to_csv(tmp, index=False))
    _show_in_notebook(fig, png.getvalue(), out_dir / stem)
    return [out_dir / f"{stem}{suffix}" for suffix in (".png", ".pdf", ".csv")]


def _show_in_notebook(fig: plt.Figure, png: bytes, stem: Path) -> None:
    """Display the saved PNG once, at the size the inline backend would draw `fig` (then close the
    figure, so the inline backend does not draw it again) and name the files written, when running in
    a Jupyter kernel; do nothing elsewhere. Showing the saved file spares drawing the figure a third time."""
    try:
        from IPython import get_ipython
        from IPython.display import Image, display
    except ImportError:
        return
    if get_ipython() is None:
        return
    width = int.from_bytes(png[16:20], "big")  # the PNG header's width, in pixels at savefig.dpi
    display(Image(data=png, format="png", width=round(width * plt.rcParams["figure.dpi"] / plt.rcParams["savefig.dpi"])))
    plt.close(fig)
    where = stem.relative_to(REPO_ROOT) if stem.is_relative_to(REPO_ROOT) else stem
    print(f"saved {where}.png, .pdf and .csv")
