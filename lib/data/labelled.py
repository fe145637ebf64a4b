"""The interface every registered dataset's loader returns: labelled images with a known label space.

`FolderImages` (lib.data.folders) reads image files; `ArrayImages` holds decoded pixels in memory
(CIFAR). Both yield `(image, target)` with a PIL image passed through the optional transform.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from PIL import Image

IMAGENET_CLASSES = 1000


class DatasetMissingError(FileNotFoundError):
    """A registered dataset that is not on disk: says what, where it was looked for, how to get it."""


class LabelledImages(torch.utils.data.Dataset):
    """Shared behaviour. Subclasses provide `__len__`, `image(i)`, `target(i)` and the attributes
    `class_names`, `class_targets` (targets of the classes present) and `label_space`, `transform`."""

    class_names: list[str]
    class_targets: list[int]
    label_space: str
    transform: Callable | None

    def __len__(self) -> int:
        raise NotImplementedError

    def image(self, i: int) -> Image.Image:
        raise NotImplementedError

    def target(self, i: int) -> int:
        raise NotImplementedError

    def __getitem__(self, i: int):
        image = self.image(i)
        return (self.transform(image) if self.transform else image), self.target(i)

    @property
    def targets(self) -> list[int]:
        """The target of every item, in order."""
        return [self.target(i) for i in range(len(self))]

    @property
    def num_outputs(self) -> int:
        """Width of the classifier this dataset is scored with (1000 in the ImageNet spaces)."""
        return len(self.class_names) if self.label_space == "own" else IMAGENET_CLASSES

    def logit_mask(self) -> np.ndarray:
        """Boolean mask over the classifier outputs: True for the classes this dataset contains."""
        mask = np.zeros(self.num_outputs, dtype=bool)
        mask[self.class_targets] = True
        return mask


@dataclass
class ArrayImages(LabelledImages):
    """Labelled images held as a uint8 array of shape (N, H, W, 3), in the `own` label space."""

    pixels: np.ndarray
    labels: np.ndarray
    class_names: list[str]
    transform: Callable | None = None
    label_space: str = "own"

    @property
    def class_targets(self) -> list[int]:
        return list(range(len(self.class_names)))

    def __len__(self) -> int:
        return len(self.labels)

    def image(self, i: int) -> Image.Image:
        return Image.fromarray(self.pixels[i])

    def target(self, i: int) -> int:
        return int(self.labels[i])
