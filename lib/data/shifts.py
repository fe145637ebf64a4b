"""Miniature domains on embedded data: the digits, documented shifts of them, and photo crops.

The small tiers of two papers need a "pretraining" domain and several shifted ones:
- style shifts keep the digit labels and change the pixels (`inverted`, `rotated`, `blurred`,
  `noisy`, `low_contrast`, `edges`): each is a perturbation of `lib.perturb` at a fixed severity
  (`STYLE_SHIFTS`), applied in 8-bit RGB, so the shifted images are multiples of 1/255;
- a granularity shift keeps the pixels and re-labels them (`parity`: even vs odd);
- a categorical shift changes both classes and image statistics (`photos`: 16-way classification
  of random grey crops of scikit-image's bundled photos).
All domains are grey images in [0, 1] of shape (N, 1, size, size), split train/test with a seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from ..perturb.perturbations import apply_batch, from_rgb8, to_rgb8
from .embedded import SKIMAGE_PHOTOS, digits_arrays, skimage_photo

TEST_FRACTION = 0.3


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


@dataclass(frozen=True)
class StyleShift:
    """A perturbation of `lib.perturb.perturbations` at a fixed severity, applied to grey (N, 1, H, W)
    images in [0, 1] through its 8-bit RGB layout (the grey channel repeated, read back from the first)."""

    perturbation: str
    severity: float
    description: str

    def __call__(self, images: torch.Tensor, seed: int = 0) -> torch.Tensor:
        perturbed = apply_batch(self.perturbation, to_rgb8(images), self.severity, seed)
        return from_rgb8(perturbed, channels=1).to(images.device)


STYLE_SHIFTS: dict[str, StyleShift] = {
    "inverted": StyleShift("invert", 1.0, "the negative: ink and paper swap"),
    "rotated": StyleShift("rotate", 1.0, "rotated by 90 degrees"),
    "blurred": StyleShift("gaussian_blur", 0.25, "Gaussian blur, sigma 1 pixel"),
    "noisy": StyleShift("gaussian_noise", 0.25, "Gaussian noise, sigma 0.25, clipped (seed 0)"),
    "low_contrast": StyleShift("contrast", 0.7, "contrast reduced to 30 % around mid-grey"),
    "edges": StyleShift("edges", 1.0, "Sobel gradient magnitude (a line-drawing rendition)"),
}
DOMAINS = ("digits", *(f"digits_{s}" for s in STYLE_SHIFTS), "digits_parity", "photos")


def resize(images: np.ndarray | torch.Tensor, size: int) -> torch.Tensor:
    """Bilinear resize of (N, 1, h, w) images to `size` × `size`."""
    images = torch.as_tensor(images, dtype=torch.float32)
    if images.shape[-1] == size:
        return images
    return F.interpolate(images, size=(size, size), mode="bilinear", align_corners=False).clamp(0.0, 1.0)


def split(labels: np.ndarray, seed: int, test_fraction: float = TEST_FRACTION) -> tuple[np.ndarray, np.ndarray]:
    """A stratified train/test split of indices."""
    from sklearn.model_selection import train_test_split

    indices = np.arange(len(labels))
    train, test = train_test_split(indices, test_size=test_fraction, stratify=labels, random_state=seed)
    return np.sort(train), np.sort(test)


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
    if name not in DOMAINS:
        raise KeyError(f"unknown mini domain {name!r}; available: {list(DOMAINS)}")
    if name == "photos":
        images, labels = photo_crops(size, photos_per_class, seed)
        group, description, classes = "categorical", f"{len(SKIMAGE_PHOTOS)}-way crops of scikit-image photos", len(SKIMAGE_PHOTOS)
        images = torch.as_tensor(images)
        train, test = split(labels, seed)
    else:
        raw, labels = digits_arrays()
        images = resize(raw, size)
        train, test = split(labels, seed)  # every digits domain shares the split of the 10 digit classes
        group, description, classes = "in-domain", "scikit-learn digits, 10 classes", 10
        if name == "digits_parity":
            labels = labels % 2
            group, description, classes = "granularity", "digits re-labelled even / odd", 2
        elif name != "digits":
            shift = name.removeprefix("digits_")
            description = STYLE_SHIFTS[shift].description
            images, group = STYLE_SHIFTS[shift](images), "style"
    labels = torch.as_tensor(labels)
    return Domain(name, group, description, images[train], labels[train], images[test], labels[test], classes)
