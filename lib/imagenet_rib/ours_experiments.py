"""Our-run panels of ImageNet-RIB's appendix studies, drawn from the experiments of `experiments.yaml`.

`EXPERIMENT_PANELS` names the experiment behind each artefact (`ALSO_READS`: the others it reads, `main` for
Tables 8, 10 and 11).
`our_experiment_panel` runs (or reads back) the experiment and returns `(data, figure, findings)`: a
`Findings` of the paper's claim about the artefact (`CLAIMS`), each part judged by its interval over
seeds (undefined for a single seed) or said to be beyond our miniature; `experiment_findings` gives the
findings alone (the claims ledger judges some of its claims on our run by them). The panel functions
take `ExperimentRun`s, so they work on any accuracy frame of `run_experiment`'s layout.

Where the paper prints the artefact's numbers, `EXPERIMENT_PAIRS` (a `pairs.Pair` per artefact: the
printed quantity, our run's rows of it per seed, the drawing function) makes the figure the paper's
numbers beside ours, drawn by `pairs.draw_pair`, and its data the combined frame of
`lib.results.paper_and_ours`. Where the paper only plots curves (Figs. 5, 12, 13: none of their
points printed), `NO_PAPER_PANEL` says so on our panel, which stays ours alone.

eRI (Table 11) is `lib.metrics.robustness`'s Eq. 2 with its default baseline, a linear fit in logit
space (Taori et al.). The paper does not say which models the baseline is fit on; ours fits β_j for
the fine-tuning set D_i on every model fine-tuned on D_i in `validation_split` and `main` (all regimes,
seeds and methods): the analogue of Taori et al.'s testbed of models trained on the in-distribution set.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Callable

import numpy as np
import pandas as pd

from ..findings import Finding, Findings
from ..metrics.robustness import effective_robustness_improvement
from ..store import RunContext
from .benchmark import (CLIP_REGIME, PRETRAINED, REGIME_ANALOGUES, Benchmark, BenchmarkSettings, per_value,
                        robustness_table)
from .claims import OUR_FINDINGS
from .experiments import Experiment, load_experiments, named_experiment, run_experiment, stored_runs
from ..params import tier_of
from ..plotting import heatmap
from .ours import (FEW_POINTS, FT_SET, FinetuneSetDraws, Panel, finetune_set_findings, ood_average_before_after,
                   per_seed_finding, summary, table_draws)
from .pairs import PAIRED_EXPERIMENTS, Pair, draw_pair, finetuned_subset, printed, printed_mean
from .tables import load_table, model_label

EXPERIMENT_PANELS = {
    "table06": "imagenet_val",
    "table08": "clip_zero_shot",
    "table10": "validation_split",
    "table11": "validation_split",
    "table14": "weight_decay",
    "table16": "wise_alpha",
    "table21": "resnets",
    "figure05": "training_curves",
    "figure12": "small_subsets",
    "figure13": "learning_rate",
}
ALSO_READS: dict[str, tuple[str, ...]] = {a: ("main",) for a in ("table08", "table10", "table11")}  # compared with main
FINDINGS_READ = {"claims": OUR_FINDINGS}  # the notebooks that read other artefacts' findings: the claims ledger's
CLAIMS = {
    "table06": "after FT on the ImageNet-1K validation set, the IN-1K and IN-21K models' OOD accuracies move by a few "
               "points, while OpenAI and LAION-2B lose 15.8-33.4 points on every OOD dataset but IN-Cartoon (Table 6).",
    "table08": "most methods, FT included, strongly degrade the robustness of CLIPs pretrained on large datasets; CLIPs "
               "pretrained on small ones degrade much less; FLYP helps only the small-data ResNet-50 CLIPs (App. C).",
    "table10": "with a 4:1 train/validation split and the best validation epoch, mRI does not differ significantly from "
               "Table 3's (differences -2.3 to +3.3, Table 10).",
    "table11": "all mean eRIs are negative (fine-tuning sets lack some OOD labels); LAION-2B with FT is the worst (App. F).",
    "table14": "LAION-2B's FT mRI stays far below that of models pretrained on smaller data at every weight decay "
               "(-38.1 at 0 to -59.3 at 0.1, Table 14).",
    "table16": "the best alpha (the pretrained model's weight, Eq. 3) adds little for ImageNet models (best alpha 0.3-0.7) "
               "but lifts OpenAI and LAION-2B from -18.1 / -21.6 to -1.6 / -2.4 at alpha 0.9 (Table 16).",
    "table21": "with ResNets, FT and LP-FT generally reach the highest accuracy on the fine-tuning sets, EWC the lowest "
               "(Table 21).",
    "figure05": "LAION-2B and OpenAI models learn the fine-tuning sets slower than IN-21K + AugReg yet lose OOD accuracy "
                "from the first epochs: overfitting is not the driver (Fig. 5, Sec. 4.4).",
    "figure13": "a smaller learning rate attenuates LAION-2B's forgetting, but its mRI stays far below IN-21K + AugReg's "
                "-5.5 (Fig. 13, App. I.1).",
    "figure12": "on a few images per class, large-data CLIPs lose accuracy in and out of distribution while IN-1K + AugReg "
                "gains; classifiers' OOD accuracy declines gradually with more images, CLIPs' collapses then recovers "
                "(Fig. 12, App. D).",
}
PRETRAINED_SIDE = {"imagenet_rib": "max", "wise_ft": "min"}  # the alpha end nearest the pretrained model
ALPHA_MEANING = {"imagenet_rib": "alpha weights the pretrained model (the paper's Eq. 3)",
                 "wise_ft": "alpha weights the fine-tuned model (WiSE-FT's convention, not the paper's Eq. 3)"}


@dataclass(frozen=True)
class ExperimentRun:
    """An experiment's accuracies (`run_experiment`'s frame) and what its tables need."""

    acc: pd.DataFrame
    suite: list[str]
    reference: str
    finetune_datasets: list[str]
    swept: str | None = None
    method_settings: dict = field(default_factory=dict)

    @property
    def regimes(self) -> list[str]:
        """The regimes in the order of the run."""
        return list(dict.fromkeys(self.acc["regime"]))

    def table(self) -> pd.DataFrame:
        """`robustness_table` (per epoch where evaluated every epoch), per value of the swept key."""
        def compute(acc: pd.DataFrame) -> pd.DataFrame:
            return robustness_table(acc, self.suite, self.reference, self.finetune_datasets)
        return compute(self.acc) if self.swept is None else per_value(self.acc, self.swept, compute)

    def on_sets(self, finetune_datasets: Sequence[str]) -> "ExperimentRun":
        """The runs fine-tuned on `finetune_datasets` (in that order) and the pretrained models': this run compared
        with an experiment fine-tuned on those sets alone, on the same sets."""
        missing = [d for d in finetune_datasets if d not in self.finetune_datasets]
        if missing:
            raise ValueError(f"this run is not fine-tuned on {missing}; it is on {self.finetune_datasets}")
        kept = (self.acc["method"] == PRETRAINED) | self.acc["finetune_dataset"].isin(finetune_datasets)
        return replace(self, acc=self.acc[kept], finetune_datasets=list(finetune_datasets))

    def draws(self) -> FinetuneSetDraws:
        """`ours.table_draws` of `table` (an experiment without a swept key, evaluated once; for a single seed)."""
        return table_draws(self.acc, self.suite, self.reference, self.finetune_datasets)

    def ood(self, column: str) -> pd.DataFrame:
        """`ood_average_before_after` per value of `column` (the swept key, or `epoch`)."""
        return per_value(self.acc, column, lambda acc: ood_average_before_after(acc, self.suite))

    def pretrained_averages(self, ood: pd.DataFrame) -> pd.DataFrame:
        """Per regime, the pretrained model's mean accuracy on the fine-tuning sets and its mean OOD
        accuracy (`ood`'s `before`), means over seeds."""
        pre = self.acc[(self.acc["method"] == PRETRAINED) & self.acc["eval_dataset"].isin(self.finetune_datasets)]
        if self.swept is not None:
            pre = pre[pre[self.swept] == pre[self.swept].iloc[0]]  # the same model in every variant
        return pd.DataFrame({FT_SET: pre.groupby("regime", sort=False)["accuracy"].mean(),
                             "OOD accuracy": ood.groupby("regime", sort=False)["before"].mean()})


def has_experiment_panel(artefact: str) -> bool:
    """Whether one of the tier's appendix experiments has a counterpart of `artefact`."""
    return artefact in EXPERIMENT_PANELS


def experiments_source(experiments_params: str) -> str:
    """`embedded` (computable here) or `registry` (the paper's models and data) of an experiments file."""
    base, _ = load_experiments(experiments_params)
    return base["source"]


def load_run(experiments_params: str, name: str, results_dir: str | Path) -> ExperimentRun:
    """Run (or read back) experiment `name` of an experiments file."""
    acc = run_experiment(experiments_params, name, results_dir)
    experiment, settings = _first_variant(experiments_params, name)
    return ExperimentRun(acc, list(settings.suite), settings.reference_dataset, settings.finetuned_on, experiment.swept,
                         dict(settings.method_settings))


def _first_variant(experiments_params: str, name: str) -> tuple[Experiment, BenchmarkSettings]:
    """Experiment `name` of an experiments file and the settings of its first variant (what every variant shares
    but the swept key)."""
    base, experiment = named_experiment(experiments_params, name)
    return experiment, experiment.variants(base, experiments_params)[0][1]


def finetuned_on(experiments_params: str, name: str) -> list[str]:
    """The datasets experiment `name` of an experiments file fine-tunes on (every variant's)."""
    return _first_variant(experiments_params, name)[1].finetuned_on


def experiments_read(artefact: str) -> tuple[str, ...]:
    """The experiments the notebook of `artefact` reads: its panel's (`EXPERIMENT_PANELS`, then `ALSO_READS`) or its
    pair's (`pairs.PAIRED_EXPERIMENTS`), then those of the artefacts whose findings it reads (`FINDINGS_READ`)."""
    own = (EXPERIMENT_PANELS[artefact], *ALSO_READS.get(artefact, ())) if has_experiment_panel(artefact) else ()
    own += (PAIRED_EXPERIMENTS[artefact],) if artefact in PAIRED_EXPERIMENTS else ()
    read = (name for other in FINDINGS_READ.get(artefact, ()) for name in experiments_read(other))
    return tuple(dict.fromkeys([*own, *read]))


def precompute(params: Mapping[str, Any], artefacts: Collection[str]) -> int:
    """Compute the runs of the tier's benchmark (`main`, which the paired tables and the claims read)
    and of every experiment the notebooks of `artefacts` read (`experiments_read`; `experiments_params`,
    `results_dir`); how many were computed by this process."""
    path = params["experiments_params"]
    base, experiments = load_experiments(path)
    names = ["main", *(name for a in artefacts for name in experiments_read(a))]
    computed = 0
    for name in dict.fromkeys(names):
        experiment = experiments[name]
        for value, settings in experiment.variants(base, str(path)):
            context = RunContext(params_file=str(path), device=settings.device)
            label = f"imagenet_rib {name}" + ("" if experiment.swept is None else f" {experiment.swept}={value}")
            computed += Benchmark(settings, params["results_dir"], context).precompute(label)
    return computed


def our_experiment_panel(artefact: str, experiments_params: str, results_dir: str | Path) -> Panel:
    """`(data, figure, findings)` of `artefact` from its experiment, the findings judged by their intervals;
    the figure and data are the paper-and-ours pair where the paper prints the numbers (`EXPERIMENT_PAIRS`),
    else our panel with the reason it stands alone (`NO_PAPER_PANEL`)."""
    runs = panel_runs(artefact, experiments_params, results_dir)
    return paired_experiment_panel(artefact, runs, tier_of(experiments_params))


def panel_runs(artefact: str, experiments_params: str, results_dir: str | Path) -> list[ExperimentRun]:
    """The runs `artefact`'s panel takes (`experiments_read`), run or read back: its experiment's, then those it is
    compared with (`ALSO_READS`), on the experiment's fine-tuning sets (`ExperimentRun.on_sets`)."""
    if not has_experiment_panel(artefact):
        raise KeyError(f"no experiment panel for {artefact!r}; panels: {sorted(EXPERIMENT_PANELS)}")
    own, *compared = [load_run(experiments_params, name, results_dir) for name in experiments_read(artefact)]
    return [own, *(run.on_sets(own.finetune_datasets) for run in compared)]


def runs_not_stored(artefact: str, experiments_params: str, results_dir: str | Path) -> str:
    """Empty where the panel of `artefact` can be drawn on this machine: an embedded experiments file (computed
    here), or every run of the experiments it reads already in the store (the paper's models and data, computed on
    a GPU: `make figures TIER=full` or `python -m lib experiment`); otherwise how many of each one's runs are."""
    if experiments_source(experiments_params) != "registry":
        return ""
    counts = {name: stored_runs(experiments_params, name, results_dir) for name in experiments_read(artefact)}
    return "; ".join(f"experiment {name!r}: {stored} of {total} runs in the store"
                     for name, (stored, total) in counts.items() if stored < total)


def experiment_findings(artefact: str, experiments_params: str, results_dir: str | Path) -> Findings:
    """The findings `show_experiment_panel` prints for `artefact` (its panel drawn and closed unseen); none where
    the experiments file needs the paper's models (registry) and their runs are not all stored, as there."""
    import matplotlib.pyplot as plt

    if runs_not_stored(artefact, experiments_params, results_dir):
        return Findings()
    _, fig, findings = PANELS[artefact](*panel_runs(artefact, experiments_params, results_dir))
    plt.close(fig)
    return findings


def paired_experiment_panel(artefact: str, runs: list[ExperimentRun], tier: str) -> Panel:
    """`PANELS[artefact]` of `runs`, its figure and data replaced by the paper-and-ours pair where there is one."""
    import matplotlib.pyplot as plt

    data, fig, findings = PANELS[artefact](*runs)
    note = finetuned_subset(runs[0].finetune_datasets, runs[0].suite)
    if artefact in EXPERIMENT_PAIRS:
        plt.close(fig)
        pair = EXPERIMENT_PAIRS[artefact]
        data, fig = draw_pair(artefact, pair, pair.ours(*runs), tier, note)
    else:
        ours = f"ours ({tier}{'; ' + note if note else ''})"
        title = f"{ours}: {fig.get_suptitle()}" if fig.get_suptitle() else ours
        fig.suptitle(f"{title}\n{NO_PAPER_PANEL[artefact]}", fontsize=10)
        fig.tight_layout()
    return data, fig, findings


def show_experiment_panel(artefact: str, experiments_params: str, results_dir: str | Path, output_dir: str | Path) -> None:
    """The notebooks' experiment cell: draw and save `<artefact>_ours` and print its findings, or say why
    there is none (no experiment draws it; the full tier's runs are not all in the store: `runs_not_stored`)."""
    from ..plotting import save_figure

    if not has_experiment_panel(artefact):
        print(f"{artefact}: none of our appendix experiments draws this artefact.")
    elif missing := runs_not_stored(artefact, experiments_params, results_dir):
        print(f"{artefact}: {missing}. The paper's models and data need a GPU (`python -m lib experiment --tier "
              f"full --name NAME` for each experiment named, with `--executor slurm` on a cluster); not computed here.")
    else:
        data, fig, findings = our_experiment_panel(artefact, experiments_params, results_dir)
        save_figure(fig, data, output_dir, f"{artefact}_ours")
        print(f"experiment {EXPERIMENT_PANELS[artefact]!r}. Paper: {CLAIMS[artefact]}\n{findings}")


# -- the panels --------------------------------------------------------------------------------------
def _short(name: str) -> str:
    return name.removeprefix("digits_")


def imagenet_val_panel(run: ExperimentRun):
    """Table 6: FT on the pretraining domain's held-out split; accuracy on every dataset and its change."""
    import matplotlib.pyplot as plt

    acc = run.acc
    pre = acc[acc["method"] == PRETRAINED].groupby(["regime", "eval_dataset"], sort=False)["accuracy"].mean()
    after = acc[acc["method"] == "FT"].groupby(["regime", "eval_dataset"], sort=False)["accuracy"].mean()
    data = pd.DataFrame({"accuracy": after, "pretrained": pre.loc[after.index]}).assign(
        difference=lambda d: d["accuracy"] - d["pretrained"]).reset_index()
    order = [run.reference] + run.suite
    fig, axes = plt.subplots(1, 2, figsize=(11, 1.6 + 0.5 * data["regime"].nunique()))
    for ax, value, center in zip(axes, ("accuracy", "difference"), (None, 0.0)):
        matrix = data.pivot(index="regime", columns="eval_dataset", values=value).loc[data["regime"].unique(), order]
        heatmap(ax, matrix.rename(columns=_short), center=center, cbar=True, title=f"FT on {run.reference}: {value} (%)")
    fig.tight_layout()
    change = ood_average_before_after(acc, run.suite)
    # an equivalence check on the signed change (its interval inside ±5), not a bound on its absolute value,
    # whose mean over seeds is biased away from 0 and whose t-interval assumes a shape it does not have
    findings = [per_seed_finding(change, r, ["FT"], lambda rows: float(rows.loc["FT", "after"] - rows.loc["FT", "before"]),
                                 f"{r}: mean change of suite accuracy after FT on {run.reference} (points)",
                                 "models pretrained on ImageNet-scale data move by a few points on the OOD sets after "
                                 "FT on the pretraining domain's held-out split (read: by less than 5 either way)",
                                 "within", FEW_POINTS, "IN-1K / IN-21K a few points; OpenAI, LAION-2B lose 15.8-33.4")
                for r in run.regimes]
    return data, fig, Findings(findings)


def clip_panel(clip: ExperimentRun, main: ExperimentRun):
    """Table 8: mRI per method of the CLIP regime, beside the main benchmark's regimes."""
    import matplotlib.pyplot as plt

    clip_table = clip.table()
    clip_means, _ = summary(clip_table, "mRI")
    main_means, _ = summary(main.table(), "mRI")
    means = pd.concat([clip_means[clip.regimes], main_means[main.regimes]], axis=1)
    fig, ax = plt.subplots(figsize=(3.5 + 1.4 * means.shape[1], 4.2))
    heatmap(ax, means, center=0.0, cbar=True, title="mRI: zero-shot CLIP (left) and the main regimes")
    fig.tight_layout()
    findings = []
    for r in clip.regimes:
        findings += [
            per_seed_finding(clip_table, r, ["FT"], lambda rows: float(rows.loc["FT", "mRI"]), f"{r}: FT's mRI",
                             "FT degrades the robustness of CLIPs (our CLIP is pretrained on small data, like the "
                             "paper's LAION-100M, CC-12M and YFCC-15M ones, which still degrade, if much less)", "<", 0.0,
                             "OpenAI / LAION-2B strongly negative, small-data CLIPs much less (Table 8)"),
            per_seed_finding(clip_table, r, ["FT", "FLYP"], lambda rows: float(rows.loc["FLYP", "mRI"] - rows.loc["FT", "mRI"]),
                             f"{r}: FLYP's mRI − FT's", "FLYP improves on FT for CLIPs pretrained on small data "
                             "(the paper: only for the ResNet-50 ones; ours is a tiny ViT)", ">", 0.0,
                             "FLYP helps only the small-data ResNet-50 CLIPs (App. C)", "flyp-small-only")]
    return means.rename_axis("method").reset_index(), fig, Findings(findings)


def mean_eri_table(run: ExperimentRun, testbed: list[ExperimentRun]) -> pd.DataFrame:
    """Mean eRI (Eq. 2) per regime, seed and method of `run`; β_j for the fine-tuning set D_i is fit
    (the default logit-linear baseline) on every model of `testbed` fine-tuned on D_i."""
    models = pd.concat([_wide(r.acc) for r in testbed])
    reference = {i: {d: models.xs(i, level="finetune_dataset")[d].tolist() for d in run.suite}
                 for i in run.finetune_datasets}
    rows = []
    for (regime, seed, method), part in _wide(run.acc).groupby(level=["regime", "seed", "method"], sort=False):
        by_dataset = part.droplevel(["regime", "seed", "method"]).to_dict("index")
        eri = [effective_robustness_improvement(by_dataset[i], i, run.suite, reference[i]) for i in run.finetune_datasets]
        rows.append({"regime": regime, "seed": seed, "method": method, "mean eRI": float(np.mean(eri))})
    return pd.DataFrame(rows)


def _wide(acc: pd.DataFrame) -> pd.DataFrame:
    """One row per fine-tuned model (regime, seed, method, fine-tuning set), one column per evaluation set."""
    tuned = acc[acc["method"] != PRETRAINED]
    return tuned.set_index(["regime", "seed", "method", "finetune_dataset", "eval_dataset"])["accuracy"].unstack("eval_dataset")


def validation_panel(split: ExperimentRun, main: ExperimentRun, value: str):
    """Tables 10 (`mRI`) and 11 (`mean eRI`): the best validation epoch's value, its difference from
    the main benchmark's (no split, the last epoch) and the mean selected epoch, per method and regime."""
    import matplotlib.pyplot as plt

    split_table = split.table()
    if value == "mean eRI":
        split_values, main_values = (mean_eri_table(r, [split, main]) for r in (split, main))
    else:
        split_values, main_values = split_table, main.table()
    methods = list(dict.fromkeys(split_table["method"]))
    with_split = summary(split_values, value)[0].loc[methods, split.regimes]
    without = summary(main_values, value)[0].loc[methods, split.regimes]
    epochs = summary(split_table, "mean selected epoch")[0].loc[methods, split.regimes]
    difference = with_split - without
    parts = {value: with_split, "difference from main": difference, "mean selected epoch": epochs}
    fig, axes = plt.subplots(1, 3, figsize=(5 + 4.2 * with_split.shape[1], 4.2))
    for ax, (name, matrix) in zip(axes, parts.items()):
        heatmap(ax, matrix, center=None if name == "mean selected epoch" else 0.0, cbar=True,
                title=f"{name} (validation split)" if name == value else name)
    fig.tight_layout()
    data = pd.concat([m.rename_axis(index="method", columns="regime").reset_index()
                      .melt(id_vars="method", var_name="regime", value_name=name).set_index(["method", "regime"])
                      for name, m in parts.items()], axis=1).reset_index()
    return data, fig, Findings(VALIDATION_FINDINGS[value](split_values, main_values, methods, split.regimes))


def split_difference_findings(split: pd.DataFrame, main: pd.DataFrame, methods: list[str],
                              regimes: list[str]) -> list[Finding]:
    """Table 10: per regime and method, mRI with the split − mRI of main, judged as an equivalence: its interval
    over seeds inside the paper's ±3.3 points (not the largest absolute difference over methods, a maximum of
    absolute values whose t-interval would assume a shape it does not have)."""
    keys = ["regime", "seed", "method"]
    paired = split[keys + ["mRI"]].merge(main[keys + ["mRI"]], on=keys, suffixes=("", " main"))
    paired = paired[paired["method"].isin(methods)]
    return [per_seed_finding(paired, r, [m], lambda rows, m=m: float(rows.loc[m, "mRI"] - rows.loc[m, "mRI main"]),
                             f"{r}, {m}: mRI with a 4:1 split − mRI without (points)",
                             "a 4:1 train/validation split with the best validation epoch leaves mRI about as it "
                             "was (read: within the paper's ±3.3 points)", "within", 3.3,
                             "differences -2.3 to +3.3, not significant (Table 10)", "split-no-difference")
            for r in regimes for m in methods]


def eri_findings(split: pd.DataFrame, main: pd.DataFrame, methods: list[str], regimes: list[str]) -> list[Finding]:
    """Table 11: per regime, the highest mean eRI over the methods, per seed; LAION-2B's rank is beyond us."""
    split = split[split["method"].isin(methods)]
    claim = "every method's mean eRI is negative (read: the highest is below 0)"
    return [per_seed_finding(split, r, methods, lambda rows: float(rows["mean eRI"].max()),
                             f"{r}: highest mean eRI over the methods", claim, "<", 0.0, "all mean eRIs negative (Table 11)",
                             "eri-all-negative")
            for r in regimes] + [Finding.undefined("LAION-2B FT's mean eRI − the lowest of the others",
                                           "our miniature has no LAION-2B regime", "LAION-2B with FT is the worst",
                                           "<", 0.0, "LAION-2B FT the worst (App. F)")]


VALIDATION_FINDINGS: dict[str, Callable[..., list[Finding]]] = {"mRI": split_difference_findings,
                                                               "mean eRI": eri_findings}


def end_difference(rows: pd.DataFrame, key: str, value: str, toward: str = "max") -> float:
    """`value` at the `toward` end of `key` (max or min) minus at the other end, in one seed's rows."""
    by_key = rows.groupby(key)[value].mean().sort_index()
    return float(by_key.iloc[-1] - by_key.iloc[0]) * (1 if toward == "max" else -1)


def sweep_mri(run: ExperimentRun, method: str) -> pd.DataFrame:
    """Swept value × regime: `method`'s mRI, mean over seeds."""
    table = run.table()
    part = table[table["method"] == method]
    return part.groupby([run.swept, "regime"], sort=False)["mRI"].mean().unstack("regime").sort_index()[run.regimes]


def weight_decay_panel(run: ExperimentRun):
    """Table 14: FT's mRI per weight decay and regime."""
    import matplotlib.pyplot as plt

    means = sweep_mri(run, "FT")
    fig, ax = plt.subplots(figsize=(3 + 1.4 * means.shape[1], 1.5 + 0.45 * len(means)))
    heatmap(ax, means, center=0.0, cbar=True, title=f"FT mRI per {run.swept}")
    fig.tight_layout()
    table = run.table()
    findings = [per_seed_finding(table, r, ["FT"], lambda rows: end_difference(rows, run.swept, "mRI"),
                                 f"{r}: FT's mRI at the largest weight decay − at the smallest",
                                 "a larger weight decay lowers FT's mRI (read from Table 14's LAION-2B row)", "<", 0.0,
                                 "-38.1 at 0 to -59.3 at 0.1 (LAION-2B)") for r in run.regimes]
    findings.append(Finding.undefined("LAION-2B FT's mRI − that of smaller-data models, at each weight decay",
                              "our miniature has no LAION-2B regime", "LAION-2B's FT mRI stays far below that of models "
                              "pretrained on smaller data at every weight decay", "<", 0.0, "Table 14 vs Table 3"))
    return means.reset_index().melt(id_vars=run.swept, var_name="regime", value_name="mRI"), fig, Findings(findings)


def resnets_panel(run: ExperimentRun):
    """Table 21: each method's accuracy on the fine-tuning sets with the ResNet stand-in, per regime."""
    import matplotlib.pyplot as plt

    table = run.table()
    means, _ = summary(table, FT_SET)
    fig, ax = plt.subplots(figsize=(3 + 1.4 * means.shape[1], 1.5 + 0.45 * len(means)))
    heatmap(ax, means, cbar=True, title=f"ResNet stand-in: {FT_SET}")
    fig.tight_layout()
    return means.rename_axis("method").reset_index(), fig, Findings(finetune_set_findings(table, "table21", run.draws()))


def wise_alpha_panel(run: ExperimentRun):
    """Table 16: WiSE-FT's mRI at alpha 0.5 and at the best alpha (first of the best on ties), per regime."""
    import matplotlib.pyplot as plt

    means = sweep_mri(run, "WiSE-FT")
    ft = sweep_mri(run, "FT").mean()  # FT does not depend on alpha
    fig, ax = plt.subplots(figsize=(6, 4.2))
    for (regime, curve), color in zip(means.items(), plt.rcParams["axes.prop_cycle"].by_key()["color"]):
        ax.plot(curve.index, curve.to_numpy(), marker="o", color=color, label=f"{regime} WiSE-FT")
        ax.axhline(ft[regime], color=color, linestyle="--", linewidth=1, label=f"{regime} FT")
        ax.plot(curve.idxmax(), curve.max(), marker="*", markersize=14, color=color)
    ax.axvline(0.5, color="grey", linestyle=":", linewidth=1)
    convention = ALPHA_MEANING[run.method_settings["wise_alpha_convention"]]
    ax.set(xlabel="alpha", ylabel="mRI", title=f"WiSE-FT mRI per alpha (star: best)\n{convention}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    data = means.reset_index().melt(id_vars=run.swept, var_name="regime", value_name="WiSE-FT mRI").assign(
        **{"FT mRI": lambda d: d["regime"].map(ft)})
    toward = PRETRAINED_SIDE[run.method_settings["wise_alpha_convention"]]
    table = run.table()
    table = table[table["method"] == "WiSE-FT"]
    findings = [per_seed_finding(table, r, ["WiSE-FT"], lambda rows: end_difference(rows, run.swept, "mRI", toward),
                                 f"{r}: WiSE-FT's mRI at the alpha nearest the pretrained model − at the farthest "
                                 f"({convention})", "moving alpha towards the pretrained model raises mRI", ">", 0.0,
                                 "OpenAI / LAION-2B -18.1 / -21.6 at 0.5, -1.6 / -2.4 at 0.9 (Table 16)")
                for r in run.regimes]
    return data, fig, Findings(findings)


def training_curves_panel(run: ExperimentRun):
    """Fig. 5: per epoch (0 = the pretrained model), FT's mean accuracy on the fine-tuning sets and
    its mean OOD accuracy (each set's model on the other suite datasets), per regime."""
    table = run.table()
    ft_set = table[table["method"] == "FT"].groupby(["regime", "epoch"], sort=False)[FT_SET].mean()
    ood = run.ood("epoch")
    ood = ood[ood["method"] == "FT"]
    after = ood.groupby(["regime", "epoch"], sort=False)["after"].mean()
    start = run.pretrained_averages(ood)
    data = _ordered(pd.concat([start.assign(epoch=0).set_index("epoch", append=True),
                               pd.DataFrame({FT_SET: ft_set, "OOD accuracy": after})]).reset_index(), run.regimes, ["epoch"])
    fig = _curves(data, "epoch", [FT_SET, "OOD accuracy"], "regime", "FT, mean over the fine-tuning sets (epoch 0: pretrained)")
    def first_epoch_change(rows: pd.DataFrame) -> float:
        first = rows[rows["epoch"] == rows["epoch"].min()]
        return float((first["after"] - first["before"]).mean())

    findings = [per_seed_finding(ood, r, ["FT"], first_epoch_change,
                                 f"{r}: FT's mean OOD accuracy after the first epoch − the pretrained model's (points)",
                                 "OOD accuracy falls from the first epochs, before the fine-tuning sets are fit: "
                                 "overfitting is not the driver", "<", 0.0, "LAION-2B and OpenAI (Fig. 5)",
                                 "overfitting-not-cause")
                for r in run.regimes]
    return data, fig, Findings(findings)


def learning_rate_panel(run: ExperimentRun):
    """Fig. 13: per epoch, FT's accuracy on the fine-tuning sets and mRI, per learning rate and regime."""
    table = run.table()
    data = _ordered(table[table["method"] == "FT"].groupby([run.swept, "regime", "epoch"], sort=False)[[FT_SET, "mRI"]]
                    .mean().reset_index(), run.regimes, [run.swept, "epoch"])
    fig = _curves(data.assign(curve=lambda d: d["regime"] + ", lr " + d[run.swept].map("{:g}".format)),
                  "epoch", ["mRI", FT_SET], "curve", "FT per learning rate, mean over the fine-tuning sets")
    def attenuation(rows: pd.DataFrame) -> float:
        return end_difference(rows[rows["epoch"] == rows["epoch"].max()], run.swept, "mRI", "min")

    findings = [per_seed_finding(table, r, ["FT"], attenuation,
                                 f"{r}: FT's mRI after the last epoch at the smallest learning rate − at the largest",
                                 "a smaller learning rate attenuates forgetting", ">", 0.0, "LAION-2B (Fig. 13)")
                for r in run.regimes]
    findings.append(Finding.undefined("LAION-2B FT's mRI at a small learning rate − IN-21K + AugReg's",
                              "our miniature has no LAION-2B or IN-21K regime",
                              "LAION-2B's mRI stays far below IN-21K + AugReg's even at a small learning rate",
                              "<", 0.0, "IN-21K + AugReg -5.5 (App. I.1)", "small-lr"))
    return data, fig, Findings(findings)


def small_subsets_panel(run: ExperimentRun):
    """Fig. 12: FT's mean accuracy on the fine-tuning sets and mean OOD accuracy vs images per class,
    per regime; dashed: the pretrained model."""
    table = run.table()
    ft_set = table[table["method"] == "FT"].groupby([run.swept, "regime"], sort=False)[FT_SET].mean()
    ood = run.ood(run.swept)
    ood = ood[ood["method"] == "FT"]
    data = pd.DataFrame({FT_SET: ft_set, "OOD accuracy": ood.groupby([run.swept, "regime"], sort=False)["after"].mean()})
    data = _ordered(data.reset_index(), run.regimes, [run.swept])
    pretrained = run.pretrained_averages(ood)
    data = data.join(pretrained.add_suffix(" (pretrained)"), on="regime")
    fig = _curves(data, run.swept, [FT_SET, "OOD accuracy"], "regime",
                  "FT on k images per class, mean over the fine-tuning sets (dashed: pretrained)", dashed=pretrained)
    for ax in fig.axes:
        ax.set_xscale("log")
        ax.set_xticks(sorted(data[run.swept].unique()), [str(k) for k in sorted(data[run.swept].unique())], minor=False)
        ax.minorticks_off()
    def fewest_change(rows: pd.DataFrame) -> float:
        fewest = rows[rows[run.swept] == rows[run.swept].min()]
        return float((fewest["after"] - fewest["before"]).mean())

    findings = [per_seed_finding(ood, r, ["FT"], fewest_change,
                                 f"{r}: FT's mean OOD accuracy on the fewest images per class − the pretrained model's",
                                 "CLIPs lose OOD accuracy when fine-tuned on a few images per class (ours is a small-data "
                                 "CLIP)", "<", 0.0, "OpenAI / LAION-2B CLIPs lose, IN-1K + AugReg gains (Fig. 12)",
                                 "small-finetune-set")
                if r == CLIP_REGIME else
                per_seed_finding(ood, r, ["FT"], lambda rows: end_difference(rows, run.swept, "after"),
                                 f"{r}: FT's mean OOD accuracy at the most images per class − at the fewest",
                                 "a classifier's OOD accuracy declines gradually with more images per class", "<", 0.0,
                                 "gradual decline for ImageNet classifiers (Fig. 12)")
                for r in run.regimes]
    findings += [per_seed_finding(ood, r, ["FT"], fewest_change,
                                  f"{r}: FT's mean OOD accuracy on the fewest images per class − the pretrained model's",
                                  "IN-1K + AugReg gains OOD accuracy when fine-tuned on a few images per class (ours: "
                                  "its analogue)", ">", 0.0, "IN-1K + AugReg gains (Fig. 12)")
                 for r in run.regimes if REGIME_ANALOGUES.get(r) == "IN-1K + AugReg"]
    return data, fig, Findings(findings)


def _ordered(data: pd.DataFrame, regimes: list[str], by: list[str]) -> pd.DataFrame:
    """`data` sorted by regime in the run's order, then by `by`."""
    data = data.sort_values(by, kind="stable")
    return data.sort_values("regime", key=lambda r: r.map(regimes.index), kind="stable").reset_index(drop=True)


def _curves(data: pd.DataFrame, x: str, values: list[str], line: str, title: str, dashed: pd.DataFrame | None = None):
    """One axis per value, one line per `line` group against `x`; `dashed` (index: group) adds reference lines."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(values), figsize=(5.2 * len(values), 4.0), squeeze=False)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, value in zip(axes[0], values):
        for (group, part), color in zip(data.groupby(line, sort=False), itertools.cycle(colors)):
            ax.plot(part[x], part[value], marker="o", color=color, label=group)
            if dashed is not None:
                ax.axhline(dashed.loc[group, value], color=color, linestyle="--", linewidth=1)
        ax.set(xlabel=x, ylabel=value, title=value)
        ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


# -- the paper's numbers beside ours: our rows of the printed quantity, per regime (as model) and seed ----------
def _runs_rows(frame: pd.DataFrame, value: str) -> pd.DataFrame:
    """`frame`'s regime, seed, method and `value` as rows of the results schema (model = regime)."""
    return frame[["regime", "seed", "method", value]].rename(columns={"regime": "model", value: "value"})


def finetuned_change_rows(run: ExperimentRun) -> pd.DataFrame:
    """Table 6: per regime, seed and evaluation set (the fine-tuning domain first, then the suite), FT's
    accuracy minus the pretrained model's."""
    keys = ["regime", "seed", "eval_dataset"]
    pre = run.acc[run.acc["method"] == PRETRAINED].groupby(keys, sort=False)["accuracy"].mean()
    after = run.acc[run.acc["method"] == "FT"].groupby(keys, sort=False)["accuracy"].mean()
    change = (after - pre.loc[after.index]).rename("value").reset_index()
    order = [run.reference, *run.suite]
    change = change[change["eval_dataset"].isin(order)]
    change = change.sort_values("eval_dataset", key=lambda d: d.map(order.index), kind="stable")
    return change.rename(columns={"regime": "model"}).assign(method="FT")


def clip_mri_rows(clip: ExperimentRun, main: ExperimentRun) -> pd.DataFrame:
    """Table 8: mRI per regime, seed and method of the zero-shot CLIP, then of the main benchmark's regimes."""
    return pd.concat([_runs_rows(clip.table(), "mRI"), _runs_rows(main.table(), "mRI")], ignore_index=True)


SPLIT_DIFFERENCE = "mRI with a 4:1 train/validation split and the best epoch − without"
SPLIT_MRI = "mRI with a 4:1 train/validation split and the best epoch"  # Table 10's cells read "mRI (difference)"


def printed_split_difference() -> pd.DataFrame:
    """Table 10 as printed: per method and model the mRI with the split (metric `SPLIT_MRI`) and its
    difference from Table 3's (metric `SPLIT_DIFFERENCE`)."""
    setting = "train/validation split"
    return pd.concat([printed("table10", "mRI", setting).assign(metric=SPLIT_MRI),
                      printed("table10", "mRI difference", setting).assign(metric=SPLIT_DIFFERENCE)], ignore_index=True)


def split_difference_rows(split: ExperimentRun, main: ExperimentRun) -> pd.DataFrame:
    """Table 10: per regime, seed and method, mRI with the 4:1 split and the best validation epoch (metric
    `SPLIT_MRI`) and that minus the mRI of `main` (no split, the last epoch; metric `SPLIT_DIFFERENCE`)."""
    keys = ["regime", "seed", "method"]
    paired = split.table()[keys + ["mRI"]].merge(main.table()[keys + ["mRI"]], on=keys, suffixes=("", " main"))
    return pd.concat([_runs_rows(paired, "mRI").assign(metric=SPLIT_MRI),
                      _runs_rows(paired.assign(difference=paired["mRI"] - paired["mRI main"]), "difference")
                      .assign(metric=SPLIT_DIFFERENCE)], ignore_index=True)


def mean_eri_rows(split: ExperimentRun, main: ExperimentRun) -> pd.DataFrame:
    """Table 11: mean eRI per regime (in the run's order), seed and method with the split (testbed: `split`
    and `main`)."""
    table = mean_eri_table(split, [split, main])
    table = table.sort_values("regime", key=lambda r: r.map(split.regimes.index), kind="stable")
    return _runs_rows(table, "mean eRI")


def weight_decay_label(method: str, decay: Any) -> str:
    """One method at one weight decay, e.g. 'FT, weight decay 0.0001' (the paper's printed decay)."""
    return f"{method}, weight decay {float(decay):g}"


def printed_weight_decay() -> pd.DataFrame:
    """Table 14: FT's mRI per weight decay, as printed (one model, LAION-2B ViT-B/16)."""
    frame = load_table("table14")
    return pd.DataFrame({"model": [model_label(a, p) for a, p in zip(frame["architecture"], frame["pretraining"])],
                         "method": [weight_decay_label(m, s.removeprefix("weight decay "))
                                    for m, s in zip(frame["method"], frame["setting"])], "value": frame["value"]})


def weight_decay_rows(run: ExperimentRun) -> pd.DataFrame:
    """Table 14: FT's mRI per regime, seed and weight decay."""
    table = run.table()
    table = table[table["method"] == "FT"]
    return _runs_rows(table.assign(method=[weight_decay_label("FT", d) for d in table[run.swept]]), "mRI")


WISE_AT = {"alpha = 0.5": "WiSE-FT, alpha = 0.5", "best alpha": "WiSE-FT, best alpha"}


def printed_wise_alpha() -> pd.DataFrame:
    """Table 16: WiSE-FT's mRI at alpha 0.5 and at the best alpha per model, as printed."""
    frame = printed("table16", "mRI", "alpha = 0.5").assign(method=WISE_AT["alpha = 0.5"])
    best = printed("table16", "mRI", "best alpha").assign(method=WISE_AT["best alpha"])
    return pd.concat([frame, best], ignore_index=True)


def wise_alpha_rows(run: ExperimentRun) -> pd.DataFrame:
    """Table 16: per regime and seed, WiSE-FT's mRI at alpha 0.5 (where the grid has it) and at the
    regime's best alpha (of the mean over seeds, the first of the best on ties)."""
    table = run.table()
    table = table[table["method"] == "WiSE-FT"]
    best = sweep_mri(run, "WiSE-FT").idxmax()
    at_half = table[table[run.swept] == 0.5].assign(method=WISE_AT["alpha = 0.5"])
    at_best = table[table[run.swept] == table["regime"].map(best)].assign(method=WISE_AT["best alpha"])
    return _runs_rows(pd.concat([at_half, at_best]), "mRI")


EXPERIMENT_PAIRS: dict[str, Pair] = {
    "table06": Pair("accuracy change after FT on the pretraining domain's held-out split (points)",
                    partial(printed, "table06", "difference", labels=("eval_dataset",)),
                    finetuned_change_rows, columns="eval_dataset", index="model",
                    difference="rows: our regimes, FT on the clean digits (our ImageNet-1K val); columns: our "
                               "pretraining domain, then our suite"),
    "table08": Pair("mRI of zero-shot CLIPs", partial(printed, "table08", "mRI"), clip_mri_rows,
                    difference="columns: our tiny CLIP (pretrained on small data, zero-shot head), then the main "
                               "benchmark's regimes (ImageNet-style heads, Table 3's counterpart) on the same "
                               "fine-tuning domains, for comparison"),
    "table10": Pair(SPLIT_DIFFERENCE, printed_split_difference, split_difference_rows,
                    options={"center": 0.0, "note": SPLIT_MRI},
                    difference="cells: the mRI with the split, in brackets its difference from the mRI without "
                               "(the colour); ours: without = experiment `main` on the same fine-tuning domains (the last "
                               "epoch); columns: our regimes"),
    "table11": Pair("mean eRI with a 4:1 train/validation split",
                    partial(printed, "table11", "mean eRI", "train/validation split"), mean_eri_rows,
                    difference="ours: beta_j fit on every model of `validation_split` and `main` fine-tuned on D_i "
                               "(the paper does not say on which); columns: our regimes"),
    "table14": Pair("FT's mRI per weight decay", printed_weight_decay, weight_decay_rows,
                    options={"center": 0.0, "paper_rows": True},
                    difference="paper: one model (LAION-2B); ours: our regimes, blank: a decay we do not sweep"),
    "table21": Pair(f"{FT_SET}, mean over the fine-tuning sets", partial(printed_mean, "table21", "finetune_dataset"),
                    lambda run: _runs_rows(run.table(), FT_SET), options={"center": None},
                    difference="paper: ResNet-18 and ResNet-50 (ImageNet-1K); ours: the ResNet stand-in, in the one "
                               "regime the experiments file gives it (tiny, mini: `clean`, as the paper's ResNets have "
                               "no AugReg), measured on each domain's test split where the paper measures on the "
                               "training data"),
    "table16": Pair("WiSE-FT's mRI at alpha 0.5 and at the best alpha (Eq. 3: alpha weights the pretrained model)",
                    printed_wise_alpha, wise_alpha_rows,
                    difference="ours: the best alpha of our grid for the mean over seeds; columns: our regimes"),
}
NO_PAPER_PANEL = {
    "figure05": "no paper panel: the paper prints none of Fig. 5's curves (only their end points, from Tables 17, "
                "19 and 3, redrawn above)",
    "figure12": "no paper panel: the paper prints none of Fig. 12's curves (only its dashed pretrained levels, "
                "Tables 17 and 9, redrawn above)",
    "figure13": "no paper panel: the paper prints none of Fig. 13's curves (only its reference values, Tables 3 "
                "and 19, redrawn above)",
}


PANELS: dict[str, Callable[..., Panel]] = {
    "table06": imagenet_val_panel,
    "table08": clip_panel,
    "table10": lambda split, main: validation_panel(split, main, "mRI"),
    "table11": lambda split, main: validation_panel(split, main, "mean eRI"),
    "table14": weight_decay_panel,
    "table16": wise_alpha_panel,
    "table21": resnets_panel,
    "figure05": training_curves_panel,
    "figure12": small_subsets_panel,
    "figure13": learning_rate_panel,
}
