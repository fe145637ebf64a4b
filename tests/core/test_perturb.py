import numpy as np
import pytest
import torch

from lib.data.domains import DOMAINS, STYLE_SHIFTS
from lib.data.shifts import make_domain
from lib.perturb import CORRUPTIONS
from lib.perturb.perturbations import PERTURBATIONS, apply_batch
from lib.perturb.tensors import from_rgb8, to_rgb8

SEVERITIES = (0.0, 0.25, 0.5, 1.0)
SEVERITY_PERTURBATIONS = [name for name in PERTURBATIONS if name not in CORRUPTIONS]  # the nine: test_perturb_corruptions


def smooth_image(height: int, width: int) -> np.ndarray:
    """A smooth 8-bit RGB test image: gradients and a bright disc, not symmetric under rotation."""
    y, x = np.mgrid[0:height, 0:width] / max(height, width)
    disc = ((y - 0.3) ** 2 + (x - 0.6) ** 2 < 0.05).astype(float)
    rgb = np.stack([0.7 * x + 0.3 * disc, 0.5 * y + 0.4 * disc, 0.2 + 0.3 * x * y + 0.5 * disc], axis=-1)
    return np.clip(np.rint(255 * rgb), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("shape", [(16, 16), (24, 40)])
@pytest.mark.parametrize("name", SEVERITY_PERTURBATIONS)
def test_perturbations_keep_the_layout_are_seeded_identity_at_zero_and_grow(name, shape):
    perturbation, image = PERTURBATIONS[name], smooth_image(*shape)
    assert perturbation.domain == (0.0, 1.0)
    change = []
    for severity in SEVERITIES:
        out = perturbation.function(image, severity, np.random.default_rng(7))
        assert out.shape == image.shape and out.dtype == np.uint8
        assert np.array_equal(out, perturbation.function(image, severity, np.random.default_rng(7)))
        change.append(np.abs(out.astype(float) - image).mean())
    assert change[0] == 0.0
    assert all(a < b for a, b in zip(change, change[1:])), change


def test_perturbations_check_layout_and_domain():
    image = smooth_image(8, 8)
    with pytest.raises(ValueError, match="outside its domain"):
        PERTURBATIONS["contrast"].function(image, 1.5, np.random.default_rng(0))
    with pytest.raises(ValueError, match="uint8 array"):
        PERTURBATIONS["contrast"].function(image.astype(float), 0.5, np.random.default_rng(0))
    with pytest.raises(KeyError, match="unknown perturbation"):
        apply_batch("fog", image[None], 0.5, 0)


def test_apply_batch_is_seeded_and_draws_afresh_per_image():
    images = np.stack([smooth_image(12, 12)] * 3)
    first, again, other = (apply_batch("gaussian_noise", images, 0.2, seed) for seed in (1, 1, 2))
    assert np.array_equal(first, again) and not np.array_equal(first, other)
    assert not np.array_equal(first[0], first[1])


def test_layout_conversions_round_trip_grey_and_rgb():
    grey = torch.randint(0, 256, (2, 1, 5, 7)).float() / 255
    assert to_rgb8(grey).shape == (2, 5, 7, 3) and torch.equal(from_rgb8(to_rgb8(grey), channels=1), grey)
    rgb = torch.randint(0, 256, (2, 3, 5, 7)).float() / 255
    assert torch.equal(from_rgb8(to_rgb8(rgb), channels=3), rgb)


@pytest.mark.parametrize("shift", list(STYLE_SHIFTS))
def test_rebuilt_style_shifts_keep_the_domain_contract(shift):
    digits, domain = make_domain("digits", 16, seed=0), make_domain(f"digits_{shift}", 16, seed=0)
    assert f"digits_{shift}" in DOMAINS and domain.group == "style" and domain.num_classes == 10
    assert domain.train_images.shape == digits.train_images.shape and domain.train_images.dtype == torch.float32
    assert torch.equal(domain.train_labels, digits.train_labels) and torch.equal(domain.test_labels, digits.test_labels)
    assert 0.0 <= domain.train_images.min() and domain.train_images.max() <= 1.0
    assert (domain.train_images - digits.train_images).abs().mean() > 0.02


def test_the_rotated_shift_is_a_quarter_turn():
    digits, rotated = make_domain("digits", 16, seed=0), make_domain("digits_rotated", 16, seed=0)
    expected = torch.rot90(digits.test_images, 1, dims=(2, 3))
    assert (rotated.test_images - expected).abs().max() <= 0.5 / 255 + 1e-6  # 8-bit rounding only
