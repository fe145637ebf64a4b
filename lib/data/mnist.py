"""MNIST from its IDX files, as torchvision's MNIST downloads them into `MNIST/raw/`: the `train` split
(train-images-idx3-ubyte, train-labels-idx1-ubyte, 60,000 images) and the `test` split (t10k-*, 10,000),
each file plain or gzipped (`.gz`). Images are 28 x 28 grey, held as RGB (the grey value in each channel)."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Callable

import numpy as np

from .labelled import ArrayImages, DatasetMissingError

MNIST_FILES = {"train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
               "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}
MNIST_CLASS_NAMES = [str(digit) for digit in range(10)]
IDX_UBYTE = 0x08  # the IDX type code of unsigned bytes


def read_idx(path: Path) -> np.ndarray:
    """An IDX file of unsigned bytes (plain, or `path` + `.gz`) as an array of its stated shape."""
    zipped = path.with_name(path.name + ".gz")
    if path.is_file():
        raw = path.read_bytes()
    elif zipped.is_file():
        raw = gzip.decompress(zipped.read_bytes())
    else:
        raise DatasetMissingError(f"MNIST file not found at {path} (nor {zipped.name})")
    if raw[:2] != b"\x00\x00" or raw[2] != IDX_UBYTE:
        raise ValueError(f"{path}: not an IDX file of unsigned bytes")
    dims = raw[3]
    shape = tuple(int.from_bytes(raw[4 + 4 * i: 8 + 4 * i], "big") for i in range(dims))
    data = np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * dims)
    if data.size != int(np.prod(shape)):
        raise ValueError(f"{path}: {data.size} bytes of data, the header says {shape}")
    return data.reshape(shape)


def mnist(root: Path, split: str, transform: Callable | None = None) -> ArrayImages:
    """The `train` or `test` images of an MNIST raw folder, with the digit as the label."""
    images, labels = (read_idx(root / name) for name in MNIST_FILES[split])
    if len(images) != len(labels):
        raise ValueError(f"{root}: {len(images)} {split} images but {len(labels)} labels")
    pixels = np.repeat(images[..., None], 3, axis=3)
    return ArrayImages(np.ascontiguousarray(pixels), labels.astype(np.int64), MNIST_CLASS_NAMES, transform)
