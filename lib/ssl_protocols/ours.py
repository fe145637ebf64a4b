"""The paper's analyses applied to our protocol study (`study.py`), for the notebooks' "Our run".

The published-number modules name the paper's datasets (ImageNet, Table S.6's groups); here the
same analyses take the study's own in-domain dataset and each mini domain's shift group
(`lib.data.shifts`: style, granularity, categorical), so nothing is relabelled as ImageNet.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..data.shifts import make_domain
from ..metrics.correlation import mean_correlation, spearman_confidence_interval, spearman_matrix
from ..store import RunContext
from .accuracies import score_table
from .figure02 import PAPER_READING
from .scatter import LinearFit, linear_fit
from .study import Study, StudySettings, accuracies

OOD_COLUMNS = {"kNN": "kNN_N", "LP": "LP_BN", "FT": "FT"}


def run_study(study_params: str, results_dir: str, params_file: str = "") -> tuple[StudySettings, pd.DataFrame]:
    """Load a tier's study settings, run (or read back) every run, return settings and accuracies."""
    settings = StudySettings.load(study_params)
    context = RunContext(params_file=params_file or study_params, device=settings.device)
    return settings, accuracies(Study(settings, Path(results_dir), context).run())


def shift_groups(settings: StudySettings) -> dict[str, str]:
    """Out-of-domain dataset → shift group: the mini domains' own (style, granularity, categorical),
    or for a registry study Table S.6's groups (a dataset listed in several takes the last)."""
    if settings.source == "embedded":
        return {name: make_domain(name, 8).group for name in settings.out_of_domain}
    from .shift_groups import shift_groups as table_s6_groups

    labels = set(settings.dataset_labels()[1:])
    return {d: g.name for g in table_s6_groups().values() for d in g.printed if d in labels}


def in_domain_matrix(frame: pd.DataFrame, in_domain: str, metric: str = "top1") -> pd.DataFrame:
    """Fig. 2 (left) on our zoo: Spearman matrix of the five in-domain protocols (the paper's reading)."""
    return spearman_matrix(score_table(frame[frame["metric"] == metric], in_domain, PAPER_READING.column_map))


def protocol_means(matrix: pd.DataFrame) -> pd.DataFrame:
    """Each protocol's average correlation, with (the paper's reading) and without the diagonal."""
    return pd.DataFrame({"mean with diagonal": mean_correlation(matrix, True),
                         "mean without diagonal": mean_correlation(matrix, False)})


def id_vs_ood(frame: pd.DataFrame, in_domain: str, groups: dict[str, str], metric: str = "top1") -> pd.DataFrame:
    """Fig. 3 on our zoo: per shift group, Spearman ρ (with 95 % interval) between each in-domain
    protocol and each OOD protocol averaged over the group's datasets (mean accuracy, then rank)."""
    data = frame[frame["metric"] == metric]
    ids = score_table(data, in_domain, PAPER_READING.column_map)
    rows = []
    for group in dict.fromkeys(groups.values()):
        datasets = [d for d, g in groups.items() if g == group]
        for ood_protocol, column in OOD_COLUMNS.items():
            ood = pd.concat([score_table(data, d, {ood_protocol: column}) for d in datasets], axis=1).mean(axis=1)
            for id_protocol in ids.columns:
                rho = ids[id_protocol].corr(ood, method="spearman")
                low, high = spearman_confidence_interval(rho, len(ood)) if len(ood) > 3 and abs(rho) < 1 else (float("nan"),) * 2
                rows.append({"group": group, "datasets": " ".join(datasets), "ood protocol": ood_protocol,
                             "id protocol": id_protocol, "rho": rho, "ci95 low": low, "ci95 high": high, "n models": len(ood)})
    return pd.DataFrame(rows)


def lp_vs_ft(frame: pd.DataFrame, in_domain: str, metric: str = "top1") -> tuple[pd.DataFrame, LinearFit]:
    """Fig. 5 on our zoo: in-domain LP (with BN) vs FT per model, and the least-squares line."""
    data = frame[frame["metric"] == metric]
    table = score_table(data, in_domain, {"LP": "LP_BN", "FT": "FT"})
    meta = data.drop_duplicates("model").set_index("model")[["method", "backbone"]]
    table = meta.loc[table.index].join(table)
    return table.reset_index(), linear_fit(table["LP"], table["FT"])


def normalisation_gains(frame: pd.DataFrame, in_domain: str, metric: str = "top1") -> pd.DataFrame:
    """Fig. 4 / Sec. 4.3 on our zoo: accuracy gained by each normalised variant over its plain protocol."""
    data = frame[(frame["metric"] == metric) & (frame["dataset"] == in_domain)]
    wide = data.pivot_table(index="model", columns="protocol", values="value")
    pairs = {"kNN": ("kNN", "kNN_N"), "LP": ("LP", "LP_BN"), "FT-10%": ("FT10%", "FT10%_BN"), "FT-1%": ("FT1%", "FT1%_BN")}
    return pd.DataFrame({p: wide[b] - wide[a] for p, (a, b) in pairs.items()})


def id_vs_ood_points(frame: pd.DataFrame, in_domain: str, datasets: list[str], metric: str) -> pd.DataFrame:
    """Fig. 6 / S.1 on our zoo: per OOD dataset and protocol, each model's ID and OOD accuracy."""
    data = frame[frame["metric"] == metric]
    rows = []
    for dataset in datasets:
        for protocol, column in OOD_COLUMNS.items():
            ids = score_table(data, in_domain, {protocol: column})[protocol]
            oods = score_table(data, dataset, {protocol: column})[protocol]
            rows += [{"dataset": dataset, "protocol": protocol, "model": m, "id": ids[m], "ood": oods[m]} for m in ids.index]
    return pd.DataFrame(rows)


def _heatmap(matrix: pd.DataFrame, title: str, ax=None, fmt: str = ".2f", vmin: float = -1, vmax: float = 1):
    import matplotlib.pyplot as plt
    import seaborn as sns

    if ax is None:
        _, ax = plt.subplots(figsize=(0.9 * matrix.shape[1] + 2.2, 0.45 * matrix.shape[0] + 1.4))
    sns.heatmap(matrix, annot=True, fmt=fmt, vmin=vmin, vmax=vmax, cmap="viridis", ax=ax, cbar_kws={"shrink": 0.7})
    ax.set_title(title, fontsize=9)
    return ax.figure


def our_panel(artefact: str, settings: StudySettings, frame: pd.DataFrame, metric: str = "top1"):
    """The artefact's analysis on our study: `(data, figure, finding)`, the finding a computed sentence."""
    import matplotlib.pyplot as plt

    in_domain, groups = settings.in_domain, shift_groups(settings)
    n = frame["model"].nunique()
    if artefact in ("figure02", "figure_s3"):
        if artefact == "figure02":
            matrix = in_domain_matrix(frame, in_domain, metric)
        else:
            columns = {c: c for c in ("kNN", "kNN_N", "LP", "LP_BN", "FT", "FT10%", "FT10%_BN", "FT1%", "FT1%_BN")}
            matrix = spearman_matrix(score_table(frame[frame["metric"] == metric], in_domain, columns))
        means = protocol_means(matrix)
        fig = _heatmap(matrix, f"Our zoo ({n} models), in-domain {in_domain}, {metric}")
        ranked = means["mean with diagonal"].sort_values(ascending=False)
        finding = ("highest average correlation: " + ", ".join(f"{p} {v:.2f}" for p, v in ranked.items())
                   + (f"; kNN^N–LP^BN ρ = {matrix.loc['kNN', 'LP']:.2f}" if artefact == "figure02" else ""))
        return matrix.round(4).reset_index(names="protocol"), fig, finding
    if artefact in ("figure03", "figure_s2", "figure_s4"):
        metric = "top5" if artefact == "figure_s2" else metric
        if artefact == "figure_s4":
            groups = {d: g for d, g in groups.items() if g == "granularity"} or groups
        long = id_vs_ood(frame, in_domain, groups, metric)
        fig, axes = plt.subplots(1, long["group"].nunique(), figsize=(3.6 * long["group"].nunique(), 3.0), squeeze=False)
        for ax, (group, part) in zip(axes[0], long.groupby("group", sort=False)):
            _heatmap(part.pivot(index="ood protocol", columns="id protocol", values="rho"), f"{group} ({metric})", ax)
        fig.tight_layout()
        probing = long[long["id protocol"].isin(["kNN", "LP"])]["rho"].mean()
        finetune = long[long["id protocol"] == "FT"]["rho"].mean()
        better = ("probing" if probing - finetune > 0.1 else "fine-tuning" if finetune - probing > 0.1
                  else "neither (the means differ by less than 0.1)")
        finding = (f"mean ρ of the ID probing protocols (kNN, LP) with the OOD protocols {probing:.2f}, of ID FT "
                   f"{finetune:.2f}: the better OOD predictor in our zoo is {better} (the paper: probing); with "
                   f"n = {n} models each ρ carries a wide interval")
        return long.round(4), fig, finding
    if artefact == "figure04":
        gains = normalisation_gains(frame, in_domain, metric)
        fig = _heatmap(gains, f"Normalised minus plain, {in_domain} {metric} (points)", fmt=".1f",
                       vmin=-abs(gains.to_numpy()).max(), vmax=abs(gains.to_numpy()).max())
        finding = "mean gain of the normalised variant: " + ", ".join(f"{p} {v:+.1f}" for p, v in gains.mean().items())
        return gains.round(4).reset_index(), fig, finding
    if artefact == "figure05":
        table, fit = lp_vs_ft(frame, in_domain, metric)
        fig, ax = plt.subplots(figsize=(4.6, 3.8))
        for backbone, part in table.groupby("backbone"):
            ax.scatter(part["LP"], part["FT"], label=backbone)
            for row in part.itertuples():
                ax.annotate(row.method, (row.LP, row.FT), fontsize=6)
        xs = pd.Series(sorted(table["LP"]))
        low, high = fit.band(xs)
        ax.plot(xs, fit.predict(xs), color="k", lw=1)
        ax.fill_between(xs, low, high, color="grey", alpha=0.2)
        ax.set_xlabel(f"LP^BN on {in_domain}, {metric} %")
        ax.set_ylabel(f"FT on {in_domain}, {metric} %")
        ax.legend(fontsize=7)
        gap = (table["FT"] - table["LP"]).groupby(table["backbone"]).mean()
        finding = "mean FT − LP gap by backbone: " + ", ".join(f"{b} {v:+.1f}" for b, v in gap.items())
        return table.round(4), fig, finding
    if artefact in ("figure06", "figure_s1", "figure_s5"):
        wanted = {"figure06": list(groups), "figure_s1": [d for d, g in groups.items() if g == "style"],
                  "figure_s5": [d for d, g in groups.items() if g == "granularity"]}[artefact] or list(groups)
        points = id_vs_ood_points(frame, in_domain, wanted, metric)
        panels = list(points.groupby(["dataset", "protocol"], sort=False))
        fig, axes = plt.subplots(len(wanted), 3, figsize=(8.4, 2.5 * len(wanted)), squeeze=False)
        rhos = []
        for ax, ((dataset, protocol), part) in zip(axes.ravel(), panels):
            rho = part["id"].corr(part["ood"], method="spearman")
            rhos.append({"dataset": dataset, "protocol": protocol, "spearman": rho})
            ax.scatter(part["id"], part["ood"], s=12)
            ax.set_title(f"{dataset}, {protocol}: r = {rho:.2f}", fontsize=8)
        fig.supxlabel(f"ID ({in_domain}) {metric} %")
        fig.supylabel(f"OOD {metric} %")
        fig.tight_layout()
        stats = pd.DataFrame(rhos)
        finding = "Spearman r per panel: " + "; ".join(f"{r.dataset} {r.protocol} {r.spearman:.2f}" for r in stats.itertuples())
        return points.round(4), fig, finding
    if artefact in ("table_s2", "table_s3"):
        metric = "top1" if artefact == "table_s2" else "top5"
        wide = frame[frame["metric"] == metric].pivot_table(index="model", columns=["dataset", "protocol"], values="value", sort=False)
        fig = _heatmap(wide, f"Our zoo, {metric} accuracy (%)",
                       fmt=".0f", vmin=0, vmax=100)
        fig.set_size_inches(min(0.45 * wide.shape[1] + 3, 30), 0.45 * wide.shape[0] + 2)
        best = wide.mean(axis=0).groupby(level=1).mean().sort_values(ascending=False)
        finding = "mean accuracy per protocol over models and datasets: " + ", ".join(f"{p} {v:.1f}" for p, v in best.items())
        return wide.round(2).reset_index(), fig, finding
    raise KeyError(f"no our-run panel for {artefact!r}")
