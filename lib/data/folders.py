"""Image datasets in folder form, with their labels mapped into a label space.

Label spaces (column `label_space` of the dataset registry):
- `own`: class folders sorted by name get targets 0..C-1;
- `imagenet_wnid`: folders are ImageNet WordNet ids; targets are ImageNet-1k indices and the
  logit mask keeps only the classes present (ImageNet-A/-R use 200 of the 1000);
- `imagenet_index`: folders are ImageNet-1k indices written as integers (ImageNetV2).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

import numpy as np
from PIL import Image

from .labelled import IMAGENET_CLASSES, LabelledImages

IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".gif", ".tif", ".tiff")
LABEL_SPACES = ("own", "imagenet_wnid", "imagenet_index")


@lru_cache(maxsize=1)
def imagenet_wnids() -> tuple[str, ...]:
    """The 1000 ImageNet-1k WordNet ids in class-index order (as shipped with timm)."""
    from timm.data import ImageNetInfo

    return tuple(ImageNetInfo("imagenet-1k").label_names())


def is_image(name: str) -> bool:
    return name.lower().endswith(IMAGE_EXTENSIONS)


def class_folders(root: Path, nested: bool = True) -> dict[str, list[Path]]:
    """Images of each class folder directly under `root` (sorted; hidden entries skipped).

    `nested=False` keeps only the images directly inside each class folder.
    """
    classes = sorted(e.name for e in os.scandir(root) if e.is_dir() and not e.name.startswith("."))
    index = {}
    for name in classes:
        folder = root / name
        if nested:
            files = [Path(dirpath) / f for dirpath, _, names in os.walk(folder) for f in names]
        else:
            files = [Path(e.path) for e in os.scandir(folder) if e.is_file()]
        index[name] = sorted(f for f in files if is_image(f.name) and not f.name.startswith("."))
    return index


def seeded_split(count: int, split: str, seed: int, train_fraction: float) -> np.ndarray:
    """Sorted indices of `split` ('train' or 'test') in a seeded random split of `count` items.

    The order is numpy's legacy `RandomState(seed).permutation(count)` (the same as
    `np.random.seed(seed); np.random.shuffle(np.arange(count))`); the first
    `int(train_fraction * count)` items are the training split, the rest the test split.
    """
    if split not in ("train", "test"):
        raise ValueError(f"a seeded split is 'train' or 'test', not {split!r}")
    order = np.random.RandomState(seed).permutation(count)
    cut = int(train_fraction * count)
    return np.sort(order[:cut] if split == "train" else order[cut:])


def targets_for(class_names: list[str], label_space: str) -> list[int]:
    """The target index of each class folder name in `label_space`."""
    if label_space == "own":
        return list(range(len(class_names)))
    if label_space == "imagenet_wnid":
        position = {wnid: i for i, wnid in enumerate(imagenet_wnids())}
        unknown = [n for n in class_names if n not in position]
        if unknown:
            raise ValueError(f"class folders that are not ImageNet-1k WordNet ids: {unknown[:5]}")
        return [position[n] for n in class_names]
    if label_space == "imagenet_index":
        bad = [n for n in class_names if not (n.isdigit() and 0 <= int(n) < IMAGENET_CLASSES)]
        if bad:
            raise ValueError(f"class folders that are not ImageNet-1k indices 0..999: {bad[:5]}")
        return [int(n) for n in class_names]
    raise ValueError(f"unknown label space {label_space!r}; expected one of {LABEL_SPACES}")


@dataclass
class FolderImages(LabelledImages):
    """Labelled image files (class folders, or files listed by a dataset's own annotations)."""

    samples: list[tuple[Path, int]]
    class_names: list[str]
    class_targets: list[int]
    label_space: str
    transform: Callable | None = None

    @classmethod
    def from_root(
        cls, root: Path, label_space: str, transform: Callable | None = None, nested: bool = True
    ) -> "FolderImages":
        index = class_folders(root, nested)
        names = list(index)
        targets = targets_for(names, label_space)
        samples = [(path, t) for name, t in zip(names, targets) for path in index[name]]
        return cls(samples, names, targets, label_space, transform)

    def __len__(self) -> int:
        return len(self.samples)

    def target(self, i: int) -> int:
        return self.samples[i][1]

    def image(self, i: int) -> Image.Image:
        with Image.open(self.samples[i][0]) as image:
            return image.convert("RGB")

    def subset(self, indices: np.ndarray) -> "FolderImages":
        """The same label space restricted to the samples at `indices`."""
        samples = [self.samples[i] for i in indices]
        return FolderImages(samples, self.class_names, self.class_targets, self.label_space, self.transform)
