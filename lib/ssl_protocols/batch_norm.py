"""Sec. 4.3 and Fig. 4: what feature normalisation (z-scored kNN, a batch-norm layer before the
linear head, a batch-norm head while few-shot fine-tuning) does to each model's accuracy.

Table S.2 prints the normalised variant of kNN and LP on every dataset, and of fine-tuning only for
the two ImageNet few-shot protocols (FT10%_BN, FT1%_BN). Fig. 4 also shows fine-tuning with batch
norm on every OOD dataset; those accuracies are not printed. The optimizer steps on Fig. 4's x-axis
need each dataset's training-set size, which the paper does not print either: for ImageNet-1k the
public size of the ILSVRC-2012 training split is used (stated below), for the OOD datasets the steps
are left empty.
"""

from __future__ import annotations

import math

import pandas as pd

from .. import published
from .accuracies import published_accuracies
from .shift_groups import IN_DOMAIN, wide_scores

PAPER = "ssl_protocols"
# protocol -> (column without, column with normalisation)
NORMALISATION_PAIRS = {
    "kNN": ("kNN", "kNN_N"),
    "LP": ("LP", "LP_BN"),
    "FT-10%": ("FT10%", "FT10%_BN"),
    "FT-1%": ("FT1%", "FT1%_BN"),
}
FIGURE04_MODELS = ("DINO (RN-50)", "MaskFeat (ViT-B/16)")
# Models Sec. 4.3 names: "unscaled" embeddings (strong effect) and DINO (no effect either way).
UNSCALED_EXAMPLES = ("SimSiam (RN-50)", "MaskFeat (ViT-B/16)")
SCALED_EXAMPLES = ("DINO (RN-50)", "DINO (ViT-B/16)")
# An accuracy change this small (points) is read as "no effect": it is below the largest seed std
# of Table S.7 (2.62) and about twice the second largest (0.69).
NO_EFFECT_POINTS = 2.0
# Size of the ILSVRC-2012 (ImageNet-1k) training split; not printed in the paper.
IMAGENET_TRAIN_IMAGES = 1_281_167
# ImageNet fine-tuning protocols: (fraction of the training labels, Table S.8 row, Table S.4 row).
IMAGENET_FINE_TUNING = {
    "FT": (1.0, "FT", "ImageNet-1k (full)"),
    "FT-10%": (0.1, "10%-FT", "ImageNet-1k (10%)"),
    "FT-1%": (0.01, "1%-FT", "ImageNet-1k (1%)"),
}


def normalisation_gains(accuracies: pd.DataFrame) -> pd.DataFrame:
    """One row per model × dataset × protocol with both variants printed: `without, with, gain`."""
    wide = wide_scores(accuracies)
    meta = accuracies.drop_duplicates("model").set_index("model")[["method", "backbone"]]
    rows = []
    for dataset in dict.fromkeys(accuracies["dataset"]):
        for protocol, (plain, normalised) in NORMALISATION_PAIRS.items():
            if (dataset, plain) not in wide.columns or (dataset, normalised) not in wide.columns:
                continue
            part = pd.DataFrame({"without": wide[(dataset, plain)], "with": wide[(dataset, normalised)]}).dropna()
            for model, r in part.iterrows():
                rows.append({"model": model, "method": meta.loc[model, "method"], "backbone": meta.loc[model, "backbone"],
                             "dataset": dataset, "protocol": protocol, "without": r["without"], "with": r["with"],
                             "gain": r["with"] - r["without"]})
    return pd.DataFrame(rows)


def gain_summary(gains: pd.DataFrame, threshold: float = NO_EFFECT_POINTS) -> pd.DataFrame:
    """Per dataset × protocol: models, mean and extreme gains, and how many gain / lose more than `threshold`."""
    grouped = gains.groupby(["dataset", "protocol"], sort=False)
    out = grouped["gain"].agg(n_models="count", mean_gain="mean", largest_gain="max", smallest_gain="min")
    out["model with largest gain"] = grouped.apply(lambda g: g.loc[g["gain"].idxmax(), "model"], include_groups=False)
    out["model with smallest gain"] = grouped.apply(lambda g: g.loc[g["gain"].idxmin(), "model"], include_groups=False)
    out[f"gain > {threshold:g}"] = grouped["gain"].apply(lambda g: int((g > threshold).sum()))
    out[f"loss > {threshold:g}"] = grouped["gain"].apply(lambda g: int((g < -threshold).sum()))
    return out.reset_index()


def optimizer_steps(images: int, batch_size: int, epochs: int) -> int:
    """Optimizer steps of `epochs` passes over `images` in batches of `batch_size` (last batch kept)."""
    return math.ceil(images / batch_size) * epochs


def imagenet_fine_tuning_steps(batch_source: str = "table_s4") -> pd.DataFrame:
    """Steps of the three ImageNet fine-tuning protocols: epochs from Table S.8, batch size from
    Table S.4 (`batch_source="table_s4"`) or S.8 (`"table_s8"`; the two disagree for the few-shot
    protocols), subset size = fraction × the ILSVRC-2012 training split (rounded)."""
    if batch_source not in ("table_s4", "table_s8"):
        raise ValueError(f"batch_source must be 'table_s4' or 'table_s8', got {batch_source!r}")
    s8 = published.load(PAPER, "table_s8").set_index(["protocol", "quantity"])["value"]
    s4 = published.load(PAPER, "table_s4").set_index(["dataset", "protocol"])["value"]
    rows = []
    for protocol, (fraction, s8_row, s4_row) in IMAGENET_FINE_TUNING.items():
        batch = s4[(s4_row, "end_to_end_fine_tuning")] if batch_source == "table_s4" else s8[(s8_row, "batch_size")]
        epochs = int(s8[(s8_row, "epochs")])
        images = round(fraction * IMAGENET_TRAIN_IMAGES)
        rows.append({"protocol": protocol, "images": images, "batch_size": int(batch), "epochs": epochs,
                     "steps": optimizer_steps(images, int(batch), epochs), "batch_source": batch_source})
    return pd.DataFrame(rows)


def figure04_frame(metric: str = "top1", models: tuple[str, ...] = FIGURE04_MODELS,
                   batch_source: str = "table_s4") -> pd.DataFrame:
    """Fig. 4's bars as far as printed: `model, dataset, protocol, batch_norm, accuracy, steps, printed`.

    ImageNet FT (100 %) and every OOD dataset have no printed batch-norm variant; those rows carry
    `accuracy` NaN and `printed` False so the figure can say so.
    """
    wide = wide_scores(published_accuracies(metric))
    steps = imagenet_fine_tuning_steps(batch_source).set_index("protocol")["steps"]
    columns = {"FT": ("FT", None), "FT-10%": ("FT10%", "FT10%_BN"), "FT-1%": ("FT1%", "FT1%_BN")}
    ood = [d for d in dict.fromkeys(wide.columns.get_level_values(0)) if d != IN_DOMAIN]
    rows = []
    for model in models:
        for protocol, (plain, normalised) in columns.items():
            for batch_norm, column in ((False, plain), (True, normalised)):
                value = wide.loc[model, (IN_DOMAIN, column)] if column else math.nan
                rows.append({"model": model, "dataset": "ImageNet", "protocol": protocol, "batch_norm": batch_norm,
                             "accuracy": value, "steps": int(steps[protocol]), "printed": not math.isnan(value)})
        for dataset in ood:
            for batch_norm in (False, True):
                value = wide.loc[model, (dataset, "FT")] if not batch_norm else math.nan
                rows.append({"model": model, "dataset": dataset, "protocol": "FT", "batch_norm": batch_norm,
                             "accuracy": value, "steps": math.nan, "printed": not math.isnan(value)})
    return pd.DataFrame(rows)


# What an empty bar means, per source: the paper did not print it; our study does not run it.
MISSING_BAR = {"paper": "n/p", "ours": "n/r"}
BAR_COLOURS = ((-0.2, False, "#9ecae1"), (0.2, True, "#08519c"))


def _draw_bar_panel(ax, part: pd.DataFrame, missing: str, ylabel: str) -> None:
    """One model's bar pairs (without / with batch norm) per dataset and protocol, ordered by
    optimizer steps where known; bars without a value are marked `missing`."""
    import numpy as np

    part = part.assign(order=part["steps"].fillna(-1)).sort_values(["order", "dataset"], kind="stable")
    labels = list(dict.fromkeys(zip(part["dataset"], part["protocol"], part["order"])))
    x = np.arange(len(labels))
    for offset, batch_norm, colour in BAR_COLOURS:
        values = [part[(part["dataset"] == d) & (part["protocol"] == p) & (part["batch_norm"] == batch_norm)]["accuracy"].item()
                  for d, p, _ in labels]
        ax.bar(x + offset, np.nan_to_num(values), width=0.4, color=colour,
               label="with batch norm" if batch_norm else "without batch norm")
        for xi, v in zip(x + offset, values):
            if np.isnan(v):
                ax.text(xi, 1, missing, rotation=90, ha="center", va="bottom", fontsize=6, color="grey")
    ax.set_xticks(x)
    ax.set_xticklabels([f"{d} {p} ({int(s):,} steps)" if s >= 0 else f"{d} {p}" for d, p, s in labels],
                       rotation=90, fontsize=7)
    ax.set_ylabel(ylabel)


def draw_figure04(frame: pd.DataFrame):
    """Fig. 4 as far as printed: per model, accuracy without / with batch norm per dataset and protocol,
    ordered by optimizer steps where known; unprinted bars are marked `n/p`."""
    import matplotlib.pyplot as plt

    models = list(dict.fromkeys(frame["model"]))
    fig, axes = plt.subplots(1, len(models), figsize=(6.2 * len(models), 4.2), squeeze=False, sharey=True)
    for ax, model in zip(axes[0], models):
        _draw_bar_panel(ax, frame[frame["model"] == model], MISSING_BAR["paper"], "top-1 accuracy (%)")
        ax.set_title(model)
    axes[0, 0].set_ylim(0, 112)
    axes[0, 0].legend(fontsize=7, loc="upper center", ncol=2)
    fig.suptitle("Fig. 4 from Table S.2: fine-tuning with and without batch norm (n/p = not printed)", fontsize=10)
    fig.tight_layout()
    return fig


def paper_and_ours_figure04(frame: pd.DataFrame, titles: tuple[str, str], ylabel: str = "top-1 accuracy (%)"):
    """Fig. 4's bars for the paper's two models (top) and our two (bottom), from `figure04_frame`-shaped
    rows with a `source` column, on one 0–100 % axis: n/p = not printed, n/r = not run by our study."""
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(12.4, 10.5), layout="constrained")
    for subfig, source, title in zip(fig.subfigures(2, 1), ("paper", "ours"), titles):
        part = frame[frame["source"] == source]
        models = list(dict.fromkeys(part["model"]))
        axes = subfig.subplots(1, max(len(models), 1), squeeze=False, sharey=True)
        for ax, model in zip(axes[0], models):
            _draw_bar_panel(ax, part[part["model"] == model], MISSING_BAR[source], ylabel)
            ax.set_title(model, fontsize=9)
        axes[0, 0].set_ylim(0, 112)
        axes[0, 0].legend(fontsize=7, loc="upper center", ncol=2)
        subfig.suptitle(title, fontsize=10)
    return fig


def study_fine_tuning_steps(train_labels, settings_blocks: dict[str, dict], fractions: dict[str, float]) -> dict[str, int]:
    """Optimizer steps of our study's in-domain fine-tuning protocols (`FT` and the few-shot ones):
    the training split's size (or its class-balanced fraction), the block's batch size (capped at the
    subset's size, as the study does) and epochs, last batch kept."""
    from ..data.subsets import per_class_count

    labels = list(train_labels)
    classes = len(set(labels))
    steps = {"FT": optimizer_steps(len(labels), settings_blocks["finetune"]["batch_size"],
                                   settings_blocks["finetune"]["epochs"])}
    block = settings_blocks["fewshot_finetune"]
    for protocol, fraction in fractions.items():
        images = per_class_count(train_labels, fraction) * classes
        steps[protocol] = optimizer_steps(images, min(block["batch_size"], images), block["epochs"])
    return steps


def our_figure04_frame(accuracies: pd.DataFrame, models: list[str], in_domain: str,
                       steps: dict[str, int] | None = None) -> pd.DataFrame:
    """`figure04_frame`'s rows for our study's `models`: in domain FT, FT-10 % and FT-1 % without and
    with the batch-norm head, and FT on each OOD domain; FT with batch norm is not run (NaN)."""
    wide = wide_scores(accuracies)
    steps = steps or {}
    columns = {"FT": ("FT", None), "FT-10%": ("FT10%", "FT10%_BN"), "FT-1%": ("FT1%", "FT1%_BN")}
    datasets = list(dict.fromkeys(wide.columns.get_level_values(0)))
    rows = []
    for model in models:
        for dataset in datasets:
            for protocol, (plain, normalised) in columns.items() if dataset == in_domain else [("FT", ("FT", None))]:
                for batch_norm, column in ((False, plain), (True, normalised)):
                    value = wide.loc[model, (dataset, column)] if column and (dataset, column) in wide.columns else math.nan
                    rows.append({"model": model, "dataset": dataset, "protocol": protocol, "batch_norm": batch_norm,
                                 "accuracy": value,
                                 "steps": steps.get(protocol, math.nan) if dataset == in_domain else math.nan,
                                 "printed": not math.isnan(value)})
    return pd.DataFrame(rows)
