"""The paper's analyses applied to our protocol study (`study.py`), for the notebooks' "Our run".

The published-number modules name the paper's datasets (ImageNet, Table S.6's groups); here the
same analyses take the study's own in-domain dataset and each mini domain's shift group
(`lib.data.shifts`: style, granularity, categorical), so nothing is relabelled as ImageNet.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy import stats

from ..data.domains import describe
from ..findings import (Finding, Findings, Interval, bootstrap_interval, defined_mean, difference_interval, mean_interval,
                        undefined_interval)
from ..metrics.correlation import mean_correlation, spearman_confidence_interval, spearman_matrix
from ..plotting import paper_and_ours_heatmaps
from ..params import tier_of
from ..results import paper_and_ours
from ..store import RunContext, precompute_study
from .accuracies import PAPER, published_accuracies, score_table
from .batch_norm import normalisation_gains
from .figure02 import EXTENDED_ID_COLUMNS, PAPER_READING, extended_in_domain_matrix
from .figure02 import in_domain_matrix as paper_in_domain_matrix
from .inaturalist import figure_s4_cells, seed_points
from .scatter import FIGURE06_DATASETS, LinearFit, linear_fit, paper_and_ours_scatter, scatter_points, xy_points
from .scatter import lp_vs_ft as paper_lp_vs_ft
from .shift_groups import IMAGENET_D, IN_DOMAIN, PAPER_MODEL_COUNT, group_correlations
from .study import Study, StudySettings

OOD_COLUMNS = {"kNN": "kNN_N", "LP": "LP_BN", "FT": "FT"}


def run_study(study_params: str, results_dir: str, params_file: str = "") -> tuple[StudySettings, pd.DataFrame]:
    """Load a tier's study settings, run (or read back) every run, return settings and accuracies
    (with the `tier` the settings file's folder names: `params/<tier>/ssl_protocols/…`)."""
    settings = StudySettings.load(study_params)
    context = RunContext(params_file=params_file or study_params, device=settings.device)
    frame = Study(settings, Path(results_dir), context).run_accuracies()
    return settings, frame.assign(tier=tier_of(study_params))


def precompute(params: Mapping[str, Any], artefacts: Collection[str]) -> int:
    """Compute the study's runs (`study_params`, `results_dir`) if a notebook of `artefacts` reads them
    (the paired panels and the claims); how many were computed by this process."""
    return precompute_study(StudySettings.load, Study, params, artefacts, {*PANELS, "claims"})


def shift_groups(settings: StudySettings) -> dict[str, str]:
    """Out-of-domain dataset → shift group: the mini domains' own (style, granularity, categorical),
    or for a registry study Table S.6's groups (a dataset listed in several takes the last)."""
    if settings.source == "embedded":
        return {name: describe(name).group for name in settings.out_of_domain}
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


# -- our-run panels: each puts one artefact's analysis of our study beside the paper's, drawn by one function,
# and judges the paper's claim on our run -------------------------------------------------------------------
Panel = tuple[pd.DataFrame, Figure, Findings]


@dataclass(frozen=True)
class Pair:
    """One artefact's paper and our numbers as rows of the results schema (`lib.results`, without its
    constants), the quantity they hold, what each panel shows, how the pair is drawn, our findings."""

    paper: pd.DataFrame
    ours: pd.DataFrame
    metric: str
    paper_title: str
    ours_title: str
    draw: Callable[..., Figure]
    findings: Findings


def _correlations(matrix: pd.DataFrame, dataset: str) -> pd.DataFrame:
    """A protocol × protocol correlation matrix as schema rows: `method` the row's protocol,
    `eval_dataset` "ID <column's protocol>", `train_dataset` the in-domain dataset."""
    long = matrix.rename_axis(index="method", columns="versus").stack().rename("value").reset_index()
    return long.assign(eval_dataset="ID " + long["versus"], train_dataset=dataset)


def _group_correlations(long: pd.DataFrame, dataset: str, group: str, ood: str, id_: str) -> pd.DataFrame:
    """ID-vs-OOD correlations as schema rows: `method` the ID protocol, `eval_dataset` "<group>: OOD <protocol>"."""
    return pd.DataFrame({"method": long[id_], "eval_dataset": long[group] + ": OOD " + long[ood],
                         "train_dataset": dataset, "value": long["rho"]})


def _accuracies(accuracies: pd.DataFrame) -> pd.DataFrame:
    """Accuracy rows (Tables S.2/S.3 or our study) as schema rows: the protocol is the `method`,
    trained and measured on the row's dataset."""
    rows = accuracies.drop(columns="method").rename(columns={"protocol": "method", "dataset": "eval_dataset"})
    return rows.assign(train_dataset=rows["eval_dataset"])


def _id_ood_points(points: pd.DataFrame, in_domain: str) -> pd.DataFrame:
    """Points `model, protocol, dataset, id, ood` (and `spread`) as schema rows: one row per model and
    protocol on the in-domain dataset, one per point on its OOD dataset."""
    points = points.drop(columns=["method"], errors="ignore").rename(columns={"protocol": "method"})
    ids = points.drop_duplicates(["model", "method"])[["model", "method", "id"]].assign(eval_dataset=in_domain)
    oods = points.drop(columns="id").rename(columns={"dataset": "eval_dataset", "ood": "value"})
    return pd.concat([ids.rename(columns={"id": "value"}), oods], ignore_index=True)


def _heatmaps(index: str, columns: str, *, fmt: str = ".2f", center: float | None = 0.0,
              rows: Callable[[pd.DataFrame], pd.Series] | None = None) -> Callable[..., Figure]:
    """`paper_and_ours_heatmaps` of `index` × `columns`, drawing only the rows `rows` selects."""
    def draw(frame: pd.DataFrame, titles: tuple[str, str]) -> Figure:
        shown = frame if rows is None else frame[rows(frame)]
        return paper_and_ours_heatmaps(shown, index, columns, center=center, fmt=fmt, titles=titles)
    return draw


def _in_domain(in_domain: str) -> Callable[[pd.DataFrame], pd.Series]:
    """Selects the rows measured on the paper's in-domain dataset (ImageNet) or ours."""
    return lambda frame: frame["eval_dataset"].isin([IN_DOMAIN, in_domain])


def _scatter(on: list[str], is_x: Callable[[pd.DataFrame], pd.Series], hue: str, xlabel: str, ylabel: str,
             **options: Any) -> Callable[..., Figure]:
    """`paper_and_ours_scatter` of the points `xy_points` makes from the tidy frame."""
    def draw(frame: pd.DataFrame, titles: tuple[str, str]) -> Figure:
        points = xy_points(frame, is_x(frame), on)
        points["backbone"] = np.where(points["model"].str.contains("vit", case=False), "ViT", "other backbone")
        return paper_and_ours_scatter(points, hue=hue, xlabel=xlabel, ylabel=ylabel, titles=titles, **options)
    return draw


def _probing_minus_finetuning(rows: np.ndarray, id_columns: list[str]) -> float:
    """Mean ρ of the ID probing protocols (kNN, LP) with the OOD columns minus that of ID FT."""
    rho = rank_correlations(rows)[:len(id_columns), len(id_columns):]
    probing = [id_columns.index(p) for p in ("kNN", "LP")]
    return float(defined_mean(rho[probing]) - defined_mean(rho[id_columns.index("FT")]))


def in_domain_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Pair:
    """Fig. 2 (left): the in-domain protocols' rank correlations; kNN^N vs LP^BN, and FT the weakest."""
    matrix = in_domain_matrix(frame, settings.in_domain, metric)
    scores = score_table(frame[frame["metric"] == metric], settings.in_domain, PAPER_READING.column_map)
    n = len(scores)
    rho = matrix.loc["kNN", "LP"]
    low, high = spearman_confidence_interval(rho, n) if n > 3 else (-1.0, 1.0)
    ft = list(scores.columns).index("FT")

    def ft_weakest(rows: np.ndarray) -> float:
        means = defined_mean(rank_correlations(rows), axis=1)
        return float(means[ft] - np.min(np.delete(means, ft)))

    findings = [
        Finding("ρ(kNN^N, LP^BN)", rho, Interval(min(low, rho), max(high, rho), f"95% Fisher-z interval, {n} models"),
                "linear and kNN probing correlate almost perfectly when features are normalised (read: ρ > 0.9)",
                ">", 0.9, "r = 0.99"),
        Finding("FT's mean correlation − lowest mean of the other ID protocols",
                ft_weakest(scores.to_numpy()), bootstrap_interval(scores.to_numpy(), ft_weakest),
                "fine-tuning has the weakest average correlation", "<", 0.0, "FT 0.79; LP 0.90, FT-10% 0.91"),
    ]
    paper = paper_in_domain_matrix(published_accuracies(metric))
    return Pair(_correlations(paper, IN_DOMAIN), _correlations(matrix, settings.in_domain), f"spearman rho of {metric}",
                f"ImageNet protocols, Table S.2, {PAPER_MODEL_COUNT} models", f"{settings.in_domain} protocols",
                _heatmaps("method", "eval_dataset"), Findings(findings))


def normalised_correlation_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Pair:
    """Fig. S.3: every in-domain protocol with and without normalisation; kNN–LP with and without it."""
    scores = score_table(frame[frame["metric"] == metric], settings.in_domain, EXTENDED_ID_COLUMNS)
    matrix = spearman_matrix(scores)
    at = {c: i for i, c in enumerate(scores.columns)}

    def gain(rows: np.ndarray) -> float:
        rho = rank_correlations(rows)
        return float(rho[at["kNN^N"], at["LP^BN"]] - rho[at["kNN"], at["LP"]])

    findings = [Finding("ρ(kNN^N, LP^BN) − ρ(kNN, LP)", gain(scores.to_numpy()), bootstrap_interval(scores.to_numpy(), gain),
                        "kNN and linear probing agree more when the features are normalised", ">", 0.0,
                        "0.99 with normalisation (Fig. 2); Fig. S.3 shows both")]
    paper = extended_in_domain_matrix(published_accuracies(metric))
    return Pair(_correlations(paper, IN_DOMAIN), _correlations(matrix, settings.in_domain), f"spearman rho of {metric}",
                f"ImageNet, every protocol variant, {PAPER_MODEL_COUNT} models", f"{settings.in_domain}, every variant",
                _heatmaps("method", "eval_dataset"), Findings(findings))


def id_vs_ood_panel(settings: StudySettings, frame: pd.DataFrame, metric: str, group: str = "") -> Pair:
    """Fig. 3 (S.2: top-5; S.4: one group): ID-vs-OOD rank correlations per shift group; do the ID
    probing protocols predict OOD accuracy better than ID fine-tuning? (S.4's paper cells, iNaturalist,
    are not printed: its paper panel is blank.)"""
    groups = shift_groups(settings)
    groups = {d: g for d, g in groups.items() if g == group} or groups
    long = id_vs_ood(frame, settings.in_domain, groups, metric)
    scores = id_ood_scores(frame, settings.in_domain, groups, metric)
    id_columns = list(scores["ID"][""].columns)

    def statistic(rows: np.ndarray) -> float:
        return _probing_minus_finetuning(rows, id_columns)

    rows = scores.to_numpy()
    findings = [Finding("mean ρ(ID kNN/LP, OOD) − mean ρ(ID FT, OOD)", statistic(rows), bootstrap_interval(rows, statistic),
                        "the ID probing protocols predict the ranking on OOD data better than ID fine-tuning", ">", 0.0,
                        "categorical kNN 0.96, LP 0.95 vs FT 0.62")]
    if group:
        paper = _group_correlations(figure_s4_cells(), IN_DOMAIN, "target", "ood_protocol", "id_protocol")
        paper_title = "iNaturalist targets (Fig. S.4), not printed"
    else:
        paper = _group_correlations(group_correlations(published_accuracies(metric)), IN_DOMAIN, "group",
                                    "ood_protocol", "id_protocol")
        paper_title = f"Table S.6 groups, printed datasets, up to {PAPER_MODEL_COUNT} models"
    ours_title = "groups " + ", ".join(dict.fromkeys(groups.values()))
    return Pair(paper, _group_correlations(long, settings.in_domain, "group", "ood protocol", "id protocol"),
                f"spearman rho of {metric}", paper_title, ours_title, _heatmaps("method", "eval_dataset"), Findings(findings))


def normalisation_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Pair:
    """Fig. 4 / Sec. 4.3: accuracy gained by each normalised protocol over its plain version, in domain."""
    gains = normalisation_gains(frame[frame["metric"] == metric])
    gains = gains[gains["dataset"] == settings.in_domain]
    per_model = gains.pivot(index="model", columns="protocol", values="gain")
    findings = [Finding(f"mean gain of normalisation for {p} (points)", per_model[p].mean(),
                        mean_interval(per_model[p], "models"),
                        "normalisation (BN, z-score) raises accuracy, for fine-tuning too when steps are few", ">", 0.0,
                        "significant for unscaled features, none for DINO") for p in dict.fromkeys(gains["protocol"])]
    paper = normalisation_gains(published_accuracies(metric))
    rows = [_accuracies(g.drop(columns="value", errors="ignore").rename(columns={"gain": "value"}))
            for g in (paper[paper["dataset"] == IN_DOMAIN], gains)]
    return Pair(*rows, f"{metric} gain (points)", f"ImageNet, normalised minus plain, {PAPER_MODEL_COUNT} models",
                f"{settings.in_domain}, normalised minus plain", _heatmaps("model", "method", fmt=".1f"), Findings(findings))


def lp_vs_ft_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Pair:
    """Fig. 5: in-domain LP^BN vs FT per model with the least-squares line; is the FT − LP gap a
    matter of the backbone (ViT above the line)?"""
    table, _ = lp_vs_ft(frame, settings.in_domain, metric)
    gap = table["FT"] - table["LP"]
    vit = table["backbone"].str.contains("vit", case=False)
    if vit.sum() >= 2 and (~vit).sum() >= 2:
        estimate, interval = gap[vit].mean() - gap[~vit].mean(), difference_interval(gap[vit], gap[~vit])
    else:
        estimate, interval = float("nan"), undefined_interval(
            f"needs two models of each kind, the zoo has {vit.sum()} ViT and {(~vit).sum()} other")
    findings = [Finding("mean FT − LP gap, ViT minus other backbones (points)", estimate, interval,
                        "ViT backbones have a larger fine-tuning gain over linear probing than other backbones",
                        ">", 0.0, "every ViT above the regression line")]
    paper, _ = paper_lp_vs_ft(published_accuracies(metric), "LP_BN")
    rows = [t.melt(id_vars=["model"], value_vars=["LP", "FT"], var_name="method") for t in (paper, table)]
    draw = _scatter(["source", "model"], lambda f: f["method"] == "LP", "backbone", f"LP^BN in domain, {metric} %",
                    f"FT in domain, {metric} %", fit_level=0.90, annotate="model")
    return Pair(rows[0].assign(eval_dataset=IN_DOMAIN), rows[1].assign(eval_dataset=settings.in_domain), metric,
                f"ImageNet LP vs FT, {PAPER_MODEL_COUNT} models", f"{settings.in_domain} LP vs FT", draw, Findings(findings))


def id_ood_scatter_panel(settings: StudySettings, frame: pd.DataFrame, metric: str, group: str = "") -> Pair:
    """Fig. 6 (S.1: style, S.5: granularity): ID vs OOD accuracy per dataset and protocol; do kNN and
    LP follow ID accuracy more closely than FT?"""
    groups = shift_groups(settings)
    wanted = [d for d, g in groups.items() if g == group] or list(groups)
    points = id_vs_ood_points(frame, settings.in_domain, wanted, metric)
    wide = points.pivot_table(index="model", columns=["dataset", "protocol"], values=["id", "ood"], sort=False)
    pairs = [(list(wide.columns).index(("id", d, p)), list(wide.columns).index(("ood", d, p)), p) for d in wanted for p in OOD_COLUMNS]

    def statistic(rows: np.ndarray) -> float:
        rho = rank_correlations(rows)
        probing = [rho[i, j] for i, j, p in pairs if p != "FT"]
        finetuning = [rho[i, j] for i, j, p in pairs if p == "FT"]
        return float(defined_mean(probing) - defined_mean(finetuning))

    rows = wide.to_numpy()
    findings = [Finding("mean ρ(ID, OOD) of kNN and LP − that of FT, over datasets", statistic(rows),
                        bootstrap_interval(rows, statistic),
                        "kNN and linear probing relate ID and OOD accuracy more closely than fine-tuning", ">", 0.0,
                        "on Pascal VOC, Caltech-256 and CUB")]
    paper_points, paper_title = PAPER_SCATTER_POINTS[group](metric)
    draw = _scatter(["source", "model", "method"], _in_domain(settings.in_domain), "method",
                    f"in-domain {metric} %", f"OOD {metric} %")
    return Pair(_id_ood_points(paper_points, IN_DOMAIN), _id_ood_points(points, settings.in_domain), metric,
                paper_title, f"{settings.in_domain} vs {', '.join(wanted)}", draw, Findings(findings))


def _figure06_points(metric: str) -> tuple[pd.DataFrame, str]:
    return scatter_points((metric,), FIGURE06_DATASETS), f"ImageNet vs {len(FIGURE06_DATASETS)} OOD sets, 26 models"


def _figure_s1_points(metric: str) -> tuple[pd.DataFrame, str]:
    return scatter_points((metric,), IMAGENET_D), "ImageNet vs ImageNet-D domains, 10 printed models"


def _figure_s5_points(metric: str) -> tuple[pd.DataFrame, str]:
    points = seed_points(metric).rename(columns={"ood_mean": "ood", "ood_std": "spread"})
    return points.assign(dataset="iNat mini " + points["target"]), "ImageNet vs iNat Family, Table S.7 (top-1), 2 models"


# The paper's points for each shift group the scatter panel takes ("": every group, Fig. 6).
PAPER_SCATTER_POINTS: dict[str, Callable[[str], tuple[pd.DataFrame, str]]] = {
    "": _figure06_points, "style": _figure_s1_points, "granularity": _figure_s5_points,
}


def accuracy_table_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Pair:
    """Tables S.2 / S.3: every model × dataset × protocol accuracy (drawn: the in-domain block); does
    normalisation raise probing accuracy (Sec. 4.3 cites Tab. S.2)?"""
    data = frame[frame["metric"] == metric]
    per_model = data.pivot_table(index="model", columns="protocol", values="value")  # mean over datasets
    findings = [Finding(f"mean gain of {normalised} over {plain} per model, over datasets (points)",
                        (per_model[normalised] - per_model[plain]).mean(),
                        mean_interval(per_model[normalised] - per_model[plain], "models"),
                        "embedding normalisation can significantly increase probing accuracy", ">", 0.0,
                        "strong for unscaled embeddings (SimSiam, MaskFeat), none for DINO")
                for plain, normalised in (("kNN", "kNN_N"), ("LP", "LP_BN"))]
    return Pair(_accuracies(published_accuracies(metric)), _accuracies(data), metric,
                f"ImageNet block, {PAPER_MODEL_COUNT} models (all datasets in the CSV)",
                f"{settings.in_domain} block (all datasets in the CSV)",
                _heatmaps("model", "method", fmt=".0f", center=None, rows=_in_domain(settings.in_domain)),
                Findings(findings))


# Which analysis draws each artefact, and with which fixed options (a notebook's `metric` is the default).
PANELS: dict[str, tuple[Callable[..., Pair], dict[str, Any]]] = {
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
    """The artefact's analysis on our study beside the paper's: `(data, figure, findings)`, where data
    is the combined tidy frame (`lib.results`, `source` paper/ours), the figure draws both with one
    function, and each finding on our run is judged by its interval."""
    if artefact not in PANELS:
        raise KeyError(f"no our-run panel for {artefact!r}; panels exist for {sorted(PANELS)}")
    build, options = PANELS[artefact]
    pair = build(settings, frame, **({"metric": metric} | options))
    tier = frame["tier"].iloc[0]
    data = paper_and_ours(pair.paper, pair.ours, paper=PAPER, artefact=artefact, tier=tier, metric=pair.metric)
    titles = (f"paper: {pair.paper_title}", f"ours ({tier}, {frame['model'].nunique()} models): {pair.ours_title}")
    return data, pair.draw(data, titles=titles), pair.findings
