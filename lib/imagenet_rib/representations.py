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


CKA_DATASET = "digits_edges"  # our analogue of ImageNet-R: a drawing-like rendition with a class subset
CKA_IMAGES = 128


def our_representation_panel(artefact: str, benchmark_params: str, results_dir: str):
    """Figures 7, 14 (CKA), 10 (OTDD) and 11 (accuracy vs distance) on our miniature benchmark:
    `(data, figure, finding)`, the finding computed from the run. Embedded tiers only."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    from .benchmark import Benchmark, BenchmarkSettings
    from .ours import run_benchmark

    settings = BenchmarkSettings.load(benchmark_params)
    if settings.source != "embedded":
        raise ValueError("the representation analyses of the full tier need the real datasets' features; "
                         "run them from the benchmark's stored weights (not wired for the registry source)")
    bench = Benchmark(settings, results_dir)
    seed, suite = settings.seeds[0], bench.suite
    if artefact in ("figure07", "figure14"):
        images = suite.split(CKA_DATASET, "test")[0][:CKA_IMAGES]
        if artefact == "figure07":  # FT under each pretraining regime
            pairs = [(regime, "FT") for regime in settings.regimes]
        else:  # every trained method that changes the backbone, first regime
            pairs = [(settings.regimes[0], m) for m in settings.methods if m not in ("Linear Probing", "Visual Prompt")]
        frames = []
        for regime, method in pairs:
            shift = cka_shift(bench.pretrained(regime, seed), bench.finetuned(method, regime, seed, CKA_DATASET), images)
            frames.append(shift.assign(regime=regime, method=method))
        data = pd.concat(frames, ignore_index=True)
        key = "regime" if artefact == "figure07" else "method"
        fig, axes = plt.subplots(1, len(pairs), figsize=(2.6 * len(pairs) + 1, 3.0), squeeze=False)
        for ax, (label, part) in zip(axes[0], data.groupby(key, sort=False)):
            sns.heatmap(part.pivot(index="component", columns="block", values="cka"), vmin=0, vmax=1, annot=True,
                        fmt=".2f", cmap="viridis", ax=ax, cbar=False, annot_kws={"fontsize": 7})
            ax.set_title(f"{label}", fontsize=9)
        fig.suptitle(f"CKA(pretrained, fine-tuned on {CKA_DATASET}) per block and component, seed {seed}", fontsize=9)
        lowest = data.groupby(key, sort=False)["cka"].min()
        finding = "lowest CKA per " + key + ": " + ", ".join(f"{k} {v:.2f}" for k, v in lowest.items())
    elif artefact in ("figure10", "figure11"):
        datasets = {settings.pretrain_domain: (suite.pretraining.test_images, suite.pretraining.test_labels)}
        datasets |= {name: suite.split(name, "test") for name in settings.suite}
        pixel = distances_from(settings.pretrain_domain, datasets)
        feature = distances_from(settings.pretrain_domain, datasets, model=bench.pretrained(settings.regimes[0], seed))
        distances = pd.DataFrame({"pixel space": pixel, f"feature space ({settings.regimes[0]} model)": feature})
        if artefact == "figure10":
            data = distances.reset_index(names="dataset")
            fig, axes = plt.subplots(1, 2, figsize=(8.4, 3.2))
            for ax, column in zip(axes, distances.columns):
                distances[column].rename(lambda c: c.removeprefix("digits_")).plot.bar(ax=ax, rot=45, fontsize=7)
                ax.set_title(f"OTDD from {settings.pretrain_domain}, {column}", fontsize=9)
            finding = ("nearest / farthest from the pretraining set: pixel " + pixel.idxmin() + " / " + pixel.idxmax()
                       + "; feature " + feature.idxmin() + " / " + feature.idxmax()
                       + f"; Spearman ρ between the two orderings {pixel.corr(feature, method='spearman'):.2f}")
        else:
            _, acc, _ = run_benchmark(benchmark_params, results_dir)
            after = acc[(acc["eval_dataset"] == settings.pretrain_domain) & (acc["method"] != "pretrained")
                        & (acc["regime"] == settings.regimes[0])].groupby(["method", "finetune_dataset"], sort=False)["accuracy"].mean().reset_index()
            data = accuracy_distance_correlation(after, feature)
            fig, ax = plt.subplots(figsize=(4.8, 3.6))
            for method, part in after.groupby("method", sort=False):
                x = feature.loc[part["finetune_dataset"]].to_numpy()
                ax.plot(x, part["accuracy"], "o", label=method, ms=4)
            ax.set_xlabel(f"OTDD from {settings.pretrain_domain} (feature space)")
            ax.set_ylabel(f"{settings.pretrain_domain} accuracy after fine-tuning (%)")
            ax.legend(fontsize=6)
            negative = int((data["pearson r"] < 0).sum())
            finding = (f"Pearson r < 0 for {negative} of {len(data)} methods (paper, Table 7: negative for all but one "
                       f"cell); with {len(feature)} fine-tuning datasets the smallest p-value is "
                       f"{data['p-value'].min():.2f}")
    else:
        raise KeyError(f"no representation panel for {artefact!r}")
    fig.tight_layout()
    return data, fig, finding
