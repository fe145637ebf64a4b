"""The 12 from-scratch architectures of Table 7 (Conv-n, Dense-n, Res-n, n = 1..4), built as the official
code builds them (`model_classes/*_with_dropout.py`), and Table 7's way of counting their parameters.

Every model is stem → blocks → head, with element-wise dropout after the stem and after every block
(training only; `forward(x, dropout)`):

* **Stem** (all): Conv 7×7/2 (3 → 64, no bias) → BN → ReLU → MaxPool 3×3/2 (32 px input → 8 px).
* **Blocks**: channels and strides by `block_plan` (n ≤ 3: stride 2 everywhere; n = 4: [1, 2, 2, 2]).
  Conv-n: a block is Conv 3×3 (no bias) → BN, with no ReLU. Res-n: a block is two torchvision
  `BasicBlock`s, the first with a 1×1 conv + BN downsample when stride or channels change. Dense-n:
  torchvision `_DenseBlock` (bn_size 4, growth 32) with 16 / 6,16 / 6,12,16 / 6,12,24,16 layers, a
  `_Transition` (halve the features, 2×2 average pool) after every block but the last.
* **Head**: AdaptiveAvgPool → Flatten → Linear (DenseNet: BN → ReLU first).

Table 7 counts conv and linear weights and biases only, leaving out BatchNorm parameters and the
ResNet downsample convolutions (the official `get_param_vec`); `all_parameters` counts everything.
Torch is imported here only, so that `lib.seq_to_final` stays torch-free.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from torchvision.models.densenet import _DenseBlock, _Transition
from torchvision.models.resnet import BasicBlock

from .tables import ARCHITECTURES

STEM_CHANNELS = 64
GROWTH_RATE = 32
BN_SIZE = 4
DENSE_LAYERS = {1: (16,), 2: (6, 16), 3: (6, 12, 16), 4: (6, 12, 24, 16)}
BASIC_BLOCKS_PER_RESIDUAL_BLOCK = 2
FAMILIES = ("Conv", "Dense", "Res")


@dataclass(frozen=True)
class BlockPlan:
    """Input and output channels and the stride of each block of a Conv-n or Res-n model."""

    input_dims: tuple[int, ...]
    output_dims: tuple[int, ...]
    strides: tuple[int, ...]


def block_plan(n_blocks: int) -> BlockPlan:
    """The official channel and stride schedule: 64→512 (n=1), 64→128→512, 64→128→256→512,
    64→64→128→256→512 (n=4, extra blocks of 512); stride 1 for the first n − 3 blocks, else 2."""
    if n_blocks < 1:
        raise ValueError(f"a model needs at least one block, got {n_blocks}")
    outputs = {1: (512,), 2: (128, 512), 3: (128, 256, 512)}.get(n_blocks)
    if outputs is None:
        outputs = (64, 128, 256) + (512,) * (n_blocks - 3)
    strides = (1,) * max(n_blocks - 3, 0) + (2,) * min(n_blocks, 3)
    return BlockPlan((STEM_CHANNELS, *outputs[:-1]), outputs, strides)


def _stem() -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(3, STEM_CHANNELS, kernel_size=7, stride=2, padding=3, bias=False),
        nn.BatchNorm2d(STEM_CHANNELS), nn.ReLU(inplace=True), nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
    )


def _linear_head(features: int, num_classes: int, norm: bool = False) -> nn.Sequential:
    prefix = [nn.BatchNorm2d(features), nn.ReLU(inplace=True)] if norm else []
    return nn.Sequential(*prefix, nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(features, num_classes))


def _conv_blocks(plan: BlockPlan) -> list[nn.Module]:
    return [
        nn.Sequential(nn.Conv2d(i, o, kernel_size=3, stride=s, padding=1, bias=False), nn.BatchNorm2d(o))
        for i, o, s in zip(plan.input_dims, plan.output_dims, plan.strides)
    ]


def _residual_blocks(plan: BlockPlan) -> list[nn.Module]:
    blocks = []
    for i, o, s in zip(plan.input_dims, plan.output_dims, plan.strides):
        downsample = None if (s == 1 and i == o) else nn.Sequential(
            nn.Conv2d(i, o, kernel_size=1, stride=s, bias=False), nn.BatchNorm2d(o))
        rest = [BasicBlock(o, o) for _ in range(BASIC_BLOCKS_PER_RESIDUAL_BLOCK - 1)]
        blocks.append(nn.Sequential(BasicBlock(i, o, s, downsample), *rest))
    return blocks


def _dense_blocks(layers: tuple[int, ...]) -> tuple[list[nn.Module], int]:
    """The dense blocks (each but the last followed by a transition) and the features they output."""
    blocks, features = [], STEM_CHANNELS
    for index, n_layers in enumerate(layers):
        block = _DenseBlock(num_layers=n_layers, num_input_features=features, bn_size=BN_SIZE,
                            growth_rate=GROWTH_RATE, drop_rate=0)
        features += GROWTH_RATE * n_layers
        if index < len(layers) - 1:
            block = nn.Sequential(block, _Transition(features, features // 2))
            features //= 2
        blocks.append(block)
    return blocks, features


class SeqToFinalNet(nn.Module):
    """Stem, blocks and head, with functional dropout after the stem and every block while training."""

    def __init__(self, name: str, stem: nn.Module, blocks: list[nn.Module], head: nn.Module) -> None:
        super().__init__()
        self.name = name
        self.stem = stem
        self.blocks = nn.ModuleList(blocks)
        self.head = head

    def forward(self, x: torch.Tensor, dropout: float = 0.0) -> torch.Tensor:
        out = self.stem(x)
        for block in (None, *self.blocks):
            if block is not None:
                out = block(out)
            if self.training and dropout > 0:
                out = nn.functional.dropout(out, dropout)
        return self.head(out)


def build(name: str, num_classes: int = 10) -> SeqToFinalNet:
    """One of the 12 architectures by its Table 7 name ('Conv-1' … 'Res-4'), randomly initialised."""
    family, _, n = name.partition("-")
    if family not in FAMILIES or not n.isdigit():
        raise ValueError(f"unknown architecture {name!r}; expected one of {ARCHITECTURES}")
    n_blocks = int(n)
    if family == "Dense":
        if n_blocks not in DENSE_LAYERS:
            raise ValueError(f"Dense-n is defined for n = 1..4, got {name!r}")
        blocks, features = _dense_blocks(DENSE_LAYERS[n_blocks])
        return SeqToFinalNet(name, _stem(), blocks, _linear_head(features, num_classes, norm=True))
    plan = block_plan(n_blocks)
    blocks = _conv_blocks(plan) if family == "Conv" else _residual_blocks(plan)
    return SeqToFinalNet(name, _stem(), blocks, _linear_head(plan.output_dims[-1], num_classes))


def table7_names(model: nn.Module) -> list[str]:
    """The parameters Table 7 counts (the official `get_param_vec`): conv and linear weights and biases,
    without BatchNorm and without the ResNet downsample convolutions."""
    return [f"{module_name}.{name}" if module_name else name
            for module_name, module in model.named_modules()
            if isinstance(module, (nn.Conv2d, nn.Linear)) and ".downsample." not in f".{module_name}."
            for name, _ in module.named_parameters(recurse=False)]


def table7_parameters(model: nn.Module) -> int:
    """Parameters as Table 7 counts them (`table7_names`)."""
    parameters = dict(model.named_parameters())
    return sum(parameters[name].numel() for name in table7_names(model))


def all_parameters(model: nn.Module) -> int:
    """Every trainable parameter (BatchNorm affine and downsample convolutions included)."""
    return sum(p.numel() for p in model.parameters())


def parameter_counts(num_classes: int = 10) -> list[dict[str, int | str]]:
    """For each of the 12 architectures: Table 7's count and the count of every parameter."""
    rows = []
    for name in ARCHITECTURES:
        model = build(name, num_classes)
        rows.append({"model": name, "table7_convention": table7_parameters(model),
                     "all_parameters": all_parameters(model)})
    return rows
