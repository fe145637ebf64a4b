"""One Seq-to-Final method run: draw the sequence, train the method, predict the final step's test split.

`run(spec, method, architecture, settings, seed)` draws the sequence of `spec` (the oracle's sequence for
the oracle, `methods.RUNS[method].sequence`), runs the method with the training seed `seed` and returns
the per-item predictions on the final step's test split in the shared format
(`lib.evaluate.frames`: `item`, `target`, `pred_1..pred_k`), with the run's columns `method`,
`column` (its Table 1 column), `architecture`, `seed`, `pool_index` (the test image's index in the image
pool, for matching the oracle's items, whose order differs) and `valid_accuracy` (of the selected model).
Tiny runs are bit-for-bit repeatable on the CPU: the data seed is `spec.seed`, every model initialisation,
shuffle and dropout mask follows from `seed`.
"""

from __future__ import annotations

import pandas as pd
import torch

from ..evaluate.frames import prediction_frame
from ..evaluate.predictions import predict_ranked, top_k
from ..store import StageCache
from ..train.loop import tensor_batches
from .methods import RUNS, Fitted, Settings, run_method, to_tensors
from .sequence import SequenceSpec, build

TOP_K = 5


def sequence_for(spec: SequenceSpec, method: str) -> SequenceSpec:
    """The sequence a method reads: the oracle's for the oracle, else `spec`."""
    if method not in RUNS:
        raise ValueError(f"unknown method {method!r}; known: {list(RUNS)}")
    return spec.oracle() if RUNS[method].sequence == "oracle" else spec


def train_method(spec: SequenceSpec, method: str, architecture: str, settings: Settings, seed: int,
                 stages: StageCache | None = None) -> tuple[Fitted, torch.Tensor, torch.Tensor, pd.Series]:
    """The fitted method and the final step's test inputs, labels and pool indices (`stages`: where the
    stages several methods start from are kept, `methods.Context.stages`)."""
    sequence = build(sequence_for(spec, method))
    data = to_tensors(sequence)
    fitted = run_method(method, data, architecture, settings, seed, spec.image_size, stages)
    return fitted, data.test[0], data.test[1], pd.Series(sequence.test_pool_indices())


def run(spec: SequenceSpec, method: str, architecture: str, settings: Settings, seed: int,
        k: int = TOP_K, stages: StageCache | None = None) -> pd.DataFrame:
    """Per-item top-`k` predictions of one method run on the final step's test split."""
    fitted, inputs, labels, pool_indices = train_method(spec, method, architecture, settings, seed, stages)
    batches = tensor_batches(inputs, labels, settings.batch_size, seed=0, shuffle=False)
    ranked, targets = predict_ranked(fitted.model, batches, top_k(k), settings.device)
    return prediction_frame(targets, ranked, method=method, column=RUNS[method].column, architecture=architecture,
                            seed=seed, pool_index=pool_indices.to_numpy(), valid_accuracy=fitted.valid_accuracy)
