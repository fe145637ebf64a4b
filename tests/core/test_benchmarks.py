"""Smoke runs of benchmarks/throughput.py (a tiny model, a couple of batches, both data kinds) and
benchmarks/cpu_speed.py."""

from __future__ import annotations


def test_the_throughput_benchmark_prints_every_task_as_a_ratio_to_the_ceiling(capsys, tmp_path, load_benchmark):
    throughput = load_benchmark("throughput")
    frame = throughput.main(["--model", "vit_tiny_patch16_224", "--image-size", "32", "--batch-size", "2",
                             "--batches", "1", "--workers", "0", "--ceiling-size", "128",
                             "--tasks", "evaluation", "features", "EWC", "--out", str(tmp_path / "rows.csv")])
    assert list(frame["data"]) == ["synthetic"] * 3 + ["jpeg"] * 3
    assert list(frame["task"]) == ["evaluation", "features", "EWC"] * 2
    assert (frame["images_per_s"] > 0).all() and (frame["ratio_to_ceiling"] > 0).all()
    assert (frame["one_off_s"] >= 0).all() and (frame["dtype"] == "float32").all()
    printed = capsys.readouterr().out
    assert "device: cpu" in printed and "ratio_to_ceiling" in printed and (tmp_path / "rows.csv").is_file()


def test_the_speed_probe_repeats_the_same_work_and_prints_its_median(capsys, load_benchmark):
    speed = load_benchmark("cpu_speed")
    seconds, loss = speed.train()
    median, repeated_loss = speed.main(["--repeats", "1"])  # trains twice more, the second timed
    assert repeated_loss == loss and seconds > 0 and median > 0  # same seed, same arithmetic: the same final loss
    printed = capsys.readouterr().out
    assert f"in {median:.2f} s (median of 1;" in printed and f"final loss {loss:.6f}" in printed
