import numpy as np
import pytest
from scipy import stats

from lib.metrics.dataset_distance import (
    as_bytes,
    gaussian_w2_squared,
    normalized_compression_distance,
    ot_dataset_distance,
)

RNG = np.random.default_rng(0)
X = RNG.normal(size=(30, 5))
LABELS = np.repeat([0, 1, 2], 10)


@pytest.mark.parametrize("method", ["emd", "sinkhorn"])
def test_distance_of_a_set_to_itself_is_zero(method):
    assert ot_dataset_distance(X, X, method=method) == pytest.approx(0.0, abs=1e-6)
    assert ot_dataset_distance(X, X[::-1], LABELS, LABELS[::-1], method=method) == pytest.approx(0.0, abs=1e-6)


def test_known_emd_on_one_dimensional_points():
    # W2 of uniform 1-D measures pairs sorted points: shifting every point by 1 costs exactly 1
    assert ot_dataset_distance(np.array([[0.0], [1.0], [2.0]]), np.array([[1.0], [2.0], [3.0]])) == pytest.approx(1.0)
    # {0, 0} vs {0, 2}: half the mass moves by 2, W2 = sqrt(4 / 2)
    assert ot_dataset_distance(np.array([[0.0], [0.0]]), np.array([[0.0], [2.0]])) == pytest.approx(np.sqrt(2))
    a, b = RNG.normal(size=40), RNG.normal(1.0, 2.0, size=40)
    sorted_w2 = np.sqrt(np.mean((np.sort(a) - np.sort(b)) ** 2))
    assert ot_dataset_distance(a[:, None], b[:, None]) == pytest.approx(sorted_w2)
    assert sorted_w2 >= stats.wasserstein_distance(a, b)  # W2 >= W1


def test_sinkhorn_approaches_emd_for_small_regularisation():
    y = RNG.normal(0.5, 1.0, size=(25, 5))
    exact = ot_dataset_distance(X, y)
    assert ot_dataset_distance(X, y, method="sinkhorn", reg=0.01) == pytest.approx(exact, rel=0.05)


def test_gaussian_w2_known_values():
    # 1-D: (mu1 - mu2)^2 + (sigma1 - sigma2)^2 = 9 + 1
    assert gaussian_w2_squared(np.array([0.0]), np.array([[1.0]]), np.array([3.0]), np.array([[4.0]])) == pytest.approx(10.0)
    assert gaussian_w2_squared(np.zeros(2), np.array([1.0, 4.0]), np.ones(2), np.array([4.0, 4.0])) == pytest.approx(3.0)
    cov = np.array([[2.0, 0.5], [0.5, 1.0]])
    assert gaussian_w2_squared(np.zeros(2), cov, np.zeros(2), cov) == pytest.approx(0.0, abs=1e-9)


def test_otdd_ignores_label_names_but_not_label_structure():
    renamed = np.array([7, 3, 5])[LABELS]
    assert ot_dataset_distance(X, X, LABELS, renamed) == pytest.approx(0.0, abs=1e-6)
    shuffled = RNG.permutation(LABELS)
    with_labels = ot_dataset_distance(X + 3 * LABELS[:, None], X + 3 * LABELS[:, None], LABELS, shuffled)
    assert with_labels > 1.0
    assert ot_dataset_distance(X, X, LABELS, shuffled, diagonal_cov=True) > 0.1
    with pytest.raises(ValueError, match="both datasets"):
        ot_dataset_distance(X, X, LABELS, None)
    with pytest.raises(ValueError, match="at least 2"):
        ot_dataset_distance(X[:4], X[:4], np.array([0, 0, 0, 1]), np.array([0, 0, 0, 1]))


@pytest.mark.parametrize("compressor", ["gzip", "zlib", "lzma"])
def test_ncd_of_equal_and_of_unrelated_inputs(compressor):
    x = as_bytes(np.random.default_rng(1).integers(0, 256, size=4000, dtype=np.uint8))
    y = as_bytes(np.random.default_rng(2).integers(0, 256, size=4000, dtype=np.uint8))
    assert normalized_compression_distance(x, x, compressor) < 0.1
    assert normalized_compression_distance(x, y, compressor) == pytest.approx(1.0, abs=0.05)


def test_deflate_window_makes_large_inputs_look_unrelated_to_themselves():
    big = as_bytes(np.random.default_rng(3).integers(0, 256, size=100_000, dtype=np.uint8))
    assert normalized_compression_distance(big, big, "gzip") > 0.9
    assert normalized_compression_distance(big, big, "lzma") < 0.1
