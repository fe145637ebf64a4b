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
import torch
from PIL import Image

IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".gif", ".tif", ".tiff")
LABEL_SPACES = ("own", "imagenet_wnid", "imagenet_index")
IMAGENET_CLASSES = 1000


@lru_cache(maxsize=1)
def imagenet_wnids() -> tuple[str, ...]:
    """The 1000 ImageNet-1k WordNet ids in class-index order (as shipped with timm)."""
    from timm.data import ImageNetInfo

    return tuple(ImageNetInfo("imagenet-1k").label_names())


def is_image(name: str) -> bool:
    return name.lower().endswith(IMAGE_EXTENSIONS)


def class_folders(root: Path) -> dict[str, list[Path]]:
    """Images of each class folder directly under `root` (sorted; hidden entries skipped)."""
    classes = sorted(e.name for e in os.scandir(root) if e.is_dir() and not e.name.startswith("."))
    index = {}
    for name in classes:
        folder = root / name
        index[name] = sorted(
            Path(dirpath) / f
            for dirpath, _, files in os.walk(folder)
            for f in files
            if is_image(f) and not f.startswith(".")
        )
    return index


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
class FolderImages(torch.utils.data.Dataset):
    """Labelled images from class folders: items are `(image, target)`."""

    samples: list[tuple[Path, int]]
    class_names: list[str]
    class_targets: list[int]
    label_space: str
    transform: Callable | None = None

    @classmethod
    def from_root(cls, root: Path, label_space: str, transform: Callable | None = None) -> "FolderImages":
        index = class_folders(root)
        names = list(index)
        targets = targets_for(names, label_space)
        samples = [(path, t) for name, t in zip(names, targets) for path in index[name]]
        return cls(samples, names, targets, label_space, transform)

    def __len__(self) -> int:
        return len(self.samples)

    def __getitem__(self, i: int):
        path, target = self.samples[i]
        with Image.open(path) as image:
            image = image.convert("RGB")
        return (self.transform(image) if self.transform else image), target

    @property
    def num_outputs(self) -> int:
        """Width of the classifier this dataset is scored with (1000 in the ImageNet spaces)."""
        return len(self.class_names) if self.label_space == "own" else IMAGENET_CLASSES

    def logit_mask(self) -> np.ndarray:
        """Boolean mask over the classifier outputs: True for the classes this dataset contains."""
        mask = np.zeros(self.num_outputs, dtype=bool)
        mask[self.class_targets] = True
        return mask
