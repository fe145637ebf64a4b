"""The perturbation grid: shapes, determinism under the seed, common random numbers across parameter
values, and a cached grid read back without perturbing or embedding again."""

from __future__ import annotations

import numpy as np
import pytest
from skimage.transform import resize

from lib.data.embedded import skimage_photo
from lib.fm_perturbations.grid import (
    CLEAN, Embedder, Grid, GridImages, embed_grid, grid_parameters, image_metrics, metric_summary, perturb_images,
    torch_embedder,
)
from lib.models.standins import build_standin
from lib.store import FeatureCache

SIZE = 32
PERTURBATIONS = ["imagenet_c_gaussian_noise", "jpeg_compression", "imagenet_c_contrast"]


def photos(count: int = 4) -> GridImages:
    """`count` bundled photos as 32-pixel 8-bit RGB images, labelled 0, 1, 0, 1, ..."""
    names = ["astronaut", "coffee", "chelsea", "rocket", "horse", "camera"][:count]
    images = np.stack([np.rint(resize(skimage_photo(n), (SIZE, SIZE), anti_aliasing=True) * 255).astype(np.uint8)
                       for n in names])
    return GridImages("photos32", images, np.arange(count) % 2)


class Counting:
    """An embedder that counts the images it embeds: a fixed random projection of the pixels."""

    def __init__(self, name: str = "projection", dim: int = 5) -> None:
        self.calls = 0
        self.weights = np.random.default_rng(0).normal(size=(SIZE * SIZE * 3, dim))
        self.embedder = Embedder(name, self.embed)

    def embed(self, images: np.ndarray) -> np.ndarray:
        self.calls += len(images)
        return (images.reshape(len(images), -1) / 255.0) @ self.weights


def test_grid_parameters_are_the_equally_spaced_domain():
    values = grid_parameters(["imagenet_c_gaussian_noise", "jpeg_compression"], m=5)
    np.testing.assert_allclose(values["imagenet_c_gaussian_noise"], np.linspace(0.08, 0.38, 5))
    np.testing.assert_allclose(values["jpeg_compression"], np.linspace(7, 25, 5))


def test_shapes_of_every_cell_and_of_the_metric_stack(tmp_path):
    data, model = photos(), Counting()
    tiny = torch_embedder("tiny_vit", build_standin("tiny_vit", image_size=SIZE), (0.5,) * 3, (0.5,) * 3)
    grid = embed_grid(data, [model.embedder, tiny], grid_parameters(PERTURBATIONS, m=3), seed=0,
                      cache=FeatureCache(tmp_path))
    assert grid.models == ["projection", "tiny_vit"] and len(grid.cells()) == 1 + 3 * 3
    assert len(grid.embeddings) == 2 * len(grid.cells())
    assert grid.clean("projection").shape == (4, 5) and grid.clean("tiny_vit").shape == (4, 48)
    assert grid.stack("tiny_vit", "jpeg_compression").shape == (4, 4, 48)
    assert grid.stack("tiny_vit", "jpeg_compression", include_clean=False).shape == (4, 3, 48)
    np.testing.assert_array_equal(grid.targets, [0, 1, 0, 1])


def test_the_clean_cell_is_the_image_itself_and_cells_are_seeded(tmp_path):
    data = photos(2)
    assert perturb_images(data.images, CLEAN, CLEAN, seed=0) is data.images
    noisy = perturb_images(data.images, "imagenet_c_gaussian_noise", 0.2, seed=3)
    assert noisy.dtype == np.uint8 and noisy.shape == data.images.shape
    np.testing.assert_array_equal(noisy, perturb_images(data.images, "imagenet_c_gaussian_noise", 0.2, seed=3))
    assert not np.array_equal(noisy, perturb_images(data.images, "imagenet_c_gaussian_noise", 0.2, seed=4))
    # image i's version depends on (seed, i) only, not on the images after it
    np.testing.assert_array_equal(noisy[:1], perturb_images(data.images[:1], "imagenet_c_gaussian_noise", 0.2, seed=3))


def test_threads_perturb_exactly_as_one_thread():
    """Fog draws its fractal from NumPy's global generator: its seeding must not interleave between threads."""
    from lib.perturb.perturbations import PERTURBATIONS

    images = np.concatenate([photos(4).images] * 8)
    for perturbation in ("imagenet_c_fog", "frost", "imagenet_c_gaussian_noise"):
        middle = float(np.mean(PERTURBATIONS[perturbation].domain))
        np.testing.assert_array_equal(perturb_images(images, perturbation, middle, 0, workers=1),
                                      perturb_images(images, perturbation, middle, 0, workers=8), err_msg=perturbation)


def test_common_random_numbers_across_parameter_values():
    data = photos(1)
    low = perturb_images(data.images, "imagenet_c_gaussian_noise", 0.08, seed=1).astype(float) - data.images
    high = perturb_images(data.images, "imagenet_c_gaussian_noise", 0.38, seed=1).astype(float) - data.images
    unclipped = (data.images > 60) & (data.images < 195)
    # the same draw z at both sigmas: the changes are nearly proportional where nothing clips
    assert np.corrcoef(low[unclipped], high[unclipped])[0, 1] > 0.95


def test_a_grid_is_deterministic_across_fresh_caches(tmp_path):
    first = embed_grid(photos(3), [Counting().embedder], grid_parameters(PERTURBATIONS, m=2), 7, FeatureCache(tmp_path / "a"))
    second = embed_grid(photos(3), [Counting().embedder], grid_parameters(PERTURBATIONS, m=2), 7, FeatureCache(tmp_path / "b"))
    assert first.embeddings.keys() == second.embeddings.keys()
    for key, value in first.embeddings.items():
        np.testing.assert_array_equal(value, second.embeddings[key])


def test_a_cached_grid_is_read_back_not_recomputed(tmp_path, monkeypatch):
    import lib.fm_perturbations.grid as grid_module

    data, parameters, cache = photos(3), grid_parameters(PERTURBATIONS, m=2), FeatureCache(tmp_path)
    model = Counting()
    first = embed_grid(data, [model.embedder], parameters, 0, cache)
    assert model.calls == 3 * (1 + 3 * 2)

    perturbed = []
    original = grid_module.perturb_images
    monkeypatch.setattr(grid_module, "perturb_images", lambda *a: perturbed.append(a[1:]) or original(*a))
    again = embed_grid(data, [model.embedder], parameters, 0, cache)
    assert model.calls == 3 * (1 + 3 * 2) and perturbed == []
    for key, value in first.embeddings.items():
        np.testing.assert_array_equal(value, again.embeddings[key])

    # a second model on the same cache: each missing cell is perturbed once and embedded by it alone
    other = Counting("other", dim=3)
    embed_grid(data, [model.embedder, other.embedder], parameters, 0, cache)
    assert other.calls == 3 * (1 + 3 * 2) and model.calls == 3 * (1 + 3 * 2)
    assert len(perturbed) == 1 + 3 * 2


def test_the_next_missing_cell_is_perturbed_while_a_cell_is_embedded(tmp_path, monkeypatch):
    import threading

    import lib.fm_perturbations.grid as grid_module

    data, parameters, cache = photos(2), grid_parameters(PERTURBATIONS[:2], m=2), FeatureCache(tmp_path)
    cells = Grid(data.name, data.targets, parameters, {}).cells()
    embed_grid(data, [Counting().embedder], {PERTURBATIONS[0]: parameters[PERTURBATIONS[0]][:1]}, 0, cache)
    started, changed = [], threading.Condition()
    original = grid_module.perturb_images

    def perturb(images, *cell_and_rest):
        with changed:
            started.append(cell_and_rest[:2])
            changed.notify_all()
        return original(images, *cell_and_rest)

    overlapped, plain = [], Counting()
    missing = cells[2:]  # the clean cell and the first noise cell were cached above

    def embed(images: np.ndarray) -> np.ndarray:  # waits (at most 10 s) for the next missing cell's perturbing
        ahead = min(len(overlapped) + 2, len(missing))
        with changed:
            overlapped.append(changed.wait_for(lambda: len(started) >= ahead, timeout=10))
        return plain.embed(images)

    monkeypatch.setattr(grid_module, "perturb_images", perturb)
    again = embed_grid(data, [Embedder("projection", embed)], parameters, 0, cache)
    assert started == missing and overlapped == [True] * len(missing)
    reference = embed_grid(data, [Counting().embedder], parameters, 0, FeatureCache(tmp_path / "serial"))
    for key, value in reference.embeddings.items():
        np.testing.assert_array_equal(value, again.embeddings[key])


def test_a_new_seed_or_changed_images_is_a_new_cache_entry(tmp_path):
    data, cache, model = photos(2), FeatureCache(tmp_path), Counting()
    parameters = {"imagenet_c_gaussian_noise": [0.2]}
    embed_grid(data, [model.embedder], parameters, 0, cache)
    embed_grid(data, [model.embedder], parameters, 1, cache)
    changed = GridImages(data.name, data.images[::-1].copy(), data.targets)
    embed_grid(changed, [model.embedder], parameters, 0, cache)
    assert model.calls == 3 * 2 * 2


def test_bad_input_is_a_one_line_error(tmp_path):
    data = photos(1)
    with pytest.raises(KeyError, match="unknown perturbations"):
        embed_grid(data, [Counting().embedder], {"snow": [1.0]}, 0, FeatureCache(tmp_path))
    with pytest.raises(ValueError, match="distinct"):
        embed_grid(data, [Counting().embedder, Counting().embedder], {}, 0, FeatureCache(tmp_path))
    with pytest.raises(ValueError, match="uint8"):
        GridImages("floats", data.images.astype(np.float32), data.targets)


def hand_grid() -> Grid:
    """Two images in the plane, one perturbation at two values, known answers:
    image 0: clean (1, 0), versions (0, 1) and (1, 0): R_cs 1/2, R_ed = R_dr = sqrt(2)/2 with the clean one;
    image 1: every version equal to the clean one: all three metrics 0."""
    clean = np.array([[1.0, 0.0], [0.0, 2.0]])
    first = np.array([[0.0, 3.0], [0.0, 1.0]])
    second = np.array([[5.0, 0.0], [0.0, 1.0]])
    return Grid("plane", np.array([0, 1]), {"imagenet_c_gaussian_noise": np.array([0.1, 0.2])},
                {("m", CLEAN, CLEAN): clean, ("m", "imagenet_c_gaussian_noise", 0.1): first,
                 ("m", "imagenet_c_gaussian_noise", 0.2): second})


def test_image_metrics_on_hand_made_embeddings():
    frame = image_metrics(hand_grid()).set_index(["item", "metric"])["value"]
    assert frame[(0, "cosine")] == pytest.approx(0.5)
    assert frame[(0, "euclidean")] == pytest.approx(np.sqrt(2) / 2)
    assert frame[(0, "divergence_radius")] == pytest.approx(np.sqrt(2) / 2)
    assert frame.xs(1, level="item").to_numpy() == pytest.approx(0.0, abs=1e-12)


def test_metric_summary_means_and_bootstrap_interval():
    summary = metric_summary(image_metrics(hand_grid()), resamples=200).set_index("metric")
    assert summary.loc["cosine", "mean"] == pytest.approx(0.25)
    assert summary.loc["cosine", "low"] == pytest.approx(0.0) and summary.loc["cosine", "high"] == pytest.approx(0.5)
    assert (summary["n_images"] == 2).all() and summary["interval"].str.contains("bootstrap over 2 images").all()
    constant = image_metrics(hand_grid()).assign(value=0.3)
    row = metric_summary(constant, resamples=50).iloc[0]
    assert row["low"] == pytest.approx(0.3) and row["high"] == pytest.approx(0.3)


@pytest.mark.parametrize("standin", ["tiny_vit", "tiny_resnet"])
def test_the_torch_embedder_normalises_uint8_pixels_exactly_as_float32_on_the_host(standin):
    import torch

    from lib.perturb.tensors import from_rgb8
    from lib.train.heads import embed

    model = build_standin(standin, image_size=SIZE).eval()
    images = np.random.default_rng(0).integers(0, 256, (5, SIZE, SIZE, 3), dtype=np.uint8)
    mean, std = (0.48, 0.46, 0.41), (0.27, 0.26, 0.28)
    embedder = torch_embedder(standin, model, mean, std, batch_size=5)
    with torch.no_grad():
        expected = embed(model, (from_rgb8(images, 3) - torch.tensor(mean).view(1, 3, 1, 1))
                         / torch.tensor(std).view(1, 3, 1, 1)).numpy()
    np.testing.assert_array_equal(embedder.embed(images), expected)  # bit for bit


@pytest.mark.parametrize("perturbation, value", [("gaussian_noise", 0.3), ("jpeg_compression", 10.0), ("frost", 0.5)])
def test_perturbing_with_threads_gives_the_serial_images(perturbation, value):
    images = np.random.default_rng(2).integers(0, 256, (5, SIZE, SIZE, 3), dtype=np.uint8)
    serial = perturb_images(images, perturbation, value, seed=3)
    np.testing.assert_array_equal(perturb_images(images, perturbation, value, seed=3, workers=3), serial)
