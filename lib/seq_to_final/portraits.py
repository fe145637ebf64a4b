"""Seq-to-Final's Portraits sequence, as the official `load_yearbook_data` builds it: the eight decades of the
registry's `portraits` dataset (1930s .. 1990s, then 2000-2013) are steps 0 .. 7 with no synthetic shift.

Each decade's faces (M = 0, F = 1, in `ImageFolder`'s order) are read as RGB and resized to 32 x 32 (PIL
bilinear, torchvision's `Resize` on PIL images). One `RandomState(seed)` (the code's `np.random.seed(1007)`)
shuffles each decade's positions in turn; a decade's first int(.8 n) shuffled positions train and the rest
validate, except the final decade's: int(.4 n) train, up to int(.5 n) validate, the rest is the test split
(2205 / 552 / 2757 of the 5514 images of Table 4). Pool indices are positions within the decade.

`PortraitsSpec` carries the fields the study's run configurations name (`pool`, `entries`, `sizes`: Table 4's
counts, `test_size`), and `open` / `build` as the study calls them (`sequence.open_pools`, `sequence.build`), so
the full tier's study runs Portraits as its Table 13 sequence; without the archive it stops at `open`, before
any compute. The small tiers run the stand-in of `lib.seq_to_final.faces` instead.

The code's input scaling (ToTensor's [0, 1], then Normalize with 255 x the ImageNet statistics, pitfall P20)
is the spec's default `input_scaling`, "imagenet_255"; "raw" feeds 0-255 as for CIFAR (`sequence.as_inputs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .sampler import DEFAULT_SEED
from .sequence import ShiftSequence, Split

TRAIN_FRACTION = 0.8
FINAL_TRAIN_FRACTION, FINAL_TEST_START = 0.4, 0.5
PORTRAITS_CLASSES = 2


PORTRAITS_POOL = "portraits"


def decade_counts() -> tuple[int, ...]:
    """Table 4: the number of images of each decade, 1930s first."""
    from .. import published

    return tuple(int(v) for v in published.load("seq_to_final", "table04")["value"])


@dataclass(frozen=True)
class PortraitsSpec:
    """The Portraits sequence: image side (the code's 32), the split seed (the code's 1007) and the input scaling
    (the code's)."""

    image_size: int = 32
    seed: int = DEFAULT_SEED
    pool: str = PORTRAITS_POOL
    subpopulation_reading: str = "code"
    input_scaling: str = "imagenet_255"  # the code's Normalize (`sequence.INPUT_SCALINGS`)

    @property
    def entries(self) -> tuple[str, ...]:
        return ("decade",) * (len(decade_counts()) - 1)

    @property
    def sizes(self) -> tuple[int, ...]:
        """Train+validation images per decade (the final decade's half that is not the test split)."""
        counts = decade_counts()
        return (*counts[:-1], int(FINAL_TEST_START * counts[-1]))

    @property
    def test_size(self) -> int:
        return decade_counts()[-1] - int(FINAL_TEST_START * decade_counts()[-1])

    def open(self, root: str | Path | None = None) -> None:
        """Check that every decade is on disk (the registry's one-line `DatasetMissingError` if not)."""
        from ..data.portraits import PORTRAITS_DECADES
        from ..data.registry import open_dataset

        for decade in PORTRAITS_DECADES:
            open_dataset("portraits", root=root, split=decade)

    def build(self) -> ShiftSequence:
        return build_portraits(self)


def decade_splits(n_images: int, final: bool, rng: np.random.RandomState) -> dict[str, np.ndarray]:
    """Positions of one decade's train / valid (/ test for the final decade) splits, shuffled by `rng`."""
    order = np.arange(n_images)
    rng.shuffle(order)
    if not final:
        cut = int(TRAIN_FRACTION * n_images)
        return {"train": order[:cut], "valid": order[cut:]}
    train_end, valid_end = int(FINAL_TRAIN_FRACTION * n_images), int(FINAL_TEST_START * n_images)
    return {"train": order[:train_end], "valid": order[train_end:valid_end], "test": order[valid_end:]}


def decade_images(decade: str, size: int, root: str | Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One decade's faces as uint8 (N, size, size, 3) RGB and their labels (M = 0, F = 1)."""
    from PIL import Image

    from ..data.registry import open_dataset

    data = open_dataset("portraits", root=root, split=decade)
    images = [np.asarray(data.image(i).resize((size, size), Image.BILINEAR)) for i in range(len(data))]
    return np.stack(images), np.asarray(data.targets, np.int64)


def build_portraits(spec: PortraitsSpec = PortraitsSpec(), root: str | Path | None = None) -> ShiftSequence:
    """The Portraits sequence from the data root (`$ROBUSTNESS_DATA_ROOT`, else `<repo>/data`, or `root`); a
    missing archive stops with the registry's one-line `DatasetMissingError`."""
    from ..data.portraits import PORTRAITS_DECADES

    rng = np.random.RandomState(spec.seed)
    decades = list(PORTRAITS_DECADES)
    steps = []
    for index, decade in enumerate(decades):
        images, labels = decade_images(decade, spec.image_size, root)
        splits = decade_splits(len(labels), index == len(decades) - 1, rng)
        steps.append({split: Split(images[positions], labels[positions], positions.astype(np.int64))
                      for split, positions in splits.items()})
    return ShiftSequence(spec, tuple(steps), PORTRAITS_CLASSES)
