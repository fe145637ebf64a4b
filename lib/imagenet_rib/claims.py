"""Claims ledger of imagenet_rib: the tables the claims file (`lib/published/imagenet_rib/claims.yaml`)
judges, and the few assessors no shared predicate of `lib.claims` fits, registered by claim id.

Every frame has the tidy schema of `tables.COLUMNS` plus `model` ('<architecture> <pretraining>').
Besides the printed tables (`table01` …) the claims file may name these derived views:

* `table01_mean`, `table17_mean`: the table plus one row per model with `eval_dataset` "mean over D"
  (the mean of the eight datasets of D, as Table 1's caption and Fig. 4 use it).
* `ood_after_ft`: per model and method of Table 3, `metric` `before` (Table 17's mean over D), `mRI`
  and `after` (= before + mRI, the identity of Fig. 8's caption, exact for Eq. 1).
* `mri_all_models`: Table 3's mRIs plus those of the models only Tables 23 and 26 print
  (ViT-B/16 and ViT-B/32 IN-1K + SAM, ViT-B/16 IN-21K-P).
* `ri_imagenet_models` (Tables 22-24, 26; Table 25's rows are not in our text) and `ri_web_models`
  (Tables 27-28): the per-D_FT RI tables of App. J.4 stacked.
* `table30_change`: Table 30's accuracies after fine-tuning minus the pretrained accuracy (Table 17).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..claims import Claim, OurRun, Tables, Verdict, findings_of, holds, load_claims, numbers, seed_run
from ..claims import claims_for as _claims_for
from ..findings import Findings
from .tables import (
    AVG_OOD,
    METHODS,
    SHORT,
    SUITE,
    average_ood,
    load_table,
    model_label,
    ood_before_after,
    pretrained_baseline,
    select,
)

if TYPE_CHECKING:
    from .benchmark import BenchmarkSettings

PAPER = "imagenet_rib"
MEAN_OVER_D = "mean over D"
WEB = ("OpenAI", "LAION-2B")


def _with_model(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    out["model"] = [model_label(a, p) for a, p in zip(out["architecture"], out["pretraining"])]
    return out


def _with_mean(artefact: str) -> pd.DataFrame:
    frame = load_table(artefact)
    avg = average_ood(frame[frame["method"] == "Pretrained"]).dropna(subset=["mean"])
    means = avg.assign(eval_dataset=MEAN_OVER_D, metric="accuracy", value=avg["mean"],
                       printed=avg["mean"].map(lambda v: f"{v:.2f}"))
    return pd.concat([frame, means[frame.columns]], ignore_index=True)


def _ood_after_ft() -> pd.DataFrame:
    t03 = load_table("table03")
    wide = ood_before_after(t03[t03["metric"] == "mRI"], load_table("table17"))
    long = wide.melt(id_vars=["architecture", "pretraining", "method"], value_vars=["before", "mRI", "after"],
                     var_name="metric", value_name="value")
    return long.assign(artefact="table03+table17")


def _mri_all_models() -> pd.DataFrame:
    t03 = load_table("table03")
    extra = pd.concat([load_table(t) for t in ("table23", "table26")], ignore_index=True)
    extra = extra[extra["metric"] == "mRI"]
    known = set(zip(t03["architecture"], t03["pretraining"]))
    extra = extra[[(a, p) not in known for a, p in zip(extra["architecture"], extra["pretraining"])]]
    return pd.concat([t03, extra], ignore_index=True)


def _table30_change() -> pd.DataFrame:
    t30 = load_table("table30")
    after = t30[t30["method"] != "Pretrained"].copy()
    after["value"] = after["value"] - after["eval_dataset"].map(pretrained_baseline())
    return after.assign(metric="accuracy change")


DERIVED: dict[str, Callable[[], pd.DataFrame]] = {
    "table01_mean": lambda: _with_mean("table01"),
    "table17_mean": lambda: _with_mean("table17"),
    "ood_after_ft": _ood_after_ft,
    "mri_all_models": _mri_all_models,
    "ri_imagenet_models": lambda: pd.concat([load_table(t) for t in ("table22", "table23", "table24", "table26")],
                                            ignore_index=True),
    "ri_web_models": lambda: pd.concat([load_table(t) for t in ("table27", "table28")], ignore_index=True),
    "table30_change": _table30_change,
}
TABLE_NAMES: tuple[str, ...] = (
    "table01", "table02", "table03", "table04", "table05", "table06", "table07", "table08", "table09", "table10",
    "table11", "table12", "table14", "table15", "table16", "table17", "table18", "table19", "table20", "table21",
    "table22", "table23", "table24", "table26", "table27", "table28", "table30", "table31", *DERIVED,
)


@cache
def _table(name: str) -> pd.DataFrame:
    return _with_model(DERIVED[name]() if name in DERIVED else load_table(name))


def table(name: str) -> pd.DataFrame:
    """A printed table or derived view by name, in the tidy schema with a `model` column (a fresh copy)."""
    if name not in TABLE_NAMES:
        raise KeyError(f"unknown imagenet_rib table {name!r}; expected one of {TABLE_NAMES}")
    return _table(name).copy()


def _cell(tables: Tables, name: str, **labels: str) -> float:
    return float(select(tables(name), **labels)["value"].item())


def _mean_without(tables: Tables, pretraining: str, dropped: str) -> float:
    rows = select(tables("table17"), architecture="ViT-B/16", pretraining=pretraining, method="Pretrained")
    return float(rows[rows["eval_dataset"].isin([d for d in SUITE if d != dropped])]["value"].mean())


# ---------------------------------------------------------------------------------------------
# Bespoke assessors: each needs a quantity no shared predicate computes (a mean over a chosen subset,
# a share kept, a median, a cross-table gap).

def _figure02_forgetting(tables: Tables) -> Verdict:
    laion = _cell(tables, "table27", architecture="ViT-B/16", method="FT", finetune_dataset="ImageNet-R")
    in21k = _cell(tables, "table24", architecture="ViT-B/16", method="FT", finetune_dataset="ImageNet-R")
    augreg = _cell(tables, "table03", model="ViT-B/16 IN-21K + AugReg", method="FT")
    return holds(laion < in21k and laion < augreg,
                 f"RI after FT on ImageNet-R: LAION-2B {laion:.1f} (Table 27) vs IN-21K {in21k:.1f} (Table 24); "
                 f"IN-21K + AugReg's RI is in Table 25, whose body is not in the text (its FT mRI over all D_FT is "
                 f"{augreg:.1f}, Table 3)")


def _figure02_similar_start(tables: Tables) -> Verdict:
    means = {p: _mean_without(tables, p, "ImageNet-R") for p in ("LAION-2B", "IN-21K + AugReg", "IN-21K")}
    gap = means["LAION-2B"] - means["IN-21K + AugReg"]
    return holds(abs(gap) < 5, f"Table 17 mean over D without ImageNet-R (Fig. 2's bars): {numbers(means)}; "
                               f"LAION-2B vs IN-21K + AugReg gap {gap:.1f} (< 5: similar); vs IN-21K (Fig. 2's caption) "
                               f"{means['LAION-2B'] - means['IN-21K']:.1f}")


def _lp_mirrors_ft(tables: Tables) -> Verdict:
    t02 = select(tables("table02"), metric="RI")
    ft = t02[t02["method"] == "FT"].set_index("finetune_dataset")["value"]
    lp = t02[t02["method"] == "Linear Probing"].set_index("finetune_dataset")["value"]
    same_sign, smaller = int((np.sign(ft) == np.sign(lp)).sum()), int((lp.abs() < ft.abs()).sum())
    return holds(same_sign * 2 > len(ft) and smaller == len(ft),
                 f"Table 2 RIs: LP has FT's sign on {same_sign} of {len(ft)} D_FT (Pearson r "
                 f"{float(np.corrcoef(ft, lp)[0, 1]):.2f}) and a smaller magnitude on {smaller} of {len(ft)}")


def _renditions_correlate(tables: Tables) -> Verdict:
    change = select(tables("table30_change"), method="FT")
    group = ("ImageNet-R", "ImageNet-Sketch", "ImageNet-Drawing")
    parts, ok = [], True
    for d in group:
        rows = change[(change["finetune_dataset"] == d) & change["eval_dataset"].isin(SUITE) & (change["eval_dataset"] != d)]
        inside = rows[rows["eval_dataset"].isin(group)]["value"].mean()
        outside = rows[~rows["eval_dataset"].isin(group)]["value"].mean()
        ok &= bool(inside > outside)
        parts.append(f"FT on {SHORT[d]}: {inside:+.1f} on the other two vs {outside:+.1f} elsewhere")
    return holds(ok, "Table 30, mean accuracy change (vs Table 17): " + "; ".join(parts))


def _in1k_val_collapse(tables: Tables) -> Verdict:
    diff = select(tables("table06"), metric="difference")
    ood = diff[diff["eval_dataset"].isin(SUITE)]
    mean_change = ood.groupby("pretraining", sort=False)["value"].mean()
    web_all_negative = bool((ood[ood["pretraining"].isin(WEB)]["value"] < 0).all())
    return holds(web_all_negative and mean_change[list(WEB)].max() < -10 and mean_change.drop(list(WEB)).min() > -2,
                 f"Table 6, mean change over D after fine-tuning on ImageNet-1K val: {numbers(mean_change)}; every "
                 f"OpenAI/LAION-2B cell negative: {web_all_negative}")


def _split_no_difference(tables: Tables) -> Verdict:
    t10 = tables("table10")
    diffs = select(t10, metric="mRI difference")["value"]
    ft10 = select(t10, metric="mRI", method="FT").set_index("pretraining")["value"]
    ft3 = pd.Series({p: _cell(tables, "table03", model=f"ViT-B/16 {p}", method="FT") for p in ft10.index})
    same_order = list(ft10.sort_values().index) == list(ft3.sort_values().index)
    largest = select(t10, metric="mRI difference").loc[diffs.abs().idxmax()]
    return holds(bool(diffs.abs().median() < 1 and same_order),
                 f"Table 10 differences to Table 3: median |d| {diffs.abs().median():.1f}, largest {largest['value']:+.1f} "
                 f"({largest['method']}, {largest['pretraining']}); FT order of the pretrainings unchanged: {same_order} "
                 f"({numbers(ft10)})")


def _stanford_cars(tables: Tables) -> Verdict:
    t12 = select(tables("table12"), eval_dataset=AVG_OOD).pivot_table(index="pretraining", columns="method",
                                                                      values="value", sort=False)
    kept = t12["FT"] / t12["Pretrained"]
    return holds(bool(kept["LAION-100M"] > 0.5 and (kept.drop("LAION-100M") < 0.25).all()),
                 "Table 12, share of Avg OOD kept after FT on StanfordCars: "
                 + ", ".join(f"{p} {100 * v:.0f}%" for p, v in kept.items()))


def _ninety_percent(tables: Tables) -> Verdict:
    means = select(tables("table19"), method="FT").groupby("pretraining", sort=False)["value"].mean()
    return holds(bool((means > 90).all()), f"Table 19 FT averages over the 8 fine-tuning sets: {numbers(means, 2)}")


def _weight_decay(tables: Tables) -> Verdict:
    t14 = tables("table14")["value"]
    t03 = select(tables("table03"), architecture="ViT-B/16", method="FT")
    smaller = t03[~t03["pretraining"].isin(WEB)].set_index("pretraining")["value"]
    return holds(bool(t14.max() < smaller.min() - 10),
                 f"Table 14 (LAION-2B): {t14.min():.1f} to {t14.max():.1f}; Table 3 ViT-B/16 FT of ImageNet-pretrained "
                 f"models: {numbers(smaller)} (rule: more than 10 points below the lowest)")


def _seeds_small(tables: Tables) -> Verdict:
    t15 = tables("table15")
    se = select(t15, metric="mRI standard error")["value"]
    ft = select(t15, method="FT", metric="mRI").set_index("pretraining")["value"]
    gap = ft.drop("LAION-2B").min() - ft["LAION-2B"]
    return holds(bool(se.max() < 0.5 and gap > 10 * se.max()),
                 f"Table 15: largest standard error {se.max():.1f}; FT mean mRI {numbers(ft)} (gap {gap:.1f})")


def _wise_best_alpha(tables: Tables) -> Verdict:
    t16 = tables("table16")
    parts, ok = [], True
    for p in WEB:
        half = _cell(tables, "table16", pretraining=p, setting="alpha = 0.5")
        best = _cell(tables, "table16", pretraining=p, metric="mRI", setting="best alpha")
        alpha = float(select(t16, pretraining=p, metric="best alpha")["value"].item())
        ok &= best - half > 10 and alpha >= 0.8
        parts.append(f"{p} {half:.1f} -> {best:.1f} at alpha {alpha:.1f}")
    return holds(ok, "Table 16: " + "; ".join(parts) + " (Eq. 3: alpha weights the pretrained model)")


def _learners_and_non_learners(tables: Tables) -> Verdict:
    acc = pd.concat([tables(a) for a in ("table19", "table20", "table21")], ignore_index=True)
    mean = acc.groupby("method")["value"].mean()
    before = tables("table17").set_index(["model", "eval_dataset"])["value"]
    low = acc[acc["method"].isin(["Visual Prompt", "LoRA"])]
    gain = (low["value"] - before.reindex(list(zip(low["model"], low["eval_dataset"]))).to_numpy()).groupby(low["method"]).mean()
    ok = (mean[["FT", "LwF", "LP-FT"]].min() > mean[["WiSE-FT", "MS:PRE-FT-EWC-LwF"]].max()
          and mean[["WiSE-FT", "MS:PRE-FT-EWC-LwF"]].min() > mean[["Visual Prompt", "LoRA"]].max())
    return holds(bool(ok), f"Tables 19-21, mean fine-tuning-set accuracy: {numbers(mean.reindex(METHODS).dropna())}; "
                           f"Visual Prompt/LoRA gain over the pretrained accuracy on the same set (Table 17 models): "
                           f"{numbers(gain)}")


BESPOKE: dict[str, Callable[[Tables], Verdict]] = {
    "figure02-laion-forgets": _figure02_forgetting,
    "figure02-similar-start": _figure02_similar_start,
    "lp-mirrors-ft": _lp_mirrors_ft,
    "renditions-correlate": _renditions_correlate,
    "in1k-val-collapse": _in1k_val_collapse,
    "split-no-difference": _split_no_difference,
    "stanford-cars": _stanford_cars,
    "ninety-percent": _ninety_percent,
    "weight-decay": _weight_decay,
    "seeds-stable": _seeds_small,
    "wise-best-alpha": _wise_best_alpha,
    "learners-and-non-learners": _learners_and_non_learners,
}


# Our benchmark's rows as the claims file's tables: pretraining regimes stand in the `model` column
# (so claims naming the paper's architectures or pretraining sets select nothing of ours).
OUR_TABLES: dict[str, tuple[str, str]] = {  # table -> (column of the RI/mRI table, metric label)
    "table03": ("mRI", "mRI"),
    "mri_all_models": ("mRI", "mRI"),
    "table18": ("backward transfer", "backward transfer"),
}
TABLE02_REGIMES = ("augmented", "rib_vit_b16_augreg_in1k")  # our stand-in for Table 2's one model

OUR_FINDINGS = ("table03", "table18", "table19", "table30", "table08", "table10", "table11", "table21",
                "figure12", "figure07", "figure05", "figure13")
"""The artefacts whose findings on our run judge a claim of the ledger (`ours: {findings: [...]}`): the main
benchmark's (`ours.JUDGES`), the appendix experiments' (`ours_experiments.EXPERIMENT_PANELS`) and the
representation panels' (`representations.ANALYSES`, with the `analysis` of the artefact's notebook at the tier)."""


def _our_findings(artefact: str, benchmark: tuple[BenchmarkSettings, pd.DataFrame, pd.DataFrame],
                  params: Mapping[str, Any]) -> Findings:
    """The findings the notebook of `artefact` (of `OUR_FINDINGS`) prints: from the benchmark's `(settings,
    accuracies, RI table)`, or from its experiments (`experiments_params`, read back from `results_dir`)."""
    from ..manifest import notebook_params
    from ..params import tier_of
    from .ours import judged
    from .ours_experiments import experiment_findings, has_experiment_panel
    from .representations import ANALYSES, our_representation_panel

    if has_experiment_panel(artefact):
        return experiment_findings(artefact, params["experiments_params"], params["results_dir"])
    if artefact in ANALYSES:
        import matplotlib.pyplot as plt

        analysis = notebook_params(PAPER, artefact, tier_of(params["benchmark_params"]))["analysis"]
        _, fig, findings = our_representation_panel(artefact, params["benchmark_params"], params["results_dir"], analysis)
        plt.close(fig)  # the figure is the artefact's notebook's
        return findings
    return judged(artefact, *benchmark)


def our_run(params: Mapping[str, Any]) -> OurRun:
    """The tier's benchmark (`benchmark_params`, `results_dir`; run or read back) as the tables of
    `OUR_TABLES` and Table 2's RI per fine-tuning set and mRI, each seed a replicate; and the findings of the
    artefacts of `OUR_FINDINGS` (the appendix experiments' from `experiments_params`)."""
    from ..params import tier_of
    from .ours import run_benchmark
    from .pairs import MRI_COLUMN, per_seed, per_seed_ri

    benchmark = run_benchmark(params["benchmark_params"], params["results_dir"])
    settings, acc, ri = benchmark
    frames = {name: per_seed(column, settings, acc, ri).assign(metric=metric)
              for name, (column, metric) in OUR_TABLES.items()}
    t02 = per_seed_ri(TABLE02_REGIMES, settings, acc, ri)
    is_mri = t02["train_dataset"] == MRI_COLUMN
    frames["table02"] = t02.assign(metric=np.where(is_mri, "mRI", "RI"),
                                   finetune_dataset=t02["train_dataset"].where(~is_mri, "")).drop(columns="train_dataset")
    return replace(seed_run(frames, tier_of(params["benchmark_params"])),
                   findings=findings_of(lambda artefact: _our_findings(artefact, benchmark, params)))


def claims() -> tuple[Claim, ...]:
    """Every claim of the paper that its printed numbers bear on, in reading order (from the claims file)."""
    return load_claims(PAPER)


def claims_for(artefact: str) -> list[Claim]:
    """The claims that rest on `artefact` (`lib.claims.claims_for` for this paper)."""
    return _claims_for(PAPER, artefact)
