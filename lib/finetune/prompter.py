"""Visual prompting (Bahng et al., 2022) with a padding prompter; the model stays frozen.

The prompt is a learnable border of width `pad` added to the (already normalised) input image; the
interior is left untouched. As in the released ImageNet-RIB code (lib/prompter.py, copied from
hjbahng/visual_prompting): border initialised from a standard normal, default pad 30 for 224-pixel
images, and the whole model kept in eval mode while the prompt trains (paper: SGD, learning rate 40,
no weight decay, 10 epochs).
"""

from __future__ import annotations

import torch
from torch import nn

from .linear_probe import set_trainable


class PaddingPrompter(nn.Module):
    """A learnable border of width `pad` (top, bottom, left, right strips) added to square images."""

    def __init__(
        self, image_size: int = 224, pad: int = 30, channels: int = 3, generator: torch.Generator | None = None
    ) -> None:
        super().__init__()
        if not (0 < pad and 2 * pad < image_size):
            raise ValueError(f"pad must satisfy 0 < pad < image_size / 2, got pad={pad}, image_size={image_size}")
        self.image_size = image_size
        self.pad = pad
        inner = image_size - 2 * pad
        self.pad_up = nn.Parameter(torch.randn(1, channels, pad, image_size, generator=generator))
        self.pad_down = nn.Parameter(torch.randn(1, channels, pad, image_size, generator=generator))
        self.pad_left = nn.Parameter(torch.randn(1, channels, inner, pad, generator=generator))
        self.pad_right = nn.Parameter(torch.randn(1, channels, inner, pad, generator=generator))

    def prompt(self) -> torch.Tensor:
        """The full-size additive prompt (1, C, H, W), zero in the interior."""
        inner = self.image_size - 2 * self.pad
        base = self.pad_up.new_zeros(1, self.pad_up.shape[1], inner, inner)
        middle = torch.cat([self.pad_left, base, self.pad_right], dim=3)
        return torch.cat([self.pad_up, middle, self.pad_down], dim=2)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return images + self.prompt()


class PromptedModel(nn.Module):
    """`model(prompter(x))` with the model frozen and kept in eval mode; only the prompter trains."""

    def __init__(self, model: nn.Module, prompter: PaddingPrompter) -> None:
        super().__init__()
        self.prompter = prompter
        self.model = model
        set_trainable(model, lambda _name: False)
        self.model.eval()

    def train(self, mode: bool = True) -> PromptedModel:
        super().train(mode)
        self.model.eval()
        return self

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return self.model(self.prompter(images))
