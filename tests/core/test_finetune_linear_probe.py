import copy

import torch
from torch import nn

from lib.finetune.linear_probe import (
    batchnorm_unfrozen,
    head_module_name,
    linear_probe,
    released_code_vit_extras,
    set_batchnorm_frozen,
)
from lib.models.standins import build_standin


def _train_steps(model: nn.Module, steps: int = 3, image_size: int = 32) -> None:
    """A few SGD steps the way a loop runs them: model.train() each step, only trainable parameters."""
    generator = torch.Generator().manual_seed(0)
    optimiser = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.5, momentum=0.9)
    for _ in range(steps):
        model.train()
        images = torch.randn(8, 3, image_size, image_size, generator=generator) * 3 + 1
        labels = torch.randint(0, 10, (8,), generator=generator)
        optimiser.zero_grad()
        nn.functional.cross_entropy(model(images), labels).backward()
        optimiser.step()


def _snapshot(model: nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.clone() for k, v in model.state_dict().items()}


def test_default_freezes_backbone_weights_and_batchnorm_statistics():
    model = build_standin("tiny_resnet", seed=0)
    before = _snapshot(model)
    trainable = linear_probe(model)
    assert trainable == ["fc.weight", "fc.bias"]
    _train_steps(model)
    after = model.state_dict()
    changed = {k for k in before if not torch.equal(before[k], after[k])}
    assert changed == {"fc.weight", "fc.bias"}  # no running_mean / running_var / num_batches_tracked moved


def test_update_bn_stats_moves_running_statistics_but_not_backbone_weights():
    model = build_standin("tiny_resnet", seed=0)
    before = _snapshot(model)
    linear_probe(model, update_bn_stats=True)
    _train_steps(model)
    after = model.state_dict()
    changed = {k for k in before if not torch.equal(before[k], after[k])}
    assert {"fc.weight", "fc.bias", "bn1.running_mean", "bn1.running_var", "bn1.num_batches_tracked"} <= changed
    assert all(k.startswith("fc.") or "running_" in k or "num_batches_tracked" in k for k in changed)


def test_unfreezing_batchnorm_restores_normal_training_mode():
    model = build_standin("tiny_resnet", seed=0)
    set_batchnorm_frozen(model, True)
    set_batchnorm_frozen(model, True)  # idempotent: still one hook per layer
    assert len(model.bn1._forward_pre_hooks) == 1
    set_batchnorm_frozen(model, False)
    assert _statistics_move(model)


def _statistics_move(model: nn.Module) -> bool:
    """Whether a forward pass in training mode moves bn1's running mean."""
    before = model.bn1.running_mean.clone()
    model.train()
    model(torch.randn(4, 3, 32, 32) + 2)
    return model.bn1.training and not torch.equal(before, model.bn1.running_mean)


def test_a_copy_of_a_frozen_model_is_frozen_and_unfreezes():
    model = build_standin("tiny_resnet", seed=0)
    set_batchnorm_frozen(model, True)
    frozen_copy, unfrozen_copy = copy.deepcopy(model), copy.deepcopy(model)
    assert not _statistics_move(frozen_copy)
    set_batchnorm_frozen(unfrozen_copy, False)
    assert _statistics_move(unfrozen_copy)
    set_batchnorm_frozen(unfrozen_copy, True)
    assert len(unfrozen_copy.bn1._forward_pre_hooks) == 1 and not _statistics_move(unfrozen_copy)
    assert not _statistics_move(model)


def test_batchnorm_unfrozen_lifts_the_freeze_for_its_block_only():
    model = build_standin("tiny_resnet", seed=0)
    set_batchnorm_frozen(model, True)
    with batchnorm_unfrozen(model):
        assert _statistics_move(model)
    assert not _statistics_move(model)


def test_vit_head_and_the_released_codes_extra_trainable_parameters():
    model = build_standin("tiny_vit", seed=0)
    assert head_module_name(model) == "head"
    assert linear_probe(model) == ["head.weight", "head.bias"]
    released = linear_probe(model, extra_trainable=released_code_vit_extras)
    assert set(released) == {"cls_token", "pos_embed", "norm.weight", "norm.bias", "head.weight", "head.bias"}
    assert not any(name.startswith(("blocks.", "patch_embed.")) for name in released)
