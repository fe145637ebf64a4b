import numpy as np
import pandas as pd
import pytest

from lib.metrics.correlation import mean_correlation, spearman_confidence_interval, spearman_matrix


def test_spearman_known_answers():
    scores = pd.DataFrame({"a": [1, 2, 3, 4], "b": [10, 20, 30, 40], "c": [4, 3, 2, 1], "d": [1, 3, 2, 4]})
    m = spearman_matrix(scores)
    assert m.loc["a", "b"] == pytest.approx(1.0)
    assert m.loc["a", "c"] == pytest.approx(-1.0)
    assert m.loc["a", "d"] == pytest.approx(0.8)  # 1 - 6*2 / (4*15)


def test_spearman_drops_incomplete_models_and_needs_three():
    scores = pd.DataFrame({"a": [1, 2, np.nan, 4], "b": [1, 2, 3, 4]})
    assert spearman_matrix(scores).loc["a", "b"] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        spearman_matrix(scores.iloc[:2])


def test_mean_correlation_with_and_without_diagonal():
    m = pd.DataFrame([[1.0, 0.5, 0.2], [0.5, 1.0, 0.8], [0.2, 0.8, 1.0]], index=list("xyz"), columns=list("xyz"))
    assert mean_correlation(m, include_diagonal=True)["x"] == pytest.approx(1.7 / 3)
    assert mean_correlation(m, include_diagonal=False)["x"] == pytest.approx(0.35)


def test_confidence_interval_contains_rho_and_narrows_with_n():
    low26, high26 = spearman_confidence_interval(0.8, 26)
    low100, high100 = spearman_confidence_interval(0.8, 100)
    assert low26 < 0.8 < high26
    assert high100 - low100 < high26 - low26
    with pytest.raises(ValueError):
        spearman_confidence_interval(0.5, 3)
