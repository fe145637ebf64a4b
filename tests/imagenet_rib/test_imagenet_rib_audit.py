"""imagenet_rib: tidy tables, Eq. 1 by hand, the audit's known mismatches, and the claims ledger."""

import math

import pandas as pd
import pytest

from lib.audit import COLUMNS as AUDIT_COLUMNS
from lib.audit import audit_paper, check
from lib.claims import VERDICTS, paper_ledger
from lib.imagenet_rib import tables as T
from lib.imagenet_rib.audit import TOL_MEAN, TOL_RI
from lib.metrics.robustness import robustness_improvement


@pytest.fixture(scope="module")
def audit() -> pd.DataFrame:
    return audit_paper("imagenet_rib")


def _row(audit: pd.DataFrame, artefact: str, quantity: str) -> pd.Series:
    rows = audit[(audit["artefact"] == artefact) & (audit["quantity"] == quantity)]
    assert len(rows) == 1, (artefact, quantity, len(rows))
    return rows.iloc[0]


def test_every_extracted_table_loads_into_one_schema():
    frame = T.load_tables()
    assert list(frame.columns) == T.COLUMNS
    assert set(frame["classifier"]) == {"imagenet", "zero-shot"}
    assert not T.is_printed("table25")  # its body is not in our text
    assert set(frame["artefact"]) == {a for a in T.NUMERIC_ARTEFACTS if a != "table25"}
    assert frame.loc[frame["printed"] != "-", "value"].notna().all()


def test_ri_of_one_printed_cell_by_hand():
    # Table 2: FT fine-tuned on ImageNet-V2 prints RI 2.9. Table 30's row (fine-tuned) minus Table 17
    # (pretrained) on the seven other datasets of D:
    after = {"ImageNet-A": 25.2, "ImageNet-R": 41.9, "ImageNet-Sketch": 29.2, "ObjectNet": 37.1,
             "ImageNet-Cartoon": 64.7, "ImageNet-Drawing": 40.4, "ImageNet-C": 57.4}
    before = {"ImageNet-A": 15.0, "ImageNet-R": 38.0, "ImageNet-Sketch": 28.0, "ObjectNet": 33.0,
              "ImageNet-Cartoon": 66.2, "ImageNet-Drawing": 39.1, "ImageNet-C": 56.0}
    by_hand = sum(after[d] - before[d] for d in after) / 7  # 20.6 / 7
    assert by_hand == pytest.approx(2.942857, abs=1e-6)
    t30 = T.load_table("table30")
    assert T.accuracies(t30, method="FT", finetune_dataset="ImageNet-V2") == pytest.approx({"ImageNet-1K": 78.4, **after})
    base = T.pretrained_baseline("table17")
    assert robustness_improvement(T.finetuned_accuracies(t30, "FT")["ImageNet-V2"], base, "ImageNet-V2", T.SUITE) == pytest.approx(by_hand)
    ours = T.recompute_ri(t30, base).set_index(["method", "metric", "finetune_dataset"])["recomputed"]
    assert ours[("FT", "RI", "ImageNet-V2")] == pytest.approx(by_hand)
    # With Table 30's own pretrained ObjectNet (25.7) the same RI moves by (33.0 - 25.7) / 7.
    alt = T.recompute_ri(t30, T.pretrained_baseline("table30")).set_index(["method", "metric", "finetune_dataset"])["recomputed"]
    assert alt[("FT", "RI", "ImageNet-V2")] - by_hand == pytest.approx(7.3 / 7)


def test_mri_is_the_mean_of_the_printed_ris():
    check_frame = T.mri_from_printed_ris(T.load_table("table02")).set_index("method")
    assert check_frame.loc["FT", "mean_ri"] == pytest.approx((2.9 - 4.0 + 2.8 + 4.4 - 2.7 + 0.6 + 0.4 + 5.9) / 8)
    assert check_frame.loc["FT", "printed"] == "1.3"


def test_a_changed_ri_is_caught():
    frame = T.load_table("table02")
    cell = (frame["method"] == "EWC") & (frame["finetune_dataset"] == "ImageNet-A")
    frame.loc[cell, "value"] += 1.0  # a transcription error of one RI moves the mean by 0.125
    row = T.mri_from_printed_ris(frame).set_index("method").loc["EWC"]
    assert check("imagenet_rib", "table02", "q", row["printed"], row["mean_ri"], tolerance=TOL_MEAN).status == "mismatch"


def test_backward_transfer_and_imagenet_c_average():
    bt = T.backward_transfer_table30(T.load_table("table30"), T.pretrained_baseline()).set_index("method")["recomputed"]
    assert bt["FT"] == pytest.approx((78.4 + 72.9 + 69.8 + 75.7 + 74.4 + 85.2 + 81.5 + 99.8) / 8 - 79.2)
    means = T.table31_corruption_means(T.load_table("table31"))
    pretrained = means[means["method"] == "Pretrained"].iloc[0]
    assert pretrained["mean"] == pytest.approx(841 / 15) and pretrained["printed"] == "56.0"


def test_fig8_identity_after_equals_before_plus_mri():
    bars = T.ood_before_after(T.select(T.load_table("table03"), method="FT"), T.load_table("table17")).set_index("model")
    laion = bars.loc["ViT-B/16 LAION-2B"]
    assert laion["before"] == pytest.approx((75.6 + 41.5 + 68.8 + 55.4 + 51.1 + 78.2 + 58.4 + 63.0) / 8)
    assert laion["after"] == pytest.approx(laion["before"] - 38.1)
    assert math.isnan(bars.loc["ViT-B/32 IN-1K + AugReg", "before"])  # not in Table 17


def test_audit_contract_and_counts(audit):
    assert list(audit.columns) == AUDIT_COLUMNS
    assert set(audit["status"]) == {"ok", "mismatch", "not_checkable"}
    ri = audit[(audit["artefact"] == "table02") & audit["quantity"].str.startswith("RI after")]
    assert len(ri) == 72 and (ri["status"] == "ok").all() and (ri["tolerance"] == TOL_RI).all()
    assert (audit.loc[audit["artefact"] == "table31", "status"] == "ok").all()


def test_audit_finds_the_known_mismatches(audit):
    found = set(zip(audit.loc[audit["status"] == "mismatch", "artefact"], audit.loc[audit["status"] == "mismatch", "quantity"]))
    expected = {
        ("table01", f"{p} on ObjectNet equals Table 17") for p in ("IN-1K + AugReg", "IN-21K", "IN-21K + AugReg", "LAION-2B")
    } | {
        ("table02", "RIs reproduced by Eq. 1 with Table 30's own Pretrained row (ObjectNet 25.7)"),
        ("table04", "ViT-B/16 OpenAI: after - before equals Table 8's FT mRI"),
        ("table04", "ViT-B/16 LAION-400M: after - before equals Table 8's FT mRI"),
        ("table12", "ViT-B/32 LAION-400M pretrained on ImageNet-1K equals Table 9"),
        ("table12", "ViT-B/32 OpenAI pretrained on ImageNet-1K equals Table 9"),
        ("table17", "number of ViT-B/32 pretrained models (Table 18 prints 5)"),
        ("table19", "H.3: every ViT-B/16 FT row of Table 19 averages more than 90%"),
        ("table29", "each supplementary table is cited for one model and one kind of accuracy"),
        ("table29", "App. J.5's 'Table S18-Table S35' matches the ImageNet-C references"),
        ("table30", "Pretrained accuracy on ObjectNet equals Table 17"),
    }
    assert found == expected
    swap = _row(audit, "table04", "ViT-B/16 OpenAI: after - before equals Table 8's FT mRI")
    assert swap["printed"] == "-31.2" and swap["recomputed"] == pytest.approx(16.3 - 48.8)
    assert _row(audit, "table02", "RIs reproduced by Eq. 1 with Table 30's own Pretrained row (ObjectNet 25.7)")["recomputed"] == 9


def test_rounding_only_cases_are_ok_with_their_stated_tolerance(audit):
    laion = _row(audit, "table09", "Avg OOD of ViT-B/16 LAION-2B")
    assert laion["status"] == "ok" and laion["recomputed"] == pytest.approx(53.4375)
    assert "outside the printed value's own rounding" in laion["note"]
    lora = _row(audit, "table18", "backward transfer of ViT-B/16 IN-1K + AugReg, LoRA")
    assert lora["status"] == "ok" and lora["recomputed"] == pytest.approx(-0.2)


def test_garbled_resnet50_row_is_not_checkable(audit):
    row = _row(audit, "table22", "mRI of ResNet-50 IN-1K, FT (mean of its RIs)")
    assert row["status"] == "not_checkable" and "missing RI is 2.5" in row["note"]


def test_claims_ledger():
    ledger = paper_ledger("imagenet_rib").set_index("claim_id")
    assert ledger.index.is_unique and set(ledger["verdict"]) <= set(VERDICTS)
    assert (ledger["evidence"].str.len() > 20).all()
    assert ledger.loc["ninety-percent", "verdict"] == "contradicted"
    for claim_id in ("ft-reduces-robustness", "table21-caption", "table05-only-openai", "robust-methods-realistic"):
        assert ledger.loc[claim_id, "verdict"] == "partly_supported", claim_id
    for claim_id in ("largest-pretraining-worst", "degradation-grows-with-size", "laion400m-beats-2b", "eri-all-negative"):
        assert ledger.loc[claim_id, "verdict"] == "supported", claim_id
    assert "83.06" in ledger.loc["ninety-percent", "evidence"]
    assert "holds in 14 of 18" in ledger.loc["ft-reduces-robustness", "evidence"]