"""The claims ledger: verdicts are computed and validated, the ledger keeps its column contract."""

import pytest

from lib.claims import COLUMNS, Claim, Verdict, holds, ledger, paper_ledger, unverifiable


def test_holds_maps_condition_to_verdict():
    assert holds(True, "x").verdict == "supported"
    assert holds(False, "x").verdict == "contradicted"
    assert unverifiable("not printed").verdict == "not_checkable"


def test_unknown_verdict_is_rejected():
    with pytest.raises(ValueError, match="verdict must be one of"):
        Verdict("plausible", "")


def test_ledger_assesses_each_claim_once_in_order():
    calls = []

    def assess():
        calls.append(1)
        return holds(2 > 1, "2 > 1")

    claims = [Claim("ssl_protocols", "c1", "4.1", "two beats one", ("figure02", "table_s2"), assess)]
    frame = ledger(claims)
    assert list(frame.columns) == COLUMNS
    assert frame.loc[0, "artefacts"] == "figure02 table_s2"
    assert frame.loc[0, "verdict"] == "supported"
    assert len(calls) == 1


def test_unknown_paper_is_rejected():
    with pytest.raises(ValueError, match="unknown paper"):
        paper_ledger("no_such_paper")
