"""Tables 2-3 of our run: accuracy tables of the stored predictions of `lib.fm_perturbations.heads`.

Imports no torch: notebooks build these tables from stored runs.

- `image_accuracies`: per image, its accuracy on the clean cell (ACC, 0 or 1) and its ACC_p under each
  perturbation: the fraction of its perturbed versions classified correctly (Sec. 5.1: "calculated
  for each perturbed image"; the clean image is not one of its perturbed versions).
- `accuracy_table`: ACC, average ACC_p and drop = ACC - ACC_p per perturbation in percent, in the
  schema of the published Tables 2-3 (`lib.fm_perturbations.accuracies`): `dataset`, `head`,
  `perturbation` (the paper's name; blank for ACC), `quantity`, `value`, plus `model` and `n_images`.
"""

from __future__ import annotations

import pandas as pd

from ..evaluate.frames import hits
from ..perturb.corruptions import CORRUPTIONS
from .accuracies import HEADS
from .grid import CLEAN

ZERO_SHOT, LINEAR_PROBE = tuple(HEADS)  # the heads as Tables 2-3 name them
PERCENT = 100.0


def image_accuracies(predictions: pd.DataFrame) -> pd.DataFrame:
    """Per (model, dataset, head, perturbation, item): the fraction of the item's versions in that cell
    group classified correctly (top-1), `accuracy` in [0, 1]; the clean group gives ACC per image."""
    frame = predictions.assign(correct=hits(predictions, 1).astype(float))
    keys = ["model", "dataset", "head", "perturbation", "item"]
    return frame.groupby(keys, sort=False)["correct"].mean().rename("accuracy").reset_index()


def paper_name(perturbation: str) -> str:
    """The paper's name of a registered corruption (e.g. Gaussian noise); other names unchanged."""
    return CORRUPTIONS[perturbation].paper_name if perturbation in CORRUPTIONS else perturbation


def accuracy_table(predictions: pd.DataFrame) -> pd.DataFrame:
    """ACC, average ACC_p and drop (percent, points) per model, dataset, head and perturbation, in the
    published Tables 2-3 schema (see the module docstring)."""
    per_image = image_accuracies(predictions)
    rows = []
    for (model, dataset, head), group in per_image.groupby(["model", "dataset", "head"], sort=False):
        means = group.groupby("perturbation", sort=False)["accuracy"].agg(["mean", "size"])
        if CLEAN not in means.index:
            raise ValueError(f"{model}, {dataset}, {head}: no clean cell to take ACC from")
        clean = PERCENT * means.loc[CLEAN, "mean"]
        common = {"dataset": dataset, "head": head, "model": model}
        rows.append({**common, "perturbation": "", "quantity": "ACC", "value": clean,
                     "n_images": int(means.loc[CLEAN, "size"])})
        for perturbation, (mean, size) in means.drop(CLEAN).iterrows():
            name = paper_name(perturbation)
            rows += [{**common, "perturbation": name, "quantity": "ACC_p", "value": PERCENT * mean, "n_images": int(size)},
                     {**common, "perturbation": name, "quantity": "drop", "value": clean - PERCENT * mean,
                      "n_images": int(size)}]
    return pd.DataFrame(rows)
