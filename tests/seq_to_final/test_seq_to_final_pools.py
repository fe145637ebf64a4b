"""lib.seq_to_final.pools: the CIFAR-10 and CIFAR-100 super-class pools on generated pickle trees (the real
file names and dict keys, bytes keys as Python 3 sees the Python 2 pickles), and the missing-data error."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from lib.data.check import check_all, check_dataset
from lib.data.labelled import DatasetMissingError
from lib.data.registry import spec
from lib.seq_to_final.pools import cifar10_pool, cifar100_superclass_pool, official_fine_name
from lib.seq_to_final.sampler import cifar100_subpopulations
from lib.seq_to_final.sequence import NON_POOLS, POOLS, SequenceSpec, build, open_pools, synthetic_spec
from lib.seq_to_final.shifts import CIFAR100_FINE_NAMES

CIFAR10_NAMES = ("airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck")
# The CIFAR-100 super-classes by official coarse index (coarse_label_names is alphabetical), each with its five
# fine labels as the meta file names them (https://www.cs.toronto.edu/~kriz/cifar.html).
OFFICIAL_SUPERCLASSES = (
    ("aquatic_mammals", "beaver dolphin otter seal whale"),
    ("fish", "aquarium_fish flatfish ray shark trout"),
    ("flowers", "orchid poppy rose sunflower tulip"),
    ("food_containers", "bottle bowl can cup plate"),
    ("fruit_and_vegetables", "apple mushroom orange pear sweet_pepper"),
    ("household_electrical_devices", "clock keyboard lamp telephone television"),
    ("household_furniture", "bed chair couch table wardrobe"),
    ("insects", "bee beetle butterfly caterpillar cockroach"),
    ("large_carnivores", "bear leopard lion tiger wolf"),
    ("large_man-made_outdoor_things", "bridge castle house road skyscraper"),
    ("large_natural_outdoor_scenes", "cloud forest mountain plain sea"),
    ("large_omnivores_and_herbivores", "camel cattle chimpanzee elephant kangaroo"),
    ("medium_mammals", "fox porcupine possum raccoon skunk"),
    ("non-insect_invertebrates", "crab lobster snail spider worm"),
    ("people", "baby boy girl man woman"),
    ("reptiles", "crocodile dinosaur lizard snake turtle"),
    ("small_mammals", "hamster mouse rabbit shrew squirrel"),
    ("trees", "maple_tree oak_tree palm_tree pine_tree willow_tree"),
    ("vehicles_1", "bicycle bus motorcycle pickup_truck train"),
    ("vehicles_2", "lawn_mower rocket streetcar tank tractor"),
)
FINE_NAMES = sorted(name for _, names in OFFICIAL_SUPERCLASSES for name in names.split())
COARSE_OF_FINE = np.array([next(c for c, (_, names) in enumerate(OFFICIAL_SUPERCLASSES) if name in names.split())
                           for name in FINE_NAMES])


def _dump(path: Path, entry: dict) -> None:
    path.write_bytes(pickle.dumps(entry, protocol=2))


def _rows(labels: np.ndarray, offset: int) -> np.ndarray:
    """3072-byte rows whose first R, G and B bytes encode the row's position (to check the plane layout)."""
    rows = np.zeros((len(labels), 3072), np.uint8)
    rows[:, 0], rows[:, 1024], rows[:, 2048] = (np.arange(len(labels)) + offset) % 256, labels, 7
    return rows


def write_cifar10(folder: Path, per_class_per_batch: int = 2, test_per_class: int = 5) -> None:
    folder.mkdir(parents=True)
    batch_labels = np.tile(np.arange(10), per_class_per_batch)
    for batch in range(1, 6):
        _dump(folder / f"data_batch_{batch}", {b"batch_label": f"training batch {batch} of 5".encode(),
                                               b"labels": batch_labels.tolist(),
                                               b"data": _rows(batch_labels, (batch - 1) * len(batch_labels)),
                                               b"filenames": [b"x.png"] * len(batch_labels)})
    test_labels = np.tile(np.arange(10), test_per_class)
    _dump(folder / "test_batch", {b"batch_label": b"testing batch 1 of 1", b"labels": test_labels.tolist(),
                                  b"data": _rows(test_labels, 0), b"filenames": [b"x.png"] * len(test_labels)})
    _dump(folder / "batches.meta", {b"label_names": [n.encode() for n in CIFAR10_NAMES], b"num_vis": 3072})


def write_cifar100(folder: Path, train_per_fine: int = 4, test_per_fine: int = 2) -> None:
    folder.mkdir(parents=True)
    for split, per_fine in (("train", train_per_fine), ("test", test_per_fine)):
        fine = np.tile(np.arange(100), per_fine)
        _dump(folder / split, {b"filenames": [b"x.png"] * len(fine), b"batch_label": split.encode(),
                               b"fine_labels": fine.tolist(), b"coarse_labels": COARSE_OF_FINE[fine].tolist(),
                               b"data": _rows(fine % 256, 0)})
    _dump(folder / "meta", {b"fine_label_names": [n.encode() for n in FINE_NAMES],
                            b"coarse_label_names": [n.encode() for n, _ in OFFICIAL_SUPERCLASSES]})


@pytest.fixture(scope="module")
def cifar_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("data")
    write_cifar10(root / "cifar-10-batches-py")
    write_cifar100(root / "cifar-100-python")
    return root


@pytest.fixture
def on_root(cifar_root, monkeypatch) -> Path:
    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(cifar_root))
    return cifar_root


def test_superclass_order_holds_each_official_coarse_class_fine_labels():
    assert tuple(official_fine_name(name) for name in FINE_NAMES) == CIFAR100_FINE_NAMES  # same fine indices
    for coarse, fine_labels in enumerate(cifar100_subpopulations()):
        assert len(set(fine_labels)) == 5 and set(COARSE_OF_FINE[list(fine_labels)]) == {coarse}
    assert [FINE_NAMES[i] for i in cifar100_subpopulations()[17]] == [
        "oak_tree", "pine_tree", "maple_tree", "willow_tree", "palm_tree"]


def test_the_paper_pools_are_registered_and_listed_by_check_data():
    assert {"cifar10", "cifar100_superclasses"} <= set(POOLS) and not {"cifar10", "cifar100_superclasses"} & set(NON_POOLS)
    with pytest.raises(ValueError, match="'portraits': Portraits is a sequence of its own"):
        SequenceSpec("portraits", ("rotation",), (10, 10), 5)
    assert {"cifar10", "cifar100"} <= set(check_all("seq_to_final")["name"])


def test_cifar10_pool_reads_the_five_batches_in_order(on_root):
    pool = cifar10_pool()
    assert pool.train_images.shape == (100, 32, 32, 3) and pool.test_images.shape == (50, 32, 32, 3)
    assert pool.train_images.dtype == np.uint8 and pool.train_labels.dtype == np.int64 and pool.num_classes == 10
    np.testing.assert_array_equal(pool.train_images[:, 0, 0, 0], np.arange(100))  # R plane: position in the pool
    np.testing.assert_array_equal(pool.train_images[:, 0, 0, 1], pool.train_labels)  # G plane: the label
    assert (pool.train_images[:, 0, 0, 2] == 7).all() and pool.subpopulations is None
    assert np.bincount(pool.test_labels).tolist() == [5] * 10 and not pool.train_images.flags.writeable
    assert check_dataset(replace(spec("cifar10"), n_images=150), on_root).status == "present"


def test_cifar100_superclass_pool_keeps_fine_labels_with_the_code_order(on_root):
    pool = cifar100_superclass_pool()
    assert pool.train_images.shape == (400, 32, 32, 3) and pool.test_images.shape == (200, 32, 32, 3)
    assert pool.num_classes == 20 and pool.subpopulations == cifar100_subpopulations()
    np.testing.assert_array_equal(pool.train_labels, np.tile(np.arange(100), 4))


def test_sequences_build_from_the_pools(on_root):
    clr = build(synthetic_spec("CLR", "cifar10", (30, 20, 30, 20), 20))
    assert [len(clr.step(t, "train")) + len(clr.step(t, "valid")) for t in range(4)] == [30, 20, 30, 20]
    assert len(clr.final("test")) == 20 and clr.num_classes == 10 and clr.final("test").images.shape[1:] == (32, 32, 3)
    pool = cifar10_pool()
    np.testing.assert_array_equal(clr.step(0, "train").labels, pool.train_labels[clr.step(0, "train").pool_indices])
    sss = build(synthetic_spec("sss", "cifar100_superclasses", (80, 80, 80, 80), 40, subpopulation_reading="paper"))
    superclasses = cifar100_superclass_pool()
    for t, present in enumerate(((0, 1), (0, 1, 2), (1, 2, 3), (2, 3, 4))):
        drawn = sss.step(t, "train")
        fine = superclasses.train_labels[drawn.pool_indices]
        np.testing.assert_array_equal(drawn.labels, COARSE_OF_FINE[fine])  # step labels: the official coarse index
        allowed = {f for group in cifar100_subpopulations() for f in (group[i] for i in present)}
        assert set(fine.tolist()) <= allowed
    test_fine = superclasses.test_labels[sss.final("test").pool_indices]
    np.testing.assert_array_equal(sss.final("test").labels, COARSE_OF_FINE[test_fine])


def test_a_missing_tree_stops_with_one_line_naming_the_fix(tmp_path, monkeypatch):
    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(tmp_path))
    spec_ = synthetic_spec("CLR", "cifar10", (30, 20, 30, 20), 20)  # specs need no data
    with pytest.raises(DatasetMissingError) as error:
        open_pools([spec_])
    message = str(error.value)
    assert "\n" not in message and "'cifar10'" in message and str(tmp_path / "cifar-10-batches-py") in message
    assert "ROBUSTNESS_DATA_ROOT" in message and "cs.toronto.edu" in message and "Licence" in message


def test_cifar_pools_hold_32_pixel_images_only(on_root):
    with pytest.raises(ValueError, match="image_size must be 32, got 16"):
        open_pools([synthetic_spec("CLR", "cifar10", (30, 20, 30, 20), 20, image_size=16)])


# ---------------------------------------------------------------------------------------------- Portraits

PORTRAITS_PER_DECADE = {"1930s": (3, 2), "1940s": (2, 3), "1950s": (3, 3), "1960s": (2, 2), "1970s": (3, 2),
                        "1980s": (2, 3), "1990s": (3, 3), "2000s": (6, 4)}  # (men, women)


def write_portraits(folder: Path) -> None:
    """The archive's M/ and F/ folders of tiny grey PNGs named by year; each face's grey level encodes its
    sex and order, plus files the decades leave out (1920s, a non-image)."""
    from PIL import Image

    for label, sex in enumerate(("M", "F")):
        (folder / sex).mkdir(parents=True)
        for decade, counts in PORTRAITS_PER_DECADE.items():
            year = int(decade[:4])
            for i in range(counts[label]):
                Image.new("L", (8, 6), 100 * label + 10 * i).save(folder / sex / f"{year + i}_{sex}_{i}.png")
        Image.new("L", (8, 6), 0).save(folder / sex / "1925_old.png")
        (folder / sex / "notes.txt").write_text("not an image")


def test_portraits_decades_split_as_the_code_does(tmp_path, monkeypatch):
    from lib.seq_to_final.portraits import PortraitsSpec, build_portraits

    write_portraits(tmp_path / "faces_aligned_small_mirrored_co_aligned_cropped_cleaned")
    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(tmp_path))
    sequence = build_portraits(PortraitsSpec(image_size=4))
    assert len(sequence.steps) == 8 and sequence.num_classes == 2
    rng = np.random.RandomState(1007)
    for t, (men, women) in enumerate(PORTRAITS_PER_DECADE.values()):
        order = np.arange(men + women)
        rng.shuffle(order)
        labels = np.array([0] * men + [1] * women)
        cut = int(0.8 * len(order)) if t < 7 else int(0.4 * len(order))
        train = sequence.step(t, "train")
        np.testing.assert_array_equal(train.pool_indices, order[:cut])
        np.testing.assert_array_equal(train.labels, labels[order[:cut]])
        assert train.images.shape[1:] == (4, 4, 3) and train.images.dtype == np.uint8
        grey = 100 * labels + 10 * (np.arange(len(labels)) - np.where(labels == 1, men, 0))
        np.testing.assert_array_equal(train.images[:, 0, 0, 0], grey[order[:cut]])  # M files first, then F
    assert [len(sequence.final(s)) for s in ("train", "valid", "test")] == [4, 1, 5]
    assert check_dataset(replace(spec("portraits"), n_images=sum(map(sum, PORTRAITS_PER_DECADE.values()))),
                         tmp_path).status == "present"


def test_missing_portraits_stop_with_one_line(tmp_path, monkeypatch):
    from lib.seq_to_final.portraits import build_portraits

    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(tmp_path))
    with pytest.raises(DatasetMissingError) as error:
        build_portraits()
    assert "\n" not in str(error.value) and "'portraits'" in str(error.value) and "dropbox.com" in str(error.value)
