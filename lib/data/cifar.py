"""CIFAR-10 and CIFAR-100 from their python pickle files: cifar-10-batches-py/{data_batch_1..5, test_batch,
batches.meta} with the 10 labels, cifar-100-python/{train,test,meta} with the 100 fine labels. The pickles
were written by Python 2: read with `encoding="latin1"` their keys are text, read otherwise bytes; both
are accepted."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Callable

import numpy as np

from .labelled import ArrayImages, DatasetMissingError

CIFAR_SIDE = 32
CIFAR10_FILES = {"train": tuple(f"data_batch_{i}" for i in range(1, 6)), "test": ("test_batch",)}


def _text(value: str | bytes) -> str:
    return value.decode("latin1") if isinstance(value, bytes) else value


def _unpickle(path: Path) -> dict:
    """A CIFAR pickle as a dict with text keys."""
    if not path.is_file():
        raise DatasetMissingError(f"CIFAR file not found at {path}")
    with path.open("rb") as handle:
        return {_text(key): value for key, value in pickle.load(handle, encoding="latin1").items()}


def _array_images(entries: list[dict], label_key: str, class_names: list, where: Path,
                  transform: Callable | None) -> ArrayImages:
    """Rows of 3072 bytes (R, G, B planes) and their labels, over one or more batch files."""
    pixels = np.concatenate([np.asarray(e["data"], dtype=np.uint8) for e in entries])
    pixels = pixels.reshape(-1, 3, CIFAR_SIDE, CIFAR_SIDE).transpose(0, 2, 3, 1)
    labels = np.concatenate([np.asarray(e[label_key], dtype=np.int64) for e in entries])
    if len(labels) != len(pixels):
        raise ValueError(f"{where}: {len(pixels)} images but {len(labels)} {label_key}")
    return ArrayImages(np.ascontiguousarray(pixels), labels, [_text(n) for n in class_names], transform)


def cifar10(root: Path, split: str, transform: Callable | None = None) -> ArrayImages:
    """The `train` (data_batch_1..5, in order) or `test` (test_batch) images of a cifar-10-batches-py folder."""
    entries = [_unpickle(root / name) for name in CIFAR10_FILES[split]]
    return _array_images(entries, "labels", _unpickle(root / "batches.meta")["label_names"], root, transform)


def cifar100(root: Path, split: str, transform: Callable | None = None) -> ArrayImages:
    """The `train` or `test` file of a cifar-100-python folder, with the fine labels."""
    return _array_images([_unpickle(root / split)], "fine_labels", _unpickle(root / "meta")["fine_label_names"],
                         root / split, transform)
