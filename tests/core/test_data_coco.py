"""COCO objects for ColoredCOCO (`lib.data.coco`) on a generated COCO tree: which objects are kept and in what
order, the masks (polygons and crowd RLE), the compositing, and the registry round trip."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from skimage.transform import resize

from lib.data.check import check_dataset
from lib.data.coco import (BACKGROUND_SCALE, COLOREDCOCO_CLASSES, CocoObject, CocoObjects, coco_objects, composite,
                           object_mask, paint_background)
from lib.data.labelled import DatasetMissingError
from lib.data.registry import open_dataset, spec

CATEGORIES = [{"id": i, "name": name} for i, name in ((3, "car"), (5, "airplane"), (6, "bus"), (7, "train"), (8, "truck"),
                                                     (9, "boat"), (16, "bird"), (18, "dog"), (19, "horse"), (24, "zebra"))]


def _rectangle(x0: int, y0: int, x1: int, y1: int) -> list[list[float]]:
    return [[x0, y0, x1, y0, x1, y1, x0, y1]]


def _rle(mask: np.ndarray) -> dict:
    """COCO's uncompressed RLE of a mask: run lengths of 0, 1, 0, ... in column-major order."""
    flat = mask.T.reshape(-1).astype(int)
    counts, value, run = [], 0, 0
    for pixel in flat:
        if pixel != value:
            counts.append(run)
            value, run = pixel, 0
        run += 1
    return {"counts": [*counts, run], "size": list(mask.shape)}


CROWD = np.zeros((120, 160), dtype=bool)
CROWD[10:110, 20:130] = True  # 11,000 pixels


def write_coco(root: Path) -> Path:
    """A COCO folder: five images of two sizes (one greyscale), dogs and boats, a car, a small dog, a crowd."""
    folder = root / "coco"
    (folder / "train2017").mkdir(parents=True)
    (folder / "annotations").mkdir()
    rng = np.random.default_rng(0)
    sizes = {1: (120, 160), 2: (120, 160), 3: (90, 200), 4: (90, 200), 5: (120, 160)}
    images = []
    for image_id, (height, width) in sizes.items():
        pixels = rng.integers(0, 256, (height, width) if image_id == 4 else (height, width, 3), dtype=np.uint8)
        Image.fromarray(pixels).save(folder / "train2017" / f"{image_id:012d}.jpg", quality=90)
        images.append({"id": image_id, "file_name": f"{image_id:012d}.jpg", "height": height, "width": width})
    annotations = [  # image 1: two dogs and a crowd of boats; 2: a too-small dog and a car; 5: two dogs of one area
        {"id": 1, "image_id": 5, "category_id": 18, "segmentation": _rectangle(0, 0, 120, 100), "area": 12000.0, "iscrowd": 0},
        {"id": 2, "image_id": 1, "category_id": 18, "segmentation": _rectangle(10, 10, 20, 20), "area": 100.0, "iscrowd": 0},
        {"id": 3, "image_id": 1, "category_id": 18, "segmentation": _rectangle(10, 20, 130, 110), "area": 10800.0, "iscrowd": 0},
        {"id": 4, "image_id": 2, "category_id": 18, "segmentation": _rectangle(0, 0, 5, 5), "area": 25.0, "iscrowd": 0},
        {"id": 5, "image_id": 3, "category_id": 9, "segmentation": _rle(np.ones((90, 200), bool)), "area": 18000.0, "iscrowd": 1},
        {"id": 6, "image_id": 1, "category_id": 9, "segmentation": _rle(CROWD), "area": 11000.0, "iscrowd": 1},
        {"id": 7, "image_id": 4, "category_id": 18, "segmentation": _rectangle(0, 0, 199, 89), "area": 17800.0, "iscrowd": 0},
        {"id": 8, "image_id": 2, "category_id": 3, "segmentation": _rectangle(0, 0, 150, 110), "area": 16500.0, "iscrowd": 0},
        {"id": 9, "image_id": 5, "category_id": 18, "segmentation": _rectangle(30, 0, 150, 100), "area": 12000.0, "iscrowd": 0},
    ]
    (folder / "annotations" / "instances_train2017.json").write_text(
        json.dumps({"images": images, "annotations": annotations, "categories": CATEGORIES}))
    return folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return write_coco(tmp_path_factory.mktemp("data"))


def test_the_largest_object_of_each_class_per_image_is_kept_by_area_images_in_id_order(folder):
    objects = coco_objects(folder, ["dog", "boat"])
    assert [(o.category, o.image_id, o.label) for o in objects] == [
        ("dog", 1, 0), ("dog", 4, 0), ("dog", 5, 0), ("boat", 1, 1), ("boat", 3, 1)]  # image 2's dog is too small
    assert objects[0].area == 10800.0 and objects[0].segmentation == _rectangle(10, 20, 130, 110)  # image 1's largest
    assert objects[2].segmentation == _rectangle(0, 0, 120, 100)  # a tie: the first in the file
    assert objects[3].iscrowd == 1 and objects[3].area == 11000.0
    assert objects[0].image_path == folder / "train2017" / "000000000001.jpg"
    assert (objects[1].height, objects[1].width) == (90, 200)
    assert [o.image_id for o in coco_objects(folder, ["dog"], min_area=0)] == [1, 2, 4, 5]
    assert [o.image_id for o in coco_objects(folder, ["dog"], min_area=12000)] == [4, 5]  # kept at area == min_area
    assert [(o.category, o.label) for o in coco_objects(folder)] == [("boat", 0)] * 2 + [("dog", 3)] * 3


def test_a_polygon_mask_is_its_rectangle_and_a_crowd_rle_is_decoded_column_major(folder):
    dog, _, _, boat, _ = coco_objects(folder, ["dog", "boat"])
    expected = np.zeros((120, 160), dtype=bool)
    expected[20:111, 10:131] = True  # PIL fills the outline too: both ends included
    assert np.array_equal(object_mask(dog), expected)
    assert np.array_equal(object_mask(boat), CROWD)
    # 2 x 3, column-major runs: one 0, two 1s, three 0s -> column 0 = (0, 1), column 1 = (1, 0), column 2 = (0, 0)
    small = CocoObject(Path("x.jpg"), 7, 0, "boat", 2, 3, {"counts": [1, 2, 3], "size": [2, 3]}, 2.0, 1)
    assert np.array_equal(object_mask(small), [[False, True, False], [True, False, False]])


def test_compressed_rle_unknown_classes_and_a_missing_annotation_file_stop_with_one_line(folder, tmp_path):
    compressed = CocoObject(Path("x.jpg"), 7, 0, "dog", 4, 4, {"counts": "abc", "size": [4, 4]}, 16.0, 1)
    with pytest.raises(ValueError, match="compressed RLE"):
        object_mask(compressed)
    with pytest.raises(ValueError, match=r"no category \['cat'\].*'bus', 'car', 'dog'"):
        coco_objects(folder, ["dog", "cat"])
    with pytest.raises(DatasetMissingError) as error:
        coco_objects(tmp_path)
    assert str(tmp_path / "annotations" / "instances_train2017.json") in str(error.value)
    assert "\n" not in str(error.value)


def test_the_composite_is_the_photo_inside_the_mask_and_the_scaled_colour_outside():
    rng = np.random.default_rng(1)
    image = rng.integers(0, 256, (128, 96, 3), dtype=np.uint8)
    colour = (200, 100, 0)
    empty = composite(image, np.zeros((128, 96), bool), colour)
    assert empty.dtype == np.float32 and empty.shape == (64, 64, 3)
    np.testing.assert_allclose(empty, np.broadcast_to(BACKGROUND_SCALE * np.array(colour) / 255, (64, 64, 3)),
                               atol=1e-6)
    full = composite(image, np.ones((128, 96), bool), colour)
    np.testing.assert_allclose(full, resize(image / 255, (64, 64), anti_aliasing=True), atol=1e-6)
    assert 0 <= full.min() and full.max() <= 1
    half = np.zeros((128, 96), bool)
    half[:, :48] = True
    blended = composite(image, half, colour)
    assert 0 <= blended.min() and blended.max() <= 1
    np.testing.assert_allclose(blended[:, -8:], empty[:, -8:], atol=1e-6)
    np.testing.assert_allclose(blended[:, :8], full[:, :8], atol=1e-6)
    grey = image[:, :, 0]
    tiled = composite(grey, half, colour, size=32)
    assert tiled.shape == (32, 32, 3)
    np.testing.assert_array_equal(tiled, composite(np.repeat(grey[:, :, None], 3, axis=2), half, colour, size=32))


def test_paint_background_blends_by_the_mask():
    photos, masks = np.ones((2, 4, 4, 3), np.float32), np.full((2, 4, 4), 0.5, np.float32)
    painted = paint_background(photos, masks, np.array([(255, 0, 0), (0, 0, 0)]))
    np.testing.assert_allclose(painted[0, 0, 0], [0.5 + 0.5 * 0.75, 0.5, 0.5])
    np.testing.assert_allclose(painted[1, 0, 0], [0.5, 0.5, 0.5])


def test_the_registry_opens_the_objects_with_their_masks(folder):
    data = open_dataset("coco2017_train", root=folder.parent)
    assert isinstance(data, CocoObjects) and len(data) == 5
    assert data.class_names == list(COLOREDCOCO_CLASSES) and data.class_targets == list(range(9))
    assert data.targets == [0, 0, 3, 3, 3]  # the boats (images 1, 3), then the dogs (1, 4, 5; 2's is too small)
    assert data.image(3).mode == "RGB" and data.image(3).size == (200, 90)  # the greyscale image read as RGB
    assert data.mask(0).shape == (120, 160) and data.mask(0).sum() == CROWD.sum()
    image, target = data[2]
    assert image.size == (160, 120) and target == 3 and data.logit_mask().all()
    s = spec("coco2017_train")
    assert (s.layout, s.n_images, s.n_classes, s.label_space, s.splits) == ("coco_instances", None, 9, "own", ())
    result = check_dataset(s, folder.parent)
    assert (result.status, result.images, result.classes) == ("present", 5, 9)


def test_a_missing_coco_folder_says_where_and_how(tmp_path):
    s = spec("coco2017_train")
    with pytest.raises(DatasetMissingError) as error:
        open_dataset("coco2017_train", root=tmp_path)
    for part in (str(tmp_path / "coco"), s.source, s.licence):
        assert part in str(error.value)
    (tmp_path / "coco").mkdir()
    result = check_dataset(s, tmp_path)
    assert result.status == "malformed" and "instances_train2017.json" in result.detail


def test_images_come_in_pycocotools_getimgids_order_not_sorted(tmp_path):
    (tmp_path / "annotations").mkdir()
    ids = [9, 1, 17, 3, 9]  # annotations in file order (image 9 twice)
    (tmp_path / "annotations" / "instances_train2017.json").write_text(json.dumps({
        "images": [{"id": i, "file_name": f"{i}.jpg", "height": 200, "width": 200} for i in set(ids)],
        "annotations": [{"id": n, "image_id": i, "category_id": 18, "segmentation": _rectangle(0, 0, 150, 150),
                         "area": 22500.0, "iscrowd": 0} for n, i in enumerate(ids)],
        "categories": CATEGORIES}))
    # pycocotools: getImgIds(catIds=[18]) = list(set(catToImgs[18])), catToImgs in file order; CPython's set
    # of these ints iterates as below (the maker's order, which is neither file nor id order)
    assert [o.image_id for o in coco_objects(tmp_path, ["dog"])] == [9, 3, 1, 17]
