import pytest
import torch
from torch import nn

from lib.finetune.prompter import PaddingPrompter, PromptedModel
from lib.models.standins import build_standin


def test_border_is_added_and_interior_pixels_unchanged():
    prompter = PaddingPrompter(image_size=32, pad=5, generator=torch.Generator().manual_seed(0))
    images = torch.rand(2, 3, 32, 32)
    out = prompter(images)
    assert torch.equal(out[:, :, 5:27, 5:27], images[:, :, 5:27, 5:27])
    border = torch.ones(32, 32, dtype=torch.bool)
    border[5:27, 5:27] = False
    assert torch.all(out[:, :, border] != images[:, :, border])
    assert sum(p.numel() for p in prompter.parameters()) == 3 * (32 * 32 - 22 * 22)


def test_only_prompt_trains_and_model_stays_in_eval_mode():
    backbone = build_standin("tiny_resnet", seed=0)
    before = {k: v.clone() for k, v in backbone.state_dict().items()}
    model = PromptedModel(backbone, PaddingPrompter(image_size=32, pad=4))
    assert {n for n, p in model.named_parameters() if p.requires_grad} == {
        f"prompter.pad_{side}" for side in ("up", "down", "left", "right")
    }
    prompt_before = model.prompter.prompt().detach().clone()
    optimiser = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=40.0)
    for _ in range(2):
        model.train()
        assert model.prompter.training and not backbone.training and not backbone.bn1.training
        optimiser.zero_grad()
        nn.functional.cross_entropy(model(torch.randn(4, 3, 32, 32)), torch.tensor([0, 1, 2, 3])).backward()
        optimiser.step()
    assert all(torch.equal(v, backbone.state_dict()[k]) for k, v in before.items())  # BN statistics included
    assert not torch.equal(prompt_before, model.prompter.prompt())


def test_pad_must_leave_an_interior():
    with pytest.raises(ValueError, match="pad"):
        PaddingPrompter(image_size=10, pad=5)
