"""Checkpoint key-conversion recipes: a downloaded self-supervised checkpoint -> a backbone state dict.

Each recipe names one source format (who wrote the file, and how) and maps its state dict onto a
torchvision ResNet-50 without `fc`, a timm ViT-B/16 or a timm BEiT v2 built with `num_classes=0`:
pick the nested dict that holds the weights, strip a wrapper prefix, drop heads and other
pretraining-only tensors, rename keys, and (BEiT only) adapt the structure. The result is checked
against the backbone's own keys and shapes: an unknown key, a missing key or a shape mismatch is a
ConversionError naming them, never a silent partial load. lib/registry/MODELS.md describes every
recipe and the checkpoints that use it.

The backbone returned by `empty_backbone` yields the registry's `feature` from its forward pass:
`pooled` (ResNet global average pool, 2048-d), `cls` (final-norm cls token) or `mean_tokens`
(mean of the patch tokens, through `fc_norm` for BEiT).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

RESNET = ("resnet50",)
VIT = ("vit_base_patch16_224",)
BEIT = ("beitv2_base_patch16_224",)
TIMM_GLOBAL_POOL = {"cls": "token", "mean_tokens": "avg"}
SHOWN_KEYS = 8


class ConversionError(ValueError):
    """A checkpoint whose keys or shapes do not fit the recipe and backbone it was given."""


@dataclass(frozen=True)
class Recipe:
    """How one source format maps onto a backbone state dict."""

    name: str
    source: str  # the format, in words
    architectures: tuple[str, ...]  # registry `architecture` values it maps onto
    nested: tuple[str, ...] = ()  # keys from the file's contents down to its state dict
    prefix: str = ""  # wrapper prefix, stripped from the keys that carry it
    drop: tuple[str, ...] = ()  # regexes matched at the start of a key (prefix stripped, before renames): discarded
    renames: tuple[tuple[str, str], ...] = ()  # regex substitutions, in order: source -> target names
    adapt: Callable[[dict[str, torch.Tensor], Mapping[str, torch.Tensor]], dict[str, torch.Tensor]] | None = None


def _beit_unilm_to_timm(
    state: dict[str, torch.Tensor], target: Mapping[str, torch.Tensor]
) -> dict[str, torch.Tensor]:
    """unilm BEiT -> timm BEiT: copy the shared relative-position table into every block, add a fresh fc_norm.

    BEiT v2 pre-trains with one relative-position bias table shared by all blocks; timm keeps one per
    block. timm's `global_pool='avg'` (the paper's `use_mean_pooling=True`) pools through `fc_norm`,
    which the pre-training checkpoint does not have: it gets LayerNorm's initial weight 1 and bias 0,
    exactly as the paper's freshly built model did (quirk `fc_norm_untrained`).
    """
    state = dict(state)
    shared = state.pop("rel_pos_bias.relative_position_bias_table", None)
    if shared is not None:
        for key in target:
            if key.endswith("attn.relative_position_bias_table"):
                state[key] = shared.clone()
    for name, init in (("weight", torch.ones_like), ("bias", torch.zeros_like)):
        key = f"fc_norm.{name}"
        if key in target and key not in state:
            state[key] = init(target[key])
    return state


_MMCLS_TO_TIMM_VIT = (
    (r"^layers\.(\d+)\.", r"blocks.\1."),
    (r"^patch_embed\.projection\.", "patch_embed.proj."),
    (r"\.ln1\.", ".norm1."),
    (r"\.ln2\.", ".norm2."),
    (r"^ln1\.", "norm."),
    (r"\.ffn\.layers\.0\.0\.", ".mlp.fc1."),
    (r"\.ffn\.layers\.1\.", ".mlp.fc2."),
)


def _mocov3(encoder: str, other: str) -> Recipe:
    return Recipe(
        name=f"mocov3_{encoder}",
        source=f"MoCo v3 training checkpoint ['state_dict'], module.{encoder}_encoder.* kept",
        architectures=RESNET + VIT,
        nested=("state_dict",),
        prefix=f"module.{encoder}_encoder.",
        drop=(rf"module\.{other}_encoder\.", r"module\.predictor\.", r"fc\.", r"head\."),
    )


RECIPES: dict[str, Recipe] = {
    r.name: r
    for r in (
        Recipe(
            "vissl_trunk", "VISSL checkpoint: classy_state_dict/base_model/model/trunk, _feature_blocks.*",
            RESNET, ("classy_state_dict", "base_model", "model", "trunk"), "_feature_blocks.",
        ),
        Recipe(
            "vissl_converted_numpy", "VISSL-converted legacy model: model_state_dict of numpy arrays, _feature_blocks.*",
            RESNET, ("model_state_dict",), "_feature_blocks.", (r"fc\.",),
        ),
        Recipe(
            "swav_module", "SwAV-repo checkpoint (SwAV, SeLa-v2, DeepCluster-v2): flat DDP state dict, module.*",
            RESNET, (), "module.", (r"projection_head\.", r"prototypes\."),
        ),
        Recipe(
            "moco_encoder_q", "MoCo v1/v2 checkpoint ['state_dict'], module.encoder_q.* kept",
            RESNET, ("state_dict",), "module.encoder_q.", (r"fc\.", r"module\.encoder_k\.", r"module\.queue"),
        ),
        _mocov3("momentum", "base"),
        _mocov3("base", "momentum"),
        Recipe(
            "mmselfsup_resnet", "MMSelfSup 1.x checkpoint ['state_dict'], backbone.* (torchvision names)",
            RESNET, ("state_dict",), "backbone.", (r"data_preprocessor\.", r"neck\.", r"head\."),
        ),
        Recipe(
            "byol_online_backbone", "yaox12/BYOL-PyTorch checkpoint ['online_backbone'], module.*",
            RESNET, ("online_backbone",), "module.",
        ),
        Recipe("state_dict_key", "checkpoint ['state_dict'] in torchvision names (DenseCL)", RESNET, ("state_dict",)),
        Recipe("plain", "the file is a flat torchvision state dict without fc (DINO RN-50)", RESNET),
        Recipe(
            "ibot_teacher", "iBOT checkpoint_teacher.pth ['state_dict'] in timm ViT names, plus the iBOT head",
            VIT, ("state_dict",), drop=(r"head\.",),
        ),
        Recipe(
            "mae_model", "MAE-repo checkpoint ['model'] in timm ViT names, plus mask token and decoder (MILAN)",
            VIT, ("model",), drop=(r"mask_token$", r"decoder"),
        ),
        Recipe(
            "mmselfsup_vit", "MMSelfSup 1.x checkpoint ['state_dict'], backbone.* in mmcls ViT names (EVA, PixMIM, MaskFeat)",
            VIT, ("state_dict",), "backbone.",
            (r"data_preprocessor\.", r"neck\.", r"head\.", r"target_generator\.", r"mask_token$"),
            _MMCLS_TO_TIMM_VIT,
        ),
        Recipe(
            "beit_unilm", "unilm BEiT v2 pre-training checkpoint ['model'] (q/v biases, layer scale, shared rel-pos table)",
            BEIT, ("model",),
            drop=(
                r"mask_token$", r"lm_head\.", r"cls_pt_layers\.", r"cls_pt_norm\.", r"cls_pt_lm_head\.", r"norm\.",
                r"rel_pos_bias\.relative_position_index$", r"blocks\.\d+\.attn\.relative_position_index$",
            ),
            adapt=_beit_unilm_to_timm,
        ),
    )
}


def recipe(name: str) -> Recipe:
    """The recipe called `name` (a clear error for an unknown name)."""
    if name not in RECIPES:
        raise KeyError(f"unknown key recipe {name!r}; known: {sorted(RECIPES)}")
    return RECIPES[name]


def _shown(keys: list[str]) -> str:
    more = f" and {len(keys) - SHOWN_KEYS} more" if len(keys) > SHOWN_KEYS else ""
    return ", ".join(keys[:SHOWN_KEYS]) + more


def source_state_dict(checkpoint: Mapping, r: Recipe) -> dict[str, torch.Tensor]:
    """The state dict inside a loaded checkpoint file, numpy arrays turned into tensors."""
    node = checkpoint
    for depth, key in enumerate(r.nested):
        if not isinstance(node, Mapping) or key not in node:
            where = "/".join(r.nested[:depth]) or "the top level"
            found = sorted(map(str, node)) if isinstance(node, Mapping) else type(node).__name__
            raise ConversionError(f"recipe {r.name}: no {key!r} under {where} of the checkpoint (found: {found})")
        node = node[key]
    if not isinstance(node, Mapping):
        raise ConversionError(f"recipe {r.name}: expected a state dict, found {type(node).__name__}")
    return {k: torch.from_numpy(np.array(v)) if isinstance(v, np.ndarray | np.generic) else v for k, v in node.items()}


def convert(checkpoint: Mapping, name: str, target: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Map a loaded checkpoint onto `target` (a backbone's state dict) with the recipe `name`.

    Raises ConversionError when a key is left over, a target key is not produced, or a shape differs.
    """
    r = recipe(name)
    state: dict[str, torch.Tensor] = {}
    for key, value in source_state_dict(checkpoint, r).items():
        if r.prefix and key.startswith(r.prefix):
            key = key[len(r.prefix):]
        if any(re.match(pattern, key) for pattern in r.drop):
            continue
        for pattern, replacement in r.renames:
            key = re.sub(pattern, replacement, key)
        state[key] = value
    if r.adapt is not None:
        state = r.adapt(state, target)
    unknown = sorted(set(state) - set(target))
    missing = sorted(set(target) - set(state))
    if unknown or missing:
        raise ConversionError(
            f"recipe {r.name} ({r.source}) does not fit this checkpoint: "
            + (f"keys not in the backbone: {_shown(unknown)}. " if unknown else "")
            + (f"backbone keys not in the checkpoint: {_shown(missing)}." if missing else "")
        )
    wrong = [
        f"{k} {tuple(getattr(state[k], 'shape', ()))} vs {tuple(target[k].shape)}"
        for k in target
        if not isinstance(state[k], torch.Tensor) or state[k].shape != target[k].shape
    ]
    if wrong:
        raise ConversionError(f"recipe {r.name}: checkpoint vs backbone shape mismatch: {_shown(wrong)}")
    return state


def empty_backbone(architecture: str, feature: str) -> nn.Module:
    """A randomly initialised backbone for a `url` row whose forward pass returns `feature`."""
    if architecture in RESNET:
        if feature != "pooled":
            raise ValueError(f"{architecture} yields the pooled feature, not {feature!r}")
        import torchvision

        model = torchvision.models.get_model(architecture, weights=None)
        model.fc = nn.Identity()
        return model
    if architecture in VIT + BEIT:
        if feature not in TIMM_GLOBAL_POOL:
            raise ValueError(f"{architecture} yields one of {sorted(TIMM_GLOBAL_POOL)}, not {feature!r}")
        import timm

        return timm.create_model(architecture, pretrained=False, num_classes=0, global_pool=TIMM_GLOBAL_POOL[feature])
    raise ValueError(f"no key recipe maps onto architecture {architecture!r}; known: {RESNET + VIT + BEIT}")
