"""Claims ledger of ssl_protocols: the tables the claims file (`lib/published/ssl_protocols/claims.yaml`)
judges, and the assessors no shared predicate of `lib.claims` fits, registered by claim id.

Readings used throughout (each evidence repeats the numbers it used):

* **Columns.** Main-text claims use the normalised kNN / LP columns (kNN^N, LP^BN; Sec. 3 says so,
  and only that reading reproduces Fig. 2's quoted values).
* **Averaging.** How an OOD metric is "averaged over" datasets is not stated, so claims resting on
  ID-vs-OOD correlations are judged on both `ood_rho_mean_accuracy` and `ood_rho_mean_correlation`
  (`shift_groups`); when the two readings disagree the claim is `not_checkable`. Those frames hold
  Spearman ρ per `group` (`all`: the printed OOD datasets with all 26 models; `Coarse`, `Fine`,
  `Category`: the printed members of Fig. 3's groups), `ood_protocol` (plus `mean`, the mean over
  the OOD protocols) and `id_protocol`.
* **Unprinted data.** iNaturalist is not printed; such averages use the printed datasets (all 26
  models). ImageNet-D is printed for only 10 of the 26 models (all ResNet-50), so claims about style
  shift are `not_checkable`; the evidence reports the 10-model numbers.
* **Significance.** A difference of two correlations is "significant" when the two-sided p of
  Fisher's z test (Bonett-Wright SE, treating them as independent, which is conservative for
  correlations on the same models) is below 0.05, Bonferroni-corrected where a claim covers a whole
  panel of cells; 95 % intervals are given beside it.
* **No effect.** An accuracy change within ±2 points (`batch_norm.NO_EFFECT_POINTS`) counts as no
  effect; `normalisation_gains` holds the change from normalising (`value`, points) per model,
  dataset and protocol.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .. import published
from ..claims import (Claim, OurRun, Tables, Verdict, cached_tables, combine, findings_of, holds, load_claims,
                      unverifiable)
from ..claims import claims_for as _claims_for
from ..claims import format_ledger  # noqa: F401  (re-exported: the figure notebooks import it from here)
from ..findings import Finding, difference_interval
from ..metrics.correlation import spearman_confidence_interval
from .accuracies import published_accuracies, score_table
from .batch_norm import figure04_frame, normalisation_gains
from .figure02 import PAPER_READING as ID_READING
from .figure02 import in_domain_matrix, quoted_comparison
from .scatter import GENERATIVE_METHODS, NAMED_GENERATIVE, backbone_switches, lp_vs_ft, near_ties, panel_statistics, scatter_points
from .seed_study import seed_runs
from .shift_groups import (
    IN_DOMAIN,
    Columns,
    correlate,
    score_columns,
    AGGREGATES,
    COMPLETE_OOD_DATASETS,
    PAPER_MODEL_COUNT,
    QUOTED_FIGURE03,
    OodReading,
    as_matrix,
    correlation_difference,
    id_vs_ood,
    reading,
    row_means,
    shift_groups,
)
from .survey import EXCLUDED_AS_RARE, protocol_counts, rarest_in_domain

PAPER = "ssl_protocols"
MAIN_TEXT_READINGS = tuple(reading(normalised=True, aggregate=a) for a in AGGREGATES)
CATEGORICAL_GROUPS = ("Coarse", "Fine", "Category")
ALPHA = 0.05


@functools.lru_cache(maxsize=None)
def _accuracies(metric: str = "top1") -> pd.DataFrame:
    return published_accuracies(metric)


@functools.lru_cache(maxsize=None)
def _ood_matrix(how: OodReading, datasets: tuple[str, ...], metric: str = "top1") -> pd.DataFrame:
    """OOD protocols × ID protocols (ρ) over `datasets`, with `n` in attrs."""
    long = id_vs_ood(_accuracies(metric), datasets, dict(how.id_columns), dict(how.ood_columns), how.aggregate)
    matrix = as_matrix(long)
    matrix.attrs["n"] = int(long["n_models"].min())
    matrix.attrs["row_means"] = row_means(long)
    return matrix


def _group_matrix(how: OodReading, group: str, metric: str = "top1") -> pd.DataFrame:
    return _ood_matrix(how, shift_groups()[group].printed, metric)


def ood_rho(columns: Columns, how: OodReading, groups: dict[str, tuple[str, ...]],
            in_domain: str = IN_DOMAIN) -> pd.DataFrame:
    """Spearman ρ of ID vs OOD protocols (scores: `shift_groups.score_columns`) per group of OOD
    datasets under one averaging reading, with each ID protocol's mean over the OOD protocols
    (`ood_protocol` "mean")."""
    frames = []
    for group, datasets in groups.items():
        long = correlate(columns, datasets, dict(how.id_columns), dict(how.ood_columns), how.aggregate, in_domain)
        means = row_means(long).reset_index().assign(ood_protocol="mean")
        frames.append(pd.concat([long[["ood_protocol", "id_protocol", "rho"]], means], ignore_index=True)
                      .rename(columns={"rho": "value"}).assign(group=group))
    return pd.concat(frames, ignore_index=True)


def _ood_rho(how: OodReading) -> pd.DataFrame:
    """`ood_rho` on the paper's numbers: group `all` (the printed OOD datasets with all 26 models) and
    the printed members of Fig. 3's categorical groups."""
    groups = {"all": COMPLETE_OOD_DATASETS, **{g: tuple(shift_groups()[g].printed) for g in CATEGORICAL_GROUPS}}
    return ood_rho(score_columns(_accuracies()), how, groups)


TABLE_SOURCES: dict[str, Callable[[], pd.DataFrame]] = {
    **{f"ood_rho_{how.aggregate}": functools.partial(_ood_rho, how) for how in MAIN_TEXT_READINGS},
    "normalisation_gains": lambda: _gains().assign(value=_gains()["gain"]),
    "table_s8": lambda: published.load(PAPER, "table_s8"),
}
TABLE_NAMES: tuple[str, ...] = tuple(TABLE_SOURCES)


table = cached_tables(PAPER, TABLE_SOURCES)  # the tables the claims file may name


OUR_RESAMPLES = 100  # bootstrap resamples of our zoo's models, the replicates of our run's claims


def _our_tables(columns: Columns, groups: dict[str, tuple[str, ...]], in_domain: str) -> Tables:
    """The `ood_rho_*` tables of a run of ours (computed when first asked for); `KeyError` for the rest."""
    readings = {f"ood_rho_{how.aggregate}": how for how in MAIN_TEXT_READINGS}

    @functools.cache
    def build(name: str) -> pd.DataFrame:
        return ood_rho(columns, readings[name], groups, in_domain)

    def our_table(name: str) -> pd.DataFrame:
        if name not in readings:
            raise KeyError(f"table {name!r}")
        return build(name).copy()

    return our_table


OUR_FINDINGS = ("figure02", "figure_s4", "figure04", "figure05", "figure06", "table_s2")
"""The artefacts whose findings on our study (top-1) judge a claim of the ledger (`ours: {findings: [...]}`)."""


def our_run(params: Mapping[str, Any]) -> OurRun:
    """The tier's study (`study_params`, `results_dir`; run or read back) as the claims file's
    ID-vs-OOD correlation tables: group `all` (every out-of-domain dataset) and each of our shift
    groups (style, granularity, categorical: not the paper's Coarse/Fine/Category, so claims naming
    those select nothing of ours). The study has one seed; the replicates are bootstrap resamples of
    its models, the unit the correlations are taken over. Its findings are those of the panels of
    `OUR_FINDINGS` on top-1 accuracy."""
    from ..params import tier_of
    from .ours import all_datasets, panel_findings, run_study
    from .ours import shift_groups as our_shift_groups

    settings, frame = run_study(params["study_params"], params["results_dir"])
    top1 = frame[frame["metric"] == "top1"]
    in_domain, by_group = settings.dataset_labels()[0], our_shift_groups(settings)
    groups = {"all": tuple(all_datasets(by_group)), **{g: tuple(datasets) for g, datasets in by_group.items()}}
    columns = score_columns(top1)
    n_models = top1["model"].nunique()
    rng = np.random.default_rng(0)
    resamples = [rng.integers(0, n_models, n_models) for _ in range(OUR_RESAMPLES)]
    replicates = tuple(_our_tables({k: v[rows] for k, v in columns.items()}, groups, in_domain) for rows in resamples)
    kind = f"bootstrap resamples of the {n_models} models (seed 0)"
    return OurRun(_our_tables(columns, groups, in_domain), replicates, kind, tier_of(params["study_params"]),
                  findings_of(lambda artefact: panel_findings(artefact, settings, frame)))


def _short(how: OodReading) -> str:
    return how.aggregate.replace("_", " ")


def _across_readings(test: Callable[[OodReading], tuple[bool, str]], scope: str) -> Verdict:
    """Apply `test` under both averaging readings; agree -> holds, disagree -> not_checkable."""
    results = [(how, *test(how)) for how in MAIN_TEXT_READINGS]
    evidence = f"{scope}. " + " | ".join(f"{_short(how)}: {text}" for how, _, text in results)
    outcomes = {ok for _, ok, _ in results}
    if len(outcomes) == 1:
        return holds(outcomes.pop(), evidence)
    return unverifiable("the two averaging readings disagree. " + evidence)


def _fmt(series: pd.Series, digits: int = 2) -> str:
    return ", ".join(f"{k} {v:.{digits}f}" for k, v in series.items())


def _difference(r1: float, r2: float, n1: int, n2: int | None = None) -> str:
    n2 = n1 if n2 is None else n2
    z, p = correlation_difference(r1, n1, r2, n2)
    (a, b), (c, d) = spearman_confidence_interval(r1, n1), spearman_confidence_interval(r2, n2)
    return f"{r1:.2f} [{a:.2f}, {b:.2f}] vs {r2:.2f} [{c:.2f}, {d:.2f}], p = {p:.3f}"


PRINTED_OOD = f"printed OOD datasets with all 26 models ({', '.join(COMPLETE_OOD_DATASETS)}); iNaturalist not printed, ImageNet-D only 10 models"


# --- abstract, Sec. 1 and Sec. 5 -------------------------------------------------------------


def _scale(tables: Tables) -> Verdict:
    top1 = _accuracies()
    models = top1["model"].nunique()
    s4 = published.load(PAPER, "table_s4")
    variants = [d for d in dict.fromkeys(s4["dataset"]) if not d.startswith("ImageNet-1k")]
    datasets = {"iNaturalist mini" if d.startswith("iNaturalist") else d for d in variants}
    printed = top1.loc[top1["dataset"] != "Imagenet", "dataset"].nunique()
    return holds(models == 26 and len(datasets) == 11,
                 f"Tables S.2/S.5 list {models} models ({top1['method'].nunique()} methods, DINO and MoCo v3 with two "
                 f"backbones); Table S.4 lists {len(datasets)} OOD datasets if iNaturalist's three targets count once "
                 f"({len(variants)} otherwise); S.2/S.3 print accuracies for {printed} of them")


def _backbone_explains(tables: Tables) -> Verdict:
    parts, ok = [], True
    for lp_column in ("LP_BN", "LP"):
        frame, _ = lp_vs_ft(_accuracies(), lp_column)
        vit = frame[frame["backbone"] == "ViT-B/16"]
        by_backbone = frame.groupby("backbone")["residual"].mean()
        by_family_vit = vit.groupby("family")["residual"].mean()
        backbone_gap = by_backbone["ViT-B/16"] - by_backbone["RN-50"]
        family_gap = by_family_vit["generative"] - by_family_vit["discriminative"]
        this = bool((vit["residual"] > 0).all()) and abs(family_gap) < backbone_gap
        ok &= this
        parts.append(f"{lp_column}: mean residual from the FT~LP fit ViT {by_backbone['ViT-B/16']:+.1f} vs RN-50 "
                     f"{by_backbone['RN-50']:+.1f} (gap {backbone_gap:.1f}); within ViTs generative "
                     f"{by_family_vit['generative']:+.1f} vs discriminative {by_family_vit['discriminative']:+.1f} "
                     f"(gap {family_gap:.1f}); ViTs above the line: {int((vit['residual'] > 0).sum())}/{len(vit)}")
    return holds(ok, "rule: every ViT above the fit and the generative-vs-discriminative gap among ViTs smaller than "
                     "the ViT-vs-ResNet gap, for both LP columns. " + " | ".join(parts)
                 + ". All generative models are ViTs, so family and backbone are confounded except for DINO and MoCo v3")


# --- Sec. 4.1 ---------------------------------------------------------------------------------


def _id_correlate_highly(tables: Tables) -> Verdict:
    matrix = in_domain_matrix(_accuracies(), ID_READING)
    comparison = quoted_comparison(matrix, ID_READING.include_diagonal)
    means = matrix.mean(axis=1).sort_values(ascending=False)
    order_ok = set(means.index[:2]) == {"LP", "FT-10%"} and means.index[-1] == "FT"
    return holds(bool(comparison["ok"].all()) and order_ok,
                 f"row means of the 5×5 ImageNet matrix (diagonal included, 26 models): {_fmt(means, 3)}; quoted 0.90, "
                 f"0.91, 0.79 reproduced to 2 decimals only under this reading ({ID_READING.describe()})")


def _knn_lp_normalised(tables: Tables) -> Verdict:
    normalised = score_table(_accuracies(), "Imagenet", {"kNN": "kNN_N", "LP": "LP_BN"}).corr(method="spearman").iloc[0, 1]
    plain = score_table(_accuracies(), "Imagenet", {"kNN": "kNN", "LP": "LP"}).corr(method="spearman").iloc[0, 1]
    low, high = spearman_confidence_interval(normalised, PAPER_MODEL_COUNT)
    return holds(round(normalised, 2) == 0.99,
                 f"ImageNet Spearman kNN^N–LP^BN {normalised:.3f} (95% CI [{low:.3f}, {high:.3f}], n = 26); "
                 f"without normalisation kNN–LP {plain:.3f}; difference {_difference(normalised, plain, 26)}")


def _ood_lower_than_id(tables: Tables) -> Verdict:
    matrix = in_domain_matrix(_accuracies(), ID_READING).to_numpy()
    id_mean = (matrix.sum() - np.trace(matrix)) / (matrix.size - len(matrix))

    def test(how: OodReading) -> tuple[bool, str]:
        ood = _ood_matrix(how, COMPLETE_OOD_DATASETS).to_numpy().mean()
        return ood < id_mean - 0.02, f"mean ID–OOD ρ {ood:.3f} vs mean ID–ID ρ (off-diagonal) {id_mean:.3f}"
    return _across_readings(test, f"rule: lower by more than 0.02; {PRINTED_OOD}")


# --- Sec. 4.2 ---------------------------------------------------------------------------------


def _style_significantly_lower(tables: Tables) -> Verdict:
    r_cat, r_style = float(QUOTED_FIGURE03[("Category", "FT", "FT")]), float(QUOTED_FIGURE03[("Style", "FT", "FT")])
    subset = _group_matrix(MAIN_TEXT_READINGS[0], "Style")
    category = _group_matrix(MAIN_TEXT_READINGS[0], "Category")
    lower = int((subset.to_numpy() < category.to_numpy()).sum())
    return unverifiable(
        f"Style (ImageNet-D) is printed for {subset.attrs['n']}–10 of 26 models, all ResNet-50. The one pair the text quotes, "
        f"ID FT vs OOD FT, Category vs Style at n = 26: {_difference(r_cat, r_style, 26)} (not significant). On the printed "
        f"models (mean accuracy) the Style cell is lower than the Category cell in {lower} of 15 cells")


def _fine_vs_coarse(tables: Tables) -> Verdict:
    def test(how: OodReading) -> tuple[bool, str]:
        coarse, fine = _group_matrix(how, "Coarse"), _group_matrix(how, "Fine")
        n = min(coarse.attrs["n"], fine.attrs["n"])
        tests = [(ood, id_, *correlation_difference(coarse.loc[ood, id_], n, fine.loc[ood, id_], n))
                 for ood in coarse.index for id_ in coarse.columns]
        corrected = ALPHA / len(tests)
        smallest = min(tests, key=lambda t: t[3])
        raw = sum(t[3] < ALPHA for t in tests)
        significant = [t for t in tests if t[3] < corrected]
        return not significant, (
            f"{len(significant)} of {len(tests)} cells differ at the Bonferroni level p < {corrected:.4f} ({raw} at p < "
            f"{ALPHA}); smallest p: ID {smallest[1]} vs OOD {smallest[0]}, "
            f"{_difference(coarse.loc[smallest[0], smallest[1]], fine.loc[smallest[0], smallest[1]], n)}")
    return _across_readings(test, "rule: no cell of the 3×5 panel differs significantly, Bonferroni-corrected over its 15 "
                                  "cells. Coarse = PascalVOC + Caltech-256 vs Fine = CUB (iNat targets not printed), 26 models")


def _ood_knn_category(tables: Tables) -> Verdict:
    quoted = {k[2]: float(v) for k, v in QUOTED_FIGURE03.items() if k[:2] == ("Category", "kNN")}
    quoted_text = (f"quoted values at n = 26: kNN vs FT {_difference(quoted['kNN'], quoted['FT'], 26)}; "
                   f"LP vs FT {_difference(quoted['LP'], quoted['FT'], 26)}")

    def test(how: OodReading) -> tuple[bool, str]:
        m = _group_matrix(how, "Category")
        n = m.attrs["n"]
        ps = [correlation_difference(m.loc["kNN", p], n, m.loc["kNN", "FT"], n)[1] for p in ("kNN", "LP")]
        return max(ps) < ALPHA, (f"ID kNN {m.loc['kNN', 'kNN']:.2f}, ID LP {m.loc['kNN', 'LP']:.2f}, ID FT "
                                 f"{m.loc['kNN', 'FT']:.2f}; larger p of the two differences {max(ps):.4f}")
    return _across_readings(test, f"{quoted_text}. Printed Category datasets (Caltech-256, CUB; iNat Family not printed), 26 models")


def _style_less_reliable_knn(tables: Tables) -> Verdict:
    style = _group_matrix(MAIN_TEXT_READINGS[0], "Style")
    category = _group_matrix(MAIN_TEXT_READINGS[0], "Category")
    return unverifiable(
        f"Style needs ImageNet-D for all 26 models (10 printed). On the printed models (mean accuracy): OOD kNN from ID kNN "
        f"{style.loc['kNN', 'kNN']:.2f} / ID LP {style.loc['kNN', 'LP']:.2f} (n = {style.attrs['n']}) vs Category "
        f"{category.loc['kNN', 'kNN']:.2f} / {category.loc['kNN', 'LP']:.2f} (n = 26)")


def _cheap_protocols_beat_ft_style(tables: Tables) -> Verdict:
    texts = []
    for how in MAIN_TEXT_READINGS:
        row = _group_matrix(how, "Style").loc["FT"].sort_values(ascending=False)
        texts.append(f"{_short(how)}: {_fmt(row)}")
    return unverifiable("Style needs ImageNet-D for all 26 models; on the 9 printed models (ResNet-50 only) ID FT is "
                        "among the best predictors of OOD FT, against the claim: " + " | ".join(texts))


# --- Sec. 3, 4.3 and Fig. 4 -------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _gains() -> pd.DataFrame:
    return normalisation_gains(_accuracies())


def _mim_benefit_most(tables: Tables) -> Verdict:
    g = _gains()
    imagenet = g[(g["dataset"] == "Imagenet") & g["protocol"].isin(["kNN", "LP"])].copy()
    imagenet["masked image modelling"] = imagenet["method"].isin(GENERATIVE_METHODS)
    means = imagenet.groupby(["protocol", "masked image modelling"])["gain"].mean().unstack()
    ok = bool((means[True] > means[False]).all())
    return holds(ok, "mean ImageNet gain, masked-image-modelling models (7) vs others (19): "
                     + "; ".join(f"{p} {r[True]:+.1f} vs {r[False]:+.1f}" for p, r in means.iterrows()))


def _figure04_maskfeat(tables: Tables) -> Verdict:
    frame = figure04_frame()
    imagenet = frame[(frame["dataset"] == "ImageNet") & frame["printed"]]
    wide = imagenet.pivot_table(index=["model", "protocol", "steps"], columns="batch_norm", values="accuracy").dropna()
    wide["gain"] = wide[True] - wide[False]
    gains = wide["gain"].unstack(["model"]).reset_index(level="steps").sort_values("steps")
    mask, dino = gains["MaskFeat (ViT-B/16)"], gains["DINO (RN-50)"]
    ok = bool(mask.is_monotonic_decreasing and (mask > dino).all())
    text = "; ".join(f"{p} ({int(s)} steps): MaskFeat {m:+.1f}, DINO RN-50 {d:+.1f}"
                     for p, s, m, d in zip(gains.index, gains["steps"], mask, dino))
    return holds(ok, f"batch-norm gain on ImageNet, steps from Table S.4/S.8 and 1,281,167 training images: {text}; "
                     "100 % FT and all OOD datasets have no printed batch-norm variant")


# --- Sec. 4.4 ---------------------------------------------------------------------------------


def _generative_gap(tables: Tables) -> Verdict:
    """Per LP column, the mean FT − LP gap of the four named generative models minus that of the discriminative
    ones, judged by its Welch interval (4 against 19 models); the medians and the overlap as context."""
    parts = []
    for lp_column in ("LP_BN", "LP"):
        frame, _ = lp_vs_ft(_accuracies(), lp_column)
        named = frame[frame["method"].isin(NAMED_GENERATIVE)]
        disc = frame[frame["family"] == "discriminative"]
        difference = float(named["gap"].mean() - disc["gap"].mean())
        found = Finding("mean FT − LP gap of MaskFeat/MAE/BEiT v2/iBOT − of the discriminative models (points)",
                        difference, difference_interval(named["gap"], disc["gap"], "models"),
                        "generative models have a larger FT − LP gap", ">", 0.0)
        below = int((disc["gap"] > named["gap"].min()).sum())
        parts.append((lp_column, Verdict(found.verdict, (
            f"{found.sentence()} Medians {named['gap'].median():.1f} vs {disc['gap'].median():.1f}; {below}/{len(disc)} "
            f"discriminative models have a larger gap than the smallest named one "
            f"({named.loc[named['gap'].idxmin(), 'method']} {named['gap'].min():.1f})"))))
    return combine(parts)


def _vit_above_line(tables: Tables) -> Verdict:
    texts, ok = [], True
    for lp_column in ("LP_BN", "LP"):
        frame, fit = lp_vs_ft(_accuracies(), lp_column)
        vit = frame[frame["backbone"] == "ViT-B/16"]
        rn_above = frame[(frame["backbone"] == "RN-50") & frame["above_line"]]["method"].tolist()
        ok &= bool(vit["above_line"].all())
        texts.append(f"{lp_column}: fit FT = {fit.intercept:.1f} + {fit.slope:.3f}·LP; ViT residuals "
                     f"{vit['residual'].min():+.1f} to {vit['residual'].max():+.1f}; ResNet-50 models above the line: "
                     f"{', '.join(rn_above) if rn_above else 'none'}")
    return holds(ok, " | ".join(texts))


def _backbone_switch(tables: Tables) -> Verdict:
    texts, ok = [], True
    for lp_column in ("LP_BN", "LP"):
        frame, _ = lp_vs_ft(_accuracies(), lp_column)
        switches = backbone_switches(frame)
        ok &= bool(((switches["residual RN-50"] < 0) & (switches["residual ViT-B/16"] > 0)).all())
        texts.append(f"{lp_column}: " + "; ".join(f"{r['method']} {r['residual RN-50']:+.1f} → {r['residual ViT-B/16']:+.1f}"
                                                  for _, r in switches.iterrows()))
    return holds(ok, "residual from the FT~LP fit, RN-50 → ViT-B/16. " + " | ".join(texts))


# --- Sec. 4.5 ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _panels() -> tuple[pd.DataFrame, pd.DataFrame]:
    points = scatter_points()
    return points, panel_statistics(points)


def _cub_worse_same_ranking(tables: Tables) -> Verdict:
    _, stats = _panels()
    cub = stats[(stats["dataset"] == "CUB") & (stats["metric"] == "top1")].set_index("protocol")
    probing = cub.loc[["kNN", "LP"]]
    ok = bool((probing["spearman"] >= 0.9).all() and (probing["models with ood < id"] >= 20).all()
              and (probing["mean ood - id"] <= -10).all())
    text = "; ".join(f"{p}: ρ {r['spearman']:.2f}, OOD below ID for {r['models with ood < id']}/26, mean OOD − ID "
                     f"{r['mean ood - id']:+.1f}" for p, r in cub.iterrows())
    return holds(ok, f"rule for kNN and LP: ρ ≥ 0.9, OOD < ID for ≥ 20 models, mean drop ≥ 10 points. CUB top-1: {text}. "
                     "iNat-mini not printed")


def _probing_more_linear(tables: Tables) -> Verdict:
    _, stats = _panels()
    texts, ok = [], True
    for metric in ("top1", "top5"):
        for dataset in ("PascalVOC", "Caltech-256", "CUB"):
            r = stats[(stats["dataset"] == dataset) & (stats["metric"] == metric)].set_index("protocol")["pearson"]
            ok &= bool(min(r["kNN"], r["LP"]) > r["FT"])
            texts.append(f"{dataset} {metric}: kNN {r['kNN']:.2f}, LP {r['LP']:.2f}, FT {r['FT']:.2f}")
    return holds(ok, "Pearson r of ID vs OOD accuracy (linearity): " + "; ".join(texts))


def _same_id_different_ood(tables: Tables) -> Verdict:
    points, _ = _panels()
    ft = points[(points["protocol"] == "FT") & (points["metric"] == "top1") & points["dataset"].isin(["PascalVOC", "Caltech-256", "CUB"])]
    ties = near_ties(ft, id_within=0.5, ood_apart=10.0).sort_values("ood gap", ascending=False)
    examples = "; ".join(f"{r['model a']} vs {r['model b']} on {r['dataset']}: ID {r['id a']:.1f} / {r['id b']:.1f}, OOD "
                         f"{r['ood a']:.1f} / {r['ood b']:.1f}" for _, r in ties.head(3).iterrows())
    return holds(len(ties) >= 2, f"pairs with ImageNet FT within 0.5 points but OOD FT ≥ 10 points apart (top-1, PascalVOC, "
                                 f"Caltech-256, CUB): {len(ties)}; largest: {examples}")


def _ranking_not_absolute(tables: Tables) -> Verdict:
    _, stats = _panels()
    complete = stats[stats["dataset"].isin(COMPLETE_OOD_DATASETS) & stats["protocol"].isin(["kNN", "LP"])]
    median_rho = complete["spearman"].median()
    worst = complete.loc[complete["spearman"].idxmin()]
    offsets = complete.groupby("dataset")["mean ood - id"].mean()
    spread = offsets.max() - offsets.min()
    return holds(bool(median_rho >= 0.9 and spread > 10),
                 f"rule: median probing ID–OOD ρ ≥ 0.9 and the mean OOD − ID offset varies across datasets by > 10 points. "
                 f"kNN/LP panels on the 4 complete datasets (top-1 and top-5): median ρ {median_rho:.2f}, lowest "
                 f"{worst['spearman']:.2f} ({worst['protocol']}, {worst['dataset']}, {worst['metric']}); mean OOD − ID by "
                 f"dataset: {_fmt(offsets, 1)} (spread {spread:.1f})")


# --- Sec. 5 -----------------------------------------------------------------------------------


def _granularity_robust(tables: Tables) -> Verdict:
    def test(how: OodReading) -> tuple[bool, str]:
        coarse, fine = _group_matrix(how, "Coarse"), _group_matrix(how, "Fine")
        drops = pd.Series({p: coarse.loc[p, p] - fine.loc[p, p] for p in ("kNN", "LP", "FT")})
        return bool(max(drops["kNN"], drops["LP"]) < drops["FT"]), f"Coarse − Fine on the diagonal: {_fmt(drops)}"
    return _across_readings(test, "Coarse (PascalVOC, Caltech-256) vs Fine (CUB), 26 models; iNat targets and the style "
                                  "part (ImageNet-D, 10 models) not checkable")


# --- appendix ---------------------------------------------------------------------------------


def _seeds_small(tables: Tables) -> Verdict:
    runs = seed_runs()
    stds = runs["std_population"]
    eva = runs.loc[stds.idxmax()]
    fewshot = score_table(_accuracies(), "Imagenet", {"FT1%": "FT1%"})["FT1%"]
    rank_printed = int(fewshot.rank(ascending=False)["EVA (ViT-B/16)"])
    fewshot["EVA (ViT-B/16)"] = eva["run2"]
    rank_other = int(fewshot.rank(ascending=False)["EVA (ViT-B/16)"])
    ok = bool(stds.median() <= 0.5 and (stds <= 1).sum() >= 10)
    return holds(ok, f"rule: median std ≤ 0.5 and ≥ 10 of 12 stds ≤ 1 point. Table S.7 stds: median {stds.median():.2f}, "
                     f"{int((stds <= 1).sum())}/12 ≤ 1; largest {eva['std_population']:.2f} ({eva['method']} {eva['protocol']}: "
                     f"runs {eva['run1']:.2f}, {eva['run2']:.2f}, {eva['run3']:.2f}); S.2 prints run 1, which ranks EVA "
                     f"{rank_printed}th of 26 in FT-1%, runs 2/3 would rank it {rank_other}th")


def _rare_protocols(tables: Tables) -> Verdict:
    counts = protocol_counts()
    in_domain = counts[counts["domain"] == "in_domain"].set_index("protocol")["papers"]
    return holds(set(rarest_in_domain(2)) == set(EXCLUDED_AS_RARE),
                 f"Table S.1, papers using each in-domain protocol (of 23): {_fmt(in_domain.astype(float), 0)}")


BESPOKE: dict[str, Callable[[Tables], Verdict]] = {
    "scale": _scale,
    "backbone-explains": _backbone_explains,
    "id-protocols-correlate": _id_correlate_highly,
    "knn-lp-normalised": _knn_lp_normalised,
    "ood-correlations-lower": _ood_lower_than_id,
    "style-significantly-lower": _style_significantly_lower,
    "fine-vs-coarse-no-difference": _fine_vs_coarse,
    "ood-knn-category": _ood_knn_category,
    "ood-knn-style-less-reliable": _style_less_reliable_knn,
    "cheap-beat-ft-style": _cheap_protocols_beat_ft_style,
    "normalisation-mim": _mim_benefit_most,
    "figure04-maskfeat-vs-dino": _figure04_maskfeat,
    "generative-larger-gap": _generative_gap,
    "vit-above-regression": _vit_above_line,
    "backbone-switch-crosses-line": _backbone_switch,
    "cub-worse-same-ranking": _cub_worse_same_ranking,
    "probing-more-linear": _probing_more_linear,
    "same-id-ft-different-ood-ft": _same_id_different_ood,
    "ranking-not-absolute": _ranking_not_absolute,
    "probing-robust-to-granularity": _granularity_robust,
    "seed-errors-small": _seeds_small,
    "rare-protocols-excluded": _rare_protocols,
}


def claims() -> tuple[Claim, ...]:
    """Every claim of the paper that its printed numbers bear on, in reading order (from the claims file)."""
    return load_claims(PAPER)


def claims_for(artefact: str) -> list[Claim]:
    """The claims that rest on `artefact` (`lib.claims.claims_for` for this paper)."""
    return _claims_for(PAPER, artefact)
