"""What each imagenet_rib notebook draws: the data behind every table and figure, and the drawing helpers.

Data functions return tidy frames (the CSV written beside each figure); `draw_*` functions return a
matplotlib figure. Figures whose curves or matrices the text does not print (Figs. 2, 5, 6, 11-13)
are drawn from what the printed tables allow (before/after averages, end points, dashed reference
lines) and say so in their titles.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from ..audit import artefact_rows
from ..audit import count_line as audit_summary  # noqa: F401  (the notebooks' audit count line)
from ..plotting import DIVERGING, heatmap
from ..claims import ledger
from .claims import claims_for
from .ours import FT_SET
from .tables import (
    AVG_OOD,
    IMAGENET,
    METHODS,
    REALISTIC,
    SHORT,
    SUITE,
    average_ood,
    is_printed,
    load_table,
    model_label,
    ood_before_after,
    pretrained_baseline,
    recompute_ri,
    select,
    wide,
)

PAPER = "imagenet_rib"
METHOD_SHORT = {"Linear Probing": "LP", "Visual Prompt": "VP", "MS:PRE-FT-EWC-LwF": "MS"}

def short(name: str) -> str:
    """Short dataset/method label for axes."""
    return SHORT.get(name, METHOD_SHORT.get(name, name))


def _heatmap(ax: plt.Axes, matrix: pd.DataFrame, **options) -> None:
    """`lib.plotting.heatmap` with this paper's short dataset and method labels."""
    heatmap(ax, matrix, label=short, **options)


def _grid(n: int, ncols: int, cell: tuple[float, float]) -> tuple[plt.Figure, list[plt.Axes]]:
    nrows = math.ceil(n / ncols)
    ncols = min(ncols, n)
    fig, axes = plt.subplots(nrows, ncols, figsize=(cell[0] * ncols, cell[1] * nrows), squeeze=False)
    flat = list(axes.ravel())
    for ax in flat[n:]:
        ax.axis("off")
    return fig, flat[:n]


def _printed_text(frame: pd.DataFrame, index: str | list[str], columns: str) -> pd.DataFrame:
    return wide(frame, index, columns, values="printed")


# ---------------------------------------------------------------------------------------------
# RI tables (Tables 2, 22-28).

RI_COLUMNS = ["mRI", *SUITE]


def ri_blocks(artefact: str) -> dict[str, pd.DataFrame]:
    """{model: methods × [mRI, 8 RIs]} of one RI table, values as printed (NaN for dashes)."""
    frame = load_table(artefact)
    frame = frame.assign(column=np.where(frame["metric"] == "mRI", "mRI", frame["finetune_dataset"]))
    blocks = {}
    for (arch, pre), block in frame.groupby(["architecture", "pretraining"], sort=False):
        blocks[model_label(arch, pre)] = wide(block, "method", "column").reindex(columns=RI_COLUMNS)
    return blocks


def draw_ri_table(artefact: str) -> tuple[plt.Figure, pd.DataFrame]:
    """One heatmap per model: rows methods, columns mRI then the RI per fine-tuning set."""
    blocks = ri_blocks(artefact)
    fig, axes = _grid(len(blocks), 3 if len(blocks) > 2 else len(blocks), (6.2, 4.2))
    limit = max(float(np.nanmax(np.abs(b.to_numpy(float)))) for b in blocks.values())
    for ax, (model, block) in zip(axes, blocks.items()):
        _heatmap(ax, block, center=0, cmap=DIVERGING, vmin=-limit, vmax=limit, title=f"{model}: mRI | RI on D_FT")
        ax.axvline(1, color="black", lw=1.2)
    fig.suptitle(f"{artefact.replace('table', 'Table ')} as printed (red = robustness lost)", fontsize=11)
    fig.tight_layout()
    data = load_table(artefact)[["architecture", "pretraining", "method", "metric", "finetune_dataset", "printed", "value"]]
    return fig, data


# The one model whose per-dataset accuracies the text prints (Table 30): Table 2, and its block of Table 22.
TABLE30_MODEL = {"architecture": "ViT-B/16", "pretraining": "IN-1K + AugReg"}


def table02_rederived(artefact: str = "table02") -> pd.DataFrame:
    """`artefact`'s printed RI/mRI of Table 30's model beside Eq. 1 from Table 30 with both pretrained
    baselines."""
    t02 = select(load_table(artefact), **TABLE30_MODEL)
    t30 = load_table("table30")
    ours = recompute_ri(t30, pretrained_baseline("table17")).rename(columns={"recomputed": "Eq. 1, Table 17 baseline"})
    alt = recompute_ri(t30, pretrained_baseline("table30")).rename(columns={"recomputed": "Eq. 1, Table 30 baseline"})
    out = t02[["method", "metric", "finetune_dataset", "printed", "value"]].merge(ours, on=["method", "metric", "finetune_dataset"])
    out = out.merge(alt, on=["method", "metric", "finetune_dataset"])
    return out.rename(columns={"value": "printed value"})


def draw_ri_rederivation(artefact: str = "table02") -> tuple[plt.Figure, pd.DataFrame]:
    """Recomputed minus printed RI/mRI of `artefact` (Table 30's model), under both pretrained baselines."""
    frame = table02_rederived(artefact)
    frame["column"] = np.where(frame["metric"] == "mRI", "mRI", frame["finetune_dataset"])
    fig, axes = plt.subplots(1, 2, figsize=(12.5, 4.2))
    for ax, source in zip(axes, ("Eq. 1, Table 17 baseline", "Eq. 1, Table 30 baseline")):
        delta = frame.assign(delta=frame[source] - frame["printed value"])
        _heatmap(ax, wide(delta, "method", "column", "delta").reindex(columns=RI_COLUMNS), center=0, cmap="PuOr",
                 fmt=".2f", vmin=-1.2, vmax=1.2, title=f"recomputed - printed: {source}")
    model = " ".join(TABLE30_MODEL.values())
    fig.suptitle(f"{artefact.replace('table', 'Table ')}, {model}: RI and mRI recomputed from Table 30", fontsize=11)
    fig.tight_layout()
    return fig, frame


# ---------------------------------------------------------------------------------------------
# Accuracy on the fine-tuning set (Tables 19-21) and per-dataset accuracy after fine-tuning (30, 31).

def draw_finetune_accuracy(artefact: str) -> tuple[plt.Figure, pd.DataFrame]:
    """One heatmap per model: methods × fine-tuning set, with each method's mean in the last column."""
    frame = load_table(artefact)
    models = list(dict.fromkeys(zip(frame["architecture"], frame["pretraining"])))
    fig, axes = _grid(len(models), 3 if len(models) > 4 else len(models), (5.6, 4.0))
    rows = []
    for ax, (arch, pre) in zip(axes, models):
        block = select(frame, architecture=arch, pretraining=pre)
        matrix = wide(block, "method", "finetune_dataset").reindex(columns=list(SUITE))
        matrix["mean"] = matrix.mean(axis=1)
        _heatmap(ax, matrix, vmin=0, vmax=100, title=model_label(arch, pre))
        ax.axvline(len(SUITE), color="black", lw=1.2)
        rows.append(block.assign(model=model_label(arch, pre)))
    fig.suptitle(f"{artefact.replace('table', 'Table ')}: accuracy on the fine-tuning set after fine-tuning (%)", fontsize=11)
    fig.tight_layout()
    data = pd.concat(rows)[["model", "method", "finetune_dataset", "printed", "value"]]
    return fig, data


def draw_ood_accuracy(artefact: str, column: str, block: int, baseline: str | None = None,
                      described: str = "the pretrained row") -> tuple[plt.Figure, pd.DataFrame]:
    """Table 30 (`column` eval_dataset) or 31 (setting): rows method / D_FT in blocks of `block` rows, colour = change
    from the pretrained accuracies of table `baseline` (this table's own `Pretrained` row where None), `described`
    in the title."""
    frame = load_table(artefact)
    frame = frame.assign(row=[f"{short(m)} / {short(d)}" if d else "Pretrained"
                              for m, d in zip(frame["method"], frame["finetune_dataset"])])
    values = wide(frame, "row", column)
    printed = _printed_text(frame, "row", column).replace("-", "")
    if baseline is None:
        pretrained = values.loc["Pretrained"]
    else:
        pretrained = pd.Series(pretrained_baseline(baseline)).reindex(values.columns)
    change = values - pretrained
    fig, ax = plt.subplots(figsize=(0.75 * values.shape[1] + 2.5, 0.24 * values.shape[0] + 1.5))
    _heatmap(ax, change.rename(columns=lambda c: c.replace("_", " ")), center=0, cmap=DIVERGING,
             annot=printed.rename(columns=lambda c: c.replace("_", " ")), vmin=-30, vmax=30, cbar=True,
             title=f"{artefact.replace('table', 'Table ')}: accuracy as printed\ncolour = change from {described}")
    for y in range(1, values.shape[0], block):
        ax.axhline(y, color="black", lw=0.8)
    fig.tight_layout()
    frame = frame.assign(change=frame["value"] - frame[column].map(pretrained))
    return fig, frame[["method", "finetune_dataset", column, "printed", "value", "change"]]


# ---------------------------------------------------------------------------------------------
# One-number-per-cell tables: methods × models (Tables 3, 5, 7, 8, 10, 11, 14, 15, 16, 18).

@dataclass(frozen=True)
class MatrixSpec:
    """How a one-number-per-cell table becomes a rows × models matrix and its printed-text annotations."""

    metric: str
    setting: str | None = ""  # the rows of this setting only (None: every setting)
    row_prefix: str | None = None  # rows named `row_prefix + setting` (Tables 14, 16) instead of by method
    cell_note: tuple[str, str, str] | None = None  # (metric, before, after): its printed text added to each cell
    row_note: tuple[str, str, str] | None = None  # (metric, row, before): its first printed text added to one row


def _with_model(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(model=[model_label(a, p) for a, p in zip(frame["architecture"], frame["pretraining"])])


def method_matrix(artefact: str, spec: MatrixSpec | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(values, printed-text annotations) of a one-number-per-cell table, methods (or settings) × models;
    `spec` defaults to the artefact's in `WIRING`."""
    spec = spec or WIRING[artefact].options["spec"]
    frame = load_table(artefact)
    rows = frame[frame["metric"] == spec.metric]
    if spec.setting is not None:
        rows = rows[rows["setting"] == spec.setting]
    rows = _with_model(rows)
    if spec.row_prefix is not None:
        rows = rows.assign(method=spec.row_prefix + rows["setting"])
    annot = _printed_text(rows, "method", "model")
    if spec.cell_note is not None:
        metric, before, after = spec.cell_note
        note = _printed_text(_with_model(select(frame, metric=metric)), "method", "model").reindex_like(annot)
        annot = annot + before + note + after
    if spec.row_note is not None:
        metric, row, before = spec.row_note
        note = _printed_text(_with_model(select(frame, metric=metric)), "method", "model").iloc[0]
        annot.loc[row] = annot.loc[row] + before + note
    values = wide(rows, "method", "model")
    return values, annot.replace("-", "")


def draw_method_matrix(artefact: str, spec: MatrixSpec) -> tuple[plt.Figure, pd.DataFrame]:
    """Heatmap of a one-number-per-cell table (models as columns)."""
    values, annot = method_matrix(artefact, spec)
    width = max(4.5, 0.85 * values.shape[1] + 2.5)
    fig, ax = plt.subplots(figsize=(width, 0.5 * values.shape[0] + 2.2))
    limit = float(np.nanmax(np.abs(values.to_numpy(float)))) or 1.0
    metric = spec.metric
    _heatmap(ax, values, center=0, cmap=DIVERGING, annot=annot, vmin=-limit, vmax=limit, cbar=True,
             title=f"{artefact.replace('table', 'Table ')}: {metric} as printed")
    ax.set_xticklabels([t.get_text() for t in ax.get_xticklabels()], rotation=40, ha="right")
    fig.tight_layout()
    data = values.rename_axis(index="row").reset_index().melt(id_vars="row", var_name="model", value_name=metric)
    return fig, data


# ---------------------------------------------------------------------------------------------
# Accuracy tables of pretrained (and zero-shot fine-tuned) models (Tables 1, 4, 6, 9, 12, 17).

def _with_stage(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with `row`: the model, and "(after FT)" for the rows of a fine-tuned one."""
    stage = np.where(frame["method"] == "Pretrained", "", " (after FT)")
    return frame.assign(row=[f"{model_label(a, p)}{s}" for a, p, s in zip(frame["architecture"], frame["pretraining"], stage)])


def accuracy_matrix(artefact: str, note: tuple[str, str, str] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(values, annotations) rows = model (and stage), columns = datasets, of an accuracy table; `note`
    (metric, before, after) adds that metric's printed text to each cell (Table 6's differences)."""
    frame = load_table(artefact)
    acc = _with_stage(frame[frame["metric"] == "accuracy"])
    columns = [c for c in [IMAGENET, AVG_OOD, *SUITE] if c in set(acc["eval_dataset"])]
    values = wide(acc, "row", "eval_dataset").reindex(columns=columns)
    annot = _printed_text(acc, "row", "eval_dataset").reindex(columns=columns)
    if note is not None:
        metric, before, after = note
        extra = _with_stage(frame[frame["metric"] == metric])
        annot = annot + before + _printed_text(extra, "row", "eval_dataset").reindex_like(annot) + after
    return values, annot


def draw_accuracy_table(artefact: str, note: tuple[str, str, str] | None = None) -> tuple[plt.Figure, pd.DataFrame]:
    """Heatmap of an accuracy table, with the mean over D we recompute as an extra column where it is not printed."""
    values, annot = accuracy_matrix(artefact, note)
    if AVG_OOD not in values.columns and set(SUITE) <= set(values.columns):
        values.insert(1, "mean over D (recomputed)", values[list(SUITE)].mean(axis=1))
        annot.insert(1, "mean over D (recomputed)", values["mean over D (recomputed)"].map(lambda v: f"{v:.2f}"))
    fig, ax = plt.subplots(figsize=(0.8 * values.shape[1] + 3.5, 0.45 * values.shape[0] + 1.8))
    _heatmap(ax, values, vmin=0, vmax=100, annot=annot, cbar=True,
             title=f"{artefact.replace('table', 'Table ')}: accuracy (%) as printed")
    fig.tight_layout()
    data = values.rename_axis(index="model").reset_index().melt(id_vars="model", var_name="dataset", value_name="accuracy")
    return fig, data


# ---------------------------------------------------------------------------------------------
# Figures from printed numbers.

def figure04_data() -> pd.DataFrame:
    """Fig. 4: ViT-B/16 mean OOD accuracy before (Table 17) and after vanilla FT (before + Table 3 mRI).

    `before (Table 1)` gives the mean with Table 1's printed ObjectNet column for comparison.
    """
    t03 = select(load_table("table03"), architecture="ViT-B/16", method="FT")
    out = ood_before_after(t03, load_table("table17"))
    t1 = average_ood(load_table("table01")).set_index("pretraining")["mean"]
    out["before (Table 1)"] = out["pretraining"].map(t1)
    return out


def figure08_data() -> pd.DataFrame:
    """Fig. 8: every Table 3 model × method: mean OOD accuracy before (Table 17) and after (+ mRI)."""
    return ood_before_after(load_table("table03"), load_table("table17"))


def draw_before_after(data: pd.DataFrame, title: str) -> plt.Figure:
    """Blue bar = before, red bar = after (the paper's colours), one panel per method."""
    methods = list(dict.fromkeys(data["method"]))
    fig, axes = _grid(len(methods), 3, (6.0, 3.8))
    for ax, method in zip(axes, methods):
        sub = data[data["method"] == method].reset_index(drop=True)
        x = np.arange(len(sub))
        ax.bar(x - 0.2, sub["before"], 0.4, color="tab:blue", label="before")
        ax.bar(x + 0.2, sub["after"], 0.4, color="tab:red", label="after (before + mRI)")
        for i, r in sub.iterrows():
            if pd.isna(r["before"]):
                ax.text(i, 2, "not in\nTable 17", ha="center", fontsize=6, rotation=90)
            elif pd.isna(r["after"]):
                ax.text(i + 0.2, 2, "no mRI in Table 3", ha="center", va="bottom", fontsize=6, rotation=90)
        ax.set_xticks(x)
        few = len(sub) <= 4  # a few bars (our regimes) are named level; the paper's models turned
        ax.set_xticklabels([m.replace(" ", "\n", 1) for m in sub["model"]], fontsize=8 if few else 6,
                           rotation=0 if few else 90)
        ax.set_ylim(0, 80)
        ax.set_ylabel("mean accuracy on D (%)")
        ax.set_title(method, fontsize=9)
    axes[0].legend(fontsize=7, loc="upper left")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def figure02_data() -> pd.DataFrame:
    """Fig. 2: per-dataset OOD accuracy before fine-tuning (Table 17) and the mean after FT on ImageNet-R.

    The per-dataset bars after fine-tuning are in Tables S3/S5/S6 (not printed); their mean over
    D ∖ {ImageNet-R} is before + RI (Eq. 1), printed for LAION-2B (Table 27) and IN-21K (Table 24). The
    IN-21K + AugReg RI would be in Table 25, whose body is not in the text.
    """
    rows = []
    sources = {"LAION-2B": "table27", "IN-21K": "table24", "IN-21K + AugReg": "table25"}
    for pre, source in sources.items():
        before = pretrained_baseline("table17", "ViT-B/16", pre)
        others = [d for d in SUITE if d != "ImageNet-R"]
        for d in others:
            rows.append((pre, d, "before (Table 17)", before[d]))
        mean_before = float(np.mean([before[d] for d in others]))
        rows.append((pre, "mean over D \\ IN-R", "before (Table 17)", mean_before))
        ri = math.nan
        if is_printed(source):
            ri = select(load_table(source), architecture="ViT-B/16", method="FT", finetune_dataset="ImageNet-R")["value"].item()
        rows.append((pre, "mean over D \\ IN-R", f"after FT on IN-R (before + RI, {source})", mean_before + ri))
    return pd.DataFrame(rows, columns=["pretraining", "dataset", "stage", "accuracy"])


def draw_figure02(data: pd.DataFrame) -> plt.Figure:
    fig, ax = plt.subplots(figsize=(10, 3.8))
    pivot = data.assign(label=data["dataset"].map(short)).pivot_table(
        index="label", columns=["pretraining", "stage"], values="accuracy", sort=False)
    labels = list(pivot.index)
    x = np.arange(len(labels))
    colours = {"LAION-2B": "tab:purple", "IN-21K": "tab:green", "IN-21K + AugReg": "tab:olive"}
    width = 0.13
    i = 0
    for pre in colours:
        for stage in [c for c in pivot.columns if c[0] == pre]:
            after = stage[1].startswith("after")
            ax.bar(x + (i - 2.5) * width, pivot[stage], width, color=colours[pre], alpha=0.45 if after else 1.0,
                   hatch="//" if after else None, label=f"{pre}: {stage[1]}")
            i += 1
    if not any(c[0] == "IN-21K + AugReg" and c[1].startswith("after") for c in pivot.columns):
        ax.text(x[-1] + 0.42, 2, "IN-21K + AugReg after:\nTable 25 not in text", fontsize=6, rotation=90, va="bottom")
    ax.set_xticks(x)
    ax.set_xticklabels(labels)
    ax.set_ylabel("accuracy (%)")
    ax.legend(fontsize=6, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.1))
    ax.set_title("Fig. 2 from printed numbers: per-dataset bars before FT; after FT only the mean (Eq. 1)", fontsize=9)
    fig.tight_layout()
    return fig


def _vit_b16_mri(method: str = "FT") -> dict[str, float]:
    t03 = select(load_table("table03"), architecture="ViT-B/16", method=method)
    out = dict(zip(t03["pretraining"], t03["value"]))
    for source in ("table23", "table26"):
        block = select(load_table(source), architecture="ViT-B/16", method=method, metric="mRI")
        out.update(dict(zip(block["pretraining"], block["value"])))
    return out


def figure05_data() -> pd.DataFrame:
    """Fig. 5 end points: epoch 0 (pretrained, Table 17: its mean over the suite, whose datasets are also the
    fine-tuning sets) and epoch 10 (Table 19 FT; before + FT mRI), in panels named as our curves' (`FT_SET`,
    "OOD accuracy")."""
    t19 = select(load_table("table19"), method="FT")
    mri = _vit_b16_mri()
    rows = []
    for pre in dict.fromkeys(t19["pretraining"]):
        before = float(np.mean(list({d: v for d, v in pretrained_baseline("table17", "ViT-B/16", pre).items() if d in SUITE}.values())))
        fit = select(t19, pretraining=pre)["value"].mean()
        rows += [(pre, FT_SET, 0, before), (pre, FT_SET, 10, fit),
                 (pre, "OOD accuracy", 0, before), (pre, "OOD accuracy", 10, before + mri.get(pre, math.nan))]
    return pd.DataFrame(rows, columns=["pretraining", "panel", "epoch", "accuracy"])


def draw_end_points(data: pd.DataFrame, title: str) -> plt.Figure:
    """Each pretraining's two printed end points per panel, joined by a faint dotted line that pairs them
    (the path between them is not printed)."""
    panels = list(dict.fromkeys(data["panel"]))
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 3.8), squeeze=False)
    for ax, panel in zip(axes[0], panels):
        sub = data[data["panel"] == panel]
        sns.scatterplot(data=sub, x="epoch", y="accuracy", hue="pretraining", s=40, ax=ax, zorder=3)
        for (_, rows), colour in zip(sub.groupby("pretraining", sort=False), sns.color_palette()):
            ax.plot(rows["epoch"], rows["accuracy"], ls=":", lw=0.8, alpha=0.5, color=colour)
        ax.set_title(panel)
        ax.set_ylabel(PANEL_YLABELS[panel])
        ax.set_ylim(0, 100)
        ax.legend(fontsize=6)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    return fig


def figure06_data() -> pd.DataFrame:
    """Fig. 6's dashed lines: zero-shot LAION-2B ViT-B/16 accuracy before fine-tuning (Table 9)."""
    t09 = select(load_table("table09"), architecture="ViT-B/16", pretraining="LAION-2B")
    return t09[["eval_dataset", "printed", "value"]].rename(columns={"value": "pretrained accuracy"})


def figure12_data() -> pd.DataFrame:
    """Fig. 12's dashed lines: the pretrained models' mean accuracy over D (Table 17 classifiers, Table 9 zero-shot)."""
    rows = []
    for pre in ("IN-1K + AugReg", "IN-21K + AugReg", "OpenAI", "LAION-2B"):
        acc = pretrained_baseline("table17", "ViT-B/16", pre)
        rows.append((f"{pre} (IN-1K classifier)", "Table 17", float(np.mean([acc[d] for d in SUITE]))))
    t09 = load_table("table09")
    for pre in ("OpenAI", "LAION-2B"):
        rows.append((f"{pre} CLIP (zero-shot)", "Table 9",
                     select(t09, architecture="ViT-B/16", pretraining=pre, eval_dataset=AVG_OOD)["value"].item()))
    return pd.DataFrame(rows, columns=["model", "source", "mean accuracy on D before fine-tuning"])


# The y label of a panel titled by the value it draws, in the redraws and in our curves (`curves`).
PANEL_YLABELS = {FT_SET: "mean accuracy on the fine-tuning sets (%)", "OOD accuracy": "mean OOD accuracy (%)",
                 "mRI": "mRI (points)"}


def draw_reference_lines(data: pd.DataFrame, value: str, label: str, title: str, panel: str | None = None,
                         ylims: dict[str, tuple[float, float]] | None = None) -> plt.Figure:
    """The printed reference values as dashed lines (the curves between them are not printed): one panel
    per value of the column `panel`, titled by it as our curves' panels are (its y range from `ylims`, by
    default accuracy's 0-100 %)."""
    groups = list(data.groupby(panel, sort=False)) if panel else [("accuracy (%)", data)]
    fig, axes = plt.subplots(1, len(groups), figsize=(7 * len(groups), 3.6), squeeze=False)
    palette = iter(sns.color_palette("tab10", len(data)))
    for ax, (name, rows) in zip(axes[0], groups):
        for _, r in rows.iterrows():
            ax.axhline(r[value], ls="--", color=next(palette), label=f"{r[label]}: {r[value]:.1f}")
        ax.set_xlim(0, 1)
        ax.set_xticks([])
        ax.set_ylim(*(ylims or {}).get(name, (0, 100)))
        ax.set_ylabel(PANEL_YLABELS.get(name, name))
        if panel:
            ax.set_title(name)
        ax.set_xlabel("(the curves are not printed)")
        # Beside the panel when there are many lines: inside, the key would cover some of them (Fig. 6's ten).
        ax.legend(fontsize=7, **({"loc": "center left", "bbox_to_anchor": (1.01, 0.5)} if len(rows) > 3 else {}))
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    return fig


def figure11_data() -> pd.DataFrame:
    """Fig. 11's y-values that are printed: ImageNet-1K accuracy of ViT-B/16 IN-1K + AugReg after each method on
    each realistic fine-tuning set (Table 30), with Table 7's Pearson r for that model."""
    t30 = load_table("table30")
    r = select(load_table("table07"), pretraining="IN-1K + AugReg").set_index("method")["value"]
    rows = t30[(t30["eval_dataset"] == IMAGENET) & t30["finetune_dataset"].isin(REALISTIC)]
    out = rows[["method", "finetune_dataset", "value"]].rename(columns={"value": "ImageNet-1K accuracy"})
    out["pearson r (Table 7)"] = out["method"].map(r)
    return out.reset_index(drop=True)


# One colour per method in every imagenet_rib figure that colours by method (Fig. 11's redraw and ours).
METHOD_COLOURS: dict[str, str] = dict(zip([*METHODS, "EWC (L2, released code)"],
                                          [f"tab:{c}" for c in ("blue", "orange", "green", "red", "purple", "brown",
                                                                "pink", "olive", "cyan", "gray")]))
STRONG_R = -0.5  # Table 7's bars in red below this r


def draw_pearson_bars(ax: plt.Axes, r: pd.Series, title: str, intervals: pd.DataFrame | None = None) -> None:
    """Table 7's statistic as horizontal bars, one per method (`r`: method -> Pearson r), red below `STRONG_R`;
    `intervals` (method -> `low`, `high`) as whiskers where there are any (ours; the paper prints none)."""
    values = r.to_numpy(dtype=float)
    whiskers = None
    if intervals is not None:
        bounds = intervals.reindex(r.index)
        whiskers = np.abs(np.vstack([values - bounds["low"].to_numpy(float), bounds["high"].to_numpy(float) - values]))
    ax.barh([short(m) for m in r.index], values, xerr=whiskers, error_kw={"lw": 1, "capsize": 2},
            color=["tab:red" if v < STRONG_R else "tab:gray" for v in values])
    ax.axvline(STRONG_R, color="black", ls=":", lw=1)
    ax.set_xlim(-1, 1)
    ax.invert_yaxis()
    ax.set_xlabel("Pearson r")
    ax.set_title(title, fontsize=9)


def draw_figure11(data: pd.DataFrame) -> plt.Figure:
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [2, 1]})
    order = list(REALISTIC)
    sns.pointplot(data=data, x="finetune_dataset", y="ImageNet-1K accuracy", hue="method", order=order, ax=left,
                  markersize=4, linewidth=1, palette=METHOD_COLOURS)
    left.axhline(pretrained_baseline()[IMAGENET], color="black", ls="--", lw=1, label="pretrained")
    left.set_xticks(range(len(order)))
    left.set_xticklabels([short(d) for d in order])
    left.set_xlabel("fine-tuning set (categorical: the OTDD x-axis is not printed)")
    left.legend(fontsize=6, ncol=2)
    left.set_title("ViT-B/16 IN-1K + AugReg, Table 30", fontsize=9)
    draw_pearson_bars(right, data.drop_duplicates("method").set_index("method")["pearson r (Table 7)"],
                      "Table 7: r(IN-1K accuracy, OTDD)")
    fig.tight_layout()
    return fig


def figure13_data() -> pd.DataFrame:
    """Fig. 13's printed reference values: the mRIs it is compared with, and LAION-2B at the default learning rate."""
    t03 = select(load_table("table03"), architecture="ViT-B/16", method="FT")
    t19 = select(load_table("table19"), pretraining="LAION-2B", method="FT")["value"].mean()
    return pd.DataFrame([
        ("IN-21K + AugReg, lr 0.001 (Table 3)", "mRI", select(t03, pretraining="IN-21K + AugReg")["value"].item()),
        ("LAION-2B, lr 0.001, 10 epochs (Table 3)", "mRI", select(t03, pretraining="LAION-2B")["value"].item()),
        ("LAION-2B, lr 0.001, 10 epochs (Table 19)", FT_SET, t19),
    ], columns=["reference", "quantity", "value"])


# ---------------------------------------------------------------------------------------------
# Audit and claims of one artefact, for the notebooks.

def audit_rows(artefacts: str | list[str]) -> pd.DataFrame:
    """The audit rows of the given artefact(s), in the columns a reader needs."""
    chosen = [artefacts] if isinstance(artefacts, str) else list(artefacts)
    return artefact_rows(PAPER, chosen)[["artefact", "quantity", "printed", "recomputed", "delta", "tolerance", "status",
                                         "note"]]


def verdict_markdown(artefact: str, extra: tuple[str, ...] = ()) -> str:
    """The verdict section: audit counts, every mismatch with its reason, and the claims resting on the artefact."""
    rows = audit_rows([artefact, *extra])
    lines = [f"**Audit** ({', '.join([artefact, *extra])}): {audit_summary(rows)}."]
    for r in rows[rows["status"] == "mismatch"].itertuples():
        lines.append(f"- mismatch: *{r.quantity}*: printed {r.printed}, recomputed {r.recomputed:.2f}. {r.note}")
    for r in rows[rows["status"] == "not_checkable"].itertuples():
        lines.append(f"- not checkable: *{r.quantity}*: {r.note}")
    claims = ledger(claims_for(artefact))
    if len(claims):
        lines.append("")
        lines.append(f"**Claims resting on {artefact}** ({len(claims)}):")
        for r in claims.itertuples():
            lines.append(f"- [{r.verdict}] {r.claim} ({r.section}). {r.evidence}")
    return "\n".join(lines)


def method_order(frame: pd.DataFrame) -> list[str]:
    """The paper's method order, restricted to those present."""
    present = set(frame["method"])
    return [m for m in METHODS if m in present] + [m for m in dict.fromkeys(frame["method"]) if m not in METHODS]


# ---------------------------------------------------------------------------------------------
# Table 13 and Table 29 (no numbers), and one entry point per artefact.

def table13_frame() -> pd.DataFrame:
    """Table 13 as printed beside our model registry (lib/registry/models.csv)."""
    from dataclasses import asdict

    from ..models.registry import registry
    from .tables import table13_beside_registry

    frame = pd.DataFrame([asdict(s) for s in registry().values()])
    return table13_beside_registry(frame[frame["paper"] == PAPER])


def registry_rows_not_in_table13() -> pd.DataFrame:
    """imagenet_rib registry rows that Table 13 does not list (zero-shot CLIPs of App. C, ViT-B/32 SAM)."""
    from dataclasses import asdict

    from ..models.registry import registry
    from .tables import TABLE13_PRINTED

    listed = {row[-1] for row in TABLE13_PRINTED}
    frame = pd.DataFrame([asdict(s) for s in registry().values()])
    frame = frame[(frame["paper"] == PAPER) & ~frame["key"].isin(listed)]
    return frame[["key", "paper_label", "library", "name", "pretrained"]].reset_index(drop=True)


def table29_frame() -> pd.DataFrame:
    """Table 29's references, and whether each referenced table is in the text we have."""
    from ..published import load as load_published

    frame = load_published(PAPER, "table29", numeric=False)
    frame["in our text"] = frame["printed"].str.startswith("Table 3")
    return frame.rename(columns={"printed": "reference"})


def draw_table(frame: pd.DataFrame, title: str, col_width: float = 1.6) -> plt.Figure:
    """A text table drawn as a figure (for tables without numbers)."""
    fig, ax = plt.subplots(figsize=(min(24, col_width * frame.shape[1] + 1), 0.22 * len(frame) + 0.6))
    ax.axis("off")
    table = ax.table(cellText=frame.astype(str).values, colLabels=list(frame.columns), loc="center", cellLoc="left")
    table.auto_set_font_size(False)
    table.set_fontsize(7)
    table.auto_set_column_width(list(range(frame.shape[1])))
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------------------------------------
# The wiring of every artefact: its question and how its printed numbers are drawn.

@dataclass(frozen=True)
class Wiring:
    """One artefact: the question it answers, and the function drawing its printed numbers with its
    options (`draw(**options)` returns the figure and the data behind it; None: nothing to draw)."""

    question: str
    draw: Callable[..., tuple[plt.Figure, pd.DataFrame]] | None = None
    options: dict[str, Any] = field(default_factory=dict)


def draw_text_table(frame: Callable[[], pd.DataFrame], title: str, hidden: tuple[str, ...] = ()) -> tuple[plt.Figure, pd.DataFrame]:
    """`frame()` drawn as a text table without its `hidden` columns, and the whole frame."""
    data = frame()
    return draw_table(data.drop(columns=list(hidden)), title), data


def draw_from_data(data: Callable[[], pd.DataFrame], figure: Callable[..., plt.Figure], shown: str | None = None,
                   **options: Any) -> tuple[plt.Figure, pd.DataFrame]:
    """`figure(data(), **options)` (of the rows `shown` selects, a `DataFrame.query`), and all of `data()`."""
    frame = data()
    return figure(frame if shown is None else frame.query(shown), **options), frame


WIRING: dict[str, Wiring] = {
    "table01": Wiring(
        "How robust are the ViT-B/16 models before any fine-tuning, per dataset of ImageNet-RIB's set D?",
        draw_accuracy_table, {"artefact": "table01"}),
    "table02": Wiring(
        'How much does each fine-tuning method change the OOD accuracy of ViT-B/16 IN-1K + AugReg, per fine-tuning dataset (RI, Eq. 1), and on average (mRI)?',
        draw_ri_table, {"artefact": "table02"}),
    "table03": Wiring(
        'Which fine-tuning method keeps robustness best (mRI), for every architecture and pretraining?',
        draw_method_matrix, {"artefact": "table03", "spec": MatrixSpec("mRI")}),
    "table04": Wiring(
        'Do CLIP ViT-B/16 models with a zero-shot head keep their OOD accuracy after vanilla fine-tuning?',
        draw_accuracy_table, {"artefact": "table04"}),
    "table05": Wiring(
        'Does a ViT-B/32 CLIP pretrained on less data (LAION-100M) lose less robustness?',
        draw_method_matrix, {"artefact": "table05", "spec": MatrixSpec("mRI")}),
    "table06": Wiring(
        'Does fine-tuning on natural images (the ImageNet-1K validation set) also collapse robustness?',
        draw_accuracy_table, {"artefact": "table06", "note": ("difference", "\n(", ")")}),
    "table07": Wiring(
        'Does ImageNet-1K accuracy after fine-tuning fall with the OTDD between ImageNet-1K and the fine-tuning set?',
        draw_method_matrix, {"artefact": "table07", "spec": MatrixSpec("pearson r", "vs OTDD(ImageNet-1K, D_FT) over realistic D_FT")}),
    "table08": Wiring(
        'How much robustness do zero-shot CLIP/SigLIP models lose with each method (mRI)?',
        draw_method_matrix, {"artefact": "table08", "spec": MatrixSpec("mRI")}),
    "table09": Wiring(
        'How good are the zero-shot models before fine-tuning?',
        draw_accuracy_table, {"artefact": "table09"}),
    "table10": Wiring(
        'Does selecting the epoch on a validation split change the mRIs of Table 3?',
        draw_method_matrix, {"artefact": "table10", "spec": MatrixSpec("mRI", "train/validation split", cell_note=("mRI difference", "\n(", ")"))}),
    "table11": Wiring(
        'What does effective robustness (Eq. 2) say instead of relative robustness?',
        draw_method_matrix, {"artefact": "table11", "spec": MatrixSpec("mean eRI", "train/validation split")}),
    "table12": Wiring(
        'Does fine-tuning on a dataset with different labels (StanfordCars) collapse OOD accuracy too?',
        draw_accuracy_table, {"artefact": "table12"}),
    "table13": Wiring(
        "Which weights are the paper's pretrained models, and how does our registry read Table 13?",
        draw_text_table, {"frame": table13_frame, "title": "Table 13 as printed beside lib/registry/models.csv", "hidden": ("printed library", "library")}),
    "table14": Wiring(
        "Is LAION-2B's robustness loss a matter of weight decay?",
        draw_method_matrix, {"artefact": "table14", "spec": MatrixSpec("mRI", None, row_prefix="")}),
    "table15": Wiring(
        'Are the mRIs stable across random seeds?',
        draw_method_matrix, {"artefact": "table15", "spec": MatrixSpec("mRI", "3 seeds", cell_note=("mRI standard error", "\n± ", ""))}),
    "table16": Wiring(
        'How much better is WiSE-FT at the best interpolation ratio than at 0.5?',
        draw_method_matrix, {"artefact": "table16", "spec": MatrixSpec("mRI", None, row_prefix="WiSE-FT, ", row_note=("best alpha", "WiSE-FT, best alpha", "\nα "))}),
    "table17": Wiring(
        'How accurate is every pretrained model, in- and out-of-distribution, before fine-tuning?',
        draw_accuracy_table, {"artefact": "table17"}),
    "table18": Wiring(
        'How much ImageNet-1K accuracy does each method lose or gain after fine-tuning (backward transfer)?',
        draw_method_matrix, {"artefact": "table18", "spec": MatrixSpec("backward transfer")}),
    "table19": Wiring(
        'How well does each method fit the fine-tuning set (ViT-B/16)?',
        draw_finetune_accuracy, {"artefact": "table19"}),
    "table20": Wiring(
        'How well does each method fit the fine-tuning set (ViT-B/32, ViT-S, ViT-L)?',
        draw_finetune_accuracy, {"artefact": "table20"}),
    "table21": Wiring(
        'How well does each method fit the fine-tuning set (ResNets)?',
        draw_finetune_accuracy, {"artefact": "table21"}),
    "table22": Wiring(
        'RI and mRI of the ImageNet-1K (+ AugReg) pretrained models, per method and fine-tuning set.',
        draw_ri_table, {"artefact": "table22"}),
    "table23": Wiring(
        'RI and mRI of the ImageNet-1K + SAM pretrained models, per method and fine-tuning set.',
        draw_ri_table, {"artefact": "table23"}),
    "table24": Wiring(
        'RI and mRI of the ImageNet-21K pretrained ViT-B/16, per method and fine-tuning set.',
        draw_ri_table, {"artefact": "table24"}),
    "table25": Wiring(
        'RI and mRI of the ImageNet-21K + AugReg pretrained models, per method and fine-tuning set.'),
    "table26": Wiring(
        'RI and mRI of the ImageNet-21K-P pretrained ViT-B/16, per method and fine-tuning set.',
        draw_ri_table, {"artefact": "table26"}),
    "table27": Wiring(
        'RI and mRI of the LAION-2B pretrained CLIP models, per method and fine-tuning set.',
        draw_ri_table, {"artefact": "table27"}),
    "table28": Wiring(
        'RI and mRI of the OpenAI CLIP models, per method and fine-tuning set.',
        draw_ri_table, {"artefact": "table28"}),
    "table29": Wiring(
        'Where are the per-dataset accuracies of each model (the supplementary tables)?',
        draw_text_table, {"frame": table29_frame, "title": "Table 29: where each model's per-dataset accuracies are"}),
    "table30": Wiring(
        'What is each OOD accuracy of ViT-B/16 IN-1K + AugReg after each method and fine-tuning set (the accuracies every RI of Table 2 is computed from)?',
        draw_ood_accuracy, {"artefact": "table30", "column": "eval_dataset", "block": 8, "baseline": "table17",
                                 "described": "Table 17's pretrained accuracies (ObjectNet 33.0; this table's own row prints 25.7)"}),
    "table31": Wiring(
        'How does each ImageNet-C corruption move after fine-tuning ViT-B/16 IN-1K + AugReg?',
        draw_ood_accuracy, {"artefact": "table31", "column": "setting", "block": 7}),
    "figure02": Wiring(
        'Does LAION-2B ViT-B/16 lose far more OOD accuracy than an ImageNet-21K model after fine-tuning on ImageNet-R, despite a similar start?',
        draw_from_data, {"data": figure02_data, "figure": draw_figure02}),
    "figure04": Wiring(
        'Average OOD accuracy before and after vanilla fine-tuning: do the largest-pretraining models end lowest?',
        draw_from_data, {"data": figure04_data, "figure": draw_before_after, "title": "Fig. 4 from Tables 17 and 3: mean accuracy on D before (blue) and after (red) vanilla FT, ViT-B/16"}),
    "figure05": Wiring(
        'Do OpenAI/LAION-2B models learn the fine-tuning sets slowly yet lose robustness early?',
        draw_from_data, {"data": figure05_data, "figure": draw_end_points, "title": "Fig. 5 end points only (epoch 0: Table 17; epoch 10: Table 19 FT and before + FT mRI); the curves in between are not printed (dotted: which points pair)"}),
    "figure06": Wiring(
        'How do ImageNet-1K and OOD accuracy of zero-shot LAION-2B ViT-B/16 change when fine-tuning on few images per class?',
        draw_from_data, {"data": figure06_data, "figure": draw_reference_lines, "value": "pretrained accuracy", "label": "eval_dataset", "title": "Fig. 6: only the dashed lines are printed (Table 9, zero-shot LAION-2B ViT-B/16)"}),
    "figure08": Wiring(
        'Average OOD accuracy before and after fine-tuning with every method, for every model.',
        draw_from_data, {"data": figure08_data, "figure": draw_before_after, "title": "Fig. 8 from Tables 17 and 3: before (blue) and after (red = before + mRI)"}),
    "figure11": Wiring(
        'Does post-fine-tuning ImageNet-1K accuracy fall with the distance between ImageNet-1K and the fine-tuning set?',
        draw_from_data, {"data": figure11_data, "figure": draw_figure11}),
    "figure12": Wiring(
        'Does fine-tuning on small subsets hurt classification models and CLIP models alike?',
        draw_from_data, {"data": figure12_data, "figure": draw_reference_lines, "value": "mean accuracy on D before fine-tuning", "label": "model", "title": "Fig. 12: only the dashed lines are printed (pretrained means, Tables 17 and 9)"}),
    "figure13": Wiring(
        "Does a smaller learning rate prevent LAION-2B's robustness loss?",
        draw_from_data, {"data": figure13_data, "figure": draw_reference_lines, "value": "value", "label": "reference", "panel": "quantity", "ylims": {"mRI": (-45, 5), FT_SET: (0, 100)}, "title": "Fig. 13: the printed references, mRI and fine-tuning-set accuracy (the small-learning-rate curves are not printed)"}),
}
QUESTIONS: dict[str, str] = {artefact: wiring.question for artefact, wiring in WIRING.items()}


def draw(artefact: str) -> tuple[plt.Figure, pd.DataFrame]:
    """The figure and the data behind it, for any imagenet_rib artefact with a drawing in `WIRING`."""
    drawable = sorted(a for a, w in WIRING.items() if w.draw is not None)
    wiring = WIRING.get(artefact)
    if wiring is None or wiring.draw is None:
        raise KeyError(f"no drawing for imagenet_rib/{artefact}; drawings exist for {drawable}")
    return wiring.draw(**wiring.options)
