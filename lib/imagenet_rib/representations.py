"""Representation and dataset analyses of ImageNet-RIB (Sec. 4.5, App. B–D): CKA per ViT block
between a pretrained and a fine-tuned model (Fig. 7; after every epoch of FT, Fig. 14), optimal-transport dataset distances
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


LARGE_DATA = ("LAION-2B", "OpenAI")  # the pretrainings Sec. 4.5 finds shifting most
OTDD_EXEMPT = ("Linear Probing",)  # App. B.2: "a negative trend for all methods except linear probing": drawn, not judged
CELLS = ["dataset", "block", "component"]


def _gap(rows: np.ndarray) -> float:
    """Mean of the first column minus mean of the second."""
    return float(rows[:, 0].mean() - rows[:, 1].mean())


def _cell_gap(quantity: str, cells: pd.DataFrame, columns: list, claim: str, paper: str, unit: str,
              claim_id: str = "") -> Finding:
    """`columns[0]`'s mean CKA minus `columns[1]`'s over the rows of `cells` (both defined), a seeded bootstrap
    over those rows; the claim (the ledger's `claim_id`, if any) says it is negative."""
    rows = cells.reindex(columns=columns).dropna().to_numpy()  # by label (boolean labels too)
    return Finding(quantity, _gap(rows), bootstrap_interval(rows, _gap, unit=unit), claim, "<", 0.0, paper, claim_id)


def large_data_gap(data: pd.DataFrame) -> Finding:
    """Figs. 7 and 14: mean CKA after FT of the regimes pretrained on LAION-2B or OpenAI's data minus the others',
    per (dataset, block, component) cell; undefined without both kinds (the miniature has neither)."""
    quantity = "mean CKA after FT, LAION-2B / OpenAI pretraining − the other pretrainings"
    claim = "FT changes the representations of models pretrained on LAION-2B and OpenAI's data more (lower CKA)"
    paper = "distinct, larger shifts for LAION-2B and OpenAI (Sec. 4.5, Figs. 7 and 14)"
    from .benchmark import regime_pretraining

    large = data["regime"].map(regime_pretraining).isin(LARGE_DATA)
    if large.all() or not large.any():
        return Finding.undefined(quantity, "our run has no LAION-2B or OpenAI regime beside others", claim, "<", 0.0,
                                 paper, "cka-large-data")
    cells = data.assign(large=large).pivot_table(index=CELLS, columns="large", values="cka", sort=False)
    return _cell_gap(quantity, cells, [True, False], claim, paper, "(dataset, block, component) cells", "cka-large-data")


def depth_gap(data: pd.DataFrame) -> Finding:
    """Fig. 7: mean CKA of the last block minus the first, per (regime, dataset, component) cell."""
    quantity = "mean CKA after FT of the last block − of the first"
    claim = "deeper layers change more in fine-tuning (read: lower CKA in the last block than in the first)"
    paper = "deeper layers exhibit greater discrepancy (Sec. 4.5, Fig. 7)"
    last = int(data["block"].max())
    if last == 0:
        return Finding.undefined(quantity, "the model has one block", claim, "<", 0.0, paper, "cka-depth")
    cells = data.pivot_table(index=["regime", "dataset", "component"], columns="block", values="cka", sort=False)
    return _cell_gap(quantity, cells, [last, 0], claim, paper, "(regime, dataset, component) cells", "cka-depth")


def epoch_drift(data: pd.DataFrame) -> Finding:
    """Fig. 14: mean CKA after the last epoch of FT minus after the first, per (regime, dataset, block, component)."""
    quantity = "mean CKA after the last epoch of FT − after the first"
    claim = "the representation moves further from the pretrained one as FT goes on (read: lower CKA at the end)"
    paper = "Fig. 14's shading (later epochs darker); the text states no trend over epochs"
    first, last = int(data["epoch"].min()), int(data["epoch"].max())
    if first == last:
        return Finding.undefined(quantity, "FT ran one epoch", claim, "<", 0.0, paper)
    cells = data.pivot_table(index=["regime", *CELLS], columns="epoch", values="cka", sort=False)
    return _cell_gap(quantity, cells, [last, first], claim, paper, "(regime, dataset, block, component) cells")


def draw_cka(data: pd.DataFrame, datasets: list[str], title: str) -> Figure:
    """CKA per block, a row per dataset and a column per component, a line per regime; with an `epoch` column a
    line per regime and epoch, later epochs in darker shades of the regime's colour (Fig. 14's convention)."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    components = list(dict.fromkeys(data["component"]))
    regimes = list(dict.fromkeys(data["regime"]))
    maps = [plt.get_cmap(name) for name in ("Blues", "Oranges", "Greens", "Purples", "Reds", "Greys", "YlOrBr")]
    epochs = sorted(data["epoch"].unique()) if "epoch" in data else [None]
    fig, axes = plt.subplots(len(datasets), len(components), squeeze=False, sharex=True, sharey=True,
                             figsize=(2.1 * len(components) + 2.5, 1.9 * len(datasets) + 0.6))
    for row, name in enumerate(datasets):
        for col, component in enumerate(components):
            ax = axes[row][col]
            part = data[(data["dataset"] == name) & (data["component"] == component)]
            for index, regime in enumerate(regimes):
                for step, epoch in enumerate(epochs):
                    line = part[part["regime"] == regime]
                    line = line if epoch is None else line[line["epoch"] == epoch]
                    shade = maps[index % len(maps)](0.35 + 0.65 * (step + 1) / len(epochs))
                    label = regime if epoch is None else f"{regime}, epoch {epoch}"
                    ax.plot(line["block"], line["cka"], marker="o", ms=3, color=shade,
                            label=label if epoch in (None, epochs[0], epochs[-1]) else None)
            ax.set_title(component if row == 0 else "", fontsize=8)
            ax.set_ylabel(f"CKA on {name}" if col == 0 else "", fontsize=7)
            ax.set_xlabel("block" if row == len(datasets) - 1 else "", fontsize=7)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0][-1].legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    return fig


def _samples(bench: Benchmark, chosen: CKASettings, regime: str, pretrained) -> dict:
    """The seeded images of each dataset of `chosen`, as `regime`'s model reads them (first seed)."""
    suite = bench.runner.suite_for(regime, pretrained)
    return {name: suite.sample(name, chosen.images, bench.s.seeds[0])[0] for name in chosen.datasets}


def _title(chosen: CKASettings, seed: int, what: str) -> str:
    return f"CKA(pretrained, {what} on {chosen.finetune_dataset}), {chosen.images} images, seed {seed}"


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
                                   "<", 0.0, "negative for all methods except linear probing (App. B.2; Table 7)")
    r = data.set_index("method")["pearson r"]
    r = r.reindex(sorted(r.index, key=lambda m: list(METHOD_COLOURS).index(m) if m in METHOD_COLOURS else len(r)))
    intervals = pd.DataFrame({m: {"low": f.interval.low, "high": f.interval.high} for m, f in findings.items()}).T
    draw_pearson_bars(bars, r, f"ours: r({bench.reference} accuracy, OTDD), Table 7's statistic\n"
                      "(whiskers: bootstrap over fine-tuning sets)", intervals)
    fig.tight_layout()
    return data, fig, Findings([f for method, f in findings.items() if method not in OTDD_EXEMPT])


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
    """Fig. 7: CKA per dataset, component and block between each regime's pretrained model and its FT copy (the
    benchmark's cached FT weights)."""
    from .representation_measures import cka_shift

    seed, frames = bench.s.seeds[0], []
    for regime in bench.s.regimes:
        pretrained = bench.runner.pretrained(regime, seed)
        finetuned = bench.runner.finetuned("FT", regime, seed, chosen.finetune_dataset)
        for name, images in _samples(bench, chosen, regime, pretrained).items():
            shift = cka_shift(pretrained, finetuned, images, device=bench.s.device)
            frames.append(shift.assign(regime=regime, method="FT", dataset=name))
    data = pd.concat(frames, ignore_index=True)
    fig = draw_cka(data, chosen.datasets, _title(chosen, seed, "FT"))
    return data, fig, Findings([large_data_gap(data), depth_gap(data)])


EPOCH_CKA_COLUMNS = ["block", "component", "cka", "dataset", "epoch"]  # one stored row of Fig. 14's run


def _epoch_cka_panel(bench: Benchmark, chosen: CKASettings, *_: str) -> tuple[pd.DataFrame, Figure, Findings]:
    """Fig. 14: Fig. 7's CKA after every epoch of FT, each regime's FT trained again with the CKA hook (its last
    epoch is Fig. 7's model: the same seeded run). One stored run per regime (the FT run's configuration and what
    is measured), so a re-run reads back the regimes a killed one finished."""
    seed, frames = bench.s.seeds[0], []
    for regime in bench.s.regimes:
        config = bench.run_config(regime, seed, "FT", chosen.finetune_dataset) | {
            "analysis": "cka_every_epoch", "datasets": chosen.datasets, "images": chosen.images}
        rows = bench.store.run(config, lambda: _epoch_cka(bench, chosen, regime, seed), bench.context)
        frames.append(rows[EPOCH_CKA_COLUMNS].assign(regime=regime, method="FT"))
    data = pd.concat(frames, ignore_index=True)
    fig = draw_cka(data, chosen.datasets, _title(chosen, seed, "FT after each epoch"))
    last = data[data["epoch"] == data["epoch"].max()]
    return data, fig, Findings([epoch_drift(data), large_data_gap(last)])


def _epoch_cka(bench: Benchmark, chosen: CKASettings, regime: str, seed: int) -> pd.DataFrame:
    """`regime`'s FT trained again with the CKA hook: the CKA rows of every epoch (`EPOCH_CKA_COLUMNS`)."""
    from .representation_measures import CKAEveryEpoch

    pretrained = bench.runner.pretrained(regime, seed)
    hook = CKAEveryEpoch(pretrained, _samples(bench, chosen, regime, pretrained), bench.s.device)
    bench.runner.trained_afresh("FT", regime, seed, chosen.finetune_dataset, hook)
    return pd.concat(hook.frames, ignore_index=True)[EPOCH_CKA_COLUMNS]


def _dataset_distance_panel(bench: Benchmark, chosen: DistanceSettings, *_: str) -> tuple[pd.DataFrame, Figure, Findings]:
    """Fig. 10: the distances between the datasets."""
    return _distance_panel(bench, chosen)


# Each representation figure: the settings its `analysis` parameter holds, and the panel drawing it
# (called with the benchmark, those settings, the benchmark params file and the results folder).
ANALYSES: dict[str, tuple[type, Callable[..., tuple[pd.DataFrame, Figure, Findings]]]] = {
    "figure07": (CKASettings, _regime_cka_panel),
    "figure14": (CKASettings, _epoch_cka_panel),
    "figure10": (DistanceSettings, _dataset_distance_panel),
    "figure11": (DistanceSettings, _correlation_panel),
}
