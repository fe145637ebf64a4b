"""The paper's analyses on our perturbation study (`study.py`), for the notebooks' "Our run".

The study's datasets stand in for the paper's by position: the first for ImageNet (Table 2, Figs. 3,
4, 5), the second for Food101 (Table 3, Fig. 6) — at the mini tier the digits and the photo crops;
models are named as the study names them, never relabelled as the paper's. Every conclusion is a
`lib.findings.Finding` with a seeded bootstrap interval over test images (one training seed: the
images are the unit the paper averages over).

- Tables 2-3: `our_table` (ACC, ACC_p, drop per head and perturbation, drawn beside the printed table
  by the paper's `accuracy_heatmaps`), findings on the drop, the largest drop and zero-shot vs linear probe.
- Fig. 3: `figure03` (average R_dr against m, equally spaced and random sampling).
- Fig. 4 and the appendix Figs. 12-14: `metric_grid` (average R_dr or R_cs per model and perturbation
  on the first or second dataset, `GRIDS`; the quoted values beside where the text gives them).
- Figs. 5-6: `accuracy_vs_radius` (ACC_p against R_dr per perturbation and head; the half-split
  regression of Sec. 5.2).
- Fig. 7: `figure07` (R_cs, R_dr and zero-shot ACC before and after robustness fine-tuning, λ sweep).
- Appendix Figs. 10-11: `regression_errors` (test MSE of ACC_p predicted from R_dr and from R_cs).
- Appendix Table 9: `table09` (the λ sweep of Fig. 7's runs as a table).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..findings import Finding, Findings, bootstrap_interval
from ..params import tier_of
from ..perturb.corruptions import CORRUPTIONS, PAPER_NAMES
from ..plotting import heatmap, scatter_with_fit
from ..results import combine, tidy
from ..store import RunContext, precompute_study
from .accuracies import HEADS, PAPER, TABLES, accuracies, largest_drop, quoted
from .figures import accuracy_heatmaps, paper_accuracy_panel
from .grid import CLEAN
from .study import Study, StudySettings
from .regression import constant_mse, half_labels, half_split_mse
from .tables import LINEAR_PROBE, ZERO_SHOT, accuracy_table, image_accuracies, paper_name

PERCENT = 100.0
DATASET_POSITION = {"table02": 0, "table03": 1, "figure03": 0, "figure04": 0, "figure05": 0, "figure06": 1,
                    "figure10": 0, "figure11": 1, "figure12": 0, "figure13": 1, "figure14": 1}
STUDY_ARTEFACTS = ("claims", "table02", "table03", "figure03", "figure04", "figure05", "figure06", "figure07", "table09",
                   "figure10", "figure11", "figure12", "figure13", "figure14")
RADIUS_BINS = 5  # images per (head, perturbation) binned by R_dr quantile for Figs. 5-6
UNCHANGED_POINTS = 2.0  # our reading of "nearly unchanged" accuracy (Fig. 7c): within 2 points
SATURATION = 0.95  # our reading of "near saturation" (Fig. 3): 95 % of the largest m's average radius


@dataclass(frozen=True)
class OurRun:
    """The study's runs read back: settings, tier, per-image metrics, per-item predictions, and the
    sampling and fine-tuning analyses (empty frames where the settings leave them out)."""

    settings: StudySettings
    tier: str
    metrics: pd.DataFrame
    predictions: pd.DataFrame
    sampling: pd.DataFrame
    finetune: pd.DataFrame

    def dataset(self, artefact: str) -> str:
        """The study's dataset standing in for the artefact's (by position)."""
        return self.settings.labels()[DATASET_POSITION[artefact]]

    def head_model(self, head: str) -> str:
        """The model a head runs on (the first the settings list for it)."""
        return (self.settings.zero_shot if head == ZERO_SHOT else self.settings.linear_probe_models)[0]

    def caption(self) -> str:
        s = self.settings
        return f"ours ({self.tier}, {s.source}: {', '.join(s.models)}; {s.n_images or 'all'} test images, m = {s.m})"


def run_study(study_params: str, results_dir: str) -> OurRun:
    """Load a tier's study settings and read back (computing where missing) every run of the study."""
    settings = StudySettings.load(study_params)
    study = Study(settings, Path(results_dir), RunContext(params_file=study_params, device=settings.device))
    metrics, predictions = study.run()
    sampling, finetune = study.analyses()
    return OurRun(settings, tier_of(study_params), metrics, predictions, sampling, finetune)


def precompute(params: Mapping[str, Any], artefacts: Collection[str]) -> int:
    """Compute the study's runs (`study_params`, `results_dir`) if a notebook of `artefacts` reads them;
    how many were computed by this process."""
    return precompute_study(StudySettings.load, Study, params, artefacts, STUDY_ARTEFACTS)


def _bootstrap(rows: np.ndarray, statistic: Callable[[np.ndarray], float], settings: StudySettings,
               split: bool = False) -> tuple[float, Any]:
    """The statistic of all rows and its bootstrap interval over rows (images); `split`: the statistic fits on
    the first half of the rows and tests on the second, so each half is resampled within itself."""
    interval = bootstrap_interval(rows, statistic, seed=settings.seed, resamples=settings.bootstrap_resamples,
                                  unit="test images", strata=half_labels(len(rows)) if split else None)
    return float(statistic(rows)), interval


# -- Tables 2-3 ----------------------------------------------------------------------------------
def drop_matrix(run: OurRun, dataset: str, head: str) -> pd.DataFrame:
    """Per test image (rows) and perturbation (columns, registry names in the study's order): its
    ACC - ACC_p in points (ACC 0 or 100, ACC_p the share of its perturbed versions classified right)."""
    per_image = image_accuracies(run.predictions)
    part = per_image[(per_image["dataset"] == dataset) & (per_image["head"] == head)]
    wide = part.pivot(index="item", columns="perturbation", values="accuracy")
    return PERCENT * (wide[[CLEAN]].to_numpy() - wide[run.settings.perturbations])


def our_table(run: OurRun, artefact: str) -> tuple[plt.Figure, pd.DataFrame, Findings]:
    """Table 2 or 3 from our run, drawn beside the printed table by the same function (each panel on its
    own labelled colour scale); its tidy CSV (paper and ours); the findings."""
    dataset = run.dataset(artefact)
    table = accuracy_table(run.predictions)
    table = table[table["dataset"] == dataset]
    wide = table[table["quantity"] != "ACC"].pivot_table(index=["head", "perturbation"], columns="quantity",
                                                         values="value").reset_index()
    wide["cell"] = [f"{a:.1f} ({'↓' if d >= 0 else '↑'} {abs(d):.1f})" for a, d in zip(wide["ACC_p"], wide["drop"])]
    clean = table[table["quantity"] == "ACC"].set_index("head")
    notes = {h: f"({clean.loc[h, 'model']})\nACC {clean.loc[h, 'value']:.1f}" for h in clean.index}
    s = run.settings
    fig = accuracy_heatmaps([(*paper_accuracy_panel(artefact), f"paper: {TABLES[artefact]}, as printed"),
                             (wide, notes, f"ours ({run.tier}): {dataset} standing in for {TABLES[artefact]}, "
                                           f"{s.n_images or 'all'} test images, m = {s.m}")])
    return fig, table_frame(run, artefact, table), table_findings(run, artefact)


def table_frame(run: OurRun, artefact: str, ours: pd.DataFrame) -> pd.DataFrame:
    """The table's printed cells and ours in the one results schema: `model` the head's model, `method`
    the head, `eval_dataset` "<dataset>: <perturbation or clean>", `metric` ACC / ACC_p / drop."""
    def named(frame: pd.DataFrame) -> pd.DataFrame:
        return frame.assign(method=frame["head"], metric=frame["quantity"],
                            eval_dataset=frame["dataset"] + ": " + frame["perturbation"].replace("", "clean"))

    paper = accuracies().query("artefact == @artefact")
    schema = {"paper": PAPER, "artefact": artefact}
    return combine(tidy(named(paper.assign(model=paper["head"].map(HEADS))), source="paper", tier="published", **schema),
                   tidy(named(ours), source="ours", tier=run.tier, **schema))


def table_findings(run: OurRun, artefact: str) -> Findings:
    """Per head: perturbations lower accuracy (mean drop over the nine > 0); the printed table's
    largest-drop perturbation has our largest drop too (its drop minus the largest other > 0);
    and the printed pattern zero-shot drops > linear-probe drops (17 of the 18 printed rows)."""
    dataset, s, findings = run.dataset(artefact), run.settings, []
    matrices = {}
    for head in HEADS:
        drops = drop_matrix(run, dataset, head)
        matrices[head] = drops
        model = run.head_model(head)
        estimate, interval = _bootstrap(drops.to_numpy(), lambda rows: float(rows.mean()), s)
        findings.append(Finding(f"{head} ({model}) on {dataset}: mean drop over the {drops.shape[1]} perturbations "
                                "(points)", estimate, interval, "common perturbations reduce ACC_p compared to ACC",
                                paper=f"all 9 drops positive in Table {artefact[-1]}"))
        name, printed = largest_drop(TABLES[artefact], head)
        target = PAPER_NAMES[name]
        if target in drops.columns:
            column = list(drops.columns).index(target)
            others = [i for i in range(drops.shape[1]) if i != column]

            def margin(rows: np.ndarray, c: int = column, o: list = others) -> float:
                means = rows.mean(axis=0)
                return float(means[c] - means[o].max())

            estimate, interval = _bootstrap(drops.to_numpy(), margin, s)
            findings.append(Finding(f"{head} on {dataset}: drop under {name} minus the largest other drop (points)",
                                    estimate, interval, f"{name} has the largest drop",
                                    paper=f"{name} {printed:g} is the largest printed drop"))
    if all(h in run.predictions["head"].unique() for h in HEADS):
        difference = (matrices[ZERO_SHOT] - matrices[LINEAR_PROBE]).to_numpy()
        estimate, interval = _bootstrap(difference, lambda rows: float(rows.mean()), s)
        findings.append(Finding(f"{dataset}: mean drop zero-shot minus linear probe (points)", estimate, interval,
                                "zero-shot drops exceed linear-probe drops (a pattern of the printed tables)",
                                paper="17 of 18 printed rows"))
    return Findings(findings)


# -- Figure 3 ------------------------------------------------------------------------------------
def figure03(run: OurRun) -> tuple[plt.Figure, pd.DataFrame, Findings]:
    """Average R_dr against m for equally-spaced and random sampling (random: mean over its draws, each
    draw's curve thin), the quoted saturation points marked; findings on saturation and on which
    sampling gets closer at the paper's m = 5."""
    frame, c = run.sampling, run.settings.sampling_study
    means = frame.groupby(["sampling", "m", "repeat"], as_index=False)["value"].mean()
    curves = means.groupby(["sampling", "m"], as_index=False)["value"].agg(["mean", "min", "max"]).reset_index()
    fig, ax = plt.subplots(figsize=(6.0, 4.0))
    colours = {"equal": "tab:blue", "random": "tab:orange"}
    for how, part in curves.groupby("sampling"):
        ax.plot(part["m"], part["mean"], "o-", color=colours[how], label=f"{how}ly spaced" if how == "equal" else
                "random (mean of draws)")
        if how == "random":
            ax.fill_between(part["m"], part["min"], part["max"], color=colours[how], alpha=0.2, lw=0,
                            label="random: range over draws")
    quotes = quoted().query("artefact == 'figure03'")
    for row, colour in zip(quotes.itertuples(), ("tab:blue", "tab:orange")):
        if "near-saturation" in row.quantity:
            ax.axvline(row.value, color=colour, ls=":", lw=1.2)
            ax.text(row.value, ax.get_ylim()[0], f" paper: {row.quantity.split(': ')[-1]} saturates at m ≥ {row.value:g}",
                    rotation=90, ha="right", va="bottom", fontsize=7, color=colour)  # left of its line: inside the axes
    ax.set_xscale("log")
    ax.minorticks_off()
    ax.set_xticks(sorted(curves["m"].unique()), [str(m) for m in sorted(curves["m"].unique())])
    ax.set_xlabel("m (sampled parameter values; the clean image added)" if run.settings.include_clean else "m")
    ax.set_ylabel("average DivergenceRadius")
    ax.set_title(f"{c['model']}, {c['perturbation']}, {c['dataset']} ({c['n_images']} test images) — ours ({run.tier})",
                 fontsize=8)
    ax.legend(fontsize=7)
    fig.tight_layout()
    data = tidy(means.assign(model=c["model"], method=means["sampling"], eval_dataset=c["dataset"],
                             metric="divergence_radius", seed=means["repeat"]), source="ours", paper=PAPER,
                artefact="figure03", tier=run.tier).assign(m=means["m"].to_numpy())
    return fig, data, figure03_findings(run)


SAMPLING_CLAIM = "equally-spaced-saturates-at-5"  # the ledger claim Fig. 3's findings bear on


def figure03_findings(run: OurRun) -> Findings:
    """Equally spaced: R_dr at m = 5 over R_dr at the largest m > `SATURATION`; equal minus random at m = 5 > 0."""
    frame, s = run.sampling, run.settings
    per_image = frame.groupby(["sampling", "m", "item"])["value"].mean().unstack("item")  # random: mean of draws
    largest, findings = int(frame["m"].max()), []
    if 5 not in frame["m"].unique():
        return Findings([Finding.undefined("R_dr at m = 5", "m = 5 not sampled", "near saturation at m >= 5",
                                           claim_id=SAMPLING_CLAIM)])
    rows = np.stack([per_image.loc[("equal", 5)].to_numpy(), per_image.loc[("equal", largest)].to_numpy(),
                     per_image.loc[("random", 5)].to_numpy(), per_image.loc[("random", largest)].to_numpy()], axis=1)
    for how, a, b in (("equal", 0, 1), ("random", 2, 3)):
        estimate, interval = _bootstrap(rows, lambda r, a=a, b=b: float(r[:, a].mean() / r[:, b].mean()), s)
        findings.append(Finding(f"{how}: average R_dr at m = 5 / at m = {largest}", estimate, interval,
                                f"{'near saturation at m = 5' if how == 'equal' else 'not yet saturated at m = 5'} "
                                f"(ours: ≥ {SATURATION:.0%} of the largest m's)",
                                direction=">" if how == "equal" else "<", threshold=SATURATION,
                                paper="equal saturates at m >= 5, random needs m >= 20", claim_id=SAMPLING_CLAIM))
    estimate, interval = _bootstrap(rows, lambda r: float(r[:, 0].mean() - r[:, 2].mean()), s)
    findings.append(Finding("average R_dr at m = 5: equally spaced minus random", estimate, interval,
                            "equally-spaced sampling converges more quickly", claim_id=SAMPLING_CLAIM))
    return Findings(findings)


# -- Figure 4 ------------------------------------------------------------------------------------
def radius_means(run: OurRun, dataset: str, metric: str = "divergence_radius") -> pd.DataFrame:
    """The average metric per model (rows, the study's order) and perturbation (columns, the paper's names)."""
    part = run.metrics[(run.metrics["dataset"] == dataset) & (run.metrics["metric"] == metric)]
    matrix = part.pivot_table(index="model", columns="perturbation", values="value", aggfunc="mean")
    matrix = matrix.reindex(index=run.settings.models, columns=run.settings.perturbations)
    return matrix.rename(columns=lambda p: CORRUPTIONS[p].paper_name if p in CORRUPTIONS else p)


@dataclass(frozen=True)
class MetricGrid:
    """One per-model x perturbation metric grid of Sec. 4.2 (Fig. 4 and the appendix Figs. 12-14): its
    metric, the lines the text gives about it, and what the paper says of the ViT-vs-ResNet comparison
    and of the highest value vs the largest drop there."""

    metric: str
    shape: tuple[str, ...]
    vit_paper: str
    drop_paper: str


METRIC_LABELS = {"divergence_radius": ("DivergenceRadius", "R_dr"), "cosine": ("cosine-similarity robustness", "R_cs")}
_VIT_BELOW = "ViT below ResNet (same pretraining)"
_COSINE_SHAPE = (_VIT_BELOW, "in every cell, as for R_dr", '("similar results are also', "observed when using cosine",
                 'similarity", Sec. 4.2).')
_COSINE_SAME = "Sec. 4.2: similar results with cosine similarity"
_DROPS_CORRELATE = "Sec. 5.2: the accuracy drop correlates with the robustness value"
GRIDS = {
    "figure04": MetricGrid("divergence_radius",
                           (_VIT_BELOW, "in every cell; the highest R_dr of", "CLIP ViT-L/14 and DINO v2 ViT-g/14",
                            "is Defocus blurring (the largest", "ACC_p drop of Table 2)."),
                           "ViT-B/16 < RN50 and ViT-L/14 < RN50x64 in every cell",
                           "Defocus blurring for CLIP ViT-L/14 and DINO v2 ViT-g/14"),
    "figure12": MetricGrid("cosine", _COSINE_SHAPE, _COSINE_SAME,
                           _DROPS_CORRELATE + " (Table 2's largest: Glass / Defocus blurring)"),
    "figure13": MetricGrid("divergence_radius",
                           (_VIT_BELOW, '"across all perturbations and', 'datasets";', "larger CLIPs higher R_dr except",
                            "a few Food101 cells (JPEG,", "Defocus blurring)."),
                           "ViT-B/16 < RN50 and ViT-L/14 < RN50x64 across all perturbations and datasets",
                           _DROPS_CORRELATE + " (Table 3's largest: Frost blurring)"),
    "figure14": MetricGrid("cosine", _COSINE_SHAPE, _COSINE_SAME,
                           _DROPS_CORRELATE + " (Table 3's largest: Frost blurring)"),
}
PAPER_DATASETS = ("ImageNet", "Food101")  # the paper's datasets by the study's position


def metric_grid(run: OurRun, artefact: str) -> tuple[plt.Figure, pd.DataFrame, Findings]:
    """Fig. 4 or appendix Figs. 12-14: the average metric per model and perturbation on the artefact's
    dataset, the values the text quotes (Fig. 4 only) and the shape it describes beside."""
    grid, dataset = GRIDS[artefact], run.dataset(artefact)
    name, _ = METRIC_LABELS[grid.metric]
    paper_dataset = PAPER_DATASETS[DATASET_POSITION[artefact]]
    matrix = radius_means(run, dataset, grid.metric)
    fig, (ax, side) = plt.subplots(1, 2, figsize=(11.5, 0.5 * len(matrix) + 3.2), gridspec_kw={"width_ratios": [3, 1.3]})
    # Both metrics lie in [0, 1] (the bounded axiom): one colour is one value in Figs. 4 and 12-14.
    heatmap(ax, matrix, fmt=".3f", vmin=0.0, vmax=1.0, cbar=True, title=f"average {name} on {dataset} — {run.caption()}")
    quotes = quoted().query("artefact == @artefact")
    quoted_lines = [f"{q.model}, {q.perturbation}: {q.value:g}" for q in quotes.itertuples()]
    lines = ([f"The paper ({paper_dataset}, Sec. 4.2):", *quoted_lines] if quoted_lines else
             [f"The paper ({paper_dataset}): no value", "in our text (appendix)."])
    lines += ["", "Shape the text describes:", *grid.shape]
    side.text(0, 1, "\n".join(lines), va="top", fontsize=8, family="monospace")
    side.axis("off")
    fig.tight_layout()
    long = matrix.stack().rename("value").reset_index()
    data = tidy(long.assign(method=long["perturbation"], eval_dataset=dataset), source="ours", paper=PAPER,
                artefact=artefact, tier=run.tier, metric=grid.metric)
    return fig, data, grid_findings(run, artefact)


def figure04(run: OurRun) -> tuple[plt.Figure, pd.DataFrame, Findings]:
    """Average R_dr per model and perturbation on the first dataset, the four quoted values beside."""
    return metric_grid(run, "figure04")


def _image_radii(run: OurRun, dataset: str, model: str, metric: str = "divergence_radius") -> pd.DataFrame:
    part = run.metrics[(run.metrics["dataset"] == dataset) & (run.metrics["metric"] == metric)
                       & (run.metrics["model"] == model)]
    return part.pivot(index="item", columns="perturbation", values="value")[run.settings.perturbations]


# The (ResNet, ViT) pairs the paper compares (Sec. 4.2: CLIP RN50 against ViT-B/16, RN50x64 against ViT-L/14, each
# pair on OpenAI's data), and the miniature's stand-ins; a study's findings take the pairs whose models it ran.
RESNET_VIT_PAIRS = (("fm_clip_rn50_openai", "fm_clip_vit_b16_openai"), ("fm_clip_rn50x64_openai", "fm_clip_vit_l14_openai"),
                    ("tiny_resnet", "tiny_vit"))


def grid_findings(run: OurRun, artefact: str) -> Findings:
    """ViT vs ResNet (`RESNET_VIT_PAIRS`) per perturbation: metric(ResNet) - metric(ViT) > 0; on an R_dr grid, per model,
    the largest per-image R_dr below 1 (the worst-robustness scenario does not occur); for each head's
    model, the perturbation of its largest metric is that of its head's largest drop; on a grid of the
    second dataset, per model, the perturbations rank alike on both datasets (Spearman > 0)."""
    s, findings, grid, dataset = run.settings, [], GRIDS[artefact], run.dataset(artefact)
    short = METRIC_LABELS[grid.metric][1]
    pairs = [(resnet, vit) for resnet, vit in RESNET_VIT_PAIRS if {resnet, vit} <= set(s.models)]
    for resnet, vit in pairs:
        rows = (_image_radii(run, dataset, resnet, grid.metric) - _image_radii(run, dataset, vit, grid.metric)).to_numpy()
        for j, perturbation in enumerate(s.perturbations):
            estimate, interval = _bootstrap(rows, lambda r, j=j: float(r[:, j].mean()), s)
            findings.append(Finding(f"{short} {resnet} - {vit}, {CORRUPTIONS[perturbation].paper_name}", estimate, interval,
                                    f"a ViT is more robust than a ResNet (lower {short})", paper=grid.vit_paper,
                                    claim_id="vit-more-robust-than-resnet"))
    if grid.metric == "divergence_radius":  # R_dr = 1 is the worst-robustness scenario (Sec. 3.2, property 4)
        for model in s.models:
            radii = _image_radii(run, dataset, model).to_numpy()
            estimate, interval = _bootstrap(radii, lambda r: float(np.max(r)), s)
            findings.append(Finding(f"{model}: largest per-image R_dr over {radii.shape[0]} images x {radii.shape[1]} "
                                    "perturbations", estimate, interval,
                                    "the worst-robustness scenario (R_dr = 1) does not occur", "<", 1.0,
                                    paper="Sec. 4: not in the evaluated perturbations", claim_id="worst-case-does-not-occur"))
    for head in (h for h in HEADS if h in set(run.predictions["head"])):
        model = run.head_model(head)
        radii = _image_radii(run, dataset, model, grid.metric).to_numpy()
        drops = drop_matrix(run, dataset, head).to_numpy()
        top = int(np.argmax(drops.mean(axis=0)))
        others = [i for i in range(radii.shape[1]) if i != top]
        estimate, interval = _bootstrap(radii, lambda r, t=top, o=others: float(r[:, t].mean() - r[:, o].mean(axis=0).max()), s)
        findings.append(Finding(f"{model}: {short} under {CORRUPTIONS[s.perturbations[top]].paper_name} (its {head.lower()} "
                                f"head's largest drop) minus the largest other {short}", estimate, interval,
                                f"the perturbation with the highest {short} has the largest ACC_p drop",
                                paper=grid.drop_paper, claim_id="drop-tracks-robustness"))
    first = s.labels()[0]
    if dataset != first:
        for model in s.models:
            both = np.concatenate([_image_radii(run, dataset, model, grid.metric).to_numpy(),
                                   _image_radii(run, first, model, grid.metric).to_numpy()], axis=1)
            estimate, interval = _bootstrap(both, lambda r, k=len(s.perturbations): rank_correlation(
                r[:, :k].mean(axis=0), r[:, k:].mean(axis=0)), s)
            findings.append(Finding(f"{model}: rank correlation of the perturbations' average {short}, {dataset} vs "
                                    f"{first}", estimate, interval,
                                    "the perturbations rank alike on both datasets (our question)",
                                    paper="orderings hold 'across all datasets' (Sec. 4.2)"))
    return Findings(findings)


def rank_correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation of two vectors (ties broken by position)."""
    return float(np.corrcoef(np.argsort(np.argsort(a)), np.argsort(np.argsort(b)))[0, 1])


# -- Figures 5-6 ---------------------------------------------------------------------------------
def accuracy_radius_pairs(run: OurRun, dataset: str, head: str) -> pd.DataFrame:
    """Per test image and perturbation: its R_dr under the head's model and its ACC_p (%) under the head."""
    model = run.head_model(head)
    radii = _image_radii(run, dataset, model).stack().rename("R_dr")
    per_image = image_accuracies(run.predictions)
    accuracy = per_image[(per_image["dataset"] == dataset) & (per_image["head"] == head)
                         & (per_image["perturbation"] != CLEAN)].set_index(["item", "perturbation"])["accuracy"]
    pairs = pd.concat([radii, PERCENT * accuracy.rename("ACC_p")], axis=1, join="inner").reset_index()
    pairs["perturbation"] = pairs["perturbation"].map(lambda p: CORRUPTIONS[p].paper_name if p in CORRUPTIONS else p)
    return pairs.assign(head=head, model=model, dataset=dataset)


def binned(pairs: pd.DataFrame, bins: int = RADIUS_BINS) -> pd.DataFrame:
    """Per perturbation, the images in `bins` R_dr quantile bins: mean R_dr and mean ACC_p of each bin."""
    def one(group: pd.DataFrame) -> pd.DataFrame:
        codes = pd.qcut(group["R_dr"].rank(method="first"), min(bins, len(group)), labels=False).rename("bin")
        return group.groupby(codes)[["R_dr", "ACC_p"]].mean().assign(n_images=group.groupby(codes).size())

    return pairs.groupby("perturbation", sort=False).apply(one, include_groups=False).reset_index()


def _line(pairs: pd.DataFrame) -> tuple[float, float]:
    """Least-squares (slope, intercept) of ACC_p on R_dr over the pairs (flat at their mean if R_dr is constant)."""
    if pairs["R_dr"].nunique() > 1:
        slope, intercept = np.polyfit(pairs["R_dr"], pairs["ACC_p"], 1)
        return float(slope), float(intercept)
    return 0.0, float(pairs["ACC_p"].mean())


def perturbation_slopes(run: OurRun, artefact: str) -> pd.DataFrame:
    """Per head and perturbation of Fig. 5 or 6: the slope of ACC_p (%) on R_dr over the images (the lines
    drawn), with the R_dr range it spans: does ACC_p fall with R_dr within each perturbation, not only across?"""
    dataset = run.dataset(artefact)
    rows = []
    for head in (h for h in HEADS if h in set(run.predictions["head"])):
        for name, group in accuracy_radius_pairs(run, dataset, head).groupby("perturbation", sort=False):
            rows.append({"head": head, "perturbation": name, "slope (ACC_p % per unit R_dr)": _line(group)[0],
                         "R_dr low": group["R_dr"].min(), "R_dr high": group["R_dr"].max()})
    return pd.DataFrame(rows)


def slope_summary(slopes: pd.DataFrame) -> str:
    """How many of `perturbation_slopes`' lines fall, naming those that do not."""
    rising = slopes[slopes["slope (ACC_p % per unit R_dr)"] >= 0]
    names = ", ".join(f"{r.head.split()[0]}: {r.perturbation}" for r in rising.itertuples()) or "none"
    return f"{len(slopes) - len(rising)} of {len(slopes)} per-perturbation lines fall with R_dr; flat or rising: {names}"


def accuracy_vs_radius(run: OurRun, artefact: str) -> tuple[plt.Figure, pd.DataFrame, Findings]:
    """Fig. 5 or 6 from our run: per head, ACC_p against R_dr per perturbation (bins of images and
    each perturbation's least-squares line over its images, drawn across its bins); findings on the
    slope and the regression."""
    dataset = run.dataset(artefact)
    heads = [h for h in HEADS if h in set(run.predictions["head"])]
    fig, axes = plt.subplots(1, len(heads), figsize=(5.2 * len(heads) + 2.0, 4.2), squeeze=False)
    frames, findings = [], []
    for ax, head, letter in zip(axes[0], heads, "ab"):
        pairs = accuracy_radius_pairs(run, dataset, head)
        points = binned(pairs)
        lines = []
        for name, group in pairs.groupby("perturbation", sort=False):
            slope, intercept = _line(group)
            span = points.loc[points["perturbation"] == name, "R_dr"]  # drawn over the bins' range
            x = np.linspace(span.min(), span.max(), 20)
            lines.append(pd.DataFrame({"line": name, "x": x, "fit": slope * x + intercept, "low": np.nan, "high": np.nan}))
        scatter_with_fit(ax, points, "R_dr", "ACC_p", hue="perturbation", lines=pd.concat(lines), identity=False)
        ax.set_xlabel("DivergenceRadius (bin mean)")
        ax.set_ylabel("ACC_p (%)")
        ax.set_title(f"({letter}) {head.split()[0]}: {run.head_model(head)} on {dataset}", fontsize=9)
        frames.append(points.assign(head=head, model=run.head_model(head)))
        findings += _radius_findings(run, pairs, head, dataset)
    axes[0][-1].legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle(f"ACC_p vs DivergenceRadius — {run.caption()}; paper: ACC_p decreases roughly linearly", fontsize=8)
    fig.tight_layout()
    points = pd.concat(frames, ignore_index=True)
    data = tidy(points.rename(columns={"ACC_p": "value"}).assign(method=points["head"], eval_dataset=dataset + ": "
                                                                 + points["perturbation"]),
                source="ours", paper=PAPER, artefact=artefact, tier=run.tier, metric="ACC_p").assign(
        R_dr=points["R_dr"].to_numpy(), n_images=points["n_images"].to_numpy())
    return fig, data, Findings(findings)


def _radius_findings(run: OurRun, pairs: pd.DataFrame, head: str, dataset: str) -> list[Finding]:
    """The slope of ACC_p on R_dr over every (image, perturbation) pair < 0, and the half-split
    regression's test MSE below the constant predictor's, both bootstrapped over images."""
    s = run.settings
    wide = pairs.pivot(index="item", columns="perturbation", values=["R_dr", "ACC_p"])
    k = wide["R_dr"].shape[1]
    rows = np.concatenate([wide["R_dr"].to_numpy(), wide["ACC_p"].to_numpy(), wide.index.to_numpy()[:, None]], axis=1)

    def slope(r: np.ndarray) -> float:
        x, y = r[:, :k].ravel(), r[:, k:2 * k].ravel()
        return float(np.polyfit(x, y, 1)[0]) if np.ptp(x) > 0 else float("nan")

    def gain(r: np.ndarray) -> float:  # Sec. 5.2's protocol, one line over every perturbation's pairs
        x, y = r[:, :k], r[:, k:2 * k]
        return float(constant_mse(y, pooled=True) - half_split_mse(x, y, pooled=True))

    model = run.head_model(head)
    estimate, interval = _bootstrap(rows, slope, s)
    found = [Finding(f"{head.split()[0]} ({model}), {dataset}: slope of ACC_p (%) on R_dr over images x perturbations",
                     estimate, interval, "ACC_p decreases as DivergenceRadius increases", direction="<",
                     claim_id="accp-linear-in-radius")]
    estimate, interval = _bootstrap(rows, gain, s, split=True)
    found.append(Finding(f"{head.split()[0]}, {dataset}: test MSE of the mean minus that of the line (first half -> "
                         "second half)", estimate, interval, "R_dr predicts ACC_p (the regression beats a constant)",
                         paper="low MSE in Figs. 10-11 (not in our text)"))
    return found


# -- Figures 10-11 (appendix) ----------------------------------------------------------------------
PREDICTORS = {"divergence_radius": "R_dr", "cosine": "R_cs"}  # the robustness values Sec. 5.2 regresses on


def prediction_rows(run: OurRun, dataset: str, head: str) -> tuple[np.ndarray, list[str]]:
    """Per test image (rows, by item): its value of each predictor under each perturbation, then its
    ACC_p (%) under each perturbation (blocks of k columns, the study's perturbation order); the names."""
    model, perturbations = run.head_model(head), run.settings.perturbations
    per_image = image_accuracies(run.predictions)
    accuracy = per_image[(per_image["dataset"] == dataset) & (per_image["head"] == head)].pivot(
        index="item", columns="perturbation", values="accuracy")[perturbations]
    blocks = [_image_radii(run, dataset, model, metric) for metric in PREDICTORS] + [PERCENT * accuracy]
    items = blocks[0].index
    return np.concatenate([b.loc[items].to_numpy() for b in blocks], axis=1), [paper_name(p) for p in perturbations]


def _errors(rows: np.ndarray, k: int) -> dict[str, np.ndarray]:
    """Per predictor (and the constant baseline): the test MSE per perturbation."""
    accuracy = rows[:, -k:]
    errors = {name: half_split_mse(rows[:, i * k:(i + 1) * k], accuracy) for i, name in enumerate(PREDICTORS.values())}
    return errors | {"constant": constant_mse(accuracy)}


def _mean_difference(errors: dict[str, np.ndarray], a: str, b: str) -> float:
    """The mean over perturbations of predictor `a`'s test MSE minus `b`'s."""
    return float(np.mean(errors[a] - errors[b]))


def regression_errors(run: OurRun, artefact: str) -> tuple[plt.Figure, pd.DataFrame, Findings]:
    """Appendix Fig. 10 or 11 from our run: per head, the test MSE of predicting ACC_p (%) from R_dr and
    from R_cs (a line per perturbation, first half of the images -> second half), beside the constant
    predictor's; findings on each predictor beating the constant and on R_cs minus R_dr."""
    dataset = run.dataset(artefact)
    heads = [h for h in HEADS if h in set(run.predictions["head"])]
    fig, axes = plt.subplots(1, len(heads), figsize=(6.0 * len(heads), 4.2), squeeze=False)
    records, findings = [], []
    for ax, head, letter in zip(axes[0], heads, "ab"):
        rows, names = prediction_rows(run, dataset, head)
        errors = _errors(rows, len(names))
        width = 0.8 / len(errors)
        for j, (predictor, values) in enumerate(errors.items()):
            ax.bar(np.arange(len(names)) + (j - (len(errors) - 1) / 2) * width, values, width,
                   color="0.75" if predictor == "constant" else plt.cm.tab10(j),
                   label="constant (first half's mean)" if predictor == "constant" else f"line on {predictor}")
            records += [{"model": run.head_model(head), "method": head, "eval_dataset": f"{dataset}: {n}",
                         "metric": f"test MSE ({predictor})", "value": v} for n, v in zip(names, values)]
        ax.set_xticks(range(len(names)), names, rotation=45, ha="right", fontsize=7)
        ax.set_ylabel("test MSE of ACC_p (%²)")
        ax.set_title(f"({letter}) {head.split()[0]}: {run.head_model(head)} on {dataset}", fontsize=9)
        findings += _regression_findings(run, rows, len(names), head, dataset)
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle(f"Predicting ACC_p from the robustness value (first half -> second half) — {run.caption()}; "
                 "paper: low MSE", fontsize=8)
    fig.tight_layout()
    data = tidy(pd.DataFrame(records), source="ours", paper=PAPER, artefact=artefact, tier=run.tier)
    return fig, data, Findings(findings)


def _regression_findings(run: OurRun, rows: np.ndarray, k: int, head: str, dataset: str) -> list[Finding]:
    """Per predictor: constant MSE minus the line's, averaged over perturbations, > 0 (the value predicts
    ACC_p); and MSE(R_cs) - MSE(R_dr) > 0 (R_dr predicts better), bootstrapped over images."""
    s, found, label = run.settings, [], f"{head.split()[0]} ({run.head_model(head)}), {dataset}"
    for predictor in PREDICTORS.values():
        estimate, interval = _bootstrap(rows, lambda r, p=predictor: _mean_difference(_errors(r, k), "constant", p), s,
                                        split=True)
        found.append(Finding(f"{label}: test MSE of the mean minus that of the line on {predictor} (%², mean over "
                             "perturbations)", estimate, interval, f"{predictor} predicts ACC_p (a line beats a constant)",
                             paper="low MSE: 'can reliably predict downstream accuracy' (Sec. 5.2)",
                             claim_id="regression-predicts-accp"))
    estimate, interval = _bootstrap(rows, lambda r: _mean_difference(_errors(r, k), "R_cs", "R_dr"), s, split=True)
    found.append(Finding(f"{label}: test MSE on R_cs minus on R_dr (%², mean over perturbations)", estimate, interval,
                         "R_dr predicts ACC_p better than R_cs (our question: the text credits both)"))
    return found


# -- Figure 7 ------------------------------------------------------------------------------------
def finetune_condition(frame: pd.DataFrame) -> np.ndarray:
    """Per row of the fine-tuning analysis: `before`, or `λ = <weight>` after fine-tuning at that weight."""
    return np.where(frame["state"] == "before", "before", "λ = " + frame["weight"].map("{:g}".format))


def figure07(run: OurRun) -> tuple[plt.Figure, pd.DataFrame, Findings]:
    """(a) average R_cs, (b) average R_dr, (c) zero-shot ACC per dataset, before and after
    fine-tuning at each λ (the paper's default λ = 1 among them), with bootstrap intervals over images."""
    frame = run.finetune.assign(condition=lambda f: finetune_condition(f))
    conditions = list(dict.fromkeys(["before", *sorted(set(frame["condition"]) - {"before"},
                                                       key=lambda c: float(c.split("= ")[1]))]))
    datasets = run.settings.labels()
    fig, axes = plt.subplots(1, 3, figsize=(13.0, 3.8))
    rows = []
    for ax, (metric, label) in zip(axes, (("cosine", "(a) average R_cs"), ("divergence_radius", "(b) average R_dr"),
                                          ("ACC", "(c) zero-shot ACC (%)"))):
        width = 0.8 / len(conditions)
        for j, condition in enumerate(conditions):
            for i, dataset in enumerate(datasets):
                values = frame.query("metric == @metric and condition == @condition and dataset == @dataset")["value"]
                values = values.to_numpy(dtype=float) * (PERCENT if metric == "ACC" else 1.0)
                estimate, interval = _bootstrap(values, lambda v: float(v.mean()), run.settings)
                x = i + (j - (len(conditions) - 1) / 2) * width
                ax.bar(x, estimate, width, color=plt.cm.viridis(j / max(len(conditions) - 1, 1)),
                       label=condition if i == 0 else None)
                ax.vlines(x, interval.low, interval.high, color="black", lw=1)
                rows.append({"model": run.settings.finetune["model"], "method": condition, "eval_dataset": dataset,
                             "metric": metric, "value": estimate, "spread": (interval.high - interval.low) / 2})
        ax.set_xticks(range(len(datasets)), datasets)
        ax.set_title(label, fontsize=9)
    axes[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    f = run.settings.finetune
    fig.suptitle(f"{f['model']} fine-tuned on {f['n_train']} {f['dataset']} images under {f['perturbation']} — "
                 f"{run.caption()}; paper: R_cs and R_dr fall, ACC nearly unchanged", fontsize=8)
    fig.tight_layout()
    data = tidy(pd.DataFrame(rows), source="ours", paper=PAPER, artefact="figure07", tier=run.tier)
    return fig, data, figure07_findings(run, frame)


def _paired(frame: pd.DataFrame, metric: str, dataset: str, condition: str, reference: str = "before") -> np.ndarray:
    """Per test image: the metric under `condition` and under `reference` (ACC in points)."""
    part = frame.query("metric == @metric and dataset == @dataset")
    wide = part.pivot_table(index="item", columns="condition", values="value")
    return (wide[[condition, reference]] * (PERCENT if metric == "ACC" else 1.0)).to_numpy()


def _change(rows: np.ndarray) -> float:
    return float(rows[:, 0].mean() - rows[:, 1].mean())


def figure07_findings(run: OurRun, frame: pd.DataFrame) -> Findings:
    """Per dataset, at λ = 1: R_cs and R_dr after - before < 0; ACC after - before > -`UNCHANGED_POINTS`;
    and the λ sweep's ends (Table 9, `lambda_findings`)."""
    s, findings = run.settings, []
    weights = sorted({float(w) for w in frame["weight"].dropna()})
    for dataset in s.labels():
        if 1.0 in weights:
            for metric, name in (("cosine", "R_cs"), ("divergence_radius", "R_dr")):
                estimate, interval = _bootstrap(_paired(frame, metric, dataset, "λ = 1"), _change, s)
                findings.append(Finding(f"{dataset}: average {name} after (λ = 1) minus before", estimate, interval,
                                        "fine-tuning improves robustness", direction="<",
                                        paper="both metrics decrease (Fig. 7a, b)"))
            estimate, interval = _bootstrap(_paired(frame, "ACC", dataset, "λ = 1"), _change, s)
            findings.append(Finding(f"{dataset}: zero-shot ACC after (λ = 1) minus before (points)", estimate, interval,
                                    f"ACC nearly unchanged (ours: loses less than {UNCHANGED_POINTS:g} points)",
                                    threshold=-UNCHANGED_POINTS, paper="nearly unchanged (Fig. 7c)"))
        findings += lambda_findings(run, frame, dataset, weights)
    return Findings(findings)


LAMBDA_CLAIM = "lambda-trade-off"  # the ledger claim the λ sweep's findings bear on


def lambda_findings(run: OurRun, frame: pd.DataFrame, dataset: str, weights: list[float]) -> list[Finding]:
    """The λ sweep's ends on one dataset (Table 9): λ = 0 loses accuracy; the largest λ keeps more R_dr
    than λ = 1."""
    s, findings = run.settings, []
    if 0.0 in weights:
        estimate, interval = _bootstrap(_paired(frame, "ACC", dataset, "λ = 0"), _change, s)
        findings.append(Finding(f"{dataset}: zero-shot ACC at λ = 0 minus before (points)", estimate, interval,
                                "λ = 0 achieves robustness but utility declines", direction="<",
                                paper="Table 9 (not in our text)", claim_id=LAMBDA_CLAIM))
    if 1.0 in weights and weights[-1] > 1.0:
        top = f"λ = {weights[-1]:g}"
        estimate, interval = _bootstrap(_paired(frame, "divergence_radius", dataset, top, "λ = 1"), _change, s)
        findings.append(Finding(f"{dataset}: average R_dr at {top} minus at λ = 1", estimate, interval,
                                "a large λ favours utility over robustness (higher R_dr)",
                                paper="Table 9 (not in our text)", claim_id=LAMBDA_CLAIM))
    return findings


# -- Table 9 (appendix) --------------------------------------------------------------------------
TABLE09_METRICS = {"cosine": "R_cs", "divergence_radius": "R_dr", "ACC": "zero-shot ACC (%)"}


def table09(run: OurRun) -> tuple[plt.Figure, pd.DataFrame, Findings]:
    """Appendix Table 9 from our λ sweep (the fine-tuning runs of Fig. 7): per dataset and condition
    (before, each λ), the average R_cs, R_dr and zero-shot ACC with bootstrap intervals over images, as a
    table; findings on both ends of the sweep."""
    frame = run.finetune.assign(condition=lambda f: finetune_condition(f))
    weights = sorted({float(w) for w in frame["weight"].dropna()})
    conditions = ["before"] + [f"λ = {w:g}" for w in weights]
    rows = []
    for dataset in run.settings.labels():
        for condition in conditions:
            for metric, label in TABLE09_METRICS.items():
                values = frame.query("metric == @metric and condition == @condition and dataset == @dataset")["value"]
                values = values.to_numpy(dtype=float) * (PERCENT if metric == "ACC" else 1.0)
                estimate, interval = _bootstrap(values, lambda v: float(v.mean()), run.settings)
                rows.append({"model": run.settings.finetune["model"], "method": condition, "eval_dataset": dataset,
                             "metric": metric, "value": estimate, "low": interval.low, "high": interval.high})
    table = pd.DataFrame(rows)
    text = [f"{v:.3g} [{lo:.3g}, {hi:.3g}]" for v, lo, hi in zip(table["value"], table["low"], table["high"])]
    cells = table.assign(cell=text, column=table["eval_dataset"] + ": " + table["metric"].map(TABLE09_METRICS))
    grid = cells.pivot(index="method", columns="column", values="cell")
    grid = grid.reindex(index=conditions, columns=list(dict.fromkeys(cells["column"])))
    fig, ax = plt.subplots(figsize=(2.3 * grid.shape[1] + 1.5, 0.45 * len(grid) + 1.4))
    ax.axis("off")
    drawn = ax.table(cellText=grid.to_numpy(), rowLabels=list(grid.index), colLabels=list(grid.columns), loc="center")
    drawn.auto_set_font_size(False)
    drawn.set_fontsize(7)
    drawn.scale(1.0, 1.4)
    f = run.settings.finetune
    ax.set_title(f"{f['model']} fine-tuned on {f['n_train']} {f['dataset']} images under {f['perturbation']}, per λ — "
                 f"{run.caption()}\npaper: small λ (0) robust but less useful; large λ (5) favours utility", fontsize=8)
    fig.tight_layout()
    data = tidy(table.drop(columns=["low", "high"]).assign(spread=(table["high"] - table["low"]) / 2), source="ours",
                paper=PAPER, artefact="table09", tier=run.tier)
    return fig, data, table09_findings(run, frame, weights)


def table09_findings(run: OurRun, frame: pd.DataFrame, weights: list[float]) -> Findings:
    """Per dataset: at λ = 0, R_dr after - before < 0 (robustness achieved) and the sweep's ends
    (`lambda_findings`); at the largest λ, ACC minus ACC at λ = 0 > 0 (utility favoured)."""
    s, findings = run.settings, []
    for dataset in s.labels():
        if 0.0 in weights:
            estimate, interval = _bootstrap(_paired(frame, "divergence_radius", dataset, "λ = 0"), _change, s)
            findings.append(Finding(f"{dataset}: average R_dr at λ = 0 minus before", estimate, interval,
                                    "λ = 0 achieves robustness", direction="<", paper="Table 9 (not in our text)",
                                    claim_id=LAMBDA_CLAIM))
        findings += lambda_findings(run, frame, dataset, weights)
        if 0.0 in weights and weights[-1] > 0.0:
            top = f"λ = {weights[-1]:g}"
            estimate, interval = _bootstrap(_paired(frame, "ACC", dataset, top, "λ = 0"), _change, s)
            findings.append(Finding(f"{dataset}: zero-shot ACC at {top} minus at λ = 0 (points)", estimate, interval,
                                    "a large λ favours utility (higher ACC than λ = 0)",
                                    paper="Table 9 (not in our text)", claim_id=LAMBDA_CLAIM))
    return Findings(findings)


# -- every finding at once -----------------------------------------------------------------------
PANELS: dict[str, Callable[[OurRun], tuple[plt.Figure, pd.DataFrame, Findings]]] = {
    "table02": lambda run: our_table(run, "table02"),
    "table03": lambda run: our_table(run, "table03"),
    "figure03": figure03,
    "figure04": figure04,
    "figure12": lambda run: metric_grid(run, "figure12"),
    "figure13": lambda run: metric_grid(run, "figure13"),
    "figure14": lambda run: metric_grid(run, "figure14"),
    "figure05": lambda run: accuracy_vs_radius(run, "figure05"),
    "figure06": lambda run: accuracy_vs_radius(run, "figure06"),
    "figure07": figure07,
    "table09": table09,
    "figure10": lambda run: regression_errors(run, "figure10"),
    "figure11": lambda run: regression_errors(run, "figure11"),
}


def panel_findings(run: OurRun, artefact: str) -> Findings:
    """The findings of one artefact's panel on our run (its figure drawn and closed)."""
    fig, _, findings = PANELS[artefact](run)
    plt.close(fig)
    return findings


def verdicts(study_params: str, results_dir: str) -> dict[str, list[str]]:
    """Every artefact's findings' verdicts on a study (run or read back): what must not depend on the
    thread count a run used."""
    run = run_study(study_params, results_dir)
    return {artefact: [f.verdict for f in panel_findings(run, artefact)] for artefact in PANELS}
