"""A Portraits-like stand-in for the small tiers (Table 13, Fig. 15): eight "decades" of embedded face images
whose photographic style drifts step by step (numpy only, no torch, nothing downloaded).

The pool (`faces_pool`): scikit-image's bundled `lfw_subset`, 100 grey 25 x 25 faces from Labeled Faces in the
Wild and 100 non-faces cut from the same photographs' backgrounds, the only face images an installed package
ships (scikit-learn's face sets download at run time). The label is face (1) / non-face (0), not Portraits'
gender: two classes, as in Portraits. Every image and its mirror image enter together (`mirror`), and the
pool is split 70 / 30 into training and test images by source image, stratified by class, so no test image
has its mirror among the training images.

The sequence (`FacesSpec.build`): eight steps, one per Portraits decade (1930s .. 1990s, 2000-2013), with
Table 4's sizes times `scale` (`decade_sizes`). Every step draws its images independently from the pool with
the official per-class stratified sampler (`sampler.select_step`, the synthetic sequences' seeds), so steps
overlap, as the synthetic sequences' steps do and Portraits' decades (different people) do not. The final
step holds half of its decade as the test split and splits the other half 80 / 20, Portraits' 40 / 10 / 50.

The drift (`DecadeStyle`, `style_at`): an old photograph's look fading out over the decades: the age of step t
of T is a = (T - t) / T (1 at the first decade, 0 at the last); the images get a tone curve x -> x^(1 + .5 a)
(darker mid-tones), their contrast scaled by 1 - .5 a around mid-grey (faded), and a Gaussian blur of a px
(soft focus). The final step's images are the pool's. Each of the three moves monotonically in t.

What it can and cannot stand in for: it has Portraits' shape (eight steps of two classes, most data in the
history, a small final step split 40 / 10 / 50) and a gradual covariate drift P(X) with a fixed P(Y | X); it
has no real temporal change of faces (hair, clothes, demographics), no change in who is photographed, no
label shift, and its label is another task (face or not).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .portraits import PORTRAITS_POOL, PortraitsSpec, decade_counts
from .sampler import DEFAULT_SEED, ImagePool, _split_pool, select_step, step_seeds
from .sequence import INPUT_SCALINGS, ShiftSequence, Split

FACES_POOL = "lfw_faces"
FACES_CLASSES = ("non-face", "face")  # label = position; lfw_subset lists the 100 faces first
TEST_FRACTION = 0.3
# The drift at age 1 (the first decade): tone curve exponent 1 + TONE, contrast 1 - FADE, blur BLUR px.
TONE, FADE, BLUR = 0.5, 0.5, 1.0


@lru_cache(maxsize=4)
def _lfw_grey(size: int) -> tuple[np.ndarray, np.ndarray]:
    """lfw_subset as uint8 grey (200, size, size) (PIL bilinear resize) and its labels (face = 1), read-only
    (read once per process and size)."""
    from PIL import Image
    from skimage.data import lfw_subset

    images = np.rint(lfw_subset() * 255).astype(np.uint8)
    resized = np.stack([np.asarray(Image.fromarray(image).resize((size, size), Image.BILINEAR)) for image in images])
    labels = np.r_[np.ones(len(images) // 2), np.zeros(len(images) - len(images) // 2)].astype(np.int64)
    for array in (resized, labels):
        array.flags.writeable = False
    return resized, labels


def mirror(images: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The images followed by their left-right mirror images, with the labels twice."""
    return np.concatenate([images, images[:, :, ::-1]]), np.concatenate([labels, labels])


def faces_pool(size: int = 16, test_fraction: float = TEST_FRACTION, seed: int = 0) -> ImagePool:
    """The stand-in's pool: lfw_subset's faces and non-faces at `size` px as grey RGB uint8 (N, size, size, 3),
    split into training and test images by source image (stratified), then each part with its mirror images."""
    grey, labels = _lfw_grey(size)
    train_images, train_labels, test_images, test_labels = _split_pool(grey, labels, test_fraction, seed)
    parts = [mirror(images, part_labels) for images, part_labels in
             ((train_images, train_labels), (test_images, test_labels))]
    (train_images, train_labels), (test_images, test_labels) = parts
    rgb = [np.repeat(images[..., None], 3, axis=3) for images in (train_images, test_images)]
    return ImagePool(rgb[0], train_labels, rgb[1], test_labels, num_classes=len(FACES_CLASSES), name=FACES_POOL)


@dataclass(frozen=True)
class DecadeStyle:
    """One step's photographic style: tone curve exponent (1: none), contrast factor around mid-grey (1: none)
    and Gaussian blur sigma in px (0: none)."""

    tone: float
    contrast: float
    blur: float

    def apply(self, images: np.ndarray) -> np.ndarray:
        """uint8 (N, H, W, 3) images in this style (tone, then contrast, then blur), uint8 again."""
        from scipy.ndimage import gaussian_filter

        x = (images.astype(np.float64) / 255.0) ** self.tone
        x = 0.5 + (x - 0.5) * self.contrast
        if self.blur > 0:
            x = gaussian_filter(x, sigma=(0, self.blur, self.blur, 0))
        return np.rint(np.clip(x, 0.0, 1.0) * 255).astype(np.uint8)


def style_at(step: int, final_step: int) -> DecadeStyle:
    """The style of `step` of 0 .. `final_step`: age (final_step - step) / final_step of the old look."""
    age = (final_step - step) / final_step
    return DecadeStyle(tone=1 + TONE * age, contrast=1 - FADE * age, blur=BLUR * age)


def decade_sizes(scale: float) -> tuple[tuple[int, ...], int]:
    """Train+validation size of every decade (Table 4's counts times `scale`, rounded) and the final decade's
    test size (half of it, as Portraits' 50 %)."""
    counts = [int(round(count * scale)) for count in decade_counts()]
    test = counts[-1] // 2
    return (*counts[:-1], counts[-1] - test), test


@dataclass(frozen=True)
class FacesSpec:
    """The stand-in sequence: its pool, one "decade" entry per step after the first, every step's
    train+validation size, the final test size, the image side and the data seed (the fields the study's run
    configurations name, as `sequence.SequenceSpec`'s)."""

    sizes: tuple[int, ...]
    test_size: int
    image_size: int = 16
    seed: int = DEFAULT_SEED
    pool: str = FACES_POOL
    subpopulation_reading: str = "code"
    input_scaling: str = "raw"  # `sequence.INPUT_SCALINGS`

    @property
    def entries(self) -> tuple[str, ...]:
        return ("decade",) * (len(self.sizes) - 1)

    @classmethod
    def scaled(cls, scale: float, image_size: int, seed: int = DEFAULT_SEED, input_scaling: str = "raw") -> FacesSpec:
        """Portraits' decades at `scale` of Table 4's sizes."""
        sizes, test = decade_sizes(scale)
        return cls(sizes, test, image_size, seed, input_scaling=input_scaling)

    def open(self) -> None:
        """Read the pool (embedded: nothing can be missing; a pool too small for the sizes fails when drawn)."""
        faces_pool(self.image_size)

    def build(self) -> ShiftSequence:
        """Draw the eight steps (the official sampler's seeds and per-class draws) and give each its style."""
        pool = faces_pool(self.image_size)
        final = len(self.sizes) - 1
        steps = []
        for index, (size, seed) in enumerate(zip(self.sizes, [self.seed, *step_seeds(self.seed, final)])):
            test = self.test_size if index == final else 0
            chosen = select_step(pool, size + test, test, np.random.RandomState(seed))
            style = style_at(index, final)
            steps.append({split: Split(style.apply((pool.test_images if split == "test" else pool.train_images)[idx]),
                                       labels, idx)
                          for split, (idx, labels) in chosen.items()})
        return ShiftSequence(self, tuple(steps), pool.num_classes)


# ------------------------------------------------------------------------------------- settings

PORTRAITS_SEQUENCE = "portraits"  # the sequence name of Table 13 / Fig. 15 in the study and analysis settings
DECADE_POOLS = (FACES_POOL, PORTRAITS_POOL)
# A settings file's `portraits` block (the study's adds more).
DECADE_KEYS = ("pool", "scale", "image_size", "input_scaling")


def check_decades(block: dict, protocol: dict, keys: tuple[str, ...] = DECADE_KEYS) -> None:
    """A settings file's `portraits` block: exactly `keys`, a known pool, the real decades unscaled, and a known
    input scaling; App. A.2's augmentation (`protocol`) works on 0-255 images, so only with "raw" inputs."""
    if not isinstance(block, dict) or set(block) != set(keys):
        got = sorted(block) if isinstance(block, dict) else block
        raise ValueError(f"portraits must hold exactly the keys {list(keys)}, got {got}")
    if block["pool"] not in DECADE_POOLS:
        raise ValueError(f"portraits pool must be one of {list(DECADE_POOLS)}, got {block['pool']!r}")
    if block["pool"] == PORTRAITS_POOL and (block["scale"] != 1 or block["image_size"] != 32):
        raise ValueError("the real Portraits decades run at scale 1 and 32 px (the code's Resize((32, 32)))")
    if block["input_scaling"] not in INPUT_SCALINGS:
        raise ValueError(f"portraits input_scaling must be one of {list(INPUT_SCALINGS)}, "
                         f"got {block['input_scaling']!r}")
    if protocol.get("augmentation", "none") != "none" and block["input_scaling"] != "raw":
        raise ValueError("protocol augmentation 'paper' augments 0-255 images: set portraits input_scaling to 'raw'")


def decade_spec(block: dict, seed: int) -> FacesSpec | PortraitsSpec:
    """The sequence a `portraits` block names: the stand-in at its scale and size, or the real decades."""
    if block["pool"] == PORTRAITS_POOL:
        return PortraitsSpec(int(block["image_size"]), seed, input_scaling=block["input_scaling"])
    return FacesSpec.scaled(float(block["scale"]), int(block["image_size"]), seed, block["input_scaling"])
