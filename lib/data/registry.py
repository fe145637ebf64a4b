"""The dataset registry (`lib/registry/datasets.csv`): name -> folder, layout, splits, expected size, source, licence.

Layouts (column `layout`; lib/registry/DATASETS.md describes each dataset's choices):
- `imagefolder`: one folder per class (`lib.data.folders`).
- `imagefolder_seeded_split`: one folder per class, the images directly inside it split into
  `train`/`test` by a seeded permutation (options `seed`, `train_fraction`).
- `imagenet_c`: `<corruption>/<severity>/<wnid>/` folders.
- `voc_segmentation`: a VOC2012 folder, one label per image from its mask (`lib.data.voc`).
- `cifar_python`: the CIFAR-100 python pickles (`lib.data.cifar`).
- `cifar10_python`: the CIFAR-10 python pickles (`lib.data.cifar`).
- `mnist_idx`: MNIST's IDX files in torchvision's `MNIST/raw/` folder (`lib.data.mnist`).
- `portraits`: the Portraits archive's `M/` and `F/` folders, one split per decade (`lib.data.portraits`).
- `inat2021`: iNaturalist 2021 `train_mini/` and `val/` species folders (`lib.data.inaturalist`).
- `stanford_cars_devkit`: Stanford Cars images with the devkit's .mat annotations (`lib.data.cars`).
- `objectnet`: ObjectNet 1.0 `images/` and `mappings/`, the classes that overlap ImageNet-1K with
  ImageNet-1K targets (`lib.data.objectnet`).
- `counteranimal`: `<imagenet index> <name>/{common,counter}-<background>/` class folders, each item
  with its group and background (`lib.data.counteranimal`).
- `coco_instances`: COCO 2017's `annotations/instances_train2017.json` and `train2017/`, one item per kept
  object of ColoredCOCO's nine classes, with its mask (`lib.data.coco`).
Column `splits` lists the split names a dataset is opened with (empty: one split); column `options`
holds `key=value` loader options (e.g. the iNaturalist `target` and `subset`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

import pandas as pd

from ..paths import DATA_ROOT_ENV, REGISTRY_DIR, data_root
from .cars import stanford_cars
from .cifar import cifar10, cifar100
from .coco import coco_instances
from .counteranimal import counteranimal
from .folders import LABEL_SPACES, FolderImages, seeded_split
from .inaturalist import inat2021
from .labelled import DatasetMissingError, LabelledImages
from .mnist import mnist
from .objectnet import objectnet
from .portraits import portraits
from .voc import voc_segmentation

FOLDER_LAYOUTS = ("imagefolder", "imagefolder_seeded_split", "imagenet_c")
LOADERS: dict[str, Callable[..., LabelledImages]] = {
    "voc_segmentation": voc_segmentation,
    "cifar_python": cifar100,
    "cifar10_python": cifar10,
    "mnist_idx": mnist,
    "portraits": portraits,
    "inat2021": inat2021,
    "stanford_cars_devkit": stanford_cars,
    "objectnet": objectnet,
    "counteranimal": counteranimal,
    "coco_instances": coco_instances,
}
LAYOUTS = FOLDER_LAYOUTS + tuple(LOADERS)
IMAGENET_C_CORRUPTIONS = (
    "gaussian_noise", "shot_noise", "impulse_noise", "defocus_blur", "glass_blur", "motion_blur",
    "zoom_blur", "snow", "frost", "fog", "brightness", "contrast", "elastic_transform", "pixelate",
    "jpeg_compression",
)
IMAGENET_C_SEVERITIES = (1, 2, 3, 4, 5)


def _option_value(text: str) -> int | float | str:
    """A loader option's value: an int, else a float, else the text itself."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_options(text: str) -> tuple[tuple[str, int | float | str], ...]:
    """`key=value key=value` -> ((key, value), ...), values typed by `_option_value`."""
    options = []
    for item in text.split():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"datasets.csv: option {item!r} is not key=value")
        options.append((key, _option_value(value)))
    return tuple(options)


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
    splits: tuple[str, ...] = ()
    options: tuple[tuple[str, int | float | str], ...] = ()  # loader keyword arguments, as pairs

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

    def parts(self) -> list[dict[str, str | int]]:
        """The `open_spec` arguments of every part on disk: each split, or each ImageNet-C corruption x severity."""
        if self.layout == "imagenet_c":
            return [{"corruption": c, "severity": s} for c in IMAGENET_C_CORRUPTIONS for s in IMAGENET_C_SEVERITIES]
        return [{"split": split} for split in self.splits] or [{}]

    def present_path(self, root: str | Path | None = None) -> Path:
        """The dataset's folder under the data root; DatasetMissingError (`missing_message`) if it is absent."""
        if not self.path(root).is_dir():
            raise DatasetMissingError(self.missing_message(root))
        return self.path(root)

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
            licence=row.licence, notes=row.notes, splits=tuple(row.splits.split()), options=parse_options(row.options),
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
    split: str | None = None,
) -> LabelledImages:
    """Load a registered dataset from the data root.

    Datasets with `splits` need `split` (e.g. 'train'/'test'); ImageNet-C needs a corruption and a severity.
    """
    return open_spec(spec(name), root, transform, corruption, severity, split)


def open_spec(
    s: DatasetSpec,
    root: str | Path | None = None,
    transform: Callable | None = None,
    corruption: str | None = None,
    severity: int | None = None,
    split: str | None = None,
) -> LabelledImages:
    """`open_dataset` for a registry row given as a spec."""
    if s.splits and split not in s.splits:
        raise ValueError(f"{s.name}: split must be one of {s.splits}, not {split!r}")
    if not s.splits and split is not None:
        raise ValueError(f"{s.name} has no splits (got split={split!r})")
    s.present_path(root)
    path = s.split_path(root, corruption, severity)
    if not path.is_dir():
        raise DatasetMissingError(f"dataset '{s.name}': split folder {path} not found")
    if s.layout in LOADERS:
        return LOADERS[s.layout](path, split, transform, **dict(s.options))
    if s.layout == "imagefolder_seeded_split":
        data = FolderImages.from_root(path, s.label_space, transform, nested=False)
        return data.subset(seeded_split(len(data), split, **dict(s.options)))
    return FolderImages.from_root(path, s.label_space, transform)
