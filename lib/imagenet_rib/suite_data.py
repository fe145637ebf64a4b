"""Where the ImageNet-RIB benchmark reads images from: embedded mini domains, or registered datasets.

Both suites give the benchmark the same things:
- `names` (the suite 𝔻) and `reference` (the pretraining dataset's evaluation set: backward transfer);
- `train_batches(name, batch_size, seed, split)`: shuffled batches of a fine-tuning dataset (a suite
  dataset, the reference, or, registry only, a dataset outside the suite such as StanfordCars), the
  images `split` (a `TrainingSplit`) keeps for training; `validation_batches(...)` the ones it holds out;
- `own_class_names(name)`: the class names of a fine-tuning dataset outside the pretrained label
  space (a zero-shot head is built over them), None for the others;
- `evaluation_sets()`: name -> `EvaluationSet` (all items in one pass of batches, and the part of
  each item) for every suite dataset and the reference; a dataset's accuracy is the mean of its
  parts' accuracies (ImageNet-C: 15 corruptions x 5 severities, parts named `<corruption>/<severity>`;
  every other dataset has the one part "");
- `mask(name)`: the boolean logit mask of a dataset's classes over the model's outputs (None: all);
- `ranker(name, k)`: the k best classes of each item's logits (its mask applied), scored against the
  dataset's targets (`lib.evaluate.predictions`);
- `fisher_batches(n_images, batch_size, seed)`: a seeded subset of the reference set (EWC's Fisher).

Both read their images through the shared sources of `lib.data.source` (`EmbeddedSource`,
`RegistrySource`), as every paper's runs do; what is specific to the benchmark (class-subset masks,
ObjectNet's scoring, the reference set, the training splits) is here.
"""

from __future__ import annotations

import copy
import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch
from torch.utils.data import Dataset, Subset

from ..data.objectnet import ObjectNetImages
from ..data.registry import IMAGENET_C_SEVERITIES, spec
from ..data.source import EmbeddedSource, RegistrySource, concatenated, part_labels, part_targets
from ..data.shifts import Domain
from ..evaluate.predictions import Ranker, top_k
from ..finetune.methods import masked
from ..train.loop import Batches, tensor_batches
from .splits import OBJECTNET_EVALUATIONS, TrainingSplit, registry_finetune_datasets

EVAL_BATCH = 256


class TrainingForbiddenError(ValueError):
    """A dataset whose licence forbids training on it was asked for fine-tuning batches."""


@dataclass(frozen=True)
class EvaluationSet:
    """Every item of an evaluation dataset in one pass of `batches`; `parts[i]` names item i's part."""

    batches: Batches
    parts: pd.Categorical


def seeded_subset(count: int, n_items: int, seed: int) -> torch.Tensor:
    """Sorted indices of `n_items` of `count` items drawn without replacement with `seed`."""
    if not 0 < n_items <= count:
        raise ValueError(f"cannot draw {n_items} items from {count}")
    order = torch.randperm(count, generator=torch.Generator().manual_seed(seed))
    return order[:n_items].sort().values


class FineTuningBatches(ABC):
    """A suite's training and held-out batches of a fine-tuning dataset, from its `_split_batches`
    (part 0: the images `split` trains on, shuffled; part 1: the ones it holds out)."""

    @abstractmethod
    def _split_batches(self, name: str, batch_size: int, seed: int, split: TrainingSplit, part: int) -> Batches:
        """Batches of part `part` of `split` of dataset `name`."""

    def train_batches(self, name: str, batch_size: int, seed: int, split: TrainingSplit = TrainingSplit()) -> Batches:
        return self._split_batches(name, batch_size, seed, split, 0)

    def validation_batches(self, name: str, batch_size: int, seed: int, split: TrainingSplit) -> Batches:
        return self._split_batches(name, batch_size, seed, split, 1)


@functools.cache
def embedded_source(image_size: int) -> EmbeddedSource:
    """One source of the embedded domains per image size and process: the benchmarks of a sweep (one
    per value) share its domains, built once (the same seed builds the same images)."""
    return EmbeddedSource(image_size)


class EmbeddedSuite(FineTuningBatches):
    """The miniature suite: shifted digits domains, some keeping only a class subset (`class_subsets`)."""

    def __init__(self, pretrain_domain: str, suite: Sequence[str], class_subsets: dict, image_size: int) -> None:
        self.reference = pretrain_domain
        self.names = list(suite)
        self.class_subsets = class_subsets
        self.source = embedded_source(image_size)
        self.pretraining: Domain = self.source.domain(pretrain_domain)

    def mask(self, name: str) -> torch.Tensor | None:
        if name not in self.class_subsets:
            return None
        mask = torch.zeros(self.pretraining.num_classes, dtype=torch.bool)
        mask[list(self.class_subsets[name])] = True
        return mask

    def split(self, name: str, split: str) -> tuple[torch.Tensor, torch.Tensor]:
        """`(images, labels)` of a suite dataset's `train` or `test` split, restricted to its class subset."""
        images, labels = self.source.items(name, split)
        mask = self.mask(name)
        return (images, labels) if mask is None else (images[mask[labels]], labels[mask[labels]])

    def _finetuning_images(self, name: str) -> tuple[torch.Tensor, torch.Tensor]:
        """A suite dataset's training split; for the reference, the pretraining domain's test split
        (the analogue of fine-tuning on ImageNet-1K val, held out from pretraining: Table 6)."""
        if name == self.reference:
            return self.pretraining.test_images, self.pretraining.test_labels
        return self.split(name, "train")

    def _split_batches(self, name: str, batch_size: int, seed: int, split: TrainingSplit, part: int) -> Batches:
        images, labels = self._finetuning_images(name)
        keep = torch.as_tensor(split.indices(labels.tolist(), seed)[part])
        return tensor_batches(images[keep], labels[keep], batch_size, seed, shuffle=part == 0)

    def own_class_names(self, name: str) -> None:
        """Every embedded domain shares the pretraining classes (subsets are masks)."""
        return None

    def evaluation_sets(self) -> dict[str, EvaluationSet]:
        splits = {name: self.split(name, "test") for name in self.names}
        splits[self.reference] = (self.pretraining.test_images, self.pretraining.test_labels)
        return {name: EvaluationSet(tensor_batches(images, labels, EVAL_BATCH, 0, shuffle=False),
                                    part_labels([""], [len(labels)]))
                for name, (images, labels) in splits.items()}

    def ranker(self, name: str, k: int = 1) -> Ranker:
        rank = top_k(k)
        mask = self.mask(name)
        return lambda logits: rank(masked(logits, mask))

    def fisher_batches(self, n_images: int, batch_size: int, seed: int) -> Batches:
        images, labels = self.pretraining.train_images, self.pretraining.train_labels
        keep = seeded_subset(len(labels), n_images, seed)
        return tensor_batches(images[keep], labels[keep], batch_size, seed, shuffle=False)

    def sample(self, name: str, n_images: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
        """`(images, labels)` of `n_images` test images of a suite dataset or of the reference (the
        pretraining test split), drawn with `seed`."""
        if name == self.reference:
            images, labels = self.pretraining.test_images, self.pretraining.test_labels
        else:
            images, labels = self.split(name, "test")
        keep = seeded_subset(len(labels), n_images, seed)
        return images[keep], labels[keep]


class RegistrySuite(FineTuningBatches):
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
    - `finetune_only` datasets are opened for fine-tuning, not evaluated on: the ImageNet-1K training
      set (Fig. 6) or StanfordCars, whose own 196 classes need a zero-shot head over their names (Table 12).
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
        finetune_only: Sequence[str] = (),
    ) -> None:
        if objectnet_evaluation not in OBJECTNET_EVALUATIONS:
            raise ValueError(f"objectnet_evaluation must be one of {OBJECTNET_EVALUATIONS}, not {objectnet_evaluation!r}")
        self.names, self.reference = list(suite), reference
        self.objectnet_evaluation = objectnet_evaluation
        self.imagenet_c_finetune_severities = tuple(imagenet_c_finetune_severities)
        self.finetune_only = [name for name in finetune_only if name not in [*self.names, reference]]
        names = [*self.names, reference, *self.finetune_only]
        # fine-tuned on and evaluated on the same items; a dataset with splits is read from `train`
        self.source = RegistrySource({name: (_reference(name),) * 2 for name in names}, transform,
                                     split_shared=False, workers=workers, root=root)
        self.masks = {name: torch.stack([torch.as_tensor(data.logit_mask()) for data in self._parts(name).values()]).any(dim=0)
                      for name in names}

    def with_transform(self, transform: Callable) -> RegistrySuite:
        """The same opened datasets read through another transform."""
        suite = copy.copy(self)
        suite.source = self.source.with_transform(transform)
        return suite

    def _parts(self, name: str) -> dict:
        return self.source.parts(name, "test")

    def _objectnet(self, name: str) -> ObjectNetImages | None:
        """The dataset if `name` is ObjectNet (scored through its class mapping)."""
        data = next(iter(self._parts(name).values()))
        return data if isinstance(data, ObjectNetImages) else None

    def _finetuning_images(self, name: str) -> tuple[Dataset, np.ndarray]:
        """A fine-tuning dataset (ImageNet-C: its fine-tuning severities) and the target of every item."""
        if registry_finetune_datasets([name]) != [name]:
            raise TrainingForbiddenError(
                f"{name} is for evaluation only ({spec(name).licence}): the benchmark evaluates on it and never "
                "fine-tunes on it, although the paper did (Sec. 3)"
            )
        parts = self.source.parts(name, "train")
        if spec(name).layout == "imagenet_c":
            parts = {p: d for p, d in parts.items() if int(p.rsplit("/", 1)[1]) in self.imagenet_c_finetune_severities}
        return concatenated(parts), part_targets(parts)

    def _split_batches(self, name: str, batch_size: int, seed: int, split: TrainingSplit, part: int) -> Batches:
        data, targets = self._finetuning_images(name)
        if split != TrainingSplit():
            data = Subset(data, split.indices(targets, seed)[part].tolist())
        return self.source.loader(data, batch_size, seed if part == 0 else None)

    def own_class_names(self, name: str) -> list[str] | None:
        """The class names of a dataset with its own label space (StanfordCars); None in ImageNet's."""
        data = next(iter(self._parts(name).values()))
        return list(data.class_names) if data.label_space == "own" else None

    def evaluation_sets(self) -> dict[str, EvaluationSet]:
        """One loader over all parts of a dataset (ImageNet-C: 75 folders, one set of workers)."""
        return {name: EvaluationSet(self.source.batches(name, "test", EVAL_BATCH), self.source.part_labels(name, "test"))
                for name in [*self.names, self.reference]}

    def mask(self, name: str) -> torch.Tensor | None:
        if self._objectnet(name) is not None and self.objectnet_evaluation == "full_1000":
            return None
        mask = self.masks[name]  # the union over the dataset's parts
        return None if mask.all() else mask

    def ranker(self, name: str, k: int = 1) -> Ranker:
        """The k best classes (mask applied); ObjectNet's mapped onto its own targets."""
        rank, mask, objectnet = top_k(k), self.mask(name), self._objectnet(name)
        if objectnet is None:
            return lambda logits: rank(masked(logits, mask))
        return lambda logits: objectnet.project_predictions(torch.as_tensor(rank(masked(logits, mask)))).numpy()

    def fisher_batches(self, n_images: int, batch_size: int, seed: int) -> Batches:
        data = self.source.dataset(self.reference, "test")
        return self.source.loader(Subset(data, seeded_subset(len(data), n_images, seed).tolist()), batch_size)

    def sample(self, name: str, n_images: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
        """`(images, labels)` of `n_images` evaluation images of a suite dataset or of the reference,
        drawn with `seed` over all its parts, read through the transform."""
        data = self.source.dataset(name, "test")
        batches = self.source.loader(Subset(data, seeded_subset(len(data), n_images, seed).tolist()), EVAL_BATCH)
        images, labels = zip(*batches)
        return torch.cat(images), torch.cat(labels)


def _reference(name: str) -> str:
    """The registry reference the benchmark reads a dataset from: `name`, or its `train` split."""
    return f"{name}:train" if spec(name).splits else name
