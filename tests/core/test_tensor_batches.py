"""`tensor_batches` gives the batches a seeded DataLoader over a TensorDataset gives, pass after pass."""

from __future__ import annotations

import itertools

import pytest
import torch
from torch.utils.data import DataLoader, TensorDataset

from lib.train.loop import batch_logits, predict_logits, tensor_batches


def _loader(inputs: torch.Tensor, targets: torch.Tensor, batch_size: int, seed: int, shuffle: bool) -> DataLoader:
    """What `tensor_batches` used to return."""
    generator = torch.Generator().manual_seed(seed)
    return DataLoader(TensorDataset(inputs, targets), batch_size=batch_size, shuffle=shuffle, generator=generator)


def _passes(batches, taken: list[int | None]) -> list[list[tuple[torch.Tensor, torch.Tensor]]]:
    """The batches of successive passes, each cut after `taken[i]` batches (None: the whole pass)."""
    return [list(itertools.islice(iter(batches), n)) for n in taken]


@pytest.mark.parametrize("n, batch_size", [(10, 3), (12, 4), (5, 8), (1, 1)])
@pytest.mark.parametrize("shuffle", [True, False])
def test_same_batches_as_the_dataloader_on_every_pass(n: int, batch_size: int, shuffle: bool):
    inputs, targets = torch.randn(n, 2, 3), torch.arange(n) % 3
    ours, theirs = tensor_batches(inputs, targets, batch_size, 7, shuffle), _loader(inputs, targets, batch_size, 7, shuffle)
    assert len(ours) == len(theirs)
    taken = [None, 1, None, 2, None, None]  # abandoned passes too (e.g. a first batch read for its shape)
    for ours_pass, theirs_pass in zip(_passes(ours, taken), _passes(theirs, taken), strict=True):
        assert len(ours_pass) == len(theirs_pass)
        for (x, y), (x_ref, y_ref) in zip(ours_pass, theirs_pass):
            assert torch.equal(x, x_ref) and torch.equal(y, y_ref) and x.dtype == x_ref.dtype and y.dtype == y_ref.dtype


def test_batches_are_copies():
    inputs = torch.zeros(4, 2)
    for x, _ in tensor_batches(inputs, torch.zeros(4), 2, 0, shuffle=False):
        x += 1
    assert not inputs.any()


def test_logits_per_batch_restore_the_mode_and_match_predict_logits():
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Dropout(0.5)).train()
    batches = tensor_batches(torch.randn(10, 3), torch.arange(10), 4, 0, shuffle=False)
    per_batch = list(batch_logits(model, batches))
    assert model.training and [len(logits) for logits, _ in per_batch] == [4, 4, 2]
    logits, targets = predict_logits(model, batches)
    assert torch.equal(logits, torch.cat([x for x, _ in per_batch])) and torch.equal(targets, torch.arange(10))
    assert not logits.requires_grad and model.training
