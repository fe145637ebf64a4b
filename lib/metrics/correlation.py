"""Rank correlations between evaluation protocols, and the averages papers quote from them."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats


def spearman_matrix(scores: pd.DataFrame) -> pd.DataFrame:
    """Spearman rank correlation between the columns of `scores` (rows: models, columns: protocols).

    Ties get average ranks (Pearson correlation of the average ranks); rows with any missing score are dropped first.
    """
    complete = scores.dropna()
    if len(complete) < 3:
        raise ValueError(f"need at least 3 models with every score to rank-correlate, got {len(complete)}")
    return complete.corr(method="spearman")


def mean_correlation(matrix: pd.DataFrame, include_diagonal: bool) -> pd.Series:
    """Each row's average correlation with the protocols of the matrix's columns.

    `include_diagonal=True` averages over every column, the protocol's correlation of 1 with
    itself included; `False` averages over the other protocols only.
    """
    values = matrix.to_numpy(dtype=float)
    if include_diagonal:
        return pd.Series(values.mean(axis=1), index=matrix.index)
    if matrix.shape[0] != matrix.shape[1] or list(matrix.index) != list(matrix.columns):
        raise ValueError("excluding the diagonal needs a square matrix with the same protocols on both axes")
    n = values.shape[1]
    return pd.Series((values.sum(axis=1) - np.diag(values)) / (n - 1), index=matrix.index)


def spearman_confidence_interval(rho: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Fisher-z confidence interval of a Spearman correlation from n pairs.

    Uses the Bonett-Wright standard error sqrt((1 + rho^2 / 2) / (n - 3)) for Spearman's rho.
    """
    if n <= 3:
        raise ValueError("a confidence interval needs n > 3")
    if abs(rho) >= 1:
        return (float(rho), float(rho))
    z = np.arctanh(rho)
    se = np.sqrt((1 + rho**2 / 2) / (n - 3))
    q = stats.norm.ppf(0.5 + level / 2)
    return (float(np.tanh(z - q * se)), float(np.tanh(z + q * se)))
