"""Tables S.1–S.8 as printed: a readable wide view, a drawing, and the tidy data behind it.

`table_view(artefact)` is the table laid out as in the paper (cells as printed), `draw_table(artefact)`
returns `(figure, tidy data)` for `lib.plotting.save_figure`, and `TABLE_NOTES` says in a few lines
what each table holds and what the text dump garbles or leaves out (details: the published README).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from .. import published
from .accuracies import published_accuracies
from .seed_study import seed_runs
from .shift_groups import S6_TO_S2_DATASET
from .survey import protocol_counts, survey_ticks

PAPER = "ssl_protocols"
TABLE_NOTES = {
    "table_s1": (
        "**Table S.1, protocol survey.** 23 SSL papers × the classification protocols they report, in "
        "domain (kNN, LP, FT, few-shot FT, partial FT, SVM) and out of domain (kNN, LP, FT); 74 ticks. "
        "The caption defines a clustering-metrics column (CM) that is not printed. The text cites Jigsaw "
        "[48] for partial fine-tuning, but its row ticks full fine-tuning (see the audit)."
    ),
    "table_s2": (
        "**Table S.2, top-1 accuracies (%).** Block 1 (ImageNet with 9 protocol columns, then PascalVOC, "
        "Cifar100, Caltech-256, CUB with 5 each) is complete for all 26 models; its header prints one "
        "ImageNet column too many (a spurious FT1%^N), and the values are read one column to the left of "
        "the header from PascalVOC on (published README). Block 2 (six ImageNet-D domains) is cut off "
        "after 10 models, the last (SimCLR) without Sketch FT. iNaturalist has no columns."
    ),
    "table_s3": (
        "**Table S.3, top-5 accuracies (%).** Same layout as S.2. Block 1 is complete; the MAE row "
        "prints 30 values for 29 columns, read as a duplicated leading 44.1 (published README). Block 2 "
        "stops after 10 models, SimCLR without Sketch LP, LP^BN and FT. iNaturalist has no columns."
    ),
    "table_s4": (
        "**Table S.4, effective batch sizes** of end-to-end fine-tuning and the linear probe for each of "
        "the 16 dataset variants. It gives 256 for ImageNet few-shot fine-tuning where Table S.8 gives 128."
    ),
    "table_s5": (
        "**Table S.5, checkpoint sources** of the 26 models. The dump keeps only each link's text "
        "(`href=\"#\"`), not the URLs."
    ),
    "table_s6": (
        "**Table S.6, domain-shift groups** (Fig. 3): 11 datasets, 14 ticks. It disagrees with Sec. 3, "
        "which puts iNat Genus and Species in the categorical group too; it omits ImageNet-D Real and "
        "Cifar100. iNaturalist accuracies are not printed anywhere, so Fig. 3's groups can only be "
        "recomputed from their printed members (column `accuracies printed`)."
    ),
    "table_s7": (
        "**Table S.7, seed study.** One model per protocol and dataset, run three times: runs, mean and "
        "std (population std, ddof = 0, reproduces the printed values)."
    ),
    "table_s8": (
        "**Table S.8, computational cost** of the ImageNet protocols: batch size, epochs and GPU hours "
        "(2× RTX A5000) per backbone."
    ),
}


def _table_s1_view() -> pd.DataFrame:
    ticks = survey_ticks()
    year = ticks.pop(("", "year"))
    view = ticks.replace({True: "✓", False: ""})
    view.insert(0, ("", "year"), year)
    return view


def _table_s4_view() -> pd.DataFrame:
    s4 = published.load(PAPER, "table_s4")
    return s4.pivot(index="dataset", columns="protocol", values="printed").loc[list(dict.fromkeys(s4["dataset"]))]


def _table_s5_view() -> pd.DataFrame:
    s5 = published.load(PAPER, "table_s5", numeric=False)
    return s5.rename(columns={"printed": "source"})


def _table_s6_view() -> pd.DataFrame:
    s6 = published.load(PAPER, "table_s6", numeric=False)
    view = s6.pivot(index="dataset", columns="group", values="printed").fillna("")
    view = view.loc[list(dict.fromkeys(s6["dataset"])), ["Coarse", "Fine", "Category", "Style"]]
    view["accuracies printed"] = [
        "no" if S6_TO_S2_DATASET[d] is None else ("10 of 26 models" if d.startswith("ImageNet-D") else "26 models")
        for d in view.index
    ]
    return view


def _table_s7_view() -> pd.DataFrame:
    s7 = published.load(PAPER, "table_s7")
    keys = ["protocol", "dataset", "method", "backbone"]
    return s7.pivot_table(index=keys, columns="quantity", values="printed", aggfunc="first", sort=False)[
        ["run1", "run2", "run3", "mean", "std"]].reset_index()


def _table_s8_view() -> pd.DataFrame:
    s8 = published.load(PAPER, "table_s8")
    return s8.pivot(index="protocol", columns="quantity", values="printed").loc[
        list(dict.fromkeys(s8["protocol"])), ["batch_size", "epochs", "gpu_hours_resnet50", "gpu_hours_vitb16"]]


def _accuracy_view(metric: str) -> pd.DataFrame:
    frame = published_accuracies(metric)
    order = list(dict.fromkeys(frame["model"]))
    columns = list(dict.fromkeys(zip(frame["dataset"], frame["protocol"])))
    wide = frame.pivot(index="model", columns=["dataset", "protocol"], values="printed")
    return wide.loc[order, columns].fillna("")


def _tick_heatmap(matrix: pd.DataFrame, ax: plt.Axes, title: str) -> None:
    sns.heatmap(matrix.astype(float), cmap=sns.color_palette(["#f2f2f2", "#3b75af"], as_cmap=True), cbar=False,
                linewidths=0.5, linecolor="white", annot=matrix.replace({True: "✓", False: ""}).to_numpy(),
                fmt="", annot_kws={"fontsize": 8}, ax=ax)
    ax.set_title(title)
    ax.set_xlabel("")
    ax.set_ylabel("")


# Block 1 of Tables S.2/S.3 (complete for all 26 models); block 2 is ImageNet-D, cut off after 10.
BLOCK_1_DATASETS = ("Imagenet", "PascalVOC", "Cifar100", "Caltech-256", "CUB")


def accuracy_blocks(datasets: list[str]) -> list[tuple[str, list[str]]]:
    """Tables S.2/S.3's two printed blocks of `datasets` (in order): `(title, datasets)`."""
    return [("block 1: ImageNet and four OOD datasets", [d for d in datasets if d in BLOCK_1_DATASETS]),
            ("block 2: ImageNet-D (cut off after 10 models)", [d for d in datasets if d not in BLOCK_1_DATASETS])]


def paper_and_ours_accuracy_blocks(frame: pd.DataFrame, blocks: dict[str, list[tuple[str, list[str]]]],
                                   titles: tuple[str, str], cbar_label: str,
                                   marked: pd.Series | None = None) -> plt.Figure:
    """Tables S.2/S.3's layout for the paper's accuracies (top) and ours (bottom) from one tidy frame
    (`lib.results`): per source its `blocks` (rows = models in order, columns = dataset · protocol),
    every block on one viridis 0–100 scale, blank where nothing is printed or run; cells where
    `marked` (aligned with `frame`) is true carry a dagger."""
    from ..plotting import heatmap

    marked = pd.Series(False, index=frame.index) if marked is None else marked
    shapes = {s: [(frame.loc[(frame["source"] == s) & frame["eval_dataset"].isin(d), "model"].nunique(), d) for _, d in blocks[s]]
              for s in ("paper", "ours")}
    heights = {s: [0.3 * rows + 2.4 for rows, _ in shapes[s]] for s in shapes}
    columns = max(frame[frame["eval_dataset"].isin(d)].groupby(["eval_dataset", "method"]).ngroups
                  for s in blocks for _, d in blocks[s])
    fig = plt.figure(figsize=(0.55 * columns + 4, sum(map(sum, heights.values())) + 1.0))
    for subfig, source, title in zip(fig.subfigures(2, 1, height_ratios=[sum(heights[s]) for s in ("paper", "ours")]),
                                     ("paper", "ours"), titles):
        total = sum(heights[source])  # fixed margins, in inches (a layout engine costs seconds here)
        axes = subfig.subplots(len(blocks[source]), 1, squeeze=False, height_ratios=heights[source],
                               gridspec_kw={"left": 2.2 / (0.55 * columns + 4), "right": 0.97, "top": 1 - 0.5 / total,
                                            "bottom": 1.9 / total, "hspace": 2.3 / (total / len(blocks[source]))})
        for ax, (block, datasets) in zip(axes[:, 0], blocks[source]):
            part = frame[(frame["source"] == source) & frame["eval_dataset"].isin(datasets)]
            cells = list(dict.fromkeys(zip(part["eval_dataset"], part["method"])))
            wide = part.pivot_table(index="model", columns=["eval_dataset", "method"], values="value", sort=False)
            wide = wide.reindex(index=list(dict.fromkeys(part["model"])), columns=pd.MultiIndex.from_tuples(cells))
            flags = part.assign(flag=marked[part.index]).pivot_table(index="model", columns=["eval_dataset", "method"],
                                                                     values="flag", aggfunc="any", sort=False)
            flags = flags.reindex(index=wide.index, columns=wide.columns).fillna(False).astype(bool)
            text = wide.map(lambda v: "" if np.isnan(v) else f"{v:.0f}") + flags.map(lambda f: "†" if f else "")
            wide.columns = text.columns = [f"{d} {p}" for d, p in cells]
            heatmap(ax, wide, annot=text, vmin=0, vmax=100, cbar=True, title=block)
            ax.collections[0].colorbar.set_label(cbar_label)
            ax.tick_params(axis="both", labelsize=7)
        subfig.suptitle(title, fontsize=10, y=1 - 0.15 / total)
    return fig


def _accuracy_heatmaps(metric: str) -> tuple[plt.Figure, pd.DataFrame]:
    frame = published_accuracies(metric)
    order = list(dict.fromkeys(frame["model"]))
    fig, axes = plt.subplots(2, 1, figsize=(19, 15), gridspec_kw={"height_ratios": [26, 12]})
    for ax, (label, datasets) in zip(axes, accuracy_blocks(list(dict.fromkeys(frame["dataset"])))):
        part = frame[frame["dataset"].isin(datasets)]
        columns = list(dict.fromkeys(zip(part["dataset"], part["protocol"])))
        wide = part.pivot(index="model", columns=["dataset", "protocol"], values="value")
        wide = wide.reindex(index=order if label.startswith("block 1") else order[:10], columns=columns)
        sns.heatmap(wide, annot=True, fmt=".1f", annot_kws={"fontsize": 6}, cmap="viridis", vmin=0, vmax=100,
                    cbar_kws={"label": f"{metric} accuracy (%)", "shrink": 0.6}, ax=ax, mask=wide.isna())
        ax.set_xticks(np.arange(len(columns)) + 0.5)
        ax.set_xticklabels([f"{d} {p}" for d, p in columns], rotation=90, fontsize=7)
        ax.set_yticklabels(ax.get_yticklabels(), fontsize=7)
        ax.set_xlabel("")
        ax.set_ylabel("")
        ax.set_title(f"Table S.{2 if metric == 'top1' else 3}, {label}; blank = not printed", fontsize=10)
    fig.tight_layout()
    return fig, frame[["model", "method", "backbone", "dataset", "protocol", "printed", "value"]]


def _table_s1_drawing() -> tuple[plt.Figure, pd.DataFrame]:
    ticks = survey_ticks()
    years = ticks.pop(("", "year"))
    ticks.columns = [f"{'ID' if d == 'in_domain' else 'OOD'} {p}" for d, p in ticks.columns]
    ticks.index = [f"{m} ({y})" for m, y in zip(ticks.index, years)]
    counts = protocol_counts()
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 7.5), gridspec_kw={"width_ratios": [3, 2]})
    _tick_heatmap(ticks, ax, "Table S.1: protocols used by each surveyed paper")
    labels = [f"{'ID' if d == 'in_domain' else 'OOD'} {p}" for d, p in zip(counts["domain"], counts["protocol"])]
    bx.barh(labels[::-1], counts["papers"][::-1], color="#3b75af")
    for y, v in enumerate(counts["papers"][::-1]):
        bx.text(v + 0.2, y, str(v), va="center", fontsize=8)
    bx.set_xlabel("papers using the protocol (of 23)")
    fig.tight_layout()
    data = survey_ticks().drop(columns=[("", "year")]).stack([0, 1], future_stack=True).rename("ticked").reset_index()
    return fig, data


def _table_s4_drawing() -> tuple[plt.Figure, pd.DataFrame]:
    s4 = published.load(PAPER, "table_s4")
    fig, ax = plt.subplots(figsize=(8.5, 6))
    order = list(dict.fromkeys(s4["dataset"]))
    sns.barplot(data=s4.dropna(subset=["value"]), y="dataset", x="value", hue="protocol", order=order, ax=ax)
    sns.move_legend(ax, "upper left", bbox_to_anchor=(1.01, 1), fontsize=8, title_fontsize=9)  # clear of the bars
    ax.set_xscale("log", base=2)
    ax.set_xlabel("effective batch size (log scale); no bar = printed '-'")
    ax.set_ylabel("")
    ax.set_title("Table S.4: effective batch sizes")
    fig.tight_layout()
    return fig, s4


def _table_s5_drawing() -> tuple[plt.Figure, pd.DataFrame]:
    s5 = published.load(PAPER, "table_s5", numeric=False).rename(columns={"printed": "source"})
    counts = s5.groupby(["source", "backbone"]).size().rename("models").reset_index()
    fig, ax = plt.subplots(figsize=(7, 4))
    sns.barplot(data=counts, y="source", x="models", hue="backbone", ax=ax)
    ax.set_title("Table S.5: where the 26 checkpoints come from")
    ax.set_ylabel("")
    fig.tight_layout()
    return fig, s5


def _table_s6_drawing() -> tuple[plt.Figure, pd.DataFrame]:
    view = _table_s6_view()
    ticks = view[["Coarse", "Fine", "Category", "Style"]] == "✓"
    ticks.index = [f"{d} [{p}]" for d, p in zip(view.index, view["accuracies printed"])]
    fig, ax = plt.subplots(figsize=(6.5, 5))
    _tick_heatmap(ticks, ax, "Table S.6: domain-shift groups\n[accuracies printed in S.2/S.3]")
    fig.tight_layout()
    data = view.reset_index().melt(id_vars=["dataset", "accuracies printed"], var_name="group", value_name="tick")
    return fig, data


def _table_s7_drawing() -> tuple[plt.Figure, pd.DataFrame]:
    runs = seed_runs()
    runs["experiment"] = [f"{r.protocol}, {r.dataset}\n{r.method} {r.backbone}" for r in runs.itertuples()]
    fig, ax = plt.subplots(figsize=(7.5, 7))
    for y, r in enumerate(runs.itertuples()):
        deviations = np.array([r.run1, r.run2, r.run3]) - r.mean
        ax.scatter(deviations, [y] * 3, color="#3b75af", s=18, zorder=3)
        ax.errorbar(0, y, xerr=r.std_population, color="black", capsize=3, lw=1)
        ax.text(3.4, y, f"mean {r.printed_mean}, std {r.printed_std}", va="center", fontsize=7)
    ax.set_yticks(range(len(runs)))
    ax.set_yticklabels(runs["experiment"], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(-4, 6.5)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel("run minus mean of the three runs (top-1 points); bar = ± printed-convention std")
    ax.set_title("Table S.7: three seeds per experiment")
    fig.tight_layout()
    tidy = runs.drop(columns=["experiment"])
    return fig, tidy


def _table_s8_drawing() -> tuple[plt.Figure, pd.DataFrame]:
    s8 = published.load(PAPER, "table_s8")
    hours = s8[s8["quantity"].str.startswith("gpu_hours")].copy()
    hours["backbone"] = hours["quantity"].map({"gpu_hours_resnet50": "ResNet-50", "gpu_hours_vitb16": "ViT-B/16"})
    fig, ax = plt.subplots(figsize=(7, 4))
    sns.barplot(data=hours, x="protocol", y="value", hue="backbone", ax=ax)
    for container in ax.containers:
        ax.bar_label(container, fmt="%g", fontsize=7)
    ax.set_yscale("log")
    ax.set_ylabel("GPU hours (log scale)")
    ax.set_xlabel("ImageNet protocol")
    ax.set_title("Table S.8: estimated cost of each protocol (2× RTX A5000)")
    fig.tight_layout()
    return fig, s8


# How each table is laid out (`table_view`) and drawn (`draw_table`): artefact -> (view, drawing).
RENDERINGS: dict[str, tuple[Callable[[], pd.DataFrame], Callable[[], tuple[plt.Figure, pd.DataFrame]]]] = {
    "table_s1": (_table_s1_view, _table_s1_drawing),
    "table_s2": (partial(_accuracy_view, "top1"), partial(_accuracy_heatmaps, "top1")),
    "table_s3": (partial(_accuracy_view, "top5"), partial(_accuracy_heatmaps, "top5")),
    "table_s4": (_table_s4_view, _table_s4_drawing),
    "table_s5": (_table_s5_view, _table_s5_drawing),
    "table_s6": (_table_s6_view, _table_s6_drawing),
    "table_s7": (_table_s7_view, _table_s7_drawing),
    "table_s8": (_table_s8_view, _table_s8_drawing),
}
TABLES = tuple(RENDERINGS)


def _rendering(artefact: str) -> tuple[Callable[[], pd.DataFrame], Callable[[], tuple[plt.Figure, pd.DataFrame]]]:
    """The table's (view, drawing); a ValueError names the tables there are."""
    if artefact not in RENDERINGS:
        raise ValueError(f"unknown table {artefact!r}; expected one of {TABLES}")
    return RENDERINGS[artefact]


def table_view(artefact: str) -> pd.DataFrame:
    """The table laid out as in the paper, cells as printed."""
    return _rendering(artefact)[0]()


def draw_table(artefact: str) -> tuple[plt.Figure, pd.DataFrame]:
    """A readable rendering of the table and the tidy data it draws."""
    return _rendering(artefact)[1]()
