"""The counteranimal study: strict settings, the miniature zoo through the store, the registry path on a
generated tree with random-init models (no weights, no data)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest
from torch import nn

from lib.counteranimal import evaluation
from lib.counteranimal.study import Study, StudySettings, accuracies, registry_family, standin_parameters, zoo_member
from lib.counteranimal.miniature import MiniatureSpec
from lib.data.labelled import DatasetMissingError
from lib.models.registry import WeightsMissingError
from lib.models.standins import build_standin
from lib.params import ParamsError
from lib.paths import REPO_ROOT
from tests.conftest import write_images

TRAIN = {"epochs": 1, "batch_size": 32, "base_lr": 0.002, "optimizer": "adamw"}


def small_settings(**changes) -> StudySettings:
    settings = StudySettings(
        source="miniature", models=["CLIP:tiny_clip:40", "ImageNet:tiny_vit:40"], seeds=[0], device="cpu",
        batch_size=128, amp=False, workers=0, prompt="a photo of the number {}.",
        miniature={"image_size": 8, "object_size": 8, "spurious_correlation": 0.8, "test_fraction": 0.05},
        clip_pretrain=TRAIN, classifier_train=TRAIN, dataset="", labels="", curator="CLIP:tiny_clip:40")
    return replace(settings, **changes)


@pytest.mark.parametrize("tier", ["tiny", "mini", "full"])
def test_every_tier_settings_file_loads(tier):
    settings = StudySettings.load(f"params/{tier}/counteranimal/study.yaml")
    assert settings.source == ("registry" if tier == "full" else "miniature")
    if tier != "full":
        assert len(settings.seeds) >= 2 and {"CLIP", "CLIP-HQ", "ImageNet"} <= {m.split(":")[0] for m in settings.models}


def test_unknown_or_missing_keys_stop_with_one_line(tmp_path):
    text = (REPO_ROOT / "params/tiny/counteranimal/study.yaml").read_text()
    path = tmp_path / "study.yaml"
    path.write_text(text + "colour: red\n")
    with pytest.raises(ParamsError, match=r"unknown parameter\(s\) \['colour'\]") as error:
        StudySettings.load(path)
    assert "\n" not in str(error.value)
    path.write_text(text.replace("seeds: [0, 1]\n", ""))
    with pytest.raises(ParamsError, match="missing parameter"):
        StudySettings.load(path)
    path.write_text(text.replace("object_size: 8", "object_size: 8, ink: 1"))
    with pytest.raises(ParamsError, match="unknown miniature keys") as error:
        StudySettings.load(path)
    assert "\n" not in str(error.value)


def test_zoo_members_are_checked():
    spec = MiniatureSpec(spurious_correlation=0.8)
    member = zoo_member("CLIP-HQ:tiny_clip:100:0.5", spec)
    assert (member.family, member.images, member.correlation) == ("CLIP-HQ", 100, 0.5)
    assert zoo_member("ImageNet:tiny_resnet:10", spec).correlation == 0.8
    for bad in ("CLIP:tiny_vit:10", "LVLM:tiny_clip:10", "CLIP:tiny_clip:many", "CLIP:tiny_clip:10:high"):
        with pytest.raises(ParamsError, match="family:architecture:images"):
            zoo_member(bad, spec)
    with pytest.raises(ParamsError, match="below the miniature's spurious_correlation"):
        zoo_member("CLIP-HQ:tiny_clip:10:0.9", spec)
    with pytest.raises(ParamsError, match="TrainConfig does not know"):
        small_settings(clip_pretrain={**TRAIN, "momentum_typo": 1}).validate("study")
    for curator in ("ImageNet:tiny_vit:40", "CLIP:tiny_clip:41"):  # a CLIP of the study's
        with pytest.raises(ParamsError, match="curator .* must be one of the study's CLIP models"):
            small_settings(curator=curator).validate("study")
    with pytest.raises(ParamsError, match="curator '' must be one of the study's models"):
        replace(registry_settings(), curator="").validate("study")


def test_miniature_runs_store_per_item_predictions_and_are_read_back(tmp_path):
    settings = small_settings()
    settings.validate("study")
    study = Study(settings, tmp_path)
    runs = study.run()
    assert set(runs["model"]) == {"CLIP clip 40 img p=0.8", "ImageNet vit 40 img p=0.8"}
    for column in ("item", "target", "pred_1", "pred_5", "class", "group", "background", "family", "seed", "run_key"):
        assert column in runs.columns
    per_model = runs.groupby("model")["group"].value_counts().unstack()  # every digit on all ten backgrounds
    assert (per_model["common"] == per_model["counter"]).all() and (per_model["other"] == 8 * per_model["common"]).all()
    assert study.precompute() == 0  # every run stored
    again = Study(settings, tmp_path).run()
    assert again["pred_1"].equals(runs["pred_1"])
    table = accuracies(runs)
    assert set(table["metric"]) == {"common", "counter", "drop"} and set(table["averaging"]) == {"balanced", "micro"}
    assert len(table) == 2 * 6
    summary = study.run_accuracies()
    assert summary["value"].round(9).equals(table["value"].round(9))
    grouped = runs[runs["group"] != "other"]  # the paper's metrics read the common and counter groups alone
    assert table["value"].round(9).equals(accuracies(grouped)["value"].round(9))
    backgrounds = study.background_accuracies()
    assert (backgrounds.groupby("model")["items"].sum() == runs.groupby("model").size()).all()
    hits = runs.assign(hit=runs["pred_1"] == runs["target"]).groupby(["model", "class", "background"])["hit"].mean()
    assert backgrounds.set_index(["model", "class", "background"])["accuracy"].sort_index().round(9).equals(
        (100 * hits).sort_index().round(9))
    sizes = study.model_sizes().set_index("model")["params_m"]
    clip = build_standin("tiny_clip", num_classes=10, image_size=8)
    assert sizes["CLIP clip 40 img p=0.8"] == sum(p.numel() for p in clip.parameters()) / 1e6
    assert sizes["ImageNet vit 40 img p=0.8"] == standin_parameters("tiny_vit", 8) > 0


@pytest.fixture
def real_tree(tmp_path, monkeypatch):
    root = tmp_path / "data"
    tree = {"9 ostrich": {"common-ground": 2, "counter-water": 2}, "296 ice bear": {"common-snow": 2, "counter-grass": 1}}
    for i, (name, groups) in enumerate(tree.items()):
        for j, (group, count) in enumerate(groups.items()):
            write_images(root / "counteranimal" / "LAION-final" / name / group, count, seed=10 * i + j)
    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(root))
    return root


def registry_settings() -> StudySettings:
    return replace(small_settings(), source="registry", models=["ca_clip_vit_b_32_laion400m_e31", "ca_resnet50_in1k"],
                   miniature={}, clip_pretrain={}, classifier_train={}, dataset="counteranimal", labels="openai_curated",
                   prompt="A photo of {}.", batch_size=4, curator="ca_clip_vit_b_32_laion400m_e31")


def test_registry_source_runs_on_a_generated_tree_with_random_init_models(real_tree, tmp_path, monkeypatch, weights_here):
    from open_clip.tokenizer import SimpleTokenizer

    clip = build_standin("tiny_clip", image_size=8, seed=0).eval()
    resnet = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(3, 1000))
    monkeypatch.setattr(evaluation, "load_pretrained", lambda key, root=None: clip if "clip" in key else resnet)
    monkeypatch.setattr(evaluation, "tokenizer_for", lambda key: SimpleTokenizer(context_length=clip.context_length))
    settings = registry_settings()
    settings.validate("study")
    runs = Study(settings, tmp_path / "results").run()
    assert len(runs) == 2 * 7 and set(runs["target"]) == {9, 296}
    assert runs.groupby("model")["family"].first().to_dict() == {"ca_clip_vit_b_32_laion400m_e31": "CLIP",
                                                                "ca_resnet50_in1k": "ImageNet"}
    assert ((runs["pred_1"] >= 0) & (runs["pred_1"] < 1000)).all()
    assert set(accuracies(runs)["metric"]) == {"common", "counter", "drop"}


def test_registry_source_fails_before_compute_without_data(tmp_path, monkeypatch):
    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(tmp_path / "nowhere"))

    def never(*args, **kwargs):
        raise AssertionError("no model may load before the data are found")

    monkeypatch.setattr(evaluation, "load_pretrained", never)
    with pytest.raises(DatasetMissingError, match="counteranimal.*Source:.*Licence"):
        Study(registry_settings(), tmp_path / "results").jobs()
    with pytest.raises(ParamsError, match="not in lib/registry/models.csv"):
        replace(registry_settings(), models=["ViT-Z/99"]).validate("study")
    assert registry_family("ca_clip_vit_l_14_dfn2b") == "CLIP-DFN"
    assert registry_family("ca_clip_vit_b_16_datacomp_xl_s13b_b90k") == "CLIP-DC"


def test_registry_source_lists_every_missing_weight_before_compute(real_tree, tmp_path, monkeypatch, empty_caches):
    monkeypatch.setattr(evaluation, "load_pretrained", lambda *a, **k: pytest.fail("a model loaded"))
    with pytest.raises(WeightsMissingError, match="(?s)2 model.*ca_clip_vit_b_32_laion400m_e31.*ca_resnet50_in1k"):
        Study(registry_settings(), tmp_path / "results").jobs()


def test_importing_the_paper_package_does_not_import_torch():
    code = "import sys, lib.counteranimal as p; p.SETTINGS; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, check=True)
    assert out.stdout.strip() == "False"
