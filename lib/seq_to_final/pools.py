"""The paper's image pools, read through the dataset registry (`lib/registry/datasets.csv`) from the data root
(`$ROBUSTNESS_DATA_ROOT`, else `<repo>/data`), as the official `select_cifar10_samples` /
`select_cifar100_samples` see them:
- `cifar10_pool`: CIFAR-10's 50,000 training images (data_batch_1..5 in order, so pool index = position in
  torchvision's CIFAR10 train set) and 10,000 test images, 10 classes;
- `cifar100_superclass_pool`: CIFAR-100's 50,000 / 10,000 images labelled by fine label, with the 20
  super-classes' fine labels in the order they enter (`sampler.cifar100_subpopulations`; the step labels are
  the super-classes, the official coarse indices).
Both are uint8 (N, 32, 32, 3). A dataset that is not on disk stops with the registry's one-line
`DatasetMissingError` (what, where it was looked for, where to get it, licence). A pool is read once per
process and data root, and its arrays are read-only.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from ..paths import data_root
from .sampler import ImagePool, cifar100_subpopulations
from .shifts import CIFAR100_FINE_NAMES

CIFAR_SIDE = 32


def official_fine_name(name: str) -> str:
    """A CIFAR-100 meta fine-label name as `shifts.CIFAR100_FINE_NAMES` writes it ("maple_tree" -> "maple")."""
    return name.replace("_", " ").removesuffix(" tree")


@lru_cache(maxsize=2)
def _read(dataset: str, root: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, tuple[str, ...]]:
    """Train images and labels, test images and labels and the class names of a registered CIFAR dataset."""
    from ..data.registry import open_dataset

    train, test = (open_dataset(dataset, root=root, split=split) for split in ("train", "test"))
    arrays = (train.pixels, train.labels, test.pixels, test.labels)
    for array in arrays:
        array.flags.writeable = False
    return (*arrays, tuple(train.class_names))


def _check_size(pool: str, size: int) -> None:
    if size != CIFAR_SIDE:
        raise ValueError(f"pool {pool!r} holds {CIFAR_SIDE}x{CIFAR_SIDE} images; image_size must be {CIFAR_SIDE}, got {size}")


def cifar10_pool(size: int = CIFAR_SIDE) -> ImagePool:
    """CIFAR-10 as the class sequences' pool."""
    _check_size("cifar10", size)
    *arrays, _ = _read("cifar10", data_root())
    return ImagePool(*arrays, num_classes=10, name="cifar10")


def cifar100_superclass_pool(size: int = CIFAR_SIDE) -> ImagePool:
    """CIFAR-100 as the sub-population pool: fine labels, grouped into the 20 super-classes in the code's order.
    The file's fine-label names must be the alphabetical list the order's indices refer to."""
    _check_size("cifar100_superclasses", size)
    *arrays, names = _read("cifar100", data_root())
    if tuple(official_fine_name(name) for name in names) != CIFAR100_FINE_NAMES:
        raise ValueError("CIFAR-100's meta file does not list the 100 fine labels in their official (alphabetical) "
                         "order, which the super-class order's indices refer to")
    return ImagePool(*arrays, num_classes=20, subpopulations=cifar100_subpopulations(), name="cifar100_superclasses")
