"""A smoke run of benchmarks/counteranimal_zero_shot.py: open_clip's smallest CLIP, a few classes, one timed batch."""

from __future__ import annotations

import pytest


@pytest.fixture
def benchmark(load_benchmark):
    return load_benchmark("counteranimal_zero_shot")


SMOKE = ["--models", "ViT-S-32-alt", "--classes", "4", "--batch-size", "2", "--batches", "1"]


def test_the_zero_shot_benchmark_times_the_head_and_the_evaluation(benchmark, capsys, tmp_path):
    frame = benchmark.main([*SMOKE, "--out", str(tmp_path / "rows.csv")])
    row = frame.iloc[0]
    assert (row["model"], row["classes"], row["templates"], row["ranking"]) == ("ViT-S-32-alt", 4, 1, "1 vs 4")
    assert row["image_size"] == 224 and row["dtype"] == "float32"  # the model's own size; the CPU never autocasts
    assert row["images_per_s"] > 0 and row["head_build_s"] >= 0 and row["peak_memory_gib"] > 0
    assert (tmp_path / "rows.csv").is_file()
    printed = capsys.readouterr().out
    assert "device: cpu" in printed and "images_per_s" in printed


def test_the_benchmark_ranks_among_candidates_with_the_prompt_ensemble(benchmark):
    row = benchmark.main([*SMOKE, "--candidates", "2", "--templates", "80"]).iloc[0]
    assert row["ranking"] == "1 vs 2" and row["templates"] == 80 and row["images_per_s"] > 0
