"""The linear-CLIP simulation of Theorem 6.2: data, minimiser, zero-shot error, bound, settings."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scipy import stats

from lib.counteranimal.simulation import (
    Features, Modalities, SimulationSettings, bound_findings, clip_loss, clip_minimiser, conditions_hold, draw_latents,
    embed, findings, group_errors, limit_errors, numerical_minimiser, prompt_latent, simulate, theorem_bound,
    training_pairs, zero_shot_predict,
)
from lib.params import ParamsError

FEATURES = Features(mu_inv=1.0, mu_spu=2.0, sigma_inv=1.0, sigma_spu=0.5)


def small_settings(**changes) -> SimulationSettings:
    return dataclasses.replace(SimulationSettings.load("params/tiny/counteranimal/simulation.yaml"), **changes)


def pairs(n: int, dim: int, p_spu: float, seed: int):
    """`training_pairs` of FEATURES with noise 1."""
    return training_pairs(n, dim, p_spu, FEATURES, 1.0, np.random.default_rng(seed))


def test_latents_have_the_marginals_of_definition_6_1():
    n, p_spu = 20000, 0.9
    y, a, z = draw_latents(n, p_spu, FEATURES, np.random.default_rng(0))
    assert set(np.unique(y)) == {-1, 1} and abs((y == 1).mean() - 0.5) < 3 * np.sqrt(0.25 / n)
    agree = int((a == y).sum())  # P(a = y) = p_spu within a 99.9 % binomial interval
    assert stats.binomtest(agree, n, p_spu).pvalue > 1e-3
    for label in (-1, 1):  # E[z_inv | y] = mu_inv y, E[z_spu | a] = mu_spu a, the stated spreads
        inv, spu = z[y == label, 0], z[a == label, 1]
        assert inv.mean() == pytest.approx(FEATURES.mu_inv * label, abs=4 * FEATURES.sigma_inv / np.sqrt(len(inv)))
        assert spu.mean() == pytest.approx(FEATURES.mu_spu * label, abs=4 * FEATURES.sigma_spu / np.sqrt(len(spu)))
        assert inv.std() == pytest.approx(FEATURES.sigma_inv, rel=0.05)
        assert spu.std() == pytest.approx(FEATURES.sigma_spu, rel=0.05)


def test_modalities_are_dictionary_images_of_z_plus_small_noise():
    rng = np.random.default_rng(1)
    d = Modalities.draw(50, 50, 1.0, rng).image_dictionary
    _, _, z = draw_latents(4000, 0.9, FEATURES, rng)
    images = embed(z, d, 1.0, rng)
    assert np.allclose(d.T @ d, np.eye(2))
    noise = images - z @ d.T
    assert noise.var() == pytest.approx(1.0 / 50, rel=0.05)  # xi ~ N(0, sigma_xi^2 / d I)


@pytest.mark.parametrize("rank", [0, 2])
def test_closed_form_equals_a_numerical_minimiser_of_the_printed_loss(rank):
    _, images, texts = pairs(12, 5, 0.9, seed=2)
    rho = 0.7
    closed = clip_minimiser(images, texts, rho, rank)
    numerical = numerical_minimiser(images, texts, rho, rank or 5)
    assert np.allclose(closed, numerical, atol=1e-5)
    assert clip_loss(closed, images, texts, rho) <= clip_loss(numerical, images, texts, rho) + 1e-9
    if rank:
        assert np.linalg.matrix_rank(closed) == rank


def test_exact_group_errors_match_sampled_zero_shot_predictions():
    modalities, images, texts = pairs(200, 200, 0.95, seed=3)
    product = clip_minimiser(images, texts, 1.0)
    latent = prompt_latent("object", FEATURES, 0.95)
    exact = group_errors(product, modalities, FEATURES, latent)
    rng = np.random.default_rng(4)
    y, a, z = draw_latents(20000, 0.5, FEATURES, rng)  # the OOD test set
    predicted = zero_shot_predict(embed(z, modalities.image_dictionary, 1.0, rng), product,
                                  modalities.text_dictionary, latent)
    for group, mask in (("a != y", a != y), ("a = y", a == y)):
        wrong = int((predicted[mask] != y[mask]).sum())
        assert stats.binomtest(wrong, int(mask.sum()), exact[group]).pvalue > 1e-3


def test_bound_is_the_limit_error_when_mu_spu_is_one_as_lemma_d3_prints_it():
    features = dataclasses.replace(FEATURES, mu_spu=1.0)
    for p_spu in (0.5, 0.8, 0.99):
        bound, limit = theorem_bound(features, p_spu), limit_errors(features, p_spu, "object")
        assert bound["a != y"] == pytest.approx(limit["a != y"])
        assert bound["a = y"] == pytest.approx(limit["a = y"])


def test_conditions_follow_the_theorem():
    assert conditions_hold(FEATURES, 0.95, 1.0, 0.9)
    assert not conditions_hold(dataclasses.replace(FEATURES, mu_spu=1.0), 0.95, 1.0, 0.9)  # mu_spu < 1.5
    assert not conditions_hold(FEATURES, 0.5, 1.0, 0.9)  # no spurious correlation
    assert not conditions_hold(FEATURES, 0.95, 0.5, 0.9)  # d < n
    assert not conditions_hold(dataclasses.replace(FEATURES, sigma_spu=1.5), 0.95, 1.0, 0.9)


def test_the_simulated_error_respects_the_bound_where_the_conditions_hold():
    """Issue #12's done-when: where the conditions hold, the error where a != y is at least the bound
    (judged per cell by the mean over seeds, up to two standard errors, the o(1) of the theorem), the
    error where a = y is at most Phi(kappa_2) + 0.02, ID accuracy is high and OOD poor."""
    settings = small_settings(seeds=list(range(6)), n_train=[200], mu_spu=[1.5, 2.0, 3.0], p_spu=[0.9, 0.99])
    frame = simulate(settings)
    assert frame["conditions"].all()
    for group, cells in frame.groupby(["mu_spu", "p_spu", "group"]):
        error, spread = cells["error"].mean(), cells["error"].std(ddof=1) / np.sqrt(len(cells))
        if group[2] == "a != y":
            assert error >= cells["bound"].iloc[0] - 2 * spread, group
            assert error > 0.4, group  # poor OOD (the n, d -> infinity error is 0.46 to 1 here)
        elif group[2] == "a = y":
            assert error <= cells["bound"].iloc[0] + 0.02, group
            assert error < 0.05, group  # high accuracy where the spurious feature agrees
    assert findings(frame).verdict == "supported"
    assert {f.verdict for f in bound_findings(frame)} <= {"supported", "not_distinguishable"}


def test_without_the_correlation_the_error_drops():
    settings = small_settings(seeds=[0, 1, 2], n_train=[200], mu_spu=[0.5, 2.0], p_spu=[0.5, 0.99])
    frame = simulate(settings).query("group == 'a != y'")
    means = frame.groupby(["mu_spu", "p_spu"])["error"].mean()
    assert means[(2.0, 0.99)] > 0.7
    assert means[(2.0, 0.5)] < 0.25 and means[(0.5, 0.99)] < 0.25  # Phi(-1) = 0.16 without the correlation


def test_settings_are_read_strictly(tmp_path):
    for tier in ("tiny", "mini", "full"):
        SimulationSettings.load(f"params/{tier}/counteranimal/simulation.yaml")
    text = open("params/tiny/counteranimal/simulation.yaml").read()
    for bad, message in ((text.replace("sigma_xi:", "sigma_x:"), "sigma_x"),
                         (text.replace("prompt: object", "prompt: photo"), "prompt"),
                         (text.replace("p_spu: [", "p_spu: [0.2, "), "p_spu")):
        path = tmp_path / "simulation.yaml"
        path.write_text(bad)
        with pytest.raises(ParamsError, match=message):
            SimulationSettings.load(path)


def test_figure_draws_each_group_and_size_with_the_bound_per_p_spu():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from lib.counteranimal.simulation import figure

    settings = small_settings(n_train=[30, 60])
    fig, data = figure(simulate(settings), settings)
    assert len(fig.axes) == len(settings.p_spu)
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert {"a != y, n = 30", "a = y, n = 60", "bound, a != y", "limit n, d -> inf, a != y"} <= set(labels)
    assert len(data) == 2 * len(settings.mu_spu) * len(settings.p_spu) * 2 and data["low"].le(data["error"]).all()
    plt.close(fig)
