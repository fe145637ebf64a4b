"""SVCCA (Raghu et al., 2017): similarity of two representations of the same inputs.

Step 1 (SV): centre each representation (n inputs × p units), take its SVD and keep the top k directions
(the data projected on them, U_k S_k). Step 2 (CCA): the canonical correlations between the two reduced
representations; the similarity is their mean. Raghu et al. keep the directions explaining 99 % of the
variance (squared singular values); Seq-to-Final's code (`benchmark/visualize_models.py::get_singular_vecs`)
counts the fraction on the singular values themselves (`spectrum="singular_values"`)
at levels 0.5 and 0.9, keeping `searchsorted(cumsum(s) / sum(s), level, side="right") + 1` directions
(all of them at level 1), and then takes the mean of all of google/svcca's `cca_coef1` (the min(k1, k2)
canonical correlations; its ε = 1e-10 ridge is below the precision used here).

The canonical correlations are computed exactly as the singular values of Q_xᵀ Q_y, with Q_x, Q_y
orthonormal bases of the centred reduced representations (equal to cca_core's
Σ_xx^{-1/2} Σ_xy Σ_yy^{-1/2} without its ridge). An invertible linear map of a representation has
similarity 1 with it; independent noise has about sqrt(k / n).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

Spectrum = Literal["singular_values", "variance"]

RAGHU_VARIANCE_KEPT = 0.99
SEQ_TO_FINAL_LEVELS = (0.5, 0.9)
RANK_TOLERANCE = 1e-10


def _centred(activations: np.ndarray) -> np.ndarray:
    x = np.asarray(activations, dtype=np.float64).reshape(len(activations), -1)
    return x - x.mean(axis=0, keepdims=True)


def directions_kept(singular_values: np.ndarray, level: float, spectrum: Spectrum = "singular_values") -> int:
    """How many top directions the code keeps for `level`: one past the last whose cumulative fraction of
    the spectrum (singular values, or their squares for `spectrum="variance"`) is at most `level`."""
    if not 0 < level <= 1:
        raise ValueError(f"level must lie in (0, 1], got {level}")
    if spectrum not in ("singular_values", "variance"):
        raise ValueError(f"spectrum must be 'singular_values' or 'variance', got {spectrum!r}")
    weights = singular_values if spectrum == "singular_values" else singular_values ** 2
    fraction = np.cumsum(weights) / np.sum(weights)
    return int(min(np.searchsorted(fraction, level, side="right") + 1, len(weights)))


@dataclass(frozen=True)
class Decomposed:
    """A representation's centred SVD (U and the singular values), taken once for every level and every
    representation it is compared with."""

    u: np.ndarray
    s: np.ndarray

    @classmethod
    def of(cls, activations: np.ndarray | Decomposed) -> Decomposed:
        """The SVD of the centred activations (n × p, trailing dimensions flattened); a `Decomposed` as it is."""
        if isinstance(activations, Decomposed):
            return activations
        u, s, _ = np.linalg.svd(_centred(activations), full_matrices=False)
        return cls(u, s)

    def top(self, level: float, spectrum: Spectrum = "singular_values") -> np.ndarray:
        """The representation projected on its top singular directions at `level`: U_k S_k, n × k."""
        k = directions_kept(self.s, level, spectrum)
        return self.u[:, :k] * self.s[:k]


def top_directions(activations: np.ndarray | Decomposed, level: float, spectrum: Spectrum = "singular_values",
                   ) -> np.ndarray:
    """The centred activations (n × p, trailing dimensions flattened) projected on their top singular
    directions: U_k S_k, n × k."""
    return Decomposed.of(activations).top(level, spectrum)


def _orthonormal_basis(x: np.ndarray) -> np.ndarray:
    u, s, _ = np.linalg.svd(_centred(x), full_matrices=False)
    return u[:, s > RANK_TOLERANCE * max(s.max(initial=0.0), 1.0)]


def canonical_correlations(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The canonical correlations (descending, min(rank x, rank y) of them) of two n-row representations."""
    if len(x) != len(y):
        raise ValueError(f"the representations must share their inputs, got {len(x)} and {len(y)} rows")
    qx, qy = _orthonormal_basis(x), _orthonormal_basis(y)
    return np.clip(np.linalg.svd(qx.T @ qy, compute_uv=False), 0.0, 1.0)


def svcca_similarity(a: np.ndarray | Decomposed, b: np.ndarray | Decomposed, level: float = RAGHU_VARIANCE_KEPT,
                     spectrum: Spectrum = "variance") -> float:
    """Mean canonical correlation of the top directions of `a` and `b` (n × ..., same n inputs; either may be
    given `Decomposed`, to take its SVD once for several comparisons). The defaults are Raghu et al.'s (99 % of
    the variance); Seq-to-Final's code is `spectrum="singular_values"` at `SEQ_TO_FINAL_LEVELS`."""
    return float(np.mean(canonical_correlations(top_directions(a, level, spectrum),
                                                top_directions(b, level, spectrum))))
