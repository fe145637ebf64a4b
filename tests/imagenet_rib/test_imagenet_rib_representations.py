"""CKA shift, dataset distances and the accuracy-distance correlation of imagenet_rib's analyses, and
their panels at the registry source (a fake folder tree and random-init ViTs in place of the data and
the hub weights) and without data."""

import copy
import re
from pathlib import Path

import numpy as np
import pandas as pd

import pytest
import torch
import yaml
from torchvision import transforms

from lib.data.folders import imagenet_wnids
from lib.data.labelled import DatasetMissingError
from lib.data.registry import IMAGENET_C_CORRUPTIONS
from lib.imagenet_rib.representation_measures import cka_shift, distances_from, points
from lib.imagenet_rib.representations import (
    CKASettings, DistanceSettings, accuracy_distance_correlation, analysis_settings, depth_gap, draw_cka, epoch_drift,
    large_data_gap, our_representation_panel,
)
from lib.imagenet_rib.suite_data import EmbeddedSuite, RegistrySuite
from lib.models.standins import build_standin
from lib.params import ParamsError
from tests.conftest import write_images

FULL = Path("params/full/imagenet_rib")
REGIME = "rib_vit_b16_augreg_in1k"




def test_cka_of_a_model_with_itself_is_one_and_drops_after_a_change():
    model = build_standin("tiny_vit", num_classes=4, image_size=16, in_chans=1)
    images = torch.rand(24, 1, 16, 16, generator=torch.Generator().manual_seed(0))
    same = cka_shift(model, copy.deepcopy(model), images)
    assert len(same) == 2 * 6 and np.allclose(same["cka"], 1.0, atol=1e-5)
    changed = copy.deepcopy(model)
    with torch.no_grad():
        weight = changed.blocks[1].mlp.fc1.weight  # a seeded change: the global RNG depends on the tests run before
        weight.add_(torch.randn(weight.shape, generator=torch.Generator().manual_seed(1)))
    shifted = cka_shift(model, changed, images)
    block1 = shifted[(shifted["block"] == 1) & (shifted["component"] == "mlp.fc1")]["cka"].item()
    block0 = shifted[(shifted["block"] == 0) & (shifted["component"] == "mlp.fc1")]["cka"].item()
    assert block0 == pytest.approx(1.0, abs=1e-5) and block1 < 0.99


def test_distance_of_a_copy_is_zero_and_grows_with_a_shift_in_both_spaces():
    g = torch.Generator().manual_seed(0)
    images, labels = torch.rand(40, 1, 16, 16, generator=g), torch.arange(40) % 2
    model = build_standin("tiny_vit", num_classes=2, image_size=16, in_chans=1)
    datasets = iter([("copy", (images.clone(), labels.clone())), ("shifted", (images + 1.0, labels))])
    d = distances_from((images, labels), datasets, {"pixel": None, "feature": model})
    assert list(d.index) == ["copy", "shifted"] and list(d.columns) == ["pixel", "feature"]
    assert d.loc["copy"].to_numpy() == pytest.approx([0.0, 0.0], abs=1e-6)
    assert d.loc["shifted", "pixel"] > 1.0 and d.loc["shifted", "feature"] > 0.0


def test_points_drop_classes_with_a_single_image():
    images, labels = torch.rand(5, 1, 2, 2), torch.tensor([0, 0, 1, 2, 2])
    x, y = points((images, labels))
    assert x.shape == (4, 4) and y.tolist() == [0, 0, 2, 2]
    with pytest.raises(ValueError, match="no class has 2 images"):
        points((images[:3], torch.tensor([0, 1, 2])))


def test_accuracy_distance_correlation_known_answer():
    distance = pd.Series({"a": 1.0, "b": 2.0, "c": 3.0})
    after = pd.DataFrame({"method": ["FT"] * 3 + ["LP"] * 3, "finetune_dataset": ["a", "b", "c"] * 2,
                          "accuracy": [90.0, 80.0, 70.0, 50.0, 50.0, 50.0]})
    out = accuracy_distance_correlation(after, distance).set_index("method")
    assert out.loc["FT", "pearson r"] == pytest.approx(-1.0)
    assert np.isnan(out.loc["LP", "pearson r"])


# -- settings ----------------------------------------------------------------------------------------
def cka_frame(regimes: dict[str, float], epochs: int = 1) -> pd.DataFrame:
    """CKA rows (two datasets, two blocks, two components): a regime's CKA is 1 − its shift × (block + 1) × epoch."""
    rows = [{"regime": regime, "dataset": dataset, "block": block, "component": component, "epoch": epoch,
             "cka": 1.0 - shift * (block + 1) * epoch, "method": "FT"}
            for regime, shift in regimes.items() for dataset in ("a", "b") for block in (0, 1)
            for component in ("norm1", "mlp.fc2") for epoch in range(1, epochs + 1)]
    return pd.DataFrame(rows)


def test_cka_findings_known_answers():
    # Table 13's pretrainings: OpenAI and LAION-2B shift 0.2 a block, IN-1K 0.05 -> gap over blocks 0 and 1 of
    # the mean CKA: (1 − 0.2 · 1.5) − (1 − 0.05 · 1.5) = −0.225
    data = cka_frame({"rib_vit_b16_clip_openai_ft_in1k": 0.2, "rib_vit_b16_clip_laion2b_ft_in1k": 0.2,
                      "rib_vit_b16_augreg_in1k": 0.05})
    found = large_data_gap(data)
    assert found.estimate == pytest.approx(-0.225) and found.verdict == "supported"
    assert "(dataset, block, component) cells" in found.interval.method
    assert large_data_gap(cka_frame({"clean": 0.1, "augmented": 0.2})).verdict == "not_checkable"  # the miniature
    found = depth_gap(cka_frame({"clean": 0.1, "augmented": 0.3}))
    assert found.estimate == pytest.approx(-0.2) and found.verdict == "supported"  # block 1 − block 0: −shift
    found = epoch_drift(cka_frame({"clean": 0.01, "augmented": 0.03}, epochs=3))
    assert found.estimate == pytest.approx(-2 * 0.02 * 1.5)  # 2 more epochs × mean shift × mean (block + 1)
    assert "over 16 (regime, dataset, block, component) cells" in found.interval.method
    assert epoch_drift(cka_frame({"clean": 0.1})).verdict == "not_checkable"  # one epoch


def test_cka_drawing_shades_the_epochs_and_labels_the_ends():
    import matplotlib.pyplot as plt

    fig = draw_cka(cka_frame({"clean": 0.1, "augmented": 0.2}, epochs=3), ["a", "b"], "title")
    axes = fig.axes
    assert len(axes) == 2 * 2 and len(axes[0].lines) == 2 * 3  # a line per regime and epoch
    labels = [text.get_text() for text in axes[1].get_legend().get_texts()]
    assert labels == ["clean, epoch 1", "clean, epoch 3", "augmented, epoch 1", "augmented, epoch 3"]
    shades = [line.get_color() for line in axes[0].lines[:3]]
    assert len(set(map(tuple, shades))) == 3  # darker with each epoch
    plt.close(fig)


def test_analysis_settings_are_checked_like_a_settings_file():
    assert analysis_settings("figure10", {"images": 5, "exclude": []}) == DistanceSettings(5, [])
    cka = {"finetune_dataset": "a", "datasets": ["a"], "images": 3}
    assert analysis_settings("figure14", cka) == CKASettings("a", ["a"], 3)
    with pytest.raises(ParamsError, match=r"unknown parameter\(s\) \['extra'\]"):
        analysis_settings("figure10", {"images": 5, "exclude": [], "extra": 1})
    with pytest.raises(ParamsError, match=r"missing parameter\(s\) \['exclude'\]"):
        analysis_settings("figure11", {"images": 5})
    with pytest.raises(ParamsError, match="'datasets' must be list"):
        analysis_settings("figure07", {"finetune_dataset": "a", "datasets": "a", "images": 3})
    with pytest.raises(ParamsError, match="images must be positive"):
        analysis_settings("figure10", {"images": 0, "exclude": []})
    with pytest.raises(KeyError, match=r"no representation panel for 'figure08'; expected one of \['figure07', 'figure10'"):
        analysis_settings("figure08", {})


def test_representation_panels_are_a_table_not_name_branches():
    source = (Path(__file__).parents[2] / "lib" / "imagenet_rib" / "representations.py").read_text()
    assert not re.search(r"artefact (==|!=) |artefact (not )?in \(", source)


def full_analysis(artefact: str) -> dict:
    return yaml.safe_load((FULL / f"{artefact}.yaml").read_text())["analysis"]


def test_full_params_hold_the_papers_choices():
    assert full_analysis("figure07") == full_analysis("figure14")
    cka = analysis_settings("figure07", full_analysis("figure07"))
    assert cka.finetune_dataset == "imagenet_r" and cka.datasets == ["imagenet_r", "imagenet_val", "imagenet_a"]
    assert analysis_settings("figure10", full_analysis("figure10")).exclude == ["imagenet_c"]
    assert set(analysis_settings("figure11", full_analysis("figure11")).exclude) == {
        "imagenet_cartoon", "imagenet_drawing", "imagenet_c"}


@pytest.fixture
def no_data(tmp_path, monkeypatch) -> Path:
    """An empty data root; loading a hub model fails the test."""
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(data))

    def no_model(key: str):
        raise AssertionError("a model was loaded")

    monkeypatch.setattr("lib.imagenet_rib.runner.load_pretrained", no_model)
    return data


@pytest.mark.parametrize("artefact", ["figure07", "figure10", "figure11", "figure14"])
def test_full_tier_without_data_stops_before_any_compute(artefact, tmp_path, no_data):
    results = tmp_path / "results"
    with pytest.raises(DatasetMissingError) as error:
        our_representation_panel(artefact, str(FULL / "benchmark.yaml"), str(results), full_analysis(artefact))
    assert "9 dataset(s)" in str(error.value) and str(no_data) in str(error.value)
    assert not results.exists()


def test_names_are_checked_before_the_data_is_opened(tmp_path, no_data):
    wrong = {"finetune_dataset": "objectnet", "datasets": ["imagenet_r", "imagenet_21k"], "images": 4}
    with pytest.raises(ParamsError, match="'objectnet' is not a fine-tuning dataset.*'imagenet_21k' is neither"):
        our_representation_panel("figure07", str(FULL / "benchmark.yaml"), str(tmp_path), wrong)
    with pytest.raises(ParamsError, match="exclude names 'imagenet_train'"):
        our_representation_panel("figure10", str(FULL / "benchmark.yaml"), str(tmp_path),
                                 {"images": 4, "exclude": ["imagenet_train"]})


# -- samples of both suites ----------------------------------------------------------------------------
def test_embedded_sample_is_seeded_and_reads_the_reference_test_split():
    suite = EmbeddedSuite("digits", ["digits_edges"], {"digits_edges": [0, 1]}, image_size=8)
    images, labels = suite.sample("digits_edges", 10, seed=3)
    again, same = suite.sample("digits_edges", 10, seed=3)
    assert images.shape == (10, 1, 8, 8) and torch.equal(images, again) and torch.equal(labels, same)
    assert set(labels.tolist()) <= {0, 1}
    assert not torch.equal(suite.sample("digits_edges", 10, seed=4)[0], images)
    reference, _ = suite.sample("digits", len(suite.pretraining.test_labels), seed=0)
    assert torch.equal(reference, suite.pretraining.test_images)
    with pytest.raises(ValueError, match="cannot draw"):
        suite.sample("digits", len(suite.pretraining.test_labels) + 1, seed=0)


@pytest.fixture(scope="module")
def fake_root(tmp_path_factory) -> Path:
    """ImageNet val, -A, -R and -Sketch (3 classes x 4 images each) and ImageNet-C (75 splits), tiny images."""
    root = tmp_path_factory.mktemp("data")
    wnids = imagenet_wnids()
    for d, folder in enumerate(["imagenet/val", "imagenet-a", "imagenet-r", "imagenet-sketch/sketch"]):
        for i, wnid in enumerate(wnids[1:4]):
            write_images(root / folder / wnid, 4, seed=10 * d + i)
    for c in IMAGENET_C_CORRUPTIONS:
        for k in range(1, 6):
            write_images(root / "imagenet-c" / c / str(k) / wnids[k], 1, seed=k)
    return root


def test_registry_sample_reads_every_part_through_the_transform(fake_root):
    suite = RegistrySuite(["imagenet_a", "imagenet_c"], "imagenet_val", root=str(fake_root))
    suite = suite.with_transform(transforms.Compose([transforms.Resize((8, 8)), transforms.ToTensor()]))
    images, labels = suite.sample("imagenet_c", 75, seed=0)
    assert images.shape == (75, 3, 8, 8) and sorted(set(labels.tolist())) == [1, 2, 3, 4, 5]
    first, again = suite.sample("imagenet_val", 5, seed=1), suite.sample("imagenet_val", 5, seed=1)
    assert torch.equal(first[0], again[0]) and torch.equal(first[1], again[1])
    assert set(first[1].tolist()) <= {1, 2, 3}


# -- the panels at the registry source -------------------------------------------------------------------
@pytest.fixture
def registry_params(fake_root, tmp_path, monkeypatch, weights_here) -> str:
    """The full benchmark on the fake tree: one regime (a random-init 1000-way ViT), FT and WiSE-FT, 1 epoch."""
    from timm.models.vision_transformer import VisionTransformer

    def random_vit(key: str) -> torch.nn.Module:
        torch.manual_seed(0)
        return VisionTransformer(img_size=224, patch_size=32, embed_dim=24, depth=2, num_heads=2, num_classes=1000)

    monkeypatch.setattr("lib.imagenet_rib.runner.load_pretrained", random_vit)
    values = yaml.safe_load((FULL / "benchmark.yaml").read_text()) | {
        "regimes": [REGIME], "suite": ["imagenet_a", "imagenet_r", "imagenet_sketch"],
        "methods": ["FT", "Linear Probing", "WiSE-FT"], "device": "cpu", "data_root": str(fake_root), "workers": 0,
    }
    values["finetune"] |= {"epochs": 1, "amp": False}
    path = tmp_path / "benchmark.yaml"
    path.write_text(yaml.safe_dump(values))
    return str(path)


def test_registry_cka_panels(registry_params, tmp_path, monkeypatch):
    analysis = {"finetune_dataset": "imagenet_r", "datasets": ["imagenet_r", "imagenet_val", "imagenet_a"], "images": 6}
    data, _, finding = our_representation_panel("figure07", registry_params, str(tmp_path / "results"), analysis)
    assert set(data["dataset"]) == set(analysis["datasets"]) and set(data["block"]) == {0, 1}
    assert len(data) == 3 * 2 * 6 and set(data["regime"]) == {REGIME} and set(data["method"]) == {"FT"}
    assert data["cka"].between(0.0, 1.0 + 1e-6).all() and (data["cka"] < 1.0 - 1e-6).any()
    assert "no LAION-2B or OpenAI regime" in finding[0].interval.method  # one regime: nothing to compare
    assert "over 18 (regime, dataset, component) cells" in finding[1].interval.method
    epochs, _, finding = our_representation_panel("figure14", registry_params, str(tmp_path / "results"), analysis)
    assert set(epochs["epoch"]) == {1} and finding.verdict == "not_checkable"  # one epoch: no drift to measure
    # FT trained again with the CKA hook is the cached FT run of Fig. 7: its last epoch gives Fig. 7's CKA
    keys = ["regime", "dataset", "block", "component"]
    both = data.merge(epochs, on=keys, suffixes=("", " after each epoch"))
    assert len(both) == len(data) and np.allclose(both["cka"], both["cka after each epoch"], atol=1e-6)
    # Fig. 14's run is stored per regime: a re-run reads it back without training
    monkeypatch.setattr("lib.imagenet_rib.runner.BenchmarkRunner.trained_afresh", lambda *args: pytest.fail("trained"))
    again, _, _ = our_representation_panel("figure14", registry_params, str(tmp_path / "results"), analysis)
    pd.testing.assert_frame_equal(again, epochs)


def test_registry_distance_panels(registry_params, tmp_path):
    results = str(tmp_path / "results")
    analysis = {"images": 8, "exclude": ["imagenet_sketch"]}
    data, _, _ = our_representation_panel("figure10", registry_params, results, analysis)
    assert list(data["dataset"]) == ["imagenet_a", "imagenet_r"]
    assert list(data.columns) == ["dataset", "pixel space", f"feature space ({REGIME} model)"]
    assert (data.iloc[:, 1:].to_numpy() > 0).all()
    data, _, finding = our_representation_panel("figure11", registry_params, results, {"images": 8, "exclude": []})
    assert list(data["method"]) == ["FT", "Linear Probing", "WiSE-FT"] and (data["n datasets"] == 3).all()
    assert data["pearson r"].dropna().between(-1.0, 1.0).all()
    assert [f.quantity.split(":")[0] for f in finding] == ["FT", "WiSE-FT"]  # linear probing drawn, not judged (App. B.2)
    assert all("fine-tuning datasets (of 3)" in f.interval.method or f.verdict == "not_checkable" for f in finding)
