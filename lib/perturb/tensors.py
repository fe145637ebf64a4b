"""Float image tensors to and from the 8-bit RGB layout of `lib.perturb.perturbations`.

`to_rgb8` / `from_rgb8` convert float (N, C, H, W) tensors in [0, 1] (C = 1 grey or 3) to and from
(N, H, W, 3) uint8 arrays; kept apart from the perturbations so that naming or validating them
imports no torch.
"""

from __future__ import annotations

import numpy as np
import torch


def to_rgb8(images: torch.Tensor) -> np.ndarray:
    """Float (N, C, H, W) images in [0, 1], C = 1 (grey, repeated) or 3, as (N, H, W, 3) uint8."""
    if images.ndim != 4 or images.shape[1] not in (1, 3):
        raise ValueError(f"expected (N, 1 or 3, H, W) images, got {tuple(images.shape)}")
    rgb = images.expand(-1, 3, -1, -1).permute(0, 2, 3, 1).detach().cpu().numpy()
    return np.clip(np.rint(rgb * 255.0), 0, 255).astype(np.uint8)


def from_rgb8(images: np.ndarray, channels: int) -> torch.Tensor:
    """(N, H, W, 3) uint8 images as float32 (N, `channels`, H, W) in [0, 1]; `channels` = 1 reads the
    first channel (a grey image's three are equal, and per-channel noise keeps its strength there)."""
    if channels not in (1, 3):
        raise ValueError(f"channels must be 1 or 3, got {channels}")
    return torch.from_numpy(images[..., :channels].astype(np.float32) / 255.0).permute(0, 3, 1, 2).contiguous()
