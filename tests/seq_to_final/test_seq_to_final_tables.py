"""The printed tables of Seq-to-Final load as printed, with known cells and shapes."""

import math

import pytest

from lib import published
from lib.seq_to_final import tables


def test_accuracy_tables_have_all_rows_and_methods():
    for artefact in tables.ACCURACY_TABLES:
        frame = tables.accuracies(artefact)
        wide = tables.units(artefact)
        expected_rows = 7 if artefact == "table14" else 12
        assert len(wide) == expected_rows
        expected_methods = 17 if artefact == "table13" else 18
        assert list(wide.columns) == [m for m in tables.METHODS if m != "Oracle" or artefact != "table13"]
        assert len(frame) == (expected_rows + 2) * expected_methods


def test_known_cells_and_dashes():
    t8 = tables.accuracies("table08").set_index(["row", "method"])
    assert t8.loc[("Conv-1", "Baseline"), "printed"] == ".47"
    assert t8.loc[("Res-4", "Oracle"), "value"] == pytest.approx(0.71)
    assert math.isnan(t8.loc[("Conv-2", "SST-B"), "value"]) and t8.loc[("Conv-2", "SST-B"), "printed"] == "—"
    assert tables.printed_summary("table13", "Std dev")["JST-B"] == ".17"
    assert tables.units("table14").loc["8", "JST-B"] == pytest.approx(0.41)


def test_table02_panels_and_portraits_oracle():
    frame = tables.table02()
    assert len(frame) == 6 * 18
    assert frame.groupby("panel").size().to_dict() == {"a": 30, "b": 36, "c": 42}
    matrix = tables.table02_matrix("printed")
    assert matrix.loc["Portraits", "Oracle"] == "—"
    assert matrix.loc["Rotation, corruption, label", "ERM"] == ".19"


def test_other_tables():
    sizes = tables.sample_sizes()
    assert sizes.groupby("n_steps")["thousands"].sum().eq(20).all()
    assert tables.portraits_sizes().sum() == 37189
    models = tables.model_sizes().set_index("model")
    assert models.loc["Res-3", "millions"] == pytest.approx(10.9) and models.loc["Dense-2", "sizes"] == (6, 16)
    assert tables.table15()["printed"].tolist()[:2] == [".5470", ".6766"]
    t5 = tables.shift_metrics("table05")
    assert len(t5) == 30 and set(t5["metric"]) == {"W_X", "W_XgivenY"}
    methods = tables.methods_table()
    assert len(methods) == 18 and methods.set_index("method").loc["JM", "final_mode"] == ""


def test_published_values_keep_printed_text():
    frame = published.load("seq_to_final", "table07", numeric=False)
    assert frame.set_index(["model", "quantity"]).loc[("Conv-1", "n_parameters"), "printed"] == ".3M"
