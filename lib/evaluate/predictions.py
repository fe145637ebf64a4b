"""The runner that fills the one per-item prediction format of every paper's runs (`lib.evaluate.frames`).

`predict_ranked` runs a model over batches and keeps only the ranked classes, batch by batch (a
full evaluation set's logits can be too large to hold: ImageNet-C's would take 15 GB).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import torch
from torch import nn

from ..train.loop import batch_logits
from .ranking import rank_classes

Ranker = Callable[[torch.Tensor], np.ndarray]  # logits (items x classes) -> ranked classes (items x k)


def top_k(k: int) -> Ranker:
    """The k best classes of every item's logits, best first."""
    return lambda logits: rank_classes(logits.float().numpy(), min(k, logits.shape[1]))


def predict_ranked(
    model: nn.Module,
    batches: Iterable[tuple[torch.Tensor, torch.Tensor]],
    rank: Ranker,
    device: str = "cpu",
    amp: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Ranked classes (`rank` of the logits) and targets of every item of `batches`, a batch at a
    time through `lib.train.loop.batch_logits` (eval mode; bf16 autocast on CUDA when `amp`)."""
    ranked, targets = [], []
    for logits, target in batch_logits(model, batches, device, amp):
        ranked.append(rank(logits))
        targets.append(target.numpy())
    if not ranked:
        return np.zeros((0, 0), dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(ranked), np.concatenate(targets)
