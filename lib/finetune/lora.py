"""LoRA (Hu et al., 2021) on the query and value projections of timm's fused `qkv` Linear.

timm's attention computes q, k and v with one Linear whose output rows are [q | k | v]. `LoRAQKV`
wraps it: the q and v row blocks get low-rank updates `scaling * B @ A` (A: rank x in, B: out x rank,
scaling = alpha / rank), the k block none. B starts at zero, so a wrapped model computes exactly what
the original does until B moves. `merge_lora` folds the updates back into plain Linears, giving a
timm model with the original state-dict keys (needed for WiSE-FT and soups).

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

from .linear_probe import NamePredicate, set_trainable

QKV_BLOCKS = ("q", "k", "v")


class LoRAQKV(nn.Module):
    """A frozen fused qkv Linear plus trainable low-rank updates on some of its q/k/v row blocks."""

    def __init__(self, qkv: nn.Linear, rank: int = 8, alpha: float = 1.0, targets: Sequence[str] = ("q", "v")) -> None:
        super().__init__()
        if qkv.out_features % 3:
            raise ValueError(f"a fused qkv Linear has 3 * dim outputs, got {qkv.out_features}")
        unknown = set(targets) - set(QKV_BLOCKS)
        if unknown or not targets:
            raise ValueError(f"targets must be a non-empty subset of {QKV_BLOCKS}, got {tuple(targets)}")
        self.base = qkv
        self.rank = rank
        self.scaling = alpha / rank
        self.targets = tuple(t for t in QKV_BLOCKS if t in targets)
        block = qkv.out_features // 3
        weight = qkv.weight
        self.lora_A = nn.ParameterDict(
            {t: nn.Parameter(weight.new_empty(rank, qkv.in_features)) for t in self.targets}
        )
        self.lora_B = nn.ParameterDict({t: nn.Parameter(weight.new_zeros(block, rank)) for t in self.targets})
        for a in self.lora_A.values():
            nn.init.kaiming_uniform_(a, a=math.sqrt(5))
        for parameter in self.base.parameters():
            parameter.requires_grad_(False)

    def delta_weight(self) -> torch.Tensor:
        """The update added to the base weight: scaling * B @ A in the target row blocks, zero elsewhere."""
        block = self.base.out_features // 3
        zero = self.base.weight.new_zeros(block, self.base.in_features)
        parts = [self.lora_B[t] @ self.lora_A[t] * self.scaling if t in self.targets else zero for t in QKV_BLOCKS]
        return torch.cat(parts, dim=0)

    def merged_weight(self) -> torch.Tensor:
        return self.base.weight + self.delta_weight()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.linear(x, self.merged_weight(), self.base.bias)


def apply_lora(
    model: nn.Module,
    rank: int = 8,
    alpha: float = 1.0,
    targets: Sequence[str] = ("q", "v"),
    extra_trainable: NamePredicate | None = None,
) -> list[str]:
    """Wrap every attention's fused `qkv` Linear in `LoRAQKV` and train only the LoRA factors.

    `extra_trainable` keeps more parameters trainable by name (the released code's choice is
    `linear_probe.released_code_vit_extras`). Returns the names of the wrapped qkv modules.
    """
    wrapped = []
    for name, module in list(model.named_modules()):
        qkv = getattr(module, "qkv", None)
        if isinstance(qkv, nn.Linear):
            module.qkv = LoRAQKV(qkv, rank=rank, alpha=alpha, targets=targets)
            wrapped.append(f"{name}.qkv" if name else "qkv")
    if not wrapped:
        raise ValueError(f"{type(model).__name__} has no attention with a fused `qkv` nn.Linear")

    def trainable(parameter_name: str) -> bool:
        is_lora = ".lora_A." in parameter_name or ".lora_B." in parameter_name
        return is_lora or (extra_trainable is not None and extra_trainable(parameter_name))

    set_trainable(model, trainable)
    return wrapped


@torch.no_grad()
def merge_lora(model: nn.Module) -> nn.Module:
    """Replace every `LoRAQKV` by a plain Linear holding the merged weight (in place; returns `model`).

    The merged Linear is frozen like the base it replaces; other parameters keep their flags.
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
    return model
