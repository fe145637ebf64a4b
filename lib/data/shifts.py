"""Miniature domains on embedded data: the digits, documented shifts of them, and photo crops.

The small tiers of two papers need a "pretraining" domain and several shifted ones:
- style shifts keep the digit labels and change the pixels (`inverted`, `rotated`, `blurred`,
  `noisy`, `low_contrast`, `edges`): each is a perturbation of `lib.perturb` at a fixed severity
  (`STYLE_SHIFTS`), applied in 8-bit RGB, so the shifted images are multiples of 1/255;
- a granularity shift keeps the pixels and re-labels them (`parity`: even vs odd);
- a categorical shift changes both classes and image statistics (`photos`: 16-way classification
  of random grey crops of scikit-image's bundled photos).
All domains are grey images in [0, 1] of shape (N, 1, size, size), split train/test with a seed.
Their names and descriptions live in `lib.data.domains` (no torch).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from .domains import STYLE_SHIFTS, describe
from .embedded import SKIMAGE_PHOTOS, digits_arrays, skimage_photo
from .subsets import split


@dataclass(frozen=True)
class Domain:
    """One miniature dataset, already split."""

    name: str
    group: str
    description: str
    train_images: torch.Tensor
    train_labels: torch.Tensor
    test_images: torch.Tensor
    test_labels: torch.Tensor
    num_classes: int


def resize(images: np.ndarray | torch.Tensor, size: int) -> torch.Tensor:
    """Bilinear resize of (N, 1, h, w) images to `size` × `size`."""
    images = torch.as_tensor(images, dtype=torch.float32)
    if images.shape[-1] == size:
        return images
    return F.interpolate(images, size=(size, size), mode="bilinear", align_corners=False).clamp(0.0, 1.0)


def photo_crops(size: int, per_photo: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """`per_photo` random grey crops (a quarter of the photo's short side, resized) of each bundled photo."""
    rng = np.random.default_rng(seed)
    images, labels = [], []
    for label, name in enumerate(SKIMAGE_PHOTOS):
        grey = skimage_photo(name).mean(axis=2)
        side = min(grey.shape) // 4
        for _ in range(per_photo):
            top, left = rng.integers(0, grey.shape[0] - side), rng.integers(0, grey.shape[1] - side)
            images.append(grey[top:top + side, left:left + side])
            labels.append(label)
    crops = torch.stack([resize(torch.as_tensor(c)[None, None], size)[0] for c in images]).numpy()
    return crops, np.array(labels, dtype=np.int64)


def make_domain(name: str, size: int, seed: int = 0, photos_per_class: int = 60) -> Domain:
    """One domain of `DOMAINS` at image side `size`, split with `seed`."""
    group, description, classes = describe(name)
    if name == "photos":
        images, labels = photo_crops(size, photos_per_class, seed)
        images = torch.as_tensor(images)
        train, test = split(labels, seed)
    else:
        raw, labels = digits_arrays()
        images = resize(raw, size)
        train, test = split(labels, seed)  # every digits domain shares the split of the 10 digit classes
        if name == "digits_parity":
            labels = labels % 2
        elif name != "digits":
            images = STYLE_SHIFTS[name.removeprefix("digits_")](images)
    labels = torch.as_tensor(labels)
    return Domain(name, group, description, images[train], labels[train], images[test], labels[test], classes)
