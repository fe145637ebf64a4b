"""Evaluation transforms of the registered models, by the registry's `preprocess` column.

- `imagenet_default`: resize the short side to 256 (bilinear), centre-crop 224, ImageNet mean/std
  (the linear-evaluation transform of the self-supervised checkpoints' own repositories);
- `timm_config`: the model's pretrained config as timm resolves it (size, crop, interpolation, mean/std);
- `open_clip`: open_clip's eval transform at the tower's image size with OpenAI's mean/std;
- `torchvision`: the transform bundled with the row's torchvision weights enum.
"""

from __future__ import annotations

from typing import Callable

from torch import nn

from .normalisation import IMAGENET_MEAN, IMAGENET_STD
PREPROCESS = ("imagenet_default", "timm_config", "open_clip", "torchvision")


def eval_transform(preprocess: str, model: nn.Module | None = None, weights: str | None = None) -> Callable:
    """The eval transform for a `preprocess` rule; `timm_config` and `open_clip` read the model,
    `torchvision` the weights name (e.g. `ResNet50_Weights.IMAGENET1K_V2`)."""
    if preprocess == "imagenet_default":
        from torchvision import transforms

        return transforms.Compose([
            transforms.Resize(256), transforms.CenterCrop(224), transforms.ToTensor(),
            transforms.Normalize(IMAGENET_MEAN, IMAGENET_STD),
        ])
    if preprocess == "timm_config":
        from timm.data import create_transform, resolve_data_config

        return create_transform(**resolve_data_config({}, model=model))
    if preprocess == "open_clip":  # the model's own preprocess config (SigLIP: mean and std 0.5, not OpenAI's)
        from open_clip import get_model_preprocess_cfg
        from open_clip.transform import PreprocessCfg, image_transform_v2

        return image_transform_v2(PreprocessCfg(**get_model_preprocess_cfg(model)), is_train=False)
    if preprocess == "torchvision":
        import torchvision

        return torchvision.models.get_weight(weights).transforms()
    raise ValueError(f"unknown preprocess rule {preprocess!r}; expected one of {PREPROCESS}")
