from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from lib.cli import main
from lib.data.check import check_all, check_dataset
from lib.data.embedded import SKIMAGE_PHOTOS, digits_dataset, skimage_photo
from lib.data.folders import FolderImages, imagenet_wnids
from lib.data.registry import DatasetMissingError, IMAGENET_C_CORRUPTIONS, open_dataset, registry, spec
from tests.conftest import write_images


def test_registry_rows_are_complete():
    for s in registry().values():
        assert s.source and s.licence and s.subdir and s.n_classes > 0, s.name
    assert "forbids training" in spec("objectnet").licence


def test_own_label_space_sorts_class_folders(tmp_path, make_tree):
    root = make_tree(tmp_path / "d", {"zebra": 2, "ant": 3})
    data = FolderImages.from_root(root, "own")
    assert data.class_names == ["ant", "zebra"] and len(data) == 5
    image, target = data[4]
    assert target == 1 and image.size == (6, 6)
    assert data.logit_mask().all()


def test_wnid_folders_map_to_imagenet_indices_with_a_mask(tmp_path, make_tree):
    wnids = imagenet_wnids()
    root = make_tree(tmp_path / "a", {wnids[5]: 1, wnids[999]: 2})
    data = FolderImages.from_root(root, "imagenet_wnid")
    assert [t for _, t in data.samples] == [5, 999, 999]
    mask = data.logit_mask()
    assert mask.shape == (1000,) and mask.sum() == 2 and mask[[5, 999]].all()


def test_full_mask_when_every_class_is_present(tmp_path, make_tree):
    root = make_tree(tmp_path / "v2", {str(i): 0 for i in range(1000)})
    assert FolderImages.from_root(root, "imagenet_index").logit_mask().all()


def test_folders_that_are_not_wnids_are_rejected(tmp_path, make_tree):
    root = make_tree(tmp_path / "bad", {"cat": 1})
    with pytest.raises(ValueError, match="not ImageNet-1k WordNet ids"):
        FolderImages.from_root(root, "imagenet_wnid")


def test_missing_dataset_error_says_what_where_and_how(tmp_path):
    with pytest.raises(DatasetMissingError) as error:
        open_dataset("imagenet_a", root=tmp_path)
    message = str(error.value)
    for part in ("imagenet_a", str(tmp_path / "imagenet-a"), "natural-adv-examples", "MIT", "ROBUSTNESS_DATA_ROOT"):
        assert part in message


def test_imagenet_c_needs_a_valid_split(tmp_path, make_tree):
    wnids = imagenet_wnids()
    make_tree(tmp_path / "imagenet-c" / "fog" / "3", {wnids[0]: 2})
    data = open_dataset("imagenet_c", root=tmp_path, corruption="fog", severity=3)
    assert len(data) == 2
    with pytest.raises(ValueError, match="severity"):
        open_dataset("imagenet_c", root=tmp_path, corruption="fog", severity=6)


def test_check_dataset_present_missing_malformed(tmp_path, make_tree):
    small = replace(spec("caltech256"), subdir="cal", n_images=5, n_classes=2)
    assert check_dataset(small, tmp_path).status == "missing"
    make_tree(tmp_path / "cal", {"001.ak47": 2, "002.bat": 3})
    result = check_dataset(small, tmp_path)
    assert (result.status, result.images, result.classes) == ("present", 5, 2)
    write_images(tmp_path / "cal" / "003.extra", 1)
    result = check_dataset(small, tmp_path)
    assert result.status == "malformed" and "3 class folders, expected 2" in result.detail


def test_check_imagenet_c_counts_every_split(tmp_path, make_tree):
    wnid = imagenet_wnids()[0]
    small = replace(spec("imagenet_c"), n_images=None, n_classes=1)
    for corruption in IMAGENET_C_CORRUPTIONS:
        for severity in range(1, 6):
            make_tree(tmp_path / "imagenet-c" / corruption / str(severity), {wnid: 1})
    assert check_dataset(small, tmp_path).images == 75
    (tmp_path / "imagenet-c" / "fog" / "5" / wnid / "img_000.png").unlink()
    (tmp_path / "imagenet-c" / "fog" / "5" / wnid).rmdir()
    assert check_dataset(small, tmp_path).status == "malformed"


def test_check_data_on_an_empty_root_lists_every_dataset(tmp_path, capsys):
    frame = check_all(root=tmp_path)
    assert set(frame["name"]) == set(registry()) and (frame["status"] == "missing").all()
    assert main(["check-data", "--data-root", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for name, s in registry().items():
        assert name in out and s.source in out


def test_embedded_data():
    images, labels = digits_dataset().tensors
    assert images.shape == (1797, 1, 8, 8) and 0 <= images.min() and images.max() <= 1
    assert sorted(np.unique(labels.numpy())) == list(range(10))
    for name in SKIMAGE_PHOTOS:
        photo = skimage_photo(name)
        assert photo.ndim == 3 and photo.shape[2] == 3 and photo.dtype == np.float32
