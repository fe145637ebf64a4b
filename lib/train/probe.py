"""Linear probing on cached features: the backbone never runs, so it cannot change."""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from .heads import linear_head
from .loop import tensor_batches, train
from .config import TrainConfig


def fit_linear_probe(features: np.ndarray, labels: np.ndarray, num_classes: int, config: TrainConfig, batchnorm: bool) -> nn.Module:
    """A linear head (optionally behind a non-affine BatchNorm) trained on frozen features."""
    with torch.random.fork_rng():
        torch.manual_seed(config.seed)
        head = linear_head(features.shape[1], num_classes, batchnorm)
    batches = tensor_batches(torch.as_tensor(features, dtype=torch.float32), torch.as_tensor(labels), config.batch_size, config.seed)
    train(head, batches, config)
    return head.eval()


@torch.no_grad()
def probe_scores(head: nn.Module, features: np.ndarray) -> np.ndarray:
    """Class scores (logits) of the probe for each feature row."""
    return head.eval()(torch.as_tensor(features, dtype=torch.float32)).numpy()
