"""Where every paper's runs read images from: one interface over embedded miniature domains and
registered datasets.

A source serves named datasets, each with a `train` and a `test` split:
- `num_classes(name)` and `targets(name, split)` (the split's labels, in item order);
- `batches(name, split, batch_size, seed=None, indices=None)`: the split's items (or those at
  `indices`), in order, or shuffled with `seed`.

`EmbeddedSource` builds the domains of `lib.data.shifts` at one image size, split with one seed.
`RegistrySource` opens registered datasets, each named by a pair of references `(train, test)`, each
`dataset` or `dataset:split`, read through one transform (a model's eval transform: `with_transform`).
A dataset's parts (ImageNet-C: `<corruption>/<severity>`; every other dataset has the one part "")
are read one after the other. When both references name the same dataset, `split_shared` decides:
a seeded stratified 70/30 split (the protocol study) or the same items for both (the benchmark
fine-tunes on a dataset and evaluates on it). Every dataset is opened when the source is made:
missing data raise one DatasetMissingError naming all of them, before anything is computed.
"""

from __future__ import annotations

import copy
import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import pandas as pd
import torch
from torch.utils.data import ConcatDataset, DataLoader, Dataset, Subset

from ..train.loop import Batches, tensor_batches
from .labelled import DatasetMissingError, LabelledImages
from .registry import IMAGENET_C_CORRUPTIONS, IMAGENET_C_SEVERITIES, open_spec, spec
from .shifts import Domain, make_domain
from .subsets import split as stratified_split

SPLITS = ("train", "test")


def _check_split(split: str) -> None:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")


class DataSource(ABC):
    """Named datasets, each split into `train` and `test`, read as batches."""

    @abstractmethod
    def num_classes(self, name: str) -> int:
        """The width of the classifier a dataset is scored with."""

    @abstractmethod
    def targets(self, name: str, split: str) -> np.ndarray:
        """The label of every item of a split, in item order."""

    @abstractmethod
    def batches(self, name: str, split: str, batch_size: int, seed: int | None = None,
                indices: np.ndarray | None = None) -> Batches:
        """The items of a split (those at `indices`), in order, or shuffled with `seed`."""


class EmbeddedSource(DataSource):
    """The miniature domains of `lib.data.shifts`, built on first use: grey images in [0, 1]."""

    def __init__(self, image_size: int, seed: int = 0) -> None:
        self.image_size, self.seed = image_size, seed

    @functools.cache
    def domain(self, name: str) -> Domain:
        return make_domain(name, self.image_size, self.seed)

    def items(self, name: str, split: str) -> tuple[torch.Tensor, torch.Tensor]:
        """`(images, labels)` of a split."""
        _check_split(split)
        d = self.domain(name)
        return (d.train_images, d.train_labels) if split == "train" else (d.test_images, d.test_labels)

    def num_classes(self, name: str) -> int:
        return self.domain(name).num_classes

    def targets(self, name: str, split: str) -> np.ndarray:
        return self.items(name, split)[1].numpy()

    def batches(self, name: str, split: str, batch_size: int, seed: int | None = None,
                indices: np.ndarray | None = None) -> Batches:
        images, labels = self.items(name, split)
        if indices is not None:
            keep = torch.as_tensor(np.asarray(indices), dtype=torch.long)
            images, labels = images[keep], labels[keep]
        return tensor_batches(images, labels, batch_size, 0 if seed is None else seed, shuffle=seed is not None)


class Transformed(Dataset):
    """`(transform(image), target)` of a dataset that yields PIL images."""

    def __init__(self, data: Dataset, transform: Callable) -> None:
        self.data, self.transform = data, transform

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i: int):
        image, target = self.data[i]
        return self.transform(image), target


def open_parts(reference: str, root: str | Path | None = None) -> dict[str, LabelledImages]:
    """Every part of a registered dataset `dataset[:split]`, untransformed: ImageNet-C's 75
    `<corruption>/<severity>` folders, or the one dataset (part ""). One DatasetMissingError names
    every missing folder."""
    name, _, split = reference.partition(":")
    s = spec(name)
    s.present_path(root)
    if s.layout != "imagenet_c":
        return {"": open_spec(s, root, split=split or None)}
    parts, missing = {}, []
    for c in IMAGENET_C_CORRUPTIONS:
        for k in IMAGENET_C_SEVERITIES:
            try:
                parts[f"{c}/{k}"] = open_spec(s, root, corruption=c, severity=k)
            except DatasetMissingError:
                missing.append(f"{c}/{k}")
    if missing:
        raise DatasetMissingError(
            f"dataset '{s.name}': {len(missing)} of 75 split folders missing under {s.path(root)}: {', '.join(missing)}"
        )
    return parts


def concatenated(parts: Mapping[str, Dataset]) -> Dataset:
    """The parts read one after the other (one part: itself)."""
    return next(iter(parts.values())) if len(parts) == 1 else ConcatDataset(list(parts.values()))


def part_targets(parts: Mapping[str, LabelledImages]) -> np.ndarray:
    """The target of every item of the parts read one after the other."""
    return np.asarray([t for data in parts.values() for t in data.targets], dtype=np.int64)


def part_labels(names: list[str], sizes: list[int]) -> pd.Categorical:
    """The part of every item when parts of these sizes are read one after the other."""
    return pd.Categorical.from_codes(np.repeat(np.arange(len(names)), sizes), categories=list(names))


class RegistrySource(DataSource):
    """Registered datasets `name -> (train reference, test reference)`, read through `transform`."""

    def __init__(self, datasets: Mapping[str, tuple[str, str]], transform: Callable | None = None, seed: int = 0,
                 split_shared: bool = True, workers: int = 0, root: str | Path | None = None) -> None:
        self.transform, self.workers = transform, workers
        self._parts: dict[str, dict[str, dict[str, LabelledImages]]] = {}
        self._indices: dict[str, dict[str, np.ndarray | None]] = {}
        opened: dict[str, dict[str, LabelledImages]] = {}
        missing = []
        for reference in dict.fromkeys(ref for pair in datasets.values() for ref in pair):
            try:
                opened[reference] = open_parts(reference, root)
            except DatasetMissingError as error:
                missing.append(str(error))
        missing = list(dict.fromkeys(missing))  # two splits of one missing dataset: one message
        if missing:
            raise DatasetMissingError(f"{len(missing)} dataset(s) missing:\n- " + "\n- ".join(missing))
        for name, (train, test) in datasets.items():
            self._parts[name] = {"train": opened[train], "test": opened[test]}
            self._indices[name] = {"train": None, "test": None}
            if train == test and split_shared:
                train_idx, test_idx = stratified_split(part_targets(opened[train]), seed)
                self._indices[name] = {"train": train_idx, "test": test_idx}

    def with_transform(self, transform: Callable) -> RegistrySource:
        """The same opened datasets read through another transform."""
        source = copy.copy(self)
        source.transform = transform
        return source

    def parts(self, name: str, split: str) -> dict[str, LabelledImages]:
        """The untransformed parts a split is read from (all their items, before any 70/30 split)."""
        _check_split(split)
        return self._parts[name][split]

    def dataset(self, name: str, split: str) -> Dataset:
        """The split's items, untransformed."""
        data, keep = concatenated(self.parts(name, split)), self._indices[name][split]
        return data if keep is None else Subset(data, keep.tolist())

    def num_classes(self, name: str) -> int:
        return next(iter(self.parts(name, "train").values())).num_outputs

    def targets(self, name: str, split: str) -> np.ndarray:
        targets, keep = part_targets(self.parts(name, split)), self._indices[name][split]
        return targets if keep is None else targets[keep]

    def part_labels(self, name: str, split: str) -> pd.Categorical:
        """The part of every item of a split (before any 70/30 split)."""
        parts = self.parts(name, split)
        return part_labels(list(parts), [len(data) for data in parts.values()])

    def loader(self, data: Dataset, batch_size: int, seed: int | None = None) -> DataLoader:
        """Batches of untransformed `data` read through the transform, in order or shuffled with `seed`."""
        if self.transform is None:
            raise ValueError("RegistrySource has no transform: use with_transform(the model's eval transform)")
        generator = None if seed is None else torch.Generator().manual_seed(seed)
        return DataLoader(Transformed(data, self.transform), batch_size=batch_size, shuffle=seed is not None,
                          generator=generator, num_workers=self.workers, pin_memory=torch.cuda.is_available())

    def batches(self, name: str, split: str, batch_size: int, seed: int | None = None,
                indices: np.ndarray | None = None) -> Batches:
        data = self.dataset(name, split)
        return self.loader(data if indices is None else Subset(data, np.asarray(indices).tolist()), batch_size, seed)
