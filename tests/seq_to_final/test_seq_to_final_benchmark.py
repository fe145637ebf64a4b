"""A smoke run of benchmarks/seq_to_final_steps.py: Conv-1 at 8 px, batches of 4, one timed step per fit."""

from __future__ import annotations

import importlib.util
import sys

from lib.paths import REPO_ROOT
from lib.seq_to_final.tables import METHODS


def test_the_step_benchmark_times_every_column_of_table_1(capsys, monkeypatch, tmp_path):
    path = REPO_ROOT / "benchmarks" / "seq_to_final_steps.py"
    spec = importlib.util.spec_from_file_location("seq_to_final_steps", path)
    steps = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, steps)  # its dataclasses look their module up while defined
    spec.loader.exec_module(steps)
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
