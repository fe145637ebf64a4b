"""The published numbers, their re-derivation (audit), the claims ledger and the drawings, with known
answers from the paper's text."""

from __future__ import annotations

import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest

from lib import published
from lib.audit import audit_paper
from lib.claims import paper_ledger
from lib.fm_perturbations import audits
from lib.fm_perturbations.accuracies import PERTURBATIONS, drops, largest_drop, quoted, quoted_radii
from lib.fm_perturbations.figures import draw_accuracy_table, draw_figure01, draw_figure02, draw_table01
from lib.fm_perturbations.properties import printed_violations, property_checks


def test_tables_2_and_3_hold_every_printed_cell():
    for artefact, dataset in (("table02", "ImageNet"), ("table03", "Food101")):
        frame = published.load("fm_perturbations", artefact)
        assert len(frame) == 2 + 2 * 9 * 2 and set(frame["dataset"]) == {dataset}
        assert list(dict.fromkeys(frame.loc[frame["perturbation"] != "", "perturbation"])) == list(PERTURBATIONS)
        assert frame["value"].notna().all()


@pytest.mark.parametrize("dataset, head, perturbation, acc, acc_p, drop", [
    ("ImageNet", "Zero-shot Classification", "Glass blurring", 68.4, 59.0, 9.4),
    ("ImageNet", "Linear-probe Classification", "Contrast adjustment", 86.6, 86.4, 0.2),
    ("Food101", "Zero-shot Classification", "Frost blurring", 92.0, 79.3, 12.7),
    ("Food101", "Linear-probe Classification", "Frost blurring", 94.1, 85.0, 9.1),
])
def test_drops_known_cells(dataset, head, perturbation, acc, acc_p, drop):
    row = drops().query("dataset == @dataset and head == @head and perturbation == @perturbation").iloc[0]
    assert (row["ACC"], row["ACC_p"], row["drop"]) == (acc, acc_p, drop)
    assert row["recomputed_drop"] == pytest.approx(drop)


def test_largest_drops():
    assert largest_drop("ImageNet", "Zero-shot Classification") == ("Glass blurring", 9.4)
    assert largest_drop("ImageNet", "Linear-probe Classification") == ("Defocus blurring", 4.4)


def test_quoted_numbers():
    assert len(quoted()) == 13
    radii = quoted_radii().set_index(["model", "perturbation"])["value"]
    assert radii[("DINO v2 ViT-L/14", "JPEG compression")] == 0.038
    assert radii[("CLIP ViT-L/14", "Defocus blurring")] == 0.108


def test_table01_printed_and_our_checks_agree():
    printed = printed_violations().set_index(["metric", "property"])["violated"]
    assert printed.sum() == 2 and printed[("DivergenceRadius", "Worst robustness")] == False  # noqa: E712
    ours = property_checks().set_index(["metric", "property"])["violated"]
    assert (ours == printed).all()


def test_audit_rows_and_known_mismatches():
    frame = audit_paper("fm_perturbations")
    assert len(frame) == len(audits()) == 69
    assert frame["status"].value_counts().to_dict() == {"ok": 60, "not_checkable": 7, "mismatch": 2}
    mismatches = frame[frame["status"] == "mismatch"]["quantity"].tolist()
    assert any("Frost blurring, Food101, Linear-probe" in q for q in mismatches)
    assert any("Defocus blurring has the largest ACC_p drop, ImageNet, Zero-shot" in q for q in mismatches)
    drop_rows = frame[frame["quantity"].str.startswith("drop, ")]
    assert len(drop_rows) == 36 and (drop_rows["status"] == "ok").all()


def test_claims_ledger_verdicts():
    ledger = paper_ledger("fm_perturbations").set_index("claim_id")["verdict"]
    assert ledger["frost-food-linear-drop"] == "contradicted"
    assert ledger["defocus-largest-drop"] == "partly_supported"
    for claim in ("table01-violations", "theorem2-euclidean-sqrt-cosine", "figure01-cosine-not-worst",
                  "perturbations-degrade-accuracy", "glass-zero-shot-drop", "dino-vs-clip-quoted-example"):
        assert ledger[claim] == "supported", claim


@pytest.mark.parametrize("draw", [draw_table01, lambda: draw_accuracy_table("table02"),
                                  lambda: draw_accuracy_table("table03"), draw_figure01, draw_figure02])
def test_drawings_return_a_figure_and_its_data(draw):
    fig, data = draw()
    assert isinstance(data, pd.DataFrame) and not data.empty
    assert fig.axes


def test_figure_examples_values():
    _, one = draw_figure01()
    values = one.set_index("kind")["value"]
    assert values["R_cs"] == pytest.approx(0.75) and values["R_dr"] == pytest.approx(1.0)
    assert values["ball centre"] == pytest.approx(1.0)


def test_importing_the_package_imports_no_torch():
    code = "import sys, lib.fm_perturbations, lib.fm_perturbations.figures, lib.fm_perturbations.claims; print('torch' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"
