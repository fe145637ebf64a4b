"""The one per-item prediction format of every paper's runs: building a frame and scoring its hits.

A prediction frame has a row per evaluated item: `item` (its index in the evaluation set), `target`
and `pred_1` ... `pred_k`, the k best classes, best first (`ranking.rank_classes`'s tie rule: the
lower class index wins). A run adds its own columns (evaluation dataset, part, epoch ...). Top-1,
top-k and any later metric on the ranked classes come from these columns; a rank a run could not
fill (fewer than k classes) is missing and never counts as a hit. Torch-free: notebooks that read
stored runs score them with this module; `lib.evaluate.predictions` computes them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

PREFIX = "pred_"


def prediction_frame(targets: np.ndarray, ranked: np.ndarray, **columns) -> pd.DataFrame:
    """The prediction rows of items with these targets and ranked classes (items x k), plus `columns`."""
    targets, ranked = np.asarray(targets), np.asarray(ranked)
    if ranked.ndim != 2 or len(ranked) != len(targets):
        raise ValueError(f"ranked classes must be items x k with one row per target, got {ranked.shape} for {len(targets)} targets")
    frame = pd.DataFrame({**columns, "item": np.arange(len(targets)), "target": targets})
    for rank in range(ranked.shape[1]):
        frame[f"{PREFIX}{rank + 1}"] = ranked[:, rank]
    return frame


def prediction_columns(frame: pd.DataFrame) -> list[str]:
    """The ranked-class columns of a prediction frame, best rank first."""
    columns = [c for c in frame.columns if c.startswith(PREFIX) and c[len(PREFIX):].isdigit()]
    if not columns:
        raise ValueError(f"not a prediction frame: no {PREFIX}<rank> column among {list(frame.columns)}")
    return sorted(columns, key=lambda c: int(c[len(PREFIX):]))


def hits(frame: pd.DataFrame, k: int = 1) -> np.ndarray:
    """Whether each item's target is among its first `k` ranked classes."""
    columns = prediction_columns(frame)
    if k > len(columns):
        raise ValueError(f"top-{k} asked of a frame ranking {len(columns)} classes")
    return (frame[columns[:k]].to_numpy() == frame["target"].to_numpy()[:, None]).any(axis=1)
