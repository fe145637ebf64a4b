"""Frozen features of a backbone over a dataset, computed in eval mode without gradients."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import torch
from torch import nn

from ..progress import progress
from ..train.heads import embed


@torch.no_grad()
def extract_features(backbone: nn.Module, batches: Iterable[tuple[torch.Tensor, torch.Tensor]], device: str = "cpu") -> tuple[np.ndarray, np.ndarray]:
    """`(features, targets)` as float32/int64 arrays; the backbone's mode is restored afterwards."""
    was_training = backbone.training
    backbone.eval().to(device)
    features, targets = [], []
    for images, target in progress(batches, desc="features", unit="batch"):
        features.append(embed(backbone, images.to(device)).float().cpu())
        targets.append(target)
    backbone.train(was_training)
    return torch.cat(features).numpy(), torch.cat(targets).numpy().astype(np.int64)
