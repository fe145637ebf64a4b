"""The paper's accuracy tables (S.2 top-1, S.3 top-5) as tidy frames and per-dataset score tables."""

from __future__ import annotations

import pandas as pd

from .. import published

PAPER = "ssl_protocols"
ARTEFACT_BY_METRIC = {"top1": "table_s2", "top5": "table_s3"}


def model_label(method: str, backbone: str) -> str:
    """One name per model: DINO and MoCo v3 exist with two backbones, so the backbone is part of it."""
    return f"{method} ({backbone})"


def published_accuracies(metric: str = "top1") -> pd.DataFrame:
    """Table S.2 (`top1`) or S.3 (`top5`) as rows `model, method, backbone, dataset, protocol, metric, printed, value`."""
    if metric not in ARTEFACT_BY_METRIC:
        raise ValueError(f"metric must be one of {sorted(ARTEFACT_BY_METRIC)}, got {metric!r}")
    frame = published.load(PAPER, ARTEFACT_BY_METRIC[metric])
    frame.insert(0, "model", [model_label(m, b) for m, b in zip(frame["method"], frame["backbone"])])
    frame["metric"] = metric
    return frame


def score_table(accuracies: pd.DataFrame, dataset: str, columns: dict[str, str]) -> pd.DataFrame:
    """Models × protocols scores on one dataset.

    `columns` maps the label to show (e.g. "LP") to the protocol column to take it from
    (e.g. "LP_BN"). Model order follows the table's order.
    """
    on_dataset = accuracies[accuracies["dataset"] == dataset]
    wide = on_dataset.pivot(index="model", columns="protocol", values="value")
    missing = sorted(set(columns.values()) - set(wide.columns))
    if missing:
        raise KeyError(f"protocol column(s) {missing} not printed for dataset {dataset!r}")
    order = list(dict.fromkeys(on_dataset["model"]))
    return wide.loc[order, list(columns.values())].set_axis(list(columns), axis=1)
