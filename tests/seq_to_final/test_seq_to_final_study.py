"""lib.seq_to_final.study: strict settings, and a tiny sweep through the results store."""

from dataclasses import replace

import pandas as pd
import pytest
import torch

from lib.data.labelled import DatasetMissingError
from lib.params import ParamsError
from lib.seq_to_final.methods import RUNS, Hyper, Settings
from lib.seq_to_final.study import Study, StudySettings, accuracies
from lib.seq_to_final.tables import ARCHITECTURES

TINY = "params/tiny/seq_to_final/study.yaml"
FULL = "params/full/seq_to_final/study.yaml"


def _write(tmp_path, text):
    path = tmp_path / "study.yaml"
    path.write_text(text)
    return path


def test_tiny_settings_load_and_convert():
    settings = StudySettings.load(TINY)
    method_settings = settings.method_settings()
    assert method_settings.grid() == [Hyper(1e-3, 1e-4, 0.0)] and method_settings.linear_decays == ((1e-3, 1e-4),)
    assert list(settings.specs()) == ["CLR", "RCL", "rrr", "TTT", "sss", "rotation_2", "rotation_3", "portraits"]
    assert settings.specs()["sss"].pool == "digits_subpopulations" and settings.specs()["rotation_3"].sizes == (100, 60, 40)


def test_full_settings_hold_the_paper_and_stop_on_the_missing_data_before_compute(tmp_path, monkeypatch):
    full = StudySettings.load(FULL)  # validates offline, without the data
    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(tmp_path))
    with pytest.raises(DatasetMissingError, match=r"'cifar10' .*not found at .*ROBUSTNESS_DATA_ROOT.*cs.toronto.edu"):
        Study(full, tmp_path / "results").jobs()
    assert set(full.architectures) == set(ARCHITECTURES) and set(full.methods + full.ablation_methods) == set(RUNS)
    assert full.method_settings() == replace(Settings(), device="cuda")  # the official settings, on the GPU
    assert full.sizes == [6000, 4000, 6000, 4000]
    assert full.architectures_of("rotation_8") == ["Res-4"] and full.architectures_of("CLR") == full.architectures


@pytest.mark.parametrize("change, message", [
    ("unknown_key: 1\n", "unknown parameter"),
    ("", "missing parameter"),
])
def test_unknown_or_missing_keys_fail_with_one_line(tmp_path, change, message):
    text = open(TINY).read()
    if not change:
        text = text.replace("seeds: [0, 1]\n", "")
    with pytest.raises(ParamsError, match=message):
        StudySettings.load(_write(tmp_path, text + change))


@pytest.mark.parametrize("old, new, message", [
    ("methods: [Oracle,", "methods: [Orakel,", "unknown method"),
    ("architectures: [Conv-1]\nmethods", "architectures: [Conv-9]\nmethods", "unknown architecture"),
    ("sequences: [CLR, RCL, rrr, TTT, sss]", "sequences: [CLR, XYZ]", "unknown sequence"),
    ("  patience: 1\n", "  patient: 1\n", "unknown protocol key"),
    ("pool: digits\n", "pool: mnist\n", "unknown pool 'mnist'"),
])
def test_unknown_names_fail_with_one_line(tmp_path, old, new, message):
    text = open(TINY).read()
    assert old in text
    with pytest.raises(ParamsError, match=message) as error:
        StudySettings.load(_write(tmp_path, text.replace(old, new, 1)))
    assert "\n" not in str(error.value)


def test_tiny_study_runs_through_the_store_and_reads_back(tmp_path):
    torch.set_num_threads(1)
    tiny = StudySettings.load(TINY)
    settings = replace(tiny, sequences=["CLR"], variable_lengths=[], methods=["Baseline", "FT"], seeds=[0],
                       ablation_methods=[], portraits={**tiny.portraits, "architectures": []})
    study = Study(settings, tmp_path)
    first = study.run()
    assert len(first) == 2 * 30 and set(first["method"]) == {"Baseline", "FT"} and set(first["sequence"]) == {"CLR"}
    assert {"run_key", "duration_s", "pool_index", "pred_1"} <= set(first.columns)
    assert study.precompute() == 0  # everything is stored
    second = study.run()
    assert first.drop(columns=["duration_s"]).equals(second.drop(columns=["duration_s"]))


def _runs(method, column, correct, valid):
    return pd.DataFrame({"sequence": "CLR", "architecture": "Conv-1", "seed": 0, "column": column, "method": method,
                         "item": range(len(correct)), "target": 1, "pred_1": [1 if c else 0 for c in correct],
                         "valid_accuracy": valid})


def test_sft_column_takes_the_best_test_schedule_in_the_code_reading_and_the_best_valid_otherwise():
    frame = pd.concat([_runs("SFT", "SFT", [1, 0, 0, 0], 0.9), _runs("SFT-linear", "SFT", [1, 1, 1, 0], 0.5),
                       _runs("SFT-exponential", "SFT", [1, 1, 0, 0], 0.7), _runs("FT", "FT", [1, 1, 0, 1], 0.8)])
    code = accuracies(frame).set_index("column")
    assert code.loc["SFT", "run"] == "SFT-linear" and code.loc["SFT", "accuracy"] == 0.75
    assert code.loc["FT", "accuracy"] == 0.75 and len(code) == 2
    valid = accuracies(frame, "valid").set_index("column")
    assert valid.loc["SFT", "run"] == "SFT" and valid.loc["SFT", "accuracy"] == 0.25
    with pytest.raises(ValueError, match="reading must be one of"):
        accuracies(frame, "test")


def test_a_corrected_method_has_its_revision_in_its_store_key(tmp_path):
    study = Study(StudySettings.load(TINY), tmp_path)
    spec = study.settings.specs()["CLR"]
    config = {m: study.run_config("CLR", spec, "Conv-1", m, 0) for m in ("ST-B", "SST-B", "ST-1", "FT")}
    assert config["ST-B"]["revision"] == config["SST-B"]["revision"] == 2
    assert "revision" not in config["ST-1"] and "revision" not in config["FT"]  # other runs keep their keys


def test_block_sides_on_conv_nets_are_not_computed_but_read_from_the_one_layer_runs():
    settings = replace(StudySettings.load(TINY), methods=["FT", "ST-1", "ST-B", "JST-B"])
    runs = {(name, architecture, method) for name, architecture, method, _ in settings.runs()}
    assert ("RCL", "Conv-1", "ST-1") in runs and ("RCL", "Conv-1", "ST-B") not in runs
    assert ("RCL", "Conv-1", "JST-B") in runs  # its 1-layer variant is not run: it has its own run
    accuracies_ = pd.DataFrame({"sequence": "RCL", "architecture": "Conv-1", "seed": 0, "column": ["FT", "ST-1"],
                                "method": ["FT", "ST-1"], "accuracy": [0.5, 0.7], "valid_accuracy": [0.4, 0.6]})
    read = settings.with_doubles(accuracies_)
    block = read[(read["sequence"] == "RCL") & (read["method"] == "ST-B")]
    assert block[["column", "accuracy", "valid_accuracy"]].values.tolist() == [["ST-B", 0.7, 0.6]]
