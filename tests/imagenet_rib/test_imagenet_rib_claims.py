"""imagenet_rib's claims file: every claim loads and evaluates, and the four re-examined verdicts are pinned."""

import pytest
import yaml

from lib.claims import claims_path, load_claims, paper_ledger
from lib.imagenet_rib.claims import BESPOKE


@pytest.fixture(scope="module")
def ledger():
    return paper_ledger("imagenet_rib").set_index("claim_id")


def test_every_claim_of_the_file_is_evaluated(ledger):
    ids = [entry["id"] for entry in yaml.safe_load(claims_path("imagenet_rib").read_text())]
    assert list(ledger.index) == ids and len(ids) == 59
    assert (ledger["evidence"].str.len() > 20).all()
    assert set(BESPOKE) < set(ids) and len(BESPOKE) <= 12


@pytest.mark.parametrize("claim_id, verdict, evidence", [
    ("continual-less-forgetting", "partly_supported", "EWC [partly_supported]: holds in 7 of 18"),
    ("lp-best-web-ri", "partly_supported", "holds in 26 of 32"),
    ("bigger-pretraining-better-start", "partly_supported", "holds in 9 of 10"),
    ("lp-vp-better-laion", "partly_supported", "Visual Prompt [contradicted]: holds in 0 of 2"),
])
def test_re_examined_claims(ledger, claim_id, verdict, evidence):
    row = ledger.loc[claim_id]
    assert row["verdict"] == verdict and evidence in row["evidence"]
    assert row["reading"].startswith("Re-examined")


def test_claims_for_an_artefact():
    from lib.imagenet_rib.claims import claims_for

    assert {c.claim_id for c in claims_for("table18")} == {"continual-less-forgetting", "lwf-best-backward-transfer"}
    assert all(c.paper == "imagenet_rib" for c in load_claims("imagenet_rib"))


def test_every_findings_producer_judges_a_claim_and_the_ledger_reads_its_experiments():
    from lib.imagenet_rib.claims import OUR_FINDINGS
    from lib.imagenet_rib.ours_experiments import experiments_read

    assert {name for c in load_claims("imagenet_rib") for name in c.ours_findings} == set(OUR_FINDINGS)
    assert experiments_read("claims") == ("clip_zero_shot", "main", "validation_split", "resnets", "small_subsets",
                                        "training_curves", "learning_rate")
    assert experiments_read("table03") == ()  # the main benchmark's: always computed
