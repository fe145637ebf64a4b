"""Which datasets of an ImageNet-RIB suite are fine-tuned on, and which of their images; importable
without torch (the benchmark's settings and plan of runs read them; `suite_data` reads the images)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

OBJECTNET_EVALUATIONS = ("masked", "full_1000")
EVALUATION_ONLY_LAYOUTS = ("objectnet",)  # datasets whose licence forbids training on them


def registry_finetune_datasets(suite: Sequence[str]) -> list[str]:
    """The registered datasets of `suite` a model may be fine-tuned on: all but the evaluation-only ones (ObjectNet)."""
    from ..data.registry import spec  # the registry source only (imports torch)

    return [name for name in suite if spec(name).layout not in EVALUATION_ONLY_LAYOUTS]


@dataclass(frozen=True)
class TrainingSplit:
    """Which images of a fine-tuning dataset are trained on (default: all of them, nothing held out).

    `validation_fraction` > 0 holds out that share of every class (seeded, rounded per class) for
    best-epoch selection: App. E splits 4:1, i.e. 0.2. The paper does not say whether its split is
    per class; ours is, so that every class keeps training images. `images_per_class` > 0 then keeps
    that many of each class's remaining images (seeded; a class with fewer keeps all): the small
    subsets of Figs. 6 and 12."""

    images_per_class: int = 0
    validation_fraction: float = 0.0

    def indices(self, targets: Sequence[int], seed: int) -> tuple[np.ndarray, np.ndarray]:
        """Sorted item indices `(training, validation)` of a dataset with these targets."""
        targets = np.asarray(targets)
        generator = np.random.default_rng(seed)
        train, validation = [np.zeros(0, dtype=int)], [np.zeros(0, dtype=int)]
        for label in np.unique(targets):
            items = generator.permutation(np.flatnonzero(targets == label))
            held_out = int(round(self.validation_fraction * len(items)))
            validation.append(items[:held_out])
            train.append(items[held_out:][: self.images_per_class or None])
        return np.sort(np.concatenate(train)), np.sort(np.concatenate(validation))
