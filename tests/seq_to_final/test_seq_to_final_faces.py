"""lib.seq_to_final.faces: the Portraits stand-in (exact step counts and splits, a monotone drift, balanced
labels, no test image among the training images) and its settings (Table 13's study, Fig. 15's paths)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from lib.data.labelled import DatasetMissingError
from lib.params import ParamsError
from lib.seq_to_final.faces import (FACES_POOL, PORTRAITS_SEQUENCE, DecadeStyle, FacesSpec, decade_sizes, faces_pool,
                                    style_at)
from lib.seq_to_final.geometry import GeometrySettings
from lib.seq_to_final.portraits import PortraitsSpec, decade_counts
from lib.seq_to_final.sequence import build
from lib.seq_to_final.study import Study, StudySettings

MINI, TINY, FULL = (f"params/{tier}/seq_to_final/study.yaml" for tier in ("mini", "tiny", "full"))


@pytest.fixture(scope="module")
def mini_sequence():
    return build(StudySettings.load(MINI).specs()[PORTRAITS_SEQUENCE])


def test_sizes_are_table_4_scaled_with_half_the_final_decade_for_testing():
    assert decade_counts() == (2686, 4478, 3810, 4776, 5176, 5442, 5307, 5514)
    assert decade_sizes(0.04) == ((107, 179, 152, 191, 207, 218, 212, 111), 110)  # 5514 x .04 = 221 = 111 + 110
    assert decade_sizes(1.0) == ((*decade_counts()[:-1], 2757), 2757)


def test_the_pool_is_lfw_subset_and_its_mirrors_split_by_source_image():
    pool = faces_pool(8)
    assert pool.train_images.shape == (280, 8, 8, 3) and pool.test_images.shape == (120, 8, 8, 3)
    assert pool.num_classes == 2 and pool.name == FACES_POOL
    assert np.bincount(pool.train_labels).tolist() == [140, 140] and np.bincount(pool.test_labels).tolist() == [60, 60]
    for images in (pool.train_images, pool.test_images):
        half = len(images) // 2
        np.testing.assert_array_equal(images[half:], images[:half, :, ::-1])  # each image's mirror follows
        assert (images[..., 0] == images[..., 2]).all()  # grey as RGB
    train = {image.tobytes() for image in pool.train_images}
    assert not any(image.tobytes() in train for image in pool.test_images)


def test_mini_steps_hold_exact_counts_and_the_final_split_is_40_10_50(mini_sequence):
    counts = [{split: len(step[split]) for split in step} for step in mini_sequence.steps]
    assert [c["train"] for c in counts] == [85, 143, 120, 152, 165, 174, 168, 88]
    assert [c["valid"] for c in counts] == [22, 36, 32, 39, 42, 44, 44, 23]
    assert [sorted(c) for c in counts[:-1]] == [["train", "valid"]] * 7 and counts[-1]["test"] == 110
    final = counts[-1]
    assert abs(final["train"] / 221 - 0.4) < 0.01 and abs(final["valid"] / 221 - 0.1) < 0.01
    assert abs(final["test"] / 221 - 0.5) < 0.01


def test_labels_are_balanced_in_every_step_and_split(mini_sequence):
    for step in mini_sequence.steps:
        for split in step.values():
            faces, non_faces = np.bincount(split.labels, minlength=2)[::-1]
            assert abs(int(faces) - int(non_faces)) <= 1


def test_the_drift_moves_monotonically_to_the_final_style():
    styles = [style_at(t, 7) for t in range(8)]
    for field in ("tone", "contrast", "blur"):
        values = [getattr(s, field) for s in styles]
        assert values == sorted(values) or values == sorted(values, reverse=True)
        assert len(set(values)) == 8
    assert styles[-1] == DecadeStyle(1.0, 1.0, 0.0) and styles[0] == DecadeStyle(1.5, 0.5, 1.0)
    images = faces_pool(16).train_images[:40]
    np.testing.assert_array_equal(styles[-1].apply(images), images)  # the final decade is the pool's look
    spread = [float(style.apply(images).std()) for style in styles]
    distance = [float(np.abs(style.apply(images).astype(int) - images).mean()) for style in styles]
    assert spread == sorted(spread) and distance == sorted(distance, reverse=True) and distance[-1] == 0


def test_each_step_draws_with_its_own_seed_and_styles_its_images(mini_sequence):
    pool = faces_pool(8)
    for t, step in enumerate(mini_sequence.steps):
        for name, split in step.items():
            source = pool.test_images if name == "test" else pool.train_images
            np.testing.assert_array_equal(split.images, style_at(t, 7).apply(source[split.pool_indices]))
            np.testing.assert_array_equal(split.labels, (pool.test_labels if name == "test" else
                                                         pool.train_labels)[split.pool_indices])
    again = build(StudySettings.load(MINI).specs()[PORTRAITS_SEQUENCE])
    np.testing.assert_array_equal(again.final("test").pool_indices, mini_sequence.final("test").pool_indices)


def test_the_study_runs_portraits_on_its_own_architectures_and_methods():
    settings = StudySettings.load(MINI)
    runs = [r for r in settings.runs() if r[0] == PORTRAITS_SEQUENCE]
    assert {r[1] for r in runs} == {"Conv-1", "Conv-2"} and {r[3] for r in runs} == set(settings.seeds)
    assert {r[2] for r in runs} == {"Baseline", "FT", "SFT", "JM"} and len(runs) == 8 * len(settings.seeds)
    assert isinstance(settings.specs()[PORTRAITS_SEQUENCE], FacesSpec)
    paths = GeometrySettings.load("params/mini/seq_to_final/geometry.yaml").spec(PORTRAITS_SEQUENCE)
    assert paths == FacesSpec.scaled(0.02, 8) and paths.test_size == 55  # Fig. 15: half the study's scale


@pytest.mark.parametrize("old, new, message", [
    ("  scale: 0.015\n", "  scale: 0.015\n  mirror: true\n", "portraits must hold exactly the keys"),
    ("  pool: lfw_faces\n", "  pool: yearbook\n", "portraits pool must be one of"),
    ("  methods: [Baseline, FT, SFT, JM]\n", "  methods: [Oracle, FT]\n", "unknown Portraits method"),
    ("  architectures: [Conv-1]\n  methods: [Baseline", "  architectures: [Conv-9]\n  methods: [Baseline",
     "unknown architecture"),
    ("  pool: lfw_faces\n", "  pool: portraits\n", "the real Portraits decades run at scale 1"),
    ("  input_scaling: raw", "  input_scaling: imagenet", "portraits input_scaling must be one of"),
])
def test_the_portraits_block_is_read_strictly(tmp_path, old, new, message):
    text = open(TINY).read()
    assert old in text
    path = tmp_path / "study.yaml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ParamsError, match=message) as error:
        StudySettings.load(path)
    assert "\n" not in str(error.value)


def test_the_papers_augmentation_needs_raw_portraits_inputs(tmp_path):
    path = tmp_path / "study.yaml"
    augment = ("protocol:\n", "protocol:\n  augmentation: paper\n")
    scale = ("  input_scaling: raw", "  input_scaling: imagenet_255")
    augmented, scaled = (open(TINY).read().replace(old, new, 1) for old, new in (augment, scale))
    for text in (augmented, scaled):  # either alone loads
        path.write_text(text)
        StudySettings.load(path)
    path.write_text(scaled.replace(*augment, 1))
    with pytest.raises(ParamsError, match="augmentation 'paper' augments 0-255 images") as error:
        StudySettings.load(path)
    assert "\n" not in str(error.value)


def test_the_scaled_decades_are_their_own_runs_and_reach_the_networks_scaled(tmp_path):
    from lib.seq_to_final.methods import to_tensors

    settings = StudySettings.load(TINY)
    scaled = replace(settings, portraits={**settings.portraits, "input_scaling": "imagenet_255"})
    raw_spec, scaled_spec = (s.specs()[PORTRAITS_SEQUENCE] for s in (settings, scaled))
    configs = [Study(s, tmp_path).run_config(PORTRAITS_SEQUENCE, spec, "Conv-1", "FT", 0)
               for s, spec in ((settings, raw_spec), (scaled, scaled_spec))]
    assert "input_scaling" not in configs[0] and configs[1]["input_scaling"] == "imagenet_255"
    raw_inputs, scaled_inputs = (to_tensors(build(spec)).test[0] for spec in (raw_spec, scaled_spec))
    assert raw_inputs.max() > 100 and scaled_inputs.max() < -1.7


def test_full_runs_the_real_decades_and_stops_on_the_missing_archive_before_compute(tmp_path, monkeypatch):
    full = StudySettings.load(FULL)
    assert full.specs()[PORTRAITS_SEQUENCE] == PortraitsSpec(32, 1007)
    assert len(full.portraits["architectures"]) == 12 and "Oracle" not in full.portraits["methods"]
    assert PortraitsSpec().sizes == (*decade_counts()[:-1], 2757) and PortraitsSpec().test_size == 2757
    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(tmp_path))
    only_portraits = replace(full, sequences=[], variable_lengths=[], ablation_methods=[])
    with pytest.raises(DatasetMissingError, match="'portraits'"):
        Study(only_portraits, tmp_path / "results").jobs()
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").rglob("*.parquet"))
