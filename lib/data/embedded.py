"""Embedded data shipped inside packages, for the `tiny` and `mini` tiers (no download ever).

- scikit-learn's handwritten digits: 1,797 grey 8×8 images of 10 classes;
- scikit-image's photos (astronaut, coffee, cat, ...): whole photos for building small
  photo-classification tasks by random crops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from torch.utils.data import TensorDataset

DIGIT_CLASS_NAMES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")  # in words: captions, prompts
SKIMAGE_PHOTOS = ("astronaut", "coffee", "chelsea", "rocket", "hubble_deep_field", "immunohistochemistry", "retina", "colorwheel", "camera", "coins", "moon", "horse", "clock", "grass", "gravel", "brick")


def digits_arrays() -> tuple[np.ndarray, np.ndarray]:
    """Digits as float32 images in [0, 1] of shape (N, 1, 8, 8) and int64 labels (N,)."""
    from sklearn.datasets import load_digits

    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[:, None]
    return images, digits.target.astype(np.int64)


def digits_dataset() -> TensorDataset:
    """The digits as a torch dataset of `(image, label)`."""
    import torch
    from torch.utils.data import TensorDataset

    images, labels = digits_arrays()
    return TensorDataset(torch.from_numpy(images), torch.from_numpy(labels))


def skimage_photo(name: str) -> np.ndarray:
    """One of scikit-image's bundled photos (those that need no download) as float32 RGB in [0, 1], shape (H, W, 3)."""
    from skimage import color, data, img_as_float32

    if name not in SKIMAGE_PHOTOS:
        raise KeyError(f"unknown photo {name!r}; available: {SKIMAGE_PHOTOS}")
    image = img_as_float32(getattr(data, name)())
    if image.ndim == 2:
        image = color.gray2rgb(image)
    return np.ascontiguousarray(image[..., :3])
