"""Ranking class scores into top-k predictions, with the tie rule stated, and top-k accuracy."""

from __future__ import annotations

import numpy as np


def rank_classes(scores: np.ndarray, k: int) -> np.ndarray:
    """The `k` best classes of each row of `scores` (items × classes), best first.

    Ties are broken towards the lower class index (a stable sort of the negated scores), which is
    what `argmax` and scikit-learn's `KNeighborsClassifier.predict` do for the first place.
    """
    if k > scores.shape[1]:
        raise ValueError(f"top-{k} asked of {scores.shape[1]} classes")
    return np.argsort(-scores, axis=1, kind="stable")[:, :k]


def topk_accuracy(ranked: np.ndarray, targets: np.ndarray, k: int) -> float:
    """Fraction of items whose target is among the first `k` columns of `ranked` (items × ≥k)."""
    if ranked.shape[1] < k:
        raise ValueError(f"top-{k} accuracy needs at least {k} ranked classes, got {ranked.shape[1]}")
    return float((ranked[:, :k] == np.asarray(targets)[:, None]).any(axis=1).mean())
