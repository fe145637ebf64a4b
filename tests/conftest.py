"""Shared set-up: the pinned thread count, and generated fake image-folder trees (no real dataset
is ever needed)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import torch
import pytest
from PIL import Image

from lib.threads import kernel_environment, run_threads

# Each test process (one per core under pytest-xdist) and each notebook kernel nbval starts from it
# computes on the pinned thread count, as the notebook runner does.
os.environ.update(kernel_environment())
torch.set_num_threads(run_threads())


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
