"""Findings: intervals with known answers, verdicts judged by the interval, summaries with counts."""

import numpy as np
import pytest
from scipy import stats

from lib.findings import (Finding, Findings, bearing_on, Interval, defined_mean, bootstrap_interval, difference_interval, mean_interval, markdown, overall, report,
                          summary, table)


def _finding(low: float, high: float, direction: str = ">", threshold: float = 0.0) -> Finding:
    return Finding("A − B", (low + high) / 2, Interval(low, high, "test"), "A beats B", direction, threshold)


def test_mean_interval_is_the_t_interval_of_the_mean():
    interval = mean_interval([1.0, 2.0, 3.0])
    half = stats.t.ppf(0.975, 2) * 1.0 / np.sqrt(3)
    assert interval.low == pytest.approx(2.0 - half) and interval.high == pytest.approx(2.0 + half)
    assert "3 seeds" in interval.method


def test_one_seed_has_no_interval_and_no_verdict():
    interval = mean_interval([0.4])
    assert not interval.defined and "1 value over seeds, no interval" in interval.method
    assert Finding("x", 0.4, interval, "positive").verdict == "not_checkable"
    assert "0 values over models, no interval" in mean_interval([], unit="models").method


def test_bootstrap_is_seeded_and_keeps_rows_together():
    rows = np.array([[1.0, 0.0], [2.0, 0.5], [3.0, 1.0], [4.0, 2.0], [5.0, 1.5]])
    difference = lambda r: float((r[:, 0] - r[:, 1]).mean())  # noqa: E731
    first = bootstrap_interval(rows, difference, seed=3, unit="models")
    assert first == bootstrap_interval(rows, difference, seed=3, unit="models")
    assert first.low <= difference(rows) <= first.high
    assert min(rows[:, 0] - rows[:, 1]) <= first.low and first.high <= max(rows[:, 0] - rows[:, 1])
    assert "5 models" in first.method


def test_difference_interval_is_welchs():
    a, b = [1.0, 2.0, 3.0, 4.0], [0.0, 0.5, 1.0]
    expected = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    interval = difference_interval(a, b)
    assert (interval.low, interval.high) == pytest.approx((expected.low, expected.high))


def test_bootstrap_leaves_out_undefined_resamples_and_counts_them():
    rows = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    spread = lambda r: float(r.std()) if len(set(r)) > 1 else float("nan")  # noqa: E731
    interval = bootstrap_interval(rows, spread, seed=1, resamples=500)
    assert interval.low > 0
    undefined = bootstrap_interval(np.ones(5), spread, resamples=50)
    assert not undefined.defined and "undefined in 50 of 50" in undefined.method
    assert Finding("spread", float("nan"), undefined, "varies").verdict == "not_checkable"


def test_verdict_is_judged_by_the_whole_interval():
    assert _finding(0.1, 0.5).verdict == "supported"
    assert _finding(-0.5, -0.1).verdict == "contradicted"
    assert _finding(-0.1, 0.5).verdict == "not_distinguishable"
    assert _finding(-0.5, -0.1, direction="<").verdict == "supported"
    assert _finding(0.6, 0.9, threshold=0.7).verdict == "not_distinguishable"
    assert _finding(0.75, 0.9, threshold=0.7).verdict == "supported"


def test_an_equivalence_claim_needs_the_whole_interval_within_the_margin():
    assert _finding(-0.03, 0.04, direction="within", threshold=0.05).verdict == "supported"
    assert _finding(-0.03, 0.09, direction="within", threshold=0.05).verdict == "not_distinguishable"
    assert _finding(0.06, 0.09, direction="within", threshold=0.05).verdict == "contradicted"
    assert _finding(-0.2, -0.06, direction="within", threshold=0.05).verdict == "contradicted"
    assert "i.e. within ±0.05." in _finding(0.0, 0.01, direction="within", threshold=0.05).sentence()


def test_unknown_direction_and_reversed_interval_are_refused():
    with pytest.raises(ValueError, match="direction"):
        _finding(0.1, 0.2, direction=">=")
    with pytest.raises(ValueError, match="exceeds"):
        Interval(1.0, 0.0, "x")


def test_overall_and_summary_count_the_parts():
    parts = [_finding(0.1, 0.5), _finding(0.2, 0.3), _finding(-0.1, 0.5)]
    assert overall(parts) == "partly_supported"
    assert summary(parts) == "partly supported (2 supported, 1 not distinguishable of 3 part(s))"
    assert overall([_finding(-0.5, -0.1), _finding(-0.1, 0.5)]) == "contradicted"
    assert overall([_finding(0.1, 0.5)] * 2) == "supported"
    assert overall([]) == "not_checkable"


@pytest.mark.parametrize("quantifier, expected", [
    # parts: supported + contradicted; supported + not distinguishable; contradicted + n.d.; n.d. + not checkable
    ("parts", ["partly_supported", "partly_supported", "contradicted", "not_distinguishable"]),
    ("all", ["contradicted", "not_distinguishable", "contradicted", "not_distinguishable"]),
    ("any", ["supported", "supported", "not_distinguishable", "not_distinguishable"]),
])
def test_overall_under_each_quantifier(quantifier, expected):
    supported, contradicted, unclear = _finding(0.1, 0.5), _finding(-0.5, -0.1), _finding(-0.1, 0.5)
    unchecked = Finding.undefined("x", "constant scores", "c")
    pairs = [(supported, contradicted), (supported, unclear), (contradicted, unclear), (unclear, unchecked)]
    assert [overall(pair, quantifier) for pair in pairs] == expected
    for agreeing in (supported, contradicted, unclear, unchecked):  # parts that agree keep their verdict
        assert overall([agreeing, agreeing], quantifier) == agreeing.verdict
    with pytest.raises(ValueError, match="quantifier must be one of"):
        overall([supported], "most")


def test_sentence_and_table_carry_the_interval_and_verdict():
    finding = Finding("ρ(probe) − ρ(FT)", 0.24, Interval(0.05, 0.4, "95% bootstrap"), "probing predicts OOD better",
                      paper="0.84 vs 0.52")
    assert "[0.05, 0.4]" in finding.sentence() and "paper: 0.84 vs 0.52" in finding.sentence()
    assert finding.sentence().endswith("Verdict: supported.")
    assert report([finding]).startswith("Overall: supported (1 supported of 1 part(s)).\n- ρ(probe)")
    row = table([finding]).iloc[0]
    assert (row["low"], row["high"], row["verdict"]) == (0.05, 0.4, "supported")


def test_findings_print_as_their_report_and_hold_only_findings():
    parts = Findings([_finding(0.1, 0.5), _finding(-0.1, 0.5)])
    assert str(parts) == report(parts) and parts.verdict == "partly_supported"
    with pytest.raises(TypeError):
        Findings(["not a finding"])


def test_markdown_leads_each_claim_with_its_verdict_and_the_measured_numbers():
    judged = Finding("A − B", 0.28, Interval(0.15, 0.42, "95% t-interval over 6 units"), "A beats B", ">", 0.0, "+.085")
    unjudged = Finding.undefined("JM − SFT", "one schedule of three", "JM does not beat SFT", "<")
    lines = markdown([judged, unjudged]).splitlines()
    assert lines[0] == "**Overall: partly supported (1 supported, 1 not checkable of 2 part(s)).**"
    assert lines[1] == "- **supported**: A beats B. A − B = +0.28 [+0.15, +0.42], 95% t-interval over 6 units. Paper: +.085."
    assert lines[2] == "- **not checkable**: JM does not beat SFT. JM − SFT: undefined: one schedule of three."


def test_defined_mean_skips_undefined_values_quietly(recwarn):
    assert defined_mean([1.0, float("nan"), 3.0]) == 2.0
    assert np.isnan(defined_mean([float("nan")]))
    np.testing.assert_array_equal(defined_mean(np.array([[1.0, np.nan], [np.nan, np.nan]]), axis=1), [1.0, np.nan])
    assert not recwarn.list


def test_an_undefined_finding_keeps_its_reason_and_is_not_checkable():
    finding = Finding.undefined("LAION-2B FT − others", "our run has no LAION-2B regime", "LAION-2B is worst", "<")
    assert finding.verdict == "not_checkable" and finding.interval.method == "undefined: our run has no LAION-2B regime"


def test_a_stratified_bootstrap_resamples_each_stratum_within_itself():
    data = np.r_[np.zeros(5), np.ones(7)]
    seen = []

    def first_half_mean(rows: np.ndarray) -> float:  # the first 5 rows must come from stratum 0 only
        seen.append(rows)
        return float(rows[:5].mean())

    interval = bootstrap_interval(data, first_half_mean, resamples=50, strata=[0] * 5 + [1] * 7)
    assert (interval.low, interval.high) == (0.0, 0.0) and "within 2 strata" in interval.method
    assert all((rows[:5] == 0).all() and (rows[5:] == 1).all() for rows in seen)
    unstratified = bootstrap_interval(data, lambda rows: float(rows[:5].mean()), resamples=50)
    assert unstratified.high > 0  # without strata, the second stratum's rows reach the first positions


def test_bearing_on_keeps_the_findings_of_the_named_claims_in_order():
    parts = [Finding(q, 1.0, Interval(0.5, 1.5, "t"), "c", ">", 0.0, claim_id=cid)
             for q, cid in (("a", "x"), ("b", "y"), ("c", ""), ("d", "x"))]
    assert [f.quantity for f in bearing_on(parts, "x")] == ["a", "d"]
    assert [f.quantity for f in bearing_on(parts, "y", "x")] == ["a", "b", "d"]
    assert isinstance(bearing_on(parts, "z"), Findings) and not bearing_on(parts, "z")
