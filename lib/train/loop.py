"""One supervised training loop for every fine-tuning protocol of the papers.

SGD with momentum (or AdamW, for the small tiers' pre-training), the lr scaled by batch size,
per-step linear warm-up then cosine decay, per-parameter-group lr scales (layer-wise lr decay) and
bf16 autocast on a GPU. The loss is a
function of `(model, inputs, targets)`: cross-entropy with label smoothing by default; methods
that add a regulariser or a distillation term, and self-supervised objectives, pass their own.
Data come from any re-iterable of `(inputs, targets)` batches with a length.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

import torch
from torch import nn
from torch.utils.data import BatchSampler, DataLoader, RandomSampler, SequentialSampler, TensorDataset

from .config import TrainConfig
from .schedule import SCHEDULES

Loss = Callable[[nn.Module, torch.Tensor, torch.Tensor], torch.Tensor]


class TensorBatches:
    """In-memory batches of `(inputs, targets)`, reshuffled on every pass by one generator seeded with `seed`.

    The batches, their order and the generator's draws are those of a `DataLoader` over a
    `TensorDataset` with `shuffle` and that generator (the same sampler, and the same draw of a
    worker seed at the start of each pass), but each batch is one indexing of the tensors instead of
    a fetch and a collation per item."""

    def __init__(self, inputs: torch.Tensor, targets: torch.Tensor, batch_size: int, seed: int, shuffle: bool = True) -> None:
        self.dataset = TensorDataset(inputs, targets)  # as a DataLoader's (`len(batches.dataset)`: the items)
        self.generator = torch.Generator().manual_seed(seed)
        items = range(len(inputs))
        sampler = RandomSampler(items, generator=self.generator) if shuffle else SequentialSampler(items)
        self.batch_sampler = BatchSampler(sampler, batch_size, drop_last=False)

    def __len__(self) -> int:
        return len(self.batch_sampler)

    def __iter__(self) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
        torch.empty((), dtype=torch.int64).random_(generator=self.generator)  # DataLoader's per-pass worker seed
        inputs, targets = self.dataset.tensors
        return ((inputs[index], targets[index]) for index in map(torch.as_tensor, self.batch_sampler))


Batches = DataLoader | TensorBatches | Sequence[tuple[torch.Tensor, torch.Tensor]]


def tensor_batches(inputs: torch.Tensor, targets: torch.Tensor, batch_size: int, seed: int, shuffle: bool = True) -> TensorBatches:
    """In-memory batches, reshuffled each epoch by a generator seeded with `seed`."""
    return TensorBatches(inputs, targets, batch_size, seed, shuffle)


def device_of(module: nn.Module) -> torch.device:
    """The device holding `module`'s parameters (the CPU for a module without any)."""
    return next((parameter.device for parameter in module.parameters()), torch.device("cpu"))


def cross_entropy(label_smoothing: float = 0.0) -> Loss:
    """The default loss: cross-entropy of `model(inputs)` against the targets."""
    criterion = nn.CrossEntropyLoss(label_smoothing=label_smoothing)
    return lambda model, inputs, targets: criterion(model(inputs).float(), targets)


def parameter_groups(model: nn.Module, weight_decay: float) -> list[dict]:
    """Trainable parameters in two groups: with weight decay, and without it for biases and norms (1-D)."""
    decay, no_decay = [], []
    for parameter in model.parameters():
        if parameter.requires_grad:
            (no_decay if parameter.ndim <= 1 else decay).append(parameter)
    return [g for g in ({"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}) if g["params"]]


def train(
    model: nn.Module,
    batches: Batches,
    config: TrainConfig,
    groups: list[dict] | None = None,
    loss: Loss | None = None,
    on_epoch_end: Callable[[int, nn.Module], None] | None = None,
    after_step: Callable[[nn.Module], None] | None = None,
) -> list[float]:
    """Train `model` in place; return the mean loss of each epoch.

    `groups` are optimiser parameter groups, each optionally with an `lr_scale` (default: all
    trainable parameters, weight decay off for 1-D ones). Every step sets each group's lr to
    `peak_lr × lr_scale × multiplier(step)` (`config.schedule`; warm-up then cosine by default). `loss` defaults to `cross_entropy(config.label_smoothing)`.
    `on_epoch_end(epoch, model)` (epochs counted from 1) runs after each epoch, e.g. to evaluate or keep
    the model of the best epoch; the model is back in training mode after it. `after_step(model)`
    runs after every optimiser step (e.g. CLIP's clamp of its logit scale).
    """
    torch.manual_seed(config.seed)
    device = torch.device(config.device)
    model.to(device)
    groups = groups if groups is not None else parameter_groups(model, config.weight_decay)
    if not groups:
        raise ValueError("nothing to train: no parameter requires grad")
    if config.optimizer == "sgd":
        optimizer = torch.optim.SGD(groups, lr=config.peak_lr, momentum=config.momentum)
    elif config.optimizer == "adamw":
        optimizer = torch.optim.AdamW(groups, lr=config.peak_lr, betas=config.betas, eps=config.eps)
    else:
        raise ValueError(f"optimizer must be 'sgd' or 'adamw', got {config.optimizer!r}")
    if config.schedule not in SCHEDULES:
        raise ValueError(f"schedule must be one of {sorted(SCHEDULES)}, got {config.schedule!r}")
    multiplier = SCHEDULES[config.schedule]
    loss = loss if loss is not None else cross_entropy(config.label_smoothing)
    steps_per_epoch = len(batches)
    total = config.epochs * steps_per_epoch
    warmup = round(config.warmup_epochs * steps_per_epoch)
    use_amp = config.amp and device.type == "cuda"
    history, step = [], 0
    for epoch in range(1, config.epochs + 1):
        model.train()
        losses = []
        for inputs, targets in batches:
            inputs, targets = inputs.to(device, non_blocking=True), targets.to(device, non_blocking=True)
            factor = multiplier(step, total, warmup)
            for group in optimizer.param_groups:
                group["lr"] = config.peak_lr * group.get("lr_scale", 1.0) * factor
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=use_amp):
                value = loss(model, inputs, targets)
            if not torch.isfinite(value):
                raise FloatingPointError(f"training diverged: loss {value.item()} at step {step} of {total} "
                                         f"(peak lr {config.peak_lr}); lower the lr or the regulariser's coefficient")
            optimizer.zero_grad(set_to_none=True)
            value.backward()
            optimizer.step()
            if after_step is not None:
                after_step(model)
            losses.append(value.item())
            step += 1
        history.append(sum(losses) / len(losses))
        if on_epoch_end is not None:
            on_epoch_end(epoch, model)
    return history


def batch_logits(
    model: nn.Module, batches: Iterable[tuple[torch.Tensor, torch.Tensor]], device: str = "cpu", amp: bool = False
) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """`(logits on the CPU, targets)` of each batch, without gradients, the model moved to `device` and
    in eval mode while they are drawn (its mode restored after); bf16 autocast on CUDA when `amp`."""
    was_training = model.training
    model.eval().to(device)
    kind = torch.device(device).type
    try:
        for inputs, target in batches:
            with torch.no_grad(), torch.autocast(kind, dtype=torch.bfloat16, enabled=amp and kind == "cuda"):
                logits = model(inputs.to(device, non_blocking=True)).float().cpu()
            yield logits, target
    finally:
        model.train(was_training)


def predict_logits(model: nn.Module, batches: Iterable[tuple[torch.Tensor, torch.Tensor]], device: str = "cpu", amp: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """Logits and targets of every item, the model in eval mode (its mode restored after)."""
    logits, targets = zip(*batch_logits(model, batches, device, amp))
    return torch.cat(logits), torch.cat(targets)
