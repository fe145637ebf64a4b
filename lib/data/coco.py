"""COCO 2017 objects for ColoredCOCO (counteranimal Table 7, App. D.3), as Ahmed et al. 2021's data maker picks
them (Faruk-Ahmed/predictive_group_invariance, coco/data/data_makers/coco_colours.py), and its compositing step.

Layout (the COCO download, unzipped under `<data root>/coco`):

    annotations/instances_train2017.json       the instance annotations (read with `json`; no pycocotools)
    train2017/<file_name>                      the images

The objects (`coco_objects`): per class, in the order asked for (the maker's nine: `COLOREDCOCO_CLASSES`), every
image holding an annotation of the class, each with its largest annotation of that class by COCO's `area` field
(crowd annotations included, as the maker's `getAnnIds(iscrowd=None)`; a tie to the first in the file), kept when
that area is at least `MIN_AREA`. An image holding two of the classes is kept once per class, as in the maker.
Images in the maker's order: pycocotools' `getImgIds(catIds=[c])`, that is `list(set(ids))` of the image ids of
the category's annotations in file order (CPython's iteration order of a set of ints: deterministic, not sorted).

Masks (`object_mask`): polygons rasterised with PIL, crowd annotations' uncompressed RLE decoded exactly.
Compositing (`composite`, or `resized_object` then `paint_background` for many colours per object): photo and
mask resized with scikit-image's anti-aliased `resize`, then background_scale x colour / 255 where the mask is 0,
the photo where it is 1, blended in between (the maker's `place * (1 - mask) + image * mask`, its background
0.75 x the colour; the maker resizes its constant background too, which leaves it unchanged).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from .folders import FolderImages
from .labelled import DatasetMissingError

COLOREDCOCO_CLASSES = ("boat", "airplane", "truck", "dog", "zebra", "horse", "bird", "train", "bus")
MIN_AREA = 10000  # the maker's smallest kept object, in COCO's `area` (pixels of the original image)
BACKGROUND_SCALE = 0.75  # the maker's background: 0.75 x the colour
DEFAULT_SPLIT = "train2017"


@dataclass(frozen=True)
class CocoObject:
    """One kept object: its image, label (index into the classes asked for) and annotation."""

    image_path: Path
    image_id: int
    label: int
    category: str
    height: int
    width: int
    segmentation: Any  # as stored: a list of polygons, or an RLE dict
    area: float
    iscrowd: int


def annotation_file(folder: Path, split: str = DEFAULT_SPLIT) -> Path:
    """Where a COCO folder's instance annotations of `split` are; DatasetMissingError, naming it, if absent."""
    path = Path(folder) / "annotations" / f"instances_{split}.json"
    if not path.is_file():
        raise DatasetMissingError(f"COCO annotation file not found: {path} (unzip the 2017 Train/Val annotations "
                                  f"into {folder})")
    return path


def coco_objects(folder: Path, classes: Sequence[str] = COLOREDCOCO_CLASSES, min_area: float = MIN_AREA,
                 split: str = DEFAULT_SPLIT) -> list[CocoObject]:
    """The objects of `classes` in `<folder>/annotations/instances_<split>.json`, images in `<folder>/<split>/`.

    Per class, in the order of `classes`: every image holding an annotation of the class, in the maker's order
    (pycocotools' `getImgIds`, see the module docstring), with its largest annotation of the class by `area`
    (crowd ones included; a tie goes to the first in the file), kept when that area is at least `min_area`.
    """
    folder = Path(folder)
    path = annotation_file(folder, split)
    content = json.loads(path.read_text())
    category_of = {category["name"]: category["id"] for category in content["categories"]}
    unknown = [name for name in classes if name not in category_of]
    if unknown:
        raise ValueError(f"COCO has no category {unknown}; its categories: {sorted(category_of)}")
    images = {image["id"]: image for image in content["images"]}
    wanted = {category_of[name] for name in classes}
    largest: dict[tuple[int, int], dict] = {}  # (category id, image id) -> its largest annotation
    in_file_order: dict[int, list[int]] = {}  # category id -> the image ids of its annotations (pycocotools' catToImgs)
    for annotation in content["annotations"]:
        key = (annotation["category_id"], annotation["image_id"])
        in_file_order.setdefault(key[0], []).append(key[1])
        if key[0] in wanted and (key not in largest or annotation["area"] > largest[key]["area"]):
            largest[key] = annotation
    objects = []
    for label, name in enumerate(classes):
        category = category_of[name]
        for image_id in list(set(in_file_order.get(category, []))):  # pycocotools' getImgIds(catIds=[category])
            annotation, image = largest[category, image_id], images[image_id]
            if annotation["area"] >= min_area:
                objects.append(CocoObject(folder / split / image["file_name"], image_id, label, name,
                                          image["height"], image["width"], annotation["segmentation"],
                                          float(annotation["area"]), int(annotation.get("iscrowd", 0))))
    return objects


def object_mask(obj: CocoObject) -> np.ndarray:
    """The object's mask (bool, height x width).

    Polygons (flat [x0, y0, x1, y1, ...] lists, several OR-ed) are filled with PIL's `ImageDraw.polygon`,
    outline included; that can differ from pycocotools' rasteriser on boundary pixels (a reading), invisible
    after the maker's 64-pixel resize. An uncompressed RLE (`counts` a list: runs of 0, 1, 0, ... starting with
    0, in column-major order, as crowd annotations are stored in instances_*.json) is decoded exactly. A
    compressed RLE (`counts` a string, which instances files do not hold) is a ValueError.
    """
    segmentation = obj.segmentation
    if isinstance(segmentation, list):
        canvas = Image.new("L", (obj.width, obj.height), 0)
        draw = ImageDraw.Draw(canvas)
        for polygon in segmentation:
            draw.polygon([(float(x), float(y)) for x, y in zip(polygon[::2], polygon[1::2])], fill=1, outline=1)
        return np.asarray(canvas, dtype=bool)
    counts = segmentation["counts"]
    if isinstance(counts, str):
        raise ValueError(f"COCO object of image {obj.image_id}: a compressed RLE; only polygons and uncompressed RLE "
                         "(what instances_*.json files hold) are read")
    height, width = segmentation["size"]
    values = np.repeat(np.arange(len(counts)) % 2, counts).astype(bool)  # runs of 0, 1, 0, ... from 0
    if len(values) != height * width:
        raise ValueError(f"COCO object of image {obj.image_id}: RLE counts sum to {len(values)}, not {height * width}")
    return values.reshape(width, height).T  # column-major (Fortran) order


def resized_object(image: np.ndarray, mask: np.ndarray, size: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """The photo (size x size x 3) and mask (size x size), float32 in [0, 1], each resized with scikit-image's
    anti-aliased `resize` from floats in [0, 1] (as the maker's uint8 inputs are read); a greyscale photo
    (H x W) is tiled to three channels."""
    from skimage.transform import resize

    photo = np.asarray(image)
    if photo.ndim == 2:
        photo = np.repeat(photo[:, :, None], 3, axis=2)
    resized = resize(photo / 255.0, (size, size), anti_aliasing=True)
    weights = resize(np.asarray(mask, dtype=np.float64), (size, size), anti_aliasing=True)
    return resized.astype(np.float32), weights.astype(np.float32)


def paint_background(photos: np.ndarray, masks: np.ndarray, colours: np.ndarray,
                     background_scale: float = BACKGROUND_SCALE) -> np.ndarray:
    """Resized photos (N, s, s, 3) in [0, 1] on backgrounds of `background_scale` x their RGB `colours` (N, 3;
    0-255) / 255, blended by their masks (N, s, s): float32 (N, s, s, 3) in [0, 1]."""
    background = background_scale * np.asarray(colours, dtype=np.float32)[:, None, None, :] / 255.0
    weights = masks[..., None]
    return (background * (1 - weights) + photos * weights).astype(np.float32)


def composite(image: np.ndarray, mask: np.ndarray, colour: Sequence[int], size: int = 64,
              background_scale: float = BACKGROUND_SCALE) -> np.ndarray:
    """One ColoredCOCO image: the photo (uint8 H x W x 3, or H x W greyscale) and its mask (bool H x W) resized to
    size x size, on a background of `background_scale` x `colour` (RGB, 0-255) / 255; float32 in [0, 1]."""
    photo, weights = resized_object(image, mask, size)
    return paint_background(photo[None], weights[None], np.asarray(colour)[None], background_scale)[0]


@dataclass
class CocoObjects(FolderImages):
    """The kept objects as labelled image files in their own label space (targets index `class_names`; `image(i)`
    is the object's whole photo), each with its mask (`mask(i)`); `objects` is aligned with `samples`."""

    objects: list[CocoObject] = field(default_factory=list)

    def mask(self, i: int) -> np.ndarray:
        return object_mask(self.objects[i])


def coco_instances(root: Path, split: str | None = None, transform: Callable | None = None) -> CocoObjects:
    """The ColoredCOCO objects (`COLOREDCOCO_CLASSES`, `MIN_AREA`) of a COCO folder: the registry's loader.
    `split` is the COCO split read (None: train2017, the maker's)."""
    objects = coco_objects(root, split=split or DEFAULT_SPLIT)
    return CocoObjects([(o.image_path, o.label) for o in objects], list(COLOREDCOCO_CLASSES),
                       list(range(len(COLOREDCOCO_CLASSES))), "own", transform, objects)
