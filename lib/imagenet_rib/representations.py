"""Representation and dataset analyses of ImageNet-RIB (Sec. 4.5, App. B–D): CKA per ViT block
between a pretrained and a fine-tuned model (Fig. 7, Fig. 14), optimal-transport dataset distances
between the pretraining set and each fine-tuning set in pixel and feature space (Fig. 10), and the
correlation of post-fine-tuning accuracy on the pretraining set with that distance, with p-values
(Fig. 11, Table 7)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import torch
from scipy import stats
from torch import nn

from ..metrics.cka import FIGURE9_COMPONENTS, layerwise_cka, record_block_features
from ..metrics.dataset_distance import ot_dataset_distance
from ..train.heads import embed

Labelled = tuple[torch.Tensor, torch.Tensor]


@torch.no_grad()
def cka_shift(pretrained: nn.Module, finetuned: nn.Module, images: torch.Tensor,
              components: tuple[str, ...] = FIGURE9_COMPONENTS, debiased: bool = False) -> pd.DataFrame:
    """CKA between the two models' features per block and component on the same images (1 = unchanged)."""
    recordings = []
    for model in (pretrained, finetuned):
        model.eval()
        with record_block_features(model, components, tokens="flatten") as features:
            model(images)
        recordings.append(features)
    return layerwise_cka(recordings[0], recordings[1], debiased=debiased)


@torch.no_grad()
def features(model: nn.Module, images: torch.Tensor) -> np.ndarray:
    """The model's pooled representation of `images` (`lib.train.heads.embed`), eval mode."""
    model.eval()
    return embed(model, images).float().numpy()


def distances_from(reference: str, datasets: Mapping[str, Labelled], model: nn.Module | None = None,
                   method: str = "emd") -> pd.Series:
    """OTDD (labels used) from `reference` to every other dataset, in pixel space, or in the feature
    space of `model` when one is given."""
    def points(name: str) -> tuple[np.ndarray, np.ndarray]:
        images, labels = datasets[name]
        x = images.flatten(1).numpy() if model is None else features(model, images)
        return x.astype(np.float64), labels.numpy()

    ref_x, ref_y = points(reference)
    out = {}
    for name in datasets:
        if name != reference:
            x, y = points(name)
            out[name] = ot_dataset_distance(ref_x, x, ref_y, y, method=method, diagonal_cov=True)
    return pd.Series(out, name="otdd")


def accuracy_distance_correlation(after: pd.DataFrame, distance: pd.Series) -> pd.DataFrame:
    """Per method, Pearson r and its two-sided p-value between the pretraining-set accuracy after
    fine-tuning on each dataset (`after`: columns method, finetune_dataset, accuracy) and that
    dataset's distance from the pretraining set (Table 7's quantity)."""
    rows = []
    for method, part in after.groupby("method", sort=False):
        part = part.set_index("finetune_dataset")["accuracy"].reindex(distance.index)
        if part.nunique() < 2 or len(part) < 3:
            r, p = float("nan"), float("nan")
        else:
            r, p = stats.pearsonr(distance.to_numpy(), part.to_numpy())
        rows.append({"method": method, "pearson r": float(r), "p-value": float(p), "n datasets": len(part)})
    return pd.DataFrame(rows)
