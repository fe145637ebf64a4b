"""The paper's printed tables as tidy frames: one row per model (or class) × metric, with `printed`
(the text as printed) and `value` (its float; NaN for "n/a"), and the labels the figures need.

Model names follow the paper's rule "CLIP-<dataset>-<backbone>" (App. B). Families: `CLIP` (other
data), `CLIP-DC` (DataComp), `CLIP-DFN` (DFN), the two high-quality ones the paper marks with *,
`ImageNet` and `LVLM`. Backbone sizes and pre-training set sizes are our annotations for the marker
size and shade of Fig. 2 (the paper prints neither); they are approximate and only order the points.
"""

from __future__ import annotations

import math
import re

import pandas as pd

from .. import published
from ..published import parse_number

PAPER = "counteranimal"
GROUPS = ("common", "counter")

# Table groups by layout.
CLIP_TABLES = ("table03", "table10", "table11", "table13")  # backbone, pre-train dataset (*), common/counter/drop
IMAGENET_TABLES = ("table04", "table12", "table14")  # backbone, common/counter/drop
CLASSWISE_TABLES = ("table15", "table16")
SETUP = {  # which evaluation each model-level table reports
    "table03": "1 vs 1000", "table04": "1 vs 1000", "table05": "1 vs 20", "table09": "1 vs 1000",
    "table10": "1 vs 1000, 80 prompts", "table11": "1 vs 1000, unbalanced", "table12": "1 vs 1000, unbalanced",
    "table13": "1 vs 20", "table14": "1 vs 20",
}

# Approximate image-encoder parameters (millions): marker size only (our annotation, not printed).
BACKBONE_PARAMS = {
    "RN50": 38, "RN101": 56, "RN50×4": 87, "RN50×16": 167, "RN50×64": 420, "ViT/B/32": 88, "ViT/B/32-256": 88,
    "ViT/B/16": 86, "ViT/L/14": 304, "ViT/L/14-336": 304, "ViT/H/14": 632, "ViT/H/14-384": 632,
    "ViT/G/14": 1012, "ViT/bigG/14": 1845, "ConvNext/B": 88, "ConvNext/BW": 88,
    "AlexNet": 61, "VGG11": 133, "VGG13": 133, "VGG19": 144, "RN18": 12, "RN34": 22, "ViT/L/16": 304,
    "ViT/L/32": 306, "ConvNext/S": 50, "ConvNext/L": 198, "MiniGPT4-Vicuna7B": 7000, "LLaVA1.5-7B": 7000,
}
# Approximate pre-training pairs (millions) for the shade (our annotation; ImageNet-1K for ImageNet models).
DATA_SIZE = {"OpenAI": 400, "LAION400M": 400, "LAION2B": 2000, "DataComp1B": 1400, "DFN2B": 2000, "DFN5B": 5000,
             "ImageNet-1K": 1.28}


def parse_cell(text: str) -> float:
    """A printed cell as a float: "n/a" is NaN, "87.42±0.79" is its mean 87.42."""
    cleaned = str(text).strip()
    if cleaned.lower() == "n/a":
        return math.nan
    return parse_number(cleaned.split("±", 1)[0])


def parse_spread(text: str) -> float:
    """The ± part of a printed "mean±sd" cell (NaN where none is printed)."""
    parts = str(text).split("±", 1)
    return parse_number(parts[1]) if len(parts) == 2 else math.nan


def raw(artefact: str) -> pd.DataFrame:
    """One artefact's CSV: labels, `printed`, and `value` where the cell is a number (NaN for words)."""
    frame = published.load(PAPER, artefact, numeric=False)
    numeric = frame["printed"].str.match(r"^\s*[+\-−]?\d[\d.]*(±[\d.]+)?\s*$|^n/a$", case=False)
    frame["value"] = [parse_cell(t) if ok else math.nan for t, ok in zip(frame["printed"], numeric)]
    return frame


def family_of(pretrain: str) -> str:
    """`CLIP-DC`, `CLIP-DFN` or `CLIP` from a pre-train dataset name."""
    return "CLIP-DC" if pretrain.startswith("DataComp") else "CLIP-DFN" if pretrain.startswith("DFN") else "CLIP"


def clip_model(backbone: str, pretrain: str) -> str:
    return f"CLIP-{pretrain}-{backbone}"


def _annotate(frame: pd.DataFrame, artefact: str) -> pd.DataFrame:
    frame["artefact"] = artefact
    frame["setup"] = SETUP.get(artefact, "")
    frame["params_m"] = frame["backbone"].map(BACKBONE_PARAMS)
    frame["data_m"] = frame["pretrain_dataset"].map(DATA_SIZE)
    return frame


def _clip_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """CLIP tables: family from the pre-training dataset, model from backbone and dataset."""
    frame["family"] = frame["pretrain_dataset"].map(family_of)
    frame["model"] = [clip_model(b, d) for b, d in zip(frame["backbone"], frame["pretrain_dataset"])]
    frame["high_quality"] = frame["family"] != "CLIP"
    return frame


def _imagenet_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """ImageNet tables: one family, the backbone is the model."""
    frame["family"], frame["pretrain_dataset"], frame["high_quality"] = "ImageNet", "ImageNet-1K", False
    frame["model"] = frame["backbone"]
    return frame


def _table05_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 5: family, backbone and dataset parsed from the printed model name."""
    parsed = [_parse_table05_model(m) for m in frame["model"]]
    frame["family"] = [p[0] for p in parsed]
    frame["backbone"] = [p[1] for p in parsed]
    frame["pretrain_dataset"] = [p[2] for p in parsed]
    frame["high_quality"] = frame["family"].isin(["CLIP-DC", "CLIP-DFN"])
    return frame


# How each model-level table names its models.
MODEL_READERS = {**{a: _clip_rows for a in (*CLIP_TABLES, "table09")},
                 **{a: _imagenet_rows for a in IMAGENET_TABLES}, "table05": _table05_rows}


def model_table(artefact: str) -> pd.DataFrame:
    """A model-level table (3, 4, 5, 9–14) as `artefact, setup, family, model, backbone, pretrain_dataset,
    checkpoint, high_quality, metric, printed, value, params_m, data_m`."""
    if artefact not in MODEL_READERS:
        raise ValueError(f"{artefact} is not a model-level table; those are {sorted(MODEL_READERS)}")
    frame = MODEL_READERS[artefact](raw(artefact))
    if "checkpoint" not in frame:
        frame["checkpoint"] = ""
    frame = _annotate(frame, artefact)
    return frame[["artefact", "setup", "family", "model", "backbone", "pretrain_dataset", "checkpoint",
                  "high_quality", "metric", "printed", "value", "params_m", "data_m"]]


def _parse_table05_model(name: str) -> tuple[str, str, str]:
    """Table 5's row label as (family, backbone, pre-train dataset)."""
    match = re.match(r"^CLIP-([^-]+)-(.+)$", name)
    if match:
        return family_of(match.group(1)), match.group(2), match.group(1)
    return "LVLM", name, ""


def wide(frame: pd.DataFrame, index: list[str] | None = None) -> pd.DataFrame:
    """One row per model (or class × model) with `common`, `counter`, `drop` columns (values)."""
    index = index or [c for c in ("family", "model", "backbone", "pretrain_dataset", "checkpoint", "high_quality",
                                  "params_m", "data_m") if c in frame]
    out = frame.groupby(index + ["metric"], sort=False, dropna=False)["value"].first().unstack("metric")
    out = out.reindex(columns=list(dict.fromkeys(frame["metric"])))
    out.columns.name = None
    return out.reset_index()


def classwise(artefact: str) -> pd.DataFrame:
    """Table 15 or 16: `artefact, class_id (int), model, metric, printed, value`."""
    frame = raw(artefact)
    frame["class_id"] = frame["class_id"].astype(int)
    frame["artefact"] = artefact
    return frame[["artefact", "class_id", "model", "metric", "printed", "value"]]


def class_names() -> pd.DataFrame:
    """Table 2 wide: `class_id, object_label, common, counter` (the background labels)."""
    frame = raw("table02")
    out = frame.pivot(index=["class_id", "object_label"], columns="group", values="printed").reset_index()
    out.columns.name = None
    out["class_id"] = out["class_id"].astype(int)
    return out.sort_values("class_id", ignore_index=True)


# Table 2's labels that are no ImageNet-1K synset string as printed (README: missing commas, misspellings, a
# shortened string), by class id: the synset string each reads as (our reading; `evaluation.table02_imagenet_indices`)
TABLE02_READINGS = {
    9: "common iguana, iguana, Iguana iguana", 14: "king snake, kingsnake", 15: "garter snake, grass snake",
    24: "sulphur-crested cockatoo, Kakatoe galerita, Cacatua galerita", 27: "black stork, Ciconia nigra",
    35: "Arctic fox, white fox, Alopex lagopus",
    43: "bighorn, bighorn sheep, cimarron, Rocky Mountain bighorn, Rocky Mountain sheep, Ovis canadensis",
}


# Table 6's checkpoints as OpenCLIP (model, pretrained tag): our reading (notes §4.2); where the printed tag is
# no OpenCLIP tag, the nearest one is given and `exists` is False.
OPENCLIP_CHECKPOINTS = {
    ("ViT/B/16", "LAION400M"): ("ViT-B-16", "laion400m_e31", True),
    ("ViT/B/16", "LAION2B"): ("ViT-B-16", "laion2b_s34b_b88k", True),
    ("ViT/B/16", "DataComp1B"): ("ViT-B-16", "datacomp_xl_s13b_b90k", True),
    ("ViT/B/32", "LAION400M"): ("ViT-B-32-quickgelu", "laion400m_e31", True),
    ("ViT/B/32", "LAION2B"): ("ViT-B-32", "laion2b_s34b_b79k", True),
    ("ViT/B/32", "DataComp1B"): ("ViT-B-32", "datacomp_xl_s13b_b90k", True),
    ("ViT/L/14", "LAION400M"): ("ViT-L-14", "laion400m_e31", True),
    ("ViT/L/14", "LAION2B"): ("ViT-L-14", "laion2b_s32b_b82k", True),
    ("ViT/L/14", "DataComp1B"): ("ViT-L-14", "datacomp_xl_s13b_b90k", False),
    ("ViT/H/14", "LAION2B"): ("ViT-H-14", "laion2b_s32b_b79k", True),
    ("ViT/G/14", "LAION2B"): ("ViT-g-14", "laion2b_s34b_b88k", True),
    ("ViT/bigG/14", "LAION2B"): ("ViT-bigG-14", "laion2b_s39b_b160k", False),
    ("ConvNext/B", "LAION400M"): ("convnext_base", "laion400m_s13b_b51k", True),
    ("ConvNext/BW", "LAION2B"): ("convnext_base_w", "laion2b_s13b_b82k", True),
}


def checkpoint_table() -> pd.DataFrame:
    """Table 6 as printed beside our OpenCLIP reading of each checkpoint."""
    frame = raw("table06")
    readings = [OPENCLIP_CHECKPOINTS[(b, d)] for b, d in zip(frame["backbone"], frame["pretrain_dataset"])]
    return frame.assign(openclip_model=[r[0] for r in readings], openclip_tag=[r[1] for r in readings],
                        printed_tag_exists=["yes" if r[2] else "no" for r in readings]).drop(columns="value")
