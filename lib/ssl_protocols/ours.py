"""The paper's analyses applied to our protocol study (`study.py`), for the notebooks' "Our run".

The published-number modules name the paper's datasets (ImageNet, Table S.6's groups); here the
same analyses take the study's own in-domain dataset and each mini domain's shift group
(`lib.data.shifts`: style, granularity, categorical), so nothing is relabelled as ImageNet.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy import stats

from ..data.shifts import make_domain
from ..findings import Finding, Findings, Interval, bootstrap_interval, difference_interval, mean_interval
from ..plotting import heatmap
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


def id_ood_scores(frame: pd.DataFrame, in_domain: str, groups: dict[str, str], metric: str = "top1") -> pd.DataFrame:
    """Per model: the in-domain protocols' scores (columns `("ID", "", protocol)`) and each OOD
    protocol's mean accuracy over a shift group's datasets (columns `("OOD", group, protocol)`)."""
    data = frame[frame["metric"] == metric]
    parts = {("ID", ""): score_table(data, in_domain, PAPER_READING.column_map)}
    for group in dict.fromkeys(groups.values()):
        datasets = [d for d, g in groups.items() if g == group]
        parts[("OOD", group)] = pd.concat(
            [pd.concat([score_table(data, d, {p: c}) for d in datasets], axis=1).mean(axis=1).rename(p)
             for p, c in OOD_COLUMNS.items()], axis=1)
    return pd.concat(parts, axis=1)


def rank_correlations(rows: np.ndarray) -> np.ndarray:
    """Spearman correlations between the columns of `rows` (Pearson of average ranks; NaN where a
    column is constant), fast enough to bootstrap."""
    ranks = stats.rankdata(rows, axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.corrcoef(ranks, rowvar=False)


def id_vs_ood(frame: pd.DataFrame, in_domain: str, groups: dict[str, str], metric: str = "top1") -> pd.DataFrame:
    """Fig. 3 on our zoo: per shift group, Spearman ρ (with 95 % interval) between each in-domain
    protocol and each OOD protocol averaged over the group's datasets (mean accuracy, then rank)."""
    scores = id_ood_scores(frame, in_domain, groups, metric)
    ids = scores["ID"][""]
    rows = []
    for group, ood_protocol in scores["OOD"].columns:
        ood = scores[("OOD", group, ood_protocol)]
        for id_protocol in ids.columns:
            rho = ids[id_protocol].corr(ood, method="spearman")
            low, high = spearman_confidence_interval(rho, len(ood)) if len(ood) > 3 and abs(rho) < 1 else (float("nan"),) * 2
            rows.append({"group": group, "datasets": " ".join(d for d, g in groups.items() if g == group),
                         "ood protocol": ood_protocol, "id protocol": id_protocol, "rho": rho,
                         "ci95 low": low, "ci95 high": high, "n models": len(ood)})
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


def _heatmap(matrix: pd.DataFrame, title: str, ax=None, fmt: str = ".2f", vmin: float = -1, vmax: float = 1) -> Figure:
    """`lib.plotting.heatmap` on `ax`, or on a new figure sized to the matrix; returns the figure."""
    if ax is None:
        _, ax = plt.subplots(figsize=(0.9 * matrix.shape[1] + 2.2, 0.45 * matrix.shape[0] + 1.4))
    heatmap(ax, matrix, fmt=fmt, vmin=vmin, vmax=vmax, center=0.0 if vmin < 0 else None, cbar=True, title=title)
    return ax.figure


# -- our-run panels: each draws one artefact's analysis and judges the paper's claim about it ------------
Panel = tuple[pd.DataFrame, Figure, Findings]


def _probing_minus_finetuning(rows: np.ndarray, id_columns: list[str]) -> float:
    """Mean ρ of the ID probing protocols (kNN, LP) with the OOD columns minus that of ID FT."""
    rho = rank_correlations(rows)[:len(id_columns), len(id_columns):]
    probing = [id_columns.index(p) for p in ("kNN", "LP")]
    return float(np.nanmean(rho[probing]) - np.nanmean(rho[id_columns.index("FT")]))


def in_domain_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Panel:
    """Fig. 2 (left): the in-domain protocols' rank correlations; kNN^N vs LP^BN, and FT the weakest."""
    matrix = in_domain_matrix(frame, settings.in_domain, metric)
    scores = score_table(frame[frame["metric"] == metric], settings.in_domain, PAPER_READING.column_map)
    n = len(scores)
    fig = _heatmap(matrix, f"Our zoo ({n} models), in-domain {settings.in_domain}, {metric}")
    rho = matrix.loc["kNN", "LP"]
    low, high = spearman_confidence_interval(rho, n) if n > 3 else (-1.0, 1.0)
    ft = list(scores.columns).index("FT")

    def ft_weakest(rows: np.ndarray) -> float:
        means = np.nanmean(rank_correlations(rows), axis=1)
        return float(means[ft] - np.min(np.delete(means, ft)))

    findings = [
        Finding("ρ(kNN^N, LP^BN)", rho, Interval(min(low, rho), max(high, rho), f"95% Fisher-z interval, {n} models"),
                "linear and kNN probing correlate almost perfectly when features are normalised (read: ρ > 0.9)",
                ">", 0.9, "r = 0.99"),
        Finding("FT's mean correlation − lowest mean of the other ID protocols",
                ft_weakest(scores.to_numpy()), bootstrap_interval(scores.to_numpy(), ft_weakest),
                "fine-tuning has the weakest average correlation", "<", 0.0, "FT 0.79; LP 0.90, FT-10% 0.91"),
    ]
    return matrix.round(4).reset_index(names="protocol"), fig, Findings(findings)


def normalised_correlation_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Panel:
    """Fig. S.3: every in-domain protocol with and without normalisation; kNN–LP with and without it."""
    columns = {c: c for c in ("kNN", "kNN_N", "LP", "LP_BN", "FT", "FT10%", "FT10%_BN", "FT1%", "FT1%_BN")}
    scores = score_table(frame[frame["metric"] == metric], settings.in_domain, columns)
    matrix = spearman_matrix(scores)
    fig = _heatmap(matrix, f"Our zoo ({len(scores)} models), in-domain {settings.in_domain}, {metric}")
    at = {c: i for i, c in enumerate(scores.columns)}

    def gain(rows: np.ndarray) -> float:
        rho = rank_correlations(rows)
        return float(rho[at["kNN_N"], at["LP_BN"]] - rho[at["kNN"], at["LP"]])

    findings = [Finding("ρ(kNN^N, LP^BN) − ρ(kNN, LP)", gain(scores.to_numpy()), bootstrap_interval(scores.to_numpy(), gain),
                        "kNN and linear probing agree more when the features are normalised", ">", 0.0,
                        "0.99 with normalisation (Fig. 2); Fig. S.3 shows both")]
    return matrix.round(4).reset_index(names="protocol"), fig, Findings(findings)


def id_vs_ood_panel(settings: StudySettings, frame: pd.DataFrame, metric: str, group: str = "") -> Panel:
    """Fig. 3 (S.2: top-5; S.4: one group): ID-vs-OOD rank correlations per shift group; do the ID
    probing protocols predict OOD accuracy better than ID fine-tuning?"""
    groups = shift_groups(settings)
    groups = {d: g for d, g in groups.items() if g == group} or groups
    long = id_vs_ood(frame, settings.in_domain, groups, metric)
    fig, axes = plt.subplots(1, long["group"].nunique(), figsize=(3.6 * long["group"].nunique(), 3.0), squeeze=False)
    for ax, (name, part) in zip(axes[0], long.groupby("group", sort=False)):
        _heatmap(part.pivot(index="ood protocol", columns="id protocol", values="rho"), f"{name} ({metric})", ax)
    fig.tight_layout()
    scores = id_ood_scores(frame, settings.in_domain, groups, metric)
    id_columns = list(scores["ID"][""].columns)

    def statistic(rows: np.ndarray) -> float:
        return _probing_minus_finetuning(rows, id_columns)

    rows = scores.to_numpy()
    findings = [Finding("mean ρ(ID kNN/LP, OOD) − mean ρ(ID FT, OOD)", statistic(rows), bootstrap_interval(rows, statistic),
                        "the ID probing protocols predict the ranking on OOD data better than ID fine-tuning", ">", 0.0,
                        "categorical kNN 0.96, LP 0.95 vs FT 0.62")]
    return long.round(4), fig, Findings(findings)


def normalisation_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Panel:
    """Fig. 4 / Sec. 4.3: accuracy gained by each normalised protocol over its plain version."""
    gains = normalisation_gains(frame, settings.in_domain, metric)
    extent = abs(gains.to_numpy()).max()
    fig = _heatmap(gains, f"Normalised minus plain, {settings.in_domain} {metric} (points)", fmt=".1f", vmin=-extent, vmax=extent)
    findings = [Finding(f"mean gain of normalisation for {p} (points)", gains[p].mean(), mean_interval(gains[p], "models"),
                        "normalisation (BN, z-score) raises accuracy, for fine-tuning too when steps are few", ">", 0.0,
                        "significant for unscaled features, none for DINO") for p in gains.columns]
    return gains.round(4).reset_index(), fig, Findings(findings)


def lp_vs_ft_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Panel:
    """Fig. 5: in-domain LP^BN vs FT per model with the least-squares line; is the FT − LP gap a
    matter of the backbone (ViT above the line)?"""
    table, fit = lp_vs_ft(frame, settings.in_domain, metric)
    fig, ax = plt.subplots(figsize=(4.6, 3.8))
    for backbone, part in table.groupby("backbone"):
        ax.scatter(part["LP"], part["FT"], label=backbone)
        for row in part.itertuples():
            ax.annotate(row.method, (row.LP, row.FT), fontsize=6)
    xs = pd.Series(sorted(table["LP"]))
    low, high = fit.band(xs)
    ax.plot(xs, fit.predict(xs), color="k", lw=1)
    ax.fill_between(xs, low, high, color="grey", alpha=0.2)
    ax.set_xlabel(f"LP^BN on {settings.in_domain}, {metric} %")
    ax.set_ylabel(f"FT on {settings.in_domain}, {metric} %")
    ax.legend(fontsize=7)
    gap = table["FT"] - table["LP"]
    vit = table["backbone"].str.contains("vit", case=False)
    if vit.sum() >= 2 and (~vit).sum() >= 2:
        estimate, interval = gap[vit].mean() - gap[~vit].mean(), difference_interval(gap[vit], gap[~vit])
    else:
        estimate, interval = float("nan"), Interval(float("nan"), float("nan"), (
            f"undefined: needs two models of each kind, the zoo has {vit.sum()} ViT and {(~vit).sum()} other"))
    findings = [Finding("mean FT − LP gap, ViT minus other backbones (points)", estimate, interval,
                        "ViT backbones have a larger fine-tuning gain over linear probing than other backbones",
                        ">", 0.0, "every ViT above the regression line")]
    return table.round(4), fig, Findings(findings)


def id_ood_scatter_panel(settings: StudySettings, frame: pd.DataFrame, metric: str, group: str = "") -> Panel:
    """Fig. 6 (S.1: style, S.5: granularity): ID vs OOD accuracy per dataset and protocol; do kNN and
    LP follow ID accuracy more closely than FT?"""
    groups = shift_groups(settings)
    wanted = [d for d, g in groups.items() if g == group] or list(groups)
    points = id_vs_ood_points(frame, settings.in_domain, wanted, metric)
    panels = list(points.groupby(["dataset", "protocol"], sort=False))
    fig, axes = plt.subplots(len(wanted), 3, figsize=(8.4, 2.5 * len(wanted)), squeeze=False)
    for ax, ((dataset, protocol), part) in zip(axes.ravel(), panels):
        ax.scatter(part["id"], part["ood"], s=12)
        ax.set_title(f"{dataset}, {protocol}: r = {part['id'].corr(part['ood'], method='spearman'):.2f}", fontsize=8)
    fig.supxlabel(f"ID ({settings.in_domain}) {metric} %")
    fig.supylabel(f"OOD {metric} %")
    fig.tight_layout()
    wide = points.pivot_table(index="model", columns=["dataset", "protocol"], values=["id", "ood"], sort=False)
    pairs = [(list(wide.columns).index(("id", d, p)), list(wide.columns).index(("ood", d, p)), p) for d in wanted for p in OOD_COLUMNS]

    def statistic(rows: np.ndarray) -> float:
        rho = rank_correlations(rows)
        probing = [rho[i, j] for i, j, p in pairs if p != "FT"]
        finetuning = [rho[i, j] for i, j, p in pairs if p == "FT"]
        return float(np.nanmean(probing) - np.nanmean(finetuning))

    rows = wide.to_numpy()
    findings = [Finding("mean ρ(ID, OOD) of kNN and LP − that of FT, over datasets", statistic(rows),
                        bootstrap_interval(rows, statistic),
                        "kNN and linear probing relate ID and OOD accuracy more closely than fine-tuning", ">", 0.0,
                        "on Pascal VOC, Caltech-256 and CUB")]
    return points.round(4), fig, Findings(findings)


def accuracy_table_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Panel:
    """Tables S.2 / S.3: every model × dataset × protocol accuracy; does normalisation raise probing
    accuracy (Sec. 4.3 cites Tab. S.2)?"""
    data = frame[frame["metric"] == metric]
    wide = data.pivot_table(index="model", columns=["dataset", "protocol"], values="value", sort=False)
    fig = _heatmap(wide, f"Our zoo, {metric} accuracy (%)", fmt=".0f", vmin=0, vmax=100)
    fig.set_size_inches(min(0.45 * wide.shape[1] + 3, 30), 0.45 * wide.shape[0] + 2)
    per_model = data.pivot_table(index="model", columns="protocol", values="value")  # mean over datasets
    findings = [Finding(f"mean gain of {normalised} over {plain} per model, over datasets (points)",
                        (per_model[normalised] - per_model[plain]).mean(),
                        mean_interval(per_model[normalised] - per_model[plain], "models"),
                        "embedding normalisation can significantly increase probing accuracy", ">", 0.0,
                        "strong for unscaled embeddings (SimSiam, MaskFeat), none for DINO")
                for plain, normalised in (("kNN", "kNN_N"), ("LP", "LP_BN"))]
    return wide.round(2).reset_index(), fig, Findings(findings)


# Which analysis draws each artefact, and with which fixed options (a notebook's `metric` is the default).
PANELS: dict[str, tuple[Callable[..., Panel], dict[str, Any]]] = {
    "figure02": (in_domain_panel, {}),
    "figure_s3": (normalised_correlation_panel, {}),
    "figure03": (id_vs_ood_panel, {}),
    "figure_s2": (id_vs_ood_panel, {"metric": "top5"}),
    "figure_s4": (id_vs_ood_panel, {"group": "granularity"}),
    "figure04": (normalisation_panel, {}),
    "figure05": (lp_vs_ft_panel, {}),
    "figure06": (id_ood_scatter_panel, {}),
    "figure_s1": (id_ood_scatter_panel, {"group": "style"}),
    "figure_s5": (id_ood_scatter_panel, {"group": "granularity"}),
    "table_s2": (accuracy_table_panel, {"metric": "top1"}),
    "table_s3": (accuracy_table_panel, {"metric": "top5"}),
}


def our_panel(artefact: str, settings: StudySettings, frame: pd.DataFrame, metric: str = "top1") -> Panel:
    """The artefact's analysis on our study: `(data, figure, findings)`, each finding judged by its interval."""
    if artefact not in PANELS:
        raise KeyError(f"no our-run panel for {artefact!r}; panels exist for {sorted(PANELS)}")
    draw, options = PANELS[artefact]
    return draw(settings, frame, **({"metric": metric} | options))


def verdicts(study_params: str, results_dir: str) -> dict[str, list[str]]:
    """Every panel's findings' verdicts on a study (run or read back): what must not depend on
    the thread count a run used."""
    import matplotlib.pyplot as plt

    settings, frame = run_study(study_params, results_dir)
    out = {}
    for artefact in PANELS:
        _, fig, findings = our_panel(artefact, settings, frame)
        plt.close(fig)
        out[artefact] = [f.verdict for f in findings]
    return out
