"""The one per-item prediction format (`lib.evaluate.frames`) and its runner (`lib.evaluate.predictions`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import torch
from torch import nn

from lib.evaluate.frames import hits, prediction_columns, prediction_frame
from lib.evaluate.predictions import predict_ranked, top_k
from lib.train.loop import tensor_batches


def test_frame_columns_and_top_k_hits_known_answer():
    ranked = np.array([[2, 0, 1], [1, 2, 0], [0, 1, 2]])
    frame = prediction_frame(np.array([0, 2, 1]), ranked, eval_dataset="d")
    assert list(frame.columns) == ["eval_dataset", "item", "target", "pred_1", "pred_2", "pred_3"]
    assert hits(frame, 1).tolist() == [False, False, False]
    assert hits(frame, 2).tolist() == [True, True, True]
    with pytest.raises(ValueError, match="top-4"):
        hits(frame, 4)


def test_columns_sort_by_rank_and_missing_ranks_never_hit():
    frame = pd.DataFrame({"target": [1, 1], **{f"pred_{k}": [0, 0] for k in range(1, 11)}})
    frame["pred_2"] = [1.0, np.nan]
    assert prediction_columns(frame)[:3] == ["pred_1", "pred_2", "pred_3"] and prediction_columns(frame)[-1] == "pred_10"
    assert hits(frame, 10).tolist() == [True, False]
    with pytest.raises(ValueError, match="not a prediction frame"):
        prediction_columns(pd.DataFrame({"target": [0]}))


def test_runner_ranks_every_batch_with_the_argmax_tie_rule_and_restores_the_mode():
    model = nn.Linear(3, 4, bias=False)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[1.0, 0, 0], [0, 1, 0], [0, 1, 0], [0, 0, 1]]))  # classes 1 and 2 tie
    inputs = torch.eye(3).repeat(3, 1)
    model.train()
    ranked, targets = predict_ranked(model, tensor_batches(inputs, torch.arange(9) % 4, 2, 0, shuffle=False), top_k(2))
    assert model.training and ranked.shape == (9, 2) and targets.tolist() == (np.arange(9) % 4).tolist()
    assert ranked[:3].tolist() == [[0, 1], [1, 2], [3, 0]]
    np.testing.assert_array_equal(ranked[:, 0], model(inputs).argmax(dim=1).numpy())
