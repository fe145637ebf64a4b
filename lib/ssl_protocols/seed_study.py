"""Table S.7 (three seeds of one model per protocol and dataset) and the batch sizes of S.4 / S.8."""

from __future__ import annotations

import pandas as pd

from .. import published
from .accuracies import model_label

PAPER = "ssl_protocols"
# Table S.7 spells some names differently from Table S.2; these map them onto S.2's labels.
S7_TO_S2_DATASET = {"ImageNet": "Imagenet", "Pascal VOC": "PascalVOC", "Caltech-256": "Caltech-256", "CUB": "CUB"}
S7_TO_S2_METHOD = {"Deepcluster v2": "Deepcluster-v2", "SeLa v2": "Sela-v2", "Barlowtwins": "Barlow Twins"}
S7_TO_S2_PROTOCOL = {
    "Linear Probing": "LP", "Linear Probe": "LP", "Fine-tuning": "FT",
    "10% Fine-tuning": "FT10%", "1% Fine-tuning": "FT1%",
}
# Table S.8 names the ImageNet protocols; Table S.4 gives the same batch sizes per dataset.
S8_TO_S4 = {
    "LP": ("ImageNet-1k (full)", "linear_probe"),
    "FT": ("ImageNet-1k (full)", "end_to_end_fine_tuning"),
    "10%-FT": ("ImageNet-1k (10%)", "end_to_end_fine_tuning"),
    "1%-FT": ("ImageNet-1k (1%)", "end_to_end_fine_tuning"),
}


def seed_runs() -> pd.DataFrame:
    """One row per S.7 experiment: the three runs, the printed mean and std, and their recomputations.

    `std_population` (ddof=0) is the convention that reproduces the printed stds; `std_sample`
    (ddof=1) is shown beside it.
    """
    frame = published.load(PAPER, "table_s7")
    keys = ["protocol", "dataset", "method", "backbone"]
    wide = frame.pivot_table(index=keys, columns="quantity", values="value", aggfunc="first", sort=False)
    printed = frame.pivot_table(index=keys, columns="quantity", values="printed", aggfunc="first", sort=False)
    runs = wide[["run1", "run2", "run3"]].to_numpy()
    out = wide[["run1", "run2", "run3"]].copy()
    out["printed_mean"] = printed["mean"]
    out["printed_std"] = printed["std"]
    out["mean"] = runs.mean(axis=1)
    out["std_population"] = runs.std(axis=1, ddof=0)
    out["std_sample"] = runs.std(axis=1, ddof=1)
    return out.reset_index()


def s2_cell_for(row: pd.Series) -> tuple[str, str, str] | None:
    """(model, dataset, protocol) of the Table S.2 cell an S.7 row repeats, or None if S.2 lacks it."""
    dataset = S7_TO_S2_DATASET.get(row["dataset"])
    if dataset is None:
        return None
    method = S7_TO_S2_METHOD.get(row["method"], row["method"])
    return model_label(method, row["backbone"]), dataset, S7_TO_S2_PROTOCOL[row["protocol"]]


def batch_sizes() -> pd.DataFrame:
    """ImageNet batch size of each protocol in Table S.8 beside Table S.4's (`protocol, s8, s4`)."""
    s8 = published.load(PAPER, "table_s8")
    s4 = published.load(PAPER, "table_s4").set_index(["dataset", "protocol"])
    rows = []
    for protocol, key in S8_TO_S4.items():
        s8_value = s8[(s8["protocol"] == protocol) & (s8["quantity"] == "batch_size")]["printed"].item()
        rows.append({"protocol": protocol, "s8": s8_value, "s4": s4.loc[key, "printed"]})
    return pd.DataFrame(rows)
