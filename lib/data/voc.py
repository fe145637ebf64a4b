"""Pascal VOC 2012 as single-label classification, the label read from each image's segmentation mask.

ssl_protocols classifies the images of the VOC 2012 segmentation subset. Its loader
(manuelknott/ssl_eval_protocols, datasets/pascal.py) labels an image with the class that covers
the most pixels of its mask, leaving out background (0) and the void border (255); a tie goes to
the lower class index. `dominant_class` implements that rule. One difference, recorded in
lib/registry/DATASETS.md: targets here are 0..19 (mask value minus one) over the 20 object
classes, where the paper's loader keeps the mask values 1..20 and a never-used background class 0.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np
from PIL import Image

from .folders import FolderImages
from .labelled import DatasetMissingError

VOC_CLASSES = (
    "aeroplane", "bicycle", "bird", "boat", "bottle", "bus", "car", "cat", "chair", "cow", "diningtable",
    "dog", "horse", "motorbike", "person", "pottedplant", "sheep", "sofa", "train", "tvmonitor",
)
BACKGROUND, VOID = 0, 255


def dominant_class(mask: np.ndarray) -> int | None:
    """The mask value (1..20) covering the most pixels, background and void left out; None if no object.

    Ties go to the lower value (numpy's argmax takes the first maximum, as the paper's
    `np.unique` + `argmax` does).
    """
    counts = np.bincount(np.asarray(mask, dtype=np.int64).ravel(), minlength=VOID + 1)
    counts[[BACKGROUND, VOID]] = 0
    if counts[len(VOC_CLASSES) + 1:].any():
        raise ValueError(f"mask values outside 0..{len(VOC_CLASSES)} and {VOID}: {np.flatnonzero(counts)[-3:]}")
    return int(counts.argmax()) if counts.any() else None


def voc_segmentation(root: Path, split: str, transform: Callable | None = None) -> FolderImages:
    """The images of `ImageSets/Segmentation/<split>.txt` under a VOC2012 folder, one label each."""
    listing = root / "ImageSets" / "Segmentation" / f"{split}.txt"
    if not listing.is_file():
        raise DatasetMissingError(f"VOC 2012 split list not found at {listing}")
    samples = []
    for image_id in listing.read_text().split():
        mask_path = root / "SegmentationClass" / f"{image_id}.png"
        image_path = root / "JPEGImages" / f"{image_id}.jpg"
        if not (mask_path.is_file() and image_path.is_file()):
            raise DatasetMissingError(f"VOC 2012 image {image_id} of {listing.name}: {image_path} or {mask_path} is missing")
        with Image.open(mask_path) as mask:
            if mask.mode not in ("P", "L"):
                raise ValueError(f"{mask_path} is a {mask.mode} image, not a class-index (palette) mask")
            label = dominant_class(np.asarray(mask))
        if label is None:
            raise ValueError(f"{mask_path} has no object pixels, so the image has no label")
        samples.append((image_path, label - 1))
    return FolderImages(samples, list(VOC_CLASSES), list(range(len(VOC_CLASSES))), "own", transform)
