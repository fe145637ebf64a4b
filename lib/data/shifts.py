"""Miniature domains on embedded data: the digits, documented shifts of them, and photo crops.

The small tiers of two papers need a "pretraining" domain and several shifted ones:
- style shifts keep the digit labels and change the pixels (`inverted`, `rotated`, `blurred`,
  `noisy`, `low_contrast`, `edges`);
- a granularity shift keeps the pixels and re-labels them (`parity`: even vs odd);
- a categorical shift changes both classes and image statistics (`photos`: 16-way classification
  of random grey crops of scikit-image's bundled photos).
All domains are grey images in [0, 1] of shape (N, 1, size, size), split train/test with a seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

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


def _blur(x: torch.Tensor) -> torch.Tensor:
    kernel = torch.tensor([1.0, 4.0, 6.0, 4.0, 1.0])
    kernel = (kernel[:, None] * kernel[None, :]) / 256.0
    return F.conv2d(F.pad(x, (2, 2, 2, 2), mode="replicate"), kernel[None, None])


def _edges(x: torch.Tensor) -> torch.Tensor:
    sobel = torch.tensor([[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]])
    padded = F.pad(x, (1, 1, 1, 1), mode="replicate")
    gx, gy = F.conv2d(padded, sobel[None, None]), F.conv2d(padded, sobel.T[None, None])
    magnitude = torch.sqrt(gx ** 2 + gy ** 2)
    return magnitude / magnitude.amax(dim=(1, 2, 3), keepdim=True).clamp_min(1e-6)


def _noisy(x: torch.Tensor) -> torch.Tensor:
    noise = torch.randn(x.shape, generator=torch.Generator().manual_seed(0)) * 0.25
    return (x + noise).clamp(0.0, 1.0)


STYLE_SHIFTS: dict[str, tuple[str, Callable[[torch.Tensor], torch.Tensor]]] = {
    "inverted": ("1 - x: ink and paper swap", lambda x: 1.0 - x),
    "rotated": ("rotated by 90 degrees", lambda x: torch.rot90(x, 1, dims=(2, 3))),
    "blurred": ("5x5 binomial blur", _blur),
    "noisy": ("Gaussian noise, sigma 0.25, clipped (fixed seed)", _noisy),
    "low_contrast": ("contrast reduced to 30 % around mid-grey", lambda x: 0.35 + 0.3 * x),
    "edges": ("Sobel gradient magnitude (a line-drawing rendition)", _edges),
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
            description = STYLE_SHIFTS[shift][0]
            images, group = STYLE_SHIFTS[shift][1](images), "style"
    labels = torch.as_tensor(labels)
    return Domain(name, group, description, images[train], labels[train], images[test], labels[test], classes)
