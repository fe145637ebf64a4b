"""Known answers of the half-split regression behind Figs. 10-11."""

import numpy as np

from lib.fm_perturbations.regression import constant_mse, half_split_mse


def test_a_perfect_linear_relation_has_zero_error():
    x = np.linspace(0.0, 1.0, 40).reshape(20, 2)
    assert np.allclose(half_split_mse(x, 3.0 - 2.0 * x), 0.0)


def test_a_line_fitted_on_the_first_half_is_tested_on_the_second():
    x = np.arange(8.0)[:, None]
    y = np.r_[x[:4, 0], x[4:, 0] + 1.0][:, None]  # the second half sits one above the first half's line
    assert np.allclose(half_split_mse(x, y), 1.0)
    assert np.allclose(constant_mse(y), np.mean((y[4:, 0] - y[:4, 0].mean()) ** 2))


def test_a_constant_x_falls_back_to_the_mean():
    y = np.random.default_rng(0).normal(size=(10, 3))
    assert np.allclose(half_split_mse(np.ones((10, 3)), y), constant_mse(y))


def test_noise_independent_of_x_does_not_beat_the_mean_by_much():
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=(2000, 1)), rng.normal(size=(2000, 1))
    assert abs(half_split_mse(x, y)[0] - constant_mse(y)[0]) < 0.01


def test_pooled_fits_one_line_over_every_column_of_the_first_half_of_the_rows():
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=(9, 3)), rng.normal(size=(9, 3))  # odd: the first half is the first 4 rows
    slope, intercept = np.polyfit(x[:4].ravel(), y[:4].ravel(), 1)
    line = np.mean((y[4:] - (slope * x[4:] + intercept)) ** 2)
    assert np.isclose(half_split_mse(x, y, pooled=True), line)
    assert np.isclose(constant_mse(y, pooled=True), np.mean((y[4:] - y[:4].mean()) ** 2))
    assert np.isclose(half_split_mse(x, 1.0 - 0.5 * x, pooled=True), 0.0)
