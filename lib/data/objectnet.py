"""ObjectNet 1.0 in the ImageNet-1K label space, through the mapping files the dataset ships.

Layout (the ObjectNet 1.0 download, `<data root>/objectnet-1.0`):

    images/<folder>/<image>.png                   313 class folders
    mappings/folder_to_objectnet_label.json       {folder name: ObjectNet label}
    mappings/objectnet_to_imagenet_1k.json        {ObjectNet label: "ImageNet name; ImageNet name; ..."}
                                                  (the 113 classes that overlap ImageNet-1K)
    mappings/imagenet_to_label_2012_v2            1000 lines: the ImageNet class names, line i = ILSVRC-2012 id i
    mappings/pytorch_to_imagenet_2012_id.json     {"PyTorch index": ILSVRC-2012 id}

The ImageNet names are looked up in `imagenet_to_label_2012_v2`, whose ILSVRC-2012 ids become
PyTorch / timm class indices (the sorted-WordNet-id order of every classifier here) through the
inverse of `pytorch_to_imagenet_2012_id.json`. Only the folders of the 113 overlapping classes are
read. An ObjectNet class may map to several ImageNet classes (Chair: barber, folding and rocking
chair); its target is the lowest of them, and `project_predictions` maps each of its ImageNet classes
onto that target, so `prediction == target` counts a prediction of any of them as correct. The
logit mask keeps the union of the mapped classes.

Every image carries a red border (the licence calls it a 1-pixel border and requires it on any image
posted to the web); `border` pixels are cropped off each side before the transform. The official
ObjectNet evaluation template and mlfoundations/wise-ft crop 2 pixels: pass `border=2` for that.

Licence: ObjectNet may never be used to tune the parameters of any model (evaluation only).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import torch
from PIL import Image

from .folders import FolderImages, class_folders
from .labelled import IMAGENET_CLASSES, DatasetMissingError

FOLDER_LABELS = "folder_to_objectnet_label.json"
OBJECTNET_TO_IMAGENET = "objectnet_to_imagenet_1k.json"
IMAGENET_NAMES = "imagenet_to_label_2012_v2"
PYTORCH_TO_2012 = "pytorch_to_imagenet_2012_id.json"
MAPPING_FILES = (FOLDER_LABELS, OBJECTNET_TO_IMAGENET, IMAGENET_NAMES, PYTORCH_TO_2012)


def _read(mappings: Path, name: str) -> str:
    path = mappings / name
    if not path.is_file():
        raise DatasetMissingError(f"ObjectNet mapping file not found at {path} (it ships in objectnet-1.0/mappings/)")
    return path.read_text()


def imagenet_classes_by_folder(mappings: Path) -> dict[str, tuple[str, tuple[int, ...]]]:
    """folder -> (ObjectNet label, sorted ImageNet-1K class indices) for every class that overlaps ImageNet."""
    label_to_folder: dict[str, str] = {}
    for folder, label in json.loads(_read(mappings, FOLDER_LABELS)).items():
        if label in label_to_folder:
            raise ValueError(f"{FOLDER_LABELS}: label {label!r} names two folders")
        label_to_folder[label] = folder
    names = [line.strip() for line in _read(mappings, IMAGENET_NAMES).splitlines() if line.strip()]
    if len(names) != IMAGENET_CLASSES:
        raise ValueError(f"{IMAGENET_NAMES}: {len(names)} class names, expected {IMAGENET_CLASSES}")
    lines = Counter(names)
    id_of_name = {name: ilsvrc_id for ilsvrc_id, name in enumerate(names)}
    pytorch_of_id = {int(ilsvrc_id): int(index) for index, ilsvrc_id in json.loads(_read(mappings, PYTORCH_TO_2012)).items()}
    if sorted(pytorch_of_id) != list(range(IMAGENET_CLASSES)) or sorted(pytorch_of_id.values()) != list(range(IMAGENET_CLASSES)):
        raise ValueError(f"{PYTORCH_TO_2012} is not a one-to-one map of the indices 0..999")
    classes: dict[str, tuple[str, tuple[int, ...]]] = {}
    for label, imagenet_names in json.loads(_read(mappings, OBJECTNET_TO_IMAGENET)).items():
        if label not in label_to_folder:
            raise ValueError(f"{OBJECTNET_TO_IMAGENET}: label {label!r} has no folder in {FOLDER_LABELS}")
        indices = []
        for name in (part.strip() for part in imagenet_names.split(";")):
            if lines[name] != 1:
                problem = "is not a line of" if lines[name] == 0 else "names several lines of"
                raise ValueError(f"{OBJECTNET_TO_IMAGENET}: {label!r} -> {name!r} {problem} {IMAGENET_NAMES}")
            indices.append(pytorch_of_id[id_of_name[name]])
        classes[label_to_folder[label]] = (label, tuple(sorted(indices)))
    owners: dict[int, str] = {}
    for label, indices in classes.values():
        for index in indices:
            if owners.setdefault(index, label) != label:
                raise ValueError(f"ImageNet class {index} is mapped from both {owners[index]!r} and {label!r}")
    return classes


@dataclass
class ObjectNetImages(FolderImages):
    """ObjectNet images of the classes that overlap ImageNet-1K, with ImageNet-1K targets (see the module docstring)."""

    imagenet_classes: list[tuple[int, ...]] = field(default_factory=list)  # aligned with `class_names`
    border: int = 1

    def image(self, i: int) -> Image.Image:
        image = super().image(i)
        b = self.border
        return image.crop((b, b, image.width - b, image.height - b)) if b else image

    def logit_mask(self) -> np.ndarray:
        """True for every ImageNet class an ObjectNet class present here maps to."""
        mask = np.zeros(self.num_outputs, dtype=bool)
        mask[[index for indices in self.imagenet_classes for index in indices]] = True
        return mask

    def project_predictions(self, predictions: torch.Tensor) -> torch.Tensor:
        """ImageNet-1K predictions with each mapped class replaced by its ObjectNet class's target."""
        table = torch.arange(self.num_outputs)
        for indices in self.imagenet_classes:
            table[list(indices)] = min(indices)
        return table[predictions]


def objectnet(root: Path, split: None = None, transform: Callable | None = None, border: int = 1) -> ObjectNetImages:
    """The overlapping classes of ObjectNet 1.0 under `root` (`images/` and `mappings/`)."""
    classes = imagenet_classes_by_folder(root / "mappings")
    images = root / "images"
    if not images.is_dir():
        raise DatasetMissingError(f"ObjectNet image folders not found at {images}")
    present = {folder: files for folder, files in class_folders(images).items() if folder in classes and files}
    labels = [classes[folder][0] for folder in present]
    imagenet = [classes[folder][1] for folder in present]
    samples = [(path, min(indices)) for indices, files in zip(imagenet, present.values()) for path in files]
    return ObjectNetImages(samples, labels, [min(i) for i in imagenet], "imagenet_index", transform, imagenet, border)
