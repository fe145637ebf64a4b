"""The miniature domains' names and what each one is, importable without torch (settings name them
and are validated before anything is computed; `lib.data.shifts` builds the images).

`DOMAINS`: the digits, their style shifts (`STYLE_SHIFTS`: a perturbation of `lib.perturb` at a
fixed severity each), their parity re-labelling, and crops of scikit-image's photos;
`describe(name)` gives a domain's group, description and class count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from ..perturb.perturbations import apply_batch
from .embedded import SKIMAGE_PHOTOS

if TYPE_CHECKING:
    import torch


@dataclass(frozen=True)
class StyleShift:
    """A perturbation of `lib.perturb.perturbations` at a fixed severity, applied to grey (N, 1, H, W)
    images in [0, 1] through its 8-bit RGB layout (the grey channel repeated, read back from the first)."""

    perturbation: str
    severity: float
    description: str

    def __call__(self, images: torch.Tensor, seed: int = 0) -> torch.Tensor:
        from ..perturb.tensors import from_rgb8, to_rgb8

        perturbed = apply_batch(self.perturbation, to_rgb8(images), self.severity, seed)
        return from_rgb8(perturbed, channels=1).to(images.device)


STYLE_SHIFTS: dict[str, StyleShift] = {
    "inverted": StyleShift("invert", 1.0, "the negative: ink and paper swap"),
    "rotated": StyleShift("rotate", 1.0, "rotated by 90 degrees"),
    "blurred": StyleShift("gaussian_blur", 0.25, "Gaussian blur, sigma 1 pixel"),
    "noisy": StyleShift("gaussian_noise", 0.25, "Gaussian noise, sigma 0.25, clipped (seed 0)"),
    "low_contrast": StyleShift("contrast", 0.7, "contrast reduced to 30 % around mid-grey"),
    "edges": StyleShift("edges", 1.0, "Sobel gradient magnitude (a line-drawing rendition)"),
}
DOMAINS = ("digits", *(f"digits_{s}" for s in STYLE_SHIFTS), "digits_parity", "photos")


class DomainDescription(NamedTuple):
    """What a domain is: its group of shift (`in-domain`, `style`, `granularity`, `categorical`),
    a description, and its number of classes."""

    group: str
    description: str
    num_classes: int


def describe(name: str) -> DomainDescription:
    """The group, description and class count of domain `name` of `DOMAINS`."""
    if name not in DOMAINS:
        raise KeyError(f"unknown mini domain {name!r}; available: {list(DOMAINS)}")
    if name == "photos":
        return DomainDescription("categorical", f"{len(SKIMAGE_PHOTOS)}-way crops of scikit-image photos", len(SKIMAGE_PHOTOS))
    if name == "digits_parity":
        return DomainDescription("granularity", "digits re-labelled even / odd", 2)
    if name == "digits":
        return DomainDescription("in-domain", "scikit-learn digits, 10 classes", 10)
    return DomainDescription("style", STYLE_SHIFTS[name.removeprefix("digits_")].description, 10)
