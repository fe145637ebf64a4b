"""Learning-rate rules: linear scaling with batch size, and the per-step multipliers `SCHEDULES` by name:
linear warm-up followed by cosine decay, or a constant rate (e.g. Seq-to-Final's Adam runs)."""

from __future__ import annotations

import math


def scaled_lr(base_lr: float, batch_size: int, reference_batch: int = 256) -> float:
    """The linear scaling rule: `base_lr × batch_size / reference_batch` (Goyal et al., 2017)."""
    return base_lr * batch_size / reference_batch


def warmup_cosine(step: int, total_steps: int, warmup_steps: int) -> float:
    """Multiplier of the peak lr at `step` (0-based): linear ramp to 1 over the warm-up, cosine to 0 after."""
    if total_steps <= 0:
        raise ValueError("total_steps must be positive")
    if step < warmup_steps:
        return (step + 1) / warmup_steps
    progress = (step - warmup_steps) / max(total_steps - warmup_steps, 1)
    return 0.5 * (1.0 + math.cos(math.pi * min(progress, 1.0)))


def constant(step: int, total_steps: int, warmup_steps: int) -> float:
    """Multiplier 1 at every step: the peak lr throughout (no warm-up, no decay)."""
    return 1.0


SCHEDULES = {"warmup_cosine": warmup_cosine, "constant": constant}
