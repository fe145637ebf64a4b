"""CounterAnimal (counteranimal paper, App. A): animal photos in a `common` and a `counter` background group.

Released layout (the Google Drive archive's root folder `LAION-final/`, as the dataset's third-party
loaders read it; lib/registry/DATASETS.md):

    <imagenet index> <synset string>/          one folder per class, e.g. `9 ostrich, Struthio camelus`
        common-<background>/<image>            the class's common background, e.g. `common-ground`
        counter-<background>/<image>           its counter background, e.g. `counter-water`
    imagenet_names.txt                         (not read: the ImageNet index is in the folder name)

Targets are the ImageNet-1K indices of the folder names (label space `imagenet_index`), so every
ImageNet classifier and the 1000-class zero-shot head score the items directly. A group folder
named bare `common` / `counter` is read too, with no background. Any other sub-folder is an error:
an image outside a group folder would otherwise be counted in neither group.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pandas as pd

from .folders import FolderImages, is_image
from .labelled import IMAGENET_CLASSES, DatasetMissingError

GROUPS = ("common", "counter")
CLASS_FOLDER = re.compile(r"^(\d+) (.+)$")
GROUP_FOLDER = re.compile(r"^(common|counter)(?:-(.+))?$")


def _entries(folder: Path) -> list[os.DirEntry]:
    """The visible entries of `folder`, sorted by name."""
    return sorted((e for e in os.scandir(folder) if not e.name.startswith(".")), key=lambda e: e.name)


def parse_class_folder(name: str) -> tuple[int, str]:
    """`'<index> <synset string>'` -> (ImageNet-1K index, synset string); a clear error otherwise."""
    match = CLASS_FOLDER.match(name)
    if not match or int(match[1]) >= IMAGENET_CLASSES:
        raise ValueError(f"CounterAnimal class folder {name!r} is not '<ImageNet index 0..999> <class name>'")
    return int(match[1]), match[2]


def parse_group_folder(name: str) -> tuple[str, str | None]:
    """`'common-<background>'` -> ('common', background); bare `'counter'` -> ('counter', None)."""
    match = GROUP_FOLDER.match(name)
    if not match:
        raise ValueError(f"CounterAnimal group folder {name!r} is not 'common-<background>' or 'counter-<background>'")
    return match[1], match[2]


@dataclass
class CounterAnimalImages(FolderImages):
    """CounterAnimal images with ImageNet-1K targets; `groups` and `backgrounds` are aligned with `samples`."""

    groups: list[str] = field(default_factory=list)
    backgrounds: list[str | None] = field(default_factory=list)

    def items(self) -> pd.DataFrame:
        """One row per item, in item order: item, target, class (the folder's class name), group, background."""
        name_of = dict(zip(self.class_targets, self.class_names))
        targets = [target for _, target in self.samples]
        return pd.DataFrame({
            "item": range(len(self)), "target": targets, "class": [name_of[t] for t in targets],
            "group": self.groups, "background": self.backgrounds,
        })


def counteranimal(root: Path, split: None = None, transform: Callable | None = None) -> CounterAnimalImages:
    """CounterAnimal under `root` (the `LAION-final` folder; see the module docstring)."""
    samples, groups, backgrounds, names, targets = [], [], [], [], []
    for class_entry in _entries(root):
        if not class_entry.is_dir():
            continue
        target, name = parse_class_folder(class_entry.name)
        if target in targets:
            raise ValueError(f"CounterAnimal: two class folders have ImageNet index {target} (under {root})")
        names.append(name)
        targets.append(target)
        for group_entry in _entries(Path(class_entry.path)):
            if not group_entry.is_dir():
                if is_image(group_entry.name):
                    raise ValueError(f"CounterAnimal: image {group_entry.path} lies outside a common-/counter- folder")
                continue
            group, background = parse_group_folder(group_entry.name)
            for path in sorted(Path(dirpath) / f for dirpath, _, files in os.walk(group_entry.path) for f in files):
                if is_image(path.name) and not path.name.startswith("."):
                    samples.append((path, target))
                    groups.append(group)
                    backgrounds.append(background)
    if not samples:
        raise DatasetMissingError(
            f"no CounterAnimal images under {root} (expected '<index> <name>/common-<background>/' folders)")
    return CounterAnimalImages(samples, names, targets, "imagenet_index", transform, groups, backgrounds)
