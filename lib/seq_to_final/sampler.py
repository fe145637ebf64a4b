"""Seq-to-Final's shift sequences: the per-step stratified sampler and sequences chained from the blocks of
`lib.seq_to_final.shifts` (numpy only, no torch).

As the official `load_datasets_over_time` / `load_corrupted_dataset` / `select_cifar10_samples` /
`select_cifar100_samples` do it:
- every step draws its images independently from the same training pool (steps overlap) and the final step
  also draws the shared test set from the test pool;
- per class c (uniform probabilities unless `label_shift`): int(n x p_c) train+validation samples (the last
  class takes the remainder), of which int(.8 x class_n) go to training; the test split likewise with
  int(test_size x p_c); for sub-population pools the same split is made per fine class inside each
  super-class (`shifts.subpopulation_counts`; under the code's reading, the default, the fine classes after
  the last non-zero proportion get the remainder as well, so the sss steps 0-2 hold all or most fine
  classes and more images than their stated sizes: `subpopulation_reading="paper"` gives the text's);
- the random stream: a `RandomState(seed)` for the source and `RandomState(s_t)` for step t, where
  s_1..s_T = `RandomState(seed).randint(10000, size=T)`; within a step the calls come in the code's order
  (per class: shuffle the training indices, then the test indices; shuffle the aggregated train, valid
  and test; then the noise draws), so on the real CIFAR arrays the same images are chosen;
- the shifts of a step are applied to its train, valid and test images in the code's order (`shifts.apply_step`).

Sequences: `SEQUENCES` (CLR, RCL, rrr, TTT, sss) with the sizes of Sec. 2.3 (`SYNTHETIC_SIZES`, test 5000),
and the variable-length rotation sequences with the sizes of Table 3 (`variable_length_sizes`).
Option where the paper disagrees with itself: `variable_length_entries(n_steps, rotation_kind)`: the code and
Table 14 use plain rotations ("rotation"); Fig. 14's caption says conditional rotations ("rotation_cond").
Sec. 2.3's "two to eight 30-degree rotations" does not fit Table 3: a row of n sizes is n steps, the source
and n - 1 rotation steps; we follow Table 3.

Embedded pools for the small tiers (no download): `digits_pool` (scikit-learn's digits as 32x32 RGB, 10
classes, a CIFAR-10 stand-in) and `digits_subpopulation_pool` (two super-classes of five digits each, in the
order 0..4 and 5..9, a CIFAR-100 stand-in).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..paths import PUBLISHED_DIR
from .shifts import (CIFAR100_FINE_NAMES, SUBPOPULATION_ORDER, StepShift, accumulate_shifts, apply_step,
                     subpopulation_counts)

TRAIN_FRACTION = 0.8
DEFAULT_SEED = 1007
SYNTHETIC_SIZES = (6000, 4000, 6000, 4000)  # train + validation per step, source first
ORACLE_SIZES = (6000, 4000, 6000, 20000)
TEST_SIZE = 5000
SEQUENCES: dict[str, tuple[str, ...]] = {
    "CLR": ("corruption", "label_flip", "rotation"),
    "RCL": ("rotation", "corruption", "label_flip"),
    "rrr": ("rotation_cond",) * 3,
    "TTT": ("recolor",) * 3,
    "sss": ("subpop",) * 3,
}


@dataclass(frozen=True)
class ImagePool:
    """Images to draw steps from: training pool and test pool, uint8 (N, H, W, 3), with integer labels.

    For a class pool the labels are the classes. For a sub-population pool they are fine labels and
    `subpopulations[c]` lists super-class c's fine labels in the order they enter (the step labels are the
    super-classes)."""

    train_images: np.ndarray
    train_labels: np.ndarray
    test_images: np.ndarray
    test_labels: np.ndarray
    num_classes: int
    subpopulations: tuple[tuple[int, ...], ...] | None = None
    name: str = ""


@dataclass
class Step:
    """One step of a sequence: its cumulative shift and its splits (name -> (images, labels)), with the
    pool indices the images were drawn from (before shifting)."""

    index: int
    shift: StepShift
    splits: dict[str, tuple[np.ndarray, np.ndarray]]
    pool_indices: dict[str, np.ndarray]
    seed: int


def class_counts(sample_size: int, label_probs: Sequence[float]) -> list[int]:
    """Train+validation (or test) samples per class, as the code: int(n x p_c), except that the last class
    takes the remainder (the code's loop is the sub-population one; with no zero probability the two
    readings of `shifts.subpopulation_counts` agree)."""
    return subpopulation_counts(sample_size, list(label_probs), "code")


def train_count(class_size: int) -> int:
    """Training samples out of a class's train+validation samples: int(.8 x n); the rest is validation."""
    return int(TRAIN_FRACTION * class_size)


def _select(pool_labels: np.ndarray, wanted: int, rng: np.random.RandomState, label: int) -> np.ndarray:
    """Pool indices of `label`, shuffled as the code does (a shuffled arange over that class's indices)."""
    indices = np.flatnonzero(pool_labels == label)
    order = np.arange(len(indices))
    rng.shuffle(order)
    if wanted > len(indices):
        raise ValueError(f"class {label} has {len(indices)} images in the pool, {wanted} wanted")
    return indices[order]


def select_step(pool: ImagePool, sample_size: int, test_size: int, rng: np.random.RandomState,
                label_probs: Sequence[float] | None = None,
                subpopulations: Sequence[float] | None = None, subpopulation_reading: str = "code",
                ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Pool indices and step labels of one step's train / valid (/ test when `test_size`) splits:
    `sample_size` counts all three, as the code's `sample_size` does. Returns split -> (indices, labels).
    `subpopulation_reading` ("code" or "paper", see `shifts.subpopulation_counts`): under "code" a
    sub-population step holds more images than `sample_size`, as the official runs did."""
    probs = np.ones(pool.num_classes) / pool.num_classes if label_probs is None else np.asarray(label_probs)
    per_class = class_counts(sample_size - test_size, probs)
    per_class_test = class_counts(test_size, probs) if test_size else [0] * pool.num_classes
    parts: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {"train": [], "valid": [], "test": []}
    for label in range(pool.num_classes):
        if pool.subpopulations is None:
            groups = [(label, per_class[label], per_class_test[label])]
        else:
            if subpopulations is None:
                raise ValueError("a sub-population pool needs the step's sub-population proportions")
            sizes = subpopulation_counts(per_class[label], subpopulations, subpopulation_reading)
            test_sizes = (subpopulation_counts(per_class_test[label], subpopulations, subpopulation_reading)
                          if test_size else [0] * len(sizes))
            groups = list(zip(pool.subpopulations[label], sizes, test_sizes))
        for source_label, size, size_test in groups:
            train_indices = _select(pool.train_labels, size, rng, source_label)
            if test_size:
                test_indices = _select(pool.test_labels, size_test, rng, source_label)
            n_train = train_count(size)
            parts["train"].append((train_indices[:n_train], np.full(n_train, label)))
            parts["valid"].append((train_indices[n_train:size], np.full(size - n_train, label)))
            if test_size:
                parts["test"].append((test_indices[:size_test], np.full(size_test, label)))
    out = {}
    for split in ("train", "valid", "test"):
        if split == "test" and not test_size:
            continue
        indices = np.concatenate([p[0] for p in parts[split]]).astype(np.int64)
        labels = np.concatenate([p[1] for p in parts[split]]).astype(np.int64)
        order = np.arange(len(indices))
        rng.shuffle(order)  # `aggregate_and_shuffle_samples`
        out[split] = (indices[order], labels[order])
    return out


def step_seeds(seed: int, n_targets: int) -> list[int]:
    """The target steps' seeds: `np.random.seed(seed); np.random.randint(10000, size=T)`."""
    return [int(s) for s in np.random.RandomState(seed).randint(10000, size=n_targets)]


def build_sequence(pool: ImagePool, entries: Sequence[str], sizes: Sequence[int], test_size: int,
                   seed: int = DEFAULT_SEED, subpopulation_reading: str = "code") -> list[Step]:
    """A shift sequence on `pool`: `entries` (one per target step, e.g. `SEQUENCES["CLR"]`), `sizes` the
    train+validation size of every step (source first), `test_size` the final step's shared test set;
    `subpopulation_reading` for sub-population pools ("code" default, or "paper")."""
    if len(sizes) != len(entries) + 1:
        raise ValueError(f"{len(entries)} target steps need {len(entries) + 1} sizes (source first), got {len(sizes)}")
    shifts = accumulate_shifts(entries, pool.num_classes)
    if pool.subpopulations is None and any(s.subpopulations != shifts[0].subpopulations for s in shifts):
        raise ValueError("sub-population shifts need a sub-population pool (CIFAR-100 or its stand-in)")
    seeds = [seed, *step_seeds(seed, len(entries))]
    steps = []
    for index, (shift, size, step_seed) in enumerate(zip(shifts, sizes, seeds)):
        rng = np.random.RandomState(step_seed)
        final = index == len(entries)
        this_test = test_size if final else 0
        chosen = select_step(pool, size + this_test, this_test, rng, shift.class_probabilities(),
                             shift.subpopulations if pool.subpopulations is not None else None,
                             subpopulation_reading)
        splits = {}
        for split, (indices, labels) in chosen.items():
            images = pool.test_images[indices] if split == "test" else pool.train_images[indices]
            splits[split] = (images, labels)
        shifted = apply_step(splits, shift, rng) if index else splits  # the source is never shifted
        steps.append(Step(index, shift, shifted, {k: v[0] for k, v in chosen.items()}, step_seed))
    return steps


def synthetic_sequence(pool: ImagePool, name: str, sizes: Sequence[int] = SYNTHETIC_SIZES,
                       test_size: int = TEST_SIZE, seed: int = DEFAULT_SEED,
                       subpopulation_reading: str = "code") -> list[Step]:
    """One of the five synthetic sequences (`SEQUENCES`) on `pool` (sss needs a sub-population pool)."""
    if name not in SEQUENCES:
        raise KeyError(f"unknown sequence {name!r}; known: {list(SEQUENCES)}")
    return build_sequence(pool, SEQUENCES[name], sizes, test_size, seed, subpopulation_reading)


def variable_length_sizes() -> dict[int, tuple[int, ...]]:
    """Table 3: number of steps -> train+validation size per step (the printed thousands x 1000)."""
    import csv

    sizes: dict[int, dict[int, int]] = {}
    with open(PUBLISHED_DIR / "seq_to_final" / "table03.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            sizes.setdefault(int(row["n_steps"]), {})[int(row["step"])] = int(round(float(row["value"]) * 1000))
    return {n: tuple(steps[s] for s in sorted(steps)) for n, steps in sorted(sizes.items())}


def variable_length_entries(n_steps: int, rotation_kind: str = "rotation") -> tuple[str, ...]:
    """The target entries of the n-step rotation sequence: n - 1 rotation steps after the source.
    `rotation_kind`: "rotation" (the code, Table 14) or "rotation_cond" (Fig. 14's caption)."""
    if rotation_kind not in ("rotation", "rotation_cond"):
        raise ValueError(f"rotation_kind must be 'rotation' or 'rotation_cond', got {rotation_kind!r}")
    if n_steps < 2:
        raise ValueError("a sequence has a source and at least one shifted step")
    return (rotation_kind,) * (n_steps - 1)


def variable_length_sequence(pool: ImagePool, n_steps: int, rotation_kind: str = "rotation", scale: float = 1.0,
                             test_size: int = TEST_SIZE, seed: int = DEFAULT_SEED) -> list[Step]:
    """The n-step rotation sequence with Table 3's sizes (times `scale` for the small tiers)."""
    sizes = tuple(int(round(s * scale)) for s in variable_length_sizes()[n_steps])
    return build_sequence(pool, variable_length_entries(n_steps, rotation_kind), sizes, test_size, seed)


# ------------------------------------------------------------------------------------- embedded pools

def _digits_rgb(size: int) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's digits (0..16 grey) as uint8 RGB (N, size, size, 3) on 0..255, enlarged by repetition."""
    from sklearn.datasets import load_digits

    digits = load_digits()
    if size % 8:
        raise ValueError(f"digits are 8x8; size must be a multiple of 8, got {size}")
    grey = np.rint(digits.images * (255.0 / 16.0)).astype(np.uint8)
    factor = size // 8
    grey = grey.repeat(factor, axis=1).repeat(factor, axis=2)
    return np.repeat(grey[..., None], 3, axis=3), digits.target.astype(np.int64)


def _split_pool(images: np.ndarray, labels: np.ndarray, test_fraction: float, seed: int):
    rng = np.random.default_rng(seed)
    test = np.zeros(len(labels), dtype=bool)
    for label in np.unique(labels):
        indices = np.flatnonzero(labels == label)
        test[rng.permutation(indices)[: int(round(test_fraction * len(indices)))]] = True
    return images[~test], labels[~test], images[test], labels[test]


def digits_pool(size: int = 32, test_fraction: float = 0.3, seed: int = 0) -> ImagePool:
    """The digits as a CIFAR-10 stand-in: 10 classes, about 126 training and 54 test images per class."""
    images, labels = _digits_rgb(size)
    return ImagePool(*_split_pool(images, labels, test_fraction, seed), num_classes=10, name="digits")


def digits_subpopulation_pool(size: int = 32, test_fraction: float = 0.3, seed: int = 0) -> ImagePool:
    """The digits as a CIFAR-100 stand-in: two super-classes, digits 0-4 and 5-9, whose five digits enter in
    numerical order (0, 1 at step 0, then 2, 3, 4; and 5, 6, then 7, 8, 9)."""
    images, labels = _digits_rgb(size)
    return ImagePool(*_split_pool(images, labels, test_fraction, seed), num_classes=2,
                     subpopulations=((0, 1, 2, 3, 4), (5, 6, 7, 8, 9)), name="digits_superclasses")


def cifar100_subpopulations() -> tuple[tuple[int, ...], ...]:
    """CIFAR-100's fine label indices per super-class in the order they enter (for a CIFAR-100 pool)."""
    return tuple(tuple(CIFAR100_FINE_NAMES.index(name) for name in names) for names in SUBPOPULATION_ORDER)
