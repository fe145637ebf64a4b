"""The downstream classifiers of Sec. 5 on the grid's cached embeddings, and Tables 2-3 of our run.

- Zero-shot (`EmbeddingZeroShot`): the shared open_clip head (`lib.models.clip.zero_shot_classifier`,
  text tower frozen) applied to cached image embeddings: exp(logit_scale) · normalise(e) · Tᵀ, T the
  class embeddings of the prompts. It gives what the head gives on the images (tested).
- Linear probe: `lib.train.probe.fit_linear_probe` trained on clean embeddings of a training set, the
  backbone never run again.
- `grid_predictions`: either head on every cell of a grid, one frame per cell in the shared prediction
  format (`lib.evaluate.predictions`), with columns `model`, `dataset`, `head`, `perturbation` and
  `parameter` (NaN for the clean cell).
- `image_accuracies`: per image, its accuracy on the clean cell (ACC, 0 or 1) and its ACC_p under each
  perturbation: the fraction of its perturbed versions classified correctly (Sec. 5.1: "calculated
  for each perturbed image"; the clean image is not one of its perturbed versions).
- `accuracy_table`: ACC, average ACC_p and drop = ACC - ACC_p per perturbation in percent, in the
  schema of the published Tables 2-3 (`lib.fm_perturbations.accuracies`): `dataset`, `head`,
  `perturbation` (the paper's name; blank for ACC), `quantity`, `value`, plus `model` and `n_images`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from torch import nn

from ..evaluate.predictions import hits, predict_ranked, prediction_frame, top_k
from ..finetune.zeroshot import ZeroShotClassifier
from ..perturb.corruptions import CORRUPTIONS
from ..train.loop import tensor_batches
from .accuracies import HEADS
from .grid import CLEAN, Grid

ZERO_SHOT, LINEAR_PROBE = tuple(HEADS)  # the heads as Tables 2-3 name them
TOP_K = 5
PERCENT = 100.0


class EmbeddingZeroShot(nn.Module):
    """A zero-shot head on image embeddings: `logit_scale` · normalise(e) · `class_embeddings`ᵀ."""

    def __init__(self, class_embeddings: torch.Tensor, logit_scale: float) -> None:
        super().__init__()
        self.register_buffer("class_embeddings", F.normalize(class_embeddings.detach().float(), dim=-1))
        self.logit_scale = float(logit_scale)

    @classmethod
    @torch.no_grad()
    def from_classifier(cls, classifier: ZeroShotClassifier) -> "EmbeddingZeroShot":
        """The head of a CLIP zero-shot classifier (its class embeddings and exp(logit_scale)), frozen."""
        return cls(classifier.text_embeddings(), float(classifier.model.logit_scale.exp()))

    def forward(self, embeddings: torch.Tensor) -> torch.Tensor:
        return self.logit_scale * F.normalize(embeddings.float(), dim=-1) @ self.class_embeddings.T


def grid_predictions(head: nn.Module, grid: Grid, model: str, head_name: str, k: int = TOP_K,
                     batch_size: int = 1024, device: str = "cpu") -> pd.DataFrame:
    """The ranked top-k classes of `head` for every image of every cell of `model`'s grid, one
    prediction frame for all cells (see the module docstring)."""
    targets = torch.as_tensor(grid.targets)
    frames = []
    for perturbation, parameter in grid.cells():
        embeddings = torch.as_tensor(grid.embeddings[(model, perturbation, parameter)], dtype=torch.float32)
        batches = tensor_batches(embeddings, targets, batch_size, seed=0, shuffle=False)
        ranked, target = predict_ranked(head, batches, top_k(k), device)
        frames.append(prediction_frame(target, ranked, model=model, dataset=grid.dataset, head=head_name,
                                       perturbation=perturbation,
                                       parameter=np.nan if perturbation == CLEAN else float(parameter)))
    return pd.concat(frames, ignore_index=True)


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
