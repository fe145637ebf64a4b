"""In-domain vs out-of-domain rank correlations, overall (Fig. 2 right, Fig. S.3 right) and per
domain-shift group (Fig. 3 top-1, Fig. S.2 top-5), from Tables S.2/S.3 and the groups of Table S.6.

Each cell is the Spearman correlation, across models, between an in-domain (ImageNet) protocol and
an out-of-domain protocol "averaged over" a set of datasets. The paper does not say how that average
is taken, so both readings are implemented:

* `mean_accuracy` (the literal reading of the captions, "OOD metrics are averaged"): average each
  model's OOD accuracy over the datasets, then correlate (models missing any dataset are dropped);
* `mean_correlation`: correlate on each dataset, then average the correlations.

Which Table S.2 column feeds each protocol (plain, or the normalised `_N` / `_BN` variant) is the
other choice; the main text says its LP and kNN results are the normalised ones.

What the text does not print limits every panel: iNaturalist (three targets, in the Coarse, Fine
and Category groups) has no columns in S.2/S.3, and the ImageNet-D block (the Style group) is cut
off after 10 of the 26 models. `ShiftGroup.missing` names what is absent.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy import stats

from .. import published
from ..metrics.correlation import spearman_confidence_interval
from .accuracies import published_accuracies
from .rho_panels import RhoPanel, RhoRow, draw_rho_rows

PAPER = "ssl_protocols"
IN_DOMAIN = "Imagenet"
GROUPS = ("Coarse", "Fine", "Category", "Style")
# Our mini domains' shift groups (`lib.data.shifts`) and the Table S.6 group(s) each stands in for.
MINI_GROUP_COUNTERPARTS = {"granularity": "Coarse, Fine", "categorical": "Category", "style": "Style"}
# The order groups are drawn in, the paper's and ours alike, and the granularity groups a white rule
# separates from the groups of shift (Coarse, Fine | Category, Style).
GROUP_ORDER = (*GROUPS, *MINI_GROUP_COUNTERPARTS)
GRANULARITY_GROUPS = ("Coarse", "Fine", "granularity")
AGGREGATES = ("mean_accuracy", "mean_correlation")
ID_PROTOCOLS = ("kNN", "LP", "FT", "FT-10%", "FT-1%")
OOD_PROTOCOLS = ("kNN", "LP", "FT")

# Table S.6 (and S.4) spell datasets differently from the S.2/S.3 headers; None: not printed in S.2/S.3.
S6_TO_S2_DATASET: dict[str, str | None] = {
    "Pascal VOC": "PascalVOC",
    "Caltech256": "Caltech-256",
    "CUB": "CUB",
    "iNat mini Family": None,
    "iNat mini Genus": None,
    "iNat mini Species": None,
    "ImageNet-D Clipart": "Clipart",
    "ImageNet-D Infograph": "Infograph",
    "ImageNet-D Painting": "Painting",
    "ImageNet-D Quickdraw": "Quickdraw",
    "ImageNet-D Sketch": "Sketch",
}
IMAGENET_D = ("Clipart", "Infograph", "Painting", "Quickdraw", "Real", "Sketch")
INAT_TARGETS = ("iNat-family", "iNat-genus", "iNat-species")  # the full study's labels (params/full/.../study.yaml)
# Table S.6's datasets under the full study's labels (the S.2/S.3 headers, and the iNat targets unprinted there).
S6_TO_STUDY_LABEL = {**{d: label for d, label in S6_TO_S2_DATASET.items() if label is not None},
                     "iNat mini Family": "iNat-family", "iNat mini Genus": "iNat-genus",
                     "iNat mini Species": "iNat-species"}
# The datasets of the figures drawn on one of our groups (Figs. S.1, S.4, S.5), at the full study: ImageNet-D for
# the style figure (S.1), the three iNaturalist targets for the granularity ones (S.4, S.5).
FIGURE_DATASETS = {"style": IMAGENET_D, "granularity": INAT_TARGETS}
# The OOD datasets for which S.2/S.3 print every one of the 26 models.
COMPLETE_OOD_DATASETS = ("PascalVOC", "Cifar100", "Caltech-256", "CUB")
# The eleven OOD datasets of Fig. 2 (right) as the text counts them: 10 printed + iNaturalist.
FIGURE02_OOD_DATASETS = COMPLETE_OOD_DATASETS + IMAGENET_D

NORMALISED_ID = {"kNN": "kNN_N", "LP": "LP_BN", "FT": "FT", "FT-10%": "FT10%", "FT-1%": "FT1%"}
PLAIN_ID = {"kNN": "kNN", "LP": "LP", "FT": "FT", "FT-10%": "FT10%", "FT-1%": "FT1%"}
NORMALISED_OOD = {"kNN": "kNN_N", "LP": "LP_BN", "FT": "FT"}
PLAIN_OOD = {"kNN": "kNN", "LP": "LP", "FT": "FT"}

# Numbers the text quotes for Fig. 3 (Sec. 4.2), as printed: (group, OOD protocol, ID protocol).
QUOTED_FIGURE03 = {
    ("Category", "kNN", "kNN"): "0.96",
    ("Category", "kNN", "LP"): "0.95",
    ("Category", "kNN", "FT"): "0.62",
    ("Category", "FT", "FT"): "0.73",
    ("Style", "FT", "FT"): "0.61",
}
# Fig. 2 (right), Sec. 4.1: an ID protocol's correlation with OOD metrics "averaged across metrics and datasets".
QUOTED_FIGURE02_RIGHT = {"LP": "0.85", "kNN": "0.84"}
PAPER_MODEL_COUNT = 26


@dataclass(frozen=True)
class ShiftGroup:
    """One domain-shift group of Table S.6: its datasets, those printed in S.2/S.3, and those not."""

    name: str
    datasets: tuple[str, ...]
    printed: tuple[str, ...]
    missing: tuple[str, ...]


@dataclass(frozen=True)
class OodReading:
    """Columns for the ID and OOD protocols, and how the OOD metric is averaged over datasets."""

    name: str
    id_columns: tuple[tuple[str, str], ...]
    ood_columns: tuple[tuple[str, str], ...]
    aggregate: str

    def describe(self) -> str:
        ids = ", ".join(f"{p}={c}" for p, c in self.id_columns)
        oods = ", ".join(f"{p}={c}" for p, c in self.ood_columns)
        return f"ID {ids}; OOD {oods}; {self.aggregate.replace('_', ' ')} over datasets"


def reading(normalised: bool = True, aggregate: str = "mean_accuracy") -> OodReading:
    """The main-text (normalised) or plain columns, with one of the two averaging readings."""
    if aggregate not in AGGREGATES:
        raise ValueError(f"aggregate must be one of {AGGREGATES}, got {aggregate!r}")
    ids, oods = (NORMALISED_ID, NORMALISED_OOD) if normalised else (PLAIN_ID, PLAIN_OOD)
    name = f"{'normalised' if normalised else 'plain'} columns, {aggregate.replace('_', ' ')}"
    return OodReading(name, tuple(ids.items()), tuple(oods.items()), aggregate)


PAPER_READING = reading(normalised=True, aggregate="mean_accuracy")
READINGS = tuple(reading(n, a) for n in (True, False) for a in AGGREGATES)


def shift_groups() -> dict[str, ShiftGroup]:
    """Table S.6's four groups, each split into its printed and its unprinted datasets."""
    s6 = published.load(PAPER, "table_s6", numeric=False)
    groups = {}
    for name in GROUPS:
        listed = tuple(s6.loc[s6["group"] == name, "dataset"])
        printed = tuple(S6_TO_S2_DATASET[d] for d in listed if S6_TO_S2_DATASET[d] is not None)
        missing = tuple(d for d in listed if S6_TO_S2_DATASET[d] is None)
        groups[name] = ShiftGroup(name, listed, printed, missing)
    return groups


def wide_scores(accuracies: pd.DataFrame) -> pd.DataFrame:
    """Models (table order) × (dataset, protocol) accuracies; unprinted cells are NaN."""
    order = list(dict.fromkeys(accuracies["model"]))
    wide = accuracies.pivot_table(index="model", columns=["dataset", "protocol"], values="value", sort=False)
    return wide.loc[order]


Columns = dict[tuple[str, str], np.ndarray]  # (dataset, protocol) -> one score per model


def score_columns(accuracies: pd.DataFrame) -> Columns:
    """`wide_scores` as plain arrays, the form `correlate` works on (fast enough to bootstrap)."""
    wide = wide_scores(accuracies)
    return {column: wide[column].to_numpy(float) for column in wide.columns}


def _spearman(x: np.ndarray, y: np.ndarray) -> tuple[float, int]:
    """Spearman ρ over the models scored on both (NaN below three, or where either is constant)."""
    keep = ~(np.isnan(x) | np.isnan(y))
    n = int(keep.sum())
    if n < 3:
        return math.nan, n
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(np.corrcoef(_average_ranks(x[keep]), _average_ranks(y[keep]))[0, 1]), n


def _average_ranks(values: np.ndarray) -> np.ndarray:
    """1-based ranks, ties given their average rank (`scipy.stats.rankdata`'s default, without its
    per-call overhead: the claims bootstrap ranks tens of thousands of short arrays)."""
    ordered = np.sort(values)
    return (np.searchsorted(ordered, values, "left") + np.searchsorted(ordered, values, "right") + 1) / 2.0


def correlate(columns: Columns, datasets: tuple[str, ...] | list[str], id_columns: dict[str, str],
              ood_columns: dict[str, str], aggregate: str = "mean_accuracy", in_domain: str = IN_DOMAIN) -> pd.DataFrame:
    """`id_vs_ood` on score arrays (`score_columns`); a model missing any dataset of a group's
    average (a NaN score) is dropped from that correlation."""
    if aggregate not in AGGREGATES:
        raise ValueError(f"aggregate must be one of {AGGREGATES}, got {aggregate!r}")
    rows = []
    for ood_label, ood_col in ood_columns.items():
        present = [d for d in datasets if (d, ood_col) in columns]
        for id_label, id_col in id_columns.items():
            id_scores = columns[(in_domain, id_col)]
            if not present:
                rho, n = math.nan, 0
            elif aggregate == "mean_accuracy":
                rho, n = _spearman(id_scores, np.mean([columns[(d, ood_col)] for d in present], axis=0))
            else:
                per_dataset = [_spearman(id_scores, columns[(d, ood_col)]) for d in present]
                rho = float(np.mean([r for r, _ in per_dataset]))
                n = min(k for _, k in per_dataset)
            rows.append({"ood_protocol": ood_label, "id_protocol": id_label, "rho": rho,
                         "n_models": n, "datasets": " ".join(present)})
    return pd.DataFrame(rows)


def id_vs_ood(
    accuracies: pd.DataFrame,
    datasets: tuple[str, ...] | list[str],
    id_columns: dict[str, str],
    ood_columns: dict[str, str],
    aggregate: str = "mean_accuracy",
    in_domain: str = IN_DOMAIN,
) -> pd.DataFrame:
    """Spearman ρ of each ID protocol (on dataset `in_domain`) with each OOD protocol averaged over `datasets`.

    Rows `ood_protocol, id_protocol, rho, n_models, datasets`; `n_models` is the number of models
    the correlation uses (for `mean_correlation`, the smallest over the datasets).
    """
    return correlate(score_columns(accuracies), datasets, id_columns, ood_columns, aggregate, in_domain)


def as_matrix(long: pd.DataFrame, value: str = "rho") -> pd.DataFrame:
    """OOD protocols (rows) × ID protocols (columns), in the order they appear."""
    rows = list(dict.fromkeys(long["ood_protocol"]))
    cols = list(dict.fromkeys(long["id_protocol"]))
    return long.pivot(index="ood_protocol", columns="id_protocol", values=value).loc[rows, cols]


def group_correlations(accuracies: pd.DataFrame, how: OodReading = PAPER_READING) -> pd.DataFrame:
    """Fig. 3 / S.2: `id_vs_ood` for each Table S.6 group over its printed datasets.

    Adds `group`, `missing` (S.6 datasets not printed) and the 95 % interval of each ρ at its n.
    """
    frames = []
    for group in shift_groups().values():
        long = id_vs_ood(accuracies, group.printed, dict(how.id_columns), dict(how.ood_columns), how.aggregate)
        long.insert(0, "group", group.name)
        long["missing"] = " ".join(group.missing)
        long["models printed"] = models_printed(accuracies, group.printed)
        frames.append(long)
    out = pd.concat(frames, ignore_index=True)
    return with_intervals(out)


def models_printed(accuracies: pd.DataFrame, datasets: tuple[str, ...] | list[str]) -> int:
    """How many models have at least one printed cell on every one of `datasets`."""
    on = accuracies[accuracies["dataset"].isin(datasets)]
    per_model = on.groupby("model")["dataset"].nunique()
    return int((per_model == len(datasets)).sum())


def with_intervals(long: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Add `ci_low, ci_high`: Fisher-z interval of each `rho` at its `n_models`."""
    bounds = [
        spearman_confidence_interval(r, n, level) if n > 3 and not math.isnan(r) else (math.nan, math.nan)
        for r, n in zip(long["rho"], long["n_models"])
    ]
    long = long.copy()
    long["ci_low"] = [b[0] for b in bounds]
    long["ci_high"] = [b[1] for b in bounds]
    return long


def row_means(long: pd.DataFrame) -> pd.Series:
    """Each ID protocol's correlation averaged over the OOD protocols (Fig. 2 right, "across metrics")."""
    order = list(dict.fromkeys(long["id_protocol"]))
    return long.groupby("id_protocol")["rho"].mean().loc[order]


def figure03_estimates(metric: str = "top1") -> pd.DataFrame:
    """Each value quoted for Fig. 3, beside its estimate from the printed datasets under every reading."""
    accuracies = published_accuracies(metric)
    groups = shift_groups()
    rows = []
    for (group, ood, id_), printed in QUOTED_FIGURE03.items():
        for how in READINGS:
            cell = id_vs_ood(accuracies, groups[group].printed, {id_: dict(how.id_columns)[id_]},
                             {ood: dict(how.ood_columns)[ood]}, how.aggregate).iloc[0]
            rows.append({"group": group, "ood_protocol": ood, "id_protocol": id_, "printed": printed,
                         "reading": how.name, "estimate": cell["rho"], "n_models": cell["n_models"],
                         "datasets used": cell["datasets"], "missing": " ".join(groups[group].missing)})
    return pd.DataFrame(rows)


def figure02_right_estimates(metric: str = "top1", datasets: tuple[str, ...] = COMPLETE_OOD_DATASETS) -> pd.DataFrame:
    """The two quoted Fig. 2 (right) row averages beside their estimates from `datasets` under every reading."""
    accuracies = published_accuracies(metric)
    rows = []
    for how in READINGS:
        means = row_means(id_vs_ood(accuracies, datasets, dict(how.id_columns), dict(how.ood_columns), how.aggregate))
        for protocol, printed in QUOTED_FIGURE02_RIGHT.items():
            rows.append({"id_protocol": protocol, "printed": printed, "reading": how.name,
                         "estimate": float(means[protocol]), "datasets used": " ".join(datasets)})
    return pd.DataFrame(rows)


def correlation_difference(r1: float, n1: int, r2: float, n2: int) -> tuple[float, float]:
    """z statistic and two-sided p of r1 - r2 on Fisher's z scale (Bonett-Wright SE for Spearman).

    Treats the two correlations as independent. Correlations computed on the same models are
    positively dependent, which makes this test conservative (it under-states significance).
    """
    def se(r: float, n: int) -> float:
        return math.sqrt((1 + r**2 / 2) / (n - 3))

    z = (math.atanh(r1) - math.atanh(r2)) / math.hypot(se(r1, n1), se(r2, n2))
    return float(z), float(2 * stats.norm.sf(abs(z)))


def in_group_order(groups: Iterable[str]) -> list[str]:
    """The distinct `groups` in the order Fig. 3 draws them (`GROUP_ORDER`; unknown ones last)."""
    return sorted(dict.fromkeys(groups), key=lambda g: GROUP_ORDER.index(g) if g in GROUP_ORDER else len(GROUP_ORDER))


def group_labels(cells: pd.DataFrame) -> dict[str, str]:
    """Each group's column label in Fig. 3 / S.2: its name, its smallest n, `*` if Table S.6 lists
    datasets the text does not print (cells from `group_correlations`)."""
    n = cells.groupby("group")["n_models"].min()
    missing = cells.groupby("group")["missing"].first()
    return {g: f"{g}\nn={n[g]}" + ("*" if missing[g] else "") for g in n.index}


def group_row(cells: pd.DataFrame, title: str, labels: Mapping[str, str] | None = None, missing: str = "") -> RhoRow:
    """One source's Fig. 3 panels from cells `group, ood_protocol, id_protocol, rho`: one per OOD
    protocol, ID protocols × groups in the paper's order (a white rule after the granularity groups),
    columns labelled by `labels`, the row where the ID protocol is the panel's boxed."""
    groups = in_group_order(cells["group"])
    split = sum(g in GRANULARITY_GROUPS for g in groups)
    panels = []
    for ood in dict.fromkeys(cells["ood_protocol"]):
        part = cells[cells["ood_protocol"] == ood]
        matrix = part.pivot(index="id_protocol", columns="group", values="rho")
        matrix = matrix.loc[list(dict.fromkeys(part["id_protocol"])), groups]
        matrix.columns = [(labels or {}).get(g, g) for g in groups]
        panels.append(RhoPanel(f"OOD {ood}", matrix, boxed=ood, split=split if 0 < split < len(groups) else 0,
                               missing=missing))
    return RhoRow(title, panels)


PAPER_GROUP_NOTE = "* group includes iNaturalist target(s), not printed; Style: ImageNet-D printed for 10 of 26 models"


def draw_group_panels(long: pd.DataFrame, title: str) -> Figure:
    """Fig. 3 / S.2 layout: one heatmap per OOD protocol, ID protocols × groups (Coarse, Fine | Category,
    Style); a black frame where the ID and OOD protocol are the same; each column says its n."""
    return draw_rho_rows([group_row(long, "", group_labels(long))], suptitle=title, note=PAPER_GROUP_NOTE)
