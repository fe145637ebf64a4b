"""Claims ledger of ssl_protocols: each claim of the abstract, Sec. 3–5 and the appendix, assessed
from the printed numbers (Tables S.1–S.8) by a stated rule.

Rules used throughout (each assessment's evidence repeats the numbers it used):

* **Readings.** Main-text claims use the normalised kNN / LP columns (kNN^N, LP^BN; Sec. 3 says so,
  and only that reading reproduces Fig. 2's quoted values). How an OOD metric is "averaged over"
  datasets is not stated, so claims resting on ID-vs-OOD correlations are assessed under both the
  mean-accuracy and the mean-correlation reading (`shift_groups`); when the two disagree the claim
  is `not_checkable`.
* **Unprinted data.** iNaturalist is not printed; such averages are assessed on the printed datasets
  (all 26 models) and the evidence says so. ImageNet-D is printed for only 10 of the 26 models (all
  ResNet-50), so claims about style shift are `not_checkable`; the evidence reports the 10-model
  numbers.
* **Significance.** A difference of two correlations is "significant" when the two-sided p of
  Fisher's z test (Bonett-Wright SE, treating them as independent, which is conservative for
  correlations on the same models) is below 0.05, Bonferroni-corrected where a claim covers a whole
  panel of cells; 95 % intervals are given beside it.
* **No effect.** An accuracy change within ±2 points (`batch_norm.NO_EFFECT_POINTS`) counts as no effect.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pandas as pd

from .. import published
from ..claims import Claim, Verdict, holds, unverifiable
from ..metrics.correlation import spearman_confidence_interval
from .accuracies import published_accuracies, score_table
from .batch_norm import (
    NO_EFFECT_POINTS,
    SCALED_EXAMPLES,
    UNSCALED_EXAMPLES,
    figure04_frame,
    normalisation_gains,
)
from .figure02 import PAPER_READING as ID_READING
from .figure02 import in_domain_matrix, quoted_comparison
from .scatter import GENERATIVE_METHODS, NAMED_GENERATIVE, backbone_switches, lp_vs_ft, near_ties, panel_statistics, scatter_points
from .seed_study import seed_runs
from .shift_groups import (
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


def _scale() -> Verdict:
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


def _probing_best_on_average() -> Verdict:
    def test(how: OodReading) -> tuple[bool, str]:
        means = _ood_matrix(how, COMPLETE_OOD_DATASETS).attrs["row_means"].sort_values(ascending=False)
        return set(means.index[:2]) == {"kNN", "LP"}, f"mean ρ over OOD kNN/LP/FT: {_fmt(means)}"
    return _across_readings(test, f"ID protocols ranked by mean correlation with OOD metrics, {PRINTED_OOD}")


def _backbone_explains() -> Verdict:
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


def _id_correlate_highly() -> Verdict:
    matrix = in_domain_matrix(_accuracies(), ID_READING)
    comparison = quoted_comparison(matrix, ID_READING.include_diagonal)
    means = matrix.mean(axis=1).sort_values(ascending=False)
    order_ok = set(means.index[:2]) == {"LP", "FT-10%"} and means.index[-1] == "FT"
    return holds(bool(comparison["ok"].all()) and order_ok,
                 f"row means of the 5×5 ImageNet matrix (diagonal included, 26 models): {_fmt(means, 3)}; quoted 0.90, "
                 f"0.91, 0.79 reproduced to 2 decimals only under this reading ({ID_READING.describe()})")


def _knn_lp_normalised() -> Verdict:
    normalised = score_table(_accuracies(), "Imagenet", {"kNN": "kNN_N", "LP": "LP_BN"}).corr(method="spearman").iloc[0, 1]
    plain = score_table(_accuracies(), "Imagenet", {"kNN": "kNN", "LP": "LP"}).corr(method="spearman").iloc[0, 1]
    low, high = spearman_confidence_interval(normalised, PAPER_MODEL_COUNT)
    return holds(round(normalised, 2) == 0.99,
                 f"ImageNet Spearman kNN^N–LP^BN {normalised:.3f} (95% CI [{low:.3f}, {high:.3f}], n = 26); "
                 f"without normalisation kNN–LP {plain:.3f}; difference {_difference(normalised, plain, 26)}")


def _ood_lower_than_id() -> Verdict:
    matrix = in_domain_matrix(_accuracies(), ID_READING).to_numpy()
    id_mean = (matrix.sum() - np.trace(matrix)) / (matrix.size - len(matrix))

    def test(how: OodReading) -> tuple[bool, str]:
        ood = _ood_matrix(how, COMPLETE_OOD_DATASETS).to_numpy().mean()
        return ood < id_mean - 0.02, f"mean ID–OOD ρ {ood:.3f} vs mean ID–ID ρ (off-diagonal) {id_mean:.3f}"
    return _across_readings(test, f"rule: lower by more than 0.02; {PRINTED_OOD}")


def _probing_self_predict() -> Verdict:
    def test(how: OodReading) -> tuple[bool, str]:
        m = _ood_matrix(how, COMPLETE_OOD_DATASETS)
        tops = {ood: m.loc[ood].sort_values(ascending=False) for ood in ("kNN", "LP")}
        ok = all(set(t.index[:2]) == {"kNN", "LP"} for t in tops.values())
        return ok, "; ".join(f"OOD {ood}: {_fmt(t)}" for ood, t in tops.items())
    return _across_readings(test, f"ID protocols ranked for OOD kNN and OOD LP, {PRINTED_OOD}")


def _lp_then_knn() -> Verdict:
    def test(how: OodReading) -> tuple[bool, str]:
        means = _ood_matrix(how, COMPLETE_OOD_DATASETS).attrs["row_means"].sort_values(ascending=False)
        return list(means.index[:2]) == ["LP", "kNN"], f"LP {means['LP']:.3f}, kNN {means['kNN']:.3f}"
    return _across_readings(test, f"quoted 0.85 / 0.84 need iNaturalist (not printed); order on {PRINTED_OOD}")


def _few_shot_predict_ood_ft() -> Verdict:
    def test(how: OodReading) -> tuple[bool, str]:
        row = _ood_matrix(how, COMPLETE_OOD_DATASETS).loc["FT"].sort_values(ascending=False)
        return set(row.index[:2]) == {"FT-10%", "FT-1%"}, f"OOD FT: {_fmt(row, 3)}"
    return _across_readings(test, f"ID protocols ranked for OOD FT, {PRINTED_OOD}")


def _ft10_best_ood_ft() -> Verdict:
    def test(how: OodReading) -> tuple[bool, str]:
        row = _ood_matrix(how, COMPLETE_OOD_DATASETS).loc["FT"].sort_values(ascending=False)
        return row.index[0] == "FT-10%", f"OOD FT: {_fmt(row, 3)}"
    return _across_readings(test, f"ID protocols ranked for OOD FT, {PRINTED_OOD}")


# --- Sec. 4.2 ---------------------------------------------------------------------------------


def _style_significantly_lower() -> Verdict:
    r_cat, r_style = float(QUOTED_FIGURE03[("Category", "FT", "FT")]), float(QUOTED_FIGURE03[("Style", "FT", "FT")])
    subset = _group_matrix(MAIN_TEXT_READINGS[0], "Style")
    category = _group_matrix(MAIN_TEXT_READINGS[0], "Category")
    lower = int((subset.to_numpy() < category.to_numpy()).sum())
    return unverifiable(
        f"Style (ImageNet-D) is printed for {subset.attrs['n']}–10 of 26 models, all ResNet-50. The one pair the text quotes, "
        f"ID FT vs OOD FT, Category vs Style at n = 26: {_difference(r_cat, r_style, 26)} (not significant). On the printed "
        f"models (mean accuracy) the Style cell is lower than the Category cell in {lower} of 15 cells")


def _fine_vs_coarse() -> Verdict:
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


def _ood_knn_category() -> Verdict:
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


def _style_less_reliable_knn() -> Verdict:
    style = _group_matrix(MAIN_TEXT_READINGS[0], "Style")
    category = _group_matrix(MAIN_TEXT_READINGS[0], "Category")
    return unverifiable(
        f"Style needs ImageNet-D for all 26 models (10 printed). On the printed models (mean accuracy): OOD kNN from ID kNN "
        f"{style.loc['kNN', 'kNN']:.2f} / ID LP {style.loc['kNN', 'LP']:.2f} (n = {style.attrs['n']}) vs Category "
        f"{category.loc['kNN', 'kNN']:.2f} / {category.loc['kNN', 'LP']:.2f} (n = 26)")


def _ood_lp_probing_strongest() -> Verdict:
    def test(how: OodReading) -> tuple[bool, str]:
        texts, ok = [], True
        for group in CATEGORICAL_GROUPS:
            row = _group_matrix(how, group).loc["LP"].sort_values(ascending=False)
            ok &= set(row.index[:2]) == {"kNN", "LP"}
            texts.append(f"{group}: {_fmt(row)}")
        return ok, "; ".join(texts)
    return _across_readings(test, "OOD LP row of Fig. 3 for the printed categorical groups (26 models); Style not checkable")


def _few_shot_ood_lp_over_knn() -> Verdict:
    def test(how: OodReading) -> tuple[bool, str]:
        texts, ok = [], True
        for group in CATEGORICAL_GROUPS:
            m = _group_matrix(how, group)
            for p in ("FT-10%", "FT-1%"):
                ok &= m.loc["LP", p] > m.loc["kNN", p]
                texts.append(f"{group} {p}: OOD LP {m.loc['LP', p]:.2f} vs OOD kNN {m.loc['kNN', p]:.2f}")
        return ok, "; ".join(texts)
    return _across_readings(test, "printed categorical groups (26 models); Style not checkable")


def _cheap_protocols_beat_ft_categorical() -> Verdict:
    def test(how: OodReading) -> tuple[bool, str]:
        texts, ok = [], True
        for group in CATEGORICAL_GROUPS:
            row = _group_matrix(how, group).loc["FT"]
            others = row.drop("FT")
            ok &= bool((others > row["FT"]).all())
            texts.append(f"{group}: ID FT {row['FT']:.2f}, others {others.min():.2f}–{others.max():.2f}")
        return ok, "; ".join(texts)
    return _across_readings(test, "OOD FT row of Fig. 3 for the printed categorical groups (26 models)")


def _cheap_protocols_beat_ft_style() -> Verdict:
    texts = []
    for how in MAIN_TEXT_READINGS:
        row = _group_matrix(how, "Style").loc["FT"].sort_values(ascending=False)
        texts.append(f"{_short(how)}: {_fmt(row)}")
    return unverifiable("Style needs ImageNet-D for all 26 models; on the 9 printed models (ResNet-50 only) ID FT is "
                        "among the best predictors of OOD FT, against the claim: " + " | ".join(texts))


def _cheaper_than_ft() -> Verdict:
    s8 = published.load(PAPER, "table_s8").set_index(["protocol", "quantity"])["value"]
    texts, ok = [], True
    for backbone, q in (("ResNet-50", "gpu_hours_resnet50"), ("ViT-B/16", "gpu_hours_vitb16")):
        ft = s8[("FT", q)]
        for p in ("kNN", "LP", "10%-FT", "1%-FT"):
            ok &= s8[(p, q)] < ft
        texts.append(f"{backbone}: FT {ft:g} h; kNN {s8[('kNN', q)]:g}, LP {s8[('LP', q)]:g}, 10%-FT {s8[('10%-FT', q)]:g}, "
                     f"1%-FT {s8[('1%-FT', q)]:g} h")
    return holds(ok, "Table S.8 GPU hours: " + "; ".join(texts))


# --- Sec. 3, 4.3 and Fig. 4 -------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _gains() -> pd.DataFrame:
    return normalisation_gains(_accuracies())


def _normalisation_can_help() -> Verdict:
    g = _gains()
    imagenet = g[g["dataset"] == "Imagenet"]
    texts = []
    for p in ("kNN", "LP"):
        part = imagenet[imagenet["protocol"] == p]
        best = part.loc[part["gain"].idxmax()]
        texts.append(f"{p}: {int((part['gain'] > NO_EFFECT_POINTS).sum())}/26 models gain > {NO_EFFECT_POINTS:g} points, "
                     f"largest {best['gain']:+.1f} ({best['model']})")
    ok = all((imagenet[imagenet["protocol"] == p]["gain"] > NO_EFFECT_POINTS).any() for p in ("kNN", "LP"))
    return holds(ok, "ImageNet, Table S.2: " + "; ".join(texts))


def _unscaled_strong(protocol: str) -> Callable[[], Verdict]:
    def assess() -> Verdict:
        g = _gains()
        part = g[(g["protocol"] == protocol) & g["model"].isin(UNSCALED_EXAMPLES)]
        imagenet = part[part["dataset"] == "Imagenet"].set_index("model")["gain"]
        ok = bool((imagenet > NO_EFFECT_POINTS).all())
        spread = part.groupby("model")["gain"].agg(["min", "max"])
        return holds(ok, f"ImageNet gain from {protocol} normalisation: {_fmt(imagenet, 1)}; range over all printed "
                         f"datasets: " + ", ".join(f"{m} {r['min']:+.1f} to {r['max']:+.1f}" for m, r in spread.iterrows()))
    return assess


def _dino_unaffected() -> Verdict:
    g = _gains()
    part = g[g["model"].isin(SCALED_EXAMPLES) & g["protocol"].isin(["kNN", "LP"])]
    imagenet = part[part["dataset"] == "Imagenet"]
    worst = part.loc[part["gain"].abs().idxmax()]
    ok = bool((part["gain"].abs() <= NO_EFFECT_POINTS).all())
    return holds(ok, f"DINO kNN/LP normalisation gains on ImageNet: "
                     + ", ".join(f"{r.model} {r.protocol} {r.gain:+.1f}" for r in imagenet.itertuples())
                     + f" (within ±{NO_EFFECT_POINTS:g}); over all printed datasets (Tab. S.2) the largest is "
                       f"{worst['gain']:+.1f} ({worst['model']} {worst['protocol']}, {worst['dataset']})")


def _strong_or_insignificant() -> Verdict:
    g = _gains()
    probing = g[g["protocol"].isin(["kNN", "LP"])]
    losses = probing[probing["gain"] < -NO_EFFECT_POINTS].sort_values("gain")
    imagenet_worst = probing[probing["dataset"] == "Imagenet"]["gain"].min()
    examples = ", ".join(f"{r.model} {r.protocol} {r.dataset} {r.gain:+.1f}" for r in losses.head(4).itertuples())
    return holds(losses.empty, f"rule: no model loses more than {NO_EFFECT_POINTS:g} points. ImageNet: worst change "
                               f"{imagenet_worst:+.1f}. All printed datasets: {len(losses)} kNN/LP cells lose more than "
                               f"{NO_EFFECT_POINTS:g} points, e.g. {examples}")


def _mim_benefit_most() -> Verdict:
    g = _gains()
    imagenet = g[(g["dataset"] == "Imagenet") & g["protocol"].isin(["kNN", "LP"])].copy()
    imagenet["masked image modelling"] = imagenet["method"].isin(GENERATIVE_METHODS)
    means = imagenet.groupby(["protocol", "masked image modelling"])["gain"].mean().unstack()
    ok = bool((means[True] > means[False]).all())
    return holds(ok, "mean ImageNet gain, masked-image-modelling models (7) vs others (19): "
                     + "; ".join(f"{p} {r[True]:+.1f} vs {r[False]:+.1f}" for p, r in means.iterrows()))


def _ft_bn_small_data() -> Verdict:
    g = _gains()
    texts = []
    for p in ("FT-10%", "FT-1%"):
        part = g[(g["dataset"] == "Imagenet") & (g["protocol"] == p)]
        texts.append(f"{p}: BN better for {int((part['gain'] > 0).sum())}/26, by > {NO_EFFECT_POINTS:g} points for "
                     f"{int((part['gain'] > NO_EFFECT_POINTS).sum())}/26, mean {part['gain'].mean():+.1f}, largest "
                     f"{part['gain'].max():+.1f}")
    one_percent = g[(g["dataset"] == "Imagenet") & (g["protocol"] == "FT-1%")]["gain"]
    ok = bool((one_percent > NO_EFFECT_POINTS).sum() > len(one_percent) / 2)
    return holds(ok, "rule: most models gain more than the no-effect margin at 1 %. ImageNet few-shot fine-tuning with vs without a batch-norm head (Table S.2): " + "; ".join(texts)
                 + ". Fine-tuning with batch norm on the small OOD datasets (Fig. 4) is not printed")


def _figure04_maskfeat() -> Verdict:
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


def _generative_gap() -> Verdict:
    texts, ok = [], True
    for lp_column in ("LP_BN", "LP"):
        frame, _ = lp_vs_ft(_accuracies(), lp_column)
        named = frame[frame["method"].isin(NAMED_GENERATIVE)]
        disc = frame[frame["family"] == "discriminative"]
        this = named["gap"].mean() > disc["gap"].mean() and named["gap"].median() > disc["gap"].median()
        ok &= this
        below = int((disc["gap"] > named["gap"].min()).sum())
        texts.append(f"{lp_column}: FT − LP of MaskFeat/MAE/BEiT v2/iBOT mean {named['gap'].mean():.1f}, median "
                     f"{named['gap'].median():.1f} vs discriminative mean {disc['gap'].mean():.1f}, median "
                     f"{disc['gap'].median():.1f}; {below}/{len(disc)} discriminative models have a larger gap than the "
                     f"smallest named one ({named.loc[named['gap'].idxmin(), 'method']} {named['gap'].min():.1f})")
    return holds(ok, "rule: larger mean and median gap, for both LP columns. " + " | ".join(texts))


def _vit_above_line() -> Verdict:
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


def _backbone_switch() -> Verdict:
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


def _cub_worse_same_ranking() -> Verdict:
    _, stats = _panels()
    cub = stats[(stats["dataset"] == "CUB") & (stats["metric"] == "top1")].set_index("protocol")
    probing = cub.loc[["kNN", "LP"]]
    ok = bool((probing["spearman"] >= 0.9).all() and (probing["models with ood < id"] >= 20).all()
              and (probing["mean ood - id"] <= -10).all())
    text = "; ".join(f"{p}: ρ {r['spearman']:.2f}, OOD below ID for {r['models with ood < id']}/26, mean OOD − ID "
                     f"{r['mean ood - id']:+.1f}" for p, r in cub.iterrows())
    return holds(ok, f"rule for kNN and LP: ρ ≥ 0.9, OOD < ID for ≥ 20 models, mean drop ≥ 10 points. CUB top-1: {text}. "
                     "iNat-mini not printed")


def _probing_more_linear() -> Verdict:
    _, stats = _panels()
    texts, ok = [], True
    for metric in ("top1", "top5"):
        for dataset in ("PascalVOC", "Caltech-256", "CUB"):
            r = stats[(stats["dataset"] == dataset) & (stats["metric"] == metric)].set_index("protocol")["pearson"]
            ok &= bool(min(r["kNN"], r["LP"]) > r["FT"])
            texts.append(f"{dataset} {metric}: kNN {r['kNN']:.2f}, LP {r['LP']:.2f}, FT {r['FT']:.2f}")
    return holds(ok, "Pearson r of ID vs OOD accuracy (linearity): " + "; ".join(texts))


def _same_id_different_ood() -> Verdict:
    points, _ = _panels()
    ft = points[(points["protocol"] == "FT") & (points["metric"] == "top1") & points["dataset"].isin(["PascalVOC", "Caltech-256", "CUB"])]
    ties = near_ties(ft, id_within=0.5, ood_apart=10.0).sort_values("ood gap", ascending=False)
    examples = "; ".join(f"{r['model a']} vs {r['model b']} on {r['dataset']}: ID {r['id a']:.1f} / {r['id b']:.1f}, OOD "
                         f"{r['ood a']:.1f} / {r['ood b']:.1f}" for _, r in ties.head(3).iterrows())
    return holds(len(ties) >= 2, f"pairs with ImageNet FT within 0.5 points but OOD FT ≥ 10 points apart (top-1, PascalVOC, "
                                 f"Caltech-256, CUB): {len(ties)}; largest: {examples}")


def _ranking_not_absolute() -> Verdict:
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


def _knn_lp_interchangeable() -> Verdict:
    def test(how: OodReading) -> tuple[bool, str]:
        m = _ood_matrix(how, COMPLETE_OOD_DATASETS)
        diff = (m["kNN"] - m["LP"]).abs()
        return bool(diff.max() < 0.05), f"|ρ(ID kNN) − ρ(ID LP)| per OOD protocol: {_fmt(diff, 3)}"
    return _across_readings(test, f"rule: ID kNN and ID LP predict every OOD protocol within 0.05; {PRINTED_OOD}")


def _granularity_robust() -> Verdict:
    def test(how: OodReading) -> tuple[bool, str]:
        coarse, fine = _group_matrix(how, "Coarse"), _group_matrix(how, "Fine")
        drops = pd.Series({p: coarse.loc[p, p] - fine.loc[p, p] for p in ("kNN", "LP", "FT")})
        return bool(max(drops["kNN"], drops["LP"]) < drops["FT"]), f"Coarse − Fine on the diagonal: {_fmt(drops)}"
    return _across_readings(test, "Coarse (PascalVOC, Caltech-256) vs Fine (CUB), 26 models; iNat targets and the style "
                                  "part (ImageNet-D, 10 models) not checkable")


# --- appendix ---------------------------------------------------------------------------------


def _seeds_small() -> Verdict:
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


def _rare_protocols() -> Verdict:
    counts = protocol_counts()
    in_domain = counts[counts["domain"] == "in_domain"].set_index("protocol")["papers"]
    return holds(set(rarest_in_domain(2)) == set(EXCLUDED_AS_RARE),
                 f"Table S.1, papers using each in-domain protocol (of 23): {_fmt(in_domain.astype(float), 0)}")


def _knn_light() -> Verdict:
    s8 = published.load(PAPER, "table_s8").set_index(["protocol", "quantity"])["value"]
    pairs = {b: (s8[("kNN", q)], s8[("LP", q)]) for b, q in (("ResNet-50", "gpu_hours_resnet50"), ("ViT-B/16", "gpu_hours_vitb16"))}
    return holds(all(k < lp for k, lp in pairs.values()),
                 "Table S.8 GPU hours kNN vs LP: " + "; ".join(f"{b} {k:g} vs {lp:g} ({lp / k:.0f}×)" for b, (k, lp) in pairs.items()))


def claims() -> list[Claim]:
    """Every claim of the paper that its printed numbers bear on, in reading order."""
    def c(claim_id: str, section: str, text: str, artefacts: tuple[str, ...], assess: Callable[[], Verdict]) -> Claim:
        return Claim(PAPER, claim_id, section, text, artefacts, assess)

    return [
        c("scale", "Abstract; Sec. 5", "The study covers 26 models and eleven (OOD) datasets.",
          ("table_s2", "table_s4", "table_s5"), _scale),
        c("probing-best-on-average", "Abstract; Sec. 1; Sec. 4.1; Sec. 5",
          "In-domain linear/kNN probing are, on average, the best predictors of out-of-domain performance.",
          ("figure02", "figure_s3", "table_s2"), _probing_best_on_average),
        c("backbone-explains", "Abstract; Sec. 4.4; Sec. 5",
          "Most performance differences between discriminative and generative SSL methods are explained by the backbone, not the SSL family.",
          ("figure05", "table_s2"), _backbone_explains),
        c("id-protocols-correlate", "Sec. 4.1",
          "ID metrics correlate highly; LP (r = 0.90) and FT-10% (r = 0.91) have the highest, FT the lowest (r = 0.79) average correlation.",
          ("figure02", "table_s2"), _id_correlate_highly),
        c("knn-lp-normalised", "Sec. 4.1; Sec. 5",
          "Linear and kNN probing correlate almost perfectly (r = 0.99) when features are normalised.",
          ("figure02", "figure_s3", "table_s2"), _knn_lp_normalised),
        c("ood-correlations-lower", "Sec. 4.1; Fig. 2",
          "Correlations between ID and OOD metrics are visibly lower than among ID metrics.",
          ("figure02", "table_s2"), _ood_lower_than_id),
        c("probing-predict-probing", "Sec. 4.1",
          "Comparing ID with OOD accuracies, the probing protocols (kNN, LP) correlate most with themselves and each other.",
          ("figure02", "table_s2"), _probing_self_predict),
        c("lp-best-then-knn", "Sec. 4.1",
          "Linear probing is the best OOD predictor averaged across metrics and datasets (r = 0.85), followed closely by kNN (r = 0.84).",
          ("figure02", "table_s2"), _lp_then_knn),
        c("few-shot-predict-ood-ft", "Sec. 4.1",
          "The two few-shot fine-tuning protocols are the best predictors of OOD fine-tuning.",
          ("figure02", "table_s2"), _few_shot_predict_ood_ft),
        c("ft10-best-for-ood-ft", "Sec. 4.1 summary; Sec. 5",
          "10%-fine-tuning on ImageNet is the strongest predictor of the ranking of SSL methods in OOD fine-tuning.",
          ("figure02", "table_s2"), _ft10_best_ood_ft),
        c("style-significantly-lower", "Sec. 4.2",
          "ID–OOD correlations are significantly lower for style-shift datasets.",
          ("figure03", "figure_s2", "table_s2", "table_s6"), _style_significantly_lower),
        c("fine-vs-coarse-no-difference", "Sec. 4.2",
          "There is no (significant) difference between fine-grained and coarse-grained categorical shifts.",
          ("figure03", "table_s2", "table_s6"), _fine_vs_coarse),
        c("ood-knn-category", "Sec. 4.2",
          "For OOD kNN under categorical shift, ID kNN (r = 0.96) and LP (r = 0.95) correlate notably higher than ID FT (r = 0.62).",
          ("figure03", "table_s2", "table_s6"), _ood_knn_category),
        c("ood-knn-style-less-reliable", "Sec. 4.2",
          "ID probing predicts the OOD kNN ranking reliably for categorical and less reliably for style shifts.",
          ("figure03", "table_s2", "table_s6"), _style_less_reliable_knn),
        c("ood-lp-probing-strongest", "Sec. 4.2",
          "For OOD LP, ID kNN and ID LP are the strongest predictors.",
          ("figure03", "table_s2", "table_s6"), _ood_lp_probing_strongest),
        c("few-shot-ood-lp-over-knn", "Sec. 4.2",
          "Few-shot fine-tuning (1 %, 10 %) correlates slightly more with OOD LP than with OOD kNN.",
          ("figure03", "table_s2", "table_s6"), _few_shot_ood_lp_over_knn),
        c("cheap-beat-ft-categorical", "Sec. 4.2",
          "ID probing and few-shot fine-tuning correlate better with OOD FT than ID FT does (categorical shifts).",
          ("figure03", "table_s2", "table_s6"), _cheap_protocols_beat_ft_categorical),
        c("cheap-beat-ft-style", "Sec. 4.2",
          "ID probing and few-shot fine-tuning correlate better with OOD FT than ID FT does (style shift).",
          ("figure03", "table_s2", "table_s6"), _cheap_protocols_beat_ft_style),
        c("proxies-cheaper", "Sec. 4.2; Sec. 2.2",
          "Probing and few-shot protocols are significantly cheaper than full end-to-end fine-tuning.",
          ("table_s8",), _cheaper_than_ft),
        c("knn-computationally-light", "Sec. 2.2",
          "kNN classifiers are fast and computationally light compared to linear probing.",
          ("table_s8",), _knn_light),
        c("normalisation-can-help", "Sec. 4.3; App. E",
          "Batch norm before the linear classifier and z-scoring before kNN can significantly increase accuracy.",
          ("table_s2", "figure_s3"), _normalisation_can_help),
        c("unscaled-strong-lp", "Sec. 4.3",
          "The effect (linear probing with batch norm) is strong for models with unscaled embeddings, e.g. SimSiam and MaskFeat.",
          ("table_s2",), _unscaled_strong("LP")),
        c("unscaled-strong-knn", "Sec. 4.3",
          "The effect (kNN on z-scored features) is strong for models with unscaled embeddings, e.g. SimSiam and MaskFeat.",
          ("table_s2",), _unscaled_strong("kNN")),
        c("dino-unaffected", "Sec. 4.3",
          "Other models (e.g. DINO) are neither positively nor negatively affected by normalisation.",
          ("table_s2",), _dino_unaffected),
        c("normalisation-strong-or-insignificant", "Sec. 3; App. E",
          "Normalisation has either a strong positive or an insignificant effect on accuracy, depending on the model.",
          ("table_s2",), _strong_or_insignificant),
        c("normalisation-mim", "Sec. 3",
          "Normalisation has a large positive effect especially for models using masked image modelling.",
          ("table_s2",), _mim_benefit_most),
        c("bn-helps-short-fine-tuning", "Sec. 4.3; Sec. 5",
          "Fine-tuning on less data or for fewer epochs can yield significantly higher accuracy with batch norm.",
          ("figure04", "table_s2"), _ft_bn_small_data),
        c("figure04-maskfeat-vs-dino", "Fig. 4 caption",
          "For MaskFeat, batch norm matters a lot when optimizer steps are few and little when they are many; DINO's features are more scaled.",
          ("figure04", "table_s2", "table_s4", "table_s8"), _figure04_maskfeat),
        c("generative-larger-gap", "Sec. 4.4",
          "Models with a generative loss (MaskFeat, MAE, BEiT v2, iBOT) have a larger FT–LP gap on ImageNet than discriminative models.",
          ("figure05", "table_s2"), _generative_gap),
        c("vit-above-regression", "Sec. 4.4",
          "ViT backbones all lie above the LP→FT regression line.",
          ("figure05", "table_s2"), _vit_above_line),
        c("backbone-switch-crosses-line", "Sec. 4.4",
          "Switching DINO and MoCo v3 from ResNet-50 to ViT-B/16 moves them from below the regression line to above it.",
          ("figure05", "table_s2"), _backbone_switch),
        c("cub-worse-same-ranking", "Sec. 4.5",
          "On CUB (and iNat-mini) OOD accuracy is much lower than ID although the method ranking is very similar.",
          ("figure06", "table_s2"), _cub_worse_same_ranking),
        c("probing-more-linear", "Sec. 4.5",
          "On Pascal VOC, Caltech-256 and CUB, kNN and LP have a more linear ID–OOD relationship than fine-tuning.",
          ("figure06", "table_s2", "table_s3"), _probing_more_linear),
        c("same-id-ft-different-ood-ft", "Sec. 4.5; Sec. 5",
          "Several SSL methods have almost the same ID fine-tuning accuracy but very different OOD fine-tuning accuracy.",
          ("figure06", "table_s2"), _same_id_different_ood),
        c("ranking-not-absolute", "Sec. 4.5 summary",
          "ID protocols are robust proxies for the ranking of SSL methods, but not for their absolute performance.",
          ("figure06", "figure_s1", "table_s2", "table_s3"), _ranking_not_absolute),
        c("knn-lp-interchangeable", "Sec. 5",
          "With normalisation, linear and kNN probing can be used mostly interchangeably.",
          ("figure02", "figure_s3", "table_s2"), _knn_lp_interchangeable),
        c("probing-robust-to-granularity", "Sec. 5",
          "Linear/kNN probing is more robust to shifts in label granularity than fine-tuning.",
          ("figure03", "table_s2", "table_s6"), _granularity_robust),
        c("seed-errors-small", "App. F; Table S.7",
          "Seed-to-seed errors are generally small, so single-run metrics can be trusted.",
          ("table_s7", "table_s2"), _seeds_small),
        c("rare-protocols-excluded", "App. A",
          "Partial fine-tuning and SVM probing are very rarely used (and so excluded).",
          ("table_s1",), _rare_protocols),
    ]


def claims_for(artefact: str) -> list[Claim]:
    """The claims that rest on `artefact`."""
    return [c for c in claims() if artefact in c.artefacts]


def format_ledger(frame: pd.DataFrame) -> str:
    """A ledger frame as plain text: one block per claim (verdict, section, claim, evidence)."""
    return "\n\n".join(f"[{r.verdict}] {r.claim_id} ({r.section})\n  {r.claim}\n  evidence: {r.evidence}"
                       for r in frame.itertuples())
