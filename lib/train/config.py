"""The hyper-parameters of one training run, importable without torch (settings files are read into it
before anything is computed, and notebooks that only read stored results never import torch)."""

from __future__ import annotations

from dataclasses import dataclass

from .schedule import scaled_lr


@dataclass(frozen=True)
class TrainConfig:
    """Hyper-parameters of one training run (the papers' recipes are params files of these).

    `optimizer`: "sgd" (with `momentum`; the papers' fine-tuning recipes) or "adamw" (with `betas` and
    `eps`, torch's defaults unless a recipe names others; the small tiers' pre-training, where tiny ViTs do
    not train with SGD, and CLIP fine-tuning).
    """

    epochs: int
    batch_size: int
    base_lr: float
    reference_batch: int = 256
    momentum: float = 0.9
    weight_decay: float = 0.0
    optimizer: str = "sgd"
    betas: tuple[float, float] = (0.9, 0.999)  # AdamW's
    eps: float = 1e-8  # AdamW's
    warmup_epochs: float = 0.0
    label_smoothing: float = 0.0
    seed: int = 0
    device: str = "cpu"
    amp: bool = False
    schedule: str = "warmup_cosine"  # a key of `schedule.SCHEDULES`; "constant" keeps the peak lr

    @property
    def peak_lr(self) -> float:
        return scaled_lr(self.base_lr, self.batch_size, self.reference_batch)
