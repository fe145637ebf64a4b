"""Comparisons of trained models by their weights and by their layers' outputs (App. G.2, Figs. 16-17),
and the joint model's distances between adjacent steps' weights (App. F, Fig. 9's mechanism).

Layers are a `SeqToFinalNet`'s stem, blocks and head (`LAYERS` order; the official `model.layers`).

- `parameter_vectors`: each layer's parameters flattened and concatenated. `selection="code"` is the
  official `get_param_vec`: conv and linear weights and biases without BatchNorm and without the ResNet
  downsample convolutions (Table 7's convention); "all" is every parameter (what the joint model's
  adjacent penalty sums over).
- `adjacent_distances`: ‖w_t − w_{t−1}‖ for t = 1..T of a `methods.JointModel`, per layer and for the
  whole model (the square root of the adjacent penalty's term, per step, for `selection="all"`).
- `weight_projections` (Eqs. 14-15): origin the oracle's weights w*, x the projection of w − w* on
  w_H − w* (ERM on the historical steps), y on w_T − w* (the baseline on the final step), the axes not
  orthogonalised; per layer and for all layers concatenated ("entire model"). `reading="code"` is the
  official `compute_projection_length`, the signed scalar projection ⟨v, d⟩ / ‖d‖; the text calls the
  coordinate the "length of the projection" (and Eqs. 14-15 print the projected vector), whose length is
  its absolute value: `reading="length"`.
- `layer_activations` and `svcca_to_reference` (Fig. 17): each layer's outputs (the head's before the
  softmax) on the same inputs, in eval mode, flattened; per layer the SVCCA similarity
  (`lib.metrics.svcca`) to a reference model (the oracle) at the code's levels 0.5 and 0.9 of the
  singular-value spectrum. The "entire model": the code averages the per-layer similarities
  (`entire="layer_mean"`); the text concatenates all layers' outputs before SVCCA
  (`entire="concatenated"`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np
import pandas as pd
import torch
from torch import nn

from ..metrics.svcca import SEQ_TO_FINAL_LEVELS, Decomposed, Spectrum, svcca_similarity
from ..train.loop import device_of
from .architectures import SeqToFinalNet, table7_names
from .methods import JointModel

Selection = Literal["code", "all"]
ProjectionReading = Literal["code", "length"]
EntireModel = Literal["layer_mean", "concatenated"]

ENTIRE_MODEL = "entire model"


def layer_of(parameter_name: str) -> str:
    """The layer a parameter belongs to: 'stem', 'blocks.<i>' or 'head'."""
    parts = parameter_name.split(".")
    return ".".join(parts[:2]) if parts[0] == "blocks" else parts[0]


def _selected_names(model: nn.Module, selection: Selection) -> list[str]:
    if selection == "code":
        return table7_names(model)
    if selection == "all":
        return [name for name, _ in model.named_parameters()]
    raise ValueError(f"selection must be 'code' or 'all', got {selection!r}")


def parameter_vectors(model: nn.Module, selection: Selection = "code") -> dict[str, np.ndarray]:
    """Per layer (in model order) its selected parameters flattened and concatenated, float64 on the CPU."""
    parameters = dict(model.named_parameters())
    pieces: dict[str, list[np.ndarray]] = {}
    for name in _selected_names(model, selection):
        pieces.setdefault(layer_of(name), []).append(parameters[name].detach().to("cpu", torch.float64).reshape(-1).numpy())
    return {layer: np.concatenate(parts) for layer, parts in pieces.items()}


def _with_entire_model(vectors: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {**vectors, ENTIRE_MODEL: np.concatenate(list(vectors.values()))}


def adjacent_distances(joint: JointModel, selection: Selection = "all") -> pd.DataFrame:
    """‖w_t − w_{t−1}‖ per step t ≥ 1 and layer (and for the entire model): columns step, layer, distance."""
    vectors = [_with_entire_model(parameter_vectors(model, selection)) for model in joint.models]
    return pd.DataFrame([{"step": step, "layer": layer, "distance": float(np.linalg.norm(current[layer] - previous[layer]))}
                         for step, (previous, current) in enumerate(zip(vectors[:-1], vectors[1:]), start=1)
                         for layer in current])


def projection_length(vector: np.ndarray, direction: np.ndarray, reading: ProjectionReading = "code") -> float:
    """⟨vector, direction⟩ / ‖direction‖ ("code", signed) or its absolute value ("length")."""
    if reading not in ("code", "length"):
        raise ValueError(f"reading must be 'code' or 'length', got {reading!r}")
    value = float(np.dot(vector, direction) / np.linalg.norm(direction))
    return value if reading == "code" else abs(value)


def weight_projections(model: nn.Module, oracle: nn.Module, historical: nn.Module, final_only: nn.Module,
                       reading: ProjectionReading = "code", selection: Selection = "code") -> pd.DataFrame:
    """Eqs. 14-15 per layer and for the entire model: columns layer, x (towards `historical`, ERM on the
    historical steps), y (towards `final_only`, the baseline), both relative to `oracle`."""
    w, origin, w_h, w_t = (_with_entire_model(parameter_vectors(m, selection))
                           for m in (model, oracle, historical, final_only))
    return pd.DataFrame([{"layer": layer,
                          "x": projection_length(w[layer] - origin[layer], w_h[layer] - origin[layer], reading),
                          "y": projection_length(w[layer] - origin[layer], w_t[layer] - origin[layer], reading)}
                         for layer in w])


@torch.no_grad()
def layer_activations(model: SeqToFinalNet, inputs: torch.Tensor, batch_size: int = 500) -> dict[str, np.ndarray]:
    """The outputs of the stem, every block and the head (logits) on `inputs` (moved to the model's device),
    eval mode, flattened per input, float64 on the CPU."""
    layers = {"stem": model.stem, **{f"blocks.{i}": block for i, block in enumerate(model.blocks)}, "head": model.head}
    outputs: dict[str, list[np.ndarray]] = {name: [] for name in layers}
    hooks = [module.register_forward_hook(
                 lambda _module, _args, out, name=name: outputs[name].append(out.reshape(len(out), -1).to("cpu", torch.float64, copy=True).numpy()))
             for name, module in layers.items()]
    was_training = model.training
    model.eval()
    device = device_of(model)
    try:
        for start in range(0, len(inputs), batch_size):
            model(inputs[start:start + batch_size].to(device, non_blocking=True))
    finally:
        for hook in hooks:
            hook.remove()
        model.train(was_training)
    return {name: np.concatenate(parts) for name, parts in outputs.items()}


def decomposed_layers(activations: Mapping[str, np.ndarray], entire: EntireModel = "layer_mean",
                      ) -> dict[str, Decomposed]:
    """Each layer's outputs `Decomposed` (their SVD), and under the "concatenated" reading the entire model's
    (every layer's outputs side by side, `ENTIRE_MODEL`): what `svcca_to_reference` compares, each SVD once."""
    if entire not in ("layer_mean", "concatenated"):
        raise ValueError(f"entire must be 'layer_mean' or 'concatenated', got {entire!r}")
    layers = {layer: Decomposed.of(outputs) for layer, outputs in activations.items()}
    if entire == "concatenated":
        layers[ENTIRE_MODEL] = Decomposed.of(np.concatenate(list(activations.values()), axis=1))
    return layers


def svcca_to_reference(activations: Mapping[str, np.ndarray], reference: Mapping[str, np.ndarray | Decomposed],
                       levels: Sequence[float] = SEQ_TO_FINAL_LEVELS, spectrum: Spectrum = "singular_values",
                       entire: EntireModel = "layer_mean") -> pd.DataFrame:
    """SVCCA similarity of each layer's outputs to the reference's, per level, and for the entire model
    under the `entire` reading: columns layer, level, similarity. `reference` may be given as
    `decomposed_layers(reference, entire)`, so that comparing many models to it takes its SVDs once."""
    model = decomposed_layers(activations, entire)
    if not all(isinstance(outputs, Decomposed) for outputs in reference.values()):
        reference = decomposed_layers(reference, entire)
    elif entire == "concatenated" and ENTIRE_MODEL not in reference:
        raise ValueError("the decomposed reference has no entire model: decompose it with entire='concatenated'")
    rows = [{"layer": layer, "level": level,
             "similarity": svcca_similarity(model[layer], reference[layer], level, spectrum)}
            for layer in activations for level in levels]
    frame = pd.DataFrame(rows)
    if entire == "layer_mean":
        whole = frame.groupby("level", sort=False)["similarity"].mean()
    else:
        whole = pd.Series({level: svcca_similarity(model[ENTIRE_MODEL], reference[ENTIRE_MODEL], level, spectrum)
                           for level in levels})
    entire_rows = pd.DataFrame({"layer": ENTIRE_MODEL, "level": list(whole.index), "similarity": whole.to_numpy()})
    return pd.concat([frame, entire_rows], ignore_index=True)
