"""The paper's own examples as embeddings, and hand-built sets with a known answer.

The text gives no coordinates for Figs. 1 and 2; the readings used here:

- Fig. 1 (worst robustness): perturbed embeddings "uniformly distributed ... (sum to zero)" in the
  plane with R_cs = 0.75, i.e. a smallest cosine of -0.5. Three unit vectors 120° apart are the set
  of three plane vectors that sums to zero and gives exactly that value.
- Fig. 2 (the minimum enclosing ball of three embedding vectors): any three nearby unit vectors;
  `FIGURE02_ANGLES` is our choice, close enough for the ball to be well inside the circle.
"""

from __future__ import annotations

import numpy as np

FIGURE01_ANGLES = (90.0, 210.0, 330.0)  # degrees: three plane unit vectors 120° apart
FIGURE02_ANGLES = (35.0, 60.0, 100.0)  # degrees: our choice, the text gives none


def plane_vectors(degrees: tuple[float, ...]) -> np.ndarray:
    """Unit vectors of the plane at the given angles (degrees), one per row."""
    radians = np.deg2rad(np.asarray(degrees, dtype=np.float64))
    return np.column_stack([np.cos(radians), np.sin(radians)])


def figure01_embeddings() -> np.ndarray:
    """Fig. 1's example: three unit vectors summing to zero (R_cs 0.75, R_dr 1)."""
    return plane_vectors(FIGURE01_ANGLES)


def figure02_embeddings() -> np.ndarray:
    """Fig. 2's example: three nearby unit vectors (our angles; the text gives none)."""
    return plane_vectors(FIGURE02_ANGLES)


def zero_sum_set(subset: int, extra: int, dimension: int, rng: np.random.Generator) -> np.ndarray:
    """`subset` unit vectors summing to zero (a centred regular simplex, randomly rotated into
    `dimension`) followed by `extra` random unit vectors: Eq. 4's worst case in high dimension."""
    if dimension < subset:
        raise ValueError(f"a zero-sum set of {subset} vectors is built in at least {subset} dimensions, got {dimension}")
    simplex = np.eye(subset) - 1.0 / subset
    simplex /= np.linalg.norm(simplex, axis=1, keepdims=True)
    basis, _ = np.linalg.qr(rng.normal(size=(dimension, subset)))
    others = rng.normal(size=(extra, dimension))
    return np.vstack([simplex @ basis.T, others / np.linalg.norm(others, axis=1, keepdims=True)])
