"""A Seq-to-Final sequence as training data: T + 1 time points of (images, labels) splits, and the groupings
the methods train on (numpy only, no torch).

`build(spec)` draws a sequence with `sampler.build_sequence` (the official per-step stratified sampler, seeds
and shift order; see `lib.seq_to_final.sampler`) from a named image pool (`POOLS`) and returns a
`ShiftSequence`: per step a train and a valid split, plus the shared test split at the final step, each
holding the shifted uint8 images, the step's labels (after any label flips) and the pool indices the images
were drawn from. The groupings are those of the official `combine_data_loaders_over_time` callers:
- `final(split)`: the final step only (baseline, oracle; every method's final-step selection and test);
- `historical(split)`: steps 0 .. T-1 concatenated (pre-training of FT, LP-FT, ST; selection on the
  combined historical validation set);
- `all_steps(split)`: steps 0 .. T concatenated (ERM, IRM and DRO on all steps);
- `steps_of(split, last)`: the per-step list (domains of IRM/DRO, the sequential and joint methods).

The oracle (`SequenceSpec.oracle`) regenerates the whole sequence with the final train+validation size
set to the sequence's total (Sec. 3.1: "n samples all from the final step"; the code's 20k for
6k/4k/6k/4k). Because the sampler shuffles each class's full index list, the oracle's final test split
holds the same pool images as the baseline's; its order and (for sequences with corruption) its noise
draws differ, since the final step's random stream runs through a larger training split first. Per-item
frames therefore carry the test items' `pool_index` (`test_pool_indices`) for matching.

Inputs enter the networks as floats, channels first (`as_inputs`), scaled as the spec's `input_scaling` names
(`INPUT_SCALINGS`): "raw", 0-255 as the code feeds the synthetic sequences (its Normalize/augmentation
transforms are bypassed; `shifts.augment` holds the paper's reading), or "imagenet_255", as the code's
Portraits loader scales its decades (ToTensor's [0, 1], then Normalize with 255 x ImageNet's mean and standard
deviation: each channel's inputs within 1 / (255 std) of -mean / std, i.e. near -2.12, -2.04 and -1.80, each
spanning under 0.02; pitfall P20).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from ..data.normalisation import IMAGENET_MEAN, IMAGENET_STD
from .pools import cifar10_pool, cifar100_superclass_pool
from .sampler import (DEFAULT_SEED, SEQUENCES, ImagePool, build_sequence, digits_pool,
                      digits_subpopulation_pool, variable_length_entries, variable_length_sizes)

if TYPE_CHECKING:
    from .faces import FacesSpec
    from .portraits import PortraitsSpec

    DecadeSpec = FacesSpec | PortraitsSpec  # a sequence of decades that opens and builds itself

SPLITS = ("train", "valid", "test")

# Pools a sequence can be drawn from, by name: the embedded stand-ins (no download) and the paper's CIFAR pools
# (`lib.seq_to_final.pools`, read from the data root through the dataset registry).
POOLS: dict[str, Callable[..., ImagePool]] = {
    "digits": digits_pool,
    "digits_subpopulations": digits_subpopulation_pool,
    "cifar10": cifar10_pool,
    "cifar100_superclasses": cifar100_superclass_pool,
}
# The paper's data that is not a pool to draw shifted steps from: name -> what it is instead.
NON_POOLS: dict[str, str] = {
    "portraits": "Portraits is a sequence of its own, its eight decades as steps (`portraits.build_portraits`), "
                 "not a pool; the study runs it as the sequence `portraits` (settings key `portraits`)",
    "lfw_faces": "the faces are the Portraits stand-in's decades (`faces.FacesSpec`), not a pool; the study runs "
                 "them as the sequence `portraits` (settings key `portraits`)",
}


def pool_error(name: str) -> str:
    """The one-line reason a pool name cannot be drawn from."""
    if name in NON_POOLS:
        return f"pool {name!r}: {NON_POOLS[name]} (known pools: {sorted(POOLS)})"
    return f"unknown pool {name!r}; known pools: {sorted(POOLS)}"


@dataclass(frozen=True)
class SequenceSpec:
    """What to draw: the pool, the target steps' shift entries (e.g. `SEQUENCES["CLR"]`), the
    train+validation size of every step (source first), the final step's test size, the image size, the
    seed (the code's default 1007), the sub-population reading (`shifts.subpopulation_counts`) and the input
    scaling (`INPUT_SCALINGS`)."""

    pool: str
    entries: tuple[str, ...]
    sizes: tuple[int, ...]
    test_size: int
    image_size: int = 32
    seed: int = DEFAULT_SEED
    subpopulation_reading: str = "code"
    input_scaling: str = "raw"  # the code's for the synthetic sequences

    def __post_init__(self) -> None:
        if self.pool not in POOLS:
            raise ValueError(pool_error(self.pool))
        if len(self.sizes) != len(self.entries) + 1:
            raise ValueError(f"{len(self.entries)} shifted steps need {len(self.entries) + 1} sizes (source first), "
                             f"got {len(self.sizes)}")

    @property
    def total_size(self) -> int:
        """Train+validation samples over all steps (the oracle's final size)."""
        return int(sum(self.sizes))

    def with_final_size(self, size: int) -> SequenceSpec:
        """The same sequence with another final train+validation size."""
        return replace(self, sizes=(*self.sizes[:-1], int(size)))

    def oracle(self) -> SequenceSpec:
        """The oracle's sequence: all of the sequence's samples at the final step."""
        return self.with_final_size(self.total_size)


def synthetic_spec(name: str, pool: str, sizes: Sequence[int], test_size: int, **options) -> SequenceSpec:
    """One of the five synthetic sequences (`sampler.SEQUENCES`: CLR, RCL, rrr, TTT, sss) on `pool`."""
    if name not in SEQUENCES:
        raise ValueError(f"unknown sequence {name!r}; known: {sorted(SEQUENCES)}")
    return SequenceSpec(pool, SEQUENCES[name], tuple(int(s) for s in sizes), int(test_size), **options)


def variable_length_spec(n_steps: int, pool: str, test_size: int, scale: float = 1.0,
                         rotation_kind: str = "rotation", **options) -> SequenceSpec:
    """The n-step rotation sequence of Table 3/14 (sizes times `scale` for the small tiers)."""
    sizes = tuple(int(round(s * scale)) for s in variable_length_sizes()[n_steps])
    return SequenceSpec(pool, variable_length_entries(n_steps, rotation_kind), sizes, int(test_size), **options)


@dataclass(frozen=True)
class Split:
    """Images (N, H, W, 3) uint8, labels (N,) int64 and the pool indices they were drawn from."""

    images: np.ndarray
    labels: np.ndarray
    pool_indices: np.ndarray

    def __len__(self) -> int:
        return len(self.labels)


def combine(splits: Sequence[Split]) -> Split:
    """The splits concatenated in order (the code's `ConcatDataset` of several steps)."""
    if not splits:
        raise ValueError("nothing to combine")
    return Split(np.concatenate([s.images for s in splits]), np.concatenate([s.labels for s in splits]),
                 np.concatenate([s.pool_indices for s in splits]))


@dataclass(frozen=True)
class ShiftSequence:
    """Steps 0 (source) .. T (final) of one drawn sequence (or of Portraits, `portraits.build_portraits`);
    `steps[t][split]` is a `Split`."""

    spec: SequenceSpec | PortraitsSpec
    steps: tuple[dict[str, Split], ...]
    num_classes: int

    @property
    def final_index(self) -> int:
        return len(self.steps) - 1

    def step(self, index: int, split: str) -> Split:
        if split not in self.steps[index]:
            raise KeyError(f"step {index} has splits {sorted(self.steps[index])}, not {split!r} "
                           "(only the final step has a test split)")
        return self.steps[index][split]

    def steps_of(self, split: str, last: int | None = None) -> list[Split]:
        """Steps 0 .. `last` (default: the final step) of one split, one `Split` per step."""
        last = self.final_index if last is None else last
        return [self.step(index, split) for index in range(last + 1)]

    def final(self, split: str) -> Split:
        return self.step(self.final_index, split)

    def historical(self, split: str) -> Split:
        """Steps 0 .. T-1 concatenated."""
        return combine(self.steps_of(split, self.final_index - 1))

    def all_steps(self, split: str) -> Split:
        """Steps 0 .. T concatenated."""
        return combine(self.steps_of(split))

    def test_pool_indices(self) -> np.ndarray:
        return self.final("test").pool_indices


def build(spec: SequenceSpec | DecadeSpec) -> ShiftSequence:
    """Draw the sequence `spec` describes (deterministic in `spec.seed`); the Portraits decades and their
    stand-in (`DecadeSpec`) build themselves."""
    if not isinstance(spec, SequenceSpec):
        return spec.build()
    pool = POOLS[spec.pool](size=spec.image_size)
    drawn = build_sequence(pool, spec.entries, spec.sizes, spec.test_size, spec.seed, spec.subpopulation_reading)
    steps = tuple(
        {split: Split(images, labels, step.pool_indices[split]) for split, (images, labels) in step.splits.items()}
        for step in drawn)
    return ShiftSequence(spec, steps, pool.num_classes)


def open_pools(specs: Iterable[SequenceSpec | DecadeSpec]) -> None:
    """Read every pool the specs draw from, before any compute: a paper pool whose dataset is not on disk
    stops here with the registry's one-line `DatasetMissingError` (the CIFAR pools are then cached); a
    `DecadeSpec` opens its own data."""
    specs = list(specs)
    for pool, size in sorted({(spec.pool, spec.image_size) for spec in specs if isinstance(spec, SequenceSpec)}):
        POOLS[pool](size=size)
    for spec in specs:
        if not isinstance(spec, SequenceSpec):
            spec.open()


# Input scalings, name -> per-channel (offset, divisor) on 0-255 values: input = (value - offset) / divisor.
# "imagenet_255" is (value / 255 - 255 mean) / (255 std), the Portraits loader's Normalize on ToTensor's output.
INPUT_SCALINGS: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {
    "raw": ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)),
    "imagenet_255": (tuple(255 * 255 * m for m in IMAGENET_MEAN), tuple(255 * 255 * s for s in IMAGENET_STD)),
}


def scaling_config(spec: SequenceSpec | DecadeSpec) -> dict[str, str]:
    """A run configuration's input-scaling entry: none for "raw" (the store keys of runs from before the option)."""
    return {} if spec.input_scaling == "raw" else {"input_scaling": spec.input_scaling}


def as_inputs(images: np.ndarray, scaling: str = "raw") -> np.ndarray:
    """uint8 (N, H, W, 3) images as the networks' float32 (N, 3, H, W) inputs under an `INPUT_SCALINGS` name."""
    offset, divisor = (np.asarray(v, np.float32).reshape(1, 3, 1, 1) for v in INPUT_SCALINGS[scaling])
    return np.ascontiguousarray((images.transpose(0, 3, 1, 2).astype(np.float32) - offset) / divisor)
