"""Stanford Cars in its devkit layout (the one torchvision's StanfordCars reads), 196 classes.

    <root>/devkit/cars_meta.mat              class_names (196, the official class order)
    <root>/devkit/cars_train_annos.mat       annotations: fname, class (1-based), bounding box
    <root>/cars_test_annos_withlabels.mat    the same for the test images
    <root>/cars_train/*.jpg  <root>/cars_test/*.jpg
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np

from .folders import FolderImages
from .labelled import DatasetMissingError

ANNOTATIONS = {"train": "devkit/cars_train_annos.mat", "test": "cars_test_annos_withlabels.mat"}


def _load_mat(path: Path, variable: str) -> np.ndarray:
    from scipy.io import loadmat

    if not path.is_file():
        raise DatasetMissingError(f"Stanford Cars annotation file not found at {path}")
    return np.atleast_1d(loadmat(path, squeeze_me=True)[variable])


def stanford_cars(root: Path, split: str, transform: Callable | None = None) -> FolderImages:
    """The `train` or `test` images with their 0-based class (the annotation's 1-based `class` minus one)."""
    class_names = [str(name) for name in _load_mat(root / "devkit" / "cars_meta.mat", "class_names")]
    images = root / f"cars_{split}"
    samples = []
    for annotation in _load_mat(root / ANNOTATIONS[split], "annotations"):
        target = int(annotation["class"]) - 1
        if not 0 <= target < len(class_names):
            raise ValueError(f"{ANNOTATIONS[split]}: class {target + 1} outside 1..{len(class_names)}")
        samples.append((images / str(annotation["fname"]), target))
    missing = [path for path, _ in samples if not path.is_file()]
    if missing:
        raise DatasetMissingError(f"{len(missing)} Stanford Cars {split} images listed but not found, e.g. {missing[0]}")
    return FolderImages(samples, class_names, list(range(len(class_names))), "own", transform)
