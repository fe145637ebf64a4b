"""The shift building blocks of Seq-to-Final, as the official code does them (numpy only, no torch).

Layout as in `lib.perturb`: an image is an 8-bit RGB array, `np.uint8` of shape (H, W, 3); a batch is
(N, H, W, 3). The image blocks also take `lib.perturb`'s signature `f(image, severity, rng)`, where the
severity is the number of cumulative applications (0 leaves the image unchanged). Every block of the
official code keeps integer pixel values on 0..255 (integer noise, nearest-neighbour rotation, integer
tints, clipping), so uint8 arithmetic is exact. (`lib.perturb` itself is not imported: it imports torch
at module level, and `lib.seq_to_final` stays torch-free; its `rotate` is bilinear, the official code's
is nearest.)

Blocks (official `data_loaders/load_image_data_with_shifts.py`):
- corruption C: one draw of discrete uniform noise `randint(-3, 3)` = {-3, ..., +2} per pixel and channel,
  drawn in the code's channel-first order (N, 3, H, W), added and clipped to 0..255; each corruption
  entry of a sequence adds one more independent draw (`discrete_noise`, `corruption`);
- rotation R: +30 degrees (counter-clockwise) per rotation step so far, applied once by the total angle
  to the original image, torchvision's `rotate` (nearest, no resize, corners filled 0 = black), which
  `rotate_image` reproduces in numpy (`backend="torchvision"` calls torchvision itself);
- red tint T: +30 per tint step so far on the red channel, clipped at 255 (`red_tint`);
- label flip L: alternating Y -> K-1-Y (kind 1) and Y -> (Y+2) mod K (kind 2), so labels never revert
  (`flip_labels`);
- conditional rotation r: by the ORIGINAL label's parity, even classes +30, odd classes -30 degrees per
  step (`conditional_rotation`), applied before any label flip;
- sub-population s: CIFAR-100's 20 super-classes as labels, each with 5 fine classes in the fixed order
  `SUBPOPULATION_ORDER`; fine-class proportions `SUBPOPULATION_PROPORTIONS` per sub-population step
  (`subpopulation_counts`: how the code turns them into counts differs from the text, see its `reading`).
Inside one step the code applies: noise draws -> (conditional) rotation -> (conditional) recolouring ->
label flips (`apply_step`); `accumulate_shifts` turns a sequence such as CLR into each step's
cumulative shift.

Where the paper and the code disagree, a named option (default = the code):
- `augment(..., reading)`: the code trains on raw images ("none"); App. A.2 says random horizontal flips,
  crops and rotations up to 10 degrees ("paper"; crop padding 2 with edge mode as the code's unused
  transform has it);
- `repeated_corruption(..., draw)`: the sequences add an independent draw per step ("independent");
  the script behind Fig. 2 adds the same draw again and again ("same");
- `subpopulation_counts(..., reading)`: the code's loop gives every fine class after the last non-zero
  one the remainder too, so all five fine classes are present at steps 0-2 ("code"); the text's
  proportions are "paper";
- `flip_labels(..., second_flip)`: Sec. 2.1 and the code make the second flip Y -> (Y+2) mod K
  ("plus_two"); App. A's example (truck -> horse) is Y -> (Y-2) mod K ("minus_two");
- `conditional_rotation(..., even_direction)`: the code turns even classes counter-clockwise; the text
  only says "clockwise for some labels and counterclockwise for others".
The variable-length sequences' reading (Table 14 / Fig. 14) lives in `lib.seq_to_final.sampler`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Union

import numpy as np

Rng = Union[np.random.Generator, np.random.RandomState]

NOISE_LOW, NOISE_HIGH = -3, 3  # numpy's exclusive upper bound: the noise is one of {-3, ..., +2}
ROTATION_DEGREES = 30.0  # per rotation step, counter-clockwise
TINT = 30  # added to the red channel per tint step
FLIP_KINDS = (1, 2)  # 1: K-1-Y, 2: (Y+2) mod K

SUPERCLASS_NAMES: tuple[str, ...] = (
    "aquatic mammals", "fish", "flowers", "food containers", "fruit and vegetables",
    "household electrical devices", "household furniture", "insects", "large carnivores",
    "large man-made outdoor things", "large natural outdoor scenes", "large omnivores and herbivores",
    "medium-sized mammals", "non-insect invertebrates", "people", "reptiles", "small mammals", "trees",
    "vehicles 1", "vehicles 2",
)
# The official `select_cifar100_samples` list: per super-class (official coarse index), the 5 fine classes in
# the order they enter; the first two are present at step 0.
SUBPOPULATION_ORDER: tuple[tuple[str, ...], ...] = (
    ("otter", "seal", "beaver", "dolphin", "whale"),
    ("flatfish", "trout", "aquarium fish", "ray", "shark"),
    ("poppy", "tulip", "rose", "orchid", "sunflower"),
    ("bottle", "cup", "can", "bowl", "plate"),
    ("apple", "pear", "orange", "sweet pepper", "mushroom"),
    ("clock", "lamp", "telephone", "television", "keyboard"),
    ("chair", "couch", "bed", "table", "wardrobe"),
    ("beetle", "cockroach", "bee", "butterfly", "caterpillar"),
    ("leopard", "tiger", "lion", "bear", "wolf"),
    ("road", "bridge", "house", "castle", "skyscraper"),
    ("plain", "forest", "mountain", "cloud", "sea"),
    ("camel", "cattle", "chimpanzee", "kangaroo", "elephant"),
    ("skunk", "possum", "raccoon", "porcupine", "fox"),
    ("crab", "lobster", "spider", "snail", "worm"),
    ("man", "woman", "boy", "girl", "baby"),
    ("lizard", "snake", "turtle", "crocodile", "dinosaur"),
    ("mouse", "shrew", "hamster", "rabbit", "squirrel"),
    ("oak", "pine", "maple", "willow", "palm"),
    ("bicycle", "motorcycle", "pickup truck", "bus", "train"),
    ("streetcar", "tractor", "tank", "lawn mower", "rocket"),
)
# CIFAR-100's fine label index is the position in the alphabetical list (the code's `cifar100_labels.json`).
CIFAR100_FINE_NAMES: tuple[str, ...] = tuple(sorted(name for names in SUBPOPULATION_ORDER for name in names))
# Fine-class proportions within every super-class: step 0, then after 1, 2 and 3 sub-population steps.
SUBPOPULATION_PROPORTIONS: tuple[tuple[float, ...], ...] = (
    (0.5, 0.5, 0.0, 0.0, 0.0),
    (1 / 3, 1 / 3, 1 / 3, 0.0, 0.0),
    (0.0, 1 / 3, 1 / 3, 1 / 3, 0.0),
    (0.0, 0.0, 1 / 3, 1 / 3, 1 / 3),
)


# ---------------------------------------------------------------------------------------------- helpers

def check_image(image: np.ndarray, batch: bool = False) -> None:
    """Raise ValueError unless `image` is uint8 (H, W, 3), or (N, H, W, 3) when `batch`."""
    ndim = 4 if batch else 3
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != ndim or image.shape[-1] != 3:
        layout = "(N, H, W, 3)" if batch else "(H, W, 3)"
        raise ValueError(f"expected uint8 images {layout}; got {type(image).__name__} "
                         f"{getattr(image, 'dtype', '')} {getattr(image, 'shape', None)}")


def _steps(severity: float) -> int:
    """A block's severity is a whole number of applications."""
    if severity < 0 or float(severity) != int(severity):
        raise ValueError(f"severity counts applications (0, 1, 2, ...); got {severity}")
    return int(severity)


def _integers(rng: Rng, low: int, high: int, size: tuple[int, ...]) -> np.ndarray:
    """Integers in [low, high) from either generator kind; a RandomState draws exactly as `np.random.randint`."""
    if isinstance(rng, np.random.RandomState):
        return rng.randint(low, high, size=size)
    return rng.integers(low, high, size=size)


def _as_batch(images: np.ndarray) -> tuple[np.ndarray, bool]:
    if images.ndim == 3:
        check_image(images)
        return images[None], True
    check_image(images, batch=True)
    return images, False


# ---------------------------------------------------------------------------------------- corruption C

def discrete_noise(images: np.ndarray, rng: Rng) -> np.ndarray:
    """One corruption: add noise {-3, ..., +2} per pixel and channel, clip to 0..255. The draw has the code's
    channel-first shape (N, 3, H, W) (or (3, H, W) for one image), so a RandomState seeded as the code's
    `np.random` gives the same noise."""
    batch, single = _as_batch(images)
    noise = _integers(rng, NOISE_LOW, NOISE_HIGH, (batch.shape[0], 3, *batch.shape[1:3])).transpose(0, 2, 3, 1)
    out = np.clip(batch.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    return out[0] if single else out


def corruption(image: np.ndarray, severity: float, rng: Rng) -> np.ndarray:
    """`severity` corruption steps: that many independent noise draws, each clipped (as a sequence does)."""
    for _ in range(_steps(severity)):
        image = discrete_noise(image, rng)
    return image


def repeated_corruption(image: np.ndarray, times: int, rng: Rng,
                        draw: Literal["independent", "same"] = "independent") -> list[np.ndarray]:
    """The image after 0, 1, ..., `times` corruptions. `draw="independent"`: a new draw each time (the
    sequences); `"same"`: one draw added again each time, clipping after each (the Fig. 2 script)."""
    check_image(image)
    out = [image]
    if draw == "independent":
        for _ in range(times):
            out.append(discrete_noise(out[-1], rng))
    elif draw == "same":
        noise = _integers(rng, NOISE_LOW, NOISE_HIGH, (3, *image.shape[:2])).transpose(1, 2, 0)
        for _ in range(times):
            out.append(np.clip(out[-1].astype(np.int16) + noise, 0, 255).astype(np.uint8))
    else:
        raise ValueError(f"draw must be 'independent' or 'same', got {draw!r}")
    return out


# ------------------------------------------------------------------------------------------ rotation R

def _rotation_grid(height: int, width: int, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """Source pixel (row, column) of every output pixel for torchvision's tensor `rotate(img, degrees)`
    (centre of the image, no resize; float32 as torchvision computes it, then grid_sample's nearest rule:
    align_corners=False and round half to even). Out-of-range sources are returned as is (caller fills 0)."""
    rot = math.radians(-degrees)  # torchvision passes -angle to its inverse affine matrix
    matrix = [math.cos(rot), math.sin(rot), 0.0, -math.sin(rot), math.cos(rot), 0.0]
    theta = np.asarray(matrix, dtype=np.float32).reshape(2, 3)
    scale = np.asarray([0.5 * width, 0.5 * height], dtype=np.float32)
    rescaled = (theta.T / scale).astype(np.float32)  # (3, 2)
    xs = np.linspace(-width * 0.5 + 0.5, width * 0.5 + 0.5 - 1, width, dtype=np.float32)
    ys = np.linspace(-height * 0.5 + 0.5, height * 0.5 + 0.5 - 1, height, dtype=np.float32)
    x, y = np.meshgrid(xs, ys)
    gx = x * rescaled[0, 0] + y * rescaled[1, 0] + rescaled[2, 0]
    gy = x * rescaled[0, 1] + y * rescaled[1, 1] + rescaled[2, 1]
    one, two = np.float32(1), np.float32(2)
    ix = ((gx + one) * np.float32(width) - one) / two
    iy = ((gy + one) * np.float32(height) - one) / two
    return np.rint(iy).astype(np.int64), np.rint(ix).astype(np.int64)


def rotate_image(images: np.ndarray, degrees: float,
                 backend: Literal["numpy", "torchvision"] = "numpy") -> np.ndarray:
    """Rotate (H, W, 3) or (N, H, W, 3) uint8 images by `degrees` counter-clockwise about the centre, as the
    official `apply_rotation` (torchvision `rotate`: nearest, same size, corners filled with 0 = black).
    `backend="numpy"` reproduces it without torch; `"torchvision"` calls it."""
    batch, single = _as_batch(images)
    if degrees == 0:
        out = batch.copy()
    elif backend == "torchvision":
        import torch  # noqa: PLC0415 - only for the reference backend
        from torchvision.transforms import functional as TF  # noqa: PLC0415

        tensor = torch.from_numpy(batch.astype(np.float32)).permute(0, 3, 1, 2)
        rotated = torch.stack([TF.rotate(image, float(degrees)) for image in tensor])
        out = rotated.permute(0, 2, 3, 1).numpy().astype(np.uint8)
    elif backend == "numpy":
        height, width = batch.shape[1:3]
        rows, cols = _rotation_grid(height, width, float(degrees))
        inside = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
        out = np.zeros_like(batch)
        out[:, inside] = batch[:, rows[inside], cols[inside]]
    else:
        raise ValueError(f"backend must be 'numpy' or 'torchvision', got {backend!r}")
    return out[0] if single else out


def rotation(image: np.ndarray, severity: float, rng: Rng | None = None) -> np.ndarray:
    """`severity` rotation steps: one rotation of the original image by 30 x severity degrees counter-clockwise."""
    return rotate_image(image, ROTATION_DEGREES * _steps(severity))


# ------------------------------------------------------------------------------------------ red tint T

def tint(images: np.ndarray, rgb: Sequence[int]) -> np.ndarray:
    """Add `rgb` (three integers on the 0-255 scale) to the channels and clip to 0..255 (`apply_recoloring`)."""
    batch, single = _as_batch(images)
    out = np.clip(batch.astype(np.int16) + np.asarray(rgb, dtype=np.int16), 0, 255).astype(np.uint8)
    return out[0] if single else out


def red_tint(image: np.ndarray, severity: float, rng: Rng | None = None) -> np.ndarray:
    """`severity` tint steps: +30 x severity on the red channel, clipped at 255; green and blue unchanged."""
    return tint(image, (TINT * _steps(severity), 0, 0))


# ----------------------------------------------------------------------------------------- label flip L

def flip_schedule(n_flips: int) -> tuple[int, ...]:
    """The kinds of the first `n_flips` flips of a sequence: 1, 2, 1, 2, ... (the code alternates)."""
    return tuple(1 if index % 2 == 0 else 2 for index in range(n_flips))


def flip_labels_once(labels: np.ndarray, kind: int, num_classes: int,
                     second_flip: Literal["plus_two", "minus_two"] = "plus_two") -> np.ndarray:
    """Kind 1: Y -> K-1-Y; kind 2: Y -> (Y+2) mod K (the code and Sec. 2.1: K-1 -> 1, K-2 -> 0, else Y+2).
    `second_flip="minus_two"`: kind 2 is Y -> (Y-2) mod K, the reading of App. A's example ("labelled truck
    in the previous step would now be labelled horse"), which contradicts Sec. 2.1 and the code."""
    labels = np.asarray(labels)
    if kind == 1:
        return num_classes - 1 - labels
    if kind == 2:
        if second_flip == "minus_two":
            return (labels - 2) % num_classes
        if second_flip != "plus_two":
            raise ValueError(f"second_flip must be 'plus_two' or 'minus_two', got {second_flip!r}")
        return np.where(labels == num_classes - 1, 1, np.where(labels == num_classes - 2, 0, labels + 2))
    raise ValueError(f"flip kind must be 1 or 2, got {kind}")


def flip_labels(labels: np.ndarray, n_flips: int, num_classes: int,
                second_flip: Literal["plus_two", "minus_two"] = "plus_two") -> np.ndarray:
    """The labels after the first `n_flips` flips of a sequence, applied in order to the original labels."""
    for kind in flip_schedule(n_flips):
        labels = flip_labels_once(labels, kind, num_classes, second_flip)
    return np.asarray(labels)


# ------------------------------------------------------------------------------ conditional rotation r

def conditional_rotation_angles(num_classes: int, n_steps: int,
                                even_direction: Literal["counterclockwise", "clockwise"] = "counterclockwise",
                                ) -> np.ndarray:
    """Degrees per (original) class after `n_steps` conditional rotations: even classes +30 n, odd -30 n
    (the code); `even_direction="clockwise"` swaps the signs."""
    sign = {"counterclockwise": 1.0, "clockwise": -1.0}[even_direction]
    parity = np.where(np.arange(num_classes) % 2 == 0, 1.0, -1.0)
    return sign * parity * ROTATION_DEGREES * n_steps


def rotate_by_class(images: np.ndarray, labels: np.ndarray, degrees_per_class: Sequence[float]) -> np.ndarray:
    """Rotate each image by its class's angle (`apply_conditional_rotation`); classes with 0 stay as they are."""
    check_image(images, batch=True)
    labels = np.asarray(labels)
    out = images.copy()
    for label, degrees in enumerate(degrees_per_class):
        chosen = labels == label
        if degrees != 0 and chosen.any():
            out[chosen] = rotate_image(images[chosen], float(degrees))
    return out


def conditional_rotation(images: np.ndarray, original_labels: np.ndarray, n_steps: int, num_classes: int,
                         even_direction: Literal["counterclockwise", "clockwise"] = "counterclockwise",
                         ) -> np.ndarray:
    """`n_steps` conditional rotations chosen by the ORIGINAL (pre-flip) label's parity."""
    return rotate_by_class(images, original_labels, conditional_rotation_angles(num_classes, n_steps, even_direction))


# ------------------------------------------------------------------------------------- sub-population s

def subpopulation_proportions(n_subpop_steps: int) -> tuple[float, ...]:
    """Fine-class proportions within each super-class after `n_subpop_steps` sub-population shifts (0..3)."""
    if not 0 <= n_subpop_steps < len(SUBPOPULATION_PROPORTIONS):
        raise ValueError(f"the code allows 0 to 3 sub-population steps, got {n_subpop_steps}")
    return SUBPOPULATION_PROPORTIONS[n_subpop_steps]


def subpopulation_counts(class_size: int, proportions: Sequence[float],
                         reading: Literal["code", "paper"] = "code") -> list[int]:
    """Samples per fine class of one super-class (`select_cifar100_samples`): int(class_size x p) for each,
    except where no non-zero proportion follows (or at the last), where the code takes the remainder.

    `reading="code"`: exactly the official loop, whose running total is only increased outside the remainder
    branch, so EVERY fine class from the last non-zero one on gets the same remainder: at step 0
    (.5, .5, 0, 0, 0) and n = 300 all five fine classes get 150 (750 images, not 300), and the fine classes
    that the paper says enter later are present from step 0 on. `reading="paper"`: the stated proportions
    (the remainder once, to the last non-zero fine class; zero proportions give 0)."""
    if reading not in ("code", "paper"):
        raise ValueError(f"reading must be 'code' or 'paper', got {reading!r}")
    if reading == "paper":
        last = max(index for index, p in enumerate(proportions) if p > 0)
        counts = [int(class_size * p) if index != last else 0 for index, p in enumerate(proportions)]
        counts[last] = class_size - sum(counts)
        return counts
    counts, so_far = [], 0
    for index in range(len(proportions)):
        if index == len(proportions) - 1 or sum(proportions[index + 1:]) == 0:
            counts.append(class_size - so_far)  # the running total is not increased here (the code)
        else:
            counts.append(int(class_size * proportions[index]))
            so_far += counts[-1]
    return counts


def entry_step(position: int) -> int:
    """The step at which the fine class at `position` (0..4) of a super-class first appears: 0, 0, 1, 2, 3."""
    return max(0, position - 1)


def subpopulation_table() -> list[dict]:
    """One row per super-class x fine class: names, CIFAR-100 fine index, position, entry step, and the
    proportion at steps 0-3 (the data of Figs 3-4)."""
    rows = []
    for superclass, names in enumerate(SUBPOPULATION_ORDER):
        for position, name in enumerate(names):
            row = {"superclass": superclass, "superclass_name": SUPERCLASS_NAMES[superclass], "fine_class": name,
                   "fine_index": CIFAR100_FINE_NAMES.index(name), "position": position, "entry_step": entry_step(position)}
            for step, proportions in enumerate(SUBPOPULATION_PROPORTIONS):
                row[f"proportion_step{step}"] = proportions[position]
            rows.append(row)
    return rows


# --------------------------------------------------------------------------------- augmentation option

def augment(image: np.ndarray, rng: Rng, reading: Literal["none", "paper"] = "none") -> np.ndarray:
    """Training-time augmentation. `"none"`: the code (its transforms are attached but bypassed).
    `"paper"`: App. A.2: horizontal flip with p .5, random 32-crop of the image padded by 2 (edge mode),
    random rotation uniform in [-10, 10] degrees (nearest, black corners)."""
    check_image(image)
    if reading == "none":
        return image
    if reading != "paper":
        raise ValueError(f"reading must be 'none' or 'paper', got {reading!r}")
    uniform = rng.random_sample if isinstance(rng, np.random.RandomState) else rng.random
    if uniform() < 0.5:
        image = image[:, ::-1]
    height, width = image.shape[:2]
    padded = np.pad(image, ((2, 2), (2, 2), (0, 0)), mode="edge")
    top, left = _integers(rng, 0, 5, (2,))
    image = padded[top:top + height, left:left + width]
    return rotate_image(np.ascontiguousarray(image), float(-10 + 20 * uniform()))


# ------------------------------------------------------------------------------------ composing steps

@dataclass(frozen=True)
class StepShift:
    """Everything applied to one step's images and labels (cumulative over the sequence so far)."""

    num_classes: int
    n_noise: int = 0
    rotation_degrees: tuple[float, ...] = ()  # per original class; empty = none
    recolouring: tuple[tuple[int, int, int], ...] = ()  # per original class RGB; empty = none
    flips: tuple[int, ...] = ()
    subpopulations: tuple[float, ...] = SUBPOPULATION_PROPORTIONS[0]
    label_probs: tuple[float, ...] = field(default=())  # empty = uniform
    entries: tuple[str, ...] = ()  # the sequence entries that led here
    second_flip: str = "plus_two"  # see `flip_labels_once`

    def class_probabilities(self) -> np.ndarray:
        return np.asarray(self.label_probs) if self.label_probs else np.ones(self.num_classes) / self.num_classes


SHIFT_NAMES = ("corruption", "rotation", "rotation_cond", "label_flip", "recolor", "recolor_cond", "subpop",
               "label_shift")


def accumulate_shifts(entries: Sequence[str], num_classes: int, second_flip: str = "plus_two") -> list[StepShift]:
    """Each step's cumulative shift for a sequence of entries (step 0 = the source, unshifted), as the code's
    `load_datasets_over_time`: an entry is one shift name or a comma-separated combination of them."""
    rotation = np.zeros(num_classes)
    recolouring = np.zeros((num_classes, 3), dtype=int)
    probs = np.ones(num_classes) / num_classes
    subpops, n_noise, flips = SUBPOPULATION_PROPORTIONS[0], 0, []
    steps = [StepShift(num_classes, second_flip=second_flip)]
    for position, entry in enumerate(entries):
        names = {name.strip() for name in entry.split(",")}
        unknown = names - set(SHIFT_NAMES)
        if unknown:
            raise ValueError(f"unknown shift {sorted(unknown)} in {entry!r}; known: {SHIFT_NAMES}")
        if "corruption" in names:
            n_noise += 1
        if "rotation_cond" in names:
            rotation = rotation + conditional_rotation_angles(num_classes, 1)
        elif "rotation" in names:
            rotation = rotation + ROTATION_DEGREES
        if "label_flip" in names:
            flips.append(1 if not flips or flips[-1] == 2 else 2)
        if "label_shift" in names:
            probs = probs + np.where(np.arange(num_classes) % 2 == 0, -0.3, 0.3) / num_classes
        if "recolor_cond" in names:
            recolouring = recolouring.copy()
            recolouring[np.arange(num_classes), np.arange(num_classes) % 3] += TINT
        elif "recolor" in names:
            recolouring = recolouring + np.array([TINT, 0, 0])
        if "subpop" in names:
            if subpops[-1] != 0:
                raise ValueError("no more sub-population shifts possible after three")
            subpops = SUBPOPULATION_PROPORTIONS[SUBPOPULATION_PROPORTIONS.index(subpops) + 1]
        steps.append(StepShift(
            num_classes, n_noise,
            tuple(float(a) for a in rotation) if np.any(rotation) else (),
            tuple(tuple(int(v) for v in row) for row in recolouring) if np.any(recolouring) else (),
            tuple(flips), subpops,
            tuple(float(p) for p in probs) if not np.allclose(probs, 1 / num_classes) else (),
            tuple(entries[:position + 1]), second_flip))
    return steps


def apply_step(splits: Mapping[str, tuple[np.ndarray, np.ndarray]], shift: StepShift, rng: Rng,
               ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Apply one step's shift to its splits (name -> (images (N, H, W, 3) uint8, original labels)), in the
    code's order: for each noise draw, the splits in order (train, valid, test); then the rotation and
    recolouring chosen by the original labels; then the label flips."""
    out = {name: (images, np.asarray(labels)) for name, (images, labels) in splits.items()}
    for _ in range(shift.n_noise):
        for name, (images, labels) in out.items():
            out[name] = (discrete_noise(images, rng) if len(images) else images, labels)
    for name, (images, labels) in out.items():
        if shift.rotation_degrees and len(images):
            images = rotate_by_class(images, labels, shift.rotation_degrees)
        if shift.recolouring and len(images):
            images = images.copy()
            for label, rgb in enumerate(shift.recolouring):
                chosen = labels == label
                if any(rgb) and chosen.any():
                    images[chosen] = tint(images[chosen], rgb)
        out[name] = (images, flip_labels(labels, len(shift.flips), shift.num_classes, shift.second_flip))
    return out

