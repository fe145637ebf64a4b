"""Smoke runs of benchmarks/seq_to_final_steps.py (Conv-1 at 8 px, batches of 4, one timed step per fit) and
benchmarks/seq_to_final_geometry.py (the tiny tier's analysis runs on the CPU)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from lib.seq_to_final.tables import METHODS


def test_the_step_benchmark_times_every_column_of_table_1(capsys, tmp_path, load_benchmark):
    steps = load_benchmark("seq_to_final_steps")
    frame = steps.main(["--architectures", "Conv-1", "--batch-size", "4", "--batches", "1", "--image-size", "8",
                        "--out", str(tmp_path / "rows.csv")])
    assert list(dict.fromkeys(frame["column"])) == list(METHODS)
    assert (frame["images_per_s"] > 0).all() and (frame["one_off_s"] >= 0).all()
    assert (frame["peak_memory_gib"] > 0).all()
    update = frame.groupby(["column", "stage"])["update"].first()
    trained = frame.groupby("update")["trained_parameters"].first()
    images = frame.groupby("update")["images_per_step"].first()
    assert update["IRM", "all steps"] == update["I-FT", "pre-training"] == steps.IRM
    assert trained[steps.PROBE] < trained[steps.CE] == trained[steps.PROBED]  # the probe trains the head alone
    assert trained[steps.JM] == steps.N_STEPS * trained[steps.CE]  # one model per step
    assert images[steps.CE] == 4 and images[steps.JM] == images[steps.DRO] == 4 * steps.N_STEPS
    printed = capsys.readouterr().out
    assert "device: cpu" in printed and "images_per_s" in printed and (tmp_path / "rows.csv").is_file()


def test_the_geometry_check_runs_the_tiny_analysis_runs_and_checks_them(capsys, tmp_path, load_benchmark):
    geometry = load_benchmark("seq_to_final_geometry")
    frame = geometry.main(["--sequences", "CLR", "--out", str(tmp_path / "rows.csv")])
    assert list(frame["analysis"]) == ["path", "regularisation"]  # CLR is the geometry run; Fig. 9's always runs
    assert frame["geometry"].tolist() == [True, False] and (frame["check"] == "ok").all()
    assert (frame["seconds"] > 0).all() and (frame["rows"] > 0).all()
    printed = capsys.readouterr().out
    assert "on cpu" in printed and "0 failed their check" in printed and (tmp_path / "rows.csv").is_file()


def test_the_geometry_check_flags_accuracies_outside_0_1_and_non_finite_coordinates(load_benchmark):
    checked = load_benchmark("seq_to_final_geometry").checked
    good = pd.DataFrame({"analysis": ["path", "svcca"], "accuracy": [0.5, np.nan], "x": [np.nan, 0.2],
                         "y": [np.nan, 0.3]})
    assert checked(good) == "ok"
    assert checked(good.assign(accuracy=[1.5, np.nan])).startswith("path accuracy outside [0, 1]")
    assert checked(good.assign(x=[np.nan, np.inf])) == "a projection or SVCCA coordinate is not finite"
