"""The three robustness metrics of the paper (Table 1), on the embeddings of one image's perturbed versions.

Input everywhere: an `(n, d)` array, one row per parameter value k of the sampled domain (the clean
image, k = ⊥, included as one row when the caller wants it, as Sec. 3.3.1 does for R_dr). Rows are
renormalised to unit length in float64 first: the paper's embeddings lie on the unit sphere (Sec. 2),
DINOv2 does not normalise its own, and float32 normalisation errors (~1e-7) are of the order of
R_cs on robust images (pitfall 3 of the notes).

- `cosine_metric` (Eq. 6): R_cs = (1 - min_{i,j} cos(e_i, e_j)) / 2, from the float64 Gram matrix.
- `euclidean_metric` (Eq. 8): R_ed = max_{i,j} ||e_i - e_j|| / 2, from pairwise distances. Theorem 2
  (R_ed = sqrt(R_cs)) is tested, not used.
- `divergence_radius` (Eq. 10): the radius of the minimum enclosing ball (the paper's "argmin r" read as
  "min r"; the centre is free). Exact by Welzl's algorithm (PyPI `miniball`, MIT) on small sets, and by
  an independent solver, the dual quadratic program on the Gram matrix (scipy SLSQP, then the KKT
  system on its support), on large ones. Welzl's time is not the paper's O(dn): in high dimension
  a set's points usually all lie on its ball, and then miniball's time doubles with each point (~0.25 s for 12 points,
  minutes for 21), so `"auto"` hands sets of more than `WELZL_MAX_POINTS` distinct points to the QP.
"""

from __future__ import annotations

from typing import Literal

import miniball
import numpy as np
from scipy.optimize import minimize
from scipy.spatial.distance import pdist

Solver = Literal["auto", "miniball", "qp"]
DUPLICATE_DECIMALS = 12  # rows equal to this many decimals are one point (miniball fails on duplicates)
WELZL_SEED = 0  # miniball draws its pivots at random; a fixed seed keeps runs repeatable
WELZL_MAX_POINTS = 12  # miniball's time doubles per point on points all on the ball (~0.25 s at 12, 1536-d)
SUPPORT_WEIGHT = 1e-7  # dual weights above this mark the support points of the ball


def unit_rows(embeddings: np.ndarray) -> np.ndarray:
    """The rows as float64 unit vectors; a 2-D array with at least one row and no zero row is required."""
    points = np.asarray(embeddings, dtype=np.float64)
    if points.ndim != 2 or len(points) == 0:
        raise ValueError(f"expected an (n, d) array of embeddings with n >= 1, got shape {points.shape}")
    norms = np.linalg.norm(points, axis=1, keepdims=True)
    if np.any(norms == 0):
        raise ValueError("an embedding is the zero vector; it has no direction to normalise")
    return points / norms


def cosine_metric(embeddings: np.ndarray) -> float:
    """R_cs (Eq. 6): half of one minus the smallest pairwise cosine similarity, in [0, 1]."""
    points = unit_rows(embeddings)
    smallest = float(np.min(points @ points.T))
    return float(np.clip((1.0 - smallest) / 2.0, 0.0, 1.0))


def euclidean_metric(embeddings: np.ndarray) -> float:
    """R_ed (Eq. 8): half of the largest pairwise Euclidean distance, in [0, 1]."""
    points = unit_rows(embeddings)
    if len(points) == 1:
        return 0.0
    return float(np.max(pdist(points)) / 2.0)


def distinct_rows(points: np.ndarray) -> np.ndarray:
    """The rows with duplicates (equal to `DUPLICATE_DECIMALS` decimals) removed, first occurrence kept."""
    _, first = np.unique(points.round(DUPLICATE_DECIMALS), axis=0, return_index=True)
    return points[np.sort(first)]


def welzl_ball(points: np.ndarray) -> tuple[np.ndarray, float]:
    """Centre and radius of the minimum enclosing ball by Welzl's algorithm (`miniball.get_bounding_ball`),
    on distinct, centred points (centring keeps the circumsphere solves well conditioned; the centre is
    moved back). Raises `numpy.linalg.LinAlgError` on supports in degenerate position."""
    distinct = distinct_rows(np.asarray(points, dtype=np.float64))
    if len(distinct) == 1:
        return distinct[0].copy(), 0.0
    mean = distinct.mean(axis=0)
    centre, squared = miniball.get_bounding_ball(distinct - mean, rng=np.random.default_rng(WELZL_SEED))
    return centre + mean, float(np.sqrt(max(squared, 0.0)))


def welzl_radius(points: np.ndarray) -> float:
    """Minimum-enclosing-ball radius by Welzl's algorithm (`welzl_ball`)."""
    return welzl_ball(points)[1]


def dual_qp_radius(points: np.ndarray) -> float:
    """Minimum-enclosing-ball radius from its dual: r² = max over the simplex of Σλ_i|p_i|² - |Σλ_i p_i|²,
    a concave quadratic in n weights solved by SLSQP on the Gram matrix of the centred points, then made
    exact on the support SLSQP finds (`_support_centre`). The radius is measured from the centre found,
    so it is never below the true one."""
    centred = points - points.mean(axis=0)
    n = len(points)
    if n == 1:
        return 0.0
    gram = centred @ centred.T
    diagonal = np.diag(gram).copy()
    scale = max(float(diagonal.max()), np.finfo(float).tiny)

    def negative(weights: np.ndarray) -> tuple[float, np.ndarray]:
        value = weights @ diagonal - weights @ gram @ weights
        return -value / scale, -(diagonal - 2.0 * gram @ weights) / scale

    result = minimize(negative, np.full(n, 1.0 / n), jac=True, method="SLSQP", bounds=[(0.0, 1.0)] * n,
                      constraints=[{"type": "eq", "fun": lambda w: w.sum() - 1.0, "jac": lambda w: np.ones(n)}],
                      options={"ftol": 1e-16, "maxiter": 1000})
    weights = np.clip(result.x, 0.0, None)
    candidates = [weights / weights.sum(), _support_centre(gram, weights > SUPPORT_WEIGHT)]
    radii = [np.sqrt(np.max(np.sum((centred - w @ centred) ** 2, axis=1))) for w in candidates if w is not None]
    return float(min(radii))


def _support_centre(gram: np.ndarray, support: np.ndarray) -> np.ndarray | None:
    """Weights of the circumcentre of the support points within their affine hull (the KKT conditions:
    equal distance to every support point), or None when they are not a convex combination."""
    index = np.flatnonzero(support)
    k = len(index)
    system = np.zeros((k + 1, k + 1))
    system[:k, :k] = 2.0 * gram[np.ix_(index, index)]
    system[:k, k] = system[k, :k] = 1.0
    rhs = np.append(np.diag(gram)[index], 1.0)
    solution = np.linalg.lstsq(system, rhs, rcond=None)[0][:k]
    if np.any(solution < -1e-9):
        return None
    weights = np.zeros(len(gram))
    weights[index] = solution
    return weights


def divergence_radius(embeddings: np.ndarray, solver: Solver = "auto") -> float:
    """R_dr (Eq. 10): the radius of the smallest ball enclosing the unit-normalised embeddings, in [0, 1].

    `solver`: `"miniball"` (Welzl, exact; raises on a support in degenerate position), `"qp"` (the dual
    QP made exact on its support), or `"auto"` (default): Welzl for up to `WELZL_MAX_POINTS` distinct
    points (the paper's m = 5 plus ⊥ is 6), the dual QP beyond that or where Welzl's solve is singular.
    """
    points = unit_rows(embeddings)
    if solver not in ("auto", "miniball", "qp"):
        raise ValueError(f"unknown solver {solver!r}; expected 'auto', 'miniball' or 'qp'")
    if solver == "qp" or (solver == "auto" and len(distinct_rows(points)) > WELZL_MAX_POINTS):
        return min(dual_qp_radius(points), 1.0)
    try:
        radius = welzl_radius(points)
    except np.linalg.LinAlgError:
        if solver == "miniball":
            raise
        radius = dual_qp_radius(points)
    return min(radius, 1.0)


METRICS = {"cosine": cosine_metric, "euclidean": euclidean_metric, "divergence_radius": divergence_radius}
