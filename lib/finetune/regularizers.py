"""Weight-space regularizers that pull a fine-tuned model towards its pretrained weights.

One interface, `penalty(model) -> tensor`, two named variants of the quadratic anchor

    penalty(θ) = coefficient * Σ_i w_i (θ_i - θ*_i)²

- `l2_anchor` (w_i = 1): what the released ImageNet-RIB code calls EWC (lib/regularization.py,
  `ewc_penalty`): the plain sum of squared differences to the pretrained parameters, all named
  parameters, added to the loss with coefficient 1. This is what the paper's EWC numbers ran.
- `ewc_anchor` (w_i = F_i): Kirkpatrick et al. (2017) with a diagonal Fisher from `diagonal_fisher`.

Convention: no factor 1/2. Kirkpatrick's loss `λ/2 Σ F_i (θ_i - θ*_i)²` is `coefficient = λ / 2`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Literal

import torch
import torch.nn.functional as F
from torch import nn

FisherLabels = Literal["sampled", "empirical"]


@dataclass
class QuadraticAnchor:
    """`coefficient * Σ importance * (θ - anchor)²` over the named parameters in `anchor`.

    `importance=None` weighs every coordinate by 1 (the plain L2 pull).
    """

    anchor: dict[str, torch.Tensor]
    coefficient: float = 1.0
    importance: dict[str, torch.Tensor] | None = None

    def penalty(self, model: nn.Module) -> torch.Tensor:
        parameters = dict(model.named_parameters())
        missing = sorted(set(self.anchor) - set(parameters))
        if missing:
            raise KeyError(f"anchored parameters not in the model: {missing[:5]}")
        total = next(iter(parameters.values())).new_zeros(())
        for name, anchor in self.anchor.items():
            squared = (parameters[name] - anchor).pow(2)
            if self.importance is not None:
                squared = squared * self.importance[name]
            total = total + squared.sum()
        return self.coefficient * total


def _snapshot(model: nn.Module, names: Iterable[str] | None = None) -> dict[str, torch.Tensor]:
    keep = None if names is None else set(names)
    return {n: p.detach().clone() for n, p in model.named_parameters() if keep is None or n in keep}


def l2_anchor(model: nn.Module, coefficient: float = 1.0) -> QuadraticAnchor:
    """The released code's "EWC": squared distance of all parameters to their current (pretrained) values."""
    return QuadraticAnchor(anchor=_snapshot(model), coefficient=coefficient)


def ewc_anchor(model: nn.Module, fisher: dict[str, torch.Tensor], coefficient: float) -> QuadraticAnchor:
    """Fisher-weighted EWC anchored at the model's current (pretrained) values of the parameters in `fisher`."""
    return QuadraticAnchor(anchor=_snapshot(model, fisher), coefficient=coefficient,
                           importance={n: f.detach().clone() for n, f in fisher.items()})


def diagonal_fisher(
    model: nn.Module,
    batches: Iterable[tuple[torch.Tensor, torch.Tensor]],
    labels: FisherLabels = "sampled",
    logit_mask: torch.Tensor | None = None,
    generator: torch.Generator | None = None,
) -> dict[str, torch.Tensor]:
    """Diagonal Fisher: mean over examples of the squared gradient of log p(y | x) per parameter.

    Gradients are per example (the Fisher is an expectation of squared per-example scores, not of
    squared batch gradients). `labels`:
    - "sampled": y drawn from the model's own predictive distribution (the Fisher information as
      defined by Kirkpatrick et al.; mlfoundations/wise-ft's fisher.py does the same);
    - "empirical": y is the dataset label (the "empirical Fisher").
    Only parameters with `requires_grad` are included. The model runs in eval mode (no dropout,
    BatchNorm statistics untouched); every module's mode is restored afterwards. `logit_mask`
    selects the classes present (index or boolean tensor over the logits); empirical labels then
    index the masked logits, as the released code's labels do.
    """
    if labels not in ("sampled", "empirical"):
        raise ValueError(f"labels must be 'sampled' or 'empirical', got {labels!r}")
    parameters = {n: p for n, p in model.named_parameters() if p.requires_grad}
    fisher = {n: torch.zeros_like(p) for n, p in parameters.items()}
    count = 0
    modes = {module: module.training for module in model.modules()}
    model.eval()
    try:
        for images, targets in batches:
            for i in range(len(images)):
                logits = model(images[i : i + 1])
                if logit_mask is not None:
                    logits = logits[:, logit_mask]
                log_probs = F.log_softmax(logits, dim=-1)[0]
                if labels == "sampled":
                    label = torch.multinomial(log_probs.detach().exp(), 1, generator=generator)[0]
                else:
                    label = targets[i]
                grads = torch.autograd.grad(log_probs[label], list(parameters.values()), allow_unused=True)
                for name, grad in zip(parameters, grads):
                    if grad is not None:
                        fisher[name] += grad.detach() ** 2
                count += 1
    finally:
        for module, training in modes.items():
            module.training = training
    if count == 0:
        raise ValueError("diagonal_fisher needs at least one example")
    return {n: f / count for n, f in fisher.items()}
