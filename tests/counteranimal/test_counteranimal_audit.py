import subprocess
import sys

import pandas as pd
import pytest

from lib.audit import audit_paper


@pytest.fixture(scope="module")
def rows() -> pd.DataFrame:
    return audit_paper("counteranimal")


def _status(rows, artefact, quantity):
    match = rows[(rows["artefact"] == artefact) & (rows["quantity"] == quantity)]
    assert len(match) == 1, quantity
    return match["status"].iloc[0]


def test_every_printed_drop_is_audited(rows):
    drops = rows[rows["quantity"].str.startswith("drop ")]
    # 28 CLIPs x 5 tables + 15 ImageNet x 3 + 7 (Table 5) + 15 (Table 9) + 5 (Table 1) + 8 (Table 7) + 2 x 135
    assert len(drops) == 28 * 4 + 15 * 3 + 7 + 15 + 5 + 8 + 2 * 135
    assert set(drops["status"]) <= {"ok", "mismatch"}


@pytest.mark.parametrize("artefact, quantity", [
    ("table10", "drop CLIP-LAION2B-ViT/G/14"), ("table14", "drop RN50"),
    ("table16", "drop CLIP-OpenAI-ViT/B/32 39"), ("table16", "drop CLIP-OpenAI-ViT/B/32 37"),
    ("table05", "CLIP-OpenAI-ViT/L/14 common vs table13 (1 vs 20)"),
    ("table01", "dung beetle counter background 'hand' equals Table 2's"),
])
def test_known_garbles_are_mismatches(rows, artefact, quantity):
    assert _status(rows, artefact, quantity) == "mismatch"


@pytest.mark.parametrize("artefact, quantity", [
    ("table03", "drop CLIP-LAION400M-ViT/B/32"), ("table05", "CLIP-OpenAI-ViT/L/14 common vs table03 (1 vs 1000)"),
    ("table01", "ice bear drop"), ("figure01", "ice bear common accuracy in the caption"),
    ("table02", "number of classes (Sec. 1: 45)"),
])
def test_consistent_numbers_are_ok(rows, artefact, quantity):
    assert _status(rows, artefact, quantity) == "ok"


def test_columns_and_statuses(rows):
    assert set(rows["status"]) == {"ok", "mismatch", "not_checkable"}
    assert rows["paper"].eq("counteranimal").all()


def test_importing_the_package_loads_no_torch():
    code = "import sys, lib.counteranimal, lib.counteranimal.figures; assert 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
