"""Re-derivations of Seq-to-Final: summary readings, formatting rules and the audit rows."""

import time

import pytest

from lib.audit import COLUMNS, audit_paper
from lib.seq_to_final import formatting, summaries


def test_rows_for_counts_convnets_in_block_columns_only():
    assert len(summaries.rows_for("table08", "ST-B", "printed rows")) == 8
    assert len(summaries.rows_for("table08", "ST-B", "ConvNet in -B only")) == 12
    assert len(summaries.rows_for("table08", "ST-1", "ConvNet in -B only")) == 8
    assert len(summaries.rows_for("table08", "ST-1", "ConvNet in -1 and -B")) == 12


def test_known_summary_values():
    frame = summaries.recomputed("table08").set_index(["method", "statistic", "rows", "std"])
    # Table 8 ST-B: ConvNets from ST-1 (.49 .51 .56 .56) plus the 8 printed rows -> 6.66 / 12
    assert frame.loc[("ST-B", "Mean", "ConvNet in -B only", ""), "value"] == pytest.approx(6.66 / 12)
    assert frame.loc[("ST-B", "Mean", "printed rows", ""), "value"] == pytest.approx(4.54 / 8)
    # Table 8 EWC mean from its rows: 6.89 / 12
    assert frame.loc[("EWC", "Mean", "printed rows", ""), "value"] == pytest.approx(6.89 / 12)


def test_official_reading_reproduces_every_summary_cell():
    for artefact in summaries.ACCURACY_TABLES:
        frame = summaries.primary(summaries.recomputed(artefact))
        assert (frame["delta"].abs() <= summaries.TOLERANCE + 1e-9).all(), artefact
    scores = summaries.reading_scores().groupby("std")["exact at 2 decimals"].sum()
    assert scores["population"] > scores["sample"]


def test_formatting_rules_on_known_rows():
    t2 = formatting.table02_sets().set_index("sequence")
    assert t2.loc["Rotation, corruption, label", "bold"] == ["LP-FT", "ST-1", "JST-1"]
    assert t2.loc["Rotation, corruption, label", "italic"] == ["LP-FT"]
    assert t2.loc["Portraits", "italic"] == []
    cells = formatting.cell_sets("table08").set_index("row")
    assert cells.loc["Conv-1", "italic"] == ["SFT", "JST-1"]  # >= oracle .54 - .02
    means = formatting.mean_sets("table09").set_index("method")
    assert bool(means.loc["LP-FT", "bold"]) and not bool(means.loc["ERM", "bold"])


def test_audit_rows_and_known_mismatches():
    start = time.perf_counter()
    frame = audit_paper("seq_to_final")
    assert time.perf_counter() - start < 30
    assert list(frame.columns) == COLUMNS
    summary_rows = frame[frame["quantity"].str.match(r"^(Mean|Std dev) of ")]
    assert len(summary_rows) == 7 * 18 * 2 - 2 and (summary_rows["status"] == "ok").all()
    t2 = frame[(frame["artefact"] == "table02") & frame["quantity"].str.contains("equals")]
    assert len(t2) == 108
    mismatched = t2[t2["status"] == "mismatch"]["quantity"].tolist()
    assert mismatched == ["Corruption, label, rotation: EWC equals table08's Mean"]
    t15 = frame[frame["artefact"] == "table15"].set_index("quantity")["status"]
    assert t15.filter(like="replicates row 0").item() == "ok"
    assert t15.filter(like="replicates row 3").item() == "mismatch"


def test_parameter_counts_reproduce_table7():
    from lib.seq_to_final.audit import parameter_audits

    rows = parameter_audits()
    assert len(rows) == 12 and all(r.status == "ok" for r in rows)
    res4 = next(r for r in rows if r.quantity.startswith("Res-4"))
    assert "11,181,642" in res4.note and "would not round" in res4.note
