"""Training for the small tiers' study, and the paper's robustness fine-tuning (Sec. 6).

- `pretrain_standin`: a stand-in made into a small "foundation model" on the embedded training images
  of every dataset of the study (their label spaces side by side): a CLIP stand-in with the CLIP loss on
  (image, prompt of its class) pairs (`lib.models.clip.pretrain_clip`), any other stand-in
  supervised (cross-entropy through its classifier; the grid embeds its pre-logits).
- `robustness_finetune` (Sec. 6.1): f' initialised as f, the image tower trained to minimise
  L1 + λ·L2 with L1 = -mean cos(f'(x), f'(P(x, k))) (gradients through both branches) and
  L2 = -mean cos(f(x), f'(x)) (f frozen); k drawn uniformly from the perturbation's domain for
  every image in every epoch (the text: "k is sampled from K each epoch"; per image is our reading),
  from a generator seeded by (seed, epoch), the images perturbed in 8-bit RGB before normalisation.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from ..perturb.perturbations import PERTURBATIONS
from ..perturb.tensors import from_rgb8
from ..train.loop import parameter_groups, tensor_batches, train
from ..train.config import TrainConfig


def normalised(images: np.ndarray, mean: Sequence[float], std: Sequence[float]) -> torch.Tensor:
    """uint8 (n, H, W, 3) images as the float (n, 3, H, W) input of a model normalised by `mean` and `std`."""
    shift = torch.tensor(mean, dtype=torch.float32).view(1, -1, 1, 1)
    scale = torch.tensor(std, dtype=torch.float32).view(1, -1, 1, 1)
    return (from_rgb8(images, 3) - shift) / scale


def pretrain_standin(model: nn.Module, images: torch.Tensor, labels: torch.Tensor, class_names: Sequence[str],
                     template: str, config: TrainConfig) -> nn.Module:
    """Train a stand-in in place on normalised `images` and their `labels` (see the module docstring)."""
    if hasattr(model, "encode_text"):
        from open_clip.tokenizer import SimpleTokenizer

        from ..models.clip import pretrain_clip

        pretrain_clip(model, SimpleTokenizer(context_length=model.context_length), images, labels, class_names,
                      template, config)
    else:
        train(model, tensor_batches(images, labels, config.batch_size, config.seed), config)
    return model.eval()


class PerturbedPairs:
    """Batches of (clean, perturbed) input pairs, stacked on dim 1, re-perturbed on every pass: each
    image with its own k drawn uniformly from `perturbation`'s domain (generator seeded by (seed, pass))."""

    def __init__(self, images: np.ndarray, perturbation: str, mean: Sequence[float], std: Sequence[float],
                 batch_size: int, seed: int) -> None:
        self.images, self.perturbation, self.mean, self.std = images, PERTURBATIONS[perturbation], mean, std
        self.batch_size, self.seed, self.passes = batch_size, seed, 0
        self.clean = normalised(images, mean, std)

    def __len__(self) -> int:
        return -(-len(self.images) // self.batch_size)

    def __iter__(self) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
        rng = np.random.default_rng([self.seed, self.passes])
        self.passes += 1
        low, high = self.perturbation.domain
        order = rng.permutation(len(self.images))
        for start in range(0, len(order), self.batch_size):
            index = order[start:start + self.batch_size]
            perturbed = np.stack([self.perturbation.function(self.images[i], float(rng.uniform(low, high)), rng)
                                  for i in index])
            pairs = torch.stack([self.clean[index], normalised(perturbed, self.mean, self.std)], dim=1)
            yield pairs, torch.as_tensor(index)


def robustness_loss(original: nn.Module, weight: float):
    """L1 + λ·L2 of Sec. 6.1 on a batch of (clean, perturbed) pairs, for the model being tuned."""

    def loss(model: nn.Module, pairs: torch.Tensor, _: torch.Tensor) -> torch.Tensor:
        clean, perturbed = pairs[:, 0], pairs[:, 1]
        tuned = model.encode_image(torch.cat([clean, perturbed]))
        tuned_clean, tuned_perturbed = tuned[:len(clean)], tuned[len(clean):]
        with torch.no_grad():
            reference = original.encode_image(clean)
        robustness = -F.cosine_similarity(tuned_clean, tuned_perturbed, dim=-1).mean()
        utility = -F.cosine_similarity(reference, tuned_clean, dim=-1).mean()
        return robustness + weight * utility

    return loss


def robustness_finetune(model: nn.Module, images: np.ndarray, perturbation: str, weight: float,
                        mean: Sequence[float], std: Sequence[float], config: TrainConfig) -> nn.Module:
    """f' = a copy of the CLIP `model` whose image tower is fine-tuned with L1 + `weight`·L2 on uint8
    `images` under `perturbation` (the module docstring); `model` itself is left unchanged."""
    original = copy.deepcopy(model).eval().requires_grad_(False).to(config.device)
    tuned = copy.deepcopy(model)
    batches = PerturbedPairs(images, perturbation, mean, std, config.batch_size, config.seed)
    train(tuned, batches, config, groups=parameter_groups(tuned.visual, config.weight_decay),
          loss=robustness_loss(original, weight))
    return tuned.eval()
