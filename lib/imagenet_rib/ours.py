"""The paper's tables computed from our miniature benchmark, for the notebooks' "Our run" sections.

`run_benchmark` runs (or reads back) a tier's benchmark; the other functions reshape its RI/mRI
table (`benchmark.robustness_table`) into the paper's layouts: the RI matrix of Table 2, the mRI
of Table 3 (mean ± standard error over seeds, as Table 15), backward transfer (Table 18), accuracy
on the fine-tuning sets (Table 19) and average OOD accuracy before and after (Fig. 4 / Fig. 8).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..store import RunContext
from .benchmark import PRETRAINED, Benchmark, BenchmarkSettings, mean_and_standard_error, robustness_table


def run_benchmark(benchmark_params: str, results_dir: str) -> tuple[BenchmarkSettings, pd.DataFrame, pd.DataFrame]:
    """Settings, per-dataset accuracies and the RI/mRI table of a tier's benchmark."""
    settings = BenchmarkSettings.load(benchmark_params)
    context = RunContext(params_file=benchmark_params, device=settings.device)
    bench = Benchmark(settings, Path(results_dir), context)
    acc = bench.run_accuracies()
    return settings, acc, robustness_table(acc, settings.suite, bench.reference, bench.finetune_datasets)


def ri_matrix(table: pd.DataFrame, regime: str) -> pd.DataFrame:
    """Methods × (RI per fine-tuning dataset, mRI) for one regime, averaged over seeds (Table 2's layout)."""
    columns = [c for c in table.columns if c.startswith("RI ")] + ["mRI"]
    part = table[table["regime"] == regime]
    return part.groupby("method", sort=False)[columns].mean()


def summary(table: pd.DataFrame, value: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Method × regime tables of `value`: the mean over seeds and its standard error (Tables 3, 15, 18, 19)."""
    stats = mean_and_standard_error(table, value)
    means = stats.pivot(index="method", columns="regime", values="mean")
    errors = stats.pivot(index="method", columns="regime", values="standard error")
    order = list(dict.fromkeys(stats["method"]))
    return means.loc[order], errors.loc[order]


def ood_average_before_after(acc: pd.DataFrame, suite: list[str]) -> pd.DataFrame:
    """Fig. 4 / Fig. 8: per regime, seed and method, the average accuracy over the suite's datasets
    other than the fine-tuning one (after), next to the pretrained model's average over the same ones."""
    rows = []
    for (regime, seed), group in acc.groupby(["regime", "seed"], sort=False):
        pre = group[group["method"] == PRETRAINED].set_index("eval_dataset")["accuracy"]
        for method, runs in group[group["method"] != PRETRAINED].groupby("method", sort=False):
            after, before = [], []
            for name, run in runs.groupby("finetune_dataset"):
                others = [d for d in suite if d != name]
                after.append(run.set_index("eval_dataset")["accuracy"].loc[others].mean())
                before.append(pre.loc[others].mean())
            rows.append({"regime": regime, "seed": seed, "method": method,
                         "before": sum(before) / len(before), "after": sum(after) / len(after)})
    return pd.DataFrame(rows)


PANELS = {
    "ri": ("table02",),
    "mri": ("table03", "table15"),
    "backward": ("table18",),
    "finetune_set": ("table19",),
    "per_dataset": ("table30",),
    "before_after": ("figure04", "figure08"),
}


def has_panel(artefact: str) -> bool:
    """Whether our miniature benchmark has a counterpart of `artefact`."""
    return any(artefact in artefacts for artefacts in PANELS.values())


def heatmap(matrix: pd.DataFrame, title: str, ax, fmt: str = ".1f", center: float | None = 0.0) -> None:
    """An annotated seaborn heatmap of `matrix` on `ax`: diverging around `center`, or viridis where it is None."""
    import seaborn as sns

    sns.heatmap(matrix, annot=True, fmt=fmt, cmap="RdBu" if center is not None else "viridis", center=center,
                ax=ax, cbar_kws={"shrink": 0.7}, annot_kws={"fontsize": 7})
    ax.set_title(title, fontsize=9)


def ranked(series: pd.Series) -> str:
    """`name +value, ...` from the highest value to the lowest."""
    return ", ".join(f"{k} {v:+.1f}" for k, v in series.sort_values(ascending=False).items())


def our_panel(artefact: str, settings: BenchmarkSettings, acc: pd.DataFrame, table: pd.DataFrame):
    """The artefact's counterpart on our benchmark: `(data, figure, finding)`, the finding computed."""
    import matplotlib.pyplot as plt

    regimes = list(dict.fromkeys(table["regime"]))
    seeds = table["seed"].nunique()
    fig, axes = plt.subplots(1, len(regimes), figsize=(5.2 * len(regimes), 4.2), squeeze=False)
    if artefact in PANELS["ri"]:
        parts = {r: ri_matrix(table, r) for r in regimes}
        for ax, (regime, matrix) in zip(axes[0], parts.items()):
            heatmap(matrix.rename(columns=lambda c: c.removeprefix("RI digits_")), f"RI / mRI, {regime} ({seeds} seeds)", ax)
        data = pd.concat(parts, names=["regime"]).reset_index()
        finding = "; ".join(f"{r}: highest mRI " + ranked(m["mRI"]).split(", ")[0] + ", lowest " + ranked(m["mRI"]).split(", ")[-1]
                            for r, m in parts.items())
    elif artefact in PANELS["mri"] + PANELS["backward"] + PANELS["finetune_set"]:
        value = {"mri": "mRI", "backward": "backward transfer", "finetune_set": "accuracy on the fine-tuning set"}[
            next(k for k, v in PANELS.items() if artefact in v)]
        means, errors = summary(table, value)
        plt.close(fig)
        fig, ax = plt.subplots(figsize=(4.0 + 1.6 * len(regimes), 4.2))
        heatmap(means, f"{value} (mean of {seeds} seeds)", ax, center=None if value.startswith("accuracy") else 0.0)
        data = means.join(errors, rsuffix=" standard error").reset_index()
        finding = "; ".join(f"{r}: " + ranked(means[r]) for r in regimes)
        if seeds > 1:
            finding += f"; largest standard error {errors.to_numpy().max():.2f}"
    elif artefact in PANELS["per_dataset"]:
        part = acc[acc["method"] != "pretrained"].groupby(["regime", "method", "finetune_dataset", "eval_dataset"])["accuracy"].mean()
        ft = part.xs("FT", level="method")
        for ax, regime in zip(axes[0], regimes):
            matrix = ft.xs(regime, level="regime").unstack("eval_dataset")
            heatmap(matrix.rename(columns=lambda c: c.removeprefix("digits_"), index=lambda c: c.removeprefix("digits_")),
                    f"FT accuracy after fine-tuning, {regime}", ax, center=None)
        data = part.reset_index()
        pre = acc[acc["method"] == "pretrained"].groupby(["regime", "eval_dataset"])["accuracy"].mean()
        finding = "; ".join(f"{r}: pretrained accuracy " + ", ".join(f"{d.removeprefix('digits_')} {v:.1f}" for d, v in pre.xs(r).items())
                            for r in regimes)
    elif artefact in PANELS["before_after"]:
        frame = ood_average_before_after(acc, settings.suite).groupby(["regime", "method"], sort=False)[["before", "after"]].mean()
        for ax, regime in zip(axes[0], regimes):
            frame.xs(regime).plot.bar(ax=ax, color=["tab:blue", "tab:red"], rot=60, fontsize=7)
            ax.set_title(f"{regime}: average OOD accuracy before / after", fontsize=9)
        data = frame.reset_index()
        change = (frame["after"] - frame["before"]).unstack("regime")
        finding = "mean change of OOD accuracy over methods: " + ", ".join(f"{r} {change[r].mean():+.1f}" for r in regimes)
    else:
        raise KeyError(f"no our-run panel for {artefact!r}")
    fig.tight_layout()
    return data, fig, finding
