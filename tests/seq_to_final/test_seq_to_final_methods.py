"""Unit tests of lib.seq_to_final.methods on tiny models and a tiny digits sequence."""

import copy
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from lib.paths import PUBLISHED_DIR
from lib.seq_to_final import methods
from lib.seq_to_final.architectures import build
from lib.seq_to_final.methods import (RUNS, Context, Hyper, JointModel, SequenceTensors, Settings, SideTunedNet,
                                      StepBatches, adjacent_penalty, average_states, batch_summed_fisher,
                                      dro_objective, fit, interpolated_state, irm_penalty, joint_objective,
                                      lr_sequences, pull_to, regularised_names, run_method, select, to_tensors,
                                      weight_penalty)
from lib.seq_to_final.sequence import build as build_sequence
from lib.seq_to_final.sequence import synthetic_spec
from lib.seq_to_final.tables import METHODS
from lib.train.config import TrainConfig
from lib.train.loop import train

TINY = Settings(lrs=(1e-3,), weight_decays=(1e-4,), dropouts=(0.0,), max_epochs=2, patience=1, batch_size=20,
                adjacent_grid=(0.1,), ewc_grid=(1e-2,), linear_decays=((1e-3, 1e-4),),
                exponential_decays=((2e-3, 0.5),))


@pytest.fixture(scope="module")
def data() -> SequenceTensors:
    torch.set_num_threads(1)
    return to_tensors(build_sequence(synthetic_spec("CLR", "digits", (60, 40, 60, 40), 30, image_size=8)))


def ctx(data, settings=TINY, architecture="Conv-1", seed=0) -> Context:
    return Context(data, architecture, settings, seed, 8)


def _params(model):
    return {n: p.detach().clone() for n, p in model.named_parameters()}


def test_every_table1_column_and_the_table15_ablations_have_a_run():
    table15 = set(pd.read_csv(PUBLISHED_DIR / "seq_to_final" / "table15.csv")["method"])
    columns = {run.column for run in RUNS.values()}
    assert set(METHODS) <= columns and columns - set(METHODS) <= table15 and len(columns - set(METHODS)) == 2
    assert RUNS["Oracle"].sequence == "oracle" and RUNS["Baseline"].sequence == "sequence"
    with pytest.raises(ValueError, match="unknown method 'XX'; known"):
        run_method("XX", None, "Conv-1", TINY, 0, 8)


def test_grid_is_lr_by_weight_decay_by_dropout():
    grid = Settings().grid()
    assert len(grid) == 8 and grid[0] == Hyper(1e-3, 1e-4, 0.0) and grid[-1] == Hyper(1e-4, 1e-2, 0.5)


def test_weight_penalty_is_sum_of_squares_of_conv_and_linear_parameters_only():
    model = build("Conv-1", 10)
    names = regularised_names(model)
    assert not any("stem.1" in n or "blocks.0.1" in n for n in names)  # BatchNorm excluded
    expected = 0.5 * sum(p.pow(2).sum() for n, p in model.named_parameters() if n in names)
    assert torch.allclose(weight_penalty(model, 0.5).penalty(model), expected)


def test_pull_to_previous_is_zero_at_the_anchor_and_quadratic_away():
    model = build("Conv-1", 10)
    anchor = pull_to(model, regularised_names(model), 3.0)
    assert anchor.penalty(model).item() == 0.0
    with torch.no_grad():
        model.head[-1].bias.add_(0.1)
    assert anchor.penalty(model).item() == pytest.approx(3.0 * 10 * 0.01, rel=1e-5)


def test_huge_pull_to_previous_keeps_the_weights(data):
    model = build("Conv-1", 10)
    before = _params(model)
    batches = methods._erm_batches(data.train[-1], TINY, 0)
    config = TrainConfig(epochs=3, batch_size=20, base_lr=1e-2, reference_batch=20, optimizer="adamw",
                         schedule="constant")

    def moved(coefficient):
        trained = copy.deepcopy(model)
        anchor = pull_to(trained, regularised_names(trained), coefficient)
        train(trained, batches, config, loss=lambda m, x, y: F.cross_entropy(m(x), y) + anchor.penalty(m))
        after = _params(trained)
        return max((after[n] - before[n]).abs().max().item() for n in regularised_names(model))

    assert moved(1e6) < 0.02 < moved(0.0)


def test_irm_penalty_is_the_product_of_the_half_batch_gradients():
    torch.manual_seed(0)
    logits, labels = torch.randn(6, 3), torch.tensor([0, 1, 2, 2, 1, 0])

    def gradient(z, y):  # d/dw mean CE(z * w) at w = 1: mean over items of (softmax - onehot) * z
        p = torch.softmax(z, 1)
        return ((p - F.one_hot(y, 3)) * z).mean(0)

    expected = (gradient(logits[:3], labels[:3]) * gradient(logits[3:], labels[3:])).sum()
    assert irm_penalty(logits, labels).item() == pytest.approx(expected.item(), rel=1e-5)


class _StepLinear(nn.Module):
    """A linear model with the methods' forward signature (the step is ignored)."""

    def __init__(self, linear: nn.Linear) -> None:
        super().__init__()
        self.linear = linear

    def forward(self, x, dropout=0.0, step=None):
        return self.linear(x)


def test_dro_takes_the_worst_step_and_joint_weights_the_final_step():
    torch.manual_seed(0)
    model = nn.Linear(4, 3)
    wrapped = _StepLinear(model)
    x, y = torch.randn(8, 4), torch.tensor([0, 1, 2, 0, 1, 2, 0, 1])
    targets = torch.stack([y, torch.tensor([0, 0, 0, 1, 1, 1, 1, 1])], 1)
    first, second = F.cross_entropy(model(x[:3]), y[:3]), F.cross_entropy(model(x[3:]), y[3:])
    assert dro_objective(wrapped, x, targets, 0.0).item() == pytest.approx(max(first, second).item())
    joint = joint_objective(3.0, 2)(wrapped, x, targets, 0.0)
    assert joint.item() == pytest.approx(((first + 3 * second) / 2).item(), rel=1e-6)


def test_step_batches_take_one_batch_per_step_and_cycle_the_shorter():
    steps = [(torch.zeros(60, 1), torch.zeros(60, dtype=torch.long)), (torch.ones(20, 1), torch.ones(20, dtype=torch.long))]
    batches = StepBatches(steps, 20, seed=0)
    assert len(batches) == 3
    for inputs, targets in batches:
        assert inputs.shape == (40, 1) and targets[:, 1].tolist() == [0] * 20 + [1] * 20
        assert torch.equal(targets[:, 0], targets[:, 1])


def test_adjacent_penalty_and_a_huge_adjacent_weight_drive_step_weights_together(data):
    torch.manual_seed(0)
    joint = JointModel([build("Conv-1", 10) for _ in range(4)])
    assert adjacent_penalty(1.0)(JointModel([joint.models[0], copy.deepcopy(joint.models[0])])).item() == 0.0

    def spread(model):
        return sum((b - a).pow(2).sum().item() for m0, m1 in zip(model.models[:-1], model.models[1:])
                   for a, b in zip(m0.parameters(), m1.parameters()))

    objective = joint_objective(3.0, 4)
    config = TrainConfig(epochs=4, batch_size=20, base_lr=1e-2, reference_batch=20, optimizer="adamw",
                         schedule="constant")
    result = {}
    for coefficient in (0.0, 1e3):
        model = copy.deepcopy(joint)
        penalty = adjacent_penalty(coefficient)
        train(model, StepBatches(data.train, 20, 0), config,
              loss=lambda m, x, t: objective(m, x, t, 0.0) + penalty(m))
        result[coefficient] = spread(model)
    assert result[1e3] < 0.2 * spread(joint) < result[0.0]


class _Scripted:
    """Validation accuracies by call: epoch 0 first."""

    def __init__(self, values):
        self.values = iter(values)

    def __call__(self, *args, **kwargs):
        return next(self.values)


def test_early_stopping_compares_with_the_previous_epoch_and_keeps_the_best(monkeypatch):
    model = nn.Linear(1, 1)
    # epoch 0: .5, then .6 (best), .55, .57 (improves on the previous: streak resets), .56, .55, .54 -> stop
    monkeypatch.setattr(methods, "accuracy", _Scripted([0.5, 0.6, 0.55, 0.57, 0.56, 0.55, 0.54, 0.99]))
    stopper = methods.EarlyStopping(model, None, patience=2, device="cpu")
    for epoch in range(1, 6):
        stopper(epoch, model)
    with pytest.raises(methods._Stop):
        stopper(6, model)
    assert (stopper.epoch, stopper.best) == (1, 0.6)


def test_epoch_zero_can_be_returned_unchanged(data, monkeypatch):
    monkeypatch.setattr(methods, "accuracy", _Scripted([0.9] + [0.1] * 10))  # epoch 0 is the best
    model = build("Conv-1", 10)
    before = _params(model)
    fitted = fit(model, methods._erm_batches(data.train[-1], TINY, 0), data.valid[-1], Hyper(1e-2, 0.0, 0.0),
                 replace(TINY, max_epochs=2), 0)
    assert fitted.epoch == 0
    for name, value in _params(fitted.model).items():
        assert torch.equal(value, before[name])


def test_select_keeps_the_first_best():
    scores = iter([0.5, 0.7, 0.7])
    chosen = select(nn.Linear(1, 1), [Hyper(1, 0, 0), Hyper(2, 0, 0), Hyper(3, 0, 0)],
                    lambda m, h: methods.Fitted(m, next(scores), 0, h))
    assert chosen.hyper.lr == 2


def test_baseline_ignores_the_historical_steps(data):
    torch.manual_seed(1)
    scrambled = SequenceTensors(
        tuple((torch.rand_like(x) * 255, torch.randint(0, 10, y.shape)) for x, y in data.train[:-1]) + data.train[-1:],
        tuple((torch.rand_like(x) * 255, torch.randint(0, 10, y.shape)) for x, y in data.valid[:-1]) + data.valid[-1:],
        data.test, data.num_classes)
    a = run_method("Baseline", data, "Conv-1", TINY, 0, 8).model
    b = run_method("Baseline", scrambled, "Conv-1", TINY, 0, 8).model
    for (name, p), q in zip(a.state_dict().items(), b.state_dict().values()):
        assert torch.equal(p, q), name


def test_ewc_with_zero_weight_equals_sequential_fine_tuning_without_decay(data):
    settings = replace(TINY, weight_decays=(0.0,), ewc_grid=(0.0,))
    sft = run_method("SFT", data, "Conv-1", settings, 0, 8).model
    ewc = run_method("EWC", data, "Conv-1", settings, 0, 8).model
    for (name, p), q in zip(sft.state_dict().items(), ewc.state_dict().values()):
        assert torch.equal(p, q), name


def test_lp_stage_leaves_the_features_unchanged(data):
    model = build("Conv-1", 10)
    before = _params(model)
    probe, _ = methods.lp_ft_stages_of(model)
    probe.apply(model)
    fitted = methods._fine_tune(ctx(data, replace(TINY, lrs=(1e-2,), max_epochs=3, patience=5)), model, 3)
    after = _params(fitted.model)
    head = methods.head_name(model)
    assert head == "head.2"
    assert all(torch.equal(after[n], before[n]) for n in before if not n.startswith(head))
    assert any(not torch.equal(after[n], before[n]) for n in before if n.startswith(head))


def test_fisher_is_squared_batch_summed_gradients_over_n():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(4, 3))
    x, y = torch.randn(10, 4), torch.randint(0, 3, (10,))
    fisher = batch_summed_fisher(model, (x, y), batch_size=5, names=["1.weight"])
    expected = torch.zeros(3, 4)
    for part in (slice(0, 5), slice(5, 10)):
        model.zero_grad()
        F.cross_entropy(model(x[part]), y[part], reduction="sum").backward()
        expected += model[1].weight.grad ** 2
    assert torch.allclose(fisher["1.weight"], expected / 10)


@pytest.mark.parametrize("architecture", ["Conv-1", "Res-2", "Dense-2"])
def test_side_modules_match_block_shapes_and_step_zero_is_the_base(architecture):
    torch.manual_seed(0)
    base = build(architecture, 10).eval()
    x = torch.rand(2, 3, 8, 8) * 255
    expected = base(x)
    model = SideTunedNet(base, 8)
    model.add_sides("layer", stem_and_head=False)
    model.add_sides("block", stem_and_head=True)
    model.eval()
    assert torch.equal(model(x, step=0), expected)
    assert model(x).shape == (2, 10) and not torch.equal(model(x, step=1), expected)


def test_side_scale_moves_only_the_newest_steps_side_modules():
    torch.manual_seed(0)
    model = SideTunedNet(build("Conv-1", 10), 8)
    for _ in range(2):
        model.add_sides("layer", stem_and_head=True)
    model.eval()
    x = torch.rand(2, 3, 8, 8) * 255
    before, after = model(x, step=1), model(x)
    model.side_scale = 0.0  # the path's start: the model at step 1, the step-2 sides switched off
    assert torch.allclose(model(x), before)
    model.side_scale = 0.5  # the step-2 sides' outputs halved (a one-layer side is linear in its scale)
    middle = model(x)
    assert not torch.allclose(middle, before) and not torch.allclose(middle, after)


def test_side_tuning_freezes_the_pretrained_blocks(data):
    torch.manual_seed(0)
    model = SideTunedNet(build("Res-1", 10), 8)
    blocks = copy.deepcopy(model.blocks.state_dict())
    fitted = methods._side_step(ctx(data, replace(TINY, lrs=(1e-2,), max_epochs=2, patience=5)), model, "layer", 3)
    for key, value in fitted.model.blocks.state_dict().items():
        assert torch.equal(value, blocks[key]), key  # weights and BatchNorm statistics
    assert len(fitted.model.sides) == 1 and fitted.extra["adjacent"] == 0.1


@pytest.mark.parametrize("kind", ["layer", "block"])
def test_side_modules_added_after_freezing_train_with_batch_statistics(data, kind):
    torch.manual_seed(0)  # the fitted model is the best epoch's: seeded, so that it is epoch 1 whatever ran before
    model = SideTunedNet(build("Conv-1", 10), 8)
    fitted = methods._side_step(ctx(data, replace(TINY, lrs=(1e-2,), max_epochs=1, patience=5)), model, kind, 3)
    side = fitted.model.sides[0]
    assert fitted.epoch == 1 and all(p.requires_grad for p in side.parameters())
    norms = [m for m in side.modules() if isinstance(m, nn.BatchNorm2d)]
    assert norms and all(int(m.num_batches_tracked) > 0 for m in norms)  # trained in train mode, not frozen


def test_lr_schedules():
    settings = Settings()
    assert lr_sequences(settings, "none", 3) == [None]
    assert lr_sequences(settings, "linear", 3)[0] == pytest.approx((1e-3, 9e-4, 8e-4))
    assert lr_sequences(settings, "exponential", 3)[2] == pytest.approx((2e-4, 1.5e-4, 1.125e-4))
    with pytest.raises(ValueError, match="schedule must be"):
        lr_sequences(settings, "cosine", 3)


def test_interpolation_endpoints_midpoint_and_the_code_batchnorm_reading():
    torch.manual_seed(0)
    model = build("Res-1", 10)
    start = copy.deepcopy(model.state_dict())
    end = {k: v + 1 if v.is_floating_point() else v for k, v in start.items()}
    for s, state in ((0.0, start), (1.0, end)):
        for key, value in interpolated_state(model, start, end, s).items():
            assert torch.equal(value, state[key]), key
    conv, bn, down = "stem.0.weight", "stem.1.running_mean", "blocks.0.0.downsample.0.weight"
    code, full = interpolated_state(model, start, end, 0.5), interpolated_state(model, start, end, 0.5, "all")
    assert torch.allclose(code[conv], start[conv] + 0.5) and torch.allclose(full[conv], start[conv] + 0.5)
    assert torch.equal(code[bn], start[bn]) and torch.equal(code[down], start[down])
    assert torch.allclose(full[bn], start[bn] + 0.5) and torch.allclose(full[down], start[down] + 0.5)


def test_average_states_is_the_arithmetic_mean():
    states = [{"w": torch.tensor([1.0, 2.0])}, {"w": torch.tensor([3.0, 6.0])}, {"w": torch.tensor([2.0, 1.0])}]
    np.testing.assert_allclose(average_states(states)["w"].numpy(), [2.0, 3.0])


def test_fine_tuning_towards_previous_with_a_huge_pull_stays_at_the_pretrained_weights(data, monkeypatch):
    pretrained = build("Conv-1", 10)
    monkeypatch.setattr(methods, "pretrain", lambda ctx, kind: methods.Fitted(copy.deepcopy(pretrained), 0.0, 0))
    settings = replace(TINY, weight_decays=(1e6,), lrs=(1e-3,), max_epochs=2, patience=5)
    for run in ("FT-reg-previous", "FT-init-ablated-reg-previous"):
        fitted = run_method(run, data, "Conv-1", settings, 0, 8)
        after, before = _params(fitted.model), _params(pretrained)
        moved = max((after[n] - before[n]).abs().max().item() for n in regularised_names(pretrained))
        assert fitted.extra["previous"] == 1e6
        if run == "FT-reg-previous":
            assert moved < 0.01  # starts at the anchor and is held there
        else:
            assert moved > 0.01  # starts at a fresh random model: two epochs cannot reach the anchor


def test_the_constant_schedule_keeps_the_peak_lr():
    from lib.train.schedule import SCHEDULES
    assert [SCHEDULES["constant"](step, 10, 2) for step in (0, 5, 9)] == [1.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="schedule must be one of"):
        train(nn.Linear(1, 1), [(torch.zeros(1, 1), torch.zeros(1, dtype=torch.long))],
              TrainConfig(epochs=1, batch_size=1, base_lr=0.1, schedule="cosine"))


def test_paper_augmentation_changes_images_per_epoch_and_keeps_labels(data):
    batches = methods._erm_batches(data.train[0], TINY, 0)
    raw = list(batches)
    augmented = methods.AugmentedBatches(methods._erm_batches(data.train[0], TINY, 0), seed=5)
    first, second = list(augmented), list(augmented)
    again = list(methods.AugmentedBatches(methods._erm_batches(data.train[0], TINY, 0), seed=5))
    assert len(first) == len(raw)
    for (x, y), (a, b), (c, _), (e, _) in zip(raw, first, second, again):
        assert torch.equal(y, b) and a.shape == x.shape and a.dtype == torch.float32
        assert not torch.equal(a, x) and not torch.equal(a, c)  # augmented, and afresh in the next epoch
    assert all(torch.equal(a, e) for (a, _), (e, _) in zip(first, again))  # seeded
    assert methods.AUGMENTATIONS["none"](batches, 0) is batches
    with pytest.raises(ValueError, match="augmentation must be one of"):
        Settings(augmentation="randaugment")
