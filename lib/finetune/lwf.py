"""Learning without Forgetting (Li & Hoiem, 2017): distil the frozen pretrained model's outputs.

    loss = Σ_c q_c (log q_c - log p_c)   (form="kl"),  or  -Σ_c q_c log p_c   (form="cross_entropy"),

averaged over the batch, with q = softmax(teacher / T), p = softmax(student / T). The two forms have
the same gradient (they differ by the teacher's entropy). Defaults follow the paper (App. H.3:
"temperature 2 for calculating KL divergence, following Li & Hoiem") and the released code
(lib/regularization.py: KL with batchmean reduction, no T² factor, weight 1 added to the loss, the
dataset's logit mask applied to both the student's and the teacher's logits).
"""

from __future__ import annotations

import copy
from typing import Literal

import torch
import torch.nn.functional as F
from torch import nn


def frozen_teacher(model: nn.Module) -> nn.Module:
    """A frozen copy of `model` in eval mode, to produce the teacher logits."""
    teacher = copy.deepcopy(model).eval()
    teacher.requires_grad_(False)
    return teacher


def lwf_loss(
    student_logits: torch.Tensor,
    teacher_logits: torch.Tensor,
    temperature: float = 2.0,
    form: Literal["kl", "cross_entropy"] = "kl",
    logit_mask: torch.Tensor | None = None,
) -> torch.Tensor:
    """Distillation loss between softened student and (detached) teacher outputs, batch-averaged.

    `logit_mask` (index or boolean tensor over classes) keeps only those classes in both outputs
    before the softmax, so masked-out classes play no part.
    """
    teacher_logits = teacher_logits.detach()
    if logit_mask is not None:
        student_logits = student_logits[:, logit_mask]
        teacher_logits = teacher_logits[:, logit_mask]
    log_p = F.log_softmax(student_logits / temperature, dim=-1)
    log_q = F.log_softmax(teacher_logits / temperature, dim=-1)
    if form == "kl":
        per_example = (log_q.exp() * (log_q - log_p)).sum(dim=-1)
    elif form == "cross_entropy":
        per_example = -(log_q.exp() * log_p).sum(dim=-1)
    else:
        raise ValueError(f"form must be 'kl' or 'cross_entropy', got {form!r}")
    return per_example.mean()
