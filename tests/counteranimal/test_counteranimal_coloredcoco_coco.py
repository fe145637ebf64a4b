"""ColoredCOCO itself (the full tier of Table 7): the palette and colour words, the captions, the grid and its
selection, the settings read by source, and every approach run through a random-init tiny open_clip CLIP."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from lib.counteranimal import coloredcoco
from lib.counteranimal import coloredcoco_coco as coco
from lib.params import ParamsError

FULL = "params/full/counteranimal/coloredcoco.yaml"


@pytest.fixture(scope="module")
def full() -> coco.CocoSettings:
    return coloredcoco.load_settings(FULL)


def test_every_tier_is_read_by_the_class_its_source_names(full):
    assert isinstance(full, coco.CocoSettings) and full.backbones == ["ca_clip_rn50_openai", "ca_clip_vit_b_16_openai"]
    assert len(full.grid()) == 18 and full.grid()[0] == {"lr": 0.001, "weight_decay": 0.1, "warmup_steps": 0}
    for tier in ("tiny", "mini"):
        assert isinstance(coloredcoco.load_settings(f"params/{tier}/counteranimal/coloredcoco.yaml"),
                          coloredcoco.ColoredCocoSettings)


@pytest.mark.parametrize("change, message", [
    ({"source": "cifar"}, "source must be one of ['digits', 'coco']"),
    ({"backbones": ["ca_resnet50_in1k"]}, "backbones must be open_clip rows"),
    ({"dataset": "coco2014"}, "dataset 'coco2014' is not in lib/registry/datasets.csv"),
    ({"lrs": []}, "must not be empty"),
    ({"colour": "red"}, "unknown parameter(s) ['colour']"),
    ({"palette_seed": 2}, "palette_seed 2 gives two colours one name"),
    ({"selection": "ood"}, "selection must be one of ['test', 'validation']"),
    ({"selection": "validation", "validation_per_class": 0}, "selection: validation needs validation_per_class >= 1"),
])
def test_bad_full_settings_stop_with_one_line(full, change, message, tmp_path):
    import yaml

    path = tmp_path / "params" / "full" / "counteranimal" / "coloredcoco.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(yaml.safe_dump({**dataclasses.asdict(full), **change}))
    with pytest.raises(ParamsError) as error:
        coloredcoco.load_settings(path)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_the_palette_is_the_makers_biased_colours_then_ten_far_from_them():
    colours = coco.palette(0)
    assert colours.shape == (19, 3) and np.array_equal(colours[:9], coco.BIASED_RGB)
    distances = ((colours[9:, None, :] - coco.BIASED_RGB[None]) ** 2).sum(-1)
    assert distances.min() > coco.MIN_SQUARED_DISTANCE and colours.min() >= 0 and colours.max() <= 255
    assert np.array_equal(coco.palette(0), colours) and not np.array_equal(coco.palette(1), colours)


def test_colour_words_are_the_nearest_css_names():
    assert coco.colour_names(np.array([(255, 0, 0), (0, 100, 0), (255, 20, 147), (1, 1, 254)])) == \
        ["red", "darkgreen", "deeppink", "blue"]


def test_captions_are_indexed_by_label_then_colour():
    assert coco.captions("obj", ["dog", "bus"], ["red", "blue"]) == ["a photo of dog", "a photo of bus"]
    objbkg = coco.captions("objbkg", ["dog", "bus"], ["red", "blue"])
    assert objbkg[1 * 2 + 0] == "a photo of bus in red background" and len(objbkg) == 4


def _grid_accuracies() -> pd.DataFrame:
    """Three grid points of obj (in-distribution, out-of-distribution, validation) and one zero-shot point."""
    rows = []
    for point, (in_dist, ood, validation) in {"a": (90.0, 10.0, 99.0), "b": (95.0, 5.0, 80.0),
                                               "c": (95.0, 50.0, 85.0)}.items():
        rows += [{"backbone": "B", "seed": 0, "approach": "obj", "point": point, "metric": metric, "value": value}
                 for metric, value in (("in-distribution", in_dist), ("out-of-distribution", ood),
                                       ("drop", in_dist - ood), ("validation", validation))]
    rows += [{"backbone": "B", "seed": 0, "approach": "zero shot", "point": "none", "metric": metric, "value": 60.0}
             for metric in ("in-distribution", "validation")]
    return pd.DataFrame(rows)


def test_the_papers_selection_keeps_the_best_in_distribution_test_point_per_backbone_seed_and_approach():
    chosen = coco.selected(_grid_accuracies(), coco.SELECTIONS["test"])
    assert set(chosen.loc[chosen["approach"] == "obj", "point"]) == {"b"}  # the tie goes to the first in grid order
    assert chosen.loc[chosen["approach"] == "obj"].set_index("metric")["value"].to_dict() == \
        {"in-distribution": 95.0, "out-of-distribution": 5.0, "drop": 90.0}  # the validation rows left out
    assert len(chosen[chosen["approach"] == "zero shot"]) == 1


def test_selection_on_the_validation_objects_picks_by_their_accuracy_and_reports_the_test_sets():
    chosen = coco.selected(_grid_accuracies(), coco.SELECTIONS["validation"])
    assert chosen.loc[chosen["approach"] == "obj"].set_index("metric")["value"].to_dict() == \
        {"in-distribution": 90.0, "out-of-distribution": 10.0, "drop": 80.0}  # point a: the best on validation
    assert "validation" not in set(chosen["metric"])


def test_a_missing_coco_stops_the_study_before_any_compute(full, tmp_path, monkeypatch):
    from lib.data.labelled import DatasetMissingError
    from lib.paths import DATA_ROOT_ENV

    monkeypatch.setenv(DATA_ROOT_ENV, str(tmp_path))
    with pytest.raises(DatasetMissingError, match=r"coco2017_train.*not found at .*coco.*Licence"):
        coco.CocoStudy(full, tmp_path).jobs()


def test_the_study_has_one_run_per_backbone_seed_approach_and_grid_point(full, tmp_path, monkeypatch, weights_here):
    from lib.data.labelled import DatasetMissingError
    from lib.paths import DATA_ROOT_ENV

    monkeypatch.setenv(DATA_ROOT_ENV, str(tmp_path))
    (tmp_path / "coco" / "annotations").mkdir(parents=True)
    with pytest.raises(DatasetMissingError, match="instances_train2017.json"):  # no annotations: no compute either
        coco.CocoStudy(full, tmp_path).jobs()
    (tmp_path / "coco" / "annotations" / "instances_train2017.json").write_text("{}")
    jobs = coco.CocoStudy(full, tmp_path).jobs()
    assert len(jobs) == 2 * 3 * (1 + 3 * 18)
    configs = [config for config, _ in jobs]
    assert len({str(sorted(c.items())) for c in configs}) == len(configs)  # every run its own store key
    assert configs[0]["approach"] == "zero shot" and "lr" not in configs[0] and configs[1]["lr"] == 0.001
    assert "epochs" not in configs[0] and configs[1]["epochs"] == 32  # zero shot trains nothing


def test_missing_weights_stop_the_study_before_any_compute(full, tmp_path, monkeypatch, empty_caches):
    from lib.models.registry import WeightsMissingError
    from lib.paths import DATA_ROOT_ENV

    monkeypatch.setenv(DATA_ROOT_ENV, str(tmp_path))
    (tmp_path / "coco" / "annotations").mkdir(parents=True)
    (tmp_path / "coco" / "annotations" / "instances_train2017.json").write_text("{}")
    monkeypatch.setattr(coco, "coco_parts", lambda *a: pytest.fail("data read before the weights were found"))
    with pytest.raises(WeightsMissingError, match="(?s)2 model.*ca_clip_rn50_openai.*ca_clip_vit_b_16_openai"):
        coco.CocoStudy(full, tmp_path).jobs()


@pytest.mark.parametrize("change, changes_the_key", [
    ({"palette_seed": 1}, True), ({"image_size": 32}, True), ({"amp": False}, True), ({"epochs": 2}, True),
    ({"validation_per_class": 0}, True), ({"device": "cpu"}, False), ({"margin": 9.0}, False),
    ({"selection": "validation"}, False),
])
def test_a_fine_tuning_runs_key_follows_what_determines_its_result(full, change, changes_the_key, tmp_path):
    study, changed = coco.CocoStudy(full, tmp_path), coco.CocoStudy(dataclasses.replace(full, **change), tmp_path)
    point = full.grid()[0]
    assert (study.config("ca_clip_rn50_openai", 0, "obj", point)
            != changed.config("ca_clip_rn50_openai", 0, "obj", point)) == changes_the_key


@pytest.mark.parametrize("key, betas, eps", [("ca_clip_rn50_openai", (0.9, 0.999), 1e-8),
                                             ("ca_clip_vit_b_16_openai", (0.9, 0.98), 1e-6)])
def test_fine_tuning_uses_open_clips_adamw_betas_and_eps_for_the_backbone(full, monkeypatch, key, betas, eps):
    import torch

    from lib.models.registry import spec
    from lib.train import loop

    config = coco.train_config(full, full.grid()[0], steps_per_epoch=10, seed=0, model_name=spec(key).name)
    assert (config.betas, config.eps, config.optimizer) == (betas, eps, "adamw")
    built = []
    real = torch.optim.AdamW
    monkeypatch.setattr(torch.optim, "AdamW", lambda *args, **kwargs: built.append(kwargs) or real(*args, **kwargs))
    cpu = dataclasses.replace(config, epochs=1, device="cpu", amp=False)
    loop.train(torch.nn.Linear(2, 2), [(torch.zeros(4, 2), torch.zeros(4, dtype=torch.long))], cpu)
    assert built[0]["betas"] == betas and built[0]["eps"] == eps


def test_tower_inputs_resize_as_open_clips_pil_preprocessing_does():
    import torch
    from open_clip.constants import OPENAI_DATASET_MEAN, OPENAI_DATASET_STD
    from PIL import Image
    from skimage import data

    photo = np.asarray(Image.fromarray(data.astronaut()).resize((64, 64), Image.BICUBIC))
    pil = np.asarray(Image.fromarray(photo).resize((224, 224), Image.BICUBIC)) / 255.0
    model = torch.nn.Module()
    model.visual = torch.nn.Module()
    model.visual.image_size = 224
    inputs = coco.tower_inputs(model)(torch.from_numpy(photo / 255.0).float().permute(2, 0, 1)[None])
    ours = (inputs[0].permute(1, 2, 0).numpy() * OPENAI_DATASET_STD + OPENAI_DATASET_MEAN).clip(0, 1)
    assert inputs.shape == (1, 3, 224, 224)
    assert np.abs(ours - pil).mean() * 255 < 0.5  # PIL's kernel (without antialiasing torch's differs by 1.4)


def _tiny_data(classes: int = 3, per_class: int = 4, size: int = 16, seed: int = 0) -> dict[str, coloredcoco.Part]:
    rng = np.random.default_rng(seed)
    labels = np.repeat(np.arange(classes), per_class)
    part = lambda: coloredcoco.Part(rng.random((len(labels), 3, size, size), dtype=np.float32), labels,  # noqa: E731
                                    rng.integers(0, 19, len(labels)))
    return {"train": part(), "id": part(), "ood": part()}


@pytest.mark.parametrize("approach, config", [
    ("zero shot", None),
    ("obj", {"lr": 1e-3, "weight_decay": 0.1, "warmup_steps": 0}),
    ("objbkg", {"lr": 1e-3, "weight_decay": 0.0, "warmup_steps": 2}),
    ("supervised", {"lr": 1e-3, "weight_decay": 0.1, "warmup_steps": 0}),
])
def test_every_approach_runs_on_a_random_init_tiny_clip(full, approach, config):
    import torch
    from open_clip.tokenizer import SimpleTokenizer

    from lib.models.standins import build_standin

    settings = dataclasses.replace(full, classes=3, epochs=1, batch_size=4, device="cpu", amp=False)
    model = build_standin("tiny_clip", image_size=16)
    before = {name: value.clone() for name, value in model.state_dict().items()}
    predicted = coco.approach_predictions(model, SimpleTokenizer(context_length=16), _tiny_data(), approach, config,
                                          settings, seed=0, model_name="ViT-B-16")
    assert set(predicted) == {"id", "ood"} and all(p.shape == (12,) and p.min() >= 0 and p.max() < 3
                                                   for p in predicted.values())
    changed = any(not torch.equal(before[name], value) for name, value in model.state_dict().items())
    assert changed == (approach != "zero shot")  # fine-tuning trains the CLIP (supervised: its image tower)


def _coco_tree(root, per_class: int = 3) -> None:
    """A COCO folder with `per_class` images of a boat and of an airplane, one large rectangle each."""
    import json

    from PIL import Image

    folder = root / "coco"
    (folder / "train2017").mkdir(parents=True)
    (folder / "annotations").mkdir()
    rng = np.random.default_rng(0)
    images, annotations = [], []
    for image_id in range(1, 2 * per_class + 1):
        Image.fromarray(rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)).save(folder / "train2017" / f"{image_id}.jpg")
        images.append({"id": image_id, "file_name": f"{image_id}.jpg", "height": 120, "width": 160})
        annotations.append({"id": image_id, "image_id": image_id, "category_id": 9 if image_id % 2 else 5,
                            "segmentation": [[20, 10, 140, 10, 140, 110, 20, 110]], "area": 12000.0, "iscrowd": 0})
    categories = [{"id": 9, "name": "boat"}, {"id": 5, "name": "airplane"}] + [
        {"id": 100 + i, "name": name} for i, name in enumerate(("truck", "dog", "zebra", "horse", "bird", "train", "bus"))]
    (folder / "annotations" / "instances_train2017.json").write_text(
        json.dumps({"images": images, "annotations": annotations, "categories": categories}))


def test_the_study_runs_end_to_end_on_a_coco_tree_and_reads_its_runs_back(full, tmp_path, monkeypatch, weights_here):
    import yaml
    from open_clip.tokenizer import SimpleTokenizer

    import lib.models.clip
    import lib.models.registry
    from lib.models.standins import build_standin
    from lib.paths import DATA_ROOT_ENV

    _coco_tree(tmp_path, per_class=4)
    monkeypatch.setenv(DATA_ROOT_ENV, str(tmp_path))
    monkeypatch.setattr(lib.models.registry, "load_pretrained", lambda key: build_standin("tiny_clip", image_size=16))
    monkeypatch.setattr(lib.models.clip, "tokenizer_for", lambda key: SimpleTokenizer(context_length=16))
    coco._objects.cache_clear()
    small = {**dataclasses.asdict(full), "classes": 2, "train_per_class": 2, "validation_per_class": 1,
             "test_per_class": 1, "image_size": 16,
             "backbones": ["ca_clip_rn50_openai"], "lrs": [0.001], "weight_decays": [0.1, 0.0], "warmup_steps": [0],
             "epochs": 1, "batch_size": 2, "seeds": [0, 1], "device": "cpu", "amp": False}
    path = tmp_path / "params" / "full" / "counteranimal" / "coloredcoco.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(yaml.safe_dump(small))
    settings, frame = coloredcoco.run_study(str(path), str(tmp_path / "results"))
    assert isinstance(settings, coco.CocoSettings) and set(frame["tier"]) == {"full"}
    assert set(frame["backbone"]) == {"CLIP-OpenAI-RN50"} and len(frame) == 2 * 4 * 3  # seeds x approaches x metrics
    assert set(frame.loc[frame["approach"] == "zero shot", "point"]) == {"none"}
    assert set(frame.loc[frame["approach"] != "zero shot", "point"]) <= {"lr 0.001, weight_decay 0.1, warmup_steps 0",
                                                                         "lr 0.001, weight_decay 0, warmup_steps 0"}
    assert frame["value"].between(-100, 100).all() and len(coloredcoco.findings(frame, 5.0)) == 2
    from lib.counteranimal.figures import draw_table07_grid, table07_frame

    _, drawn = draw_table07_grid(table07_frame(frame))  # beside the paper's panels, one panel for our backbone
    assert list(dict.fromkeys(drawn["model"]))[-1] == "CLIP-OpenAI-RN50"
    data = coco.coco_parts(settings, seed=0)
    assert data["train"].images.shape == (4, 3, 16, 16) and np.array_equal(data["id"].labels, data["ood"].labels)
    assert list(data) == ["train", "id", "ood", "validation"] and list(data["validation"].labels) == [0, 1]
    without = coco.coco_parts(dataclasses.replace(settings, validation_per_class=0), seed=0)
    assert "validation" not in without and np.array_equal(without["id"].colours, data["id"].colours)
    assert (data["ood"].colours != data["ood"].labels).all()  # out of distribution: another class's colour
    kept = tmp_path / "results" / "counteranimal" / "coco_objects"  # the study's runs read COCO once, kept on disk
    assert len(list(kept.glob("*.npz"))) == 1
    coco._objects.cache_clear()  # as in another process
    monkeypatch.setattr("lib.data.registry.open_dataset", lambda *a, **k: pytest.fail("COCO read again"))
    from_disk = coco.coco_parts(settings, 0, str(kept))
    for name, part in data.items():
        np.testing.assert_array_equal(from_disk[name].images, part.images)
        np.testing.assert_array_equal(from_disk[name].labels, part.labels)
    monkeypatch.setattr(lib.models.registry, "load_pretrained", lambda key: pytest.fail("recomputed a stored run"))
    _, again = coloredcoco.run_study(str(path), str(tmp_path / "results"))
    pd.testing.assert_frame_equal(again, frame)
    path.write_text(yaml.safe_dump({**small, "selection": "validation"}))  # the same runs, selected otherwise
    runs = coco.CocoStudy(coloredcoco.load_settings(path), tmp_path / "results").summary(coloredcoco.accuracies)
    assert set(runs["metric"]) == {"in-distribution", "out-of-distribution", "drop", "validation"}
    _, by_validation = coloredcoco.run_study(str(path), str(tmp_path / "results"))
    pd.testing.assert_frame_equal(by_validation, coco.selected(runs, "validation").assign(tier="full"))


def test_objbkg_captions_name_each_images_class_and_colour_and_it_is_judged_by_the_obj_prompts(full, monkeypatch):
    from open_clip.tokenizer import SimpleTokenizer

    import lib.finetune.zeroshot
    from lib.models.standins import build_standin

    settings = dataclasses.replace(full, classes=3, epochs=1, batch_size=4, device="cpu", amp=False)
    tokenizer, seen, built = SimpleTokenizer(context_length=16), [], []
    real_loss, real_head = lib.finetune.zeroshot.flyp_loss, lib.finetune.zeroshot.ZeroShotClassifier

    def spy_loss(model, images, captions, tokens):
        seen.append((captions.clone(), tokens.clone()))
        return real_loss(model, images, captions, tokens)

    def spy_head(model, class_tokens, text_tower):
        built.append(class_tokens.clone())
        return real_head(model, class_tokens, text_tower)

    monkeypatch.setattr(lib.finetune.zeroshot, "flyp_loss", spy_loss)
    monkeypatch.setattr(lib.finetune.zeroshot, "ZeroShotClassifier", spy_head)
    data = _tiny_data()
    coco.approach_predictions(build_standin("tiny_clip", image_size=16), tokenizer, data, "objbkg",
                              {"lr": 1e-3, "weight_decay": 0.0, "warmup_steps": 0}, settings, seed=0, model_name="RN50")
    names = coco.colour_names(coco.palette(full.palette_seed))
    wanted = {(label, colour) for label, colour in zip(data["train"].labels, data["train"].colours)}
    captioned = set()
    for captions, tokens in seen:
        for index in captions.tolist():
            text = tokenizer.decode(tokens[index].tolist()).replace("<start_of_text>", "").split("<end_of_text>")[0]
            label, colour = divmod(index, len(names))
            assert text.strip() == f"a photo of {['boat', 'airplane', 'truck'][label]} in {names[colour]} background"
            captioned.add((label, colour))
    assert captioned == wanted  # one epoch: every training image's own (class, colour) caption, no other
    obj = tokenizer(coco.captions("obj", ["boat", "airplane", "truck"], [])).unsqueeze(1)
    assert len(built) == 1 and (built[0] == obj).all()  # classified by "a photo of <object>"


def test_a_diverged_run_is_stored_as_such_with_no_prediction(full, tmp_path, monkeypatch):
    import lib.models.clip
    import lib.models.registry

    monkeypatch.setattr(lib.models.registry, "load_pretrained", lambda key: None)
    monkeypatch.setattr(lib.models.clip, "tokenizer_for", lambda key: None)
    monkeypatch.setattr(coco, "coco_parts", lambda settings, seed, kept_in=None: _tiny_data())

    def diverge(*args, **kwargs):
        raise FloatingPointError("training diverged")

    monkeypatch.setattr(coco, "approach_predictions", diverge)
    rows = coco.CocoStudy(full, tmp_path)._run("ca_clip_rn50_openai", 0, "obj", full.grid()[0])
    assert rows["diverged"].all() and (rows["prediction"] == -1).all() and set(rows["test_set"]) == {"id", "ood"}
    cells = coloredcoco.accuracies(rows).set_index("metric")["value"]
    assert cells["in-distribution"] == 0.0 and cells["out-of-distribution"] == 0.0
