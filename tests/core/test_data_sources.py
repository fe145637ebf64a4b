"""Loaders of the non-folder datasets (VOC, CIFAR-100, iNaturalist 2021, Stanford Cars) and the seeded
Caltech-256 split, on generated fake trees in each dataset's own layout."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from lib.data import inaturalist
from lib.data.check import check_dataset
from lib.data.inaturalist import parse_category, ssl_protocols_subset
from lib.data.registry import DatasetMissingError, open_dataset, open_spec, registry, spec
from lib.data.voc import VOC_CLASSES, dominant_class
from tests.conftest import write_images


def write_mask(path: Path, mask: np.ndarray) -> None:
    """A palette PNG of class indices, like VOC's SegmentationClass files."""
    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.fromarray(mask.astype(np.uint8))
    image.putpalette([v for i in range(256) for v in (i, 255 - i, i // 2)])
    image.save(path)


@pytest.fixture
def voc(tmp_path):
    root = tmp_path / "VOCdevkit" / "VOC2012"
    masks = {
        "2007_000001": [(0, 10), (15, 30), (12, 20), (255, 40)],  # person covers the most pixels
        "2007_000002": [(3, 8), (7, 8), (0, 84)],  # a tie between bird (3) and car (7): the lower wins
        "2007_000003": [(20, 1), (0, 99)],  # a single tvmonitor pixel
    }
    (root / "JPEGImages").mkdir(parents=True)
    for image_id, parts in masks.items():
        mask = np.array([value for value, count in parts for _ in range(count)]).reshape(10, 10)
        write_mask(root / "SegmentationClass" / f"{image_id}.png", mask)
        Image.new("RGB", (10, 10), (200, 30, 30)).save(root / "JPEGImages" / f"{image_id}.jpg")
    (root / "ImageSets" / "Segmentation").mkdir(parents=True)
    (root / "ImageSets" / "Segmentation" / "train.txt").write_text("2007_000001\n2007_000002\n")
    (root / "ImageSets" / "Segmentation" / "val.txt").write_text("2007_000003\n")
    return tmp_path


def test_voc_label_is_the_largest_object_class(voc):
    train = open_dataset("voc2012", root=voc, split="train")
    assert train.targets == [VOC_CLASSES.index("person"), VOC_CLASSES.index("bird")]
    image, target = open_dataset("voc2012", root=voc, split="val")[0]
    assert target == VOC_CLASSES.index("tvmonitor") and image.mode == "RGB"
    assert len(train.class_names) == 20 and train.logit_mask().all()


def test_voc_mask_rule_edge_cases():
    assert dominant_class(np.array([[0, 255], [255, 0]])) is None
    assert dominant_class(np.array([[5, 5, 9, 9, 0]])) == 5
    with pytest.raises(ValueError, match="outside"):
        dominant_class(np.array([[21, 1]]))


def test_voc_check_and_missing_split_list(voc):
    small = replace(spec("voc2012"), n_images=3)
    result = check_dataset(small, voc)
    assert (result.status, result.images, result.classes) == ("present", 3, 20)
    (voc / "VOCdevkit" / "VOC2012" / "ImageSets" / "Segmentation" / "val.txt").unlink()
    result = check_dataset(small, voc)
    assert result.status == "malformed" and "val.txt" in result.detail


def write_cifar(root: Path, sizes: dict[str, int]) -> dict[str, np.ndarray]:
    root.mkdir(parents=True)
    rng = np.random.default_rng(0)
    data = {}
    for split, n in sizes.items():
        data[split] = rng.integers(0, 256, size=(n, 3072), dtype=np.uint8)
        entry = {"data": data[split], "fine_labels": list(range(n)), "coarse_labels": [0] * n,
                 "filenames": [f"x_{i}.png" for i in range(n)]}
        (root / split).write_bytes(pickle.dumps(entry, protocol=2))
    meta = {"fine_label_names": [f"class_{i:02d}" for i in range(100)], "coarse_label_names": ["c"] * 20}
    (root / "meta").write_bytes(pickle.dumps(meta, protocol=2))
    return data


def test_cifar100_reads_the_python_pickles(tmp_path):
    data = write_cifar(tmp_path / "cifar-100-python", {"train": 5, "test": 2})
    train = open_dataset("cifar100", root=tmp_path, split="train")
    image, target = train[3]
    pixel = np.asarray(image)[0, 0]
    assert (len(train), target, image.size) == (5, 3, (32, 32))
    assert pixel.tolist() == [data["train"][3][0], data["train"][3][1024], data["train"][3][2048]]
    assert train.class_names[3] == "class_03" and train.num_outputs == 100
    assert check_dataset(replace(spec("cifar100"), n_images=7), tmp_path).status == "present"


INAT_SPECIES = [  # kingdom, phylum, class, order, family, genus, epithet
    ("Animalia", "Chordata", "Aves", "Passeriformes", "Paridae", "Parus", "major"),
    ("Animalia", "Chordata", "Aves", "Passeriformes", "Paridae", "Parus", "minor"),
    ("Animalia", "Chordata", "Aves", "Passeriformes", "Paridae", "Poecile", "atricapillus"),
    ("Animalia", "Chordata", "Aves", "Passeriformes", "Corvidae", "Corvus", "major"),
    ("Animalia", "Chordata", "Aves", "Passeriformes", "Corvidae", "Corvus", "corax"),
    ("Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Felis", "catus"),
    ("Plantae", "Tracheophyta", "Magnoliopsida", "Fabales", "Fabaceae", "Acacia", "confusa"),
]
INAT_FOLDERS = ["_".join([f"{i:05d}", *taxa]) for i, taxa in enumerate(INAT_SPECIES)]


@pytest.fixture
def inat(tmp_path, make_tree):
    for split, count in (("train_mini", 2), ("val", 1)):
        make_tree(tmp_path / "inat2021" / split, {folder: count for folder in INAT_FOLDERS})
    return tmp_path


def test_inat_targets_are_read_from_the_folder_names(inat):
    family = open_dataset("inat_mini_family", root=inat, split="train")
    assert family.class_names == ["Corvidae", "Fabaceae", "Felidae", "Paridae"] and len(family) == 14
    assert family.targets[:6] == [3, 3, 3, 3, 3, 3]
    species = open_spec(replace(spec("inat_mini_family"), options=(("target", "species"), ("subset", "all"))), inat, split="val")
    assert len(species.class_names) == 7 and "Corvus major" in species.class_names and len(species) == 7
    genus = open_spec(replace(spec("inat_mini_family"), options=(("target", "genus"), ("subset", "all"))), inat, split="val")
    assert genus.class_names == ["Acacia", "Corvus", "Felis", "Parus", "Poecile"]


def test_inat_needs_the_2021_folder_names(tmp_path, make_tree):
    make_tree(tmp_path / "inat2021" / "val", {"Parus_major": 1})
    with pytest.raises(ValueError, match="not an iNaturalist 2021 category folder"):
        open_dataset("inat_mini_family", root=tmp_path, split="val")
    with pytest.raises(DatasetMissingError, match="2021_train_mini: rename it"):
        open_dataset("inat_mini_family", root=tmp_path, split="train")


def ids(categories: list) -> list[int]:
    return [c.id for c in categories]


def test_ssl_protocols_subsets_follow_the_released_rule_and_the_text(monkeypatch):
    categories = [parse_category(folder) for folder in INAT_FOLDERS]
    monkeypatch.setitem(inaturalist.SUBSET_FAMILIES, "ssl_protocols_code", 2)
    monkeypatch.setitem(inaturalist.SUBSET_FAMILIES, "ssl_protocols_text", 1)
    monkeypatch.setattr(inaturalist, "SUBSET_GENERA", 2)
    # code: Chordata families by species count (Paridae 3, Corvidae 2), one species per genus
    assert ids(ssl_protocols_subset(categories, "genus", "ssl_protocols_code")) == [0, 2, 3]
    # text: the top family, every species of its genera
    assert ids(ssl_protocols_subset(categories, "genus", "ssl_protocols_text")) == [0, 1, 2]
    # code: the 2 genera with most species (Parus 2, Corvus 2), one category per epithet ("major" twice)
    assert ids(ssl_protocols_subset(categories, "species", "ssl_protocols_code")) == [0, 1, 4]
    assert ids(ssl_protocols_subset(categories, "species", "ssl_protocols_text")) == [0, 1, 2]
    with pytest.raises(ValueError, match="genus and species"):
        ssl_protocols_subset(categories, "family", "ssl_protocols_code")


def write_cars(root: Path, train: list[int], test: list[int]) -> None:
    from scipy.io import savemat

    (root / "devkit").mkdir(parents=True)
    names = np.array([f"Make Model {i} 2012" for i in range(1, 197)], dtype=object)
    savemat(root / "devkit" / "cars_meta.mat", {"class_names": names.reshape(1, -1)})
    fields = [("bbox_x1", "O"), ("bbox_y1", "O"), ("bbox_x2", "O"), ("bbox_y2", "O"), ("class", "O"), ("fname", "O")]
    splits = (("train", train, "devkit/cars_train_annos.mat"), ("test", test, "cars_test_annos_withlabels.mat"))
    for split, classes, mat in splits:
        write_images(root / f"cars_{split}", len(classes), suffix=".jpg")
        records = np.array([(1, 2, 5, 5, c, f"img_{i:03d}.jpg") for i, c in enumerate(classes)], dtype=fields)
        savemat(root / mat, {"annotations": records.reshape(1, -1)})


def test_stanford_cars_reads_the_devkit_annotations(tmp_path):
    write_cars(tmp_path / "stanford_cars", train=[1, 196, 5], test=[2])
    train = open_dataset("stanford_cars", root=tmp_path, split="train")
    assert train.targets == [0, 195, 4] and train.class_names[195] == "Make Model 196 2012"
    test = open_dataset("stanford_cars", root=tmp_path, split="test")
    assert len(test) == 1 and test[0][1] == 1
    assert check_dataset(replace(spec("stanford_cars"), n_images=4), tmp_path).status == "present"
    (tmp_path / "stanford_cars" / "cars_test" / "img_000.jpg").unlink()
    with pytest.raises(DatasetMissingError, match="listed but not found"):
        open_dataset("stanford_cars", root=tmp_path, split="test")


def test_caltech256_seeded_split_is_the_papers(tmp_path, make_tree):
    counts = {"001.ak47": 4, "002.bat": 3, "257.clutter": 3}
    root = make_tree(tmp_path / "caltech256" / "256_ObjectCategories", counts)
    write_images(root / "001.ak47" / "nested", 2)  # not directly in a category folder: not counted
    every = [(root / c, t, i) for t, (c, n) in enumerate(counts.items()) for i in range(n)]  # torchvision's order
    every = [(folder / f"img_{i:03d}.png", t) for folder, t, i in every]
    np.random.seed(0)
    order = np.arange(10)
    np.random.shuffle(order)  # the paper's datasets/caltech256.py, with 10 images instead of 30,607
    train = open_dataset("caltech256", root=tmp_path, split="train")
    test = open_dataset("caltech256", root=tmp_path, split="test")
    assert train.samples == [every[i] for i in np.sort(order[:8])]
    assert test.samples == [every[i] for i in np.sort(order[8:])]
    assert train.class_names == test.class_names == list(counts)


@pytest.mark.parametrize("name", ["voc2012", "cifar100", "inat_mini_family", "stanford_cars", "caltech256"])
def test_missing_new_datasets_say_where_and_how(tmp_path, name):
    s = spec(name)
    with pytest.raises(DatasetMissingError) as error:
        open_dataset(name, root=tmp_path, split=s.splits[0])
    for part in (str(tmp_path / s.subdir), s.source, s.licence):
        assert part in str(error.value)
    with pytest.raises(ValueError, match="split must be one of"):
        open_dataset(name, root=tmp_path)


def test_registry_rows_of_the_new_datasets():
    names = {"voc2012", "cifar100", "inat_mini_family", "inat_mini_genus", "inat_mini_species", "stanford_cars"}
    assert names <= set(registry())
    assert dict(spec("caltech256").options) == {"seed": 0, "train_fraction": 0.8}
    assert len({spec(name) for name in names}) == len(names)  # rows stay hashable
    assert "forbids training" in spec("objectnet").licence and "MIT" in spec("objectnet").notes
