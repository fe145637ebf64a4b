"""CIFAR-100 from its python pickle files (cifar-100-python/{train,test,meta}), with the 100 fine labels."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Callable

import numpy as np

from .labelled import ArrayImages, DatasetMissingError

CIFAR_SIDE = 32


def _unpickle(path: Path) -> dict:
    if not path.is_file():
        raise DatasetMissingError(f"CIFAR-100 file not found at {path}")
    with path.open("rb") as handle:
        return pickle.load(handle, encoding="latin1")


def cifar100(root: Path, split: str, transform: Callable | None = None) -> ArrayImages:
    """The `train` or `test` file of a cifar-100-python folder: rows of 3072 bytes (R, G, B planes)."""
    entry = _unpickle(root / split)
    class_names = list(_unpickle(root / "meta")["fine_label_names"])
    pixels = np.asarray(entry["data"], dtype=np.uint8).reshape(-1, 3, CIFAR_SIDE, CIFAR_SIDE).transpose(0, 2, 3, 1)
    labels = np.asarray(entry["fine_labels"], dtype=np.int64)
    if len(labels) != len(pixels):
        raise ValueError(f"{root / split}: {len(pixels)} images but {len(labels)} fine labels")
    return ArrayImages(np.ascontiguousarray(pixels), labels, class_names, transform)
