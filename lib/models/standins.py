"""Named random-init stand-ins for the `tiny` and `mini` tiers.

They run the same code paths as the papers' models (timm ViT with a fused qkv, timm ResNet with
BatchNorm, an open_clip CLIP with image and text towers) at a size a CPU trains in seconds. They
are never pretrained and never stand for a result of the papers' models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from torch import nn


def _tiny_vit(num_classes: int, image_size: int, in_chans: int) -> nn.Module:
    from timm.models.vision_transformer import VisionTransformer

    return VisionTransformer(
        img_size=image_size, patch_size=max(image_size // 4, 1), in_chans=in_chans, num_classes=num_classes,
        embed_dim=48, depth=2, num_heads=3, mlp_ratio=2.0,
    )


def _tiny_resnet(num_classes: int, image_size: int, in_chans: int) -> nn.Module:
    from timm.models.resnet import BasicBlock, ResNet

    # A quarter of ResNet-18's widths: 0.3 M parameters instead of 4.9 M, about three times faster to train
    # on a CPU, and still far more than the 16-pixel digits need.
    return ResNet(block=BasicBlock, layers=[1, 1, 1, 1], num_classes=num_classes, in_chans=in_chans,
                  channels=(16, 32, 64, 128), stem_width=16)


def _clip(layers: int, width: int) -> Callable[[int, int, int], nn.Module]:
    """A builder of an open_clip CLIP whose image tower has `layers` blocks of `width` (heads of width 16);
    the text tower is the same at every size."""
    def build(num_classes: int, image_size: int, in_chans: int) -> nn.Module:
        from open_clip.model import CLIP, CLIPTextCfg, CLIPVisionCfg

        if in_chans != 3:
            raise ValueError("the CLIP stand-ins take RGB images (in_chans=3)")
        vision = CLIPVisionCfg(layers=layers, width=width, head_width=16, patch_size=max(image_size // 4, 1),
                               image_size=image_size)
        text = CLIPTextCfg(context_length=16, vocab_size=49408, width=32, heads=2, layers=2)
        return CLIP(embed_dim=32, vision_cfg=vision, text_cfg=text)
    return build


STANDINS: dict[str, tuple[str, Callable[[int, int, int], nn.Module]]] = {
    "tiny_vit": ("timm VisionTransformer, 2 blocks, width 48 (stands in for ViT-B/16, ViT-S, ViT-L)", _tiny_vit),
    "tiny_resnet": ("timm ResNet, one BasicBlock per stage, widths 16-128 (stands in for ResNet-18/50)", _tiny_resnet),
    "tiny_clip": ("open_clip CLIP, 2-block image and text towers (stands in for CLIP models)", _clip(2, 48)),
    # the rungs of a backbone ladder at fixed data (CounterAnimal's Fig. 7): a smaller and a larger image tower
    "tiny_clip_small": ("open_clip CLIP, 1-block image tower of width 32 (a smaller CLIP backbone)", _clip(1, 32)),
    "tiny_clip_large": ("open_clip CLIP, 3-block image tower of width 64 (a larger CLIP backbone)", _clip(3, 64)),
}


def build_standin(name: str, num_classes: int = 10, image_size: int = 32, in_chans: int = 3, seed: int = 0) -> nn.Module:
    """A random-init stand-in; the same (name, sizes, seed) always gives the same weights."""
    import torch

    if name not in STANDINS:
        raise KeyError(f"unknown stand-in {name!r}; available: {sorted(STANDINS)}")
    generator_state = torch.random.get_rng_state()
    torch.manual_seed(seed)
    try:
        return STANDINS[name][1](num_classes, image_size, in_chans)
    finally:
        torch.random.set_rng_state(generator_state)
