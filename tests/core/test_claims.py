"""Claims as data: the shared predicates on hand-built frames, the quantifier rules, the strict claims-file
validation, and the ledger's column contract."""

from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from lib.claims import (
    COLUMNS,
    VERDICTS,
    Claim,
    ClaimsFileError,
    OurRun,
    Verdict,
    assess_ours,
    bootstrap_run,
    bound,
    compare,
    correlation,
    findings_of,
    format_ledger,
    judge,
    ledger,
    monotone,
    paper_ledger,
    parse_claims,
    rank,
    seed_run,
    similar,
)
from lib.findings import Finding, Interval


def _frame(rows: list[tuple[str, str, float]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["model", "method", "value"])


MRI = _frame([
    ("a", "FT", -1.0), ("a", "LP", 2.0), ("a", "EWC", 0.5),
    ("b", "FT", -3.0), ("b", "LP", 1.0), ("b", "EWC", -4.0),
    ("c", "FT", 4.0), ("c", "LP", 1.0), ("c", "EWC", 0.0),
])


def test_verdicts_and_unknown_verdict():
    assert VERDICTS == ("supported", "partly_supported", "contradicted", "not_distinguishable", "not_checkable")
    with pytest.raises(ValueError, match="verdict must be one of"):
        Verdict("plausible", "")


def test_compare_each_item_and_per_case_counts():
    cases = compare(MRI, item="method", a=["LP", "EWC"], b=["FT"], case=["model"])
    assert len(cases) == 6
    assert cases.groupby("group")["holds"].sum().to_dict() == {"EWC": 1, "LP": 2}
    verdict = judge(cases[cases["group"] == "LP"], "all")
    assert verdict.verdict == "partly_supported" and "holds in 2 of 3" in verdict.evidence
    assert "c: LP: LP 1.0 vs FT 4.0" in verdict.evidence  # the exception, named with its numbers


def test_compare_rest_aggregate_scale_and_margin():
    cases = compare(MRI, item="method", a=["LP"], b="rest", case=["model"], b_agg="max")
    assert cases["holds"].tolist() == [True, True, False]
    halves = compare(_frame([("x", "small", -4.0), ("x", "big", -10.0)]), item="method", a=["small"], b=["big"],
                     scale=0.5)
    assert halves["holds"].tolist() == [True]  # loses less than half as much
    margin = compare(MRI, item="method", a=["LP"], b=["FT"], case=["model"], op="<", margin=-2)
    assert margin["holds"].tolist() == [False, False, True]
    assert margin["detail"].iloc[2] == "LP 1.0 vs FT 4.0 − 2 = 2.0"  # the bound with its margin, worked out
    small = compare(_frame([("x", "after", 0.0093), ("x", "before", 0.0114)]), item="method", a=["after"], b=["before"])
    assert small["detail"].tolist() == ["after 0.0093 vs before 0.011"]  # small rates not rounded to equal


def test_rank_top_k_lowest_and_each():
    assert rank(MRI, item="method", items=["LP"], case=["model"])["holds"].tolist() == [True, True, False]
    assert rank(MRI, item="method", items=["LP"], case=["model"], top=2)["holds"].tolist() == [True, True, True]
    assert rank(MRI, item="method", items=["EWC"], case=["model"], order="lowest")["holds"].tolist() == [False, True, True]
    each = rank(MRI, item="method", items=["LP", "EWC"], case=["model"], top=2, each=True)
    assert len(each) == 6 and each["holds"].sum() == 4


def test_rank_ties_share_the_top():
    tied = _frame([("a", "x", 1.0), ("a", "y", 1.0), ("a", "z", 0.0)])
    assert rank(tied, item="method", items=["y"])["holds"].tolist() == [True]


def test_bound_absolute_and_none_quantifier():
    ft = MRI[MRI["method"] == "FT"]
    cases = bound(ft, op="<", value=0, case=["model"])
    assert cases["holds"].tolist() == [True, True, False]
    assert judge(cases, "all").verdict == "partly_supported"
    assert judge(cases, "majority").verdict == "supported"
    assert judge(cases, "none").verdict == "partly_supported"  # 1 of 3 cases is not negative
    assert bound(ft, op="<", value=2, absolute=True, case=["model"])["holds"].tolist() == [True, False, False]


def test_monotone_with_tied_levels():
    sizes = _frame([("m", "s", 1.0), ("m", "m1", 2.0), ("m", "m2", 3.0), ("m", "l", 2.5)])
    cases = monotone(sizes, item="method", order=["s", ["m1", "m2"], "l"], case=["model"])
    assert cases["holds"].tolist() == [True, True, True, False]  # s->m1, s->m2, m1->l, m2->l
    down = monotone(sizes, item="method", order=["l", "s"], direction="decreasing")
    assert down["holds"].tolist() == [True]


def test_similar_and_correlation():
    pair = _frame([("a", "x", 50.0), ("a", "y", 53.0), ("b", "x", 50.0), ("b", "y", 56.0)])
    assert similar(pair, item="method", items=["x", "y"], tolerance=5, case=["model"])["holds"].tolist() == [True, False]
    corr = correlation(MRI, item="method", x="FT", y="EWC", case=["model"], op=">", value=0)
    assert corr["holds"].tolist() == [True] and "over 3 cases" in corr["detail"].iloc[0]


def test_quantifier_rules():
    def cases(k: int, n: int) -> pd.DataFrame:
        return pd.DataFrame({"case": [str(i) for i in range(n)], "group": "", "holds": [i < k for i in range(n)],
                             "detail": ""})

    assert judge(cases(10, 10), "all").verdict == "supported"
    assert judge(cases(9, 10), "all").verdict == "partly_supported"
    assert judge(cases(2, 10), "all").verdict == "contradicted"  # at most a quarter: the complement holds clearly
    assert judge(cases(6, 10), "majority").verdict == "supported"
    assert judge(cases(5, 10), "majority").verdict == "partly_supported"
    assert judge(cases(0, 10), "majority").verdict == "contradicted"
    assert judge(cases(1, 10), "any").verdict == "supported"
    assert judge(cases(0, 10), "any").verdict == "contradicted"
    assert judge(cases(0, 10), "none").verdict == "supported"
    assert judge(cases(7, 10), "at_least", count=7).verdict == "supported"
    assert judge(cases(0, 0), "all").verdict == "not_checkable"


TABLES = {"t": MRI}
PATH = Path("claims.yaml")
GOOD = {"id": "c1", "section": "4.1", "claim": "LP beats FT", "artefacts": ["table03"], "table": "t",
        "predicate": "compare", "args": {"item": "method", "a": ["LP"], "b": ["FT"], "case": ["model"]},
        "quantifier": "all"}


def _parse(**changes):
    entry = {**GOOD, **changes}
    return parse_claims("imagenet_rib", [entry], PATH, set(TABLES), {"table03"}, {})


def test_claims_file_evaluates_on_the_frame_it_is_given():
    (claim,) = _parse()
    verdict = claim.assess(TABLES.__getitem__)
    assert verdict.verdict == "partly_supported" and "2 of 3" in verdict.evidence
    frame = ledger([claim], TABLES.__getitem__)
    assert list(frame.columns) == COLUMNS and frame.loc[0, "artefacts"] == "table03"


@pytest.mark.parametrize("changes, message", [
    ({"colour": "red"}, "unknown key(s) ['colour']"),
    ({"predicate": "ordering"}, "unknown predicate 'ordering'; valid: ['bespoke', 'bound'"),
    ({"quantifier": "mostly"}, "unknown quantifier 'mostly'; valid: ['all', 'majority'"),
    ({"artefacts": ["table99"]}, "unknown artefact(s) ['table99']"),
    ({"table": "t99"}, "unknown table 't99'; valid: ['t']"),
    ({"args": {"item": "method", "a": ["LP"]}}, "missing ['b']"),
    ({"args": {**GOOD["args"], "topk": 1}}, "unknown ['topk']"),
    ({"predicate": "bespoke"}, "no bespoke assessor registered"),
    ({"predicate": "not_checkable"}, "needs a `reason`"),
    ({"quantifier": "at_least"}, "give `count`"),
])
def test_claims_file_validation_errors(changes, message):
    with pytest.raises(ClaimsFileError) as error:
        _parse(**changes)
    text = str(error.value)
    assert message in text and "claims.yaml: claim 'c1'" in text and "\n" not in text


def test_parts_combine_into_partly_supported():
    parts = {k: v for k, v in GOOD.items() if k in ("id", "section", "claim", "artefacts")}
    spec = {k: v for k, v in GOOD.items() if k not in parts}
    entry = {**parts, "parts": [{**spec, "label": "one"}, {**spec, "label": "two", "quantifier": "majority"}]}
    (claim,) = parse_claims("imagenet_rib", [entry], PATH, set(TABLES), {"table03"}, {})
    verdict = claim.assess(TABLES.__getitem__)
    assert verdict.verdict == "partly_supported" and "one [partly_supported]" in verdict.evidence
    assert "two [supported]" in verdict.evidence


def test_format_ledger_wraps_lines():
    claim = Claim("imagenet_rib", "c1", "4.1", "x " * 80, ("table03",), reason="y " * 200)
    text = format_ledger(ledger([claim]), width=90)
    assert "[not_checkable] c1" in text and max(len(line) for line in text.splitlines()) <= 90


def test_unknown_paper_is_rejected():
    with pytest.raises(ValueError, match="unknown paper"):
        paper_ledger("no_such_paper")


# --- the same claims judged on a run of ours: estimate (mean over seeds) and each seed --------------
def _seeds(*per_seed: dict[str, float]) -> pd.DataFrame:
    """Per-seed mRI of LP and FT for models a and b: one dict {model/method: value} per seed."""
    rows = [(key.split("/")[0], key.split("/")[1], seed, value)
            for seed, values in enumerate(per_seed) for key, value in values.items()]
    return pd.DataFrame(rows, columns=["model", "method", "seed", "value"])


def _agreeing(seeds: int) -> pd.DataFrame:
    """`seeds` seeds on which LP beats FT for both models a and b."""
    return _seeds(*({"a/LP": 2 + s, "a/FT": 1, "b/LP": 3, "b/FT": s % 2} for s in range(seeds)))


def test_ours_stands_when_every_seed_of_five_agrees():
    (claim,) = _parse()
    verdict = assess_ours(claim, seed_run({"t": _agreeing(5)}, "mini"))
    assert verdict.verdict == "supported" and "mini, 5 seeds: supported 5" in verdict.evidence
    assert "sign test over seeds: p = 0.031" in verdict.evidence


@pytest.mark.parametrize("seeds, p_value", [(2, "0.25"), (3, "0.12"), (4, "0.062")])
def test_fewer_than_five_agreeing_seeds_are_not_distinguishable_from_a_coin(seeds, p_value):
    (claim,) = _parse()
    verdict = assess_ours(claim, seed_run({"t": _agreeing(seeds)}, "mini"))
    assert verdict.verdict == "not_distinguishable"
    assert f"{seeds} of {seeds} seeds agree, as often as a fair coin would (one-sided sign test p = {p_value}" \
        in verdict.evidence


def test_a_claim_on_an_alongside_table_is_judged_on_that_run_and_its_replicates():
    (claim,) = _parse()  # on table "t"
    seeds = seed_run({"u": _agreeing(5)}, "mini")
    draws = seed_run({"t": _agreeing(6)}, "mini", kind="draws of the data")
    run = replace(seeds, alongside={"t": draws})
    assert run.run_for(claim) is draws
    verdict = assess_ours(claim, run)
    assert verdict.verdict == "supported" and "mini, 6 draws of the data: supported 6" in verdict.evidence
    assert "sign test over draws of the data: p = 0.016" in verdict.evidence
    (elsewhere,) = _parse(where={"model": "a"})
    assert replace(seeds, alongside={"v": draws}).run_for(elsewhere) is not draws  # not its table: the seeds judge


def test_ours_not_distinguishable_when_a_seed_disagrees():
    (claim,) = _parse()  # the mean says LP > FT for both models; seed 1 reverses model a
    run = seed_run({"t": _seeds({"a/LP": 5, "a/FT": 0, "b/LP": 3, "b/FT": 0},
                                {"a/LP": 1, "a/FT": 2, "b/LP": 2, "b/FT": 1})}, "mini")
    verdict = assess_ours(claim, run)
    assert verdict.verdict == "not_distinguishable"
    assert "the estimate is supported and 1 of 2 seeds agree" in verdict.evidence


def test_ours_not_checkable_without_the_rows_or_tables_the_claim_needs():
    (claim,) = _parse(where={"pretraining": "LAION-2B"})
    run = seed_run({"t": _seeds({"a/LP": 2, "a/FT": 1})}, "tiny")
    assert assess_ours(claim, run).verdict == "not_checkable"
    assert "our run has no 'pretraining'" in assess_ours(claim, run).evidence
    assert assess_ours(claim, seed_run({"u": _seeds({"a/LP": 2})}, "tiny")).verdict == "not_checkable"
    (other,) = _parse(where={"model": "z"})
    assert "none of the rows" in assess_ours(other, run).evidence
    assert assess_ours(claim, None).verdict == "not_checkable"


def test_ours_with_one_seed_has_no_interval():
    (claim,) = _parse()
    verdict = assess_ours(claim, seed_run({"t": _seeds({"a/LP": 2, "a/FT": 1})}, "tiny"))
    assert verdict.verdict == "not_distinguishable" and "no interval" in verdict.evidence


def test_claims_command_prints_both_verdicts(monkeypatch, capsys):
    from lib import claims as claims_module
    from lib.cli import main

    (claim,) = _parse()
    run = seed_run({"t": _agreeing(5)[lambda f: f["model"] == "a"]}, "mini")
    monkeypatch.setattr(claims_module, "load_claims", lambda paper: (claim,))
    monkeypatch.setattr(claims_module, "our_run", lambda paper, params: run)
    monkeypatch.setattr(claims_module, "paper_tables", lambda paper: TABLES.__getitem__)
    assert main(["claims", "--paper", "imagenet_rib", "--tier", "mini"]) == 0
    out = capsys.readouterr().out
    assert "on the paper's numbers: partly_supported 1" in out and "on our run (mini tier): supported 1" in out


def test_ledger_has_both_verdicts():
    (claim,) = _parse()
    run = seed_run({"t": _agreeing(5)[lambda f: f["model"] == "a"]}, "mini")
    frame = ledger([claim], TABLES.__getitem__, run)
    assert frame.loc[0, "verdict"] == "partly_supported" and frame.loc[0, "ours_verdict"] == "supported"
    assert "ours [supported]: mini, 5 seeds" in format_ledger(frame)


# --- `ours`: a claim the printed numbers cannot judge, judged on our run by its own judgement ----------
OURS = {k: v for k, v in GOOD.items() if k in ("id", "section", "claim", "artefacts")}
OURS_JUDGEMENT = {k: v for k, v in GOOD.items() if k not in OURS}


def test_ours_judges_a_claim_the_paper_cannot():
    entry = {**OURS, "predicate": "not_checkable", "reason": "no numbers printed",
             "ours": {**OURS_JUDGEMENT, "table": "ours_only"}}
    (claim,) = parse_claims("imagenet_rib", [entry], PATH, set(TABLES), {"table03"}, {}, {"ours_only"})
    assert claim.assess(TABLES.__getitem__).verdict == "not_checkable"
    verdict = assess_ours(claim, seed_run({"ours_only": _agreeing(5)}, "mini"))
    assert verdict.verdict == "supported" and "mini, 5 seeds: supported 5" in verdict.evidence


@pytest.mark.parametrize("entry, message", [
    ({**GOOD, "ours": OURS_JUDGEMENT}, "`ours` judgements are for a not_checkable or bespoke claim"),
    ({**GOOD, "ours": {"findings": ["figure99"]}}, "unknown findings producer(s) ['figure99']; valid: "
                                                   "lib.<paper>.claims.OUR_FINDINGS (figure04)"),
    ({**GOOD, "ours": {"findings": ["figure04"], "table": "t"}}, "takes a non-empty list of findings producers"),
    ({**GOOD, "ours": {"findings": []}}, "takes a non-empty list"),
    ({**GOOD, "ours": {"findings": ["figure04"], "quantifier": "most"}},
     "unknown findings quantifier 'most'; valid: parts, all, any"),
    ({**OURS, "predicate": "not_checkable", "reason": "r", "ours": {**OURS_JUDGEMENT, "table": "u"}},
     "unknown table 'u'"),
    ({**OURS, "predicate": "not_checkable", "reason": "r", "ours": "compare"}, "one judgement (a mapping)"),
])
def test_ours_key_validation(entry, message):
    with pytest.raises(ClaimsFileError) as error:
        parse_claims("imagenet_rib", [entry], PATH, set(TABLES), {"table03"}, {}, {"ours_only"}, {"figure04"})
    assert message in str(error.value)


# --- `ours: {findings: ...}`: a claim judged on our run by the findings a figure's notebook draws --------
def _finding(claim_id: str, low: float, high: float) -> Finding:
    return Finding("LP - FT", (low + high) / 2, Interval(low, high, "95% t-interval over 3 seeds"), "LP beats FT",
                   claim_id=claim_id)


def _by_findings(produced: dict[str, list[Finding]], **quantifier: str) -> tuple[Claim, OurRun, list[str]]:
    """A claim judged by the findings of figure04 and figure05 (under `quantifier=...` where given), on a run
    producing `produced` (and the names the producer was asked for)."""
    asked = []
    (claim,) = parse_claims("imagenet_rib", [{**GOOD, "ours": {"findings": ["figure04", "figure05"], **quantifier}}],
                            PATH, set(TABLES), {"table03"}, {}, set(), {"figure04", "figure05"})
    run = replace(seed_run({"t": _agreeing(5)}, "mini"),
                  findings=findings_of(lambda name: asked.append(name) or produced.get(name, [])))
    return claim, run, asked


def test_ours_by_findings_takes_their_overall_verdict():
    claim, run, asked = _by_findings({"figure04": [_finding("c1", 0.1, 0.3), _finding("other", -1, -0.5)],
                                      "figure05": [_finding("c1", -0.2, 0.4)]})
    assert claim.ours_findings == ("figure04", "figure05") and claim.assess(TABLES.__getitem__).verdict == \
        "partly_supported"  # the printed numbers are judged as before
    verdict = assess_ours(claim, run)
    assert verdict.verdict == "partly_supported"  # one part supported, one not distinguishable
    assert verdict.evidence.startswith("mini: by our run's findings (figure04, figure05; each judged by its own "
                                       "interval): partly supported (1 supported, 1 not distinguishable of 2 part(s))")
    assert "LP - FT = 0.2 [0.1, 0.3]" in verdict.evidence and "-0.75" not in verdict.evidence  # not the other claim's
    assess_ours(claim, run)
    assert asked == ["figure04", "figure05"]  # each producer's findings computed once


@pytest.mark.parametrize("quantifier, verdict, rule", [("all", "not_distinguishable", "; every part must hold"),
                                                       ("any", "supported", "; one part suffices")])
def test_ours_by_findings_under_a_quantifier(quantifier, verdict, rule):
    claim, run, _ = _by_findings({"figure04": [_finding("c1", 0.1, 0.3)], "figure05": [_finding("c1", -0.2, 0.4)]},
                                 quantifier=quantifier)
    assert claim.ours_quantifier == quantifier
    judged = assess_ours(claim, run)
    assert judged.verdict == verdict and f"(1 supported, 1 not distinguishable of 2 part(s){rule})" in judged.evidence


def test_ours_by_findings_not_checkable_without_a_finding_on_the_claim():
    claim, run, _ = _by_findings({"figure04": [_finding("other", 0.1, 0.3)]})
    verdict = assess_ours(claim, run)
    assert verdict.verdict == "not_checkable" and "no finding of figure04, figure05 bears on this claim" in verdict.evidence
    assert assess_ours(claim, seed_run({"t": _agreeing(5)}, "mini")).verdict == "not_checkable"  # a run without findings


def test_bootstrap_run_estimate_and_resamples_within_strata():
    images = pd.DataFrame({"dataset": ["x"] * 4 + ["y"] * 2, "item": [0, 1, 2, 3, 0, 1],
                           "value": [1.0, 2.0, 3.0, 6.0, 10.0, 20.0]})
    second = images.assign(value=images["value"] * 2)  # same images: every replicate draws them alike
    run = bootstrap_run({"t": images, "u": second}, "mini", resamples=50, seed=3)
    estimate = run.estimate("t").set_index("dataset")["value"]
    assert estimate.to_dict() == {"x": 3.0, "y": 15.0} and run.kind == "bootstrap resamples"
    for replicate in run.replicates:
        t, u = (replicate(n).set_index("dataset")["value"] for n in ("t", "u"))
        assert (u == 2 * t).all()  # one draw of the images for both tables
        assert 1.0 <= t["x"] <= 6.0 and 10.0 <= t["y"] <= 20.0
    means = {round(r("t").set_index("dataset")["value"]["x"], 6) for r in run.replicates}
    assert len(means) > 5  # the replicates differ
    again = bootstrap_run({"t": images, "u": second}, "mini", resamples=50, seed=3)
    assert all(a("t").equals(b("t")) for a, b in zip(run.replicates, again.replicates))


def test_claims_command_reads_our_run_as_the_claims_notebook_does(monkeypatch, capsys):
    """The command's run of ours gets the claims notebook's parameters (its own file over the tier's defaults):
    CounterAnimal's theorem simulation is set only in `params/<tier>/counteranimal/claims.yaml`."""
    from lib import claims as claims_module
    from lib.cli import main

    seen = {}
    monkeypatch.setattr(claims_module, "our_run", lambda paper, params: seen.update(params))
    assert main(["claims", "--paper", "counteranimal", "--tier", "tiny"]) == 0
    assert seen["simulation_params"] == "params/tiny/counteranimal/simulation.yaml"
    assert seen["study_params"] == "params/tiny/counteranimal/study.yaml"
