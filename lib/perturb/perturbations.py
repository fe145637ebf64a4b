"""Image perturbations: `f(image, severity, rng) -> image`, registered by name in `PERTURBATIONS`.

Layout: an image is an 8-bit RGB array, `np.uint8` of shape (H, W, 3), values 0..255; a perturbation
returns the same shape and dtype (computed in float, rounded and clipped to 0..255). Severity is a
continuous float on the perturbation's `domain`, [0, 1] for every one here, where 0 leaves the image
unchanged and 1 is the strongest setting (stated per function); the ImageNet-C corruptions of
`lib.perturb.corruptions` register here too, each with its ImageNet-C parameter over its own domain.
Randomness comes from `rng` only, so a perturbation is deterministic under the generator's seed;
`apply_batch` perturbs (N, H, W, 3) images with one generator seeded once. `lib.perturb.tensors`
converts float (N, C, H, W) tensors in [0, 1] (C = 1 grey or 3) to and from the layout.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import ndimage

PerturbationFn = Callable[[np.ndarray, float, np.random.Generator], np.ndarray]  # uint8 in, uint8 out
Kernel = Callable[[np.ndarray, float, np.random.Generator], np.ndarray]  # float (H, W, 3) in [0, 255] in and out
MAX_BLUR_SIGMA = 4.0  # pixels, at severity 1
MAX_ROTATION = 90.0  # degrees, at severity 1
MID_GREY = 127.5


@dataclass(frozen=True)
class Perturbation:
    """A registered perturbation: its function, severity domain and what it does."""

    name: str
    function: PerturbationFn
    description: str
    domain: tuple[float, float] = (0.0, 1.0)


PERTURBATIONS: dict[str, Perturbation] = {}


def check_image(image: np.ndarray) -> None:
    """Raise ValueError unless `image` is an 8-bit RGB array (H, W, 3)."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        shape = getattr(image, "shape", None)
        raise ValueError(f"an image is a uint8 array (H, W, 3); got {type(image).__name__} {getattr(image, 'dtype', '')} {shape}")


def _perturbation(description: str, domain: tuple[float, float] = (0.0, 1.0)) -> Callable[[Kernel], PerturbationFn]:
    """Register a kernel on float (H, W, 3) arrays in [0, 255] as a checked uint8 perturbation whose
    parameter lies in `domain` ([0, 1] for the severities of this module; `lib.perturb.corruptions`
    passes the ImageNet-C parameter ranges)."""
    def register(kernel: Kernel) -> PerturbationFn:
        @functools.wraps(kernel)
        def perturb(image: np.ndarray, severity: float, rng: np.random.Generator) -> np.ndarray:
            check_image(image)
            if not domain[0] <= severity <= domain[1]:
                raise ValueError(f"{kernel.__name__}: severity {severity} outside its domain {list(domain)}")
            out = kernel(image.astype(np.float64), float(severity), rng)
            return np.clip(np.rint(out), 0, 255).astype(np.uint8)

        PERTURBATIONS[kernel.__name__] = Perturbation(kernel.__name__, perturb, description, domain)
        return perturb
    return register


@_perturbation("blend towards the negative 255 - x; 1: the negative (0.5: flat mid-grey)")
def invert(image: np.ndarray, severity: float, rng: np.random.Generator) -> np.ndarray:
    return (1.0 - severity) * image + severity * (255.0 - image)


@_perturbation(f"rotation counter-clockwise about the centre by severity x {MAX_ROTATION:g} degrees, bilinear, "
               "same size, corners filled black")
def rotate(image: np.ndarray, severity: float, rng: np.random.Generator) -> np.ndarray:
    return ndimage.rotate(image, severity * MAX_ROTATION, axes=(1, 0), reshape=False, order=1, mode="constant", cval=0.0)


@_perturbation(f"Gaussian blur of sigma severity x {MAX_BLUR_SIGMA:g} pixels per channel, edges repeated")
def gaussian_blur(image: np.ndarray, severity: float, rng: np.random.Generator) -> np.ndarray:
    sigma = severity * MAX_BLUR_SIGMA
    return ndimage.gaussian_filter(image, sigma=(sigma, sigma, 0.0), mode="nearest")


@_perturbation("additive Gaussian noise, independent per pixel and channel, of standard deviation severity x 255")
def gaussian_noise(image: np.ndarray, severity: float, rng: np.random.Generator) -> np.ndarray:
    return image + rng.normal(0.0, severity * 255.0, size=image.shape)


@_perturbation("contrast reduced around mid-grey: 127.5 + (1 - severity)(x - 127.5); 1: flat mid-grey")
def contrast(image: np.ndarray, severity: float, rng: np.random.Generator) -> np.ndarray:
    return MID_GREY + (1.0 - severity) * (image - MID_GREY)


@_perturbation("blend towards the Sobel gradient magnitude per channel (edges repeated), scaled so the image's "
               "largest is 255; 1: the line drawing alone")
def edges(image: np.ndarray, severity: float, rng: np.random.Generator) -> np.ndarray:
    magnitude = np.hypot(ndimage.sobel(image, axis=0, mode="nearest"), ndimage.sobel(image, axis=1, mode="nearest"))
    drawing = 255.0 * magnitude / max(magnitude.max(), 1e-6)
    return (1.0 - severity) * image + severity * drawing


def apply_batch(name: str, images: np.ndarray, severity: float, seed: int) -> np.ndarray:
    """Perturbation `name` at `severity` on each image of (N, H, W, 3) uint8 `images`, in order,
    with one generator seeded by `seed`."""
    if name not in PERTURBATIONS:
        raise KeyError(f"unknown perturbation {name!r}; available: {list(PERTURBATIONS)}")
    function, rng = PERTURBATIONS[name].function, np.random.default_rng(seed)
    out = np.empty_like(images)
    for index, image in enumerate(images):
        out[index] = function(image, severity, rng)
    return out
