"""The ImageNet-RIB benchmark: settings, the registry suite and ObjectNet on generated fake trees, a tiny
embedded run read back from the store. No real dataset, no weights, no network."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch
import yaml
from PIL import Image
from torchvision import transforms

from lib.data.folders import imagenet_wnids
from lib.data.labelled import DatasetMissingError
from lib.data.objectnet import ObjectNetImages, imagenet_classes_by_folder
from lib.data.registry import IMAGENET_C_CORRUPTIONS, open_dataset
from lib.imagenet_rib.benchmark import (
    PRETRAINED, Benchmark, BenchmarkSettings, accuracies, robustness_table,
)
from lib.imagenet_rib.runner import BenchmarkRunner
from lib.models.registry import WeightsMissingError
from lib.imagenet_rib.suite_data import RegistrySuite, TrainingForbiddenError, TrainingSplit, registry_finetune_datasets
from lib.params import ParamsError
from tests.conftest import write_images

TINY = Path("params/tiny/imagenet_rib/benchmark.yaml")
FULL = Path("params/full/imagenet_rib/benchmark.yaml")
RED = (255, 0, 0)




def write_settings(tmp_path: Path, base: Path, **changes) -> Path:
    values = yaml.safe_load(base.read_text()) | changes
    path = tmp_path / "benchmark.yaml"
    path.write_text(yaml.safe_dump(values))
    return path


# -- settings ------------------------------------------------------------------------------------
def test_every_tier_loads():
    for tier in ("tiny", "mini", "full"):
        settings = BenchmarkSettings.load(f"params/{tier}/imagenet_rib/benchmark.yaml")
        assert settings.method_settings["ewc_fisher_images"] > 0
    mini = BenchmarkSettings.load("params/mini/imagenet_rib/benchmark.yaml")
    assert mini.augment_shifts == [] and len(mini.suite) == 6 and len(mini.seeds) >= 2
    full = BenchmarkSettings.load(FULL)
    assert full.source == "registry" and len(full.suite) == 8 and "objectnet" in full.suite


@pytest.mark.parametrize(("base", "changes", "message"), [
    (TINY, {"bogus": 1}, "unknown parameter(s) ['bogus']"),
    (TINY, {"methods": ["FT", "Fine-tune harder"]}, "method 'Fine-tune harder' not in"),
    (TINY, {"augment_shifts": ["inverted"]}, "augment shift 'inverted' is in the suite"),
    (TINY, {"methods": ["FT", "LwF", "MS:PRE-FT-EWC-LwF"]}, "MS:PRE-FT-EWC-LwF needs EWC in methods"),
    (TINY, {"methods": ["WiSE-FT"]}, "WiSE-FT needs FT in methods"),
    (TINY, {"seeds": [0, "1"]}, "'seeds' must be list[int]"),
    (TINY, {"source": "hub"}, "source must be one of"),
    (FULL, {"architecture": "tiny_vit"}, "unknown parameter(s) ['architecture']"),
    (FULL, {"regimes": ["rib_clip_vit_b16_openai"]}, "Linear Probing is not run on the zero-shot CLIP regime"),
    (FULL, {"methods": ["FT", "FLYP"]}, "FLYP needs a zero-shot CLIP regime"),
    (FULL, {"regimes": ["ssl_dino_vitb16"]}, "not one of the paper's"),
    (FULL, {"regimes": ["rib_resnet50_in1k"]}, "LoRA targets ViT attention"),
    (FULL, {"regimes": ["rib_clip_rn50_openai"], "methods": ["FT", "LoRA"]}, "LoRA targets ViT attention"),
    (FULL, {"finetune_datasets": ["objectnet"]}, "'objectnet' is for evaluation only"),
    (FULL, {"finetune_datasets": ["stanford_cars"], "methods": ["FT"]}, "only a zero-shot CLIP regime can be fine-tuned"),
    (FULL, {"finetune_datasets": ["stanford_cars"], "regimes": ["rib_clip_vit_b32_openai"], "methods": ["FT", "LwF"]},
     "not 'LwF'"),
    (FULL, {"finetune_datasets": ["imagenet_vid"]}, "'imagenet_vid' is not in lib/registry/datasets.csv"),
    (FULL, {"zero_shot_templates": "eighty"}, "zero_shot_templates must be one of"),
    (TINY, {"zero_shot_text_tower": "half"}, "zero_shot_text_tower must be one of"),
    (TINY, {"images_per_class": -1}, "images_per_class must be >= 0"),
    (TINY, {"validation_fraction": 1.0}, "validation_fraction must be in [0, 1)"),
    (TINY, {"validation_fraction": 0.2, "evaluate_every_epoch": True}, "exclude each other"),
    (TINY, {"evaluate_every_epoch": True}, "WiSE-FT is post-hoc"),
    (TINY, {"finetune_datasets": ["digits_parity"]}, "finetune_datasets names 'digits_parity'"),
    (TINY, {"architecture": "tiny_resnet"}, "'tiny_resnet' is not a ViT"),
    (FULL, {"suite": ["imagenet_a", "cifar100"]}, "'cifar100' is not a one-split dataset"),
    (FULL, {"objectnet_evaluation": "top5"}, "objectnet_evaluation must be one of"),
    (FULL, {"imagenet_c_finetune_severities": [0, 1]}, "imagenet_c_finetune_severities"),
])
def test_settings_errors(tmp_path, base, changes, message):
    with pytest.raises(ParamsError) as error:
        BenchmarkSettings.load(write_settings(tmp_path, base, **changes))
    assert message in str(error.value)


def test_full_params_without_data_stop_before_any_compute(tmp_path, monkeypatch):
    data, results = tmp_path / "data", tmp_path / "results"
    data.mkdir()
    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(data))
    settings = BenchmarkSettings.load(FULL)
    with pytest.raises(DatasetMissingError) as error:
        Benchmark(settings, results).run()
    message = str(error.value)
    assert "9 dataset(s)" in message
    for name in [*settings.suite, settings.reference]:
        assert f"dataset '{name}'" in message
    assert str(data) in message
    assert not results.exists()  # no run stored, no weights cached, no model loaded


# -- ObjectNet -----------------------------------------------------------------------------------
FOLDERS = {"chair": "Chair", "banana": "Banana", "squeegee": "Squeegee"}  # squeegee: not an ImageNet class
OBJECTNET_TO_IMAGENET = {"Chair": "class 10; rocking chair, rocker", "Banana": "class 5"}
PYTORCH_TO_2012 = {p: (7 * p + 3) % 1000 for p in range(1000)}  # a permutation, as the real file is
PYTORCH_OF_2012 = {ilsvrc: p for p, ilsvrc in PYTORCH_TO_2012.items()}
CHAIR = sorted([PYTORCH_OF_2012[10], PYTORCH_OF_2012[20]])
BANANA = [PYTORCH_OF_2012[5]]


def write_bordered(path: Path, height: int, width: int, seed: int) -> None:
    """An image with a 1-pixel red border, like every ObjectNet image."""
    pixels = np.random.default_rng(seed).integers(0, 100, size=(height, width, 3), dtype=np.uint8)
    pixels[[0, -1], :] = RED
    pixels[:, [0, -1]] = RED
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(pixels).save(path)


def write_objectnet(root: Path, names: dict[int, str] | None = None) -> Path:
    """`objectnet-1.0/` with images/ and the four mapping files in the formats ObjectNet ships."""
    mappings = root / "mappings"
    mappings.mkdir(parents=True)
    lines = [f"class {i}" for i in range(1000)]  # line i: the class names of ILSVRC-2012 id i
    lines[20] = "rocking chair, rocker"
    for i, name in (names or {}).items():
        lines[i] = name
    (mappings / "imagenet_to_label_2012_v2").write_text("\n".join(lines) + "\n")
    pytorch_to_2012 = {str(p): i for p, i in PYTORCH_TO_2012.items()}
    (mappings / "pytorch_to_imagenet_2012_id.json").write_text(json.dumps(pytorch_to_2012, indent=2))
    (mappings / "folder_to_objectnet_label.json").write_text(json.dumps(FOLDERS, indent=2))
    (mappings / "objectnet_to_imagenet_1k.json").write_text(json.dumps(OBJECTNET_TO_IMAGENET, indent=2))
    for seed, folder in enumerate(FOLDERS):
        for i in range(2):
            write_bordered(root / "images" / folder / f"{folder}_{i}.png", 10, 12, seed * 10 + i)
    return root


def test_objectnet_mapping_files_give_imagenet_targets(tmp_path):
    root = write_objectnet(tmp_path / "objectnet-1.0")
    expected = {"chair": ("Chair", tuple(CHAIR)), "banana": ("Banana", tuple(BANANA))}
    assert imagenet_classes_by_folder(root / "mappings") == expected
    data = open_dataset("objectnet", root=tmp_path)  # the registry row: layout objectnet, border 1
    assert isinstance(data, ObjectNetImages) and data.border == 1
    assert data.class_names == ["Banana", "Chair"] and len(data) == 4  # squeegee is not read
    assert data.targets == [BANANA[0]] * 2 + [CHAIR[0]] * 2
    mask = data.logit_mask()
    assert mask.shape == (1000,) and set(np.flatnonzero(mask)) == {*CHAIR, *BANANA}
    projected = data.project_predictions(torch.tensor([CHAIR[1], CHAIR[0], BANANA[0], 999]))
    assert projected.tolist() == [CHAIR[0], CHAIR[0], BANANA[0], 999]


def test_objectnet_border_is_cropped_before_the_transform(tmp_path):
    data = open_dataset("objectnet", root=write_objectnet(tmp_path / "objectnet-1.0").parent)
    image = data.image(0)
    assert image.size == (10, 8)
    assert not (np.asarray(image) == RED).all(axis=2).any()
    seen = []
    replace(data, transform=lambda im: seen.append(im.size) or 0)[0]
    assert seen == [(10, 8)]
    assert replace(data, border=2).image(0).size == (8, 6)


@pytest.mark.parametrize(("names", "message"), [
    ({10: "class 11"}, "'class 10' is not a line of"),
    ({30: "class 5"}, "'class 5' names several lines of"),
])
def test_objectnet_mapping_errors(tmp_path, names, message):
    root = write_objectnet(tmp_path / "objectnet-1.0", names)
    with pytest.raises(ValueError, match=message):
        imagenet_classes_by_folder(root / "mappings")
    (root / "mappings" / "pytorch_to_imagenet_2012_id.json").unlink()
    with pytest.raises(DatasetMissingError, match="pytorch_to_imagenet_2012_id.json"):
        open_dataset("objectnet", root=tmp_path)


# -- the registry suite on a fake tree -----------------------------------------------------------
@pytest.fixture(scope="module")
def fake_root(tmp_path_factory) -> Path:
    """ImageNet val (3 classes), ImageNet-A (2 classes), ImageNet-C (75 splits) and ObjectNet, tiny images."""
    root = tmp_path_factory.mktemp("data")
    wnids = imagenet_wnids()
    for i, wnid in enumerate(wnids[:3]):
        write_images(root / "imagenet" / "val" / wnid, 4, seed=i)
    for i, wnid in enumerate([wnids[1], wnids[7]]):
        write_images(root / "imagenet-a" / wnid, 2, seed=10 + i)
    for c in IMAGENET_C_CORRUPTIONS:
        for k in range(1, 6):
            write_images(root / "imagenet-c" / c / str(k) / wnids[k], 1, seed=k)
    write_objectnet(root / "objectnet-1.0")
    return root


def make_suite(root: Path, **options) -> RegistrySuite:
    suite = RegistrySuite(["imagenet_a", "objectnet", "imagenet_c"], "imagenet_val", root=str(root), **options)
    return suite.with_transform(transforms.Compose([transforms.Resize((8, 8)), transforms.ToTensor()]))


def test_registry_suite_parts_masks_and_batches(fake_root):
    suite = make_suite(fake_root, imagenet_c_finetune_severities=[2, 3])
    sets = suite.evaluation_sets()
    assert list(sets) == ["imagenet_a", "objectnet", "imagenet_c", "imagenet_val"]
    parts = sets["imagenet_c"].parts
    assert len(set(parts)) == 75 and list(parts[:2]) == ["gaussian_noise/1", "gaussian_noise/2"]
    assert set(sets["imagenet_a"].parts) == {""}
    images, targets = next(iter(sets["imagenet_a"].batches))
    assert images.shape == (4, 3, 8, 8) and targets.tolist() == [1, 1, 7, 7]
    assert set(torch.nonzero(suite.mask("imagenet_a")).flatten().tolist()) == {1, 7}
    assert set(torch.nonzero(suite.mask("imagenet_c")).flatten().tolist()) == {1, 2, 3, 4, 5}  # the fake's classes
    assert suite.mask("imagenet_val") is not None  # 3 classes on the fake tree; the real one has all 1000
    train = suite.train_batches("imagenet_c", batch_size=64, seed=0)
    assert len(train.dataset) == 30  # 15 corruptions x severities 2 and 3
    first = [next(iter(suite.fisher_batches(5, 5, seed=3)))[1].tolist() for _ in range(2)]
    assert first[0] == first[1] and len(first[0]) == 5
    with pytest.raises(ValueError, match="cannot draw 13"):
        suite.fisher_batches(13, 5, seed=0)


def test_registry_suite_refuses_to_train_on_objectnet_and_scores_it_both_ways(fake_root):
    masked, full = make_suite(fake_root), make_suite(fake_root, objectnet_evaluation="full_1000")
    assert registry_finetune_datasets(masked.names) == ["imagenet_a", "imagenet_c"]
    with pytest.raises(TrainingForbiddenError, match="forbids training"):
        masked.train_batches("objectnet", 4, 0)
    assert full.mask("objectnet") is None
    assert set(torch.nonzero(masked.mask("objectnet")).flatten().tolist()) == {*CHAIR, *BANANA}
    logits = torch.zeros(2, 1000)
    logits[:, 999] = 5.0  # not an ObjectNet class: wins the full 1000-way argmax
    logits[0, CHAIR[1]] = logits[1, BANANA[0]] = 1.0
    assert masked.ranker("objectnet")(logits).tolist() == [[CHAIR[0]], [BANANA[0]]]
    assert full.ranker("objectnet")(logits).tolist() == [[999], [999]]


def test_registry_benchmark_end_to_end_on_the_fake_tree(fake_root, tmp_path, monkeypatch, weights_here):
    """The full tier's code path with a random-init 1000-way ViT in place of the hub weights."""
    from timm.models.vision_transformer import VisionTransformer

    def random_vit(key: str) -> torch.nn.Module:
        torch.manual_seed(0)
        return VisionTransformer(img_size=224, patch_size=32, embed_dim=24, depth=1, num_heads=2, num_classes=1000)

    monkeypatch.setattr("lib.imagenet_rib.runner.load_pretrained", random_vit)
    full = BenchmarkSettings.load(FULL)
    settings = replace(
        full, regimes=["rib_vit_b16_augreg_in1k"], suite=["imagenet_a", "objectnet", "imagenet_c"], methods=["FT", "WiSE-FT"],
        device="cpu", finetune={**full.finetune, "epochs": 1, "amp": False}, data_root=str(fake_root), workers=0,
        imagenet_c_finetune_severities=[1],
    )
    bench = Benchmark(settings, tmp_path)
    assert bench.finetune_datasets == ["imagenet_a", "imagenet_c"] and bench.reference == "imagenet_val"
    acc = bench.run_accuracies()
    assert set(acc["finetune_dataset"]) == {"", "imagenet_a", "imagenet_c"}
    assert set(acc["eval_dataset"]) == {"imagenet_a", "objectnet", "imagenet_c", "imagenet_val"}
    table = robustness_table(acc, settings.suite, bench.reference, bench.finetune_datasets)
    assert list(table["method"]) == ["FT", "WiSE-FT"] and "RI objectnet" not in table and table["mRI"].notna().all()


def test_registry_benchmark_without_weights_stops_before_any_compute(fake_root, tmp_path, monkeypatch, empty_caches):
    monkeypatch.setattr("lib.imagenet_rib.runner.load_pretrained", lambda key: pytest.fail("a model loaded"))
    settings = replace(BenchmarkSettings.load(FULL), regimes=["rib_vit_b16_augreg_in1k"], suite=["imagenet_a"],
                       methods=["FT"], data_root=str(fake_root))
    with pytest.raises(WeightsMissingError, match="(?s)1 model.*rib_vit_b16_augreg_in1k .*looked for"):
        Benchmark(settings, tmp_path / "results").jobs()


def test_registry_suite_lists_every_missing_dataset(tmp_path, fake_root):
    write_images(tmp_path / "imagenet-c" / "fog" / "1" / imagenet_wnids()[0], 1)
    with pytest.raises(DatasetMissingError) as error:
        RegistrySuite(["imagenet_a", "imagenet_c", "imagenet_r"], "imagenet_val", root=str(tmp_path))
    message = str(error.value)
    assert message.startswith("4 dataset(s)") and "74 of 75 split folders missing" in message
    for name in ("imagenet_a", "imagenet_r", "imagenet_val"):
        assert f"dataset '{name}'" in message
    with pytest.raises(ValueError, match="no transform"):
        RegistrySuite(["imagenet_a"], "imagenet_val", root=str(fake_root)).evaluation_sets()


# -- metrics from per-item rows --------------------------------------------------------------------
def test_accuracy_is_the_mean_over_parts_and_ri_skips_datasets_not_fine_tuned_on():
    rows = pd.DataFrame({"regime": "r", "seed": 0, "method": PRETRAINED, "finetune_dataset": "", "eval_dataset": "c",
                         "part": ["fog/1"] * 4 + ["snow/1"], "target": 0, "pred_1": [0, 0, 0, 1, 1]})
    assert accuracies(rows)["accuracy"].tolist() == [37.5]  # (75 % + 0 %) / 2, not 3 of 5 items
    acc = pd.DataFrame([
        *[("r", 0, PRETRAINED, "", d, 50.0) for d in "abc"],
        *[("r", 0, "FT", "a", d, v) for d, v in zip("abc", (90.0, 40.0, 60.0))],
        *[("r", 0, "FT", "b", d, v) for d, v in zip("abc", (52.0, 80.0, 56.0))],
    ], columns=["regime", "seed", "method", "finetune_dataset", "eval_dataset", "accuracy"])
    table = robustness_table(acc, ["a", "b"], "c", finetune_datasets=["a", "b"])
    pd.testing.assert_frame_equal(table, robustness_table(acc, ["a", "b"], "c"))
    partial = robustness_table(acc, ["a", "b"], "c", finetune_datasets=["a"])
    assert "RI b" not in partial and partial["mRI"].item() == -10.0 and partial["backward transfer"].item() == 10.0


# -- a tiny embedded run ---------------------------------------------------------------------------
def test_tiny_embedded_run_gives_ri_rows_and_reads_back_from_the_store(tmp_path, monkeypatch):
    settings = replace(
        BenchmarkSettings.load(TINY), regimes=["clean"], suite=["digits_inverted", "digits_edges"],
        methods=["FT", "WiSE-FT"], pretrain={"epochs": 1, "batch_size": 64, "base_lr": 0.05, "reference_batch": 64},
    )
    assert Benchmark(settings, tmp_path).stored() == (0, 5)  # pretrained, then FT and WiSE-FT on each set
    first = Benchmark(settings, tmp_path).run()
    assert Benchmark(settings, tmp_path).stored() == (5, 5)
    assert set(first["eval_dataset"]) == {"digits_inverted", "digits_edges", "digits"}
    assert set(first.loc[first["eval_dataset"] == "digits_edges", "target"]) <= {0, 1, 2, 3, 4}  # the class subset
    table = robustness_table(accuracies(first), settings.suite, Benchmark(settings, tmp_path).reference)
    assert list(table["method"]) == ["FT", "WiSE-FT"]
    assert {"RI digits_inverted", "RI digits_edges", "mRI", "backward transfer"} <= set(table.columns)
    assert table[["mRI", "backward transfer"]].notna().all().all()
    assert len(list((tmp_path / "imagenet_rib" / "weights").glob("*.pt"))) == 3  # pretrained + FT on each dataset

    def no_compute(*args, **kwargs):
        raise AssertionError("recomputed a stored run")

    monkeypatch.setattr(BenchmarkRunner, "compute", no_compute)
    monkeypatch.setattr(BenchmarkRunner, "pretrained", no_compute)
    second = Benchmark(settings, tmp_path).run()
    pd.testing.assert_frame_equal(first, second)
    pd.testing.assert_frame_equal(Benchmark(settings, tmp_path).run_accuracies(), accuracies(first))


def test_registry_zero_shot_clip_fine_tunes_through_its_head_and_on_stanford_cars(tmp_path, fake_root, monkeypatch, weights_here):
    """App. C and G on the fake tree: a random-init tiny CLIP in place of the open_clip weights,
    classifying through a zero-shot head over the 1000 ImageNet names; StanfordCars trains through a
    head over its own 196 names and is evaluated through the ImageNet head of the same towers."""
    from open_clip.tokenizer import SimpleTokenizer

    from lib.models.standins import build_standin
    from tests.core.test_data_sources import write_cars

    if not (fake_root / "stanford_cars").exists():
        write_cars(fake_root / "stanford_cars", train=[1, 2, 3, 196], test=[1])
    monkeypatch.setattr("lib.imagenet_rib.runner.load_pretrained", lambda key: build_standin("tiny_clip", image_size=16, seed=0))
    monkeypatch.setattr("lib.models.clip.tokenizer_for", lambda key: SimpleTokenizer(context_length=16))
    full = BenchmarkSettings.load(FULL)
    common = dict(regimes=["rib_clip_vit_b32_openai"], suite=["imagenet_a", "objectnet"], device="cpu", workers=0,
                  finetune={**full.finetune, "epochs": 1, "amp": False}, data_root=str(fake_root), zero_shot_templates="single")
    clip = replace(full, **common, methods=["FT", "FLYP", "WiSE-FT"])
    bench = Benchmark(clip, tmp_path)
    pretrained = bench.runner.pretrained("rib_clip_vit_b32_openai", 0)
    assert pretrained.class_tokens.shape[:2] == (1000, 1)
    acc = bench.run_accuracies()
    assert set(acc["method"]) == {PRETRAINED, "FT", "FLYP", "WiSE-FT"} and acc["accuracy"].between(0, 100).all()
    cars = replace(full, **common, methods=["FT"], finetune_datasets=["stanford_cars"])
    acc = Benchmark(cars, tmp_path).run_accuracies()
    assert set(acc["finetune_dataset"]) == {"", "stanford_cars"}
    assert set(acc["eval_dataset"]) == {"imagenet_a", "objectnet", "imagenet_val"}  # the cars are fine-tuned on only
    after = Benchmark(cars, tmp_path).runner.finetuned("FT", "rib_clip_vit_b32_openai", 0, "stanford_cars")
    assert after.class_tokens.shape[0] == 1000  # back on the ImageNet head


def test_ewc_fisher_is_computed_once_for_every_finetuning_set_and_changes_no_prediction(tmp_path, monkeypatch):
    """The Fisher depends on the pretrained model and the pretraining data only: the EWC runs of a
    suite share one, and a run that computes it afresh predicts exactly as one that read it back."""
    import lib.finetune.methods as methods

    settings = replace(
        BenchmarkSettings.load(TINY), regimes=["clean"], suite=["digits_inverted", "digits_edges"], methods=["EWC"],
        pretrain={"epochs": 1, "batch_size": 64, "base_lr": 0.05, "reference_batch": 64},
    )
    computed = []
    original = methods.diagonal_fisher
    monkeypatch.setattr(methods, "diagonal_fisher", lambda *a, **k: computed.append(1) or original(*a, **k))
    shared = Benchmark(settings, tmp_path / "shared").run()
    assert len(computed) == 1
    alone = Benchmark(replace(settings, finetune_datasets=["digits_edges"]), tmp_path / "alone").run()
    assert len(computed) == 2  # a store of its own: the second set's Fisher computed afresh
    columns = ["eval_dataset", "item", "target", "pred_1"]
    tuned = shared[(shared["method"] == "EWC") & (shared["finetune_dataset"] == "digits_edges")]
    pd.testing.assert_frame_equal(tuned[columns].reset_index(drop=True),
                                  alone[alone["method"] == "EWC"][columns].reset_index(drop=True))
