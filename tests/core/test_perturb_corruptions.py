"""The nine ImageNet-C corruptions of fm_perturbations (`lib.perturb.corruptions`): layout, seeding, growth
towards the severe end, known answers, agreement with the imagecorruptions-imaug package at ImageNet-C's
severities, and the two ways of sampling parameter values."""

import numpy as np
import pytest
from PIL import Image
from skimage import color, data, transform

from lib.fm_perturbations.accuracies import PERTURBATIONS as PAPER_PERTURBATIONS
from lib.perturb import CORRUPTIONS, PAPER_NAMES, parameter_values
from lib.perturb import corruptions as C
from lib.perturb.perturbations import PERTURBATIONS, apply_batch

ic = pytest.importorskip("imagecorruptions.corruptions")

NAMES = ("jpeg_compression", "brightness", "imagenet_c_contrast", "defocus_blur", "elastic_transform",
         "imagenet_c_fog", "frost", "imagenet_c_gaussian_noise", "glass_blur")
STOCHASTIC = ("elastic_transform", "imagenet_c_fog", "frost", "imagenet_c_gaussian_noise", "glass_blur")


def photo(name: str, height: int, width: int) -> np.ndarray:
    """A scikit-image bundled photo resized (anti-aliased) to an 8-bit RGB (height, width, 3) image."""
    resized = transform.resize(getattr(data, name)(), (height, width), anti_aliasing=True)
    return np.clip(np.rint(resized * 255), 0, 255).astype(np.uint8)


IMAGES = {(32, 32): photo("astronaut", 32, 32), (48, 64): photo("coffee", 48, 64)}


def change(image: np.ndarray, out: np.ndarray) -> float:
    return float(np.abs(out.astype(float) - image).mean())


def test_the_nine_are_registered_beside_the_unchanged_severities():
    assert tuple(CORRUPTIONS) == NAMES
    assert set(PAPER_NAMES) == set(PAPER_PERTURBATIONS) and set(PAPER_NAMES.values()) == set(NAMES)
    for name, record in CORRUPTIONS.items():
        assert PERTURBATIONS[name].domain == record.domain == (min(record.severities), max(record.severities))
        assert record.severe_end == record.severities[-1] and record.mild_end == record.severities[0]
    assert CORRUPTIONS["jpeg_compression"].domain == (7.0, 25.0) and CORRUPTIONS["jpeg_compression"].severe_end == 7.0
    assert CORRUPTIONS["imagenet_c_contrast"].severe_end == 0.05
    for name in ("invert", "rotate", "gaussian_blur", "gaussian_noise", "contrast", "edges"):
        assert PERTURBATIONS[name].domain == (0.0, 1.0)
    assert "fog" not in PERTURBATIONS


@pytest.mark.parametrize("shape", list(IMAGES))
@pytest.mark.parametrize("name", NAMES)
def test_layout_seeding_and_growth_towards_the_severe_end(name, shape):
    record, image = CORRUPTIONS[name], IMAGES[shape]
    function = PERTURBATIONS[name].function
    values = np.linspace(record.mild_end, record.severe_end, 3)  # mild end, middle, severe end
    changes = []
    for value in values:
        out = function(image, value, np.random.default_rng(7))
        assert out.shape == image.shape and out.dtype == np.uint8
        assert np.array_equal(out, function(image, value, np.random.default_rng(7)))
        changes.append(change(image, out))
    assert 0 < changes[0] < changes[1] < changes[2], changes  # same seed at every value: common random numbers
    other = function(image, values[1], np.random.default_rng(8))
    assert np.array_equal(other, function(image, values[1], np.random.default_rng(7))) == (name not in STOCHASTIC)


def test_parameters_outside_the_domain_are_refused_and_apply_batch_knows_the_nine():
    image = IMAGES[(32, 32)]
    with pytest.raises(ValueError, match="outside its domain"):
        PERTURBATIONS["jpeg_compression"].function(image, 30, np.random.default_rng(0))
    with pytest.raises(ValueError, match="outside its domain"):
        PERTURBATIONS["imagenet_c_contrast"].function(image, 0.5, np.random.default_rng(0))
    batch = apply_batch("imagenet_c_gaussian_noise", np.stack([image, image]), 0.2, seed=3)
    assert batch.shape == (2, 32, 32, 3) and not np.array_equal(batch[0], batch[1])


def test_brightness_adds_c_to_the_hsv_value():
    image, c = IMAGES[(48, 64)], 0.3
    out = PERTURBATIONS["brightness"].function(image, c, np.random.default_rng(0))
    expected = np.minimum(color.rgb2hsv(image / 255.0)[..., 2] + c, 1.0)
    assert np.abs(color.rgb2hsv(out / 255.0)[..., 2] - expected).max() <= 0.5 / 255 + 1e-9


def test_contrast_pulls_every_pixel_towards_its_channel_mean_by_c():
    image, c = IMAGES[(48, 64)], 0.2
    out = PERTURBATIONS["imagenet_c_contrast"].function(image, c, np.random.default_rng(0)).astype(float)
    mean = image.astype(float).mean(axis=(0, 1))
    assert np.abs(out - (mean + c * (image - mean))).max() <= 0.5 + 1e-9


def test_gaussian_noise_adds_sigma_times_the_seeded_normals():
    image, sigma = IMAGES[(32, 32)], 0.1
    out = PERTURBATIONS["imagenet_c_gaussian_noise"].function(image, sigma, np.random.default_rng(4)).astype(float)
    expected = image + 255 * sigma * np.random.default_rng(4).standard_normal(image.shape)
    inside = (expected > 0) & (expected < 255)
    assert inside.mean() > 0.8 and np.abs(out - expected)[inside].max() <= 0.5 + 1e-9
    assert np.array_equal(out[~inside], np.clip(np.rint(expected[~inside]), 0, 255))


def test_jpeg_rounds_the_quality_half_up():
    image, rng = IMAGES[(48, 64)], np.random.default_rng(0)
    function = PERTURBATIONS["jpeg_compression"].function
    assert np.array_equal(function(image, 11.5, rng), function(image, 12, rng))
    assert np.array_equal(function(image, 11.49, rng), function(image, 11, rng))


@pytest.mark.parametrize("radius", [3, 4, 6, 8, 10])
@pytest.mark.parametrize("alias_blur", [0.1, 0.5])
def test_disk_kernel_is_the_packages_at_integer_radii(radius, alias_blur):
    assert np.array_equal(C.disk_kernel(radius, alias_blur), ic.disk(radius, alias_blur))


def test_disk_kernel_stays_centred_at_a_non_integer_radius():
    kernel = C.disk_kernel(9.5, 0.1)
    assert kernel.shape == (21, 21) and np.isclose(kernel.sum(), 1.0, atol=1e-6)
    assert np.allclose(kernel, kernel[::-1]) and np.allclose(kernel, kernel.T)
    assert ic.disk(9.5, 0.1).shape[0] % 2 == 0  # the package's grid -9.5..9.5 has no centre pixel


def imagenet_c_severity_one(name: str, image: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(ours at the mild end, the package's severity 1) on the same randomness, float (H, W, 3) in [0, 255]."""
    x, (height, width) = image.astype(float), image.shape[:2]
    mild, rng = CORRUPTIONS[name].mild_end, np.random.default_rng(0)
    if name == "jpeg_compression":
        return C.jpeg_compression.__wrapped__(x, mild, rng), np.asarray(ic.jpeg_compression(Image.fromarray(image), 1))
    if name == "glass_blur":
        return C.glass_blur_seeded(x, mild, seed), ic.glass_blur(image, 1, seed=seed)
    if name == "imagenet_c_fog":
        np.random.seed(seed)
        return C.fog_seeded(x, mild, seed), ic.fog(image, 1)
    if name == "elastic_transform":
        np.random.seed(seed)
        bound = height * C.ELASTIC_MAX_SHIFT_FRACTION
        fields = np.random.uniform(-bound, bound, (height, width)), np.random.uniform(-bound, bound, (height, width))
        np.random.seed(seed)
        return C.elastic_warp(x, mild, *fields), ic.elastic_transform(image, 1)
    if name == "frost":
        np.random.seed(seed)
        index = np.random.randint(6)
        texture = C._resized_frost(index, height, width)
        top, left = np.random.randint(0, texture.shape[0] - height), np.random.randint(0, texture.shape[1] - width)
        ours = np.clip(x + mild * C.frost_crop((height, width), index, top, left), 0, 255)
        np.random.seed(seed)
        return ours, ic.frost(image, 1)
    if name == "imagenet_c_gaussian_noise":
        np.random.seed(seed)
        z = np.random.standard_normal(image.shape)
        np.random.seed(seed)
        return np.clip(x / 255 + mild * z, 0, 1) * 255, ic.gaussian_noise(image, 1)
    package = {"brightness": ic.brightness, "imagenet_c_contrast": ic.contrast, "defocus_blur": ic.defocus_blur}[name]
    return getattr(C, name).__wrapped__(x, mild, rng), package(image, 1)


@pytest.mark.parametrize("name", NAMES)
def test_the_mild_end_is_imagenet_c_severity_one(name):
    image = IMAGES[(48, 64)]
    state = np.random.get_state()
    try:
        ours, package = imagenet_c_severity_one(name, image, seed=5)
    finally:
        np.random.set_state(state)
    assert ours.shape == image.shape and np.abs(ours - np.asarray(package, float)).max() < 1e-4


@pytest.mark.parametrize("name, package", [("jpeg_compression", "jpeg_compression"), ("brightness", "brightness"),
                                           ("imagenet_c_contrast", "contrast")])
def test_one_parameter_functions_match_every_imagenet_c_severity(name, package):
    image = IMAGES[(32, 32)]
    for severity, value in enumerate(CORRUPTIONS[name].severities, start=1):
        source = Image.fromarray(image) if name == "jpeg_compression" else image
        expected = np.clip(np.rint(np.asarray(getattr(ic, package)(source, severity), float)), 0, 255)
        assert np.array_equal(PERTURBATIONS[name].function(image, value, np.random.default_rng(0)), expected)


def test_fog_leaves_numpys_global_generator_as_it_was():
    np.random.seed(123)
    expected = np.random.random_sample(3)
    np.random.seed(123)
    PERTURBATIONS["imagenet_c_fog"].function(IMAGES[(32, 32)], 2.0, np.random.default_rng(0))
    assert np.array_equal(np.random.random_sample(3), expected)


@pytest.mark.parametrize("name", NAMES)
def test_equally_spaced_values_cover_the_domain_and_nest(name):
    low, high = CORRUPTIONS[name].domain
    five = parameter_values(name, 5)
    assert five[0] == low and five[-1] == high and np.allclose(np.diff(five), (high - low) / 4)
    assert set(parameter_values(name, 3)) <= set(five)  # m = 3 within m = 5 ((3 - 1) divides (5 - 1))
    assert not set(parameter_values(name, 4)[1:-1]) & set(five)  # m = 4 is not within m = 5
    assert list(parameter_values(name, 1)) == [low]


@pytest.mark.parametrize("name", NAMES)
def test_random_values_are_seeded_uniform_draws(name):
    low, high = CORRUPTIONS[name].domain
    draws = parameter_values(name, 20, how="random", seed=3)
    assert np.all((low <= draws) & (draws <= high)) and np.all(np.diff(draws) >= 0)
    assert np.array_equal(draws, parameter_values(name, 20, how="random", seed=3))
    assert not np.array_equal(draws, parameter_values(name, 20, how="random", seed=4))
    assert set(parameter_values(name, 5, how="random", seed=3)) <= set(draws)  # the first 5 of the same stream
    for value in parameter_values(name, 3, how="random", seed=3):
        PERTURBATIONS[name].function(IMAGES[(32, 32)], value, np.random.default_rng(0))


def test_parameter_values_works_for_the_severities_and_refuses_nonsense():
    assert np.allclose(parameter_values("rotate", 3), [0.0, 0.5, 1.0])
    with pytest.raises(ValueError, match="how must be"):
        parameter_values("frost", 3, how="grid")
    with pytest.raises(ValueError, match="at least 1"):
        parameter_values("frost", 0)
    with pytest.raises(KeyError, match="unknown perturbation"):
        parameter_values("fog", 3)
