"""LoRA (Hu et al., 2021) on the query and value projections of a ViT's fused q/k/v projection.

Both model families compute q, k and v with one fused weight whose rows are [q | k | v]:
- timm's ViT: `blocks[i].attn.qkv`, an nn.Linear. `LoRAQKV` wraps it.
- open_clip's VisionTransformer: `visual.transformer.resblocks[i].attn`, a torch
  nn.MultiheadAttention (or open_clip's own Attention) with an `in_proj_weight` Parameter of shape
  (3 d, d). `LoRAInProj` adds the update as a torch parametrization of that Parameter, so the
  attention's own forward runs unchanged. Found in a CLIP model or in a `ZeroShotClassifier`
  wrapping one (`model.model.visual...`); only the image tower is adapted.
The q and v row blocks get low-rank updates `scaling * B @ A` (A: rank x in, B: out x rank,
scaling = alpha / rank), the k block none. B starts at zero, so an adapted model computes exactly
what the original does until B moves. `merge_lora` folds the updates back in, giving a model with
the original state-dict keys (needed for WiSE-FT and soups).

Defaults follow the released ImageNet-RIB code (utils/lora.py: loralib's MergedLinear with
enable_lora=[True, False, True], r=8 and loralib's default lora_alpha=1, hence scaling 1/8; A
Kaiming-uniform, B zero). The paper (App. H.3) states rank 8 on query and value.
"""

from __future__ import annotations

import math
from typing import Sequence

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils import parametrize

from .linear_probe import NamePredicate, set_trainable

QKV_BLOCKS = ("q", "k", "v")
IN_PROJ = "in_proj_weight"


class QKVLowRank(nn.Module):
    """Trainable low-rank updates of some q/k/v row blocks of a fused (3 d, in) weight."""

    def __init__(self, weight: torch.Tensor, rank: int, alpha: float, targets: Sequence[str]) -> None:
        super().__init__()
        out_features, in_features = weight.shape
        if out_features % 3:
            raise ValueError(f"a fused qkv weight has 3 * dim rows, got {out_features}")
        unknown = set(targets) - set(QKV_BLOCKS)
        if unknown or not targets:
            raise ValueError(f"targets must be a non-empty subset of {QKV_BLOCKS}, got {tuple(targets)}")
        self.rank = rank
        self.scaling = alpha / rank
        self.targets = tuple(t for t in QKV_BLOCKS if t in targets)
        self.block, self.in_features = out_features // 3, in_features
        self.lora_A = nn.ParameterDict(
            {t: nn.Parameter(weight.new_empty(rank, in_features)) for t in self.targets}
        )
        self.lora_B = nn.ParameterDict({t: nn.Parameter(weight.new_zeros(self.block, rank)) for t in self.targets})
        for a in self.lora_A.values():
            nn.init.kaiming_uniform_(a, a=math.sqrt(5))

    def delta_weight(self) -> torch.Tensor:
        """The update added to the base weight: scaling * B @ A in the target row blocks, zero elsewhere."""
        zero = self.lora_B[self.targets[0]].new_zeros(self.block, self.in_features)
        parts = [self.lora_B[t] @ self.lora_A[t] * self.scaling if t in self.targets else zero for t in QKV_BLOCKS]
        return torch.cat(parts, dim=0)


class LoRAQKV(QKVLowRank):
    """A frozen fused qkv Linear (timm) plus trainable low-rank updates on some of its q/k/v row blocks."""

    def __init__(self, qkv: nn.Linear, rank: int = 8, alpha: float = 1.0, targets: Sequence[str] = ("q", "v")) -> None:
        super().__init__(qkv.weight, rank, alpha, targets)
        self.base = qkv
        self.base.requires_grad_(False)

    def merged_weight(self) -> torch.Tensor:
        return self.base.weight + self.delta_weight()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.linear(x, self.merged_weight(), self.base.bias)


class LoRAInProj(QKVLowRank):
    """A parametrization of an attention's `in_proj_weight` (open_clip): weight + the low-rank update."""

    def forward(self, weight: torch.Tensor) -> torch.Tensor:
        return weight + self.delta_weight()


def attention_blocks(model: nn.Module) -> tuple[str, nn.Module]:
    """The ViT blocks LoRA adapts and their qualified name: timm's `blocks`, or the open_clip image
    tower's `visual.transformer.resblocks` or, for towers open_clip takes from timm (SigLIP),
    `visual.trunk.blocks` (of a CLIP model or of a ZeroShotClassifier's `model`)."""
    if isinstance(getattr(model, "blocks", None), nn.Sequential | nn.ModuleList):
        return "blocks", model.blocks
    for prefix, clip in (("", model), ("model.", getattr(model, "model", None))):
        visual = getattr(clip, "visual", None)
        transformer = getattr(visual, "transformer", None)
        if isinstance(getattr(transformer, "resblocks", None), nn.ModuleList):
            return f"{prefix}visual.transformer.resblocks", transformer.resblocks
        trunk_blocks = getattr(getattr(visual, "trunk", None), "blocks", None)
        if isinstance(trunk_blocks, nn.Sequential | nn.ModuleList):
            return f"{prefix}visual.trunk.blocks", trunk_blocks
    raise ValueError(
        f"{type(model).__name__} has no ViT blocks for LoRA: expected a timm ViT (`blocks`) or an open_clip "
        "CLIP with a ViT image tower (`visual.transformer.resblocks`, also inside a ZeroShotClassifier); "
        "ResNet and ConvNeXt towers have no fused q/k/v projection"
    )


def apply_lora(
    model: nn.Module,
    rank: int = 8,
    alpha: float = 1.0,
    targets: Sequence[str] = ("q", "v"),
    extra_trainable: NamePredicate | None = None,
) -> list[str]:
    """Add LoRA to every ViT block's fused q/k/v projection and train only the LoRA factors.

    `extra_trainable` keeps more parameters trainable by name (the released code's choice is
    `linear_probe.released_code_vit_extras`). Returns the names of the adapted modules (timm: the
    `qkv` Linears; open_clip: the attentions whose `in_proj_weight` is parametrized).
    """
    prefix, blocks = attention_blocks(model)
    wrapped = []
    for index, block in enumerate(blocks):
        attn = block.attn
        if isinstance(getattr(attn, "qkv", None), nn.Linear):
            attn.qkv = LoRAQKV(attn.qkv, rank=rank, alpha=alpha, targets=targets)
            wrapped.append(f"{prefix}.{index}.attn.qkv")
        elif isinstance(getattr(attn, IN_PROJ, None), nn.Parameter):
            update = LoRAInProj(getattr(attn, IN_PROJ), rank, alpha, targets)
            parametrize.register_parametrization(attn, IN_PROJ, update)
            wrapped.append(f"{prefix}.{index}.attn")
        else:
            raise ValueError(f"block {prefix}.{index}'s attention has neither a fused `qkv` nn.Linear nor an "
                             f"`{IN_PROJ}` (separate q/k/v projections are not supported)")

    def trainable(parameter_name: str) -> bool:
        is_lora = ".lora_A." in parameter_name or ".lora_B." in parameter_name
        return is_lora or (extra_trainable is not None and extra_trainable(parameter_name))

    set_trainable(model, trainable)
    return wrapped


@torch.no_grad()
def merge_lora(model: nn.Module) -> nn.Module:
    """Fold every LoRA update into a plain weight (in place; returns `model`).

    timm: each `LoRAQKV` becomes an nn.Linear holding the merged weight; open_clip: each
    `in_proj_weight` parametrization is removed, leaving the merged value. Merged weights are frozen
    like the bases they replace; other parameters keep their flags.
    """
    for module in list(model.modules()):
        wrapper = getattr(module, "qkv", None)
        if isinstance(wrapper, LoRAQKV):
            base = wrapper.base
            merged = nn.Linear(base.in_features, base.out_features, bias=base.bias is not None,
                               device=base.weight.device, dtype=base.weight.dtype)
            merged.weight.copy_(wrapper.merged_weight())
            if base.bias is not None:
                merged.bias.copy_(base.bias)
            merged.requires_grad_(False)
            module.qkv = merged
        elif parametrize.is_parametrized(module, IN_PROJ) and any(
            isinstance(p, LoRAInProj) for p in module.parametrizations[IN_PROJ]
        ):
            parametrize.remove_parametrizations(module, IN_PROJ, leave_parametrized=True)
    return model
