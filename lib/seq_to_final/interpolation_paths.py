"""Linear interpolation paths (Sec. 4.1, Fig. 1; App. G.1, Figs. 10-15): the final step's test accuracy of
the model with weights (1 − s)·w_start + s·w_end along s ∈ [0, 1], between two models of one architecture
(the initialisation at the final step and the final model, or consecutive steps' models).

The official `compute_interpolated_accuracies` evaluates s = 0 (the start model itself), s = 0.01 … 0.99
and s = 1 (the end model itself): `PAPER_ALPHAS`. What happens to BatchNorm is a named option
(`batchnorm`):
- "code" (the official `interpolate_weights`): only conv and linear weights are interpolated; for
  0 < s < 1 the BatchNorm affine parameters and running statistics and the ResNet downsample
  convolutions stay at the start model's (`methods.interpolated_state`, reading "code"). The endpoints
  are the two models exactly.
- "interpolated": every floating entry, running statistics included, is interpolated.
- "recomputed": every floating entry is interpolated and then the running statistics are re-estimated
  on `statistics_data` (a cumulative average over one pass in training mode, no dropout, no gradient),
  at every s, the endpoints included: the statistics then fit the interpolated weights.

Side-tuned models (`methods.SideTunedNet`): as in the official code, the newest step's side modules' outputs are
scaled by s (`SideTunedNet.side_scale`), at s = 0 the start model without them; the caller's start state holds
the sides' final weights, so that only the scale moves them.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Literal

import pandas as pd
import torch
from torch import nn

from ..finetune.linear_probe import batchnorm_layers, batchnorm_unfrozen
from ..train.loop import device_of, tensor_batches
from .methods import Data, SideTunedNet, accuracy, interpolated_state

BatchNormReading = Literal["code", "interpolated", "recomputed"]
STATE_READINGS = {"code": "code", "interpolated": "all", "recomputed": "all"}

PAPER_ALPHAS = (0.0, *(round(0.01 * i, 2) for i in range(1, 100)), 1.0)


@torch.no_grad()
def recompute_batchnorm_statistics(model: nn.Module, data: Data, batch_size: int = 500) -> None:
    """Reset every BatchNorm's running statistics and re-estimate them as the cumulative average over one
    pass of `data` (moved to the model's device) in training mode (no dropout); the model is left in eval mode.
    Frozen BatchNorms (a side-tuned model's base, `methods.freeze`) are re-estimated too, and stay frozen."""
    norms = batchnorm_layers(model)
    momenta = [m.momentum for m in norms]
    for norm in norms:
        norm.reset_running_stats()
        norm.momentum = None
    model.train()
    device = device_of(model)
    with batchnorm_unfrozen(model):
        for inputs, _ in tensor_batches(*data, batch_size, seed=0, shuffle=False):
            model(inputs.to(device, non_blocking=True))
    for norm, momentum in zip(norms, momenta):
        norm.momentum = momentum
    model.eval()


def interpolated_model(model: nn.Module, start: Mapping[str, torch.Tensor], end: Mapping[str, torch.Tensor],
                       s: float, batchnorm: BatchNormReading = "code", statistics_data: Data | None = None,
                       batch_size: int = 500, into: nn.Module | None = None) -> nn.Module:
    """A copy of `model` holding the interpolated weights at `s` under the `batchnorm` reading (`into`: an
    earlier copy to overwrite, every parameter and buffer of it, instead of a new one)."""
    if batchnorm not in STATE_READINGS:
        raise ValueError(f"batchnorm must be one of {list(STATE_READINGS)}, got {batchnorm!r}")
    if batchnorm == "recomputed" and statistics_data is None:
        raise ValueError("batchnorm='recomputed' needs statistics_data (e.g. the step's training split)")
    result = copy.deepcopy(model) if into is None else into
    result.load_state_dict(interpolated_state(model, dict(start), dict(end), s, STATE_READINGS[batchnorm]))
    if isinstance(result, SideTunedNet):
        result.side_scale = float(s)
    if batchnorm == "recomputed":
        recompute_batchnorm_statistics(result, statistics_data, batch_size)
    return result.eval()


def path_ends(start: nn.Module, end: nn.Module) -> tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]:
    """The states a path from `start` to `end` interpolates between. A side-tuned `end` starts from its own
    state with `start`'s stem and head: its side modules stay, scaled by s along the path (`interpolated_model`)."""
    start_state, end_state = start.state_dict(), end.state_dict()
    if isinstance(end, SideTunedNet):
        start_state = {**end_state, **{name: value for name, value in start_state.items()
                                       if name.startswith(("stem.", "head."))}}
    return start_state, end_state


def interpolation_path(model: nn.Module, start: Mapping[str, torch.Tensor], end: Mapping[str, torch.Tensor],
                       data: Data, alphas: Sequence[float] = PAPER_ALPHAS, batchnorm: BatchNormReading = "code",
                       statistics_data: Data | None = None, batch_size: int = 500) -> pd.DataFrame:
    """Accuracy on `data` (the final test split) of the interpolated model at each s of `alphas`, computed on
    `model`'s device: columns `alpha`, `accuracy`, `batchnorm`."""
    device, working = str(device_of(model)), copy.deepcopy(model)
    rows = [{"alpha": float(s),
             "accuracy": accuracy(interpolated_model(model, start, end, s, batchnorm, statistics_data, batch_size,
                                                     into=working), data, batch_size, device),
             "batchnorm": batchnorm}
            for s in alphas]
    return pd.DataFrame(rows)
