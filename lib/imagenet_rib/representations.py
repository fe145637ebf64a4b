"""Representation and dataset analyses of ImageNet-RIB (Sec. 4.5, App. B–D): CKA per ViT block
between a pretrained and a fine-tuned model (Fig. 7, Fig. 14), optimal-transport dataset distances
from the pretraining set to each suite dataset in pixel and feature space (Fig. 10), and the
correlation of post-fine-tuning accuracy on the pretraining set with that distance, with p-values
(Fig. 11, Table 7).

`our_representation_panel` runs them on a tier's benchmark (`lib.imagenet_rib.benchmark`), embedded
or registry, from the same code: models from `Benchmark.runner` (`pretrained`, `finetuned`), images
from a seeded `suite.sample` read through each model's eval transform. What each artefact looks at
is its `analysis` (a dict in the artefact's params file, checked like a settings file):
- Figs. 7 and 14 (`CKASettings`): the dataset fine-tuned on, the datasets CKA is measured on and
  the number of images. The paper: fine-tuned on ImageNet-R, CKA on ImageNet-R, ImageNet-1K val and
  ImageNet-A (Sec. 4.5); it does not say how many images.
- Figs. 10 and 11 (`DistanceSettings`): the number of images sampled from each dataset (the paper
  does not say) and the suite datasets left out. The paper does not measure distances to ImageNet-C
  (App. B.1) and leaves the synthetic sets made from ImageNet val (Cartoon, Drawing, ImageNet-C) out
  of Fig. 11.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from scipy import stats

from ..findings import Finding, Findings, bootstrap_interval
from ..params import Parameter, ParamsError, validate

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .benchmark import Benchmark
    from .representation_measures import Labelled

BACKBONE_UNCHANGED = ("Linear Probing", "Visual Prompt")  # left out of Fig. 14: CKA would be 1 everywhere


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


# -- the panels of a tier's benchmark ---------------------------------------------------------------
@dataclass(frozen=True)
class CKASettings:
    """Figs. 7 and 14: what the models are fine-tuned on and where CKA is measured."""

    finetune_dataset: str  # the models are fine-tuned on it (paper: ImageNet-R)
    datasets: list[str]    # CKA on images of each: suite datasets or the reference
    images: int            # seeded images per dataset

    def problems(self, bench: Benchmark) -> list[str]:
        problems = [] if self.finetune_dataset in bench.finetune_datasets else [
            f"finetune_dataset {self.finetune_dataset!r} is not a fine-tuning dataset of the benchmark "
            f"{bench.finetune_datasets}"]
        problems += [f"dataset {d!r} is neither in the suite nor the reference" for d in self.datasets
                     if d not in [*bench.s.suite, bench.reference]]
        return problems + ([] if self.datasets else ["datasets is empty"])


@dataclass(frozen=True)
class DistanceSettings:
    """Figs. 10 and 11: the sample drawn from each dataset and the suite datasets left out."""

    images: int          # seeded images per dataset, the reference included
    exclude: list[str]   # suite datasets left out

    def problems(self, bench: Benchmark) -> list[str]:
        return [f"exclude names {d!r}, not a suite dataset" for d in self.exclude if d not in bench.s.suite]




def analysis_settings(artefact: str, analysis: dict) -> CKASettings | DistanceSettings:
    """An artefact's `analysis`, checked like a settings file: exactly its keys, each of its type."""
    if artefact not in ANALYSES:
        raise KeyError(f"no representation panel for {artefact!r}; expected one of {sorted(ANALYSES)}")
    kind = ANALYSES[artefact][0]
    declared = {f.name: Parameter(f.name, f.type, None) for f in fields(kind)}
    chosen = kind(**validate(analysis, declared, f"analysis of {artefact}", declarer=kind.__name__))
    if chosen.images <= 0:
        raise ParamsError(f"analysis of {artefact}: images must be positive, got {chosen.images}")
    return chosen


def our_representation_panel(artefact: str, benchmark_params: str, results_dir: str,
                             analysis: dict) -> tuple[pd.DataFrame, Figure, Findings]:
    """Figures 7, 14 (CKA), 10 (OTDD) and 11 (accuracy vs distance) of a tier's benchmark:
    `(data, figure, findings)`, each finding judged by a seeded bootstrap interval. Settings and names are checked,
    then the data opened (the registry suite raises DatasetMissingError), before any model is loaded."""
    from .benchmark import Benchmark, BenchmarkSettings

    settings = BenchmarkSettings.load(benchmark_params)
    chosen = analysis_settings(artefact, analysis)
    bench = Benchmark(settings, results_dir)
    problems = chosen.problems(bench)
    if problems:
        raise ParamsError(f"analysis of {artefact}: " + "; ".join(problems))
    bench.runner.suite  # opens the data: missing datasets stop here
    return ANALYSES[artefact][1](bench, chosen, benchmark_params, results_dir)


def cka_findings(data: pd.DataFrame, key: str) -> list[Finding]:
    """Fig. 14 (`key` method): FT's mean CKA minus the lowest mean of the other methods, seeded bootstrap
    over the (dataset, block, component) cells. Fig. 7 (`key` regime) compares LAION-2B / OpenAI with
    ImageNet pretraining, which our miniature does not have."""
    claim = "FT changes the representation most (read: its mean CKA is the lowest of the methods)"
    quantity = "FT's mean CKA − the lowest mean CKA of the other methods"
    cells = data.pivot_table(index=["dataset", "block", "component"], columns=key, values="cka", sort=False)
    if key == "regime":
        return [Finding.undefined("mean CKA after FT, large-data (LAION-2B, OpenAI) minus ImageNet pretraining",
                                  "our miniature has no LAION-2B or OpenAI regime",
                                  "FT changes the representations of models pretrained on large data more", "<", 0.0,
                                  "lower CKA for LAION-2B and OpenAI (Fig. 7)")]
    if "FT" not in cells.columns or cells.shape[1] < 2:
        return [Finding.undefined(quantity, "needs FT and another method", claim, "<", 0.0, "Fig. 14")]
    columns = ["FT"] + [c for c in cells.columns if c != "FT"]

    def gap(rows: np.ndarray) -> float:
        means = rows.mean(axis=0)
        return float(means[0] - means[1:].min())

    rows = cells[columns].to_numpy()
    return [Finding(quantity, gap(rows), bootstrap_interval(rows, gap, unit="(dataset, block, component) cells"),
                    claim, "<", 0.0, "not the paper's: our question; Fig. 14 follows FT over its epochs, per pretraining")]


def _cka_panel(bench: Benchmark, chosen: CKASettings, pairs: list[tuple[str, str]],
               key: str) -> tuple[pd.DataFrame, Figure, Findings]:
    """CKA(pretrained, fine-tuned) per dataset, component and block, one line per `key` (regime or method)."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from .representation_measures import cka_shift

    seed, frames = bench.s.seeds[0], []
    for regime, method in pairs:
        pretrained = bench.runner.pretrained(regime, seed)
        finetuned = bench.runner.finetuned(method, regime, seed, chosen.finetune_dataset)
        suite = bench.runner.suite_for(regime, pretrained)
        for name in chosen.datasets:
            images, _ = suite.sample(name, chosen.images, seed)
            shift = cka_shift(pretrained, finetuned, images, device=bench.s.device)
            frames.append(shift.assign(regime=regime, method=method, dataset=name))
    data = pd.concat(frames, ignore_index=True)
    components = list(dict.fromkeys(data["component"]))
    fig, axes = plt.subplots(len(chosen.datasets), len(components), squeeze=False, sharex=True, sharey=True,
                             figsize=(2.1 * len(components) + 2.5, 1.9 * len(chosen.datasets) + 0.6))
    for row, name in enumerate(chosen.datasets):
        for col, component in enumerate(components):
            ax = axes[row][col]
            part = data[(data["dataset"] == name) & (data["component"] == component)]
            for label, line in part.groupby(key, sort=False):
                ax.plot(line["block"], line["cka"], marker="o", ms=3, label=label)
            ax.set_title(component if row == 0 else "", fontsize=8)
            ax.set_ylabel(f"CKA on {name}" if col == 0 else "", fontsize=7)
            ax.set_xlabel("block" if row == len(chosen.datasets) - 1 else "", fontsize=7)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0][-1].legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.suptitle(f"CKA(pretrained, fine-tuned on {chosen.finetune_dataset}), {chosen.images} images, seed {seed}",
                 fontsize=9)
    fig.tight_layout()
    return data, fig, Findings(cka_findings(data, key))


def _distances(bench: Benchmark, chosen: DistanceSettings, names: list[str], pixel_space: bool) -> pd.DataFrame:
    """OTDD from the reference to each of `names` in the first regime's feature space, after pixel
    space if asked: pixels as that model sees them (registry: through its eval transform)."""
    from .representation_measures import distances_from

    seed, regime = bench.s.seeds[0], bench.s.regimes[0]
    model = bench.runner.pretrained(regime, seed)
    suite = bench.runner.suite_for(regime, model)

    def sample(name: str) -> Labelled:
        return suite.sample(name, chosen.images, seed)

    spaces = ({"pixel space": None} if pixel_space else {}) | {f"feature space ({regime} model)": model}
    return distances_from(sample(bench.reference), ((name, sample(name)) for name in names), spaces, bench.s.device)


def _distance_panel(bench: Benchmark, chosen: DistanceSettings) -> tuple[pd.DataFrame, Figure, Findings]:
    import matplotlib.pyplot as plt

    names = [name for name in bench.s.suite if name not in chosen.exclude]
    distances = _distances(bench, chosen, names, pixel_space=True)
    pixel, feature = (distances[column] for column in distances.columns)
    fig, axes = plt.subplots(1, 2, figsize=(8.4, 3.2))
    for ax, column in zip(axes, distances.columns):
        distances[column].rename(lambda c: c.removeprefix("digits_")).plot.bar(ax=ax, rot=45, fontsize=7)
        ax.set_title(f"OTDD from {bench.reference}, {column}", fontsize=9)
    fig.tight_layout()
    rows = distances.to_numpy()
    finding = Finding("Spearman ρ between the pixel-space and feature-space distances of the datasets",
                      _spearman(rows), bootstrap_interval(rows, _spearman, unit="datasets"),
                      "pixel and feature space order the datasets differently (read: ρ below 1)", "<", 1.0,
                      "synthetic sets near in pixels, far in features (Fig. 10)")
    return distances.reset_index(names="dataset"), fig, Findings([finding])


def _spearman(rows: np.ndarray) -> float:
    """Spearman ρ of the two columns of `rows` (nan where either is constant)."""
    if len(np.unique(rows[:, 0])) < 2 or len(np.unique(rows[:, 1])) < 2:
        return float("nan")
    return _correlation(stats.rankdata(rows, axis=0))


def _correlation_panel(bench: Benchmark, chosen: DistanceSettings, benchmark_params: str,
                       results_dir: str) -> tuple[pd.DataFrame, Figure, Findings]:
    import matplotlib.pyplot as plt

    from ..params import tier_of
    from .benchmark import PRETRAINED
    from .figures import METHOD_COLOURS, draw_pearson_bars
    from .ours import run_benchmark

    names = [name for name in bench.finetune_datasets if name not in chosen.exclude]
    feature = _distances(bench, chosen, names, pixel_space=False).iloc[:, 0]
    _, acc, _ = run_benchmark(benchmark_params, results_dir)
    after = acc[(acc["eval_dataset"] == bench.reference) & (acc["method"] != PRETRAINED)
                & (acc["regime"] == bench.s.regimes[0]) & acc["finetune_dataset"].isin(names)]
    seeds = after["seed"].nunique()
    after = after.groupby(["method", "finetune_dataset"], sort=False)["accuracy"].mean().reset_index()
    data = accuracy_distance_correlation(after, feature)
    # drawn as the redraw of Fig. 11 and Table 7 (`figures.draw_figure11`): the same method colours, r per method
    fig, (ax, bars) = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [2, 1]})
    for method, part in after.groupby("method", sort=False):
        ax.plot(feature.loc[part["finetune_dataset"]].to_numpy(), part["accuracy"], "o", label=method, ms=4,
                color=METHOD_COLOURS.get(method))
    ax.set_xlabel(f"OTDD from {bench.reference} (feature space)")
    ax.set_ylabel(f"{bench.reference} accuracy after fine-tuning (%)")
    ax.set_title(f"ours ({tier_of(benchmark_params)}, {seeds} seed{'s' * (seeds != 1)}): regime {bench.s.regimes[0]}",
                 fontsize=9)
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    findings = {}
    for method, part in after.groupby("method", sort=False):
        rows = np.column_stack([feature.loc[part["finetune_dataset"]].to_numpy(), part["accuracy"].to_numpy()])
        findings[method] = Finding(f"{method}: Pearson r of {bench.reference} accuracy after fine-tuning with the "
                                   f"fine-tuning set's distance", data.set_index("method").loc[method, "pearson r"],
                                   bootstrap_interval(rows, _pearson, unit=f"fine-tuning datasets (of {len(rows)})"),
                                   "accuracy on the pretraining set falls with the fine-tuning set's distance from it",
                                   "<", 0.0, "negative for all but one cell (Table 7)")
    r = data.set_index("method")["pearson r"]
    r = r.reindex(sorted(r.index, key=lambda m: list(METHOD_COLOURS).index(m) if m in METHOD_COLOURS else len(r)))
    intervals = pd.DataFrame({m: {"low": f.interval.low, "high": f.interval.high} for m, f in findings.items()}).T
    draw_pearson_bars(bars, r, f"ours: r({bench.reference} accuracy, OTDD), Table 7's statistic\n"
                      "(whiskers: bootstrap over fine-tuning sets)", intervals)
    fig.tight_layout()
    return data, fig, Findings(list(findings.values()))


def _pearson(rows: np.ndarray) -> float:
    """Pearson r of the two columns of `rows` (nan where either is constant or fewer than 3 rows)."""
    if len(rows) < 3 or len(np.unique(rows[:, 0])) < 2 or len(np.unique(rows[:, 1])) < 2:
        return float("nan")
    return _correlation(rows)


def _correlation(rows: np.ndarray) -> float:
    """Pearson r of the two columns of `rows` by numpy (scipy's `pearsonr` gives the same r with a
    p-value, 20 times slower: these run inside 2,000 bootstrap resamples)."""
    return float(np.corrcoef(rows[:, 0], rows[:, 1])[0, 1])


def _regime_cka_panel(bench: Benchmark, chosen: CKASettings, *_: str) -> tuple[pd.DataFrame, Figure, Findings]:
    """Fig. 7: CKA after FT under each pretraining regime."""
    return _cka_panel(bench, chosen, [(regime, "FT") for regime in bench.s.regimes], "regime")


def _method_cka_panel(bench: Benchmark, chosen: CKASettings, *_: str) -> tuple[pd.DataFrame, Figure, Findings]:
    """Fig. 14: CKA after every method that changes the backbone, first pretraining regime."""
    methods = [m for m in bench.s.methods if m not in BACKBONE_UNCHANGED]
    return _cka_panel(bench, chosen, [(bench.s.regimes[0], m) for m in methods], "method")


def _dataset_distance_panel(bench: Benchmark, chosen: DistanceSettings, *_: str) -> tuple[pd.DataFrame, Figure, Findings]:
    """Fig. 10: the distances between the datasets."""
    return _distance_panel(bench, chosen)


# Each representation figure: the settings its `analysis` parameter holds, and the panel drawing it
# (called with the benchmark, those settings, the benchmark params file and the results folder).
ANALYSES: dict[str, tuple[type, Callable[..., tuple[pd.DataFrame, Figure, Findings]]]] = {
    "figure07": (CKASettings, _regime_cka_panel),
    "figure14": (CKASettings, _method_cka_panel),
    "figure10": (DistanceSettings, _dataset_distance_panel),
    "figure11": (DistanceSettings, _correlation_panel),
}
