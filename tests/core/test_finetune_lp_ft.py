import torch
from torch import nn

from lib.finetune.lp_ft import lp_ft_stages
from lib.models.standins import build_standin


def test_stages_train_the_head_then_everything():
    model = build_standin("tiny_resnet", seed=0)
    probe, finetune = lp_ft_stages(model)
    assert (probe.name, probe.epochs, finetune.name, finetune.epochs) == ("linear_probe", 10, "fine_tune", 10)
    assert probe.apply(model) == ["fc.weight", "fc.bias"]
    assert probe.freeze_bn_statistics and not finetune.freeze_bn_statistics
    everything = [name for name, _ in model.named_parameters()]
    assert finetune.apply(model) == everything


def test_second_stage_releases_batchnorm_statistics():
    model = build_standin("tiny_resnet", seed=0)
    probe, finetune = lp_ft_stages(model)
    probe.apply(model)
    model.train()
    before = model.bn1.running_mean.clone()
    model(torch.randn(4, 3, 32, 32) + 2)
    assert torch.equal(before, model.bn1.running_mean)
    finetune.apply(model)
    model.train()
    model(torch.randn(4, 3, 32, 32) + 2)
    assert not torch.equal(before, model.bn1.running_mean)


def test_stage_one_gradients_reach_only_the_head():
    model = build_standin("tiny_vit", seed=0)
    probe, _ = lp_ft_stages(model, lp_epochs=1, ft_epochs=2)
    probe.apply(model)
    nn.functional.cross_entropy(model(torch.randn(2, 3, 32, 32)), torch.tensor([0, 1])).backward()
    with_grad = {name for name, p in model.named_parameters() if p.grad is not None}
    assert with_grad == {"head.weight", "head.bias"}
