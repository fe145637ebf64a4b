"""Class-balanced few-shot subsets (ssl_protocols' 10 % and 1 % fine-tuning) and stratified train/test
splits, drawn with a fixed seed."""

from __future__ import annotations

import numpy as np

TEST_FRACTION = 0.3


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


def split(labels: np.ndarray, seed: int, test_fraction: float = TEST_FRACTION) -> tuple[np.ndarray, np.ndarray]:
    """A stratified train/test split of indices."""
    from sklearn.model_selection import train_test_split

    indices = np.arange(len(labels))
    train, test = train_test_split(indices, test_size=test_fraction, stratify=labels, random_state=seed)
    return np.sort(train), np.sort(test)
