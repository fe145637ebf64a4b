"""The paper's six foundation models and its datasets in the registries, checked offline against the
installed open_clip and timm (configs only: no weights are downloaded)."""

from __future__ import annotations

import open_clip
import pytest
import timm
import torch

from lib.data.registry import registry as datasets
from lib.models.registry import exists_offline, registry

PAPER = "fm_perturbations"
# paper label -> (embedding width, native input size in pixels), from the model configs
EXPECTED = {
    "CLIP ViT-B/16": (512, 224),
    "CLIP ViT-L/14": (768, 224),
    "CLIP RN50": (1024, 224),
    "CLIP RN50×64": (1024, 448),
    "DINO v2 ViT-L/14": (1024, 518),
    "DINO v2 ViT-g/14": (1536, 518),
}
ROWS = [s for s in registry().values() if s.paper == PAPER]


def test_the_six_models_of_sec_4_1_are_registered_once():
    assert sorted(s.paper_label for s in ROWS) == sorted(EXPECTED)


@pytest.mark.parametrize("row", ROWS, ids=[s.key for s in ROWS])
def test_each_model_exists_offline_with_the_expected_width_and_input(row):
    assert exists_offline(row)
    width, size = EXPECTED[row.paper_label]
    if row.library == "open_clip":
        assert row.pretrained == "openai" and "quick_gelu" in row.quirks
        config = open_clip.get_model_config(row.name)
        assert (config["embed_dim"], config["vision_cfg"]["image_size"]) == (width, size)
        assert open_clip.get_pretrained_cfg(row.name, row.pretrained)["url"] == row.source_url
    else:
        assert row.library == "timm" and row.name.endswith(".lvd142m")
        config = timm.models.get_pretrained_cfg(row.name)
        assert config.input_size == (3, size, size) and config.url == row.source_url
        with torch.device("meta"):  # the architecture only: no memory, no weights
            assert timm.create_model(row.architecture, pretrained=False, num_classes=0).num_features == width


def test_imagenet_and_food101_are_in_the_data_registry():
    specs = datasets()
    for name in ("imagenet_val", "imagenet_train", "food101_test", "food101_train"):
        assert PAPER in specs[name].papers, name
    assert (specs["food101_test"].n_images, specs["food101_test"].n_classes) == (25250, 101)
    assert (specs["food101_train"].n_images, specs["food101_train"].n_classes) == (75750, 101)


def test_food101_split_folders_load_with_their_own_class_order(tmp_path, make_tree):
    from lib.data.registry import open_dataset

    make_tree(tmp_path / "food-101" / "test", {"baklava": 2, "apple_pie": 3})
    data = open_dataset("food101_test", root=tmp_path)
    assert data.class_names == ["apple_pie", "baklava"] and len(data) == 5
