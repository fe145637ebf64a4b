"""What ImageNet-RIB's representation panels measure (imports torch): CKA per ViT block between a
pretrained and a fine-tuned model, and OTDD from a reference sample to each dataset's, in pixel or
feature space (`representations` draws the panels).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd
import torch
from torch import nn

from ..metrics.cka import FIGURE9_COMPONENTS, layerwise_cka, record_block_features
from ..metrics.dataset_distance import ot_dataset_distance
from ..train.heads import embed
from .suite_data import EVAL_BATCH

Labelled = tuple[torch.Tensor, torch.Tensor]
MIN_CLASS_IMAGES = 2  # a class Gaussian needs 2 images; OTDD's reference code (min_labelcount=2) also drops the rest


@torch.no_grad()
def cka_shift(pretrained: nn.Module, finetuned: nn.Module, images: torch.Tensor,
              components: tuple[str, ...] = FIGURE9_COMPONENTS, debiased: bool = False,
              device: str = "cpu") -> pd.DataFrame:
    """CKA between the two models' features per block and component on the same images (1 = unchanged).

    All images go through each model on `device` in one forward per block, and only that block is
    recorded (flattened tokens: about 6.6 MB per image and model for a ViT-B/16 block)."""
    images = images.to(device)
    models = [model.eval().to(device) for model in (pretrained, finetuned)]
    frames = []
    for index in range(len(pretrained.blocks)):
        recordings = []
        for model in models:
            with record_block_features(model, components, tokens="flatten", blocks=[model.blocks[index]]) as recorded:
                model(images)
            recordings.append(recorded)
        frames.append(layerwise_cka(*recordings, debiased=debiased).assign(block=index))
    return pd.concat(frames, ignore_index=True)


class CKAEveryEpoch:
    """Fig. 14's epoch hook: `cka_shift` between `pretrained` and the model after every epoch, on each named sample
    of `images` (`frames`, with `dataset` and `epoch`); the run is the last epoch's model."""

    def __init__(self, pretrained: nn.Module, images: Mapping[str, torch.Tensor], device: str = "cpu") -> None:
        self.pretrained, self.images, self.device = pretrained, images, device
        self.frames: list[pd.DataFrame] = []

    def __call__(self, epoch: int, model: nn.Module) -> None:
        for name, batch in self.images.items():
            shift = cka_shift(self.pretrained, model, batch, device=self.device)
            self.frames.append(shift.assign(dataset=name, epoch=epoch))

    def chosen(self, last: nn.Module) -> nn.Module:
        return last


@torch.no_grad()
def features(model: nn.Module, images: torch.Tensor, device: str = "cpu") -> np.ndarray:
    """The model's pooled representation of `images` (`lib.train.heads.embed`), eval mode, in batches on `device`."""
    model.eval().to(device)
    return torch.cat([embed(model, batch.to(device)).float().cpu() for batch in images.split(EVAL_BATCH)]).numpy()


def points(data: Labelled, model: nn.Module | None = None, device: str = "cpu") -> tuple[np.ndarray, np.ndarray]:
    """OTDD's rows of a labelled sample, flattened pixels or `model`'s features, and their labels;
    classes with fewer than `MIN_CLASS_IMAGES` images in the sample are dropped."""
    images, labels = data
    keep = torch.bincount(labels)[labels] >= MIN_CLASS_IMAGES
    if not keep.any():
        raise ValueError(f"no class has {MIN_CLASS_IMAGES} images in a sample of {len(labels)}: sample more images")
    images, labels = images[keep], labels[keep]
    x = images.flatten(1).numpy() if model is None else features(model, images, device)
    return x.astype(np.float64), labels.numpy()


def distances_from(reference: Labelled, datasets: Iterable[tuple[str, Labelled]],
                   spaces: Mapping[str, nn.Module | None], device: str = "cpu", method: str = "emd") -> pd.DataFrame:
    """OTDD (labels used, diagonal class covariances) from `reference` to each dataset (rows) in each
    space (columns): pixel space for None, else the model's feature space. `datasets` is read one at
    a time, so a generator keeps a single sample in memory."""
    ref = {space: points(reference, model, device) for space, model in spaces.items()}
    rows = {}
    for name, data in datasets:
        row = {}
        for space, model in spaces.items():
            (ref_x, ref_y), (x, y) = ref[space], points(data, model, device)
            row[space] = ot_dataset_distance(ref_x, x, ref_y, y, method=method, diagonal_cov=True)
        rows[name] = row
    return pd.DataFrame.from_dict(rows, orient="index", columns=list(spaces))
