"""The three robustness metrics: the five properties of Sec. 2 on random unit vectors in high dimension,
Theorem 2, the paper's worst-case example (Fig. 1), and known answers for the enclosing-ball radius,
from two independent solvers."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import ortho_group

from lib.fm_perturbations.examples import figure01_embeddings, zero_sum_set
from lib.fm_perturbations.metrics import (
    METRICS,
    WELZL_MAX_POINTS,
    cosine_metric,
    divergence_radius,
    euclidean_metric,
    unit_rows,
)

DIMENSIONS = (3, 512, 1536)
SIZES = (2, 3, 6, 10)


def _random_sets(seed: int = 0, spreads: tuple[float, ...] = (0.05, 0.5, 5.0)):
    """Unit vectors around a random direction, from tightly clustered (spread 0.05) to scattered."""
    rng = np.random.default_rng(seed)
    for d in DIMENSIONS:
        for n in SIZES:
            for spread in spreads:
                centre = rng.normal(size=d)
                yield unit_rows(centre / np.linalg.norm(centre) + spread * rng.normal(size=(n, d)) / np.sqrt(d))


@pytest.mark.parametrize("name", METRICS)
def test_bounded(name):
    values = [METRICS[name](points) for points in _random_sets()]
    assert min(values) >= 0.0 and max(values) <= 1.0


@pytest.mark.parametrize("name", METRICS)
def test_monotone_when_the_domain_grows(name):
    for points in _random_sets(seed=1):
        values = [METRICS[name](points[:k]) for k in range(1, len(points) + 1)]
        assert np.all(np.diff(values) >= -1e-12), values


@pytest.mark.parametrize("name", METRICS)
def test_best_robustness_is_zero_for_identical_embeddings(name):
    rng = np.random.default_rng(2)
    for d in DIMENSIONS:
        row = rng.normal(size=d)
        assert METRICS[name](np.tile(row, (6, 1))) == pytest.approx(0.0, abs=1e-7)


@pytest.mark.parametrize("name", METRICS)
def test_rotation_invariant(name):
    rng = np.random.default_rng(3)
    for points in _random_sets(seed=3, spreads=(0.5,)):
        if points.shape[1] > 600:
            continue  # a random orthogonal matrix of 1536² costs seconds; 3 and 512 suffice
        rotation = ortho_group.rvs(points.shape[1], random_state=rng)
        assert METRICS[name](points @ rotation.T) == pytest.approx(METRICS[name](points), abs=1e-9)


@pytest.mark.parametrize("subset", [2, 3, 5])
def test_worst_robustness_only_divergence_radius_reaches_one(subset):
    rng = np.random.default_rng(4)
    for d in (8, 512):
        points = zero_sum_set(subset, extra=3, dimension=d, rng=rng)
        assert np.allclose(points[:subset].sum(axis=0), 0.0, atol=1e-12)
        assert divergence_radius(points) == pytest.approx(1.0, abs=1e-9)
        assert divergence_radius(points, solver="qp") == pytest.approx(1.0, abs=1e-9)
        if subset == 2:  # antipodal pair: cosine -1, so R_cs reaches 1 too
            assert cosine_metric(points) == pytest.approx(1.0, abs=1e-12)
        else:  # no antipodal pair: R_cs < 1 although a subset sums to zero (Table 1)
            assert cosine_metric(points) < 1.0 - 1e-3


def test_figure01_example():
    points = figure01_embeddings()
    assert np.allclose(points.sum(axis=0), 0.0)
    assert cosine_metric(points) == pytest.approx(0.75)
    assert euclidean_metric(points) == pytest.approx(np.sqrt(0.75))
    assert divergence_radius(points) == pytest.approx(1.0)


def test_theorem2_euclidean_is_the_square_root_of_cosine():
    for points in _random_sets(seed=5):
        assert euclidean_metric(points) == pytest.approx(np.sqrt(cosine_metric(points)), abs=1e-7)


def test_radius_lies_between_the_euclidean_metric_and_jungs_bound():
    for points in _random_sets(seed=6):
        n, r_ed = len(points), euclidean_metric(points)
        radius = divergence_radius(points)
        assert r_ed - 1e-12 <= radius <= r_ed * np.sqrt(2 * (n - 1) / n) + 1e-12


@pytest.mark.parametrize("n", [2, 3, 4, 6, 10])
@pytest.mark.parametrize("solver", ["miniball", "qp"])
def test_radius_of_a_regular_simplex(n, solver):
    """The n standard basis vectors of R^d (d >= n) are a regular simplex with circumradius sqrt((n-1)/n)."""
    rng = np.random.default_rng(n)
    rotation = ortho_group.rvs(64, random_state=rng)
    simplex = np.eye(64)[:n] @ rotation.T
    assert divergence_radius(simplex, solver=solver) == pytest.approx(np.sqrt((n - 1) / n), abs=1e-12)


@pytest.mark.parametrize("solver", ["miniball", "qp"])
def test_points_inside_the_ball_and_duplicates_change_nothing(solver):
    basis = np.eye(8)[:4]
    inside = unit_rows(np.array([[1.0, 1.0, 0, 0, 0, 0, 0, 0], [0.0, 1.0, 1.0, 1.0, 0, 0, 0, 0]]))
    points = np.vstack([basis, inside, basis[:2]])
    assert divergence_radius(points, solver=solver) == pytest.approx(np.sqrt(3 / 4), abs=1e-12)


@pytest.mark.parametrize("solver", ["miniball", "qp"])
def test_radius_of_points_on_a_small_circle(solver):
    """k >= 2 points spread over a full circle of radius rho on the sphere: the ball is that circle's."""
    rho = 0.05
    angles = np.linspace(0, 2 * np.pi, 7, endpoint=False)
    points = np.zeros((7, 100))
    points[:, 0] = np.sqrt(1 - rho**2)
    points[:, 1], points[:, 2] = rho * np.cos(angles), rho * np.sin(angles)
    assert divergence_radius(points, solver=solver) == pytest.approx(rho, abs=1e-12)


def test_two_independent_solvers_agree():
    worst = 0.0
    for points in _random_sets(seed=7):
        worst = max(worst, abs(divergence_radius(points, "miniball") - divergence_radius(points, "qp")))
    assert worst < 1e-10


def test_large_sets_go_to_the_dual_qp_and_stay_exact():
    rng = np.random.default_rng(8)
    points = unit_rows(rng.normal(size=768) + 0.3 * rng.normal(size=(WELZL_MAX_POINTS + 20, 768)))
    radius = divergence_radius(points)
    assert radius == divergence_radius(points, solver="qp")
    assert radius >= divergence_radius(points[:WELZL_MAX_POINTS], solver="miniball") - 1e-12


def test_collinear_support_falls_back_from_welzl():
    angles = np.array([0.0, 0.1, 0.2, 0.2])
    points = np.c_[np.cos(angles), np.sin(angles)]
    assert divergence_radius(points) == pytest.approx(np.sin(0.1), abs=1e-12)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="zero vector"):
        cosine_metric(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"\(n, d\)"):
        divergence_radius(np.ones(3))
    with pytest.raises(ValueError, match="unknown solver"):
        divergence_radius(np.eye(2), solver="welzl")
