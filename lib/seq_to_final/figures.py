"""Drawings of Seq-to-Final's printed tables for the notebooks: each `draw_*` returns (figure, data),
the data being the tidy frame the figure shows (saved beside it as CSV)."""

from __future__ import annotations

from dataclasses import asdict

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..audit import audit_frame
from ..audit import count_line as audit_summary  # noqa: F401  (the notebooks' audit count line)
from ..plotting import heatmap
from . import formatting, summaries
from .audit import parameter_audits, printed_number_audits
from .tables import (
    PAPER,
    PRINTED_ORDER,
    accuracies,
    methods_table,
    model_sizes,
    portraits_sizes,
    sample_sizes,
    shift_metrics,
    table02,
    table02_matrix,
    table15,
    units,
)

PAPER_NOTE = "paper's printed numbers; bold / italic: the caption's rules applied here (the text lost them)"


# Audit rows computed apart from the printed-number audits, per artefact: Table 7's parameter counts
# need our architecture builders, which import torch.
SEPARATE_AUDITS = {"table07": parameter_audits}


def audit_rows(artefact: str) -> pd.DataFrame:
    """The audit rows of one artefact, with its `SEPARATE_AUDITS` if it has any."""
    frame = audit_frame(PAPER, printed_number_audits)
    rows = frame[frame["artefact"] == artefact]
    if artefact in SEPARATE_AUDITS:
        rows = pd.concat([rows, pd.DataFrame([asdict(r) for r in SEPARATE_AUDITS[artefact]()])])
    return rows.reset_index(drop=True)


def _format_cells(ax: plt.Axes, matrix: pd.DataFrame, bold: dict[str, list[str]], italic: dict[str, list[str]]) -> None:
    """Set the annotation of each (row, method) cell in `bold` / `italic` to bold / italic type."""
    for text in ax.texts:
        x, y = text.get_position()
        row, column = matrix.index[int(y)], matrix.columns[int(x)]
        if column in bold.get(row, []):
            text.set_fontweight("bold")
        if column in italic.get(row, []):
            text.set_fontstyle("italic")
            text.set_text(text.get_text() + "*")


def draw_table02() -> tuple[plt.Figure, pd.DataFrame]:
    """Table 2: sequences × methods, the printed means with the caption's bold and italic (*) sets."""
    values, printed = table02_matrix(), table02_matrix("printed")
    sets = formatting.table02_sets().set_index("sequence")
    fig, ax = plt.subplots(figsize=(12, 3.6))
    heatmap(ax, values, annot=printed, vmin=0.4, vmax=0.95, cbar=True,
            title=f"Table 2: mean test accuracy over 12 architectures ({PAPER_NOTE}; * italic)")
    _format_cells(ax, values, sets["bold"].to_dict(), sets["italic"].to_dict())
    for x in (2, 5, 11):
        ax.axvline(x, color="white", linewidth=3)
    data = table02()
    data["bold"] = [m in sets.loc[s, "bold"] for s, m in zip(data["sequence"], data["method"])]
    data["italic"] = [m in sets.loc[s, "italic"] for s, m in zip(data["sequence"], data["method"])]
    return fig, data


def draw_accuracy_table(artefact: str) -> tuple[plt.Figure, pd.DataFrame]:
    """One of Tables 8-14: rows × methods in the printed order (the oracle last) with the printed Mean row
    (cells and Mean formatted by the captions' rules), and the printed Std dev row beneath on its own scale."""
    frame = accuracies(artefact)
    wide_printed = frame.pivot(index="row", columns="method", values="printed")
    grid = units(artefact)
    columns = [m for m in PRINTED_ORDER if m in grid.columns]
    order = [*grid.index, "Mean"]
    values = frame.pivot(index="row", columns="method", values="value").reindex(order)[columns]
    cells = formatting.cell_sets(artefact).set_index("row")
    means = formatting.mean_sets(artefact).set_index("method")
    bold = {**cells["bold"].to_dict(), "Mean": list(means.index[means["bold"]])}
    italic = {**cells["italic"].to_dict(), "Mean": list(means.index[means["italic"]])}
    std = values.iloc[:0].copy()
    std.loc["Std dev"] = frame[frame["row"] == "Std dev"].set_index("method")["value"].reindex(columns)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(12, 0.36 * len(order) + 2.4),
                                      gridspec_kw={"height_ratios": [len(order), 1.6]})
    title = f"Table {int(artefact[5:])}: {frame['sequence'].iloc[0]}, test accuracy at the final step"
    heatmap(top, values, annot=wide_printed.reindex(order)[columns], cbar=False,
            title=f"{title} ({PAPER_NOTE}; * italic)")
    _format_cells(top, values, bold, italic)
    top.axhline(len(grid), color="white", linewidth=3)
    heatmap(bottom, std, annot=wide_printed.reindex(["Std dev"])[columns], cmap="Greys", vmin=0, vmax=0.2,
            title="Std dev across rows (population std; see the audit)")
    fig.tight_layout()
    recomputed = summaries.primary(summaries.recomputed(artefact))
    data = frame.merge(
        recomputed.rename(columns={"statistic": "row", "value": "recomputed"})[["row", "method", "recomputed"]],
        on=["row", "method"], how="left")
    data["bold"] = [m in bold.get(r, []) for r, m in zip(data["row"], data["method"])]
    data["italic"] = [m in italic.get(r, []) for r, m in zip(data["row"], data["method"])]
    return fig, data


def draw_table01() -> tuple[plt.Figure, pd.DataFrame]:
    """Table 1 as printed: method, class, historical and final mode."""
    frame = methods_table()
    fig, ax = plt.subplots(figsize=(13, 0.22 * len(frame) + 0.6))
    ax.axis("off")
    shown = frame[["method", "class", "historical_mode", "final_mode"]]
    table = ax.table(cellText=shown.to_numpy(), colLabels=["Method", "Class", "Historical mode", "Final mode"],
                     loc="center", cellLoc="left", colWidths=[0.07, 0.07, 0.56, 0.3])
    table.auto_set_font_size(False)
    table.set_fontsize(7)
    ax.set_title("Table 1: methods of the benchmark (as printed)", fontsize=9)
    return fig, frame


def draw_table03() -> tuple[plt.Figure, pd.DataFrame]:
    """Table 3: samples (thousands) at each step of the variable-length rotation sequences, stacked."""
    frame = sample_sizes()
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for n, block in frame.groupby("n_steps"):
        left = 0.0
        for r in block.sort_values("step").itertuples():
            final = r.step == block["step"].max()
            ax.barh(n, r.thousands, left=left, color="tab:red" if final else plt.cm.Blues(0.35 + 0.08 * r.step),
                    edgecolor="white")
            ax.text(left + r.thousands / 2, n, f"{r.thousands:g}", ha="center", va="center", fontsize=7)
            left += r.thousands
    ax.set_xlabel("samples (thousands); red = final step")
    ax.set_ylabel("number of steps")
    ax.set_title("Table 3: samples per step, rotation sequences (printed)", fontsize=9)
    return fig, frame


def draw_table04() -> tuple[plt.Figure, pd.DataFrame]:
    """Table 4: Portraits samples per decade."""
    sizes = portraits_sizes()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.bar(range(len(sizes)), sizes.to_numpy(), color=["tab:blue"] * (len(sizes) - 1) + ["tab:red"])
    ax.set_xticks(range(len(sizes)), [s.split(" ")[0] for s in sizes.index])
    for x, v in enumerate(sizes):
        ax.text(x, v, f"{v:.0f}", ha="center", va="bottom", fontsize=7)
    ax.axhspan(2500, 5500, color="grey", alpha=0.15, label="Sec. 2.4: 2500 to 5500")
    ax.legend(fontsize=7, loc="lower right")
    ax.set_ylabel("samples")
    ax.set_title("Table 4: Portraits sample sizes (printed; final decade in red)", fontsize=9)
    return fig, sizes.rename("samples").reset_index()


def _step_panels(frame: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Table 5: per metric, sequence × step."""
    panels = {m: frame[frame["metric"] == m].pivot(index="sequence", columns="step", values="value")
              .reindex(list(dict.fromkeys(frame["sequence"]))) for m in ("W_X", "W_XgivenY")}
    return {m: p.rename(columns=lambda s: f"t = {s}") for m, p in panels.items()}


def _decade_panels(frame: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Table 6: decade × metric."""
    order = list(dict.fromkeys(frame["time_period"]))
    return {"W to the 2000s": frame.pivot(index="time_period", columns="metric", values="value").reindex(order)}


SHIFT_PANELS = {"table05": _step_panels, "table06": _decade_panels}


def shift_table_figure(frame: pd.DataFrame, artefact: str, title: str,
                       spread: pd.DataFrame | None = None) -> plt.Figure:
    """Table 5 (sequence × step per metric) or Table 6 (decade × metric) of `frame` (the printed table's labels
    and `value`): the normalised W2 distances, one colour scale centred on 1; `spread` (the same cells, `value`
    the half-width of an interval) writes each cell as `value ± spread`."""
    panels = SHIFT_PANELS[artefact](frame)
    spreads = SHIFT_PANELS[artefact](spread) if spread is not None else {}
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 3.4), squeeze=False)
    for ax, (name, matrix) in zip(axes[0], panels.items()):
        annot = (matrix.map("{:.2f}".format) + " ± " + spreads[name].reindex_like(matrix).map("{:.2f}".format)
                 if name in spreads else None)
        heatmap(ax, matrix, center=1.0, fmt=".2f", vmin=0.5, vmax=1.8, title=name, annot=annot)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    return fig


def draw_shift_table(artefact: str) -> tuple[plt.Figure, pd.DataFrame]:
    """Table 5 or Table 6 as printed (`shift_table_figure`)."""
    frame = shift_metrics(artefact)
    title = f"Table {int(artefact[5:])}: W2 distance to the final step / in-distribution W2 (printed)"
    return shift_table_figure(frame, artefact, title), frame


def draw_table07() -> tuple[plt.Figure, pd.DataFrame]:
    """Table 7: printed parameter counts (millions) of the 12 architectures, labelled by size sequence."""
    frame = model_sizes()
    colours = {"Conv": "tab:blue", "Dense": "tab:green", "Res": "tab:red"}
    fig, ax = plt.subplots(figsize=(8, 3.6))
    ax.bar(frame["model"], frame["millions"], color=[colours[m.split("-")[0]] for m in frame["model"]])
    for x, r in enumerate(frame.itertuples()):
        ax.text(x, r.millions, r.size_sequence, ha="center", va="bottom", fontsize=6, rotation=90)
    ax.set_ylabel("parameters (millions, printed)")
    ax.set_ylim(0, frame["millions"].max() * 1.35)
    ax.tick_params(axis="x", rotation=45)
    ax.set_title("Table 7: model sizes (printed); labels: size sequence", fontsize=9)
    return fig, frame.drop(columns=["sizes"])


def draw_table15() -> tuple[plt.Figure, pd.DataFrame]:
    """Table 15: the fine-tuning variants (rows 0-3) beside the frozen-joint rows meant to replicate them (4-7)."""
    frame = table15()
    fig, ax = plt.subplots(figsize=(8, 3.4))
    pairs = frame["i"] % 4
    y = np.arange(4)
    for offset, (variant, block) in zip((-0.2, 0.2), frame.groupby(frame["i"] >= 4)):
        ax.barh(y[pairs[block.index]] + offset, block["value"], height=0.38,
                label="frozen joint (rows 4-7)" if variant else "fine-tuning (rows 0-3)")
        for r in block.itertuples():
            ax.text(r.value, y[r.i % 4] + offset, f" {r.printed}", va="center", fontsize=7)
    ax.set_yticks(y, frame.loc[frame["i"] < 4, "method"])
    ax.invert_yaxis()
    ax.set_xlim(0.5, 0.72)
    ax.set_xlabel("test accuracy (RCL, Res-4; printed)")
    ax.legend(fontsize=7, loc="upper right")
    ax.set_title("Table 15: does the frozen joint model replicate fine-tuning?", fontsize=9)
    return fig, frame

