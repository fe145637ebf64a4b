import pytest
import torch
from torch import nn

from lib.finetune.linear_probe import released_code_vit_extras
from lib.finetune.lora import LoRAQKV, apply_lora, merge_lora
from lib.models.standins import build_standin


@pytest.fixture
def images():
    return torch.randn(3, 3, 32, 32, generator=torch.Generator().manual_seed(1))


def _perturb_lora(model: nn.Module) -> None:
    generator = torch.Generator().manual_seed(2)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if ".lora_" in name:
                p.add_(torch.randn(p.shape, generator=generator) * 0.5)


def test_wrapped_model_equals_original_at_init(images):
    original = build_standin("tiny_vit", seed=0).eval()
    wrapped = build_standin("tiny_vit", seed=0).eval()
    names = apply_lora(wrapped)
    assert names == ["blocks.0.attn.qkv", "blocks.1.attn.qkv"]
    with torch.no_grad():
        assert torch.equal(original(images), wrapped(images))


def test_only_lora_factors_train_and_base_weights_stay(images):
    model = build_standin("tiny_vit", seed=0)
    apply_lora(model, rank=4, alpha=8.0)
    trainable = {n for n, p in model.named_parameters() if p.requires_grad}
    assert trainable == {f"blocks.{b}.attn.qkv.lora_{m}.{t}" for b in (0, 1) for m in "AB" for t in "qv"}
    frozen_before = {n: p.clone() for n, p in model.named_parameters() if not p.requires_grad}
    lora_before = {n: p.clone() for n, p in model.named_parameters() if p.requires_grad}
    optimiser = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=0.1)
    for _ in range(2):
        optimiser.zero_grad()
        nn.functional.cross_entropy(model(images), torch.tensor([0, 1, 2])).backward()
        optimiser.step()
    after = dict(model.named_parameters())
    assert all(torch.equal(p, after[n]) for n, p in frozen_before.items())
    assert any(not torch.equal(p, after[n]) for n, p in lora_before.items())


def test_key_block_of_the_output_ignores_lora_parameters():
    qkv = nn.Linear(12, 36)
    wrapper = LoRAQKV(qkv, rank=2, alpha=4.0)
    assert wrapper.scaling == 2.0
    with torch.no_grad():
        for p in list(wrapper.lora_A.values()) + list(wrapper.lora_B.values()):
            p.normal_()
    x = torch.randn(5, 12)
    out, base = wrapper(x), qkv(x)
    torch.testing.assert_close(out[:, 12:24], base[:, 12:24])
    assert not torch.allclose(out[:, :12], base[:, :12]) and not torch.allclose(out[:, 24:], base[:, 24:])
    lora = list(wrapper.lora_A.values()) + list(wrapper.lora_B.values())
    grads = torch.autograd.grad(out[:, 12:24].sum(), lora, allow_unused=True)
    assert all(g is None or torch.count_nonzero(g) == 0 for g in grads)


def test_delta_is_scaled_low_rank_product_in_q_and_v_rows():
    wrapper = LoRAQKV(nn.Linear(6, 18), rank=3, alpha=1.0)
    with torch.no_grad():
        for p in list(wrapper.lora_B.values()):
            p.normal_()
    delta = wrapper.delta_weight()
    expected_q = wrapper.lora_B["q"] @ wrapper.lora_A["q"] / 3
    torch.testing.assert_close(delta[:6], expected_q)
    assert torch.count_nonzero(delta[6:12]) == 0
    assert torch.linalg.matrix_rank(delta[12:]) <= 3


def test_merge_gives_a_plain_timm_model_with_the_same_outputs(images):
    model = build_standin("tiny_vit", seed=0).eval()
    apply_lora(model)
    _perturb_lora(model)
    with torch.no_grad():
        expected = model(images)
    merge_lora(model)
    assert all(type(block.attn.qkv) is nn.Linear for block in model.blocks)
    assert set(model.state_dict()) == set(build_standin("tiny_vit", seed=0).state_dict())
    with torch.no_grad():
        torch.testing.assert_close(model(images), expected)


def test_released_code_extras_and_errors():
    model = build_standin("tiny_vit", seed=0)
    apply_lora(model, extra_trainable=released_code_vit_extras)
    trainable = {n for n, p in model.named_parameters() if p.requires_grad}
    assert {"cls_token", "pos_embed", "norm.weight"} <= trainable and "head.weight" not in trainable
    with pytest.raises(ValueError, match="fused `qkv`"):
        apply_lora(build_standin("tiny_resnet"))
    with pytest.raises(ValueError, match="targets"):
        LoRAQKV(nn.Linear(4, 12), targets=("x",))
