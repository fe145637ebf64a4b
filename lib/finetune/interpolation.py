"""Weight-space ensembles: WiSE-FT interpolation and uniform model soups, on state dicts.

α convention (a named choice, because the two papers disagree):
- "wise_ft" (default): θ = (1 - α)·θ_pre + α·θ_ft, so α = 0 is the pretrained model and α = 1 the
  fine-tuned one. This is Wortsman et al. (2022b) and their code (mlfoundations/wise-ft,
  src/wise_ft.py: `(1-alpha) * theta_0 + alpha * theta_1`).
- "imagenet_rib": θ = α·θ_pre + (1 - α)·θ_ft, the ImageNet-RIB paper's Eq. 3 (App. I.4); its
  Table 16 "best α = 0.9" for LAION-2B means 90 % pretrained weights, i.e. α = 0.1 under "wise_ft".
The paper's default ratio 0.5 (App. H.3) is the same under both.

A uniform soup (Wortsman et al., 2022a; the paper's MS:PRE-FT-EWC-LwF) is the plain average of N
state dicts, as in the released code's `get_soup`. Floating tensors (weights and BatchNorm running
statistics alike) are averaged in float64 and cast back, so endpoints and soups of identical models
are exact. Integer and boolean buffers (e.g. `num_batches_tracked`) get the weighted mean rounded to
the nearest integer (the released code divides and then truncates on loading).
"""

from __future__ import annotations

from typing import Iterator, Mapping, Sequence

import torch

from .method_table import AlphaConvention

StateDict = Mapping[str, torch.Tensor]

PAPER_WISE_FT_ALPHA = 0.5
PAPER_ALPHA_GRID = tuple(round(0.1 * i, 1) for i in range(1, 10))


def average_state_dicts(state_dicts: Sequence[StateDict], weights: Sequence[float]) -> dict[str, torch.Tensor]:
    """Σ_k weights[k] · state_dicts[k], key by key; weights must be non-negative and sum to 1."""
    if len(state_dicts) != len(weights) or not state_dicts:
        raise ValueError("need one weight per state dict and at least one state dict")
    if any(w < 0 for w in weights) or abs(sum(weights) - 1) > 1e-9:
        raise ValueError(f"weights must be non-negative and sum to 1, got {list(weights)}")
    keys = list(state_dicts[0])
    for k, state in enumerate(state_dicts[1:], start=1):
        if set(state) != set(keys):
            difference = sorted(set(state) ^ set(keys))
            raise ValueError(f"state dict {k} has different keys from state dict 0: {difference[:5]}")
    averaged = {}
    for key in keys:
        tensors = [state[key] for state in state_dicts]
        total = sum(w * t.to(torch.float64) for w, t in zip(weights, tensors))
        reference = tensors[0]
        if not reference.is_floating_point():
            total = total.round()
        averaged[key] = total.to(reference.dtype)
    return averaged


def interpolate(
    pretrained: StateDict,
    finetuned: StateDict,
    alpha: float = PAPER_WISE_FT_ALPHA,
    convention: AlphaConvention = "wise_ft",
) -> dict[str, torch.Tensor]:
    """WiSE-FT weights for ratio `alpha` under the named convention (see the module docstring)."""
    if not 0 <= alpha <= 1:
        raise ValueError(f"alpha must lie in [0, 1], got {alpha}")
    if convention == "wise_ft":
        weight_finetuned = alpha
    elif convention == "imagenet_rib":
        weight_finetuned = 1 - alpha
    else:
        raise ValueError(f"convention must be 'wise_ft' or 'imagenet_rib', got {convention!r}")
    return average_state_dicts([pretrained, finetuned], [1 - weight_finetuned, weight_finetuned])


def wise_ft_sweep(
    pretrained: StateDict,
    finetuned: StateDict,
    alphas: Sequence[float] = PAPER_ALPHA_GRID,
    convention: AlphaConvention = "wise_ft",
) -> Iterator[tuple[float, dict[str, torch.Tensor]]]:
    """(α, weights) for each α of the sweep (default: the paper's grid 0.1 … 0.9 of App. I.4)."""
    for alpha in alphas:
        yield alpha, interpolate(pretrained, finetuned, alpha, convention)


def uniform_soup(state_dicts: Sequence[StateDict]) -> dict[str, torch.Tensor]:
    """The plain average of the state dicts (e.g. pretrained, FT, EWC, LwF)."""
    if not state_dicts:
        raise ValueError("a soup needs at least one state dict")
    return average_state_dicts(state_dicts, [1 / len(state_dicts)] * len(state_dicts))
