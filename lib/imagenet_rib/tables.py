"""ImageNet-RIB's printed tables as one tidy schema, and the quantities the paper derives from them.

Every published CSV (`lib/published/imagenet_rib/tableNN.csv`) is loaded into rows

    artefact, architecture, pretraining, classifier, method, finetune_dataset, eval_dataset,
    metric, setting, printed, value

- `classifier`: `imagenet` (the model was fine-tuned on ImageNet-1K before the benchmark and keeps its
  1000-way head; Tables 1-3, 6, 7, 10, 11, 14-31) or `zero-shot` (an open_clip CLIP/SigLIP model with a
  text-derived zero-shot head, App. C: Tables 4, 5, 8, 9, 12).
- `method`: `Pretrained` for a model before fine-tuning, else the fine-tuning method.
- `finetune_dataset`: D_FT; empty for a pretrained model and for numbers aggregated over all D_FT
  (mRI, backward transfer, Table 4's "after" average).
- `eval_dataset`: where an accuracy is measured (`Avg OOD` = the printed mean over the eight OOD
  datasets); empty for RI/mRI, which average over the other datasets themselves.
- `metric`: `accuracy`, `RI`, `mRI`, `difference`, `mRI difference`, `best epoch`, `mean eRI`,
  `pearson r`, `backward transfer`, `mRI standard error`, `best alpha`.
- `setting`: what else distinguishes a number (Table 14's weight decay, Table 16's alpha, Table 31's
  corruption, ...); empty when nothing does.

The derivations below are pure functions of such frames; RI, mRI and backward transfer come from
`lib.metrics.robustness` (Eq. 1 of the paper).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np
import pandas as pd

from .. import published
from ..metrics.robustness import backward_transfer, mean_robustness_improvement, robustness_improvement

PAPER = "imagenet_rib"
IMAGENET = "ImageNet-1K"
AVG_OOD = "Avg OOD"
# The benchmark set D (Sec. 3.2), in the column order of the paper's tables. ImageNet-1K is not in D.
SUITE: tuple[str, ...] = (
    "ImageNet-V2", "ImageNet-A", "ImageNet-R", "ImageNet-Sketch",
    "ObjectNet", "ImageNet-Cartoon", "ImageNet-Drawing", "ImageNet-C",
)
# "Realistic" fine-tuning sets (App. B.2 / Fig. 11 exclude the synthetic ones made from the ImageNet val set).
SYNTHETIC: tuple[str, ...] = ("ImageNet-Cartoon", "ImageNet-Drawing", "ImageNet-C")
REALISTIC: tuple[str, ...] = tuple(d for d in SUITE if d not in SYNTHETIC)
SHORT: dict[str, str] = {
    "ImageNet-1K": "IN-1K", "ImageNet-V2": "IN-V2", "ImageNet-A": "IN-A", "ImageNet-R": "IN-R",
    "ImageNet-Sketch": "IN-Sketch", "ObjectNet": "ObjNet", "ImageNet-Cartoon": "IN-Cartoon",
    "ImageNet-Drawing": "IN-Drawing", "ImageNet-C": "IN-C", AVG_OOD: "Avg OOD",
}
METHODS: tuple[str, ...] = (
    "FT", "Linear Probing", "Visual Prompt", "LoRA", "EWC", "LwF", "LP-FT", "WiSE-FT", "MS:PRE-FT-EWC-LwF",
)
ZERO_SHOT_METHODS: tuple[str, ...] = ("FT", "FLYP", "Visual Prompt", "LoRA", "EWC", "LwF", "WiSE-FT", "MS:PRE-FT-EWC-LwF")
CONTINUAL: tuple[str, ...] = ("EWC", "LwF")  # the regularisation-based continual-learning methods
# Pretraining datasets of the ImageNet-classifier models, from smallest to largest (Sec. 4.1, 4.3).
IMAGENET_PRETRAININGS: tuple[str, ...] = ("IN-1K", "IN-1K + AugReg", "IN-1K + SAM", "IN-21K", "IN-21K-P", "IN-21K + AugReg")
WEB_PRETRAININGS: tuple[str, ...] = ("OpenAI", "LAION-2B")
PRETRAINING_ORDER: tuple[str, ...] = (*IMAGENET_PRETRAININGS, *WEB_PRETRAININGS)
ARCHITECTURES: tuple[str, ...] = ("ViT-B/16", "ViT-B/32", "ViT-S/16", "ViT-S/32", "ViT-L/16", "ResNet-18", "ResNet-50")
RI_TABLES: tuple[str, ...] = ("table22", "table23", "table24", "table25", "table26", "table27", "table28")
ACCURACY_TABLES: tuple[str, ...] = ("table01", "table04", "table06", "table09", "table12", "table17")

COLUMNS = [
    "artefact", "architecture", "pretraining", "classifier", "method", "finetune_dataset",
    "eval_dataset", "metric", "setting", "printed", "value",
]
TABLE31_GROUPS: dict[str, str] = {
    "gaussian_noise": "Noise", "shot_noise": "Noise", "impulse_noise": "Noise",
    "defocus_blur": "Blur", "glass_blur": "Blur", "motion_blur": "Blur", "zoom_blur": "Blur",
    "snow": "Weather", "frost": "Weather", "fog": "Weather", "brightness": "Weather",
    "contrast": "Digital", "elastic_transform": "Digital", "pixelate": "Digital", "jpeg_compression": "Digital",
}


def model_label(architecture: str, pretraining: str) -> str:
    """One name per pretrained model, e.g. 'ViT-B/16 IN-1K + AugReg'."""
    return f"{architecture} {pretraining}".strip()


# ---------------------------------------------------------------------------------------------
# Loading: one converter per printed layout, all into COLUMNS.

def _tidy(frame: pd.DataFrame, artefact: str, **fixed: str) -> pd.DataFrame:
    out = frame.copy()
    out["artefact"] = artefact
    for column, value in fixed.items():
        out[column] = value
    for column in COLUMNS:
        if column not in out.columns:
            out[column] = ""
    return out[COLUMNS].reset_index(drop=True)


def _pretrained_accuracies(raw: pd.DataFrame, artefact: str, classifier: str) -> pd.DataFrame:
    frame = raw.rename(columns={"dataset": "eval_dataset"})
    return _tidy(frame, artefact, classifier=classifier, method="Pretrained", metric="accuracy")


def _staged_accuracies(raw: pd.DataFrame, artefact: str, finetune_dataset: str) -> pd.DataFrame:
    frame = raw.rename(columns={"dataset": "eval_dataset"})
    fine_tuned = frame["stage"] == "fine-tuned"
    frame["method"] = np.where(fine_tuned, "FT", "Pretrained")
    frame["finetune_dataset"] = np.where(fine_tuned, finetune_dataset, "")
    return _tidy(frame, artefact, classifier="zero-shot", metric="accuracy")


def _ri_table(raw: pd.DataFrame, artefact: str) -> pd.DataFrame:
    return _tidy(raw, artefact, classifier="imagenet")


def _mri(raw: pd.DataFrame, artefact: str, classifier: str, **fixed: str) -> pd.DataFrame:
    return _tidy(raw, artefact, classifier=classifier, metric="mRI", **fixed)


def _table06(raw: pd.DataFrame, artefact: str) -> pd.DataFrame:
    frame = raw.rename(columns={"dataset": "eval_dataset", "quantity": "metric"})
    return _tidy(frame, artefact, classifier="imagenet", method="FT", finetune_dataset="ImageNet-1K (val)")


def _table07(raw: pd.DataFrame, artefact: str) -> pd.DataFrame:
    return _tidy(raw, artefact, classifier="imagenet", eval_dataset=IMAGENET, metric="pearson r",
                 setting="vs OTDD(ImageNet-1K, D_FT) over realistic D_FT")


def _table10(raw: pd.DataFrame, artefact: str) -> pd.DataFrame:
    frame = raw.copy()
    frame["metric"] = frame["quantity"].map({"mRI": "mRI", "difference": "mRI difference", "best_epoch": "best epoch"})
    return _tidy(frame, artefact, classifier="imagenet", setting="train/validation split")


def _table14(raw: pd.DataFrame, artefact: str) -> pd.DataFrame:
    frame = raw.copy()
    frame["setting"] = "weight decay " + frame["weight_decay"]
    return _mri(frame, artefact, "imagenet")


def _table15(raw: pd.DataFrame, artefact: str) -> pd.DataFrame:
    frame = raw.copy()
    frame["metric"] = frame["quantity"].map({"mean": "mRI", "standard_error": "mRI standard error"})
    return _tidy(frame, artefact, classifier="imagenet", setting="3 seeds")


def _table16(raw: pd.DataFrame, artefact: str) -> pd.DataFrame:
    frame = raw.copy()
    frame["metric"] = np.where(frame["quantity"] == "best alpha", "best alpha", "mRI")
    frame["setting"] = frame["quantity"].map(
        {"mRI (alpha = 0.5)": "alpha = 0.5", "mRI (best alpha)": "best alpha", "best alpha": "best alpha"})
    return _tidy(frame, artefact, classifier="imagenet")


def _table18(raw: pd.DataFrame, artefact: str) -> pd.DataFrame:
    return _tidy(raw, artefact, classifier="imagenet", eval_dataset=IMAGENET, metric="backward transfer")


def _finetune_accuracy(raw: pd.DataFrame, artefact: str) -> pd.DataFrame:
    frame = raw.copy()
    frame["eval_dataset"] = frame["finetune_dataset"]
    return _tidy(frame, artefact, classifier="imagenet", metric="accuracy", setting="fine-tuning set")


def _table30(raw: pd.DataFrame, artefact: str) -> pd.DataFrame:
    return _tidy(raw, artefact, architecture="ViT-B/16", pretraining="IN-1K + AugReg", classifier="imagenet",
                 metric="accuracy")


def _table31(raw: pd.DataFrame, artefact: str) -> pd.DataFrame:
    frame = raw.copy()
    frame["setting"] = frame["corruption"].replace({"Avg": "mean over corruptions"})
    return _tidy(frame, artefact, architecture="ViT-B/16", pretraining="IN-1K + AugReg", classifier="imagenet",
                 eval_dataset="ImageNet-C", metric="accuracy")


_CONVERTERS: dict[str, Callable[[pd.DataFrame, str], pd.DataFrame]] = {
    "table01": lambda raw, a: _pretrained_accuracies(raw, a, "imagenet"),
    "table02": _ri_table,
    "table03": lambda raw, a: _mri(raw, a, "imagenet"),
    "table04": lambda raw, a: _staged_accuracies(raw, a, ""),
    "table05": lambda raw, a: _mri(raw, a, "zero-shot"),
    "table06": _table06,
    "table07": _table07,
    "table08": lambda raw, a: _mri(raw, a, "zero-shot"),
    "table09": lambda raw, a: _pretrained_accuracies(raw, a, "zero-shot"),
    "table10": _table10,
    "table11": lambda raw, a: _tidy(raw, a, classifier="imagenet", metric="mean eRI", setting="train/validation split"),
    "table12": lambda raw, a: _staged_accuracies(raw, a, "StanfordCars"),
    "table14": _table14,
    "table15": _table15,
    "table16": _table16,
    "table17": lambda raw, a: _pretrained_accuracies(raw, a, "imagenet"),
    "table18": _table18,
    "table19": _finetune_accuracy,
    "table20": _finetune_accuracy,
    "table21": _finetune_accuracy,
    **{t: _ri_table for t in RI_TABLES},
    "table30": _table30,
    "table31": _table31,
}
NUMERIC_ARTEFACTS: tuple[str, ...] = tuple(_CONVERTERS)


def is_printed(artefact: str) -> bool:
    """Whether `lib/published/imagenet_rib/<artefact>.csv` exists (Table 25's rows are not in our text)."""
    try:
        published.paths(PAPER, artefact)
    except FileNotFoundError:
        return False
    return True


@lru_cache(maxsize=None)
def _load_cached(artefact: str) -> pd.DataFrame:
    if artefact not in _CONVERTERS:
        raise KeyError(f"{artefact!r} is not a numeric imagenet_rib table; expected one of {list(_CONVERTERS)}")
    return _CONVERTERS[artefact](published.load(PAPER, artefact), artefact)


def load_table(artefact: str) -> pd.DataFrame:
    """One printed table in the tidy schema (a fresh copy; raises FileNotFoundError if not extracted)."""
    return _load_cached(artefact).copy()


def load_tables(artefacts: tuple[str, ...] | list[str] | None = None) -> pd.DataFrame:
    """Several printed tables stacked; the default is every numeric table that is extracted."""
    chosen = [a for a in (artefacts or NUMERIC_ARTEFACTS) if is_printed(a)]
    return pd.concat([load_table(a) for a in chosen], ignore_index=True)


def select(frame: pd.DataFrame, **labels: str) -> pd.DataFrame:
    """Rows of `frame` whose columns equal the given labels (e.g. `select(f, method="FT")`)."""
    mask = pd.Series(True, index=frame.index)
    for column, value in labels.items():
        mask &= frame[column] == value
    return frame[mask]


def accuracies(frame: pd.DataFrame, **labels: str) -> dict[str, float]:
    """{eval_dataset: accuracy} of the rows matching `labels` (one row per eval dataset, dashes dropped)."""
    rows = select(frame, **labels).dropna(subset=["value"])
    if rows["eval_dataset"].duplicated().any():
        raise ValueError(f"several rows per eval dataset for {labels}; add labels to pick one")
    return dict(zip(rows["eval_dataset"], rows["value"]))


def printed_cell(frame: pd.DataFrame, **labels: str) -> pd.Series:
    """The one row matching `labels`; KeyError if there is none or several."""
    rows = select(frame, **labels)
    if len(rows) != 1:
        raise KeyError(f"{len(rows)} rows match {labels}")
    return rows.iloc[0]


# ---------------------------------------------------------------------------------------------
# Derivations (pure functions of tidy frames).

def average_ood(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean accuracy over the eight datasets of D per model/method/fine-tuning row.

    Returns the group labels, `n` (datasets present), `mean` (NaN unless all eight are printed) and,
    where the table prints one, the `printed` Avg OOD beside it.
    """
    keys = ["artefact", "architecture", "pretraining", "classifier", "method", "finetune_dataset", "setting"]
    acc = frame[frame["metric"] == "accuracy"]
    on_suite = acc[acc["eval_dataset"].isin(SUITE)]
    grouped = on_suite.groupby(keys, sort=False)["value"].agg(["count", "mean"]).reset_index()
    grouped = grouped.rename(columns={"count": "n"})
    grouped.loc[grouped["n"] < len(SUITE), "mean"] = np.nan
    printed_avg = acc[acc["eval_dataset"] == AVG_OOD][keys + ["printed"]]
    return grouped.merge(printed_avg, on=keys, how="left").fillna({"printed": ""})


def pretrained_baseline(source: str = "table17", architecture: str = "ViT-B/16", pretraining: str = "IN-1K + AugReg") -> dict[str, float]:
    """The pretrained model's accuracies on ImageNet-1K and D, from Table 17 (default) or Table 30's
    `Pretrained` row (which prints ObjectNet 25.7 where Table 17 prints 33.0)."""
    if source == "table17":
        return accuracies(load_table("table17"), architecture=architecture, pretraining=pretraining)
    if source == "table30":
        if (architecture, pretraining) != ("ViT-B/16", "IN-1K + AugReg"):
            raise ValueError("Table 30 holds ViT-B/16 IN-1K + AugReg only")
        return accuracies(load_table("table30"), method="Pretrained")
    raise ValueError(f"source must be 'table17' or 'table30', got {source!r}")


def finetuned_accuracies(table30: pd.DataFrame, method: str) -> dict[str, dict[str, float]]:
    """{D_FT: {eval dataset: accuracy}} of one method in Table 30 (the fine-tuning set itself is a dash)."""
    rows = table30[(table30["method"] == method) & (table30["finetune_dataset"] != "")].dropna(subset=["value"])
    return {d: dict(zip(g["eval_dataset"], g["value"])) for d, g in rows.groupby("finetune_dataset", sort=False)}


def recompute_ri(table30: pd.DataFrame, baseline: dict[str, float]) -> pd.DataFrame:
    """RI (Eq. 1) of every method × D_FT of Table 30, and each method's mRI, against `baseline`.

    Rows: `method, metric (RI|mRI), finetune_dataset, recomputed`.
    """
    rows = []
    for method in dict.fromkeys(table30.loc[table30["method"] != "Pretrained", "method"]):
        by_dataset = finetuned_accuracies(table30, method)
        rows.append((method, "mRI", "", mean_robustness_improvement(by_dataset, baseline, SUITE)))
        for dataset, after in by_dataset.items():
            rows.append((method, "RI", dataset, robustness_improvement(after, baseline, dataset, SUITE)))
    return pd.DataFrame(rows, columns=["method", "metric", "finetune_dataset", "recomputed"])


def backward_transfer_table30(table30: pd.DataFrame, baseline: dict[str, float]) -> pd.DataFrame:
    """Table 18's quantity for ViT-B/16 IN-1K + AugReg: mean ImageNet-1K change over the 8 D_FT of Table 30."""
    rows = []
    for method in dict.fromkeys(table30.loc[table30["method"] != "Pretrained", "method"]):
        rows.append((method, backward_transfer(finetuned_accuracies(table30, method), baseline, IMAGENET)))
    return pd.DataFrame(rows, columns=["method", "recomputed"])


def mri_from_printed_ris(frame: pd.DataFrame) -> pd.DataFrame:
    """Per RI-table block (model × method): the printed mRI beside the mean of its printed RIs.

    Columns: artefact, architecture, pretraining, method, printed, n_ri, mean_ri, missing.
    """
    keys = ["artefact", "architecture", "pretraining", "method"]
    ri = frame[frame["metric"] == "RI"].dropna(subset=["value"])
    means = ri.groupby(keys, sort=False).agg(n_ri=("value", "size"), mean_ri=("value", "mean"),
                                              present=("finetune_dataset", lambda s: set(s))).reset_index()
    means["missing"] = [", ".join(d for d in SUITE if d not in p) for p in means.pop("present")]
    mri = frame[frame["metric"] == "mRI"][keys + ["printed"]]
    return mri.merge(means, on=keys, how="left")


def table31_corruption_means(table31: pd.DataFrame) -> pd.DataFrame:
    """Per method × D_FT: the printed ImageNet-C average beside the mean of its 15 printed corruptions."""
    keys = ["method", "finetune_dataset"]
    per = table31[table31["setting"] != "mean over corruptions"]
    means = per.groupby(keys, sort=False)["value"].agg(["count", "mean"]).reset_index()
    avg = table31[table31["setting"] == "mean over corruptions"][keys + ["printed"]]
    return avg.merge(means, on=keys, how="left")


def ood_before_after(mri: pd.DataFrame, before_source: pd.DataFrame) -> pd.DataFrame:
    """Fig. 4/8: mean OOD accuracy before fine-tuning and after (= before + mRI, the Fig. 8 identity).

    `mri`: tidy mRI rows (e.g. Table 3); `before_source`: pretrained accuracies (e.g. Table 17).
    Models whose pretrained accuracies are not printed get NaN before/after.
    """
    before = average_ood(before_source[before_source["method"] == "Pretrained"])
    before = before.rename(columns={"mean": "before"})[["architecture", "pretraining", "before"]]
    out = mri[["architecture", "pretraining", "method", "value"]].rename(columns={"value": "mRI"})
    out = out.merge(before, on=["architecture", "pretraining"], how="left")
    out["after"] = out["before"] + out["mRI"]
    out.insert(0, "model", [model_label(a, p) for a, p in zip(out["architecture"], out["pretraining"])])
    return out


def wide(frame: pd.DataFrame, index: str | list[str], columns: str, values: str = "value") -> pd.DataFrame:
    """Pivot a tidy frame keeping the printed order of rows and columns."""
    index_list = [index] if isinstance(index, str) else list(index)
    table = frame.pivot_table(index=index_list, columns=columns, values=values, aggfunc="first", sort=False)
    table.columns.name = None
    return table


def method_by_model(frame: pd.DataFrame, metric: str = "mRI", setting: str = "") -> pd.DataFrame:
    """Methods × models ('<architecture> <pretraining>') of one metric, in printed order (NaN for dashes)."""
    rows = frame[(frame["metric"] == metric) & (frame["setting"] == setting)].copy()
    rows["model"] = [model_label(a, p) for a, p in zip(rows["architecture"], rows["pretraining"])]
    return wide(rows, "method", "model")


def rank_of(column: pd.Series, method: str) -> int:
    """1 + the number of methods strictly better than `method` in `column` (ties share a rank)."""
    value = column[method]
    return int(1 + (column.dropna() > value).sum())


# Table 13 as printed (architecture label, pretraining, library, weight name), with the registry key of
# each row (lib/registry/models.csv). In our text the architecture column slides against the weight
# names from the sixth row on; lib/registry/MODELS.md gives the reading.
TABLE13_PRINTED: tuple[tuple[str, str, str, str, str], ...] = (
    ("ViT-B/16", "IN-1K + AugReg", "timm", "vit_base_patch16_224.augreg_in1k", "rib_vit_b16_augreg_in1k"),
    ("ViT-B/16", "IN-1K + SAM", "timm", "vit_base_patch16_224.sam_in1k", "rib_vit_b16_sam_in1k"),
    ("ViT-B/16", "IN-21K", "timm", "vit_base_patch16_224.orig_in21k_ft_in1k", "rib_vit_b16_orig_in21k"),
    ("ViT-B/16", "IN-21K + AugReg", "timm", "vit_base_patch16_224.augreg_in21k_ft_in1k", "rib_vit_b16_augreg_in21k"),
    ("ViT-B/16", "IN-21K-P", "timm", "vit_base_patch16_224_miil_in21k_ft_in1k", "rib_vit_b16_miil_in21k"),
    ("ViT-B/32", "LAION-2B", "timm", "vit_base_patch16_clip_224.laion2b_ft_in1k", "rib_vit_b16_clip_laion2b_ft_in1k"),
    ("ViT-B/32", "OpenAI", "timm", "vit_base_patch16_clip_224.openai_ft_in1k", "rib_vit_b16_clip_openai_ft_in1k"),
    ("ViT-B/32", "IN-1K + AugReg", "timm", "vit_base_patch32_224.augreg_in1k", "rib_vit_b32_augreg_in1k"),
    ("ViT-S/16", "IN-21K + AugReg", "timm", "vit_base_patch32_224.augreg_in21k_ft_in1k", "rib_vit_b32_augreg_in21k"),
    ("ViT-S/16", "LAION-2B", "timm", "vit_base_patch32_clip_224.laion2b_ft_in1k", "rib_vit_b32_clip_laion2b_ft_in1k"),
    ("ViT-S/16", "OpenAI", "timm", "vit_base_patch32_clip_224.openai_ft_in1k", "rib_vit_b32_clip_openai_ft_in1k"),
    ("ViT-S/32", "IN-1K + AugReg", "timm", "vit_small_patch16_224.augreg_in1k", "rib_vit_s16_augreg_in1k"),
    ("ViT-S/32", "IN-21K + AugReg", "timm", "vit_small_patch16_224.augreg_in21k_ft_in1k", "rib_vit_s16_augreg_in21k"),
    ("ViT-L/16", "IN-21K + AugReg", "timm", "vit_small_patch32_224.augreg_in21k_ft_in1k", "rib_vit_s32_augreg_in21k"),
    ("ViT-L/32", "IN-21K + AugReg", "timm", "vit_large_patch16_224.augreg_in21k_ft_in1k", "rib_vit_l16_augreg_in21k"),
    ("ResNet-18", "IN-1K", "torchvision", "ResNet18_Weights.DEFAULT", "rib_resnet18_in1k"),
    ("ResNet-50", "IN-1K", "torchvision", "ResNet50_Weights.DEFAULT", "rib_resnet50_in1k"),
)


def table13_beside_registry(registry: pd.DataFrame) -> pd.DataFrame:
    """Table 13 as printed next to our registry row (`registry`: lib/registry/models.csv as a frame)."""
    printed = pd.DataFrame(list(TABLE13_PRINTED),
                           columns=["printed architecture", "printed pretraining", "printed library", "printed weight name", "key"])
    rows = registry.set_index("key")
    out = printed.join(rows[["library", "name", "pretrained", "notes"]], on="key")
    out["registry weight"] = np.where(out["library"] == "torchvision", out["pretrained"], out["name"])
    out["reading"] = out["notes"].str.extract(r"reading: ([^.(]*)")[0].str.strip()
    out["same weight name"] = out["printed weight name"] == out["registry weight"]
    return out[["printed architecture", "printed pretraining", "printed library", "printed weight name", "key",
                "library", "registry weight", "same weight name", "reading"]]
