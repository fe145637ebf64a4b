"""The CounterAnimal layout on generated folder trees (no real data)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lib.data.check import check_dataset
from lib.data.counteranimal import counteranimal, parse_class_folder, parse_group_folder
from lib.data.labelled import DatasetMissingError
from lib.data.registry import open_dataset, spec
from tests.conftest import write_images

ROOT = Path("counteranimal/LAION-final")


def make_counteranimal(root: Path, classes: dict[str, dict[str, int]]) -> Path:
    """`root/<class folder>/<group folder>/<images>` for {class folder: {group folder: count}}."""
    for i, (name, groups) in enumerate(classes.items()):
        for j, (group, count) in enumerate(groups.items()):
            write_images(root / name / group, count, seed=10 * i + j)
    return root


TREE = {
    "9 ostrich, Struthio camelus": {"common-ground": 3, "counter-water": 2},
    "296 ice bear, polar bear": {"common-snow": 1, "counter-grass": 4},
}


def test_registry_row_states_source_licence_and_size():
    s = spec("counteranimal")
    assert s.layout == "counteranimal" and s.label_space == "imagenet_index"
    assert (s.n_classes, s.n_images) == (45, 12997)
    assert "drive.google.com" in s.source and "iNaturalist" in s.licence


def test_items_carry_imagenet_target_group_and_background(tmp_path):
    make_counteranimal(tmp_path / ROOT, TREE)
    data = open_dataset("counteranimal", root=tmp_path)
    items = data.items()
    assert len(data) == len(items) == 10
    assert data.class_targets == [296, 9] and data.class_names == ["ice bear, polar bear", "ostrich, Struthio camelus"]
    ostrich = items[items["target"] == 9]
    assert ostrich.groupby("group")["background"].agg(set).to_dict() == {"common": {"ground"}, "counter": {"water"}}
    assert (ostrich["class"] == "ostrich, Struthio camelus").all()
    assert items.groupby("group").size().to_dict() == {"common": 4, "counter": 6}
    assert list(items["target"]) == data.targets
    image, target = data[0]
    assert image.size == (6, 6) and target == 296
    assert data.num_outputs == 1000 and data.logit_mask().sum() == 2


def test_bare_group_folders_have_no_background(tmp_path):
    data = counteranimal(make_counteranimal(tmp_path, {"1 goldfish": {"common": 2, "counter": 1}}))
    assert data.backgrounds == [None] * 3 and data.groups == ["common", "common", "counter"]


def test_check_data_counts_against_the_registry(tmp_path):
    make_counteranimal(tmp_path / ROOT, TREE)
    result = check_dataset(spec("counteranimal"), tmp_path)
    assert result.status == "malformed" and result.images == 10 and "expected 45" in result.detail


def test_missing_dataset_error_says_what_where_and_how(tmp_path):
    with pytest.raises(DatasetMissingError) as error:
        open_dataset("counteranimal", root=tmp_path)
    for part in (str(tmp_path / ROOT), "drive.google.com", "iNaturalist", "ROBUSTNESS_DATA_ROOT"):
        assert part in str(error.value)


def test_empty_dataset_folder_is_missing(tmp_path):
    (tmp_path / ROOT).mkdir(parents=True)
    with pytest.raises(DatasetMissingError, match="no CounterAnimal images"):
        open_dataset("counteranimal", root=tmp_path)


@pytest.mark.parametrize("tree, message", [
    ({"ostrich": {"common-ground": 1}}, "is not '<ImageNet index"),
    ({"1200 ostrich": {"common-ground": 1}}, "is not '<ImageNet index"),
    ({"9 ostrich": {"easy-ground": 1}}, "is not 'common-<background>'"),
])
def test_malformed_folders_are_named(tmp_path, tree, message):
    with pytest.raises(ValueError, match=message):
        counteranimal(make_counteranimal(tmp_path, tree))


def test_loose_images_in_a_class_folder_are_an_error(tmp_path):
    root = make_counteranimal(tmp_path, {"9 ostrich": {"common-ground": 1}})
    write_images(root / "9 ostrich", 1)
    with pytest.raises(ValueError, match="outside a common-/counter- folder"):
        counteranimal(root)


def test_folder_name_parsers():
    assert parse_class_folder("296 ice bear, polar bear") == (296, "ice bear, polar bear")
    assert parse_group_folder("counter-hand") == ("counter", "hand")
    assert parse_group_folder("common-tree-trunk") == ("common", "tree-trunk")
