"""A miniature CounterAnimal on embedded data: digits pasted on coloured, textured backgrounds.

The paper's dataset holds photos of animals on the background they are usually photographed on
(`common`) and on a rare one (`counter`), the pairs chosen where a CLIP's accuracy drops. Here the
"animals" are scikit-learn's digits (10 classes, named `DIGIT_CLASS_NAMES`) drawn in black ink at a
random place on a background. Each of the ten backgrounds (`BACKGROUNDS`, named after the paper's
background labels) is a colour over a grey texture crop of one of scikit-image's bundled photos.

- Class c's `common` background is `BACKGROUNDS[c]`; its `counter` background is
  `BACKGROUNDS[(c + counter_offset) % 10]`, the common background of another class.
- The "pre-training" data (`pretraining_set`) draw the common background with probability
  `spurious_correlation` (the class-background correlation, the named parameter of the toy) and
  otherwise one of the nine other backgrounds uniformly, so the counter background is rare with its
  class: (1 − spurious_correlation) / 9 of its images.
- The miniature CounterAnimal (`counteranimal_set`) renders every held-out digit on each of the ten
  backgrounds (fresh texture crop and position each time): on its common background it is in the `common`
  group, on its counter background in the `counter` group, so the two groups hold the same objects and
  differ in the background alone; on the eight others it is in no group (`OTHER`). All ten are the pool
  the paper's curation chose its groups from (`curation.py`: Fig. 5's analogue curates the pool with one
  CLIP instead of taking the designed groups).

Images are 8-bit RGB arrays (N, size, size, 3), as `lib.perturb` takes them; `as_tensors` gives the
float (N, 3, size, size) batches the models read. Everything is drawn from a seeded generator, so the
same (spec, seed) always gives the same arrays.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields

import numpy as np
import pandas as pd

from ..data.embedded import DIGIT_CLASS_NAMES, digits_arrays, skimage_photo
from ..data.subsets import split
from .metrics import GROUPS

OTHER = "other"  # the group of a held-out digit on a background that is neither its common nor its counter one

# name -> (RGB colour in [0, 1], scikit-image photo giving its grey texture); light colours, so black ink shows
BACKGROUNDS: dict[str, tuple[tuple[float, float, float], str]] = {
    "grass": ((0.45, 0.78, 0.35), "grass"),
    "water": ((0.40, 0.58, 0.95), "gravel"),
    "snow": ((0.95, 0.96, 1.00), "gravel"),
    "sand": ((0.95, 0.85, 0.55), "gravel"),
    "earth": ((0.72, 0.55, 0.40), "brick"),
    "sky": ((0.62, 0.86, 1.00), "grass"),
    "rock": ((0.68, 0.68, 0.70), "brick"),
    "shrub": ((0.70, 0.75, 0.35), "grass"),
    "indoor": ((0.92, 0.66, 0.82), "brick"),
    "human": ((1.00, 0.72, 0.55), "gravel"),
}
TEXTURE_STRENGTH = 0.3  # a background pixel is colour × (1 − strength + strength × texture)


@dataclass(frozen=True)
class MiniatureSpec:
    """The miniature's shape: image side, digit side, the class-background correlation of the
    pre-training data, which background is each class's counter one, and the held-out fraction."""

    image_size: int = 16
    object_size: int = 10
    spurious_correlation: float = 0.9
    counter_offset: int = 5
    test_fraction: float = 0.3

    def __post_init__(self) -> None:
        if not 0 < self.object_size <= self.image_size:
            raise ValueError(f"object_size must lie in (0, image_size={self.image_size}], got {self.object_size}")
        if not 0.0 <= self.spurious_correlation <= 1.0:
            raise ValueError(f"spurious_correlation must lie in [0, 1], got {self.spurious_correlation}")
        if self.counter_offset % len(BACKGROUNDS) == 0:
            raise ValueError(f"counter_offset must not be a multiple of {len(BACKGROUNDS)} (counter = common)")

    @classmethod
    def from_dict(cls, values: dict, source: str = "miniature") -> "MiniatureSpec":
        """A spec from a settings block; unknown keys are one error naming them."""
        unknown = sorted(set(values) - {f.name for f in fields(cls)})
        if unknown:
            raise ValueError(f"{source}: unknown miniature keys {unknown}; known: {[f.name for f in fields(cls)]}")
        return cls(**values)

    def common(self, target: int) -> int:
        """The index (in `BACKGROUNDS`) of class `target`'s common background."""
        return target % len(BACKGROUNDS)

    def counter(self, target: int) -> int:
        """The index of class `target`'s counter background."""
        return (target + self.counter_offset) % len(BACKGROUNDS)


@dataclass(frozen=True)
class RenderedImages:
    """Rendered digits: 8-bit RGB images, targets, and each image's background (a `BACKGROUNDS` name)."""

    images: np.ndarray
    targets: np.ndarray
    backgrounds: np.ndarray

    def __len__(self) -> int:
        return len(self.targets)


@dataclass(frozen=True)
class MiniCounterAnimal(RenderedImages):
    """The miniature CounterAnimal: `groups` (common / counter / `OTHER`) aligned with the images."""

    groups: np.ndarray

    def items(self) -> pd.DataFrame:
        """One row per item, in item order, as `CounterAnimalImages.items()`: item, target, class, group, background."""
        return pd.DataFrame({"item": range(len(self)), "target": self.targets,
                             "class": [DIGIT_CLASS_NAMES[t] for t in self.targets],
                             "group": self.groups, "background": self.backgrounds})


def digit_split(seed: int, test_fraction: float) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the digits kept for pre-training and held out for the miniature CounterAnimal."""
    _, labels = digits_arrays()
    return split(labels, seed, test_fraction)


@functools.cache
def _textures() -> dict[str, np.ndarray]:
    """The grey texture photos of the backgrounds, each scaled to [0, 1]."""
    out = {}
    for photo in dict.fromkeys(texture for _, texture in BACKGROUNDS.values()):
        grey = skimage_photo(photo).mean(axis=2)
        out[photo] = (grey - grey.min()) / max(np.ptp(grey), 1e-6)
    return out


@functools.cache
def _resized_digits(object_size: int) -> tuple[np.ndarray, np.ndarray]:
    """Every digit as ink opacity in [0, 1] at `object_size` pixels (bilinear, `lib.data.shifts.resize`), and the labels."""
    from ..data.shifts import resize  # torch: only where the miniature is rendered

    images, labels = digits_arrays()
    return resize(images, object_size)[:, 0].numpy().astype(np.float64), labels


def render(spec: MiniatureSpec, digit_indices: np.ndarray, background_indices: np.ndarray,
           rng: np.random.Generator) -> np.ndarray:
    """The digits `digit_indices` in black ink at random places on their backgrounds (indices in
    `BACKGROUNDS`), each background a random crop of its texture photo in its colour: (N, s, s, 3) uint8."""
    size, names = spec.image_size, list(BACKGROUNDS)
    ink, _ = _resized_digits(spec.object_size)
    textures = _textures()
    out = np.empty((len(digit_indices), size, size, 3), dtype=np.float64)
    for n, (digit, background) in enumerate(zip(digit_indices, background_indices)):
        colour, photo = BACKGROUNDS[names[background]]
        texture = textures[photo]
        top, left = rng.integers(0, texture.shape[0] - size), rng.integers(0, texture.shape[1] - size)
        shade = 1.0 - TEXTURE_STRENGTH + TEXTURE_STRENGTH * texture[top:top + size, left:left + size]
        canvas = shade[..., None] * np.asarray(colour)
        row, column = rng.integers(0, size - spec.object_size + 1, size=2)
        alpha = np.zeros((size, size))
        alpha[row:row + spec.object_size, column:column + spec.object_size] = ink[digit]
        out[n] = canvas * (1.0 - alpha[..., None])
    return np.clip(np.rint(out * 255.0), 0, 255).astype(np.uint8)


def pretraining_backgrounds(spec: MiniatureSpec, targets: np.ndarray, correlation: float,
                            rng: np.random.Generator) -> np.ndarray:
    """Each target's background index: its common one with probability `correlation`, otherwise one
    of the other backgrounds uniformly."""
    count = len(BACKGROUNDS)
    common = np.array([spec.common(t) for t in targets])
    other = (common + rng.integers(1, count, size=len(targets))) % count  # uniform over the other nine
    return np.where(rng.random(len(targets)) < correlation, common, other)


def pretraining_set(spec: MiniatureSpec, size: int, seed: int, correlation: float | None = None) -> RenderedImages:
    """`size` pre-training images drawn (with replacement) from the kept digits of split `seed`, with
    the class-background correlation `correlation` (default: the spec's `spurious_correlation`)."""
    correlation = spec.spurious_correlation if correlation is None else correlation
    if not 0.0 <= correlation <= 1.0:
        raise ValueError(f"correlation must lie in [0, 1], got {correlation}")
    kept, _ = digit_split(seed, spec.test_fraction)
    _, labels = digits_arrays()
    rng = np.random.default_rng([seed, size, round(correlation * 1e6), 1])
    digits = rng.choice(kept, size=size, replace=size > len(kept))
    targets = labels[digits]
    backgrounds = pretraining_backgrounds(spec, targets, correlation, rng)
    names = np.array(list(BACKGROUNDS))
    return RenderedImages(render(spec, digits, backgrounds, rng), targets, names[backgrounds])


def counteranimal_set(spec: MiniatureSpec, seed: int) -> MiniCounterAnimal:
    """The miniature CounterAnimal of split `seed`: every held-out digit on its common background, then every
    one on the background after it in `BACKGROUNDS`, and so on round all ten (item order: common group first;
    the counter group is the `counter_offset`-th round, the others are in group `OTHER`)."""
    _, held_out = digit_split(seed, spec.test_fraction)
    _, labels = digits_arrays()
    rng = np.random.default_rng([seed, 2])
    targets = labels[held_out]
    common = np.array([spec.common(t) for t in targets])
    count, names = len(BACKGROUNDS), np.array(list(BACKGROUNDS))
    rounds = [(common + k) % count for k in range(count)]
    group = {0: GROUPS[0], spec.counter_offset % count: GROUPS[1]}
    images = np.concatenate([render(spec, held_out, backgrounds, rng) for backgrounds in rounds])
    groups = np.repeat([group.get(k, OTHER) for k in range(count)], len(held_out))
    return MiniCounterAnimal(images, np.tile(targets, count), names[np.concatenate(rounds)], groups)


def background_table(spec: MiniatureSpec) -> pd.DataFrame:
    """Table 2's analogue: each class with its common and counter background."""
    names = list(BACKGROUNDS)
    return pd.DataFrame({"class": DIGIT_CLASS_NAMES, "common": [names[spec.common(t)] for t in range(10)],
                         "counter": [names[spec.counter(t)] for t in range(10)]})


def as_tensors(images: np.ndarray):
    """8-bit RGB (N, H, W, 3) as float32 torch (N, 3, H, W) in [0, 1] (imports torch)."""
    from ..perturb.tensors import from_rgb8

    return from_rgb8(images, channels=3)
