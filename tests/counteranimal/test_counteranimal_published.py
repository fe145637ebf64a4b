import math

import pytest

from lib.counteranimal.published import class_names, classwise, model_table, parse_cell, parse_spread, raw, wide

CELLS = {"table01": 25, "table02": 90, "table03": 84, "table04": 45, "table05": 21, "table06": 14, "table07": 24,
         "table08": 144, "table09": 45, "table10": 84, "table11": 84, "table12": 45, "table13": 84, "table14": 45,
         "table15": 405, "table16": 405}


@pytest.mark.parametrize("artefact, cells", CELLS.items())
def test_every_printed_cell_has_one_row(artefact, cells):
    frame = raw(artefact)
    assert len(frame) == cells
    labels = [c for c in frame.columns if c not in ("printed", "value")]
    assert not frame.duplicated(labels).any()


def test_printed_text_is_kept():
    t09 = raw("table09").set_index(["checkpoint", "metric"])["printed"]
    assert t09[("S S13M B4K", "common")] == "0.02"
    t07 = raw("table07").set_index(["backbone", "approach", "metric"])["printed"]
    assert t07[("ViT16", "obj", "out-of-distribution")] == "21"
    assert wide(model_table("table03")).set_index("model").loc["CLIP-LAION400M-ViT/B/32", "drop"] == 30.18


def test_mean_sd_and_na_cells():
    assert parse_cell("87.42±0.79") == 87.42 and parse_spread("87.42±0.79") == 0.79
    assert math.isnan(parse_cell("n/a")) and math.isnan(parse_spread("12.5"))
    assert raw("table08")["value"].isna().sum() == 8  # the rest-class column of the 2-class rows


def test_table02_has_45_classes_with_two_backgrounds():
    names = class_names()
    assert list(names["class_id"]) == list(range(1, 46))
    assert names.loc[names["class_id"] == 39, ["common", "counter"]].values.tolist() == [["snow", "grass"]]


def test_families_and_high_quality_marks():
    table = wide(model_table("table03"))
    assert table["family"].value_counts().to_dict() == {"CLIP": 20, "CLIP-DC": 4, "CLIP-DFN": 4}
    assert (table["high_quality"] == (table["family"] != "CLIP")).all()
    lvlms = wide(model_table("table05"))
    assert set(lvlms.loc[lvlms["family"] == "LVLM", "model"]) == {"MiniGPT4-Vicuna7B", "LLaVA1.5-7B"}


def test_classwise_tables_hold_45_classes_of_three_models():
    for artefact in ("table15", "table16"):
        frame = classwise(artefact)
        assert frame["class_id"].nunique() == 45 and frame["model"].nunique() == 3
