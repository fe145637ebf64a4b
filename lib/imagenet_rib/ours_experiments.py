"""Our-run panels of ImageNet-RIB's appendix studies, drawn from the experiments of `experiments.yaml`.

`EXPERIMENT_PANELS` names the experiment behind each artefact (Tables 8, 10 and 11 also read `main`).
`our_experiment_panel` runs (or reads back) the experiment and returns `(data, figure, finding)`: the
finding is computed from the run and printed after the paper's claim (`CLAIMS`). The panel functions
take `ExperimentRun`s, so they work on any accuracy frame of `run_experiment`'s layout.

eRI (Table 11) is `lib.metrics.robustness`'s Eq. 2 with its default baseline, a linear fit in logit
space (Taori et al.). The paper does not say which models the baseline is fit on; ours fits β_j for
the fine-tuning set D_i on every model fine-tuned on D_i in `validation_split` and `main` (all regimes,
seeds and methods): the analogue of Taori et al.'s testbed of models trained on the in-distribution set.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from ..finetune.interpolation import PAPER_WISE_FT_ALPHA
from ..metrics.robustness import effective_robustness_improvement
from .benchmark import PRETRAINED, Benchmark, per_value, robustness_table
from .experiments import load_experiments, run_experiment
from .ours import heatmap, ood_average_before_after, ranked, summary

EXPERIMENT_PANELS = {
    "table06": "imagenet_val",
    "table08": "clip_zero_shot",
    "table10": "validation_split",
    "table11": "validation_split",
    "table14": "weight_decay",
    "table16": "wise_alpha",
    "figure05": "training_curves",
    "figure12": "small_subsets",
    "figure13": "learning_rate",
}
WITH_MAIN = ("table08", "table10", "table11")  # compared with the main benchmark
CLAIMS = {
    "table06": "after FT on the ImageNet-1K validation set, the IN-1K and IN-21K models' OOD accuracies move by a few "
               "points, while OpenAI and LAION-2B lose 15-33 points on every OOD dataset but IN-Cartoon (Table 6).",
    "table08": "most methods, FT included, strongly degrade the robustness of CLIPs pretrained on large datasets; CLIPs "
               "pretrained on small ones degrade much less; FLYP helps only the small-data ResNet-50 CLIPs (App. C).",
    "table10": "with a 4:1 train/validation split and the best validation epoch, mRI does not differ significantly from "
               "Table 3's (differences -2.3 to +3.3, Table 10).",
    "table11": "all mean eRIs are negative (fine-tuning sets lack some OOD labels); LAION-2B with FT is the worst (App. F).",
    "table14": "LAION-2B's FT mRI stays far below that of models pretrained on smaller data at every weight decay "
               "(-38.1 at 0 to -59.3 at 0.1, Table 14).",
    "table16": "the best alpha (the pretrained model's weight, Eq. 3) adds little for ImageNet models (best alpha 0.3-0.7) "
               "but lifts OpenAI and LAION-2B from -18.1 / -21.6 to -1.6 / -2.4 at alpha 0.9 (Table 16).",
    "figure05": "LAION-2B and OpenAI models learn the fine-tuning sets slower than IN-21K + AugReg yet lose OOD accuracy "
                "from the first epochs: overfitting is not the driver (Fig. 5, Sec. 4.4).",
    "figure13": "a smaller learning rate attenuates LAION-2B's forgetting, but its mRI stays far below IN-21K + AugReg's "
                "-5.5 (Fig. 13, App. I.1).",
    "figure12": "on a few images per class, large-data CLIPs lose accuracy in and out of distribution while IN-1K + AugReg "
                "gains; classifiers' OOD accuracy declines gradually with more images, CLIPs' collapses then recovers "
                "(Fig. 12, App. D).",
}
FT_SET = "accuracy on the fine-tuning set"
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
    base, experiments = load_experiments(experiments_params)
    experiment = experiments[name]
    settings = experiment.variants(base, experiments_params)[0][1]
    bench = Benchmark(settings, results_dir)
    return ExperimentRun(acc, list(settings.suite), bench.reference, bench.finetune_datasets, experiment.swept,
                         dict(settings.method_settings))


def our_experiment_panel(artefact: str, experiments_params: str, results_dir: str | Path):
    """`(data, figure, finding)` of `artefact` from its experiment; the finding follows the paper's claim."""
    if not has_experiment_panel(artefact):
        raise KeyError(f"no experiment panel for {artefact!r}; panels: {sorted(EXPERIMENT_PANELS)}")
    runs = [load_run(experiments_params, EXPERIMENT_PANELS[artefact], results_dir)]
    if artefact in WITH_MAIN:
        runs.append(load_run(experiments_params, "main", results_dir))
    data, fig, finding = PANELS[artefact](*runs)
    return data, fig, f"Paper: {CLAIMS[artefact]} Ours: {finding}"


def show_experiment_panel(artefact: str, experiments_params: str, results_dir: str | Path, output_dir: str | Path) -> None:
    """The notebooks' experiment cell: draw and save `<artefact>_ours` with its finding, or say why
    there is none (no experiment draws it; the full tier's experiments are run on a GPU, not here)."""
    from ..plotting import save_figure

    if not has_experiment_panel(artefact):
        print(f"{artefact}: none of our appendix experiments draws this artefact.")
    elif experiments_source(experiments_params) == "registry":
        print(f"{artefact}: experiment {EXPERIMENT_PANELS[artefact]!r} needs the paper's models, data and a GPU "
              f"(`python -m lib experiment --tier full --name {EXPERIMENT_PANELS[artefact]}`); not computed here.")
    else:
        data, fig, finding = our_experiment_panel(artefact, experiments_params, results_dir)
        save_figure(fig, data, output_dir, f"{artefact}_ours")
        print(f"experiment {EXPERIMENT_PANELS[artefact]!r}:", finding)


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
        heatmap(matrix.rename(columns=_short), f"FT on {run.reference}: {value} (%)", ax, center=center)
    fig.tight_layout()
    parts = []
    for regime, part in data.groupby("regime", sort=False):
        part = part.set_index("eval_dataset")
        ood = part.loc[run.suite, "difference"]
        parts.append(f"{regime}: {run.reference} (fine-tuned on) {part.loc[run.reference, 'accuracy']:.1f} "
                     f"({part.loc[run.reference, 'difference']:+.1f}), mean change on the suite {ood.mean():+.1f} "
                     f"(from {ood.min():+.1f} on {_short(ood.idxmin())} to {ood.max():+.1f} on {_short(ood.idxmax())})")
    return data, fig, "; ".join(parts)


def clip_panel(clip: ExperimentRun, main: ExperimentRun):
    """Table 8: mRI per method of the CLIP regime, beside the main benchmark's regimes."""
    import matplotlib.pyplot as plt

    clip_means, _ = summary(clip.table(), "mRI")
    main_means, _ = summary(main.table(), "mRI")
    means = pd.concat([clip_means[clip.regimes], main_means[main.regimes]], axis=1)
    fig, ax = plt.subplots(figsize=(3.5 + 1.4 * means.shape[1], 4.2))
    heatmap(means, "mRI: zero-shot CLIP (left) and the main regimes", ax)
    fig.tight_layout()
    finding = "; ".join(f"{r}: {ranked(clip_means[r])}" for r in clip.regimes)
    if "FT" in means.index:
        finding += "; FT mRI " + ", ".join(f"{r} {v:+.1f}" for r, v in means.loc["FT"].items())
    return means.rename_axis("method").reset_index(), fig, finding


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
        heatmap(matrix, f"{name} (validation split)" if name == value else name, ax,
                center=None if name == "mean selected epoch" else 0.0)
    fig.tight_layout()
    data = pd.concat([m.rename_axis(index="method", columns="regime").reset_index()
                      .melt(id_vars="method", var_name="regime", value_name=name).set_index(["method", "regime"])
                      for name, m in parts.items()], axis=1).reset_index()
    findings = []
    for regime in with_split.columns:
        text = (f"{regime}: {value} {ranked(with_split[regime])}; difference from main {difference[regime].mean():+.1f} "
                f"on average ({difference[regime].min():+.1f} to {difference[regime].max():+.1f}); mean selected epoch "
                f"{epochs[regime].mean():.1f}")
        if value == "mean eRI":
            text += f"; negative for {int((with_split[regime] < 0).sum())} of {with_split[regime].notna().sum()} methods"
        findings.append(text)
    return data, fig, "; ".join(findings)


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
    heatmap(means, f"FT mRI per {run.swept}", ax)
    fig.tight_layout()
    finding = "; ".join(f"{r}: mRI {m.iloc[0]:+.1f} at weight decay {m.index[0]:g}, {m.iloc[-1]:+.1f} at {m.index[-1]:g}; "
                        f"highest {m.max():+.1f} at {m.idxmax():g}, lowest {m.min():+.1f} at {m.idxmin():g}"
                        for r, m in means.items())
    return means.reset_index().melt(id_vars=run.swept, var_name="regime", value_name="mRI"), fig, finding


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
    finding = convention + ": " + "; ".join(
        f"{r}: mRI {m.loc[PAPER_WISE_FT_ALPHA]:+.1f} at alpha {PAPER_WISE_FT_ALPHA:g}, "
        f"best {m.max():+.1f} at alpha {m.idxmax():g} (FT {ft[r]:+.1f})" for r, m in means.items())
    return data, fig, finding


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
    findings = []
    for regime, part in data.groupby("regime", sort=False):
        part = part.set_index("epoch")
        steps = [0, 1, part.index.max()] if part.index.max() > 1 else [0, 1]
        findings.append(f"{regime}: fine-tuning sets " + " → ".join(f"{part.loc[e, FT_SET]:.1f}" for e in steps)
                        + ", OOD " + " → ".join(f"{part.loc[e, 'OOD accuracy']:.1f}" for e in steps)
                        + f" (epochs {', '.join(map(str, steps))})")
    return data, fig, "; ".join(findings)


def learning_rate_panel(run: ExperimentRun):
    """Fig. 13: per epoch, FT's accuracy on the fine-tuning sets and mRI, per learning rate and regime."""
    table = run.table()
    data = _ordered(table[table["method"] == "FT"].groupby([run.swept, "regime", "epoch"], sort=False)[[FT_SET, "mRI"]]
                    .mean().reset_index(), run.regimes, [run.swept, "epoch"])
    fig = _curves(data.assign(curve=lambda d: d["regime"] + ", lr " + d[run.swept].map("{:g}".format)),
                  "epoch", [FT_SET, "mRI"], "curve", "FT per learning rate, mean over the fine-tuning sets")
    findings = []
    for (rate, regime), part in data.groupby([run.swept, "regime"], sort=False):
        last = part.loc[part["epoch"].idxmax()]
        findings.append(f"{regime}, lr {rate:g}: after epoch {int(last['epoch'])} fine-tuning sets {last[FT_SET]:.1f}, "
                        f"mRI {last['mRI']:+.1f} (lowest {part['mRI'].min():+.1f})")
    return data, fig, "; ".join(findings)


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
    findings = []
    for regime, part in data.groupby("regime", sort=False):
        part = part.set_index(run.swept)
        text = []
        for value in (FT_SET, "OOD accuracy"):
            below = ", ".join(str(k) for k in part.index if part.loc[k, value] < pretrained.loc[regime, value])
            text.append(f"{'fine-tuning sets' if value == FT_SET else 'OOD'} {part[value].iloc[0]:.1f} at k={part.index[0]}"
                        f" to {part[value].iloc[-1]:.1f} at k={part.index[-1]} (pretrained {pretrained.loc[regime, value]:.1f},"
                        f" below it at k={below or 'none'})")
        findings.append(f"{regime}: " + ", ".join(text))
    return data, fig, "; ".join(findings)


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


PANELS: dict[str, Callable] = {
    "table06": imagenet_val_panel,
    "table08": clip_panel,
    "table10": lambda split, main: validation_panel(split, main, "mRI"),
    "table11": lambda split, main: validation_panel(split, main, "mean eRI"),
    "table14": weight_decay_panel,
    "table16": wise_alpha_panel,
    "figure05": training_curves_panel,
    "figure12": small_subsets_panel,
    "figure13": learning_rate_panel,
}
