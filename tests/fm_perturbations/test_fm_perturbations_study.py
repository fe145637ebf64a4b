"""The perturbation study: strict settings files (tiny and full), a tiny-tier run through the store on
embedded data with stand-ins, read back without recomputing, and the registry path's inputs."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from lib.data.labelled import DatasetMissingError
from lib.fm_perturbations.tables import LINEAR_PROBE, ZERO_SHOT
from lib.fm_perturbations.study import Study, StudySettings
from lib.models.registry import WeightsMissingError
from lib.params import ParamsError
from lib.paths import REPO_ROOT
from lib.perturb import CORRUPTIONS

TINY, FULL = "params/tiny/fm_perturbations/study.yaml", "params/full/fm_perturbations/study.yaml"


def test_both_tiers_load_and_full_holds_the_papers_settings():
    tiny, full = StudySettings.load(TINY), StudySettings.load(FULL)
    assert tiny.source == "embedded" and tiny.perturbations == list(CORRUPTIONS)
    assert full.perturbations == list(CORRUPTIONS) and (full.m, full.sampling, full.include_clean) == (5, "equal", True)
    assert len(full.models) == 6 and full.zero_shot == ["fm_clip_vit_l14_openai"]
    assert full.linear_probe_models == ["fm_dinov2_vit_g14"] and full.labels() == ["ImageNet", "Food101"]


@pytest.mark.parametrize("old, new, message", [
    ("m: 2", "mm: 2", "unknown parameter"),
    ("sampling: equal", "sampling: sobol", "sampling must be one of"),
    ("zero_shot: [tiny_clip]", "zero_shot: [tiny_vit]", "zero_shot needs CLIP stand-ins"),
    ("datasets: [digits, photos]", "datasets: [digits, cifar]", "embedded datasets must be in"),
    ("jpeg_compression,", "snow,", "unknown perturbations ['snow']"),
    ("epochs: 2,", "epoch: 2,", "linear_probe has keys ['epoch']"),
])
def test_a_bad_settings_file_stops_with_one_line(tmp_path, old, new, message):
    path = tmp_path / "study.yaml"
    text = (REPO_ROOT / TINY).read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ParamsError, match=message.replace("[", r"\[").replace("]", r"\]")) as error:
        StudySettings.load(path)
    assert "\n" not in str(error.value)


def test_full_settings_are_checked_against_the_registries(tmp_path):
    text = (REPO_ROOT / FULL).read_text()
    for old, new, message in [("fm_clip_rn50_openai,", "fm_clip_rn101_openai,", "not in lib/registry/models.csv"),
                              ("zero_shot: [fm_clip_vit_l14_openai]", "zero_shot: [fm_dinov2_vit_l14]", "open_clip"),
                              ("Food101=food101_train/food101_test", "Food101=food101", "label=train/test"),
                              ("image_size: 0", "image_size: 224", "native input size")]:
        path = tmp_path / "study.yaml"
        path.write_text(text.replace(old, new, 1))
        with pytest.raises(ParamsError, match=message):
            StudySettings.load(path)


def tiny_settings() -> StudySettings:
    """The tiny tier with two quick perturbations and random-init models (the tier's nine and its pretrained
    CLIP run in the notebooks and in test_fm_perturbations_ours, not here)."""
    return dataclasses.replace(StudySettings.load(TINY), perturbations=["imagenet_c_gaussian_noise", "jpeg_compression"],
                               n_images=5, n_train=40, pretrain={})


def test_tiny_study_runs_through_the_store_and_reads_back(tmp_path, monkeypatch):
    settings = tiny_settings()
    metrics, predictions = Study(settings, tmp_path).run()
    models, datasets = len(settings.models), len(settings.datasets)
    assert len(metrics) == models * datasets * 2 * 5 * 3
    assert metrics["value"].between(0.0, 1.0).all() and set(metrics["kind"]) == {"metrics"}
    assert set(predictions["head"]) == {ZERO_SHOT, LINEAR_PROBE}
    assert len(predictions) == 2 * datasets * 5 * (1 + 2 * settings.m)  # two (model, head) pairs, every cell
    # metrics: the clean image counts; Theorem 2 holds on every image
    wide = metrics.pivot_table(index=["model", "dataset", "perturbation", "item"], columns="metric", values="value")
    np.testing.assert_allclose(wide["euclidean"], np.sqrt(wide["cosine"]), atol=1e-9)
    assert (wide["divergence_radius"] >= wide["euclidean"] - 1e-9).all()

    again = Study(settings, tmp_path)
    monkeypatch.setattr(Study, "grid", lambda *a, **k: pytest.fail("a stored run was recomputed"))
    metrics_again, predictions_again = again.run()
    np.testing.assert_array_equal(metrics_again["value"], metrics["value"])
    np.testing.assert_array_equal(predictions_again["pred_1"], predictions["pred_1"])


def test_tiny_summaries_have_intervals_and_the_tables_schema(tmp_path):
    summary, table = Study(tiny_settings(), tmp_path).summaries()
    assert ((summary["low"] <= summary["mean"] + 1e-12) & (summary["mean"] <= summary["high"] + 1e-12)).all()
    assert set(table["quantity"]) == {"ACC", "ACC_p", "drop"}
    assert set(table["perturbation"]) == {"", "Gaussian noise", "JPEG compression"}


def test_registry_study_names_every_missing_dataset_before_compute(tmp_path):
    settings = dataclasses.replace(StudySettings.load(FULL), data_root=str(tmp_path))
    with pytest.raises(DatasetMissingError, match="4 dataset") as error:
        Study(settings, tmp_path / "results").jobs()
    assert "food-101/test" in str(error.value) and "image-net.org" in str(error.value)


def test_registry_study_names_every_missing_model_before_compute(tmp_path, make_tree, empty_caches):
    for split in ("train", "test"):
        make_tree(tmp_path / "food-101" / split, {"apple_pie": 1})
    full = StudySettings.load(FULL)
    settings = dataclasses.replace(full, data_root=str(tmp_path), datasets=["Food101=food101_train/food101_test"],
                                   sampling_study={**full.sampling_study, "dataset": "Food101"},
                                   finetune={**full.finetune, "dataset": "Food101"})
    with pytest.raises(WeightsMissingError, match="(?s)6 model.*fm_clip_vit_b16_openai.*fm_dinov2_vit_g14"):
        Study(settings, tmp_path / "results").jobs()
    with pytest.raises(WeightsMissingError, match="(?s)1 model.*fm_clip_vit_l14_openai"):  # the analyses' model
        Study(settings, tmp_path / "results").analysis_jobs()


def test_registry_split_reads_images_at_the_model_input_size(tmp_path, make_tree):
    make_tree(tmp_path / "food-101" / "test", {"apple_pie": 3, "baklava": 2})
    settings = dataclasses.replace(StudySettings.load(FULL), data_root=str(tmp_path), n_images=4,
                                   datasets=["Food101=food101_train/food101_test"])
    split = Study(settings, tmp_path / "results").split(0, "test", 16)
    images = split.images().images
    assert images.shape == (4, 16, 16, 3) and images.dtype == np.uint8 and len(split.targets) == 4
    np.testing.assert_array_equal(split.load(np.array([1])), images[1:2])
    assert split.class_names == ("apple pie", "baklava") and split.num_classes == 2


def test_probe_training_features_are_streamed_in_batches_through_the_cache(tmp_path):
    settings = dataclasses.replace(tiny_settings(), batch_size=16)
    study = Study(settings, tmp_path)
    features, targets = study.train_features("tiny_vit", 0)
    split = study.split(0, "train", settings.image_size)
    assert features.shape == (settings.n_train, 48) and len(targets) == settings.n_train
    np.testing.assert_allclose(features, study.embedder("tiny_vit").embed(split.images().images), atol=1e-5)
    np.testing.assert_array_equal(Study(settings, tmp_path).train_features("tiny_vit", 0)[0], features)
