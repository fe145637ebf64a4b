"""Where the protocol study reads images from: an embedded mini domain, or registered datasets.

Both give the protocols the same things: batches of the training and test splits (optionally a
subset of the training split), the training labels, and the number of classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, Subset

from ..data.registry import open_dataset
from ..data.shifts import Domain, split
from ..train.loop import tensor_batches


@dataclass(frozen=True)
class EmbeddedSource:
    """A mini domain held in memory (`lib.data.shifts`)."""

    domain: Domain

    @property
    def num_classes(self) -> int:
        return self.domain.num_classes

    def train_labels(self) -> np.ndarray:
        return self.domain.train_labels.numpy()

    def train_batches(self, batch_size: int, seed: int, shuffle: bool = True, indices: np.ndarray | None = None) -> DataLoader:
        images, labels = self.domain.train_images, self.domain.train_labels
        if indices is not None:
            images, labels = images[indices], labels[indices]
        return tensor_batches(images, labels, batch_size, seed, shuffle)

    def test_batches(self, batch_size: int) -> DataLoader:
        return tensor_batches(self.domain.test_images, self.domain.test_labels, batch_size, seed=0, shuffle=False)


class RegistrySource:
    """Registered datasets (full tier), each named `dataset` or `dataset:split`: a train and a test
    set, or, when both name the same unsplit dataset, a stratified 70/30 split drawn with `seed`.
    Missing data raise `DatasetMissingError` as soon as the source is made."""

    def __init__(self, train: str, test: str, transform: Callable, seed: int, workers: int = 8) -> None:
        self.workers = workers
        self._train: Dataset = _open(train, transform)
        self._labels = np.asarray(self._train.targets, dtype=np.int64)
        self.num_classes = int(self._train.num_outputs)
        if test == train:
            train_idx, test_idx = split(self._labels, seed)
            self._test: Dataset = Subset(self._train, test_idx.tolist())
            self._train, self._labels = Subset(self._train, train_idx.tolist()), self._labels[train_idx]
        else:
            self._test = _open(test, transform)

    def train_labels(self) -> np.ndarray:
        return self._labels

    def train_batches(self, batch_size: int, seed: int, shuffle: bool = True, indices: np.ndarray | None = None) -> DataLoader:
        data = self._train if indices is None else Subset(self._train, indices.tolist())
        generator = torch.Generator().manual_seed(seed)
        return DataLoader(data, batch_size=batch_size, shuffle=shuffle, generator=generator, num_workers=self.workers, pin_memory=True)

    def test_batches(self, batch_size: int) -> DataLoader:
        return DataLoader(self._test, batch_size=batch_size, shuffle=False, num_workers=self.workers, pin_memory=True)


def _open(reference: str, transform: Callable) -> Dataset:
    """`dataset` or `dataset:split` from the registry."""
    name, _, split_name = reference.partition(":")
    return open_dataset(name, transform=transform, split=split_name or None)
