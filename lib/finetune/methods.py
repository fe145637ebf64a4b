"""Fine-tuning methods run over `lib.finetune`'s units: the methods of `lib.finetune.method_table`.

A trained method fine-tunes through its trainer (`TRAINERS`, by name; `train_method` runs it on a copy
of the pretrained classifier with `lib.train.loop.train`); a post-hoc method combines stored weights
(`COMBINERS`, by its `combination`; `post_hoc` runs it on the weights of its `ingredients`). A logit
mask (a dataset's classes within the pretrained label space) applies to the training loss and the
distillation targets alike (`masked`).

An `EpochHook` sees the model after every epoch of a method's (last) training stage and chooses the
model the method returns: `BestEpoch` keeps the epoch scoring best on held-out data, a hook that
evaluates every epoch keeps the last.
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

from ..train.loop import Batches, Loss, train
from ..train.config import TrainConfig
from .interpolation import interpolate, uniform_soup
from .linear_probe import linear_probe
from .lora import apply_lora, attention_blocks, merge_lora
from .lp_ft import lp_ft_stages
from .lwf import frozen_teacher, lwf_loss
from .method_table import REGISTRY, Method, MethodSettings
from .prompter import PaddingPrompter, PromptedModel
from .regularizers import diagonal_fisher, ewc_anchor, l2_anchor
from .zeroshot import ZeroShotClassifier, clamp_logit_scale_, classifier_flyp_loss

Weights = dict[str, torch.Tensor]
FisherSource = Callable[[nn.Module], Weights]  # a model -> its diagonal Fisher (`fisher_from`)


class EpochHook(Protocol):
    """Called after each epoch; `chosen(last)` is the model the method returns (before LoRA's merge)."""

    def __call__(self, epoch: int, model: nn.Module) -> None: ...

    def chosen(self, last: nn.Module) -> nn.Module: ...


class BestEpoch:
    """Best-epoch selection: score the model after every epoch (`score`: e.g. accuracy on a held-out
    split) and keep a copy of the best one; the earlier epoch wins a tie."""

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


def masked(logits: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
    """Logits with the classes outside `mask` (a boolean vector over outputs) set to -inf."""
    return logits if mask is None else logits.masked_fill(~mask.to(logits.device), float("-inf"))


def masked_logits_cross_entropy(logits: torch.Tensor, targets: torch.Tensor, mask: torch.Tensor | None,
                                label_smoothing: float = 0.0) -> torch.Tensor:
    """Cross-entropy of `logits` over the classes of `mask` only (all classes without one)."""
    if mask is not None:  # -inf logits would make label smoothing infinite: keep only the present classes
        index = mask.nonzero().squeeze(1).to(logits.device)
        remap = torch.full((len(mask),), -1, dtype=torch.long, device=logits.device)
        remap[index] = torch.arange(len(index), device=logits.device)
        return F.cross_entropy(logits[:, index], remap[targets], label_smoothing=label_smoothing)
    return F.cross_entropy(logits, targets, label_smoothing=label_smoothing)


def masked_cross_entropy(mask: torch.Tensor | None, label_smoothing: float = 0.0) -> Loss:
    """The model's cross-entropy over the classes of `mask` only (all classes without one)."""
    def loss(model: nn.Module, inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return masked_logits_cross_entropy(model(inputs).float(), targets, mask, label_smoothing)
    return loss


@dataclass(frozen=True)
class MethodRun:
    """What a trained method's step sees: its data, settings, loss and `fit`, the (last) training
    stage run through the epoch hook (`fit(model, loss=..., config=...)` returns the model it chooses)."""

    pretrained: nn.Module
    batches: Batches
    config: TrainConfig
    settings: MethodSettings
    mask: torch.Tensor | None
    fisher: FisherSource | None
    loss: Loss
    fit: Callable[..., nn.Module]


def _flyp(model: nn.Module, run: MethodRun) -> nn.Module:
    if not isinstance(model, ZeroShotClassifier):
        raise ValueError("FLYP fine-tunes a CLIP model through its zero-shot head; got a plain classifier")
    return run.fit(model, loss=classifier_flyp_loss)  # captions: each class's first template


def _linear_probing(model: nn.Module, run: MethodRun) -> nn.Module:
    linear_probe(model)
    return run.fit(model)


def _lp_ft(model: nn.Module, run: MethodRun) -> nn.Module:
    lp, ft = lp_ft_stages(model, lp_epochs=run.settings.lp_epochs, ft_epochs=run.config.epochs)
    lp.apply(model)
    train(model, run.batches, TrainConfig(**{**vars(run.config), "epochs": lp.epochs}), loss=run.loss)
    ft.apply(model)
    return run.fit(model)


def _visual_prompt(model: nn.Module, run: MethodRun) -> nn.Module:
    images, _ = next(iter(run.batches))
    image_size, channels = images.shape[-1], images.shape[1]
    generator = torch.Generator().manual_seed(run.config.seed)
    prompted = PromptedModel(model, PaddingPrompter(image_size, run.settings.prompt_pad, channels, generator))
    config = TrainConfig(**{**vars(run.config), "base_lr": run.settings.prompt_lr, "weight_decay": 0.0})
    return run.fit(prompted, config=config)


def _lora(model: nn.Module, run: MethodRun) -> nn.Module:
    attention_blocks(model)  # a clear error for a model without ViT blocks (LoRA: ViTs only)
    apply_lora(model, rank=run.settings.lora_rank, alpha=run.settings.lora_alpha)
    model = run.fit(model)
    merge_lora(model)
    return model


def fisher_from(batches: Batches, settings: MethodSettings, config: TrainConfig) -> FisherSource:
    """EWC's diagonal Fisher of a model over `batches` of the pretraining data: labels as
    `settings.ewc_fisher_labels` says, sampled ones drawn from a generator seeded with `config.seed`
    (so the same model and batches give the same Fisher, whichever data it is fine-tuned on next)."""
    device = torch.device(config.device)

    def compute(model: nn.Module) -> Weights:
        on_device = ((x.to(device), y.to(device)) for x, y in batches)
        generator = torch.Generator(device=device).manual_seed(config.seed)  # sampled labels: repeatable
        return diagonal_fisher(model, on_device, labels=settings.ewc_fisher_labels, generator=generator)

    return compute


def _ewc(model: nn.Module, run: MethodRun) -> nn.Module:
    if run.fisher is None:
        raise ValueError("EWC needs the Fisher information of the pretraining data (`fisher_from`)")
    device = torch.device(run.config.device)
    fisher = {name: value.to(device) for name, value in run.fisher(model).items()}
    anchor = ewc_anchor(model, fisher, run.settings.ewc_coefficient)
    return run.fit(model, loss=lambda m, x, y: run.loss(m, x, y) + anchor.penalty(m))


def _l2(model: nn.Module, run: MethodRun) -> nn.Module:
    anchor = l2_anchor(model, run.settings.l2_coefficient)
    return run.fit(model, loss=lambda m, x, y: run.loss(m, x, y) + anchor.penalty(m))


def _lwf(model: nn.Module, run: MethodRun) -> nn.Module:
    teacher = frozen_teacher(run.pretrained).to(torch.device(run.config.device))

    def loss(m: nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        logits = m(x).float()  # one forward pass serves both terms
        with torch.no_grad():
            target = teacher(x).float()
        mask = run.mask.to(logits.device) if run.mask is not None else None
        distill = lwf_loss(logits, target, run.settings.lwf_temperature, logit_mask=mask)
        ce = masked_logits_cross_entropy(logits, y, run.mask, run.config.label_smoothing)
        return ce + run.settings.lwf_weight * distill

    return run.fit(model, loss=loss)


def _wise_ft(pretrained: Weights, weights: dict[str, Weights], settings: MethodSettings, _: tuple[str, ...]) -> Weights:
    return interpolate(pretrained, weights["FT"], settings.wise_alpha, settings.wise_alpha_convention)


def _uniform_soup(pretrained: Weights, weights: dict[str, Weights], _: MethodSettings,
                  ingredients: tuple[str, ...]) -> Weights:
    return uniform_soup([pretrained, *(weights[i] for i in ingredients)])


Trainer = Callable[[nn.Module, MethodRun], nn.Module]
Combiner = Callable[[Weights, dict[str, Weights], MethodSettings, tuple[str, ...]], Weights]
TRAINERS: dict[str, Trainer] = {  # the trained methods of REGISTRY, by name
    "FT": lambda model, run: run.fit(model),
    "Linear Probing": _linear_probing,
    "LP-FT": _lp_ft,
    "Visual Prompt": _visual_prompt,
    "LoRA": _lora,
    "EWC": _ewc,
    "EWC (L2, released code)": _l2,
    "LwF": _lwf,
    "FLYP": _flyp,
}
COMBINERS: dict[str, Combiner] = {"wise_ft": _wise_ft, "uniform_soup": _uniform_soup}  # by `Method.combination`


def _method(method: Method | str) -> Method:
    if isinstance(method, Method):
        return method
    if method not in REGISTRY:
        raise KeyError(f"unknown fine-tuning method {method!r}; registered: {list(REGISTRY)}")
    return REGISTRY[method]


def _clamp_logit_scales_(model: nn.Module) -> None:
    """Clamp the logit scale of every zero-shot CLIP head in `model` to [0, ln 100] (as CLIP does
    after every step)."""
    for head in model.modules():
        if isinstance(head, ZeroShotClassifier):
            clamp_logit_scale_(head.model)


def train_method(
    method: Method | str,
    pretrained: nn.Module,
    batches: Batches,
    config: TrainConfig,
    settings: MethodSettings,
    mask: torch.Tensor | None,
    fisher: FisherSource | None = None,
    epoch_hook: EpochHook | None = None,
) -> nn.Module:
    """Fine-tune a copy of `pretrained` with a trained method (a `Method` or a name in `REGISTRY`);
    returns the classifier with every parameter trainable again.

    `fisher` (EWC only) gives the Fisher of the model EWC starts from: `fisher_from(...)`, or a
    cache of it (it does not depend on the fine-tuning data, so one serves every fine-tuning set).

    `epoch_hook` sees every epoch of the method's (last) training stage and chooses the model returned."""
    method = _method(method)
    if method.post_hoc:
        raise ValueError(f"{method.name!r} is not a trained method")
    loss = masked_cross_entropy(mask, config.label_smoothing)

    def fit(trained: nn.Module, loss: Loss = loss, config: TrainConfig = config) -> nn.Module:
        zero_shot = any(isinstance(m, ZeroShotClassifier) for m in trained.modules())
        train(trained, batches, config, loss=loss, on_epoch_end=epoch_hook,
              after_step=_clamp_logit_scales_ if zero_shot else None)
        return trained if epoch_hook is None else epoch_hook.chosen(trained)

    model = copy.deepcopy(pretrained).to(torch.device(config.device))
    run = MethodRun(pretrained, batches, config, settings, mask, fisher, loss, fit)
    return TRAINERS[method.name](model, run).requires_grad_(True)


def post_hoc(method: Method | str, pretrained: nn.Module, weights: dict[str, Weights], settings: MethodSettings) -> nn.Module:
    """A post-hoc method's model from the pretrained one and the stored `weights` of its ingredients."""
    method = _method(method)
    if not method.post_hoc:
        raise ValueError(f"{method.name!r} is not a post-hoc method")
    model = copy.deepcopy(pretrained)
    model.load_state_dict(COMBINERS[method.combination](pretrained.state_dict(), weights, settings, method.ingredients))
    return model
