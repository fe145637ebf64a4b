"""Claims ledger of imagenet_rib: each claim of the abstract, introduction, Sec. 4-5 and the appendix,
assessed from the printed tables by a stated rule.

Rules used throughout (each assessment's evidence repeats the numbers it used):

* **Quantifiers.** "across", "all", "every", "consistently" need the statement to hold in every case
  the tables print; "generally", "most" and unquantified statements need a strict majority. The
  evidence always gives the count and names the exceptions.
* **Pretrained accuracies.** Claims about pretrained models' OOD accuracy use Table 17, whose
  ObjectNet column is the one the paper's RIs and Table 6's differences reproduce (see the audit);
  where Table 1 as printed (ObjectNet differs for 4 of 5 models) would change the verdict, the
  evidence says so.
* **Average OOD accuracy after fine-tuning** is the pretrained average plus the mRI (the identity
  in Fig. 8's caption, exact for Eq. 1).
* **"Similar".** Two average accuracies are called similar when they differ by less than 5 points;
  "much less degradation" means less than half the other model's loss.
* **Unprinted data.** Claims resting only on curves or matrices the text does not print (Figs. 5-7,
  10, 12-14) are `not_checkable`; the evidence names what would be needed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pandas as pd

from ..claims import Claim, Verdict, holds, unverifiable
from .tables import (
    AVG_OOD,
    CONTINUAL,
    IMAGENET,
    METHODS,
    REALISTIC,
    SHORT,
    SUITE,
    average_ood,
    load_table,
    method_by_model,
    model_label,
    pretrained_baseline,
    rank_of,
    select,
    wide,
)

PAPER = "imagenet_rib"
SIMILAR_POINTS = 5.0
WEB = ("OpenAI", "LAION-2B")


@functools.lru_cache(maxsize=None)
def _t(artefact: str) -> pd.DataFrame:
    return load_table(artefact)


def _fmt(values: pd.Series | dict, digits: int = 1) -> str:
    items = values.items() if hasattr(values, "items") else values
    return ", ".join(f"{k} {v:.{digits}f}" for k, v in items)


def _majority(count: int, total: int) -> bool:
    return count * 2 > total


@functools.lru_cache(maxsize=None)
def _table3() -> pd.DataFrame:
    """Table 3 as methods × models (mRI)."""
    return method_by_model(_t("table03"))


def _imagenet_models(matrix: pd.DataFrame) -> list[str]:
    return [m for m in matrix.columns if not any(m.endswith(w) for w in WEB)]


@functools.lru_cache(maxsize=None)
def _pretrained_avg() -> pd.Series:
    """Table 17: mean accuracy over D per model ('<arch> <pretraining>')."""
    avg = average_ood(_t("table17"))
    return pd.Series(avg["mean"].values, index=[model_label(a, p) for a, p in zip(avg["architecture"], avg["pretraining"])])


def _table1_avg() -> pd.Series:
    avg = average_ood(_t("table01"))
    return pd.Series(avg["mean"].values, index=list(avg["pretraining"]))


# ---------------------------------------------------------------------------------------------
# Abstract and introduction.

def _ft_reduces_everywhere() -> Verdict:
    ft = _table3().loc["FT"]
    extra = {model_label(a, p): select(_t(t), architecture=a, pretraining=p, method="FT", metric="mRI")["value"].item()
             for t, a, p in (("table23", "ViT-B/16", "IN-1K + SAM"), ("table23", "ViT-B/32", "IN-1K + SAM"),
                             ("table26", "ViT-B/16", "IN-21K-P"))}
    allft = pd.concat([ft, pd.Series(extra)])
    not_negative = allft[allft >= 0]
    return holds(not_negative.empty,
                 f"vanilla FT mRI < 0 for {int((allft < 0).sum())} of {len(allft)} models (Tables 3, 23, 26); "
                 f"not below zero: {_fmt(not_negative)} (Fig. 4's caption itself says IN-1K + AugReg improves)")


def _continual_helps() -> Verdict:
    t3 = _table3()
    parts, better, total = [], 0, 0
    for m in CONTINUAL:
        wins = t3.loc[m] > t3.loc["FT"]
        better += int(wins.sum())
        total += len(wins)
        losers = [c for c in t3.columns if not wins[c]]
        parts.append(f"{m} > FT in {int(wins.sum())} of {len(wins)} models" + (f" (not: {', '.join(losers)})" if losers else ""))
    return holds(_majority(better, total), "Table 3 mRI: " + "; ".join(parts))


def _after_ft(arch: str) -> pd.DataFrame:
    t3 = _table3()
    models = [c for c in t3.columns if c.startswith(arch + " ")]
    before = _pretrained_avg().reindex(models)
    return pd.DataFrame({"before": before, "mRI": t3.loc["FT", models], "after": before + t3.loc["FT", models]})


def _largest_worst() -> Verdict:
    lines, ok = [], True
    for arch in ("ViT-B/16", "ViT-B/32"):
        frame = _after_ft(arch).dropna(subset=["before"])
        laion = frame.loc[f"{arch} LAION-2B"]
        imagenet = frame.loc[[m for m in frame.index if not any(m.endswith(w) for w in WEB)]]
        ok &= bool((laion["mRI"] < imagenet["mRI"]).all() and (laion["after"] < imagenet["after"]).all())
        lines.append(f"{arch}: LAION-2B FT mRI {laion['mRI']:.1f}, OOD after {laion['after']:.1f} (before "
                     f"{laion['before']:.1f}) vs ImageNet-pretrained " + "; ".join(
                         f"{m.split(' ', 1)[1]} mRI {r.mRI:.1f} after {r.after:.1f}" for m, r in imagenet.iterrows()))
    web = _after_ft("ViT-B/16")
    lines.append(f"OpenAI ViT-B/16 ends lower still ({web.loc['ViT-B/16 OpenAI', 'after']:.1f}); with Linear Probing, "
                 f"LAION-2B keeps the highest OOD average "
                 f"({_pretrained_avg()['ViT-B/16 LAION-2B'] + _table3().loc['Linear Probing', 'ViT-B/16 LAION-2B']:.1f})")
    lines.append("after = Table 17 mean over D + Table 3 mRI; ViT-B/32 IN-1K + AugReg has no Table 17 row")
    return holds(ok, "; ".join(lines))


def _figure02_forgetting() -> Verdict:
    laion = select(_t("table27"), architecture="ViT-B/16", method="FT", finetune_dataset="ImageNet-R")["value"].item()
    in21k = select(_t("table24"), architecture="ViT-B/16", method="FT", finetune_dataset="ImageNet-R")["value"].item()
    augreg_mri = _table3().loc["FT", "ViT-B/16 IN-21K + AugReg"]
    return holds(laion < in21k and laion < augreg_mri,
                 f"RI after FT on ImageNet-R: LAION-2B {laion:.1f} (Table 27) vs IN-21K {in21k:.1f} (Table 24); "
                 f"IN-21K + AugReg's RI is in Table 25, whose body is not in the text (its FT mRI over all D_FT is "
                 f"{augreg_mri:.1f}, Table 3)")


def _figure02_similar_start() -> Verdict:
    others = [d for d in SUITE if d != "ImageNet-R"]
    means = {p: np.mean([v for d, v in pretrained_baseline("table17", "ViT-B/16", p).items() if d in others])
             for p in ("LAION-2B", "IN-21K + AugReg", "IN-21K")}
    gap = means["LAION-2B"] - means["IN-21K + AugReg"]
    return holds(abs(gap) < SIMILAR_POINTS,
                 f"Table 17 mean over D minus ImageNet-R: LAION-2B {means['LAION-2B']:.1f}, IN-21K + AugReg "
                 f"{means['IN-21K + AugReg']:.1f} (gap {gap:.1f} < {SIMILAR_POINTS:g}: similar); Fig. 2's caption says "
                 f"'IN-21K', whose mean is {means['IN-21K']:.1f} (gap {means['LAION-2B'] - means['IN-21K']:.1f})")


def _laion100m_spared() -> Verdict:
    t05 = select(_t("table05"), method="FT").set_index("pretraining")["value"]
    small = t05["LAION-100M"]
    ok = all(abs(small) < abs(t05[p]) / 2 for p in ("LAION-400M", "LAION-2B"))
    openai = select(_t("table08"), architecture="ViT-B/32", pretraining="OpenAI", method="FT")["value"].item()
    return holds(ok, f"ViT-B/32 zero-shot FT mRI (Table 5): {_fmt(t05)}; LAION-100M loses less than half of either "
                     f"larger model (still a loss of {abs(small):.1f} points); OpenAI (Table 8) {openai:.1f}")


def _soup_best_imagenet() -> Verdict:
    t3 = _table3()
    models = _imagenet_models(t3)
    best = [m for m in models if rank_of(t3[m], "MS:PRE-FT-EWC-LwF") == 1]
    winners = {m: t3[m].idxmax() for m in models if m not in best}
    return holds(_majority(len(best), len(models)),
                 f"MS:PRE-FT-EWC-LwF has the highest mRI (ties included) for {len(best)} of {len(models)} "
                 f"ImageNet-pretrained models in Table 3; otherwise: " + "; ".join(f"{m}: {w} {t3.loc[w, m]:.1f} vs MS "
                                                                                 f"{t3.loc['MS:PRE-FT-EWC-LwF', m]:.1f}"
                                                                                 for m, w in winners.items()))


def _lp_best_laion() -> Verdict:
    t3 = _table3()
    models = [m for m in t3.columns if m.endswith("LAION-2B")]
    ok = all(rank_of(t3[m], "Linear Probing") == 1 for m in models)
    return holds(ok, "Table 3 mRI, LAION-2B: " + "; ".join(
        f"{m}: LP {t3.loc['Linear Probing', m]:.1f}, next {t3[m].drop('Linear Probing').max():.1f} "
        f"({t3[m].drop('Linear Probing').idxmax()})" for m in models))


def _continual_less_forgetting() -> Verdict:
    bt = method_by_model(_t("table18"), metric="backward transfer")
    parts, wins, total = [], 0, 0
    for m in CONTINUAL:
        better = bt.loc[m] > bt.loc["FT"]
        wins += int(better.sum())
        total += len(better)
        parts.append(f"{m} > FT in {int(better.sum())} of {len(better)} models")
    ewc_worse = [c for c in bt.columns if bt.loc["EWC", c] <= bt.loc["FT", c]]
    return holds(_majority(wins, total),
                 "Table 18 backward transfer on ImageNet-1K: " + "; ".join(parts)
                 + f"; EWC forgets more than FT for {len(ewc_worse)} models (e.g. ViT-B/16 IN-1K + AugReg "
                 f"{bt.loc['EWC', 'ViT-B/16 IN-1K + AugReg']:.1f} vs {bt.loc['FT', 'ViT-B/16 IN-1K + AugReg']:.1f})")


def _soup_amplifies() -> Verdict:
    t3 = _table3()
    better = t3.loc["MS:PRE-FT-EWC-LwF"] > t3.loc[list(CONTINUAL)].max()
    losers = [c for c in t3.columns if not better[c]]
    return holds(_majority(int(better.sum()), len(better)),
                 f"Table 3: MS:PRE-FT-EWC-LwF mRI above both EWC and LwF for {int(better.sum())} of {len(better)} models; "
                 f"not for " + ", ".join(f"{c} (MS {t3.loc['MS:PRE-FT-EWC-LwF', c]:.1f} vs EWC {t3.loc['EWC', c]:.1f})"
                                         for c in losers))


# ---------------------------------------------------------------------------------------------
# Sec. 4.2.

def _bigger_pretraining_better_start() -> Verdict:
    order = ["IN-1K + AugReg", "IN-21K", "IN-21K + AugReg", "OpenAI", "LAION-2B"]  # Table 1's rows, by dataset size
    t17 = {p: pretrained_baseline("table17", "ViT-B/16", p) for p in order}
    in1k = [t17[p][IMAGENET] for p in order]
    ood = [_pretrained_avg()[f"ViT-B/16 {p}"] for p in order]
    t1 = _table1_avg()
    ok = bool(np.all(np.diff(in1k) > 0) and np.all(np.diff(ood) > 0))
    return holds(ok, "ViT-B/16 (Table 1's models, by pretraining size): ImageNet-1K "
                     + ", ".join(f"{p} {v:.1f}" for p, v in zip(order, in1k))
                     + "; mean over D (Table 17) " + ", ".join(f"{p} {v:.2f}" for p, v in zip(order, ood))
                     + f"; with Table 1's printed ObjectNet column the top two swap (OpenAI {t1['OpenAI']:.2f} > "
                       f"LAION-2B {t1['LAION-2B']:.2f}), so Table 1's own caption ('LAION-2B ... highest') fails as printed")


def _augreg_imagenet_c() -> Verdict:
    a = pretrained_baseline("table17", "ViT-B/16", "IN-21K + AugReg")["ImageNet-C"]
    b = pretrained_baseline("table17", "ViT-B/16", "LAION-2B")["ImageNet-C"]
    return holds(a > b, f"ImageNet-C (Tables 1/17): IN-21K + AugReg {a:.1f}, LAION-2B {b:.1f}")


def _visual_prompt_hurts_in1k() -> Verdict:
    t30 = _t("table30")
    before = pretrained_baseline()[IMAGENET]
    after = {d: select(t30, method="Visual Prompt", finetune_dataset=d, eval_dataset=IMAGENET)["value"].item()
             for d in ("ImageNet-Cartoon", "ImageNet-Drawing", "ImageNet-C")}
    return holds(all(v < before for v in after.values()),
                 f"Table 30, ImageNet-1K after Visual Prompt on the synthetic sets: {_fmt(after)} vs {before:.1f} before")


def _imagenet_c_one_way() -> Verdict:
    t30 = _t("table30")
    base = pretrained_baseline()
    forward, backward = 0, 0
    for m in METHODS:
        forward += all(select(t30, method=m, finetune_dataset="ImageNet-C", eval_dataset=d)["value"].item() > base[d]
                       for d in ("ImageNet-Cartoon", "ImageNet-Drawing"))
        backward += all(select(t30, method=m, finetune_dataset=d, eval_dataset="ImageNet-C")["value"].item() > base["ImageNet-C"]
                        for d in ("ImageNet-Cartoon", "ImageNet-Drawing"))
    ft = {d: select(t30, method="FT", finetune_dataset="ImageNet-C", eval_dataset=d)["value"].item()
          for d in ("ImageNet-Cartoon", "ImageNet-Drawing")}
    back = {d: select(t30, method="FT", finetune_dataset=d, eval_dataset="ImageNet-C")["value"].item()
            for d in ("ImageNet-Cartoon", "ImageNet-Drawing")}
    return holds(_majority(forward, len(METHODS)) and not _majority(backward, len(METHODS)),
                 f"Table 30: fine-tuning on ImageNet-C raises both Cartoon and Drawing for {forward} of {len(METHODS)} "
                 f"methods (FT: {_fmt(ft)}; before {base['ImageNet-Cartoon']:.1f}, {base['ImageNet-Drawing']:.1f}); "
                 f"fine-tuning on Cartoon and on Drawing raises ImageNet-C for {backward} of {len(METHODS)} "
                 f"(FT: {_fmt(back)}; before {base['ImageNet-C']:.1f})")


def _lp_mirrors_ft() -> Verdict:
    t02 = _t("table02")
    ft = select(t02, method="FT", metric="RI").set_index("finetune_dataset")["value"]
    lp = select(t02, method="Linear Probing", metric="RI").set_index("finetune_dataset")["value"]
    same_sign = int((np.sign(ft) == np.sign(lp)).sum())
    smaller = int((lp.abs() < ft.abs()).sum())
    r = float(np.corrcoef(ft, lp)[0, 1])
    return holds(_majority(same_sign, len(ft)) and smaller == len(ft),
                 f"Table 2 RIs: LP has FT's sign on {same_sign} of {len(ft)} D_FT (Pearson r {r:.2f}) and a smaller "
                 f"magnitude on {smaller} of {len(ft)}")


def _soup_best_table2() -> Verdict:
    ri = wide(select(_t("table02"), metric="RI"), "method", "finetune_dataset")
    best = [d for d in ri.columns if rank_of(ri[d], "MS:PRE-FT-EWC-LwF") == 1]
    mri = select(_t("table02"), metric="mRI").set_index("method")["value"].sort_values(ascending=False)
    return holds(_majority(len(best), ri.shape[1]) and mri.index[:2].tolist() == ["MS:PRE-FT-EWC-LwF", "WiSE-FT"],
                 f"Table 2: MS has the highest RI (ties included) on {len(best)} of {ri.shape[1]} D_FT "
                 f"(not on {', '.join(SHORT.get(d, d) for d in ri.columns if d not in best)}); mRI order: "
                 + _fmt(mri.head(3)))


def _soup_top2_imagenet() -> Verdict:
    t3 = _table3()
    models = _imagenet_models(t3)
    ranks = {m: rank_of(t3[m], "MS:PRE-FT-EWC-LwF") for m in models}
    return holds(all(r <= 2 for r in ranks.values()),
                 f"rank of MS:PRE-FT-EWC-LwF by mRI in the {len(models)} ImageNet-pretrained columns of Table 3: "
                 + ", ".join(f"{m} {r}" for m, r in ranks.items()))


def _continual_comparable() -> Verdict:
    t3 = _table3()
    models = _imagenet_models(t3)
    within = [m for m in models if t3.loc[list(CONTINUAL), m].max() >= t3.loc[["LP-FT", "WiSE-FT"], m].min()]
    return holds(_majority(len(within), len(models)),
                 f"Table 3, ImageNet-pretrained models: the better of EWC/LwF reaches at least the weaker of LP-FT/WiSE-FT "
                 f"for {len(within)} of {len(models)} models (criterion for 'comparable'); gaps to WiSE-FT: "
                 + ", ".join(f"{m} {t3.loc[list(CONTINUAL), m].max() - t3.loc['WiSE-FT', m]:+.1f}" for m in models))


def _lp_vp_unchanged() -> Verdict:
    t3 = _table3()
    small = {m: int((t3.loc[m].abs() < 2).sum()) for m in ("Linear Probing", "Visual Prompt")}
    n = t3.shape[1]
    return holds(all(_majority(v, n) for v in small.values()),
                 f"|mRI| < 2 in Table 3: Linear Probing {small['Linear Probing']} of {n} models, Visual Prompt "
                 f"{small['Visual Prompt']} of {n} (Visual Prompt mRIs range {t3.loc['Visual Prompt'].min():.1f} to "
                 f"{t3.loc['Visual Prompt'].max():.1f})")


def _lp_vp_better_laion() -> Verdict:
    t3 = _table3()
    parts, ok = [], True
    for m in [c for c in t3.columns if c.endswith("LAION-2B")]:
        rest = t3[m].drop(["Linear Probing", "Visual Prompt", "LoRA"])
        ok &= bool(t3.loc[["Linear Probing", "Visual Prompt"], m].min() > rest.max())
        parts.append(f"{m}: LP {t3.loc['Linear Probing', m]:.1f}, VP {t3.loc['Visual Prompt', m]:.1f}, LoRA "
                     f"{t3.loc['LoRA', m]:.1f}, best other {rest.max():.1f} ({rest.idxmax()})")
    return holds(ok, "Table 3: " + "; ".join(parts))


def _continual_improve_ood_cells() -> Verdict:
    t30 = _t("table30")
    base = pretrained_baseline()
    parts, up, total = [], 0, 0
    for m in ("EWC", "LwF", "LP-FT", "WiSE-FT", "MS:PRE-FT-EWC-LwF"):
        cells = t30[(t30["method"] == m) & t30["eval_dataset"].isin(SUITE)].dropna(subset=["value"])
        gains = cells["value"].values - cells["eval_dataset"].map(base).values
        up += int((gains > 0).sum())
        total += len(gains)
        parts.append(f"{m} {int((gains > 0).sum())}/{len(gains)}")
    return holds(_majority(up, total), f"Table 30 OOD cells above the pretrained accuracy (Table 17): "
                                       f"{', '.join(parts)}; {up} of {total} in all")


def _renditions_correlate() -> Verdict:
    t30 = _t("table30")
    base = pretrained_baseline()
    group = ("ImageNet-R", "ImageNet-Sketch", "ImageNet-Drawing")
    parts, ok = [], True
    for d in group:
        cells = select(t30, method="FT", finetune_dataset=d)
        gains = {e: cells[cells["eval_dataset"] == e]["value"].item() - base[e] for e in SUITE if e != d}
        inside = np.mean([gains[e] for e in group if e != d])
        outside = np.mean([g for e, g in gains.items() if e not in group])
        ok &= bool(inside > outside)
        parts.append(f"FT on {SHORT[d]}: +{inside:.1f} on the other two vs {outside:+.1f} elsewhere")
    return holds(ok, "Table 30, mean accuracy change (vs Table 17): " + "; ".join(parts))


# ---------------------------------------------------------------------------------------------
# Sec. 4.3-4.4.

def _degradation_grows_with_size() -> Verdict:
    size_rank = {"IN-1K + AugReg": 0, "IN-21K": 1, "IN-21K + AugReg": 1, "OpenAI": 2, "LAION-2B": 3}
    t3 = _table3()
    parts, ok = [], True
    for arch in ("ViT-B/16", "ViT-B/32"):
        models = [(p, t3.loc["FT", f"{arch} {p}"]) for p in size_rank if f"{arch} {p}" in t3.columns]
        for (p1, v1) in models:
            for (p2, v2) in models:
                if size_rank[p1] < size_rank[p2] and not v1 > v2:
                    ok = False
        parts.append(f"{arch} FT mRI: " + ", ".join(f"{p} {v:.1f}" for p, v in models))
    return holds(ok, "; ".join(parts) + " (pretraining sizes: IN-1K 1.3M < IN-21K 14M < OpenAI 400M < LAION-2B 2B; "
                                       "each smaller set must lose less)")


def _web_worse_after_ft() -> Verdict:
    frame = _after_ft("ViT-B/16")
    web = frame.loc[[f"ViT-B/16 {w}" for w in WEB], "after"]
    imagenet = frame.drop(web.index)["after"]
    return holds(bool(web.max() < imagenet.min()),
                 f"ViT-B/16 mean OOD accuracy after FT (Table 17 + Table 3, Fig. 4): {_fmt(frame['after'].rename(lambda s: s.split(' ', 1)[1]))}")


def _in1k_augreg_improves() -> Verdict:
    v = _table3().loc["FT", "ViT-B/16 IN-1K + AugReg"]
    return holds(v > 0, f"Table 3: ViT-B/16 IN-1K + AugReg FT mRI {v:+.1f} (OOD mean {_pretrained_avg()['ViT-B/16 IN-1K + AugReg']:.1f} "
                        f"-> {_pretrained_avg()['ViT-B/16 IN-1K + AugReg'] + v:.1f})")


def _laion400m_beats_2b() -> Verdict:
    t04 = select(_t("table04"), method="FT").set_index("pretraining")["value"]
    return holds(t04["LAION-400M"] > t04["LAION-2B"],
                 f"Table 4, mean OOD accuracy after FT (zero-shot head): {_fmt(t04)}; Table 8 FT mRI LAION-400M "
                 f"{select(_t('table08'), architecture='ViT-B/16', pretraining='LAION-400M', method='FT')['value'].item():.1f} vs "
                 f"LAION-2B {select(_t('table08'), architecture='ViT-B/16', pretraining='LAION-2B', method='FT')['value'].item():.1f}")


def _augreg_similar_to_web() -> Verdict:
    avg = _pretrained_avg()
    a = avg["ViT-B/16 IN-21K + AugReg"]
    gaps = {w: avg[f"ViT-B/16 {w}"] - a for w in WEB}
    t3 = _table3()
    return holds(all(abs(g) < SIMILAR_POINTS for g in gaps.values()),
                 f"Table 17 mean over D: IN-21K + AugReg {a:.1f}, " + ", ".join(f"{w} {avg[f'ViT-B/16 {w}']:.1f} (gap {g:+.1f})"
                                                                                for w, g in gaps.items())
                 + f"; after FT (Table 3): {t3.loc['FT', 'ViT-B/16 IN-21K + AugReg']:.1f} vs "
                 + ", ".join(f"{t3.loc['FT', f'ViT-B/16 {w}']:.1f}" for w in WEB))


def _in21k_starts_degrading() -> Verdict:
    ft = {"IN-21K": _table3().loc["FT", "ViT-B/16 IN-21K"],
          "IN-21K + AugReg": _table3().loc["FT", "ViT-B/16 IN-21K + AugReg"],
          "IN-21K-P": select(_t("table26"), method="FT", metric="mRI")["value"].item()}
    in1k = {"IN-1K + AugReg": _table3().loc["FT", "ViT-B/16 IN-1K + AugReg"],
            "IN-1K + SAM": select(_t("table23"), architecture="ViT-B/16", method="FT", metric="mRI")["value"].item()}
    return holds(all(v < 0 for v in ft.values()) and all(v > 0 for v in in1k.values()),
                 f"ViT-B/16 FT mRI: IN-21K family {_fmt(ft)}; IN-1K family {_fmt(in1k)} (Tables 3, 23, 26)")


def _table5_caption() -> Verdict:
    t05 = select(_t("table05"), method="FT").set_index("pretraining")["value"]
    openai = select(_t("table08"), architecture="ViT-B/32", pretraining="OpenAI", method="FT")["value"].item()
    huge = {p: v for p, v in t05.items() if v < -20}
    return holds("OpenAI" in t05.index and list(huge) == ["OpenAI"],
                 f"Table 5 prints no OpenAI column ({_fmt(t05)}); LAION-400M and LAION-2B are as negative as the "
                 f"ViT-B/32 OpenAI model of Table 8 ({openai:.1f})")


def _b32_similar_start() -> Verdict:
    t09 = _t("table09")
    rows = {p: select(t09, architecture="ViT-B/32", pretraining=p) for p in ("LAION-100M", "LAION-400M", "LAION-2B")}
    avg = {p: r[r["eval_dataset"] == AVG_OOD]["value"].item() for p, r in rows.items()}
    in1k = {p: r[r["eval_dataset"] == IMAGENET]["value"].item() for p, r in rows.items()}
    spread = max(avg.values()) - min(avg.values())
    return holds(spread < SIMILAR_POINTS,
                 f"Table 9, ViT-B/32 zero-shot before fine-tuning: Avg OOD {_fmt(avg)} (spread {spread:.1f}); "
                 f"ImageNet-1K {_fmt(in1k)} (spread {max(in1k.values()) - min(in1k.values()):.1f})")


def _resnet_clip_small_spared() -> Verdict:
    t08 = select(_t("table08"), architecture="ResNet-50")
    ft = select(t08, method="FT").set_index("pretraining")["value"]
    ok = all(abs(ft[p]) < abs(ft["OpenAI"]) / 2 for p in ("CC-12M", "YFCC-15M"))
    cc = t08[t08["pretraining"] == "CC-12M"]["value"].dropna()
    return holds(ok, f"Table 8, ResNet-50 CLIP FT mRI: {_fmt(ft)}; every CC-12M mRI is still negative "
                     f"({cc.min():.1f} to {cc.max():.1f})")


def _in1k_val_collapse() -> Verdict:
    t06 = select(_t("table06"), metric="difference")
    ood = t06[t06["eval_dataset"].isin(SUITE)]
    mean_change = ood.groupby("pretraining", sort=False)["value"].mean()
    web_all_negative = all((ood[ood["pretraining"] == w]["value"] < 0).all() for w in WEB)
    return holds(web_all_negative and mean_change[list(WEB)].max() < -10 and mean_change.drop(list(WEB)).min() > -2,
                 f"Table 6, mean change over D after fine-tuning on ImageNet-1K val: {_fmt(mean_change)}")


# ---------------------------------------------------------------------------------------------
# Appendix.

def _cartoon_beats_drawing() -> Verdict:
    t30 = _t("table30")
    pairs = {m: (select(t30, method=m, finetune_dataset="ImageNet-Cartoon", eval_dataset=IMAGENET)["value"].item(),
                 select(t30, method=m, finetune_dataset="ImageNet-Drawing", eval_dataset=IMAGENET)["value"].item())
             for m in METHODS}
    wins = [m for m, (c, d) in pairs.items() if c > d]
    return holds(_majority(len(wins), len(pairs)),
                 f"Table 30 ImageNet-1K after Cartoon vs after Drawing: higher for {len(wins)} of {len(pairs)} methods; "
                 f"not for " + ", ".join(f"{m} ({c:.1f} vs {d:.1f})" for m, (c, d) in pairs.items() if m not in wins))


def _otdd_correlations() -> Verdict:
    t07 = _t("table07")
    lp = t07[t07["method"] == "Linear Probing"]["value"]
    others = t07[t07["method"] != "Linear Probing"]
    strong = t07[t07["method"].isin(["FT", "Visual Prompt"])]
    return holds(bool((others["value"] < 0).all() and (strong["value"] < -0.5).all()),
                 f"Table 7: all {len(others)} non-LP correlations negative (max {others['value'].max():.2f}); FT and Visual "
                 f"Prompt between {strong['value'].min():.2f} and {strong['value'].max():.2f}; LP {', '.join(f'{v:.2f}' for v in lp)}")


def _flyp() -> Verdict:
    t08 = _t("table08")
    small = [("ResNet-50", "CC-12M"), ("ResNet-50", "YFCC-15M")]
    helped = all(select(t08, architecture=a, pretraining=p, method="FLYP")["value"].item()
                 > select(t08, architecture=a, pretraining=p, method="FT")["value"].item() for a, p in small)
    large = t08[(t08["method"] == "FLYP") & ~t08["pretraining"].isin(["CC-12M", "YFCC-15M", "LAION-100M"])]
    return holds(helped and bool((large["value"] < -10).all()),
                 "Table 8 FLYP vs FT: " + "; ".join(
                     f"{a} {p} {select(t08, architecture=a, pretraining=p, method='FLYP')['value'].item():.1f} vs "
                     f"{select(t08, architecture=a, pretraining=p, method='FT')['value'].item():.1f}" for a, p in small)
                 + f"; FLYP on the larger-data models: {large['value'].min():.1f} to {large['value'].max():.1f}")


def _large_clip_degrades() -> Verdict:
    t08 = _t("table08")
    large = t08[~t08["pretraining"].isin(["CC-12M", "YFCC-15M", "LAION-100M"])].dropna(subset=["value"])
    bad = int((large["value"] < -5).sum())
    return holds(_majority(bad, len(large)),
                 f"Table 8, models pretrained on 400M+ images: {bad} of {len(large)} method mRIs below -5 "
                 f"(FT: {', '.join(f'{v:.1f}' for v in select(large, method='FT')['value'])})")


def _split_no_difference() -> Verdict:
    diffs = select(_t("table10"), metric="mRI difference")["value"]
    t10 = select(_t("table10"), metric="mRI", method="FT").set_index("pretraining")["value"]
    t3 = {p: _table3().loc["FT", f"ViT-B/16 {p}"] for p in t10.index}
    same_order = list(t10.sort_values().index) == list(pd.Series(t3).sort_values().index)
    return holds(bool(diffs.abs().median() < 1 and same_order),
                 f"Table 10 differences to Table 3: median |d| {diffs.abs().median():.1f}, largest "
                 f"{diffs.loc[diffs.abs().idxmax()]:+.1f} (LoRA, IN-21K + AugReg: -2.1 -> 1.2, a sign change); FT order of "
                 f"the three pretrainings unchanged: {same_order} ({_fmt(t10)})")


def _eri_negative() -> Verdict:
    t11 = _t("table11")["value"]
    return holds(bool((t11 < 0).all()), f"Table 11: all {len(t11)} mean eRIs negative (max {t11.max():.1f})")


def _eri_laion_worst() -> Verdict:
    ft = select(_t("table11"), method="FT").set_index("pretraining")["value"]
    return holds(ft.idxmin() == "LAION-2B" and ft.drop("LAION-2B").min() - ft["LAION-2B"] > 10, f"Table 11 FT: {_fmt(ft)}")


def _stanford_cars() -> Verdict:
    t12 = _t("table12")
    keep = {}
    for p in dict.fromkeys(t12["pretraining"]):
        before = select(t12, pretraining=p, method="Pretrained", eval_dataset=AVG_OOD)["value"].item()
        after = select(t12, pretraining=p, method="FT", eval_dataset=AVG_OOD)["value"].item()
        keep[p] = after / before
    ok = keep["LAION-100M"] > 0.5 and all(v < 0.25 for p, v in keep.items() if p != "LAION-100M")
    return holds(ok, "Table 12, share of Avg OOD kept after FT on StanfordCars: "
                     + ", ".join(f"{p} {100 * v:.0f}%" for p, v in keep.items()))


def _ninety_percent() -> Verdict:
    ft = select(_t("table19"), method="FT")
    means = ft.groupby("pretraining", sort=False)["value"].mean()
    return holds(bool((means > 90).all()), f"Table 19 FT averages over the 8 fine-tuning sets: {_fmt(means, 2)}")


def _weight_decay() -> Verdict:
    t14 = _t("table14")["value"]
    t3 = _table3()
    smaller = {m: t3.loc["FT", m] for m in t3.columns if m.startswith("ViT-B/16") and not any(m.endswith(w) for w in WEB)}
    return holds(bool(t14.max() < min(smaller.values()) - 10),
                 f"Table 14: {t14.min():.1f} to {t14.max():.1f}; Table 3 ViT-B/16 FT of ImageNet-pretrained models: "
                 + _fmt(pd.Series(smaller).rename(lambda s: s.split(' ', 1)[1])))


def _seeds_small() -> Verdict:
    t15 = _t("table15")
    se = select(t15, metric="mRI standard error")["value"]
    ft = select(t15, method="FT", metric="mRI").set_index("pretraining")["value"]
    gap = ft.drop("LAION-2B").min() - ft["LAION-2B"]
    return holds(bool(se.max() < 0.5 and gap > 10 * se.max()),
                 f"Table 15: largest standard error {se.max():.1f}; FT mean mRI {_fmt(ft)} (gap {gap:.1f})")


def _wise_best_alpha() -> Verdict:
    t16 = _t("table16")
    parts, ok = [], True
    for p in WEB:
        half = select(t16, pretraining=p, setting="alpha = 0.5")["value"].item()
        best = select(t16, pretraining=p, metric="mRI", setting="best alpha")["value"].item()
        alpha = select(t16, pretraining=p, metric="best alpha")["value"].item()
        ok &= best - half > 10 and alpha >= 0.8
        parts.append(f"{p} {half:.1f} -> {best:.1f} at alpha {alpha:.1f}")
    return holds(ok, "Table 16: " + "; ".join(parts) + " (Eq. 3: alpha weights the pretrained model)")


def _bigger_arch_better() -> Verdict:
    pre = "IN-21K + AugReg"
    in1k = {a: pretrained_baseline("table17", a, pre)[IMAGENET] for a in ("ViT-S/32", "ViT-B/32", "ViT-S/16", "ViT-B/16", "ViT-L/16")}
    ood = {a: _pretrained_avg()[f"{a} {pre}"] for a in in1k}
    pairs = [("ViT-S/16", "ViT-B/16"), ("ViT-B/16", "ViT-L/16"), ("ViT-S/32", "ViT-B/32"),  # larger network
             ("ViT-B/32", "ViT-B/16"), ("ViT-S/32", "ViT-S/16")]                           # smaller patches
    ok = all(in1k[a] < in1k[b] and ood[a] < ood[b] for a, b in pairs)
    return holds(ok, f"Table 17, {pre}: ImageNet-1K {_fmt(in1k)}; mean over D {_fmt(ood)}; compared pairs differ in one "
                     f"factor (size or patch)")


def _lwf_best_bt() -> Verdict:
    bt = method_by_model(_t("table18"), metric="backward transfer")
    best = {m: bt[m].idxmax() for m in bt.columns}
    lwf = [m for m, b in best.items() if rank_of(bt[m], "LwF") == 1]
    web = [m for m in bt.columns if any(m.endswith(w) for w in WEB)]
    lp_wins = all(bt.loc["Linear Probing", m] > bt.loc["LwF", m] for m in web)
    return holds(_majority(len(lwf), len(best)) and lp_wins,
                 f"Table 18: LwF best for {len(lwf)} of {len(best)} models; LP > LwF for all {len(web)} OpenAI/LAION-2B "
                 f"models: {lp_wins}; other winners: " + ", ".join(f"{m}: {b}" for m, b in best.items() if m not in lwf))


def _finetune_fit(artefact: str, top: tuple[str, ...], bottom: tuple[str, ...]) -> Callable[[], Verdict]:
    def assess() -> Verdict:
        acc = _t(artefact)
        cells = acc.groupby(["pretraining", "architecture", "finetune_dataset"], sort=False)
        highest = cells.apply(lambda c: set(c.loc[c["value"] == c["value"].max(), "method"]), include_groups=False)
        lowest = cells.apply(lambda c: set(c.loc[c["value"] == c["value"].min(), "method"]), include_groups=False)
        n = len(highest)
        top_n = int(sum(bool(h & set(top)) for h in highest))
        bottom_n = int(sum(bool(lo & set(bottom)) for lo in lowest))
        counts = pd.Series([m for lo in lowest for m in lo]).value_counts()
        return holds(_majority(top_n, n) and _majority(bottom_n, n),
                     f"{artefact}, per (model, fine-tuning set): highest is {' or '.join(top)} in {top_n} of {n}; lowest is "
                     f"{' or '.join(bottom)} in {bottom_n} of {n} (lowest by method: {_fmt(counts, 0)})")
    return assess


def _learners_and_non_learners() -> Verdict:
    frames = [_t(a) for a in ("table19", "table20", "table21")]
    acc = pd.concat(frames, ignore_index=True)
    mean = acc.groupby("method")["value"].mean()
    t17 = _t("table17")
    gains = []
    for (arch, pre), block in acc.groupby(["architecture", "pretraining"], sort=False):
        base = select(t17, architecture=arch, pretraining=pre)
        if base.empty:
            continue
        before = dict(zip(base["eval_dataset"], base["value"]))
        for m in ("Visual Prompt", "LoRA"):
            rows = block[block["method"] == m]
            if len(rows):
                gains.append((m, float(np.mean(rows["value"].values - rows["eval_dataset"].map(before).values))))
    gain = pd.DataFrame(gains, columns=["method", "gain"]).groupby("method")["gain"].mean()
    ok = (mean[["FT", "LwF", "LP-FT"]].min() > mean[["WiSE-FT", "MS:PRE-FT-EWC-LwF"]].max()
          and mean[["WiSE-FT", "MS:PRE-FT-EWC-LwF"]].min() > mean[["Visual Prompt", "LoRA"]].max())
    return holds(bool(ok), f"Tables 19-21, mean fine-tuning-set accuracy: {_fmt(mean.reindex(METHODS).dropna())}; Visual "
                           f"Prompt/LoRA gain over the pretrained accuracy on the same set (Table 17 models): {_fmt(gain)}")


def _robust_methods_realistic() -> Verdict:
    tables = [t for t in ("table22", "table23", "table24", "table26")]
    checked, held, fails = 0, 0, []
    for t in tables:
        frame = _t(t)
        frame = frame[(frame["metric"] == "RI") & frame["finetune_dataset"].isin(REALISTIC)]
        for (arch, pre, d), cell in frame.groupby(["architecture", "pretraining", "finetune_dataset"], sort=False):
            values = cell.set_index("method")["value"]
            checked += 1
            if values[["WiSE-FT", "MS:PRE-FT-EWC-LwF"]].max() >= values.max():
                held += 1
            else:
                fails.append(f"{arch} {pre} on {SHORT[d]} ({values.idxmax()} {values.max():.1f})")
    return holds(held == checked,
                 f"Tables 22-24, 26 (Table 25 not in the text), realistic D_FT: WiSE-FT or MS has the highest RI in "
                 f"{held} of {checked} cells; exceptions include {'; '.join(fails[:6])}")


def _lp_best_web_ri() -> Verdict:
    checked, held, fails, mri_ok = 0, 0, [], 0
    for t in ("table27", "table28"):
        frame = _t(t)
        for (arch, pre), block in frame.groupby(["architecture", "pretraining"], sort=False):
            mri = select(block, metric="mRI").set_index("method")["value"]
            mri_ok += rank_of(mri, "Linear Probing") == 1
            for d, cell in select(block, metric="RI").groupby("finetune_dataset", sort=False):
                values = cell.set_index("method")["value"]
                checked += 1
                if rank_of(values, "Linear Probing") == 1:
                    held += 1
                else:
                    fails.append(f"{arch} {pre} {SHORT[d]}: {values.idxmax()} {values.max():.1f} vs LP "
                                 f"{values['Linear Probing']:.1f}")
    return holds(held == checked,
                 f"Tables 27-28: LP has the best mRI in {mri_ok} of 4 blocks, the best RI in {held} of {checked} "
                 f"(block, D_FT) cells; not in: {'; '.join(fails)}")


def _dash(reason: str) -> Callable[[], Verdict]:
    return lambda: unverifiable(reason)


def claims() -> list[Claim]:
    """Every claim of the paper that its printed numbers bear on, in reading order."""
    def c(claim_id: str, section: str, text: str, artefacts: tuple[str, ...], assess: Callable[[], Verdict]) -> Claim:
        return Claim(PAPER, claim_id, section, text, artefacts, assess)

    return [
        c("ft-reduces-robustness", "Abstract",
          "Fine-tuning reduces robustness across pretrained models.", ("table03", "table23", "table26"), _ft_reduces_everywhere),
        c("continual-learning-helps", "Abstract; Sec. 1",
          "Continual learning methods (EWC, LwF) help: they preserve robustness better than vanilla fine-tuning.",
          ("table03",), _continual_helps),
        c("largest-pretraining-worst", "Abstract; Sec. 1 contribution 1; Sec. 5",
          "Models pretrained on the largest, most diverse datasets (LAION-2B) show larger robustness losses and lower "
          "absolute robustness after fine-tuning than models pretrained on smaller datasets.",
          ("table03", "table17", "figure04"), _largest_worst),
        c("figure02-laion-forgets", "Sec. 1; Fig. 2",
          "ViT-B/16 LAION-2B forgets far more on the OOD datasets after fine-tuning on ImageNet-R than the ImageNet-21K "
          "(AugReg) model.", ("figure02", "table24", "table27", "table03"), _figure02_forgetting),
        c("figure02-similar-start", "Sec. 1; Fig. 2",
          "LAION-2B and ImageNet-21K + AugReg ViT-B/16 have similar OOD performance before fine-tuning.",
          ("figure02", "table17"), _figure02_similar_start),
        c("figure02-in21k-sketch", "Sec. 1",
          "After fine-tuning on ImageNet-R, the ImageNet-21K model improves on ImageNet-Sketch.", ("figure02",),
          _dash("needs the per-dataset accuracies after fine-tuning IN-21K(+AugReg) on ImageNet-R (Tables S3/S5, not "
                "in the text); Fig. 2's bars are not printed")),
        c("laion100m-spared", "Sec. 1; Sec. 4.4; Table 5",
          "The problem occurs for LAION-400M (and LAION-2B) pretraining but not for LAION-100M (ViT-B/32 CLIP).",
          ("table05", "table08"), _laion100m_spared),
        c("soup-best-overall", "Sec. 1",
          "Regularisation-based continual learning combined with model soup (MS:PRE-FT-EWC-LwF) performs best in the "
          "benchmark (the same sentence gives LAION-2B models to linear probing, so assessed on ImageNet-pretrained models).",
          ("table03",), _soup_best_imagenet),
        c("lp-best-laion", "Sec. 1; Sec. 4.2",
          "Linear probing performs best with LAION-2B pretrained models.", ("table03",), _lp_best_laion),
        c("continual-less-forgetting", "Sec. 1",
          "Continual learning methods mitigate catastrophic forgetting of the pretraining data (ImageNet-1K) compared "
          "with vanilla fine-tuning.", ("table18",), _continual_less_forgetting),
        c("soup-amplifies-continual", "Sec. 1 contribution 3; Sec. 5",
          "The improvement from regularisation-based continual learning is amplified when combined with robust "
          "fine-tuning (model soup).", ("table03",), _soup_amplifies),
        c("bigger-pretraining-better-start", "Sec. 4.2; Table 1 caption; Sec. 4.3; App. J.1",
          "Models pretrained on larger, more diverse datasets perform better on ImageNet-1K and on the OOD datasets "
          "before fine-tuning (LAION-2B highest).", ("table01", "table17"), _bigger_pretraining_better_start),
        c("augreg-imagenet-c", "Sec. 4.2",
          "ImageNet-21K + AugReg beats LAION-2B on ImageNet-C before fine-tuning.", ("table01", "table17"), _augreg_imagenet_c),
        c("continual-robust-improve-ood", "Sec. 4.2",
          "Continual learning and robust fine-tuning methods generally improve accuracy on most OOD datasets after fine-tuning.",
          ("table30",), _continual_improve_ood_cells),
        c("lp-mirrors-ft", "Sec. 4.2",
          "Linear probing shows the same increase/decrease pattern as vanilla fine-tuning, with smaller magnitude.",
          ("table02", "table30"), _lp_mirrors_ft),
        c("visual-prompt-hurts-in1k", "Sec. 4.2",
          "Visual Prompt lowers ImageNet-1K accuracy after fine-tuning on the synthetic datasets made from its validation set.",
          ("table30",), _visual_prompt_hurts_in1k),
        c("renditions-correlate", "Sec. 4.2",
          "ImageNet-R, ImageNet-Sketch and ImageNet-Drawing are strongly related: fine-tuning on one helps the others.",
          ("table30",), _renditions_correlate),
        c("imagenet-c-one-way", "Sec. 4.2",
          "Fine-tuning on ImageNet-C improves the other synthetic datasets, but not vice versa.", ("table30", "table31"),
          _imagenet_c_one_way),
        c("soup-best-table2", "Sec. 4.2",
          "For ViT-B/16 IN-1K + AugReg, MS:PRE-FT-EWC-LwF has the highest RI on most datasets, followed by WiSE-FT.",
          ("table02",), _soup_best_table2),
        c("soup-top2-imagenet", "Sec. 4.2",
          "MS:PRE-FT-EWC-LwF has the highest or second-highest mRI for every backbone pretrained on ImageNet data.",
          ("table03",), _soup_top2_imagenet),
        c("continual-comparable", "Sec. 4.2",
          "End-to-end continual learning methods perform comparably to LP-FT and WiSE-FT.", ("table03",), _continual_comparable),
        c("lp-vp-unchanged", "Sec. 4.2",
          "The robustness of linear probing and Visual Prompt remains relatively unchanged.", ("table03",), _lp_vp_unchanged),
        c("lp-vp-better-laion", "Sec. 4.2",
          "Linear probing and Visual Prompt do much better than the other methods with LAION-2B pretrained models.",
          ("table03",), _lp_vp_better_laion),
        c("degradation-grows-with-size", "Sec. 4.3; Fig. 4",
          "Robustness degradation (vanilla FT) grows with the size and diversity of the pretraining dataset.",
          ("table03", "figure04"), _degradation_grows_with_size),
        c("web-worse-after-ft", "Sec. 4.3; Fig. 4 caption",
          "After vanilla FT, LAION-2B and OpenAI ViT-B/16 models are less robust in absolute terms than those pretrained "
          "on ImageNet data (including IN-1K + AugReg).", ("figure04", "table03", "table17"), _web_worse_after_ft),
        c("in1k-augreg-improves", "Fig. 4 caption; Fig. 8 caption",
          "The ImageNet-1K + AugReg model gains robustness from vanilla fine-tuning.", ("figure04", "figure08", "table03"),
          _in1k_augreg_improves),
        c("laion400m-beats-2b", "Sec. 4.3; Table 4 caption; App. C",
          "With a zero-shot head, LAION-400M ends up more robust than LAION-2B after vanilla FT (19.0 vs 16.1).",
          ("table04", "table08"), _laion400m_beats_2b),
        c("augreg-similar-start", "Sec. 4.3",
          "ImageNet-21K + AugReg models have similar initial robustness to OpenAI/LAION-2B models.", ("table17", "figure04"),
          _augreg_similar_to_web),
        c("in21k-begins-degrading", "Sec. 4.3",
          "ImageNet-21K and its variants begin to lose robustness under vanilla fine-tuning.", ("table03", "table23", "table26"),
          _in21k_starts_degrading),
        c("table05-only-openai", "Table 5 caption",
          "Only the OpenAI pretrained ViT-B/32 has a hugely negative mRI.", ("table05", "table08"), _table5_caption),
        c("b32-similar-start", "Sec. 4.4",
          "The LAION-100M, LAION-400M and LAION-2B ViT-B/32 CLIPs have similar performance before fine-tuning.",
          ("table09",), _b32_similar_start),
        c("resnet-clip-small-spared", "Sec. 4.4; App. C",
          "ResNet-50 CLIPs pretrained on CC-12M and YFCC-15M stay robust, while the OpenAI one degrades sharply.",
          ("table08",), _resnet_clip_small_spared),
        c("overfitting-not-cause", "Sec. 4.4; Fig. 5",
          "Overfitting does not drive the collapse: OpenAI/LAION-2B learn the fine-tuning sets more slowly yet lose "
          "robustness early.", ("figure05",),
          _dash("Fig. 5's training curves are not printed; only their end points follow from Table 19 (fine-tuning-set "
                "accuracy) and Tables 3/17 (OOD)")),
        c("in1k-val-collapse", "Sec. 4.4; Table 6",
          "Fine-tuning on the ImageNet-1K validation set also collapses the robustness of OpenAI and LAION-2B models.",
          ("table06",), _in1k_val_collapse),
        c("small-finetune-set", "Sec. 4.4; Fig. 6; App. D; Fig. 12",
          "Fine-tuning on small subsets degrades both in- and out-of-distribution accuracy; dataset size is a major determinant.",
          ("figure06", "figure12"),
          _dash("Figs. 6 and 12 are not printed; only their dashed reference lines (Tables 9/17) are")),
        c("cka-fc2", "Sec. 4.5; Fig. 7",
          "OpenAI/LAION-2B models show larger CKA shifts, notably in block 6 mlp.fc2.", ("figure07", "figure14"),
          _dash("the CKA values of Figs. 7 and 14 are not printed")),
        c("cartoon-beats-drawing", "App. B.1",
          "Fine-tuning on ImageNet-Cartoon improves ImageNet-1K accuracy more than ImageNet-Drawing.", ("table30",),
          _cartoon_beats_drawing),
        c("otdd-negative-correlation", "App. B.2; Table 7 caption",
          "ImageNet-1K accuracy correlates negatively with OTDD for all methods except linear probing; FT and Visual "
          "Prompt strongly (< -0.5).", ("table07", "figure11"), _otdd_correlations),
        c("flyp-small-only", "App. C",
          "FLYP helps ResNet-50 CLIPs pretrained on small datasets but does not fix the problem for the others.",
          ("table08",), _flyp),
        c("large-clip-degrades", "App. C",
          "Most fine-tuning methods, including vanilla FT, degrade robustness significantly for CLIPs pretrained on large data.",
          ("table08",), _large_clip_degrades),
        c("split-no-difference", "App. E",
          "With a train/validation split, mRI does not differ significantly from Table 3.", ("table10", "table03"),
          _split_no_difference),
        c("eri-all-negative", "App. F",
          "All mean effective-robustness improvements are negative.", ("table11",), _eri_negative),
        c("eri-laion-worst", "App. F",
          "Even in effective robustness, LAION-2B with FT does much worse than the others.", ("table11",), _eri_laion_worst),
        c("stanford-cars", "App. G",
          "After fine-tuning on StanfordCars, LAION-100M keeps its OOD accuracy while the larger-data CLIPs collapse.",
          ("table12",), _stanford_cars),
        c("ninety-percent", "App. H.3",
          "Every ViT-B/16 model reaches more than 90% average accuracy on the fine-tuning sets with vanilla FT in 10 epochs.",
          ("table19",), _ninety_percent),
        c("small-lr", "App. I.1; Fig. 13",
          "Even with smaller learning rates, LAION-2B's mRI stays far below the IN-21K + AugReg baseline (-5.5).",
          ("figure13", "table03"),
          _dash("Fig. 13's curves are not printed (the text also says 'higher' where the caption says 'much lower')")),
        c("weight-decay", "App. I.2",
          "Across all weight decays, LAION-2B's mRI is far below that of ViT-B/16 models pretrained on smaller datasets.",
          ("table14", "table03"), _weight_decay),
        c("seeds-stable", "App. I.3",
          "Standard errors over three seeds are very small, and the LAION-2B vs ImageNet gap under FT remains massive.",
          ("table15",), _seeds_small),
        c("wise-best-alpha", "App. I.4",
          "WiSE-FT with OpenAI/LAION-2B is much better at the best ratio, which relies minimally on the fine-tuned weights.",
          ("table16",), _wise_best_alpha),
        c("bigger-architecture-better", "App. J.1",
          "Larger networks with smaller patches reach higher ImageNet-1K and OOD accuracy.", ("table17",), _bigger_arch_better),
        c("lwf-best-backward-transfer", "App. J.2",
          "LwF has the best backward transfer for most models; linear probing beats it for OpenAI and LAION-2B.",
          ("table18",), _lwf_best_bt),
        c("learners-and-non-learners", "App. J.3",
          "FT, LwF and LP-FT fit the fine-tuning sets best, WiSE-FT and model soup less, Visual Prompt and LoRA barely learn.",
          ("table19", "table20", "table21", "table17"), _learners_and_non_learners),
        c("table19-caption", "Table 19 caption",
          "FT and LP-FT generally reach the highest fine-tuning-set accuracy, Visual Prompt and LoRA the lowest (ViT-B/16).",
          ("table19",), _finetune_fit("table19", ("FT", "LP-FT"), ("Visual Prompt", "LoRA"))),
        c("table20-caption", "Table 20 caption",
          "FT and LP-FT generally reach the highest fine-tuning-set accuracy, Visual Prompt and LoRA the lowest (other ViTs).",
          ("table20",), _finetune_fit("table20", ("FT", "LP-FT"), ("Visual Prompt", "LoRA"))),
        c("table21-caption", "Table 21 caption",
          "FT and LP-FT generally reach the highest fine-tuning-set accuracy, while EWC shows the lowest (ResNets).",
          ("table21",), _finetune_fit("table21", ("FT", "LP-FT"), ("EWC",))),
        c("robust-methods-realistic", "App. J.4",
          "Across ImageNet-pretrained models, WiSE-FT and model soup consistently have the best RI when fine-tuning on "
          "realistic OOD datasets.", ("table22", "table23", "table24", "table25", "table26"), _robust_methods_realistic),
        c("lp-best-web-ri", "App. J.4",
          "Linear probing consistently achieves the best robustness improvement with LAION-2B and OpenAI CLIP models.",
          ("table27", "table28"), _lp_best_web_ri),
    ]


def claims_for(artefact: str) -> list[Claim]:
    """The claims that rest on `artefact`."""
    return [c for c in claims() if artefact in c.artefacts]


def format_ledger(frame: pd.DataFrame) -> str:
    """A ledger frame as plain text: one block per claim (verdict, section, claim, evidence)."""
    return "\n\n".join(f"[{r.verdict}] {r.claim_id} ({r.section})\n  {r.claim}\n  evidence: {r.evidence}"
                       for r in frame.itertuples())

