"""Known answers of the main benchmark's findings (lib.imagenet_rib.ours) on small hand-built frames."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lib.claims import load_claims
from lib.imagenet_rib.benchmark import PRETRAINED, robustness_table
from lib.imagenet_rib.ours import (BEST, CONTINUAL_ROBUST_IMPROVE, JUDGES, LP_MIRRORS_FT, FinetuneSetDraws,
                                   analogue_expectation, backward_findings, before_after_findings, benchmark_draws,
                                   judged, mri_findings, ood_change, ood_change_findings, per_dataset_findings,
                                   regime_contrast_findings)


def mri_table(best_margins: list[float], regime: str = "r1") -> pd.DataFrame:
    """Per seed: FT at -4, LP at -1, Visual Prompt at -5, WiSE-FT at 0 and MS:PRE-FT-EWC-LwF at 0 + margin,
    so MS's margin over the second-highest other method (LP, -1) is 1 + margin."""
    rows = []
    for seed, margin in enumerate(best_margins):
        mri = {"FT": -4.0, "Linear Probing": -1.0, "Visual Prompt": -5.0, "WiSE-FT": 0.0, BEST: margin}
        rows += [{"regime": regime, "seed": seed, "method": m, "mRI": v, "backward transfer": -v} for m, v in mri.items()]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("margins, verdict", [
    ([1.0, 1.2, 0.8], "supported"),            # MS above LP: margin 2 ± 0.5
    ([-3.0, -2.8, -3.2], "contradicted"),      # below LP: margin -2
    ([-2.0, 0.0, 1.5], "not_distinguishable"),  # straddles 0
    ([1.0], "not_checkable"),                   # one seed: no interval
])
def test_mri_rank_of_the_multi_stage_method_is_judged_over_seeds(margins, verdict):
    finding = mri_findings(mri_table(margins))[0]
    assert finding.estimate == pytest.approx(1 + sum(margins) / len(margins))
    assert finding.verdict == verdict
    assert (not finding.interval.defined) == (len(margins) == 1)


def test_linear_probing_steadier_than_ft_and_visual_prompt_not():
    lp, vp = mri_findings(mri_table([1.0, 1.1]))[1:]
    assert lp.estimate == pytest.approx(3.0) and lp.verdict == "supported"  # constant over seeds: a point interval
    assert vp.estimate == pytest.approx(-1.0) and vp.verdict == "contradicted"
    table15 = judged("table15", Settings(), None, mri_table([1.0, 1.1]))  # Table 15 prints no Visual Prompt
    assert [f.quantity.split(": ", 1)[1] for f in table15] == [
        "mRI of MS:PRE-FT-EWC-LwF − second-highest mRI of the other methods", "|mRI of FT| − |mRI of Linear Probing|"]


def test_a_missing_method_makes_the_claim_not_checkable_and_says_so():
    table = mri_table([1.0, 1.2]).query("method != 'LwF'")
    finding = backward_findings(table)[0]
    assert finding.verdict == "not_checkable" and "our run has no LwF" in finding.interval.method


def accuracies(changes: dict[str, list[float]], seeds: int = 2) -> pd.DataFrame:
    """Pretrained at 50 on a, b, c; per method and seed, each fine-tuned model moves every other suite
    set by change[seed] (and reaches 90 on its own set)."""
    rows = []
    for seed in range(seeds):
        rows += [{"regime": "r1", "seed": seed, "method": PRETRAINED, "finetune_dataset": "", "eval_dataset": d,
                  "accuracy": 50.0} for d in "abc"]
        for method, change in changes.items():
            rows += [{"regime": "r1", "seed": seed, "method": method, "finetune_dataset": f, "eval_dataset": d,
                      "accuracy": 90.0 if d == f else 50.0 + change[seed]} for f in "abc" for d in "abc"]
    return pd.DataFrame(rows)


def test_before_after_uses_only_the_methods_asked_for():
    acc = accuracies({"FT": [-3.9, -4.0, -4.1], "WiSE-FT": [7.0, 7.2, 6.8]}, seeds=3)
    ft = ood_change_findings(ood_change(acc, list("abc"), ["FT"]), ["FT"], "vanilla FT")
    both = ood_change_findings(ood_change(acc, list("abc")), ["FT", "WiSE-FT"], "fine-tuning")
    assert len(ft) == 1 and ft[0].estimate == pytest.approx(-4.0) and ft[0].verdict == "supported"
    assert both[0].estimate == pytest.approx(1.5) and both[0].verdict == "contradicted"
    assert ft[0].paper == "no analogue in the paper"  # regime r1 stands for none of the paper's models


def test_each_regime_is_judged_against_its_analogues_printed_change():
    # Table 3, FT: IN-1K ResNet-18 and -50 lose 5.2; IN-1K + AugReg ViT-B/16 +1.3, B/32 -0.0, S/16 -3.2
    assert analogue_expectation("clean", ["FT"], "vanilla FT")[:2] == ("<", 0.0)
    direction, threshold, claim, paper = analogue_expectation("augmented", ["FT"], "vanilla FT")
    assert (direction, threshold) == (">", 0.0) and "improved robustness" in claim  # Figs. 4 and 8's captions
    assert paper == "IN-1K + AugReg, Table 3 mRI: ViT-B/16 +1.3, ViT-B/32 -0.0, ViT-S/16 -3.2"
    # over every method, the mean per architecture (Visual Prompt's -7.4 on ViT-S/16 is averaged in)
    assert analogue_expectation("augmented", ["FT", "Visual Prompt"], "fine-tuning")[3].endswith("ViT-S/16 -5.3")


def test_per_dataset_share_and_magnitude_bootstrap_over_cells():
    acc = accuracies({"EWC": [1.0, 1.0], "LwF": [2.0, 2.0], "FT": [-6.0, -6.0], "Linear Probing": [-1.0, -1.0]})
    share, magnitude = per_dataset_findings(acc, list("abc"))
    assert share.estimate == 1.0 and share.verdict == "supported" and "over 12 cells" in share.interval.method
    assert magnitude.estimate == pytest.approx(-5.0) and magnitude.verdict == "supported"


class Settings:
    suite = list("abc")
    reference_dataset = "p"
    finetuned_on = list("abc")


def test_figure04_and_figure08_findings_are_the_before_after_changes():
    acc = accuracies({"FT": [-3.9, -4.0, -4.1], "WiSE-FT": [7.0, 7.2, 6.8]}, seeds=3)
    ft = judged("figure04", Settings(), acc, pd.DataFrame())
    every = judged("figure08", Settings(), acc, pd.DataFrame())
    assert ft[0].estimate == pytest.approx(-4.0) and "vanilla FT" in ft[0].quantity
    assert every[0].estimate == pytest.approx(1.5) and len(ft) == len(every) == 3  # and the contrast, undefined
    assert before_after_findings(Settings(), acc, ["WiSE-FT"], "WiSE-FT", "")[0].estimate == pytest.approx(7.0)
    assert {"figure04", "figure08"} <= set(JUDGES)


def test_the_augreg_regime_is_judged_against_the_plain_one_on_its_loss_and_its_end():
    richer = accuracies({"FT": [-1.0, -1.1, -0.9]}, seeds=3).assign(
        regime="augmented", accuracy=lambda f: f["accuracy"] + 5.0)  # starts 5 higher (55), loses 1
    clean = accuracies({"FT": [-4.0, -4.2, -3.8]}, seeds=3).assign(regime="clean")
    # the AugReg regime listed first: the contrast is by pretraining, not by order
    loses, ends = regime_contrast_findings(ood_change(pd.concat([richer, clean]), list("abc"), ["FT"]), "FT", "")
    assert "augmented − clean: change of average OOD accuracy" in loses.quantity
    assert loses.estimate == pytest.approx(3.0) and loses.verdict == "supported"  # it loses 1 where clean loses 4
    assert ends.estimate == pytest.approx(8.0) and ends.verdict == "supported"  # ends at 54, clean at 46
    # the full benchmark's ViTs: IN-1K + AugReg first, then larger data; none pretrained on IN-1K alone
    full = pd.concat([richer.assign(regime="rib_vit_b16_augreg_in1k"), clean.assign(regime="rib_vit_b16_orig_in21k")])
    loses, ends = regime_contrast_findings(ood_change(full, list("abc"), ["FT"]), "FT", "")
    assert loses.verdict == ends.verdict == "not_checkable" and "IN-1K alone" in loses.interval.method
    one = judged("figure04", Settings(), clean, pd.DataFrame())
    assert len(one) == 3 and [f.verdict for f in one[1:]] == ["not_checkable"] * 2  # one regime: nothing to contrast


def test_a_registry_regime_is_judged_against_its_own_pretrainings_printed_change():
    direction, threshold, _, paper = analogue_expectation("rib_vit_b16_augreg_in1k", ["FT"], "vanilla FT")
    assert (direction, threshold) == (">", 0.0) and paper.startswith("IN-1K + AugReg, Table 3 mRI: ViT-B/16 +1.3")
    direction, _, _, paper = analogue_expectation("rib_vit_b16_clip_laion2b_ft_in1k", ["FT"], "vanilla FT")
    assert direction == "<" and paper.startswith("LAION-2B, Table 3 mRI: ViT-B/16")


def test_findings_bear_on_the_ledger_claims_judged_by_their_artefact():
    """Each claim id a finding carries is a claim of the ledger that names the finding's artefact
    (`ours: {findings: [...]}`); Fig. 8's findings and Table 3's steadiness findings bear on none."""
    judged_by = {c.claim_id: c.ours_findings for c in load_claims("imagenet_rib")}
    clean = accuracies({"FT": [-4.0, -4.2], "Linear Probing": [-1.0, -1.0], "EWC": [1.0, 1.0]})
    acc = pd.concat([clean, clean.assign(regime="r2")])
    ids = {artefact: [f.claim_id for f in judged(artefact, Settings(), acc, mri_table([1.0, 1.2]))]
           for artefact in ("table03", "table18", "table30", "figure04", "figure08")}
    assert ids["table03"] == ["soup-top2-imagenet", "", ""] and ids["table18"] == ["lwf-best-backward-transfer"]
    assert ids["table30"] == [CONTINUAL_ROBUST_IMPROVE, LP_MIRRORS_FT] * 2
    assert not any(ids["figure04"]) and not any(ids["figure08"])  # our regimes vary no data size
    assert all(artefact in judged_by[i] for artefact, found in ids.items() for i in found if i)


# -- one seed (the full tier): a bootstrap over the fine-tuning sets -----------------------------------------------
def one_seed_accuracies(ri: dict[str, dict[str, float]]) -> pd.DataFrame:
    """One seed, suite a, b, c and the reference set p, every pretrained accuracy 50: a method fine-tuned on set f
    moves every other suite set by ri[method][f] (its RI on f), reaches 80 + ri on f and loses ri on p."""
    rows = [{"regime": "r1", "seed": 0, "method": PRETRAINED, "finetune_dataset": "", "eval_dataset": d,
             "accuracy": 50.0} for d in "abcp"]
    for method, by_set in ri.items():
        rows += [{"regime": "r1", "seed": 0, "method": method, "finetune_dataset": f, "eval_dataset": d,
                  "accuracy": 80.0 + by_set[f] if d == f else 50.0 - by_set[f] if d == "p" else 50.0 + by_set[f]}
                 for f in "abc" for d in "abcp"]
    return pd.DataFrame(rows)


class ShuffledSettings(Settings):
    finetuned_on = list("cab")  # not in the suite's (or any alphabetical) order


def test_the_drawn_rows_of_every_set_once_are_the_tables_rows():
    # methods and sets in orders that neither sorting nor first appearance would line up by accident
    acc = one_seed_accuracies({BEST: {"a": 1.0, "b": 2.0, "c": 6.0}, "FT": {"a": -4.0, "b": -2.0, "c": -9.0}})
    table = robustness_table(acc, list("abc"), "p", finetune_datasets=list("cab")).set_index("method")
    sets, rows = benchmark_draws(ShuffledSettings(), acc).drawn_rows("r1", 0)
    assert sets == list("cab")
    pd.testing.assert_frame_equal(rows(np.arange(3))[table.columns[2:]], table[table.columns[2:]], check_dtype=False)
    twice = rows(np.array([0, 1, 0]))  # c drawn twice: its RI column twice, its terms counted twice
    assert list(twice.columns[:3]) == ["RI c", "RI a", "RI c (2)"]
    assert twice.loc["FT", "mRI"] == pytest.approx((-9 - 4 - 9) / 3)
    assert twice.loc[BEST, "backward transfer"] == pytest.approx(-(6 + 1 + 6) / 3)


def test_table02s_share_counts_a_set_drawn_twice_twice():
    # MS:PRE-FT-EWC-LwF has the highest RI on a and b, not on c: the share over a resample counts repeats
    acc = one_seed_accuracies({"FT": {"a": -4.0, "b": -2.0, "c": 3.0}, BEST: {"a": 1.0, "b": 2.0, "c": 0.5}})
    share = judged("table02", Settings(), acc, robustness_table(acc, list("abc"), "p"))[0]
    assert share.estimate == pytest.approx(2 / 3)
    rng = np.random.default_rng(0)  # bootstrap_interval's draws (seed 0, 2000 resamples): best on a or b, counted
    expected = [np.mean(rng.integers(0, 3, 3) < 2) for _ in range(2000)]
    assert (share.interval.low, share.interval.high) == pytest.approx(tuple(np.percentile(expected, [2.5, 97.5])))


def test_with_one_seed_table_findings_are_judged_over_the_finetuning_sets():
    above = one_seed_accuracies({"FT": {"a": -4.0, "b": -2.0, "c": -9.0}, "Linear Probing": {"a": -1, "b": -1, "c": -1},
                                 "LwF": {"a": -3.0, "b": -1.5, "c": -2.0}, BEST: {"a": 1.0, "b": 2.0, "c": 6.0}})
    table = robustness_table(above, list("abc"), "p")
    soup, lp = judged("table03", Settings(), above, table)[:2]
    # MS (mRI 3) against the second-highest other method, LwF (-6.5 / 3); above it on every set
    assert soup.estimate == pytest.approx(3.0 + 6.5 / 3) and soup.verdict == "supported"
    assert "bootstrap over 3 fine-tuning sets" in soup.interval.method
    assert lp.verdict == "supported"  # |FT| above |LP| = 1 on every set
    best_share = judged("table02", Settings(), above, table)[0]
    assert best_share.estimate == 1.0 and best_share.verdict == "supported"  # highest RI on every drawn set
    # LwF's backward transfer (its change on p is its RI's opposite) is below FT's on every set: contradicted
    assert judged("table18", Settings(), above, table)[0].verdict == "contradicted"
    mixed = one_seed_accuracies({"FT": {"a": -4.0, "b": -2.0, "c": -9.0}, "Linear Probing": {"a": -1, "b": -1, "c": -1},
                                 BEST: {"a": -6.0, "b": 4.0, "c": 0.5}})  # second to LP on two sets, far below on one
    soup = judged("table03", Settings(), mixed, robustness_table(mixed, list("abc"), "p"))[0]
    assert soup.verdict == "not_distinguishable" and soup.interval.low < 0 < soup.interval.high


def test_with_one_seed_figures04_and_08_are_judged_over_the_finetuning_sets():
    acc = one_seed_accuracies({"FT": {"a": -4.0, "b": -2.0, "c": -9.0}, "WiSE-FT": {"a": 1.0, "b": 0.0, "c": -1.0}})
    change = judged("figure04", Settings(), acc, pd.DataFrame())[0]
    assert change.estimate == pytest.approx(-5.0) and change.verdict == "supported"  # "<" 0 on every set
    assert "bootstrap over 3 fine-tuning sets" in change.interval.method
    every = judged("figure08", Settings(), acc, pd.DataFrame())[0]  # the mean over both methods
    assert every.estimate == pytest.approx(-2.5) and "bootstrap over 3 fine-tuning sets" in every.interval.method
    # per set, the mean over the methods: a -1.5, b -1, c -5; each drawn three times in 1 of 27 resamples (> 2.5 %)
    assert every.interval.low == pytest.approx(-5.0) and every.interval.high == pytest.approx(-1.0)


def test_with_one_seed_the_regime_contrast_is_judged_over_the_shared_finetuning_sets():
    plain = one_seed_accuracies({"FT": {"a": -4.0, "b": -2.0, "c": -9.0}}).assign(regime="clean")
    augreg = one_seed_accuracies({"FT": {"a": -1.0, "b": -1.5, "c": -2.0}}).assign(regime="augmented")
    loses, ends = judged("figure04", Settings(), pd.concat([augreg, plain]), pd.DataFrame())[2:]
    assert loses.estimate == pytest.approx(5.0 - 1.5) and loses.verdict == "supported"  # loses less on every set
    assert "bootstrap over 3 fine-tuning sets" in loses.interval.method and ends.verdict == "supported"


def test_with_several_seeds_the_interval_stays_over_seeds():
    table = mri_table([1.0, 1.2, 0.8])
    def never() -> pd.DataFrame:
        raise AssertionError("the per-set terms are computed for a single seed only")

    finding = mri_findings(table, draws=FinetuneSetDraws(never, {"RI": "mRI"}))[0]
    assert "t-interval over 3 seeds" in finding.interval.method

