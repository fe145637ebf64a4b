"""The computations behind the analysis figures (torch): one run trains what an analysis needs on one
drawn sequence and returns a tidy frame (`geometry.FRAME_COLUMNS`); `lib.seq_to_final.geometry` stores
and reads them.

- Trajectories (`TRAJECTORIES`): a method's model at each step it produces, through the methods'
  own building blocks (`lib.seq_to_final.methods`): FT, LP-FT and ST-1 = the ERM model on the historical
  steps (the initialisation at the final step, step T − 1, trained once per run and shared) and its
  fine-tuned (LP-FT: probed, then fine-tuned; ST-1: side-tuned) model (step T); SFT (no learning-rate
  decay) = the source model and every step's fine-tuned model, selected on each step's validation split
  as `methods.sequential("none")` does; JM = the joint model's step models w_0 … w_T; JST-1 = the joint model
  with 1-layer side modules, at step T − 1 the same model without step T's side modules.
- `path_run` (Figs 1, 10-15): the final step's test accuracy along (1 − s)·w_{T−1} + s·w_T of each
  method's last two models (`interpolation_paths.interpolation_path`; ST-1: the stem and head from the
  ERM model's to the side-tuned ones, the side modules' outputs scaled by s; JST-1: step T's side modules'
  outputs scaled by s); with `geometry=True` also
  the weight projections (Fig. 16) and the SVCCA similarity to the oracle (Fig. 17) of every model of the
  trajectories but ST-1's and JST-1's (side modules have no place in the base model's weights, as the paper says)
  and of the reference models (ERM on the historical steps, the baseline), on the final step's test inputs.
- `regularisation_run` (Fig. 9): the joint model's final-step validation accuracy at each adjacent
  weight λ_adj, beside ERM on the final step and ERM on all steps.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from functools import cache

import pandas as pd
import torch
from torch import nn

from ..store import StageCache
from .interpolation_paths import BatchNormReading, interpolation_path, path_ends
from .methods import (Context, JointModel, Settings, SideTunedNet, _fine_tune, all_steps, final_only,
                      joint_model, joint_side_tune, lp_ft_from, pretrain, side_tune_from, source_erm, to_tensors)
from .model_geometry import (EntireModel, ProjectionReading, decomposed_layers, layer_activations, svcca_to_reference,
                             weight_projections)
from .sequence import SequenceSpec, build

Trajectory = list[tuple[int, nn.Module]]  # (step, model) in step order; the last two make the path
Historical = Callable[[], nn.Module]  # the run's ERM model on the historical steps, trained at the first call


def ft_trajectory(ctx: Context, historical: Historical) -> Trajectory:
    """ERM on the historical steps (step T − 1), then fine-tuned on the final step (step T)."""
    final = ctx.data.final_index
    return [(final - 1, historical()), (final, _fine_tune(ctx, historical(), final).model)]


def lp_ft_trajectory(ctx: Context, historical: Historical) -> Trajectory:
    """ERM on the historical steps, then LP-FT's two stages on the final step."""
    final = ctx.data.final_index
    return [(final - 1, historical()), (final, lp_ft_from(ctx, copy.deepcopy(historical())).model)]


def st_trajectory(ctx: Context, historical: Historical) -> Trajectory:
    """ERM on the historical steps, then ST-1's side modules (and new stem and head) on the final step."""
    final = ctx.data.final_index
    return [(final - 1, historical()), (final, side_tune_from(ctx, copy.deepcopy(historical()), "layer").model)]


def sft_trajectory(ctx: Context, historical: Historical) -> Trajectory:
    """ERM on the source, then fine-tuning at every step from the previous step's model (no decay)."""
    models = [(0, source_erm(ctx).model)]
    for step in range(1, ctx.data.final_index + 1):
        models.append((step, _fine_tune(ctx, models[-1][1], step).model))
    return models


def jm_trajectory(ctx: Context, historical: Historical) -> Trajectory:
    """The joint model's step models (λ_adj over the settings' grid, selected on the final validation)."""
    joint: JointModel = joint_model(ctx).model
    return list(enumerate(joint.models))


def jst_trajectory(ctx: Context, historical: Historical) -> Trajectory:
    """The joint model with 1-layer side modules: step T − 1's model is the same model without step T's sides
    (its path scales them by s, `SideTunedNet.side_scale`)."""
    final = ctx.data.final_index
    joint: SideTunedNet = joint_side_tune("layer")(ctx).model
    return [(final - 1, joint), (final, joint)]


TRAJECTORIES: dict[str, Callable[[Context, Historical], Trajectory]] = {
    "FT": ft_trajectory, "SFT": sft_trajectory, "JM": jm_trajectory, "LP-FT": lp_ft_trajectory, "ST-1": st_trajectory,
    "JST-1": jst_trajectory}


def _context(spec: SequenceSpec, architecture: str, settings: Settings, seed: int,
             stages: StageCache | None = None) -> Context:
    torch.manual_seed(seed)
    return Context(to_tensors(build(spec)), architecture, settings, seed, spec.image_size, stages)


def path_rows(method: str, trajectory: Trajectory, ctx: Context, alphas: Sequence[float],
              batchnorm: BatchNormReading) -> pd.DataFrame:
    """The interpolation path between the trajectory's last two models, on the final test split (a side-tuned
    end model: from the start model's stem and head and its own sides, which the path scales by s)."""
    (_, start), (_, end) = trajectory[-2:]
    statistics = ctx.data.train[ctx.data.final_index]
    path = interpolation_path(end, *path_ends(start, end), ctx.data.test, alphas, batchnorm, statistics)
    return path.assign(analysis="path", method=method, step=ctx.data.final_index)


def geometry_rows(models: dict[str, Trajectory], oracle: nn.Module, historical: nn.Module, baseline: nn.Module,
                  inputs: torch.Tensor, reading: ProjectionReading, entire: EntireModel) -> pd.DataFrame:
    """Weight projections (x, y of Eqs. 14-15) and SVCCA to the oracle (x at level .5, y at .9) of every
    model, per layer and for the entire model."""
    reference = decomposed_layers(layer_activations(oracle, inputs), entire)  # its SVDs once, for every model
    frames = []
    for method, trajectory in models.items():
        for step, model in trajectory:
            projection = weight_projections(model, oracle, historical, baseline, reading)
            similarity = (svcca_to_reference(layer_activations(model, inputs), reference, entire=entire)
                          .pivot(index="layer", columns="level", values="similarity"))
            svcca = pd.DataFrame({"layer": similarity.index, "x": similarity[0.5].to_numpy(),
                                  "y": similarity[0.9].to_numpy()})
            for analysis, frame in (("projection", projection), ("svcca", svcca)):
                frames.append(frame.assign(analysis=analysis, method=method, step=step))
    return pd.concat(frames, ignore_index=True)


def path_run(spec: SequenceSpec, architecture: str, methods: Sequence[str], settings: Settings, seed: int,
             alphas: Sequence[float], batchnorms: Sequence[BatchNormReading], geometry: bool = False,
             reading: ProjectionReading = "code", entire: EntireModel = "concatenated",
             stages: StageCache | None = None) -> pd.DataFrame:
    """Interpolation paths of `methods` under each BatchNorm reading of `batchnorms` (and, with `geometry`,
    projections and SVCCA) on one sequence (`stages`: `methods.Context.stages`)."""
    ctx = _context(spec, architecture, settings, seed, stages)
    historical = cache(lambda: pretrain(ctx, "ERM").model)
    trajectories = {method: TRAJECTORIES[method](ctx, historical) for method in methods}
    frames = [path_rows(method, trajectory, ctx, alphas, batchnorm) for batchnorm in batchnorms
              for method, trajectory in trajectories.items()]
    if geometry:
        final = ctx.data.final_index
        baseline = final_only(ctx).model
        oracle = final_only(_context(spec.oracle(), architecture, settings, seed)).model
        references = {"ERM historical": [(final - 1, historical())], "Baseline": [(final, baseline)],
                      "Oracle": [(final, oracle)]}
        projected = {m: t for m, t in trajectories.items() if not isinstance(t[-1][1], SideTunedNet)}
        frames.append(geometry_rows({**references, **projected}, oracle, historical(), baseline, ctx.data.test[0],
                                    reading, entire))
    return pd.concat(frames, ignore_index=True)


def regularisation_run(spec: SequenceSpec, architecture: str, adjacent_weights: Sequence[float], settings: Settings,
                       seed: int) -> pd.DataFrame:
    """The joint model's final validation accuracy per λ_adj, and ERM on the final step and on all steps."""
    ctx = _context(spec, architecture, settings, seed)
    rows = []
    for weight in adjacent_weights:
        weighted = dataclasses.replace(ctx, settings=dataclasses.replace(settings, adjacent_grid=(float(weight),)))
        rows.append({"method": "JM", "lambda_adj": float(weight), "accuracy": joint_model(weighted).valid_accuracy})
    for method, procedure in (("ERM final", final_only), ("ERM all", all_steps("ERM"))):
        rows.append({"method": method, "accuracy": procedure(ctx).valid_accuracy})
    return pd.DataFrame(rows).assign(analysis="regularisation", step=len(spec.sizes) - 1)
