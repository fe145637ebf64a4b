import math

import pandas as pd
import pytest

from lib.audit import COLUMNS, audit_paper, check, not_checkable
from lib.cli import main
from lib.ssl_protocols.accuracies import published_accuracies
from lib.ssl_protocols.figure02 import PAPER_READING, in_domain_matrix, readings


def test_check_uses_half_a_printed_unit():
    assert check("p", "a", "q", "0.90", 0.8951).status == "ok"
    assert check("p", "a", "q", "0.90", 0.8949).status == "mismatch"
    assert check("p", "a", "q", "12", 12.4).status == "ok"
    assert check("p", "a", "q", "12", 12.4, tolerance=0.1).status == "mismatch"


def test_not_checkable_has_no_numbers():
    row = not_checkable("p", "a", "q", "0.85", "inputs not printed")
    assert row.status == "not_checkable" and math.isnan(row.recomputed)


def test_figure02_paper_reading_reproduces_the_quoted_values():
    matrix = in_domain_matrix(published_accuracies("top1"), PAPER_READING)
    assert matrix.loc["kNN", "LP"] == pytest.approx(0.9865, abs=5e-4)
    assert matrix.loc["LP"].mean() == pytest.approx(0.8975, abs=5e-4)
    table = readings(published_accuracies("top1"))
    full = table[table["quoted values reproduced"] == table.attrs["quoted values"]]
    assert len(full) == 1 and bool(full["is paper reading"].iloc[0])


def test_ssl_protocols_audit_rows(tmp_path):
    frame = audit_paper("ssl_protocols")
    assert list(frame.columns) == COLUMNS
    left = frame[frame["quantity"].str.startswith("left")]
    assert len(left) == 4 and (left["status"] == "ok").all()
    assert set(frame["status"]) <= {"ok", "mismatch", "not_checkable"}


def test_audit_cli_writes_the_contract_csv(tmp_path, capsys):
    out = tmp_path / "audit.csv"
    assert main(["audit", "--paper", "ssl_protocols", "--out", str(out)]) == 0
    written = pd.read_csv(out)
    assert list(written.columns) == COLUMNS and len(written) >= 6
    assert f"ssl_protocols: {len(written)} audit rows: ok" in capsys.readouterr().out


def test_unknown_paper_is_named():
    with pytest.raises(ValueError, match="unknown paper"):
        audit_paper("nope")


def test_seed_study_reading_is_population_std():
    from lib.ssl_protocols.seed_study import seed_runs

    runs = seed_runs()
    dino = runs[(runs["method"] == "DINO") & (runs["protocol"] == "Fine-tuning")].iloc[0]
    assert dino["std_population"] == pytest.approx(0.1250, abs=1e-3)  # printed 0.12
    assert dino["std_sample"] == pytest.approx(0.1531, abs=1e-3)  # would print 0.15


def test_ssl_protocols_audit_reports_the_known_inconsistencies():
    frame = audit_paper("ssl_protocols")
    mismatches = frame[frame["status"] == "mismatch"]
    assert set(mismatches["artefact"]) == {"table_s1", "table_s2", "table_s6", "table_s7", "table_s8"}
    sela = mismatches[mismatches["quantity"].str.contains("SeLa v2")]
    assert len(sela) == 1 and "3-run mean" in sela["note"].item()
    assert len(mismatches[mismatches["artefact"] == "table_s8"]) == 2  # few-shot batch 128 vs 256
    stds = frame[frame["quantity"].str.startswith("std of 3 runs")]
    assert len(stds) == 12 and (stds["status"] == "ok").all()
