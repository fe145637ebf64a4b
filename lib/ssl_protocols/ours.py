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
from ..findings import (Finding, Findings, Interval, bootstrap_interval, defined_mean, mean_interval,
                        undefined_interval)
from ..metrics.correlation import mean_correlation, spearman_confidence_interval, spearman_matrix
from ..params import tier_of
from ..results import paper_and_ours
from ..store import RunContext, precompute_study
from .accuracies import PAPER, published_accuracies, score_table
from .batch_norm import (FIGURE04_MODELS, figure04_frame, normalisation_gains, our_figure04_frame,
                         paper_and_ours_figure04, study_fine_tuning_steps)
from .figure02 import EXTENDED_ID_COLUMNS, EXTENDED_OOD_COLUMNS, PAPER_READING
from .inaturalist import TARGETS, figure_s4_cells, seed_points, target_panels
from .scatter import (FIGURE06_DATASETS, LinearFit, family, linear_fit, paper_and_ours_scatter,
                      panel_statistics, paper_and_ours_scatter_grid, scatter_points, xy_points)
from .scatter import lp_vs_ft as paper_lp_vs_ft
from .rho_panels import RhoPanel, RhoRow, draw_rho_rows
from .shift_groups import (COMPLETE_OOD_DATASETS, IMAGENET_D, IN_DOMAIN, MINI_GROUP_COUNTERPARTS, NORMALISED_OOD,
                           PAPER_GROUP_NOTE, PAPER_MODEL_COUNT, group_correlations, group_labels, group_row,
                           in_group_order)
from .shift_groups import id_vs_ood as mean_ood_correlations
from .study import FEWSHOT_FRACTIONS, Study, StudySettings
from .tables import accuracy_blocks, paper_and_ours_accuracy_blocks

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


Groups = dict[str, list[str]]  # shift group -> its out-of-domain datasets (a dataset may be in two)


def shift_groups(settings: StudySettings, group: str = "") -> Groups:
    """Shift group → its out-of-domain datasets of the study: the mini domains' own groups (style, granularity,
    categorical), or for a registry study Table S.6's (Caltech-256, CUB and iNat Family are each in two groups),
    by the study's labels; the groups a study lacks left out. With `group` (one of ours), that group alone: at
    full, the datasets of the figure drawn on it (`FIGURE_DATASETS`: ImageNet-D, the iNaturalist targets); every
    group where the study has none of them."""
    from .shift_groups import FIGURE_DATASETS, S6_TO_STUDY_LABEL, shift_groups as table_s6_groups

    labels = settings.dataset_labels()[1:]
    if settings.source == "embedded":
        groups: Groups = {}
        for name in labels:
            groups.setdefault(describe(name).group, []).append(name)
    else:
        groups = {g.name: [S6_TO_STUDY_LABEL[d] for d in g.datasets if S6_TO_STUDY_LABEL[d] in labels]
                  for g in table_s6_groups().values()}
    groups = {g: datasets for g, datasets in groups.items() if datasets}
    if not group:
        return groups
    chosen = groups.get(group, []) if settings.source == "embedded" else [
        d for d in FIGURE_DATASETS.get(group, ()) if d in labels]
    return {group: chosen} if chosen else groups


def all_datasets(groups: Groups) -> list[str]:
    """Every dataset of `groups`, once, in order."""
    return list(dict.fromkeys(d for datasets in groups.values() for d in datasets))


def in_domain_matrix(frame: pd.DataFrame, in_domain: str, metric: str = "top1") -> pd.DataFrame:
    """Fig. 2 (left) on our zoo: Spearman matrix of the five in-domain protocols (the paper's reading)."""
    return spearman_matrix(score_table(frame[frame["metric"] == metric], in_domain, PAPER_READING.column_map))


def protocol_means(matrix: pd.DataFrame) -> pd.DataFrame:
    """Each protocol's average correlation, with (the paper's reading) and without the diagonal."""
    return pd.DataFrame({"mean with diagonal": mean_correlation(matrix, True),
                         "mean without diagonal": mean_correlation(matrix, False)})


def id_ood_scores(frame: pd.DataFrame, in_domain: str, groups: Groups, metric: str = "top1") -> pd.DataFrame:
    """Per model: the in-domain protocols' scores (columns `("ID", "", protocol)`) and each OOD
    protocol's mean accuracy over a shift group's datasets (columns `("OOD", group, protocol)`)."""
    data = frame[frame["metric"] == metric]
    parts = {("ID", ""): score_table(data, in_domain, PAPER_READING.column_map)}
    for group, datasets in groups.items():
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


def id_vs_ood(frame: pd.DataFrame, in_domain: str, groups: Groups, metric: str = "top1") -> pd.DataFrame:
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
            rows.append({"group": group, "datasets": " ".join(groups[group]),
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


def id_vs_ood_points(frame: pd.DataFrame, in_domain: str, datasets: list[str], metrics: tuple[str, ...]) -> pd.DataFrame:
    """Fig. 6 / S.1 on our zoo: per metric, OOD dataset and protocol, each model's ID and OOD accuracy."""
    rows = []
    for metric in metrics:
        data = frame[frame["metric"] == metric]
        for dataset in datasets:
            for protocol, column in OOD_COLUMNS.items():
                ids = score_table(data, in_domain, {protocol: column})[protocol]
                oods = score_table(data, dataset, {protocol: column})[protocol]
                rows += [{"metric": metric, "dataset": dataset, "protocol": protocol, "model": m, "id": ids[m],
                          "ood": oods[m]} for m in ids.index]
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
    metric: str | None  # None: each row's own metric (a figure of top-1 and top-5)
    paper_title: str
    ours_title: str
    draw: Callable[..., Figure]
    findings: Findings


def _correlations(matrix: pd.DataFrame, dataset: str, prefix: str = "ID ") -> pd.DataFrame:
    """A protocol × protocol correlation matrix as schema rows: `method` the row's protocol,
    `eval_dataset` "<prefix><column's protocol>", `train_dataset` the in-domain dataset."""
    long = matrix.rename_axis(index="method", columns="versus").stack().rename("value").reset_index()
    return long.assign(eval_dataset=prefix + long["versus"], train_dataset=dataset)


def _id_and_ood_correlations(accuracies: pd.DataFrame, in_domain: str, ood_datasets: Collection[str],
                             id_columns: Mapping[str, str], ood_columns: Mapping[str, str]) -> pd.DataFrame:
    """An ID × ID Spearman matrix ("ID <protocol>" rows) and the ID protocols against each OOD protocol
    averaged over `ood_datasets` ("OOD <protocol>" rows; mean accuracy, then rank), as schema rows."""
    ids = spearman_matrix(score_table(accuracies, in_domain, dict(id_columns)))
    oods = mean_ood_correlations(accuracies, list(ood_datasets), dict(id_columns), dict(ood_columns), in_domain=in_domain)
    oods = oods.pivot(index="id_protocol", columns="ood_protocol", values="rho").loc[list(id_columns), list(ood_columns)]
    return pd.concat([_correlations(ids, in_domain), _correlations(oods, in_domain, "OOD ")], ignore_index=True)


def _cells(frame: pd.DataFrame) -> pd.DataFrame:
    """ID-vs-OOD schema rows (`_group_correlations`) back as cells `group, ood_protocol, id_protocol, rho`
    (and `target`, the group again, as Fig. S.4's panels name it)."""
    parts = frame["eval_dataset"].str.split(": OOD ", n=1, expand=True)
    return pd.DataFrame({"group": parts[0], "target": parts[0], "ood_protocol": parts[1], "id_protocol": frame["method"],
                         "rho": frame["value"]})


def _rho_rows(rows: Mapping[str, Callable[[pd.DataFrame, str], RhoRow]], note: str = "") -> Callable[..., Figure]:
    """Draws each source's rows of the tidy frame as the ρ panel row `rows[source]` makes of them
    (one ρ scale, `draw_rho_rows`), `note` under the figure."""
    def draw(frame: pd.DataFrame, titles: tuple[str, str]) -> Figure:
        return draw_rho_rows([rows[s](frame[frame["source"] == s], t) for s, t in zip(("paper", "ours"), titles)],
                             note=note)
    return draw


def _protocol_row(headers: Mapping[str, str]) -> Callable[[pd.DataFrame, str], RhoRow]:
    """A row of protocol matrices, one panel per `eval_dataset` prefix ("ID ", "OOD ") headed `headers[prefix]`."""
    def row(frame: pd.DataFrame, title: str) -> RhoRow:
        from ..results import matrix

        return RhoRow(title, [RhoPanel(header, matrix(frame[frame["eval_dataset"].str.startswith(prefix)], "method",
                                                      "eval_dataset")) for prefix, header in headers.items()])
    return row


def _protocol_panels(headers: Mapping[str, str], note: str = "") -> Callable[..., Figure]:
    """Figs. 2 and S.3: each source's ID-vs-ID and ID-vs-OOD matrices, one panel per `headers` prefix."""
    row = _protocol_row(headers)
    return _rho_rows({"paper": row, "ours": row}, note)


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
    """Points `metric, model, protocol, dataset, id, ood` (and `spread`) as schema rows: one row per
    metric, model and protocol on the in-domain dataset, one per point on its OOD dataset."""
    points = points.drop(columns=["method"], errors="ignore").rename(columns={"protocol": "method"})
    ids = points.drop_duplicates(["metric", "model", "method"])[["metric", "model", "method", "id"]].assign(eval_dataset=in_domain)
    oods = points.drop(columns="id").rename(columns={"dataset": "eval_dataset", "ood": "value"})
    return pd.concat([ids.rename(columns={"id": "value"}), oods], ignore_index=True)


def _model_styles(paper: pd.DataFrame, ours: pd.DataFrame) -> pd.DataFrame:
    """`source, model, family, backbone` of the paper's models and ours (from frames with `model,
    method, backbone`): the family (Fig. 5's colour) from the pre-training method or our objective."""
    parts = [f.drop_duplicates("model")[["model", "method", "backbone"]].assign(source=s)
             for s, f in (("paper", paper), ("ours", ours))]
    styles = pd.concat(parts, ignore_index=True)
    return styles.assign(family=styles["method"].map(family))[["source", "model", "family", "backbone"]]


def _scatter(on: list[str], is_x: Callable[[pd.DataFrame], pd.Series], styles: pd.DataFrame, xlabel: str, ylabel: str,
             **options: Any) -> Callable[..., Figure]:
    """`paper_and_ours_scatter` of the points `xy_points` makes from the tidy frame, each model
    coloured by family and marked by backbone (`styles`, from `_model_styles`)."""
    def draw(frame: pd.DataFrame, titles: tuple[str, str]) -> Figure:
        points = xy_points(frame, is_x(frame), on).merge(styles, on=["source", "model"])
        return paper_and_ours_scatter(points, xlabel=xlabel, ylabel=ylabel, titles=titles, **options)
    return draw


def _scatter_grid(in_domain: str, rows: dict[str, list[str]], styles: pd.DataFrame,
                  id_labels: dict[str, str]) -> Callable[..., Figure]:
    """`paper_and_ours_scatter_grid` of the ID (in-domain rows) vs OOD points of the tidy frame."""
    def draw(frame: pd.DataFrame, titles: tuple[str, str]) -> Figure:
        is_id = frame["eval_dataset"].isin([IN_DOMAIN, in_domain])
        points = xy_points(frame, is_id, ["source", "model", "method", "metric"]).merge(styles, on=["source", "model"])
        points = points.rename(columns={"x": "id", "y": "ood", "eval_dataset": "dataset", "method": "protocol"})
        return paper_and_ours_scatter_grid(points, rows, id_labels, titles)
    return draw


def _probing_minus_finetuning(rows: np.ndarray, id_columns: list[str]) -> float:
    """Mean ρ of the ID probing protocols (kNN, LP) with the OOD columns minus that of ID FT."""
    rho = rank_correlations(rows)[:len(id_columns), len(id_columns):]
    probing = [id_columns.index(p) for p in ("kNN", "LP")]
    return float(defined_mean(rho[probing]) - defined_mean(rho[id_columns.index("FT")]))


def in_domain_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Pair:
    """Fig. 2: the in-domain protocols' rank correlations (left) and against the OOD protocols (right,
    mean over the OOD sets); kNN^N vs LP^BN, and FT the weakest."""
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
                ">", 0.9, "r = 0.99", "knn-lp-normalised"),
        Finding("FT's mean correlation − lowest mean of the other ID protocols",
                ft_weakest(scores.to_numpy()), bootstrap_interval(scores.to_numpy(), ft_weakest),
                "fine-tuning has the weakest average correlation", "<", 0.0, "FT 0.79; LP 0.90, FT-10% 0.91",
                "id-protocols-correlate"),
    ]
    paper, ours = _id_and_ood_pair(settings, frame, metric, PAPER_READING.column_map, NORMALISED_OOD)
    return Pair(paper, ours, f"spearman rho of {metric}", f"ImageNet, Table S.2, {PAPER_MODEL_COUNT} models",
                f"{settings.in_domain}", _protocol_panels(ID_AND_OOD_HEADERS, ID_AND_OOD_NOTE), Findings(findings))


def normalised_correlation_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Pair:
    """Fig. S.3: every in-domain protocol with and without normalisation, against each other and
    against the OOD protocols (mean over the OOD sets); kNN–LP with and without it."""
    scores = score_table(frame[frame["metric"] == metric], settings.in_domain, EXTENDED_ID_COLUMNS)
    at = {c: i for i, c in enumerate(scores.columns)}

    def gain(rows: np.ndarray) -> float:
        rho = rank_correlations(rows)
        return float(rho[at["kNN^N"], at["LP^BN"]] - rho[at["kNN"], at["LP"]])

    findings = [Finding("ρ(kNN^N, LP^BN) − ρ(kNN, LP)", gain(scores.to_numpy()), bootstrap_interval(scores.to_numpy(), gain),
                        "kNN and linear probing agree more when the features are normalised", ">", 0.0,
                        "0.99 with normalisation (Fig. 2); Fig. S.3 shows both")]
    paper, ours = _id_and_ood_pair(settings, frame, metric, EXTENDED_ID_COLUMNS, EXTENDED_OOD_COLUMNS)
    return Pair(paper, ours, f"spearman rho of {metric}", f"ImageNet, every protocol variant, {PAPER_MODEL_COUNT} models",
                f"{settings.in_domain}, every variant", _protocol_panels(ID_AND_OOD_HEADERS, ID_AND_OOD_NOTE),
                Findings(findings))


ID_AND_OOD_HEADERS = {"ID ": "ID vs ID", "OOD ": "ID vs OOD (mean accuracy over the OOD sets)"}
ID_AND_OOD_NOTE = ("OOD sets: paper, the 4 printed for all 26 models (PascalVOC, Cifar100, Caltech-256, CUB; the paper "
                   "averages 11, with iNaturalist and ImageNet-D); ours, every shifted domain of the study")


def _id_and_ood_pair(settings: StudySettings, frame: pd.DataFrame, metric: str, id_columns: Mapping[str, str],
                     ood_columns: Mapping[str, str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figs. 2 / S.3, paper and ours: the ID × ID matrix and ID vs OOD over the OOD sets as schema rows
    (the paper's from the OOD sets printed for all its models)."""
    paper = _id_and_ood_correlations(published_accuracies(metric), IN_DOMAIN, COMPLETE_OOD_DATASETS, id_columns,
                                     ood_columns)
    ours = _id_and_ood_correlations(frame[frame["metric"] == metric], settings.in_domain,
                                    settings.dataset_labels()[1:], id_columns, ood_columns)
    return paper, ours


GROUP_CLAIMS = {"granularity": "probing-robust-to-granularity"}  # the ledger claim a group's Fig. 3 finding bears on
SCATTER_CLAIMS = {"": "probing-more-linear"}  # and the one Fig. 6's (every group) bears on


def id_vs_ood_panel(settings: StudySettings, frame: pd.DataFrame, metric: str, group: str = "") -> Pair:
    """Fig. 3 (S.2: top-5; S.4: one group): ID-vs-OOD rank correlations per shift group; do the ID
    probing protocols predict OOD accuracy better than ID fine-tuning? (S.4's paper cells, iNaturalist,
    are not printed: its paper panel is blank.)"""
    groups = shift_groups(settings, group)
    long = id_vs_ood(frame, settings.in_domain, groups, metric)
    scores = id_ood_scores(frame, settings.in_domain, groups, metric)
    id_columns = list(scores["ID"][""].columns)

    def statistic(rows: np.ndarray) -> float:
        return _probing_minus_finetuning(rows, id_columns)

    rows = scores.to_numpy()
    findings = [Finding("mean ρ(ID kNN/LP, OOD) − mean ρ(ID FT, OOD)", statistic(rows), bootstrap_interval(rows, statistic),
                        "the ID probing protocols predict the ranking on OOD data better than ID fine-tuning", ">", 0.0,
                        "categorical kNN 0.96, LP 0.95 vs FT 0.62", GROUP_CLAIMS.get(group, ""))]
    ours = _group_correlations(long, settings.in_domain, "group", "ood protocol", "id protocol")
    if group:
        paper = _group_correlations(figure_s4_cells(), IN_DOMAIN, "target", "ood_protocol", "id_protocol")
        target = f"{group}: {_domains(settings, groups)}"
        return Pair(paper, ours, f"spearman rho of {metric}", "iNat mini targets (Fig. S.4), not printed (n/p)",
                    "one target (the paper: three)", _target_panels(target), Findings(findings))
    cells = group_correlations(published_accuracies(metric))
    labels = {"paper": group_labels(cells), "ours": _our_group_labels(settings, long, groups, metric)}
    draw = _rho_rows({s: lambda f, t, s=s: group_row(_cells(f), t, labels[s], "n/a") for s in labels},
                     f"Groups: {_group_mapping(settings, groups)}.\n{PAPER_GROUP_NOTE}")
    return Pair(_group_correlations(cells, IN_DOMAIN, "group", "ood_protocol", "id_protocol"), ours,
                f"spearman rho of {metric}", f"Table S.6 groups, printed datasets, up to {PAPER_MODEL_COUNT} models",
                "our shift groups under the paper's", draw, Findings(findings))


def _domains(settings: StudySettings, groups: Groups) -> str:
    """The OOD datasets of `groups`, each with its class count where the study's domains are embedded."""
    return ", ".join(f"{d} ({describe(d).num_classes} classes)" if settings.source == "embedded" else d
                     for d in all_datasets(groups))


def _group_mapping(settings: StudySettings, groups: Groups) -> str:
    """Which of the paper's groups each of our groups stands in for, with its datasets."""
    return "; ".join(f"ours {g} ({_domains(settings, {g: groups[g]})}) under {MINI_GROUP_COUNTERPARTS.get(g, g)}"
                     for g in in_group_order(groups))


def _our_group_labels(settings: StudySettings, long: pd.DataFrame, groups: Groups, metric: str) -> dict[str, str]:
    """Each of our groups' column label: its name, the paper's group it stands under, its n, and why
    its ρ is undefined where it is (top-5 on a domain of at most five classes is always 100 %)."""
    labels = {}
    for group, part in long.groupby("group", sort=False):
        label = f"{group}\n(≈ {MINI_GROUP_COUNTERPARTS[group]})" if group in MINI_GROUP_COUNTERPARTS else group
        label += f"\nn={part['n models'].min()}"
        if part["rho"].isna().all():
            embedded = settings.source == "embedded"
            classes = min((describe(d).num_classes for d in groups[group] if embedded), default=0)
            label += f"\ntop-5 undefined\n({classes} classes)" if metric == "top5" and 0 < classes <= 5 else "\nρ undefined"
        labels[group] = label
    return labels


def _target_panels(target: str) -> Callable[..., Figure]:
    """Fig. S.4: the paper's three iNaturalist targets (n/p) above our one target, `target`."""
    def paper(frame: pd.DataFrame, title: str) -> RhoRow:
        cells = _cells(frame)
        return RhoRow(title, target_panels(cells.assign(target="iNat mini, " + cells["target"])))

    return _rho_rows({"paper": paper, "ours": lambda f, t: RhoRow(t, target_panels(_cells(f).assign(target=target), "n/a"))},
                     f"The paper's three targets re-label iNaturalist (Family, Genus, Species); ours is one, {target}.")


BN_SUFFIX = " + BN"  # a fine-tuning protocol with the batch-norm head, in Fig. 4's schema rows


def _figure04_models(frame: pd.DataFrame) -> list[str]:
    """Our two models in the roles of Fig. 4's: a discriminative ResNet (DINO RN-50's role; SimCLR,
    our objective nearest DINO, first, then the longest pre-training) and a generative (masked) ViT
    (MaskFeat ViT-B/16's; the longest pre-training); the paper's own two when the study has them."""
    meta = frame.drop_duplicates("model").set_index("model")[["method", "backbone"]]
    named = meta["method"] + " (" + meta["backbone"] + ")"  # a registry model's name in the paper's tables
    if set(FIGURE04_MODELS) <= set(named):
        return [named.index[named == name][0] for name in FIGURE04_MODELS]
    epochs = pd.Series(meta.index, index=meta.index).str.extract(r"-(\d+)ep$", expand=False).astype(float).fillna(0)
    meta = meta.assign(family=meta["method"].map(family), vit=meta["backbone"].str.contains("vit", case=False),
                       epochs=epochs, contrastive=meta["method"] == "simclr")
    roles = [meta[(meta["family"] == "discriminative") & ~meta["vit"]].sort_values(["contrastive", "epochs"], ascending=False,
                                                                                  kind="stable"),
             meta[(meta["family"] == "generative") & meta["vit"]].sort_values("epochs", ascending=False, kind="stable")]
    return [str(r.index[0]) for r in roles if len(r)]


def _fine_tuning_steps(settings: StudySettings) -> dict[str, int]:
    """Optimizer steps of our in-domain fine-tuning protocols, for a digits in-domain set (its seeded
    70/30 split); empty elsewhere (a registry dataset's size is not known without opening it)."""
    if settings.source != "embedded" or not settings.in_domain.startswith("digits"):
        return {}
    from ..data.embedded import digits_arrays
    from ..data.subsets import split

    labels = digits_arrays()[1]
    return study_fine_tuning_steps(labels[split(labels, settings.seed)[0]],
                                   {"finetune": settings.finetune, "fewshot_finetune": settings.fewshot_finetune},
                                   {p.replace("FT", "FT-"): f for p, f in FEWSHOT_FRACTIONS.items()})


def _bar_rows(bars: pd.DataFrame) -> pd.DataFrame:
    """`figure04_frame` rows as schema rows: `method` the protocol (with `BN_SUFFIX` for the batch-norm head)."""
    return pd.DataFrame({"model": bars["model"], "method": bars["protocol"] + np.where(bars["batch_norm"], BN_SUFFIX, ""),
                         "train_dataset": bars["dataset"], "eval_dataset": bars["dataset"], "value": bars["accuracy"]})


def _figure04_bars(steps: Mapping[tuple[str, str, str], float], ylabel: str) -> Callable[..., Figure]:
    """`paper_and_ours_figure04` of the tidy frame's bars, with each (source, dataset, protocol)'s `steps`."""
    def draw(frame: pd.DataFrame, titles: tuple[str, str]) -> Figure:
        protocol = frame["method"].str.removesuffix(BN_SUFFIX)
        bars = pd.DataFrame({"source": frame["source"], "model": frame["model"], "dataset": frame["eval_dataset"],
                             "protocol": protocol, "batch_norm": frame["method"].str.endswith(BN_SUFFIX),
                             "accuracy": frame["value"]})
        bars["steps"] = [steps.get(k, np.nan) for k in zip(bars["source"], bars["dataset"], bars["protocol"])]
        return paper_and_ours_figure04(bars, titles, ylabel)
    return draw


BN_CLAIM = "bn-helps-short-fine-tuning"  # the ledger claim Fig. 4's findings bear on


def normalisation_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Pair:
    """Fig. 4: fine-tuning accuracy without and with a batch-norm head for two models, per dataset and
    protocol, ordered by optimizer steps (ours: the head is run for FT-10 % and FT-1 % in domain only);
    does the batch-norm head help fine-tuning more when the steps are few?"""
    data = frame[frame["metric"] == metric]
    gains = normalisation_gains(data)
    few_shot = gains[(gains["dataset"] == settings.in_domain) & gains["protocol"].isin(["FT-10%", "FT-1%"])]
    per_model = few_shot.pivot(index="model", columns="protocol", values="gain")
    claim = "fine-tuning with few optimizer steps gains accuracy from a batch-norm head"
    findings = [Finding(f"mean gain of the batch-norm head in {p}, over our models (points)", per_model[p].mean(),
                        mean_interval(per_model[p], "models"), claim, ">", 0.0, printed, BN_CLAIM)
                for p, printed in (("FT-1%", "+11.3 on average, 26 of 26 models gain > 2 (Table S.2)"),
                                   ("FT-10%", "+1.9 on average, 8 of 26 models gain > 2 (Table S.2)"))]
    fewer = per_model["FT-1%"] - per_model["FT-10%"]
    findings.append(Finding("gain in FT-1 % − gain in FT-10 %, per model (points)", fewer.mean(),
                            mean_interval(fewer, "models"), "the fewer the optimizer steps, the larger the gain",
                            ">", 0.0, "+11.3 at 1,530 steps vs +1.9 at 15,030 (ImageNet, 26 models)", BN_CLAIM))
    models = _figure04_models(data)
    steps = _fine_tuning_steps(settings)
    paper = figure04_frame(metric)
    ours = our_figure04_frame(data, models, settings.in_domain, steps)
    bar_steps = {("paper", d, p): s for d, p, s in zip(paper["dataset"], paper["protocol"], paper["steps"])}
    bar_steps |= {("ours", settings.in_domain, p): s for p, s in steps.items()}
    return Pair(_bar_rows(paper), _bar_rows(ours), metric, f"{' and '.join(FIGURE04_MODELS)}, Table S.2",
                f"{' and '.join(models)} (in their roles)", _figure04_bars(bar_steps, f"{metric} accuracy (%)"),
                Findings(findings))


def vit_residual_difference(rows: np.ndarray) -> float:
    """Fig. 5's finding on rows `(LP, FT, is ViT)`: the least-squares line FT ~ LP fitted over every row, then
    the mean residual (FT above the line) of the ViT rows minus that of the others; NaN without two rows of each
    kind or without two distinct LP values."""
    lp, ft, vit = rows[:, 0], rows[:, 1], rows[:, 2].astype(bool)
    if vit.sum() < 2 or (~vit).sum() < 2 or np.ptp(lp) == 0:
        return float("nan")
    slope, intercept = np.polyfit(lp, ft, 1)
    residual = ft - (intercept + slope * lp)
    return float(residual[vit].mean() - residual[~vit].mean())


def _fit_rows(table: pd.DataFrame) -> np.ndarray:
    """`vit_residual_difference`'s rows `(LP, FT, is ViT)` of an LP-vs-FT table (ours or the paper's)."""
    return np.column_stack([table["LP"], table["FT"], table["backbone"].str.contains("vit", case=False)]).astype(float)


def lp_vs_ft_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Pair:
    """Fig. 5: in-domain LP^BN vs FT per model with the least-squares line; do the ViTs lie above it (their mean
    residual above the other backbones', by a seeded bootstrap over models, the line refitted in each resample)?"""
    table, _ = lp_vs_ft(frame, settings.in_domain, metric)
    rows = _fit_rows(table)
    vit = rows[:, 2].astype(bool)
    if vit.sum() >= 2 and (~vit).sum() >= 2:
        estimate, interval = vit_residual_difference(rows), bootstrap_interval(rows, vit_residual_difference)
    else:
        estimate, interval = float("nan"), undefined_interval(
            f"needs two models of each kind, the zoo has {vit.sum()} ViT and {(~vit).sum()} other")
    paper, _ = paper_lp_vs_ft(published_accuracies(metric), "LP_BN")
    printed = vit_residual_difference(_fit_rows(paper))
    findings = [Finding("mean residual from the FT ~ LP line, ViT minus other backbones (points)", estimate, interval,
                        "ViT backbones lie above the LP → FT regression line, the other backbones below it",
                        ">", 0.0, f"every ViT above the regression line; this statistic on its printed points: "
                        f"{printed:+.1f}", "vit-above-regression")]
    rows = [t.melt(id_vars=["model"], value_vars=["LP", "FT"], var_name="method") for t in (paper, table)]
    draw = _scatter(["source", "model"], lambda f: f["method"] == "LP", _model_styles(paper, table),
                    f"LP^BN in domain, {metric} %", f"FT in domain, {metric} %", fit_level=0.90)
    return Pair(rows[0].assign(eval_dataset=IN_DOMAIN), rows[1].assign(eval_dataset=settings.in_domain), metric,
                f"ImageNet LP vs FT, {PAPER_MODEL_COUNT} models", f"{settings.in_domain} LP vs FT", draw, Findings(findings))


SCATTER_METRICS = ("top1", "top5")


def domain_mapping(settings: StudySettings, group: str = "") -> pd.DataFrame:
    """Our OOD domains (of `group`, or all) with their shift group, class count and the Table S.6
    group(s) each stands in for, i.e. which of the paper's rows it is read against."""
    pairs = [(d, g) for g, datasets in shift_groups(settings, group).items() for d in datasets]
    classes = domain_classes(settings)
    return pd.DataFrame({"our domain": [d for d, _ in pairs], "shift group": [g for _, g in pairs],
                         "classes": [classes.get(d) for d, _ in pairs],
                         "stands for (Table S.6 group)": [MINI_GROUP_COUNTERPARTS.get(g, g) for _, g in pairs]})


SCATTER_SCOPES = {"": "in the text, on Pascal VOC, Caltech-256 and CUB"}  # where the paper says Fig. 6's claim holds


def _probing_minus_finetuning_panels(statistics: pd.DataFrame, metric: str) -> float:
    """Mean Pearson r of the kNN and LP panels minus that of the FT panels (`panel_statistics`) on `metric`:
    Fig. 6's finding on a set of drawn points (Pearson: the claim is about a more linear relationship; the panels
    print Spearman's r, as the figure does)."""
    panels = statistics[statistics["metric"] == metric]
    finetuning = panels["protocol"] == "FT"
    return float(panels.loc[~finetuning, "pearson"].mean() - panels.loc[finetuning, "pearson"].mean())


def id_ood_scatter_panel(settings: StudySettings, frame: pd.DataFrame, metric: str, group: str = "") -> Pair:
    """Fig. 6 (S.1: style, S.5: granularity): ID vs OOD accuracy per dataset, protocol and metric (top-1
    and top-5), each panel with its Spearman r; do kNN and LP follow ID accuracy more linearly than FT (judged
    on `metric` by Pearson's r, the linearity the claim names)?"""
    wanted = all_datasets(shift_groups(settings, group))
    points = id_vs_ood_points(frame, settings.in_domain, wanted, SCATTER_METRICS)
    judged = points[points["metric"] == metric]
    wide = judged.pivot_table(index="model", columns=["dataset", "protocol"], values=["id", "ood"], sort=False)
    pairs = [(list(wide.columns).index(("id", d, p)), list(wide.columns).index(("ood", d, p)), p) for d in wanted for p in OOD_COLUMNS]

    def statistic(rows: np.ndarray) -> float:
        with np.errstate(invalid="ignore", divide="ignore"):  # a constant column has no correlation: NaN
            r = np.corrcoef(rows, rowvar=False)
        probing = [r[i, j] for i, j, p in pairs if p != "FT"]
        finetuning = [r[i, j] for i, j, p in pairs if p == "FT"]
        return float(defined_mean(probing) - defined_mean(finetuning))

    rows = wide.to_numpy()
    paper_points, paper_title, paper_rows = PAPER_SCATTER_POINTS[group]()
    printed = _probing_minus_finetuning_panels(panel_statistics(paper_points), metric)
    paper = "; ".join(filter(None, [SCATTER_SCOPES.get(group, ""), (
        f"this statistic on its printed points ({', '.join(paper_rows)}): {printed:+.2f}" if np.isfinite(printed)
        else "not computable from its printed points (fewer than 3 models a panel)")]))
    findings = [Finding(f"mean Pearson r(ID, OOD) of kNN and LP − that of FT, over datasets ({metric})",
                        statistic(rows), bootstrap_interval(rows, statistic),
                        "kNN and linear probing relate ID and OOD accuracy more linearly than fine-tuning", ">", 0.0,
                        paper, SCATTER_CLAIMS.get(group, ""))]
    styles = _model_styles(paper_points, frame)
    draw = _scatter_grid(settings.in_domain, {"paper": paper_rows, "ours": wanted}, styles,
                         {"paper": "ImageNet (ID) %", "ours": f"{settings.in_domain} (ID) %"})
    ours_title = f"{settings.in_domain} vs {len(wanted)} OOD domain(s), rows as mapped under the figure"
    return Pair(_id_ood_points(paper_points, IN_DOMAIN), _id_ood_points(points, settings.in_domain), None,
                paper_title, ours_title, draw, Findings(findings))


def _figure06_points() -> tuple[pd.DataFrame, str, list[str]]:
    return (scatter_points(SCATTER_METRICS, FIGURE06_DATASETS), f"ImageNet vs {len(FIGURE06_DATASETS)} OOD sets, 26 models",
            list(FIGURE06_DATASETS))


def _figure_s1_points() -> tuple[pd.DataFrame, str, list[str]]:
    return scatter_points(SCATTER_METRICS, IMAGENET_D), "ImageNet vs ImageNet-D domains, 10 printed models", list(IMAGENET_D)


def _figure_s5_points() -> tuple[pd.DataFrame, str, list[str]]:
    points = seed_points("top1").rename(columns={"ood_mean": "ood", "ood_std": "spread"})
    meta = published_accuracies("top1").drop_duplicates("model")[["model", "method", "backbone"]]
    points = points.drop(columns=["method", "backbone"], errors="ignore").merge(meta, on="model", how="left")
    return (points.assign(metric="top1", dataset="iNat mini " + points["target"]),
            "ImageNet vs iNat mini, Table S.7's 2 runs (top-1 only; top-5 and 24 models not printed)",
            [f"iNat mini {t}" for t in TARGETS])


# The paper's points for each shift group the scatter panel takes ("": every group, Fig. 6): points,
# panel title, and the rows (OOD datasets) of its grid.
PAPER_SCATTER_POINTS: dict[str, Callable[[], tuple[pd.DataFrame, str, list[str]]]] = {
    "": _figure06_points, "style": _figure_s1_points, "granularity": _figure_s5_points,
}


CHANCE_MARGIN = 2.0  # points above chance within which a run counts as at chance level


def chance_level(dataset: str, metric: str, classes: Mapping[str, int]) -> float:
    """Chance accuracy (%) of `metric` (top-k) on a dataset of `classes[dataset]` classes; NaN when unknown."""
    if dataset not in classes:
        return float("nan")
    k = int(metric.removeprefix("top"))
    return 100.0 * min(k, classes[dataset]) / classes[dataset]


def _at_chance(datasets: pd.Series, metrics: pd.Series, values: pd.Series, classes: Mapping[str, int],
               margin: float = CHANCE_MARGIN) -> np.ndarray:
    """Which accuracies lie at most `margin` points above chance, where chance is below 100 %."""
    chance = np.array([chance_level(d, m, classes) for d, m in zip(datasets, metrics)])
    return (chance < 100) & (values.to_numpy() <= chance + margin)


def chance_level_runs(frame: pd.DataFrame, classes: Mapping[str, int], margin: float = CHANCE_MARGIN) -> pd.DataFrame:
    """Our runs whose accuracy is at most `margin` points above chance (where chance is below 100 %):
    a fine-tuning that diverged to (near) constant predictions, or a probe on features that carry
    nothing. Rows of `frame` with their `chance`."""
    flagged = frame[_at_chance(frame["dataset"], frame["metric"], frame["value"], classes, margin)]
    return flagged.assign(chance=[chance_level(d, m, classes) for d, m in zip(flagged["dataset"], flagged["metric"])])


def prediction_spread(settings: StudySettings, results_dir: str, runs: pd.DataFrame) -> pd.DataFrame:
    """For each run `model, dataset, protocol` of `runs`: how many classes its top-1 predictions take and
    the share of test items given the most predicted one (1.0: a collapsed, constant classifier)."""
    items = Study(settings, Path(results_dir)).run()
    keys = ["model", "dataset", "protocol"]
    items = items.merge(runs[keys].drop_duplicates(), on=keys)
    grouped = items.groupby(keys, sort=False)["pred_1"]
    return pd.DataFrame({"test items": grouped.size(), "classes predicted": grouped.nunique(),
                         "share of the most predicted class": grouped.agg(lambda p: p.value_counts(normalize=True).iloc[0])}
                        ).reset_index()


def domain_classes(settings: StudySettings) -> dict[str, int]:
    """Each dataset's class count, for the study's embedded domains (empty for a registry study)."""
    return {d: describe(d).num_classes for d in settings.dataset_labels()} if settings.source == "embedded" else {}


def _accuracy_blocks(settings: StudySettings, cbar_label: str) -> Callable[..., Figure]:
    """`paper_and_ours_accuracy_blocks`: the paper's two printed blocks, ours in one block of every
    dataset; our chance-level runs (`chance_level_runs`) marked with a dagger."""
    classes = domain_classes(settings)

    def draw(frame: pd.DataFrame, titles: tuple[str, str]) -> Figure:
        paper = list(dict.fromkeys(frame.loc[frame["source"] == "paper", "eval_dataset"]))
        ours = list(dict.fromkeys(frame.loc[frame["source"] == "ours", "eval_dataset"]))
        marked = (frame["source"] == "ours") & _at_chance(frame["eval_dataset"], frame["metric"], frame["value"], classes)
        blocks = {"paper": accuracy_blocks(paper), "ours": [(f"{settings.in_domain} and every OOD domain", ours)]}
        return paper_and_ours_accuracy_blocks(frame, blocks, titles, cbar_label, marked)
    return draw


def accuracy_table_panel(settings: StudySettings, frame: pd.DataFrame, metric: str) -> Pair:
    """Tables S.2 / S.3: every model × dataset × protocol accuracy, the paper's printed blocks above
    ours; does normalisation raise probing accuracy (Sec. 4.3 cites Tab. S.2)?"""
    data = frame[frame["metric"] == metric]
    per_model = data.pivot_table(index="model", columns="protocol", values="value")  # mean over datasets
    findings = [Finding(f"mean gain of {normalised} over {plain} per model, over datasets (points)",
                        (per_model[normalised] - per_model[plain]).mean(),
                        mean_interval(per_model[normalised] - per_model[plain], "models"),
                        "embedding normalisation can significantly increase probing accuracy", ">", 0.0,
                        "strong for unscaled embeddings (SimSiam, MaskFeat), none for DINO", "normalisation-can-help")
                for plain, normalised in (("kNN", "kNN_N"), ("LP", "LP_BN"))]
    return Pair(_accuracies(published_accuracies(metric)), _accuracies(data), metric,
                f"Table S.{2 if metric == 'top1' else 3}, {PAPER_MODEL_COUNT} models, blank = not printed",
                f"every dataset, † = within {CHANCE_MARGIN:g} points of chance, blank = not run",
                _accuracy_blocks(settings, f"{metric} accuracy (%)"), Findings(findings))


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


def _pair(artefact: str, settings: StudySettings, frame: pd.DataFrame, metric: str) -> Pair:
    if artefact not in PANELS:
        raise KeyError(f"no our-run panel for {artefact!r}; panels exist for {sorted(PANELS)}")
    build, options = PANELS[artefact]
    return build(settings, frame, **({"metric": metric} | options))


def panel_findings(artefact: str, settings: StudySettings, frame: pd.DataFrame, metric: str = "top1") -> Findings:
    """The findings of the artefact's analysis on our study, without drawing it."""
    return _pair(artefact, settings, frame, metric).findings


def our_panel(artefact: str, settings: StudySettings, frame: pd.DataFrame, metric: str = "top1") -> Panel:
    """The artefact's analysis on our study beside the paper's: `(data, figure, findings)`, where data
    is the combined tidy frame (`lib.results`, `source` paper/ours), the figure draws both with one
    function, and each finding on our run is judged by its interval."""
    pair = _pair(artefact, settings, frame, metric)
    tier = frame["tier"].iloc[0]
    data = paper_and_ours(pair.paper, pair.ours, paper=PAPER, artefact=artefact, tier=tier, metric=pair.metric)
    titles = (f"paper: {pair.paper_title}", f"ours ({tier}, {frame['model'].nunique()} models): {pair.ours_title}")
    return data, pair.draw(data, titles=titles), pair.findings
