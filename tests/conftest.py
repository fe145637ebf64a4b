"""Shared fixtures: generated fake image-folder trees (no real dataset is ever needed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
import pytest
from PIL import Image


def write_images(folder: Path, count: int, seed: int = 0, suffix: str = ".png") -> None:
    """Write `count` tiny random RGB images into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for i in range(count):
        pixels = rng.integers(0, 255, size=(6, 6, 3), dtype=np.uint8)
        Image.fromarray(pixels).save(folder / f"img_{i:03d}{suffix}")


@pytest.fixture
def make_tree():
    """Build `root/<class>/<images>` for a mapping class name -> image count."""

    def build(root: Path, classes: dict[str, int]) -> Path:
        for i, (name, count) in enumerate(classes.items()):
            write_images(root / name, count, seed=i)
        return root

    return build


@pytest.fixture
def one_thread():
    """The tiny models train far faster on one thread than on a loaded, shared CPU."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
