"""The dataset registry (`lib/registry/datasets.csv`): name -> folder, layout, expected size, source, licence."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

import pandas as pd

from ..paths import DATA_ROOT_ENV, REGISTRY_DIR, data_root
from .folders import LABEL_SPACES, FolderImages

LAYOUTS = ("imagefolder", "imagenet_c")
IMAGENET_C_CORRUPTIONS = (
    "gaussian_noise", "shot_noise", "impulse_noise", "defocus_blur", "glass_blur", "motion_blur",
    "zoom_blur", "snow", "frost", "fog", "brightness", "contrast", "elastic_transform", "pixelate",
    "jpeg_compression",
)
IMAGENET_C_SEVERITIES = (1, 2, 3, 4, 5)


class DatasetMissingError(FileNotFoundError):
    """A registered dataset that is not on disk: says what, where it was looked for, how to get it."""


@dataclass(frozen=True)
class DatasetSpec:
    """One registry row."""

    name: str
    papers: tuple[str, ...]
    title: str
    subdir: str
    layout: str
    n_images: int | None
    n_classes: int
    label_space: str
    source: str
    licence: str
    notes: str

    def path(self, root: str | Path | None = None) -> Path:
        return data_root(root) / self.subdir

    def split_path(self, root: str | Path | None = None, corruption: str | None = None, severity: int | None = None) -> Path:
        """The folder of one split: the dataset folder itself, or `<corruption>/<severity>` for ImageNet-C."""
        if self.layout != "imagenet_c":
            return self.path(root)
        if corruption not in IMAGENET_C_CORRUPTIONS or severity not in IMAGENET_C_SEVERITIES:
            raise ValueError(
                f"{self.name}: give corruption in {IMAGENET_C_CORRUPTIONS} and severity in {IMAGENET_C_SEVERITIES}"
            )
        return self.path(root) / corruption / str(severity)

    def split_paths(self, root: str | Path | None = None) -> list[Path]:
        """Every split folder the layout expects (one, or the 15 x 5 of ImageNet-C)."""
        if self.layout != "imagenet_c":
            return [self.path(root)]
        return [self.split_path(root, c, s) for c in IMAGENET_C_CORRUPTIONS for s in IMAGENET_C_SEVERITIES]

    def missing_message(self, root: str | Path | None = None) -> str:
        return (
            f"dataset '{self.name}' ({self.title}) not found at {self.path(root)}. "
            f"Set the data root with ${DATA_ROOT_ENV} or the params key `data_root`, and place the dataset "
            f"in <data root>/{self.subdir}. Source: {self.source}. Licence: {self.licence}."
        )


@lru_cache(maxsize=1)
def registry() -> dict[str, DatasetSpec]:
    """All registered datasets by name."""
    frame = pd.read_csv(REGISTRY_DIR / "datasets.csv", dtype=str, keep_default_na=False)
    specs = {}
    for row in frame.itertuples(index=False):
        if row.layout not in LAYOUTS or row.label_space not in LABEL_SPACES:
            raise ValueError(f"datasets.csv: {row.name} has unknown layout {row.layout!r} or label space {row.label_space!r}")
        specs[row.name] = DatasetSpec(
            name=row.name, papers=tuple(row.papers.split()), title=row.title, subdir=row.subdir,
            layout=row.layout, n_images=int(row.n_images) if row.n_images else None,
            n_classes=int(row.n_classes), label_space=row.label_space, source=row.source,
            licence=row.licence, notes=row.notes,
        )
    return specs


def spec(name: str) -> DatasetSpec:
    """The registry row of `name` (a clear error for an unknown name)."""
    specs = registry()
    if name not in specs:
        raise KeyError(f"unknown dataset {name!r}; registered: {sorted(specs)}")
    return specs[name]


def open_dataset(
    name: str,
    root: str | Path | None = None,
    transform: Callable | None = None,
    corruption: str | None = None,
    severity: int | None = None,
) -> FolderImages:
    """Load a registered dataset from the data root; ImageNet-C needs a corruption and a severity."""
    s = spec(name)
    path = s.split_path(root, corruption, severity)
    if not path.is_dir():
        raise DatasetMissingError(s.missing_message(root) + (f" (looked for split {path})" if path != s.path(root) else ""))
    return FolderImages.from_root(path, s.label_space, transform)
