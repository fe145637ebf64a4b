"""Key-conversion recipes on synthetic checkpoints written in each source's own key names and shapes.

Each source checkpoint is made from a randomly initialised backbone whose tensors all hold distinct
values (so a swapped key cannot pass), renamed into the source layout, with the heads and other
tensors that the real files carry added. No weights are downloaded and no forward pass is run.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

import numpy as np
import pytest
import torch

from lib.models.conversion import RECIPES, ConversionError, convert, empty_backbone
from lib.models.registry import OPEN_CLIP_FILE, WeightsMissingError, load_checkpoint_model, load_pretrained, registry, spec

URL_SPECS = [s for s in registry().values() if s.library == "url"]


def distinct(state: dict[str, torch.Tensor], seed: int = 0) -> dict[str, torch.Tensor]:
    """The same keys and shapes, every tensor filled with its own random values."""
    generator = torch.Generator().manual_seed(seed)
    return {
        k: torch.randn(v.shape, generator=generator) if v.is_floating_point() else torch.full_like(v, i)
        for i, (k, v) in enumerate(state.items())
    }


@pytest.fixture(scope="module")
def resnet():
    model = empty_backbone("resnet50", "pooled")
    return model, distinct(model.state_dict())


@pytest.fixture(scope="module")
def vit():
    model = empty_backbone("vit_base_patch16_224", "cls")
    return model, distinct(model.state_dict())


@pytest.fixture(scope="module")
def beit():
    model = empty_backbone("beitv2_base_patch16_224", "mean_tokens")
    state = distinct(model.state_dict())
    shared = state["blocks.0.attn.relative_position_bias_table"]
    for key in state:
        if key.endswith("attn.relative_position_bias_table"):
            state[key] = shared  # pre-training shares one table between blocks
    state["fc_norm.weight"], state["fc_norm.bias"] = torch.ones(768), torch.zeros(768)
    return model, state


def prefixed(state: dict, prefix: str) -> dict:
    return {prefix + k: v for k, v in state.items()}


def junk(*keys: str) -> dict[str, torch.Tensor]:
    return {k: torch.zeros(3) for k in keys}


MMCLS_NAMES = (  # timm ViT -> mmcls VisionTransformer, the inverse of what the recipe undoes
    (r"^blocks\.(\d+)\.", r"layers.\1."), (r"^patch_embed\.proj\.", "patch_embed.projection."),
    (r"\.norm1\.", ".ln1."), (r"\.norm2\.", ".ln2."), (r"^norm\.", "ln1."),
    (r"\.mlp\.fc1\.", ".ffn.layers.0.0."), (r"\.mlp\.fc2\.", ".ffn.layers.1."),
)


def mmcls_vit(state: dict) -> dict:
    renamed = {}
    for key, value in state.items():
        for pattern, replacement in MMCLS_NAMES:
            key = re.sub(pattern, replacement, key)
        renamed[key] = value
    return renamed


def shifted(state: dict) -> dict:
    return {k: v + 1 for k, v in state.items()}


def mocov3(momentum: dict, base: dict, head: str) -> dict:
    return {"state_dict": {
        **prefixed(base, "module.base_encoder."), **prefixed(momentum, "module.momentum_encoder."),
        **junk(f"module.base_encoder.{head}.0.weight", f"module.momentum_encoder.{head}.0.weight",
               "module.predictor.0.weight"),
    }, "epoch": 1000, "arch": "vit_base" if head == "head" else "resnet50"}


def beit_unilm(state: dict) -> dict:
    source = {k: v for k, v in state.items() if not k.startswith("fc_norm.")}
    for key in [k for k in source if k.endswith("attn.relative_position_bias_table")]:
        source["rel_pos_bias.relative_position_bias_table"] = source.pop(key)
    source["rel_pos_bias.relative_position_index"] = torch.zeros(197, 197, dtype=torch.long)
    source.update(junk("mask_token", "norm.weight", "norm.bias", "lm_head.weight", "cls_pt_layers.0.norm1.weight",
                       "cls_pt_layers.1.attn.qkv.weight"))
    return {"model": source, "epoch": 1599}


SOURCES = {  # recipe -> (backbone fixture, the source checkpoint made from the backbone's state dict)
    "vissl_trunk": ("resnet", lambda s: {"classy_state_dict": {"base_model": {"model": {
        "trunk": prefixed(s, "_feature_blocks."), "heads": junk("0.clf.0.weight")}}}, "phase_idx": 104}),
    "vissl_converted_numpy": ("resnet", lambda s: {"model_state_dict": {
        **{k: v.numpy() for k, v in prefixed(s, "_feature_blocks.").items()},
        "_feature_blocks.fc.weight": np.zeros((128, 2048), dtype=np.float32)}}),
    "swav_module": ("resnet", lambda s: {**prefixed(s, "module."), **junk(
        "module.projection_head.0.weight", "module.projection_head.1.running_mean", "module.prototypes.weight")}),
    "moco_encoder_q": ("resnet", lambda s: {"state_dict": {**prefixed(s, "module.encoder_q."), **junk(
        "module.encoder_q.fc.0.weight", "module.encoder_q.fc.2.bias", "module.encoder_k.conv1.weight",
        "module.queue", "module.queue_ptr")}, "epoch": 800}),
    "mocov3_momentum": ("resnet", lambda s: mocov3(s, shifted(s), "fc")),
    "mocov3_base": ("resnet", lambda s: mocov3(shifted(s), s, "fc")),
    "mmselfsup_resnet": ("resnet", lambda s: {"state_dict": {**prefixed(s, "backbone."), **junk(
        "neck.mlp.0.weight", "head.predictor.0.weight")}, "meta": {"epoch": 200}}),
    "byol_online_backbone": ("resnet", lambda s: {"online_backbone": prefixed(s, "module."),
                                                  "online_projection": junk("module.0.weight")}),
    "state_dict_key": ("resnet", lambda s: {"state_dict": s}),
    "plain": ("resnet", lambda s: dict(s)),
    "ibot_teacher": ("vit", lambda s: {"state_dict": {**s, **junk("head.mlp.0.weight", "head.last_layer.weight_g")}}),
    "mae_model": ("vit", lambda s: {"model": {**s, **junk(
        "mask_token", "decoder_embed.weight", "decoder_pos_embed", "decoder_blocks.0.attn.qkv.weight", "decoder_pred.bias")}}),
    "mmselfsup_vit": ("vit", lambda s: {"state_dict": {**prefixed(mmcls_vit(s), "backbone."), **junk(
        "backbone.mask_token", "neck.decoder_blocks.0.ln1.weight", "target_generator.tokenizer.proj",
        "data_preprocessor.mean")}}),
    "beit_unilm": ("beit", beit_unilm),
}


def test_every_recipe_has_a_synthetic_source():
    assert set(SOURCES) == set(RECIPES)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_recipe_maps_the_source_back_onto_the_backbone(name, request):
    fixture, make_source = SOURCES[name]
    model, state = request.getfixturevalue(fixture)
    converted = convert(make_source(state), name, model.state_dict())
    model.load_state_dict(converted, strict=True)
    loaded = model.state_dict()
    assert loaded.keys() == state.keys()
    assert all(torch.equal(loaded[k], state[k]) for k in state), name


def test_mocov3_vit_loads_the_momentum_encoder_like_the_paper(vit):
    model, state = vit
    checkpoint = mocov3(state, shifted(state), "head")
    assert all(torch.equal(v, state[k]) for k, v in convert(checkpoint, "mocov3_momentum", model.state_dict()).items())
    base = convert(checkpoint, "mocov3_base", model.state_dict())
    assert torch.equal(base["cls_token"], state["cls_token"] + 1)


def test_unknown_key_is_a_clear_error(resnet):
    model, state = resnet
    checkpoint = {**prefixed(state, "module."), **junk("module.extra_head.weight")}
    with pytest.raises(ConversionError, match="keys not in the backbone: extra_head.weight"):
        convert(checkpoint, "swav_module", model.state_dict())


def test_missing_key_is_a_clear_error(resnet):
    model, state = resnet
    checkpoint = {k: v for k, v in state.items() if k != "layer4.2.bn3.running_var"}
    with pytest.raises(ConversionError, match="backbone keys not in the checkpoint: layer4.2.bn3.running_var"):
        convert(checkpoint, "plain", model.state_dict())


def test_shape_mismatch_is_a_clear_error(vit):
    model, state = vit
    checkpoint = {"model": {**state, "pos_embed": torch.zeros(1, 50, 768)}}
    with pytest.raises(ConversionError, match=r"shape mismatch: pos_embed \(1, 50, 768\) vs \(1, 197, 768\)"):
        convert(checkpoint, "mae_model", model.state_dict())


def test_wrong_nesting_names_what_the_file_holds(resnet):
    model, state = resnet
    with pytest.raises(ConversionError, match=r"no 'state_dict' under the top level.*found: \['model'\]"):
        convert({"model": state}, "moco_encoder_q", model.state_dict())
    with pytest.raises(KeyError, match="unknown key recipe 'mocov3'"):
        convert({"state_dict": state}, "mocov3", model.state_dict())


@pytest.mark.parametrize("s", URL_SPECS, ids=[s.key for s in URL_SPECS])
def test_url_rows_name_a_recipe_that_maps_onto_their_architecture(s):
    assert s.checkpoint_file and "/" not in s.checkpoint_file
    if s.key_recipe != OPEN_CLIP_FILE:
        assert s.architecture in RECIPES[s.key_recipe].architectures
        assert s.feature == {"resnet50": "pooled", "vit_base_patch16_224": "cls"}.get(s.architecture, "mean_tokens")


def test_checkpoint_files_are_unique():
    files = [s.checkpoint_file for s in URL_SPECS]
    assert len(files) == len(set(files))


def test_a_url_row_loads_from_the_weights_folder(tmp_path, resnet):
    s = spec("ssl_swav_rn50")
    _, state = resnet
    with pytest.raises(WeightsMissingError, match=f"not found at {tmp_path / s.checkpoint_file}"):
        load_pretrained(s.key, root=tmp_path)
    torch.save({**prefixed(state, "module."), **junk("module.prototypes.weight")}, tmp_path / s.checkpoint_file)
    model = load_pretrained(s.key, root=tmp_path)
    assert isinstance(model.fc, torch.nn.Identity)
    assert torch.equal(model.state_dict()["layer1.0.conv1.weight"], state["layer1.0.conv1.weight"])
    with pytest.raises(ValueError, match="maps onto"):
        load_pretrained(s.key, root=tmp_path, recipe="mae_model")


def test_open_clip_file_rows_load_through_open_clip(tmp_path):
    import open_clip

    config = {"embed_dim": 32, "vision_cfg": {"image_size": 32, "layers": 1, "width": 32, "head_width": 16, "patch_size": 8},
              "text_cfg": {"context_length": 16, "vocab_size": 100, "width": 32, "heads": 2, "layers": 1}}
    (tmp_path / "test-tiny-clip.json").write_text(json.dumps(config))
    open_clip.add_model_config(tmp_path / "test-tiny-clip.json")
    s = replace(spec("rib_clip_vit_b32_laion100m"), architecture="test-tiny-clip")
    saved = open_clip.create_model("test-tiny-clip").state_dict()
    torch.save({"state_dict": prefixed(saved, "module."), "epoch": 32}, tmp_path / s.checkpoint_file)
    model = load_checkpoint_model(s, root=tmp_path)
    assert torch.equal(model.state_dict()["visual.proj"], saved["visual.proj"])
