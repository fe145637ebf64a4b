"""A smoke run of benchmarks/fm_perturbations_grid.py: a small CLIP at 64 px, 2 images, 2 perturbations, 2 values."""

from __future__ import annotations

import numpy as np


def test_the_grid_benchmark_times_every_part_of_the_inner_step(capsys, tmp_path, load_benchmark):
    benchmark = load_benchmark("fm_perturbations_grid")
    out = tmp_path / "rows.csv"
    frame = benchmark.main(["--model", "ViT-S-32", "--image-size", "64", "--batch-size", "4", "--images", "2",
                            "--perturbations", "jpeg_compression", "frost", "--values", "2", "--workers", "2", "--out", str(out)])
    assert list(frame["perturbation"]) == ["clean", "jpeg_compression", "frost", "all"]
    assert list(frame["versions"]) == [2, 4, 4, 10]
    shares = frame[["perturb_share", "embed_share", "metrics_share"]].sum(axis=1)
    np.testing.assert_allclose(shares, 1.0)
    assert (frame["images_per_s"] > 0).all() and (frame["versions_per_s"] > 0).all()
    assert (frame["perturb_s"].iloc[1:] > 0).all() and (frame["metrics_s"].iloc[1:] > 0).all()
    np.testing.assert_allclose(frame["total_s"].iloc[-1], frame["total_s"].iloc[:-1].sum())
    printed = capsys.readouterr().out
    assert "device: cpu" in printed and "perturb_share" in printed and "2 perturbing threads" in printed
    assert out.is_file()
