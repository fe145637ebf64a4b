"""CLIP models with a zero-shot head through open_clip, and the small tiers' tiny CLIP.

Full tier: an open_clip registry row with `tokenizer_for(key)` and
`zero_shot_classifier(model, tokenizer, imagenet_class_names(), templates)` (template sets:
`TEMPLATE_SETS`, from `lib.finetune.templates`). A head over other class names on the same towers
is `ZeroShotClassifier.with_class_tokens`.

Small tiers: `tiny_clip` is the random-init `tiny_clip` stand-in whose image tower reads grey
images (N, 1, size, size) directly: its RGB patch embedding is replaced by a one-channel one
holding the sum of the RGB kernels, i.e. it computes what the RGB tower computes on the grey image
repeated to three channels (the way timm adapts pretrained stems to `in_chans=1`).
`pretrain_clip` is the miniature "CLIP pretraining": the CLIP contrastive loss on image-caption
pairs whose caption is a template filled with the image's class name (e.g. `DIGIT_CLASS_NAMES`).
"""

from __future__ import annotations

from typing import Literal, Sequence

import open_clip
import torch
from open_clip.tokenizer import SimpleTokenizer
from torch import nn

from ..data.embedded import DIGIT_CLASS_NAMES  # noqa: F401  (the tiny CLIPs' class names, named here too)
from ..finetune.zeroshot import (
    Tokenizer,
    ZeroShotClassifier,
    clamp_logit_scale_,
    flyp_loss,
    tokenize_prompts,
)
from ..train.loop import tensor_batches, train
from ..train.config import TrainConfig
from .registry import OPEN_CLIP_FILE, WeightsMissingError, spec
from .standins import build_standin


def imagenet_class_names() -> list[str]:
    """The 1000 ImageNet-1K class names in CLIP's wording, in label order (from open_clip, offline)."""
    return list(open_clip.zero_shot_metadata.IMAGENET_CLASSNAMES)


def open_clip_name(registry_key: str) -> str:
    """open_clip's model name of a registry row (an open_clip row, or a url row open_clip reads itself)."""
    s = spec(registry_key)
    if s.library == "open_clip":
        return s.name
    if s.key_recipe == OPEN_CLIP_FILE:
        return s.architecture
    raise ValueError(f"model {registry_key} is a {s.library} model, not an open_clip CLIP")


def tokenizer_for(registry_key: str) -> Tokenizer:
    """open_clip's tokenizer of a registry row.

    CLIP's BPE tokenizer ships with open_clip; SigLIP's are Hugging Face tokenizers, which need the
    `transformers` package and the tokenizer files in the HF cache: WeightsMissingError when either is
    missing (offline, nothing can be downloaded).
    """
    name = open_clip_name(registry_key)
    try:
        return open_clip.get_tokenizer(name)
    except (ImportError, OSError) as error:
        hf_name = (open_clip.get_model_config(name) or {}).get("text_cfg", {}).get("hf_tokenizer_name", "")
        raise WeightsMissingError(
            f"the tokenizer of {registry_key} (open_clip {name}) is a Hugging Face tokenizer ({hf_name}) that "
            f"could not be loaded: {type(error).__name__}: {str(error)[:200]}. Install `transformers` and, on a "
            f"machine with internet, fetch it into the HF cache (HF_HOME), e.g. "
            f"`transformers.AutoTokenizer.from_pretrained('{hf_name}')`."
        ) from error


def zero_shot_classifier(
    clip_model: nn.Module,
    tokenizer: Tokenizer,
    class_names: Sequence[str],
    templates: Sequence[str],
    text_tower: Literal["trainable", "frozen"] = "trainable",
) -> ZeroShotClassifier:
    """The zero-shot head over `class_names` (prompts: every template of each name) on `clip_model`."""
    return ZeroShotClassifier(clip_model, tokenize_prompts(tokenizer, class_names, templates), text_tower)


def tiny_clip(image_size: int, seed: int) -> tuple[nn.Module, SimpleTokenizer]:
    """The random-init tiny CLIP for grey (N, 1, size, size) images, and its BPE tokenizer.

    Deterministic by seed; the tokenizer's context length is the model's (16 tokens).
    """
    model = build_standin("tiny_clip", image_size=image_size, seed=seed)
    rgb = model.visual.conv1
    grey = nn.Conv2d(1, rgb.out_channels, rgb.kernel_size, rgb.stride, bias=rgb.bias is not None)
    with torch.no_grad():
        grey.weight.copy_(rgb.weight.sum(dim=1, keepdim=True))
        if rgb.bias is not None:
            grey.bias.copy_(rgb.bias)
    model.visual.conv1 = grey
    return model, SimpleTokenizer(context_length=model.context_length)


def pretrain_clip(
    model: nn.Module,
    tokenizer: Tokenizer,
    images: torch.Tensor,
    labels: torch.Tensor,
    class_names: Sequence[str],
    template: str,
    config: TrainConfig,
) -> list[float]:
    """Train `model` in place with the CLIP loss on (image, `template` filled with its class name) pairs.

    Same-class images in a batch count as negatives of each other's caption (`flyp_loss`). The logit
    scale is clamped to [0, ln 100] after every step as in CLIP. Returns the mean loss of each epoch.
    """
    if len(labels) != len(images):
        raise ValueError(f"{len(images)} images but {len(labels)} labels")
    if labels.min() < 0 or labels.max() >= len(class_names):
        raise ValueError(f"labels must lie in [0, {len(class_names)}), got [{labels.min()}, {labels.max()}]")
    captions = tokenize_prompts(tokenizer, class_names, [template])[:, 0].to(config.device)

    return train(model, tensor_batches(images, labels, config.batch_size, config.seed), config,
                 loss=lambda m, x, y: flyp_loss(m, x, y, captions), after_step=clamp_logit_scale_)
