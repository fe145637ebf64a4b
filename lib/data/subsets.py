"""Class-balanced few-shot subsets (ssl_protocols' 10 % and 1 % fine-tuning), drawn with a fixed seed."""

from __future__ import annotations

import numpy as np


def per_class_count(labels: np.ndarray, fraction: float) -> int:
    """Images per class for a `fraction` of a dataset: round(fraction × N / classes), at least 1."""
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must lie in (0, 1], got {fraction}")
    classes = np.unique(labels)
    return max(1, round(fraction * len(labels) / len(classes)))


def class_balanced_indices(labels: np.ndarray, per_class: int, seed: int) -> np.ndarray:
    """Exactly `per_class` indices of every class, drawn without replacement, sorted."""
    labels = np.asarray(labels)
    rng = np.random.default_rng(seed)
    chosen = []
    for label in np.unique(labels):
        members = np.flatnonzero(labels == label)
        if len(members) < per_class:
            raise ValueError(f"class {label} has {len(members)} items, fewer than the {per_class} asked for")
        chosen.append(rng.choice(members, size=per_class, replace=False))
    return np.sort(np.concatenate(chosen))
