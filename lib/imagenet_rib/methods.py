"""The fine-tuning methods of ImageNet-RIB as one dispatch over `lib.finetune`'s units.

Trained methods (`TRAINED`) fine-tune a copy of the pretrained classifier on one dataset with
`lib.train.loop.train`; post-hoc methods (`POST_HOC`) combine stored weights: WiSE-FT interpolates
pretrained and FT weights, the uniform soup averages PRE, FT, EWC and LwF (MS:PRE-FT-EWC-LwF).
A dataset's logit mask (its classes within the pretrained label space) applies to the training
loss, the distillation targets and the evaluation alike.

An `EpochHook` sees the model after every epoch of a method's (last) training stage and chooses the
model the method returns: `BestEpoch` keeps the epoch scoring best on held-out data (App. E), the
benchmark's per-epoch evaluation (Fig. 13) keeps the last.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import torch
import torch.nn.functional as F
from torch import nn

from ..finetune.interpolation import interpolate, uniform_soup
from ..finetune.linear_probe import linear_probe
from ..finetune.lora import apply_lora, attention_blocks, merge_lora
from ..finetune.lp_ft import lp_ft_stages
from ..finetune.lwf import frozen_teacher, lwf_loss
from ..finetune.prompter import PaddingPrompter, PromptedModel
from ..finetune.regularizers import diagonal_fisher, ewc_anchor, l2_anchor
from ..finetune.zeroshot import ZeroShotClassifier, clamp_logit_scale_, classifier_flyp_loss
from ..train.loop import Batches, TrainConfig, train

TRAINED = ("FT", "Linear Probing", "LP-FT", "Visual Prompt", "LoRA", "EWC", "EWC (L2, released code)", "LwF", "FLYP")
POST_HOC = ("WiSE-FT", "MS:PRE-FT-EWC-LwF")
METHODS = TRAINED + POST_HOC
ZERO_SHOT_METHODS = ("FLYP",)  # need a CLIP model with a zero-shot head (App. C)
SOUP_INGREDIENTS = ("FT", "EWC", "LwF")  # with the pretrained weights
SETTINGS_USED = {  # the MethodSettings each method reads (post-hoc: with those of its ingredients)
    "FT": (), "Linear Probing": (), "FLYP": (),
    "LP-FT": ("lp_epochs",),
    "Visual Prompt": ("prompt_lr", "prompt_pad"),
    "LoRA": ("lora_rank", "lora_alpha"),
    "EWC": ("ewc_coefficient", "ewc_fisher_labels", "ewc_fisher_images"),
    "EWC (L2, released code)": ("l2_coefficient",),
    "LwF": ("lwf_temperature", "lwf_weight"),
    "WiSE-FT": ("wise_alpha", "wise_alpha_convention"),
    "MS:PRE-FT-EWC-LwF": ("ewc_coefficient", "ewc_fisher_labels", "ewc_fisher_images", "lwf_temperature", "lwf_weight"),
}


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
    wise_alpha_convention: str  # "imagenet_rib" (Eq. 3: alpha weights the pretrained model) or "wise_ft"


class EpochHook(Protocol):
    """Called after each epoch; `chosen(last)` is the model the method returns (before LoRA's merge)."""

    def __call__(self, epoch: int, model: nn.Module) -> None: ...

    def chosen(self, last: nn.Module) -> nn.Module: ...


class BestEpoch:
    """Best-epoch selection (App. E): score the model after every epoch (`score`: e.g. accuracy on the
    held-out split) and keep a copy of the best one; the earlier epoch wins a tie."""

    def __init__(self, score: Callable[[nn.Module], float]) -> None:
        self.score = score
        self.best_score, self.epoch, self.model = -math.inf, 0, None

    def __call__(self, epoch: int, model: nn.Module) -> None:
        value = self.score(model)
        if value > self.best_score:
            self.best_score, self.epoch, self.model = value, epoch, copy.deepcopy(model)

    def chosen(self, last: nn.Module) -> nn.Module:
        if self.model is None:
            raise RuntimeError("BestEpoch saw no epoch")
        return self.model


def _clamp_logit_scales_(model: nn.Module) -> None:
    """Clamp the logit scale of every zero-shot CLIP head in `model` to [0, ln 100] (the released
    code does so after every step)."""
    for head in model.modules():
        if isinstance(head, ZeroShotClassifier):
            clamp_logit_scale_(head.model)


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
    epoch_hook: EpochHook | None = None,
) -> nn.Module:
    """Fine-tune a copy of `pretrained` with a trained method; returns a plain classifier.

    `epoch_hook` sees every epoch of the method's training (LP-FT: of its fine-tuning stage) and
    chooses the model returned."""
    if method not in TRAINED:
        raise ValueError(f"{method!r} is not a trained method; trained: {TRAINED}")
    device = torch.device(config.device)
    model = copy.deepcopy(pretrained).to(device)
    ce = _masked_ce(mask, config.label_smoothing)

    def fit(trained: nn.Module, loss: Callable = ce, run: TrainConfig = config) -> nn.Module:
        """The method's (last) training stage, through the epoch hook: the model it chooses."""
        zero_shot = any(isinstance(m, ZeroShotClassifier) for m in trained.modules())
        train(trained, batches, run, loss=loss, on_epoch_end=epoch_hook, after_step=_clamp_logit_scales_ if zero_shot else None)
        return trained if epoch_hook is None else epoch_hook.chosen(trained)

    if method == "FT":
        model = fit(model)
    elif method == "FLYP":
        if not isinstance(model, ZeroShotClassifier):
            raise ValueError("FLYP fine-tunes a CLIP model through its zero-shot head; got a plain classifier")
        model = fit(model, loss=classifier_flyp_loss)  # captions: each class's first template
    elif method == "Linear Probing":
        linear_probe(model)
        model = fit(model)
    elif method == "LP-FT":
        lp, ft = lp_ft_stages(model, lp_epochs=settings.lp_epochs, ft_epochs=config.epochs)
        lp.apply(model)
        train(model, batches, TrainConfig(**{**vars(config), "epochs": lp.epochs}), loss=ce)
        ft.apply(model)
        model = fit(model)
    elif method == "Visual Prompt":
        image_size, channels = _image_shape(batches)
        generator = torch.Generator().manual_seed(config.seed)
        prompted = PromptedModel(model, PaddingPrompter(image_size, settings.prompt_pad, channels, generator))
        return fit(prompted, run=TrainConfig(**{**vars(config), "base_lr": settings.prompt_lr, "weight_decay": 0.0}))
    elif method == "LoRA":
        attention_blocks(model)  # a clear error for a model without ViT blocks (the paper: ViTs only)
        apply_lora(model, rank=settings.lora_rank, alpha=settings.lora_alpha)
        model = fit(model)
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
        model = fit(model, loss=lambda m, x, y: ce(m, x, y) + anchor.penalty(m))
    else:  # LwF
        teacher = frozen_teacher(pretrained).to(device)

        def lwf(m: nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
            logits = m(x).float()
            with torch.no_grad():
                target = teacher(x).float()
            distill = lwf_loss(logits, target, settings.lwf_temperature, logit_mask=mask.to(logits.device) if mask is not None else None)
            return ce(m, x, y) + settings.lwf_weight * distill

        model = fit(model, loss=lwf)
    model.requires_grad_(True)
    return model


def post_hoc(method: str, pretrained: nn.Module, weights: dict[str, dict[str, torch.Tensor]], settings: MethodSettings) -> nn.Module:
    """WiSE-FT (α = `wise_alpha` under `wise_alpha_convention`: `lib.finetune.interpolation`) or the
    uniform soup, from stored weights."""
    model = copy.deepcopy(pretrained)
    if method == "WiSE-FT":
        model.load_state_dict(interpolate(pretrained.state_dict(), weights["FT"], settings.wise_alpha,
                                          settings.wise_alpha_convention))
    elif method == "MS:PRE-FT-EWC-LwF":
        model.load_state_dict(uniform_soup([pretrained.state_dict(), *(weights[m] for m in SOUP_INGREDIENTS)]))
    else:
        raise ValueError(f"{method!r} is not a post-hoc method; post-hoc: {POST_HOC}")
    return model


def _image_shape(batches: Batches) -> tuple[int, int]:
    images, _ = next(iter(batches))
    return images.shape[-1], images.shape[1]
