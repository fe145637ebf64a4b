"""Where the ImageNet-RIB benchmark reads images from: embedded mini domains, or registered datasets.

Both suites give the benchmark the same things:
- `names` (the suite 𝔻), `reference` (the pretraining dataset's evaluation set: backward transfer)
  and `finetune_datasets` (the suite datasets a model may be fine-tuned on);
- `train_batches(name, batch_size, seed)`: shuffled batches of a suite dataset;
- `evaluation_sets()`: name -> `EvaluationSet` (all items in one pass of batches, and the part of
  each item) for every suite dataset and the reference; a dataset's accuracy is the mean of its
  parts' accuracies (ImageNet-C: 15 corruptions x 5 severities, parts named `<corruption>/<severity>`;
  every other dataset has the one part "");
- `mask(name)`: the boolean logit mask of a dataset's classes over the model's outputs (None: all);
- `predictions(name, logits)`: the predicted classes, scored against the dataset's targets;
- `fisher_batches(n_images, batch_size, seed)`: a seeded subset of the reference set (EWC's Fisher).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch
from torch.utils.data import ConcatDataset, DataLoader, Dataset, Subset

from ..data.labelled import DatasetMissingError, LabelledImages
from ..data.objectnet import ObjectNetImages
from ..data.registry import IMAGENET_C_CORRUPTIONS, IMAGENET_C_SEVERITIES, DatasetSpec, open_spec, spec
from ..data.shifts import Domain, make_domain
from ..train.loop import Batches, tensor_batches
from .methods import masked

EVAL_BATCH = 256
OBJECTNET_EVALUATIONS = ("masked", "full_1000")
EVALUATION_ONLY_LAYOUTS = ("objectnet",)  # datasets whose licence forbids training on them


class TrainingForbiddenError(ValueError):
    """A dataset whose licence forbids training on it was asked for fine-tuning batches."""


def registry_finetune_datasets(suite: Sequence[str]) -> list[str]:
    """The registered datasets of `suite` a model may be fine-tuned on: all but the evaluation-only ones (ObjectNet)."""
    return [name for name in suite if spec(name).layout not in EVALUATION_ONLY_LAYOUTS]


@dataclass(frozen=True)
class EvaluationSet:
    """Every item of an evaluation dataset in one pass of `batches`; `parts[i]` names item i's part."""

    batches: Batches
    parts: pd.Categorical


def part_labels(names: Sequence[str], sizes: Sequence[int]) -> pd.Categorical:
    """The part of every item when parts of these sizes are read one after the other."""
    return pd.Categorical.from_codes(np.repeat(np.arange(len(names)), sizes), categories=list(names))


def seeded_subset(count: int, n_items: int, seed: int) -> torch.Tensor:
    """Sorted indices of `n_items` of `count` items drawn without replacement with `seed`."""
    if not 0 < n_items <= count:
        raise ValueError(f"cannot draw {n_items} items from {count}")
    order = torch.randperm(count, generator=torch.Generator().manual_seed(seed))
    return order[:n_items].sort().values


class EmbeddedSuite:
    """The miniature suite: shifted digits domains, some keeping only a class subset (`class_subsets`)."""

    def __init__(self, pretrain_domain: str, suite: Sequence[str], class_subsets: dict, image_size: int) -> None:
        self.reference = pretrain_domain
        self.names = list(suite)
        self.finetune_datasets = list(suite)
        self.class_subsets = class_subsets
        self.pretraining: Domain = make_domain(pretrain_domain, image_size)
        self.domains = {name: make_domain(name, image_size) for name in suite}

    def mask(self, name: str) -> torch.Tensor | None:
        if name not in self.class_subsets:
            return None
        mask = torch.zeros(self.pretraining.num_classes, dtype=torch.bool)
        mask[list(self.class_subsets[name])] = True
        return mask

    def split(self, name: str, split: str) -> tuple[torch.Tensor, torch.Tensor]:
        """`(images, labels)` of a suite dataset's `train` or `test` split, restricted to its class subset."""
        domain = self.domains[name]
        if split == "train":
            images, labels = domain.train_images, domain.train_labels
        else:
            images, labels = domain.test_images, domain.test_labels
        mask = self.mask(name)
        return (images, labels) if mask is None else (images[mask[labels]], labels[mask[labels]])

    def train_batches(self, name: str, batch_size: int, seed: int) -> Batches:
        return tensor_batches(*self.split(name, "train"), batch_size, seed)

    def evaluation_sets(self) -> dict[str, EvaluationSet]:
        splits = {name: self.split(name, "test") for name in self.names}
        splits[self.reference] = (self.pretraining.test_images, self.pretraining.test_labels)
        return {name: EvaluationSet(tensor_batches(images, labels, EVAL_BATCH, 0, shuffle=False),
                                    part_labels([""], [len(labels)]))
                for name, (images, labels) in splits.items()}

    def predictions(self, name: str, logits: torch.Tensor) -> torch.Tensor:
        return masked(logits, self.mask(name)).argmax(dim=1)

    def fisher_batches(self, n_images: int, batch_size: int, seed: int) -> Batches:
        images, labels = self.pretraining.train_images, self.pretraining.train_labels
        keep = seeded_subset(len(labels), n_images, seed)
        return tensor_batches(images[keep], labels[keep], batch_size, seed, shuffle=False)


class Transformed(Dataset):
    """`(transform(image), target)` of a dataset that yields PIL images."""

    def __init__(self, data: Dataset, transform: Callable) -> None:
        self.data, self.transform = data, transform

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i: int):
        image, target = self.data[i]
        return self.transform(image), target


def open_parts(s: DatasetSpec, root: str | None = None) -> dict[str, LabelledImages]:
    """Every part of a registered dataset, untransformed: ImageNet-C's 75 `<corruption>/<severity>`
    folders, or the one folder (part ""). Raises one DatasetMissingError naming every missing folder."""
    if not s.path(root).is_dir():
        raise DatasetMissingError(s.missing_message(root))
    if s.layout != "imagenet_c":
        return {"": open_spec(s, root)}
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


class RegistrySuite:
    """The paper's suite of registered ImageNet datasets (full tier), each opened through the registry.

    - Images pass through `transform` (the pretrained model's eval transform, `with_transform`), for
      fine-tuning as for evaluation: the paper describes no training augmentation.
    - Masks come from each dataset's `logit_mask()` (ImageNet-A/-R: their 200 classes). ObjectNet
      (`objectnet_evaluation`): `masked` (default) restricts the prediction to the ImageNet classes its
      113 overlapping classes map to; `full_1000` takes the argmax over all 1000 outputs. Either way a
      prediction counts as correct on any ImageNet class of the image's ObjectNet class.
    - ImageNet-C: evaluated on all 75 corruption x severity splits (accuracy averaged over them); the
      fine-tuning set concatenates the 15 corruptions at each severity of `imagenet_c_finetune_severities`.
      The paper does not say which images form its fine-tuning set; the default, all five severities
      (3.75 M images), reads "fine-tuning on ImageNet-C ... due to its diverse corruptions and
      severities" (Sec. 4) as the whole dataset.
    - EWC's Fisher is estimated on a seeded subset of the reference set (ImageNet-1K val: the benchmark
      reads no ImageNet training image).
    - ObjectNet's licence forbids training on it: it is never a fine-tuning dataset here
      (`train_batches` raises TrainingForbiddenError), so mRI averages over the other suite datasets.
    - Every dataset is opened when the suite is made: missing data raise one DatasetMissingError
      naming every missing dataset before anything is computed.
    """

    def __init__(
        self,
        suite: Sequence[str],
        reference: str,
        objectnet_evaluation: str = "masked",
        imagenet_c_finetune_severities: Sequence[int] = IMAGENET_C_SEVERITIES,
        root: str | None = None,
        workers: int = 0,
        transform: Callable | None = None,
    ) -> None:
        if objectnet_evaluation not in OBJECTNET_EVALUATIONS:
            raise ValueError(f"objectnet_evaluation must be one of {OBJECTNET_EVALUATIONS}, not {objectnet_evaluation!r}")
        self.names, self.reference = list(suite), reference
        self.objectnet_evaluation = objectnet_evaluation
        self.imagenet_c_finetune_severities = tuple(imagenet_c_finetune_severities)
        self.workers = workers
        self.transform = transform
        self.parts: dict[str, dict[str, LabelledImages]] = {}
        missing = []
        for name in [*self.names, reference]:
            try:
                self.parts[name] = open_parts(spec(name), root)
            except DatasetMissingError as error:
                missing.append(str(error))
        if missing:
            raise DatasetMissingError(f"{len(missing)} dataset(s) of the ImageNet-RIB suite missing:\n" + "\n".join(missing))
        self.finetune_datasets = registry_finetune_datasets(self.names)
        self.masks = {name: torch.stack([torch.as_tensor(data.logit_mask()) for data in parts.values()]).any(dim=0)
                      for name, parts in self.parts.items()}

    def with_transform(self, transform: Callable) -> RegistrySuite:
        """The same opened datasets read through another transform."""
        suite = copy.copy(self)
        suite.transform = transform
        return suite

    def _objectnet(self, name: str) -> ObjectNetImages | None:
        """The dataset if `name` is ObjectNet (scored through its class mapping)."""
        data = next(iter(self.parts[name].values()))
        return data if isinstance(data, ObjectNetImages) else None

    def _loader(self, data: Dataset, batch_size: int, seed: int | None) -> DataLoader:
        if self.transform is None:
            raise ValueError("RegistrySuite has no transform: use with_transform(the model's eval transform)")
        generator = None if seed is None else torch.Generator().manual_seed(seed)
        return DataLoader(Transformed(data, self.transform), batch_size=batch_size, shuffle=seed is not None,
                          generator=generator, num_workers=self.workers, pin_memory=torch.cuda.is_available())

    def train_batches(self, name: str, batch_size: int, seed: int) -> Batches:
        if name not in self.finetune_datasets:
            raise TrainingForbiddenError(
                f"{name} is for evaluation only ({spec(name).licence}): the benchmark evaluates on it and never "
                "fine-tunes on it, although the paper did (Sec. 3)"
            )
        parts = self.parts[name]
        if spec(name).layout == "imagenet_c":
            parts = {p: d for p, d in parts.items() if int(p.rsplit("/", 1)[1]) in self.imagenet_c_finetune_severities}
        return self._loader(ConcatDataset(list(parts.values())), batch_size, seed)

    def evaluation_sets(self) -> dict[str, EvaluationSet]:
        """One loader over all parts of a dataset (ImageNet-C: 75 folders, one set of workers)."""
        return {name: EvaluationSet(self._loader(ConcatDataset(list(parts.values())), EVAL_BATCH, None),
                                    part_labels(list(parts), [len(data) for data in parts.values()]))
                for name, parts in self.parts.items()}

    def mask(self, name: str) -> torch.Tensor | None:
        if self._objectnet(name) is not None and self.objectnet_evaluation == "full_1000":
            return None
        mask = self.masks[name]  # the union over the dataset's parts
        return None if mask.all() else mask

    def predictions(self, name: str, logits: torch.Tensor) -> torch.Tensor:
        predicted = masked(logits, self.mask(name)).argmax(dim=1)
        objectnet = self._objectnet(name)
        return predicted if objectnet is None else objectnet.project_predictions(predicted)

    def fisher_batches(self, n_images: int, batch_size: int, seed: int) -> Batches:
        (data,) = self.parts[self.reference].values()
        return self._loader(Subset(data, seeded_subset(len(data), n_images, seed).tolist()), batch_size, None)
