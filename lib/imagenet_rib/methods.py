"""The fine-tuning methods of ImageNet-RIB as one dispatch over `lib.finetune`'s units.

Trained methods (`TRAINED`) fine-tune a copy of the pretrained classifier on one dataset with
`lib.train.loop.train`; post-hoc methods (`POST_HOC`) combine stored weights: WiSE-FT interpolates
pretrained and FT weights, the uniform soup averages PRE, FT, EWC and LwF (MS:PRE-FT-EWC-LwF).
A dataset's logit mask (its classes within the pretrained label space) applies to the training
loss, the distillation targets and the evaluation alike.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from ..finetune.interpolation import interpolate, uniform_soup
from ..finetune.linear_probe import linear_probe
from ..finetune.lora import apply_lora, merge_lora
from ..finetune.lp_ft import lp_ft_stages
from ..finetune.lwf import frozen_teacher, lwf_loss
from ..finetune.prompter import PaddingPrompter, PromptedModel
from ..finetune.regularizers import diagonal_fisher, ewc_anchor, l2_anchor
from ..train.loop import Batches, TrainConfig, train

TRAINED = ("FT", "Linear Probing", "LP-FT", "Visual Prompt", "LoRA", "EWC", "EWC (L2, released code)", "LwF")
POST_HOC = ("WiSE-FT", "MS:PRE-FT-EWC-LwF")
METHODS = TRAINED + POST_HOC
SOUP_INGREDIENTS = ("FT", "EWC", "LwF")  # with the pretrained weights


@dataclass(frozen=True)
class MethodSettings:
    """Hyper-parameters of the methods (params: the `methods` block of the benchmark file)."""

    prompt_lr: float
    prompt_pad: int
    lora_rank: int
    lora_alpha: float
    ewc_coefficient: float
    ewc_fisher_labels: str
    ewc_fisher_images: int  # reference images the Fisher is estimated from (a seeded subset)
    l2_coefficient: float
    lwf_temperature: float
    lwf_weight: float
    lp_epochs: int
    wise_alpha: float


def masked(logits: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
    """Logits with the classes outside `mask` (a boolean vector over outputs) set to -inf."""
    return logits if mask is None else logits.masked_fill(~mask.to(logits.device), float("-inf"))


def _masked_ce(mask: torch.Tensor | None, label_smoothing: float = 0.0) -> Callable:
    def loss(model: nn.Module, inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        logits = model(inputs).float()
        if mask is not None:  # -inf logits would make label smoothing infinite: keep only the present classes
            index = mask.nonzero().squeeze(1).to(logits.device)
            remap = torch.full((len(mask),), -1, dtype=torch.long, device=logits.device)
            remap[index] = torch.arange(len(index), device=logits.device)
            return F.cross_entropy(logits[:, index], remap[targets], label_smoothing=label_smoothing)
        return F.cross_entropy(logits, targets, label_smoothing=label_smoothing)
    return loss


def train_method(
    method: str,
    pretrained: nn.Module,
    batches: Batches,
    config: TrainConfig,
    settings: MethodSettings,
    mask: torch.Tensor | None,
    fisher_batches: Batches | None = None,
) -> nn.Module:
    """Fine-tune a copy of `pretrained` with a trained method; returns a plain classifier."""
    if method not in TRAINED:
        raise ValueError(f"{method!r} is not a trained method; trained: {TRAINED}")
    device = torch.device(config.device)
    model = copy.deepcopy(pretrained).to(device)
    ce = _masked_ce(mask, config.label_smoothing)
    if method == "FT":
        train(model, batches, config, loss=ce)
    elif method == "Linear Probing":
        linear_probe(model)
        train(model, batches, config, loss=ce)
    elif method == "LP-FT":
        for stage in lp_ft_stages(model, lp_epochs=settings.lp_epochs, ft_epochs=config.epochs):
            stage.apply(model)
            train(model, batches, TrainConfig(**{**vars(config), "epochs": stage.epochs}), loss=ce)
    elif method == "Visual Prompt":
        image_size, channels = _image_shape(batches)
        generator = torch.Generator().manual_seed(config.seed)
        prompted = PromptedModel(model, PaddingPrompter(image_size, settings.prompt_pad, channels, generator))
        train(prompted, batches, TrainConfig(**{**vars(config), "base_lr": settings.prompt_lr, "weight_decay": 0.0}), loss=ce)
        return prompted
    elif method == "LoRA":
        if not hasattr(model, "blocks"):
            raise ValueError("LoRA targets the fused qkv of ViT blocks; the paper does not apply it to ResNets")
        apply_lora(model, rank=settings.lora_rank, alpha=settings.lora_alpha)
        train(model, batches, config, loss=ce)
        merge_lora(model)
    elif method in ("EWC", "EWC (L2, released code)"):
        if method == "EWC":
            if fisher_batches is None:
                raise ValueError("EWC needs batches of the pretraining data for its Fisher information")
            on_device = ((x.to(device), y.to(device)) for x, y in fisher_batches)
            generator = torch.Generator(device=device).manual_seed(config.seed)  # sampled labels: repeatable
            fisher = diagonal_fisher(model, on_device, labels=settings.ewc_fisher_labels, generator=generator)
            anchor = ewc_anchor(model, fisher, settings.ewc_coefficient)
        else:
            anchor = l2_anchor(model, settings.l2_coefficient)
        train(model, batches, config, loss=lambda m, x, y: ce(m, x, y) + anchor.penalty(m))
    else:  # LwF
        teacher = frozen_teacher(pretrained).to(device)

        def lwf(m: nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
            logits = m(x).float()
            with torch.no_grad():
                target = teacher(x).float()
            distill = lwf_loss(logits, target, settings.lwf_temperature, logit_mask=mask.to(logits.device) if mask is not None else None)
            return ce(m, x, y) + settings.lwf_weight * distill

        train(model, batches, config, loss=lwf)
    model.requires_grad_(True)
    return model


def post_hoc(method: str, pretrained: nn.Module, weights: dict[str, dict[str, torch.Tensor]], settings: MethodSettings) -> nn.Module:
    """WiSE-FT (α = `wise_alpha`, 0 = pretrained, 1 = fine-tuned) or the uniform soup, from stored weights."""
    model = copy.deepcopy(pretrained)
    if method == "WiSE-FT":
        model.load_state_dict(interpolate(pretrained.state_dict(), weights["FT"], settings.wise_alpha))
    elif method == "MS:PRE-FT-EWC-LwF":
        model.load_state_dict(uniform_soup([pretrained.state_dict(), *(weights[m] for m in SOUP_INGREDIENTS)]))
    else:
        raise ValueError(f"{method!r} is not a post-hoc method; post-hoc: {POST_HOC}")
    return model


def _image_shape(batches: Batches) -> tuple[int, int]:
    images, _ = next(iter(batches))
    return images.shape[-1], images.shape[1]
