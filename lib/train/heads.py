"""Backbone + classification head: the representation the protocols read, BN heads, frozen backbones.

`embed` returns the representation the ssl_protocols paper probes (App. E): for a timm model the
pre-logits of `forward_head` (the CLS token for a ViT with `global_pool="token"`, mean-pooled
tokens with `"avg"`, the pooled 2048-d vector of a ResNet-50); for a torchvision ResNet the
global-average-pooled output of its last stage.
"""

from __future__ import annotations

import torch
from torch import nn


def embed(backbone: nn.Module, images: torch.Tensor) -> torch.Tensor:
    """The pooled representation of `images` (batch × features)."""
    if hasattr(backbone, "forward_head") and hasattr(backbone, "forward_features"):
        return backbone.forward_head(backbone.forward_features(images), pre_logits=True)
    from torchvision.models import ResNet

    if isinstance(backbone, ResNet):
        stem = nn.Sequential(backbone.conv1, backbone.bn1, backbone.relu, backbone.maxpool)
        x = stem(images)
        for stage in (backbone.layer1, backbone.layer2, backbone.layer3, backbone.layer4):
            x = stage(x)
        return torch.flatten(backbone.avgpool(x), 1)
    raise TypeError(f"no representation rule for {type(backbone).__name__}: expected a timm model or a torchvision ResNet")


def feature_dim(backbone: nn.Module) -> int:
    """Width of `embed(backbone, ·)`."""
    if hasattr(backbone, "num_features"):
        return int(backbone.num_features)
    if hasattr(backbone, "fc") and isinstance(backbone.fc, nn.Linear):
        return backbone.fc.in_features
    raise TypeError(f"cannot tell the feature width of {type(backbone).__name__}")


def linear_head(in_features: int, num_classes: int, batchnorm: bool) -> nn.Module:
    """A linear classifier, optionally behind a BatchNorm without affine parameters (MAE's LP head)."""
    linear = nn.Linear(in_features, num_classes)
    if not batchnorm:
        return linear
    return nn.Sequential(nn.BatchNorm1d(in_features, affine=False, eps=1e-6), linear)


class Classifier(nn.Module):
    """`head(embed(backbone, x))`. With `frozen_backbone`, the backbone's parameters take no
    gradient and its BatchNorm statistics stay fixed: it remains in eval mode under `train()`."""

    def __init__(self, backbone: nn.Module, num_classes: int, batchnorm_head: bool = False, frozen_backbone: bool = False) -> None:
        super().__init__()
        self.backbone = backbone
        self.head = linear_head(feature_dim(backbone), num_classes, batchnorm_head)
        self.frozen_backbone = frozen_backbone
        if frozen_backbone:
            backbone.requires_grad_(False)

    def train(self, mode: bool = True) -> "Classifier":
        super().train(mode)
        if self.frozen_backbone:
            self.backbone.eval()
        return self

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return self.head(embed(self.backbone, images))


def set_drop_path(vit: nn.Module, rate: float) -> None:
    """Stochastic depth on a timm ViT: block i of n drops its residual branches with rate·i/(n-1)."""
    from timm.layers import DropPath

    blocks = list(vit.blocks)
    for i, block in enumerate(blocks):
        block_rate = rate * i / max(len(blocks) - 1, 1)
        for name in ("drop_path1", "drop_path2"):
            setattr(block, name, DropPath(block_rate) if block_rate > 0 else nn.Identity())


def vit_layer_id(name: str, depth: int) -> int:
    """Layer of a timm ViT parameter in the MAE/BEiT rule: embeddings 0, block i → i + 1, the rest depth + 1."""
    if name.startswith(("cls_token", "reg_token", "pos_embed", "patch_embed", "mask_token")):
        return 0
    if name.startswith("blocks."):
        return int(name.split(".")[1]) + 1
    return depth + 1


def layer_decay_groups(model: Classifier, layer_decay: float, weight_decay: float) -> list[dict]:
    """Parameter groups with layer-wise lr decay for a timm ViT backbone (MAE/BEiT rule): a parameter
    of layer l gets lr × decay^(depth + 1 - l), so the final norm and the new head train at the full
    lr, block i at decay^(depth - i), the embeddings at decay^(depth + 1). 1-D parameters get no
    weight decay."""
    depth = len(model.backbone.blocks)
    groups: dict[tuple[int, bool], dict] = {}
    named = [(f"backbone.{n}", p) for n, p in model.backbone.named_parameters()] + [(f"head.{n}", p) for n, p in model.head.named_parameters()]
    for name, parameter in named:
        if not parameter.requires_grad:
            continue
        layer = vit_layer_id(name.removeprefix("backbone."), depth) if name.startswith("backbone.") else depth + 1
        decays = parameter.ndim > 1
        group = groups.setdefault((layer, decays), {
            "params": [], "weight_decay": weight_decay if decays else 0.0, "lr_scale": layer_decay ** (depth + 1 - layer),
        })
        group["params"].append(parameter)
    return [groups[key] for key in sorted(groups)]
