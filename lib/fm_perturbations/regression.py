"""Sec. 5.2's prediction of ACC_p from a robustness value (appendix Figs. 10-11): a least-squares line
per perturbation fitted on the first half of the images and tested on the second half.

Arrays are per image (rows, in the order that defines the halves) and perturbation (columns); the
first half is the first `n // 2` rows. Imports no torch.
"""

from __future__ import annotations

import numpy as np


def half_labels(n: int) -> np.ndarray:
    """0 for the rows of the first half, 1 for the second: the split of the half-split statistics, and the strata
    a bootstrap of one resamples within, so that no image lands in both halves."""
    return (np.arange(n) >= n // 2).astype(int)


def _halves(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    second = half_labels(len(values)) == 1
    return values[~second], values[second]


def half_split_mse(x: np.ndarray, y: np.ndarray, pooled: bool = False) -> np.ndarray:
    """Per column: the line of y on x fitted by least squares on the first half of the rows, its mean
    squared error on the second half (a column whose x is constant on the first half gets the flat line
    through the mean of y). `pooled`: one line over every column's values instead (a scalar)."""
    (x_train, x_test), (y_train, y_test) = _halves(np.asarray(x, float)), _halves(np.asarray(y, float))
    axis = None if pooled else 0
    x_mean, y_mean = x_train.mean(axis=axis), y_train.mean(axis=axis)
    spread = np.asarray(((x_train - x_mean) ** 2).sum(axis=axis))
    covariance = ((x_train - x_mean) * (y_train - y_mean)).sum(axis=axis)
    slope = np.divide(covariance, spread, out=np.zeros_like(spread), where=spread > 0)
    prediction = y_mean + slope * (x_test - x_mean)
    return ((y_test - prediction) ** 2).mean(axis=axis)


def constant_mse(y: np.ndarray, pooled: bool = False) -> np.ndarray:
    """Per column (`pooled`: over every column's values): the mean squared error on the second half of
    predicting the first half's mean (the baseline a useful robustness value must beat)."""
    train, test = _halves(np.asarray(y, float))
    axis = None if pooled else 0
    return ((test - train.mean(axis=axis)) ** 2).mean(axis=axis)
