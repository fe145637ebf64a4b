import pytest
import torch
from open_clip.model import CLIP, CLIPTextCfg, CLIPVisionCfg
from open_clip.tokenizer import SimpleTokenizer
from torch import nn
from torch.nn.utils import parametrize

from lib.finetune.linear_probe import released_code_vit_extras
from lib.finetune.lora import LoRAInProj, LoRAQKV, apply_lora, attention_blocks, merge_lora
from lib.finetune.templates import SINGLE_TEMPLATE
from lib.finetune.zeroshot import ZeroShotClassifier, tokenize_prompts
from lib.models.standins import build_standin

CLIP_LORA = [f"visual.transformer.resblocks.{b}.attn" for b in (0, 1)]


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
    with pytest.raises(ValueError, match="no ViT blocks"):
        apply_lora(build_standin("tiny_resnet"))
    with pytest.raises(ValueError, match="targets"):
        LoRAQKV(nn.Linear(4, 12), targets=("x",))


def _clip() -> nn.Module:
    return build_standin("tiny_clip", image_size=32, seed=0).eval()


def _head(clip: nn.Module) -> ZeroShotClassifier:
    tokens = tokenize_prompts(SimpleTokenizer(context_length=16), ["dog", "cat", "car"], SINGLE_TEMPLATE)
    return ZeroShotClassifier(clip, tokens)


def test_open_clip_vit_starts_as_the_original(images):
    original, adapted = _clip(), _clip()
    assert apply_lora(adapted, rank=4, alpha=4.0) == CLIP_LORA
    attn = adapted.visual.transformer.resblocks[0].attn
    assert isinstance(attn, nn.MultiheadAttention) and isinstance(attn.parametrizations.in_proj_weight[0], LoRAInProj)
    assert all(type(b.attn) is nn.MultiheadAttention for b in adapted.transformer.resblocks)  # text tower untouched
    # with grad enabled: in eval under no_grad, torch's fused MHA fast path rounds differently (~1e-6)
    assert torch.equal(original.encode_image(images), adapted.encode_image(images))
    assert apply_lora(_head(_clip())) == [f"model.{n}" for n in CLIP_LORA]


def test_open_clip_only_lora_factors_train_and_frozen_weights_stay(images):
    head = _head(_clip())
    apply_lora(head, rank=4, alpha=4.0)
    trainable = {n for n, p in head.named_parameters() if p.requires_grad}
    assert trainable == {f"model.{n}.parametrizations.in_proj_weight.0.lora_{m}.{t}" for n in CLIP_LORA for m in "AB" for t in "qv"}
    frozen_before = {n: p.clone() for n, p in head.named_parameters() if not p.requires_grad}
    assert "model.visual.transformer.resblocks.0.attn.parametrizations.in_proj_weight.original" in frozen_before
    lora_before = {n: p.clone() for n, p in head.named_parameters() if p.requires_grad}
    optimiser = torch.optim.SGD(head.parameters(), lr=0.1, momentum=0.9, weight_decay=0.1)
    head.train()
    for _ in range(2):
        optimiser.zero_grad()
        nn.functional.cross_entropy(head(images), torch.tensor([0, 1, 2])).backward()
        optimiser.step()
    after = dict(head.named_parameters())
    assert all(torch.equal(p, after[n]) for n, p in frozen_before.items())
    assert all(not torch.equal(p, after[n]) for n, p in lora_before.items())


def test_open_clip_merge_folds_q_and_v_updates_into_in_proj(images):
    clip = _clip()
    original = clip.visual.transformer.resblocks[0].attn.in_proj_weight.detach().clone()
    apply_lora(clip)
    _perturb_lora(clip)
    with torch.no_grad():
        expected = clip.encode_image(images)
    merge_lora(clip)
    assert not any(parametrize.is_parametrized(m) for m in clip.modules())
    assert set(clip.state_dict()) == set(_clip().state_dict())
    merged = clip.visual.transformer.resblocks[0].attn.in_proj_weight
    assert not merged.requires_grad
    width = merged.shape[1]
    assert torch.equal(merged[width:2 * width], original[width:2 * width])  # the key block has no update
    assert not torch.equal(merged[:width], original[:width]) and not torch.equal(merged[2 * width:], original[2 * width:])
    with torch.no_grad():
        torch.testing.assert_close(clip.encode_image(images), expected)


def test_clip_without_a_vit_image_tower_is_refused():
    text = CLIPTextCfg(context_length=8, vocab_size=100, width=16, heads=2, layers=1)
    resnet_clip = CLIP(embed_dim=16, vision_cfg=CLIPVisionCfg(layers=(1, 1, 1, 1), width=8, image_size=32), text_cfg=text)
    with pytest.raises(ValueError, match="ResNet and ConvNeXt"):
        apply_lora(resnet_clip)


def test_lora_finds_a_timm_trunk_inside_an_open_clip_model():
    """SigLIP's image tower is a timm ViT under `visual.trunk`: its fused qkv gets LoRA."""
    from timm.models.vision_transformer import VisionTransformer

    clip = nn.Module()
    clip.visual = nn.Module()
    clip.visual.trunk = VisionTransformer(img_size=16, patch_size=8, embed_dim=16, depth=2, num_heads=2, num_classes=0)
    assert attention_blocks(clip)[0] == "visual.trunk.blocks"
    assert apply_lora(clip, rank=2) == ["visual.trunk.blocks.0.attn.qkv", "visual.trunk.blocks.1.attn.qkv"]
