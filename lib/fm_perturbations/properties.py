"""Table 1 re-derived: which of the five properties of Sec. 2 each metric violates, checked with our
metric code on the paper's examples and on random unit vectors in high dimension.

Each property is tested on a fixed, seeded collection of embedding sets; a metric violates it when
one set breaks it beyond `TOLERANCE`. The worst-robustness sets are Fig. 1's example and a zero-sum
subset in 512 dimensions (`examples.zero_sum_set`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pandas as pd
from scipy.stats import ortho_group

from .examples import figure01_embeddings, zero_sum_set
from .metrics import METRICS, unit_rows

PROPERTIES = ("Bounded domain", "Monotonicity", "Best robustness", "Worst robustness", "Rotational invariance")
METRIC_LABELS = {"cosine": "Cosine similarity", "euclidean": "Euclidean distance",
                 "divergence_radius": "DivergenceRadius"}
TOLERANCE = 1e-9
SEED = 0
DIMENSION = 512
SETS = 20


def _random_sets(rng: np.random.Generator) -> list[np.ndarray]:
    """Seeded unit-vector sets of 2–8 rows in `DIMENSION`, from clustered to scattered."""
    sets = []
    for i in range(SETS):
        centre = rng.normal(size=DIMENSION)
        spread = (0.05, 0.5, 5.0)[i % 3]
        rows = int(rng.integers(2, 9))
        sets.append(unit_rows(centre / np.linalg.norm(centre)
                              + spread * rng.normal(size=(rows, DIMENSION)) / np.sqrt(DIMENSION)))
    return sets


def _worst_sets(rng: np.random.Generator) -> list[np.ndarray]:
    return [figure01_embeddings(), zero_sum_set(3, extra=3, dimension=DIMENSION, rng=rng)]


def _largest_breach(metric: Callable[[np.ndarray], float], rng: np.random.Generator) -> dict[str, float]:
    """How far each property is broken (0: it holds on every set; > 0: by that much at worst)."""
    sets = _random_sets(rng)
    rotation = ortho_group.rvs(DIMENSION, random_state=rng)
    values = [metric(s) for s in sets]
    bounded = max(max(-v, v - 1.0, 0.0) for v in values)
    monotone = max(max(metric(s[:k]) - metric(s[:k + 1]), 0.0) for s in sets for k in range(1, len(s)))
    best = max(abs(metric(np.tile(s[0], (4, 1)))) for s in sets)
    worst = max(1.0 - metric(s) for s in _worst_sets(rng))
    rotation_gap = max(abs(metric(s @ rotation.T) - v) for s, v in zip(sets, values))
    return dict(zip(PROPERTIES, (bounded, monotone, best, worst, rotation_gap)))


def property_checks(seed: int = SEED) -> pd.DataFrame:
    """One row per metric and property: `breach` (how far it is broken at worst) and `violated`."""
    return _property_checks(seed).copy()


@functools.cache
def _property_checks(seed: int) -> pd.DataFrame:
    rows = []
    for name, metric in METRICS.items():
        for prop, breach in _largest_breach(metric, np.random.default_rng(seed)).items():
            rows.append({"metric": METRIC_LABELS[name], "property": prop, "breach": breach,
                         "violated": breach > TOLERANCE})
    return pd.DataFrame(rows)


def printed_violations() -> pd.DataFrame:
    """Table 1's 'Violating Properties' column as one row per metric and property (`violated` as printed)."""
    from .. import published

    table = published.load("fm_perturbations", "table01", numeric=False)
    printed = table[table["column"] == "Violating Properties"].set_index("metric")["printed"]
    rows = [{"metric": m, "property": p, "violated": p.replace(" ", "-").lower() in
             {v.strip().lower() for v in text.split(",")}}
            for m, text in printed.items() for p in PROPERTIES]
    return pd.DataFrame(rows)
