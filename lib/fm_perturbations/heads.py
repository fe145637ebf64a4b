"""The downstream classifiers of Sec. 5 on the grid's cached embeddings.

- Zero-shot (`EmbeddingZeroShot`): the shared open_clip head (`lib.models.clip.zero_shot_classifier`,
  text tower frozen) applied to cached image embeddings: exp(logit_scale) · normalise(e) · Tᵀ, T the
  class embeddings of the prompts. It gives what the head gives on the images (tested).
- Linear probe: `lib.train.probe.fit_linear_probe` trained on clean embeddings of a training set, the
  backbone never run again.
- `grid_predictions`: either head on every cell of a grid, one frame per cell in the shared prediction
  format (`lib.evaluate.frames`), with columns `model`, `dataset`, `head`, `perturbation` and
  `parameter` (NaN for the clean cell).

Their accuracy tables (Tables 2-3 of our run) are `lib.fm_perturbations.tables`, which imports no torch.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from torch import nn

from ..evaluate.frames import prediction_frame
from ..evaluate.predictions import predict_ranked, top_k
from ..finetune.zeroshot import ZeroShotClassifier
from ..train.loop import tensor_batches
from .grid import CLEAN, Grid

TOP_K = 5


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
