import pytest

from lib.claims import paper_ledger


@pytest.fixture(scope="module")
def ledger():
    return paper_ledger("counteranimal").set_index("claim_id")


@pytest.mark.parametrize("claim, verdict", [
    ("curation-threshold", "supported"), ("clips-drop", "supported"), ("imagenet-effective-robustness", "supported"),
    ("high-quality-effective-robustness", "not_distinguishable"), ("dataset-size", "contradicted"),
    ("coloredcoco", "partly_supported"), ("negative-class-drops", "supported"), ("theorem", "not_checkable"),
])
def test_verdicts_on_the_printed_numbers(ledger, claim, verdict):
    assert ledger.loc[claim, "verdict"] == verdict


def test_every_claim_has_evidence(ledger):
    assert ledger["evidence"].str.len().gt(0).all()
