"""Pre-training objectives for the miniature model zoos of the small tiers.

The ssl_protocols paper compares 26 ImageNet models pre-trained with different self-supervised
objectives. Its miniature (ssl_protocols' mini tier) pre-trains small stand-ins on one embedded
domain with objectives from the same families, each in its simplest faithful form:
- `supervised`: cross-entropy on the domain's labels (the non-SSL reference);
- `simclr`: contrastive, NT-Xent between two augmented views (Chen et al., 2020), MLP projector;
- `rotation`: predict which of four rotations was applied (Gidaris et al., 2018);
- `masked`: masked-image modelling, reconstruct the pixels of randomly masked patches from the
  pooled representation of the masked image (mean squared error on masked pixels only);
- `none`: random initialisation (a floor every objective should beat).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from .heads import Classifier, embed, feature_dim
from .loop import tensor_batches, train
from .config import TrainConfig
from .objectives import OBJECTIVES

SIMCLR_TEMPERATURE = 0.2
MASK_RATIO = 0.5
MASK_GRID = 4  # the image is masked in a 4 × 4 grid of patches


def augment(images: torch.Tensor) -> torch.Tensor:
    """A random view: shift by up to 2 px (replicate-padded crop), intensity gain 0.7-1.3, noise σ 0.05.
    Draws from torch's global generator, which `train` seeds."""
    n, _, h, w = images.shape
    padded = F.pad(images, (2, 2, 2, 2), mode="replicate")
    dy, dx = torch.randint(0, 5, (2,)).tolist()
    view = padded[:, :, dy:dy + h, dx:dx + w]
    gain = torch.empty(n, 1, 1, 1).uniform_(0.7, 1.3)
    return (view * gain + 0.05 * torch.randn_like(view)).clamp(0.0, 1.0)


def nt_xent(z1: torch.Tensor, z2: torch.Tensor, temperature: float = SIMCLR_TEMPERATURE) -> torch.Tensor:
    """SimCLR's normalised-temperature cross-entropy over the 2N views of a batch."""
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    similarity = z @ z.T / temperature
    similarity.fill_diagonal_(float("-inf"))
    n = len(z1)
    positives = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(similarity, positives)


class Projected(nn.Module):
    """Backbone followed by an MLP projector, for contrastive pre-training."""

    def __init__(self, backbone: nn.Module, width: int = 64) -> None:
        super().__init__()
        self.backbone = backbone
        dim = feature_dim(backbone)
        self.projector = nn.Sequential(nn.Linear(dim, width), nn.ReLU(), nn.Linear(width, width))

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return self.projector(embed(self.backbone, images))


class MaskedReconstruction(nn.Module):
    """Backbone followed by a linear pixel decoder, for masked-image modelling."""

    def __init__(self, backbone: nn.Module, image_pixels: int) -> None:
        super().__init__()
        self.backbone = backbone
        self.decoder = nn.Linear(feature_dim(backbone), image_pixels)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return self.decoder(embed(self.backbone, images)).view_as(images)


def patch_mask(images: torch.Tensor, ratio: float = MASK_RATIO, grid: int = MASK_GRID) -> torch.Tensor:
    """A random 0/1 mask (1 = masked) of `ratio` of the grid × grid patches of each image."""
    n, _, h, w = images.shape
    keep = torch.rand(n, grid * grid).argsort(dim=1) >= round(ratio * grid * grid)
    cells = (~keep).float().view(n, 1, grid, grid)
    return F.interpolate(cells, size=(h, w), mode="nearest")


def _simclr_loss(model: nn.Module, images: torch.Tensor, _: torch.Tensor) -> torch.Tensor:
    return nt_xent(model(augment(images)), model(augment(images)))


def _masked_loss(model: nn.Module, images: torch.Tensor, _: torch.Tensor) -> torch.Tensor:
    mask = patch_mask(images).to(images.device)
    reconstruction = model(images * (1.0 - mask))
    return ((reconstruction - images) ** 2 * mask).sum() / mask.sum().clamp_min(1.0)


def rotations(images: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Each image at 0, 90, 180 and 270 degrees, labelled 0-3."""
    views = torch.cat([torch.rot90(images, r, dims=(2, 3)) for r in range(4)])
    return views, torch.arange(4).repeat_interleave(len(images))


def pretrain(backbone: nn.Module, objective: str, images: torch.Tensor, labels: torch.Tensor, num_classes: int, config: TrainConfig) -> nn.Module:
    """Pre-train `backbone` in place with `objective` on a domain's training images; return it."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; expected one of {OBJECTIVES}")
    if objective == "none":
        return backbone
    with torch.random.fork_rng():
        torch.manual_seed(config.seed)
        if objective == "supervised":
            model, loss, data = Classifier(backbone, num_classes), None, (images, labels)
        elif objective == "rotation":
            model, loss, data = Classifier(backbone, 4), None, rotations(images)
        elif objective == "simclr":
            model, loss, data = Projected(backbone), _simclr_loss, (images, labels)
        else:
            model, loss, data = MaskedReconstruction(backbone, images[0].numel()), _masked_loss, (images, labels)
    train(model, tensor_batches(*data, config.batch_size, config.seed), config, loss=loss)
    return backbone
