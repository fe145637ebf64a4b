"""Known-answer tests for the ssl_protocols figure, table, audit and claims functions."""

import math

import numpy as np
import pandas as pd
import pytest

from lib.claims import VERDICTS, Verdict
from lib.ssl_protocols import claims
from lib.ssl_protocols.accuracies import published_accuracies
from lib.ssl_protocols.batch_norm import imagenet_fine_tuning_steps, normalisation_gains, optimizer_steps
from lib.ssl_protocols.figure02 import extended_in_domain_matrix, normalisation_pairs
from lib.ssl_protocols.inaturalist import seed_points
from lib.ssl_protocols.scatter import family, linear_fit, lp_vs_ft, near_ties, panel_statistics, scatter_points
from lib.ssl_protocols.shift_groups import (
    correlation_difference,
    correlate,
    id_vs_ood,
    row_means,
    shift_groups,
)
from lib.ssl_protocols.survey import citation_checks, protocol_counts
from lib.ssl_protocols.tables import TABLES, draw_table, table_view


def made_up_accuracies() -> pd.DataFrame:
    """Four models; ImageNet kNN 1..4; OOD d1 in the same order, d2 with neighbours swapped."""
    rows = []
    for i, model in enumerate("abcd"):
        rows.append((model, "Imagenet", "kNN", float(i + 1)))
        rows.append((model, "d1", "kNN", float(i + 1)))
        rows.append((model, "d2", "kNN", float([2, 1, 4, 3][i])))
    return pd.DataFrame(rows, columns=["model", "dataset", "protocol", "value"])


# --- regression (Fig. 5) ----------------------------------------------------------------------


def test_linear_fit_recovers_an_exact_line_with_a_zero_band():
    x = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    fit = linear_fit(x, 2 * x + 1)
    assert fit.slope == pytest.approx(2) and fit.intercept == pytest.approx(1)
    low, high = fit.band(np.array([0.0, 10.0]))
    np.testing.assert_allclose(low, high)
    np.testing.assert_allclose(fit.predict([0.0, 10.0]), [1.0, 21.0])


def test_linear_fit_on_hand_made_points():
    # By hand: slope = Sxy / Sxx = 5.5 / 5 = 1.1, intercept = 2.75 - 1.1 * 1.5 = 1.1,
    # residuals -0.1, 0.8, -1.3, 0.6 -> s = sqrt(2.7 / 2); 90 % band at the mean x: t(0.95, 2) * s / 2.
    fit = linear_fit([0, 1, 2, 3], [1, 3, 2, 5], level=0.90)
    assert fit.slope == pytest.approx(1.1) and fit.intercept == pytest.approx(1.1)
    assert fit.residual_sd == pytest.approx(math.sqrt(1.35))
    low, high = fit.band(1.5)
    assert (high - low) / 2 == pytest.approx(2.919986 * math.sqrt(1.35) / 2, rel=1e-5)
    # the band widens away from the mean of x
    low_far, high_far = fit.band(3.0)
    assert high_far - low_far > high - low


def test_linear_fit_needs_three_points():
    with pytest.raises(ValueError, match="at least 3"):
        linear_fit([0, 1], [0, 1])


def test_figure05_on_the_published_numbers():
    frame, fit = lp_vs_ft(published_accuracies("top1"), "LP_BN")
    assert len(frame) == 26
    assert frame.loc[frame["backbone"] == "ViT-B/16", "above_line"].all()
    assert frame["residual"].sum() == pytest.approx(0, abs=1e-9)  # least squares with an intercept
    assert family("MAE") == "generative" and family("DINO") == "discriminative"


# --- ID-vs-OOD correlations and groups (Fig. 2 right, 3, S.2, S.3) --------------------------


def test_a_model_missing_a_dataset_leaves_the_group_average():
    columns = {("Imagenet", "kNN"): np.array([1.0, 2.0, 3.0, 4.0]),
               ("d1", "kNN"): np.array([1.0, 2.0, np.nan, 3.0]), ("d2", "kNN"): np.array([3.0, 4.0, 9.0, 5.0])}
    rows = correlate(columns, ["d1", "d2"], {"kNN": "kNN"}, {"kNN": "kNN"})
    assert rows["n_models"].item() == 3 and rows["rho"].item() == pytest.approx(1.0)


def test_id_vs_ood_under_both_averaging_readings():
    accuracies = made_up_accuracies()
    kwargs = dict(datasets=["d1", "d2"], id_columns={"kNN": "kNN"}, ood_columns={"kNN": "kNN"})
    per_dataset = id_vs_ood(accuracies, aggregate="mean_correlation", **kwargs)
    # rho(d1) = 1, rho(d2) = 1 - 6 * 4 / (4 * 15) = 0.6 -> mean 0.8
    assert per_dataset["rho"].item() == pytest.approx(0.8)
    averaged = id_vs_ood(accuracies, aggregate="mean_accuracy", **kwargs)
    # mean accuracies 1.5, 1.5, 3.5, 3.5 (tied): rho = 4 / (2 * sqrt(5))
    assert averaged["rho"].item() == pytest.approx(4 / (2 * math.sqrt(5)))
    assert averaged["n_models"].item() == 4
    with pytest.raises(ValueError, match="aggregate"):
        id_vs_ood(accuracies, aggregate="median", **kwargs)


def test_row_means_average_over_ood_protocols():
    long = pd.DataFrame({"ood_protocol": ["kNN", "LP", "kNN", "LP"], "id_protocol": ["kNN", "kNN", "LP", "LP"],
                         "rho": [0.9, 0.7, 0.5, 0.3]})
    means = row_means(long)
    assert list(means.index) == ["kNN", "LP"] and means.tolist() == pytest.approx([0.8, 0.4])


def test_shift_groups_follow_table_s6():
    groups = shift_groups()
    assert groups["Category"].printed == ("Caltech-256", "CUB")
    assert groups["Category"].missing == ("iNat mini Family",)
    assert groups["Fine"].printed == ("CUB",)
    assert len(groups["Style"].printed) == 5 and not groups["Style"].missing


def test_correlation_difference():
    z, p = correlation_difference(0.5, 30, 0.5, 30)
    assert z == 0 and p == pytest.approx(1)
    z, p = correlation_difference(0.9, 26, 0.6, 26)
    se = lambda r: math.sqrt((1 + r**2 / 2) / 23)  # noqa: E731
    assert z == pytest.approx((math.atanh(0.9) - math.atanh(0.6)) / math.hypot(se(0.9), se(0.6)))
    assert correlation_difference(0.6, 26, 0.9, 26)[0] == pytest.approx(-z) and 0 < p < 0.05


def test_extended_matrix_contains_figure02_values():
    matrix = extended_in_domain_matrix(published_accuracies("top1"))
    assert matrix.shape == (9, 9)
    assert matrix.loc["kNN^N", "LP^BN"] == pytest.approx(0.9865, abs=5e-4)
    pairs = normalisation_pairs(matrix).set_index("pair")["spearman"]
    assert pairs["kNN vs LP (plain)"] < pairs["kNN^N vs LP^BN (normalised)"]


# --- scatter panels (Fig. 6, S.1) ---------------------------------------------------------------


def test_near_ties_on_hand_made_points():
    points = pd.DataFrame({"metric": "top1", "dataset": "d", "protocol": "FT", "model": ["a", "b", "c"],
                           "id": [70.0, 70.4, 75.0], "ood": [50.0, 65.0, 52.0]})
    ties = near_ties(points, id_within=0.5, ood_apart=10)
    assert len(ties) == 1 and ties.iloc[0]["model a"] == "a" and ties.iloc[0]["ood gap"] == pytest.approx(15)


def test_scatter_panels_count_the_printed_models():
    statistics = panel_statistics(scatter_points(("top1",), ("CUB", "ImageNet-D (mean of 6)")))
    n = statistics.set_index(["dataset", "protocol"])["n_models"]
    assert n[("CUB", "kNN")] == 26
    assert n[("ImageNet-D (mean of 6)", "kNN")] == 10 and n[("ImageNet-D (mean of 6)", "FT")] == 9


# --- batch norm (Sec. 4.3, Fig. 4), survey, iNaturalist, tables -------------------------------


def test_optimizer_steps_and_imagenet_steps():
    assert optimizer_steps(1000, 256, 2) == 8
    steps = imagenet_fine_tuning_steps("table_s4").set_index("protocol")["steps"]
    assert steps["FT"] == 5005 * 100 and steps["FT-1%"] == 51 * 30
    assert imagenet_fine_tuning_steps("table_s8").set_index("protocol").loc["FT-10%", "batch_size"] == 128


def test_normalisation_gains_known_cells():
    gains = normalisation_gains(published_accuracies("top1")).set_index(["model", "dataset", "protocol"])["gain"]
    assert gains[("MaskFeat (ViT-B/16)", "Imagenet", "LP")] == pytest.approx(48.0)
    assert gains[("SimSiam (RN-50)", "Imagenet", "kNN")] == pytest.approx(0.4)
    assert gains[("SimCLR (RN-50)", "Quickdraw", "kNN")] == pytest.approx(-9.6)


def test_survey_counts_and_citations():
    counts = protocol_counts().set_index(["domain", "protocol"])["papers"]
    assert counts[("in_domain", "PFT")] == 1 and counts[("in_domain", "SVM")] == 2
    pft = citation_checks().set_index("protocol").loc["PFT"]
    assert pft["cited and surveyed"] == 2 and pft["ticked in S.1"] == 1 and "Jigsaw" in pft["not ticked"]


def test_inaturalist_seed_points():
    points = seed_points().set_index("model")
    assert points.loc["SwAV (RN-50)", "ood_mean"] == pytest.approx(47.1133, abs=1e-3)
    assert points.loc["SwAV (RN-50)", "id"] == 73.2  # ImageNet LP^BN


@pytest.mark.parametrize("artefact", TABLES)
def test_table_views(artefact):
    assert not table_view(artefact).empty


def test_draw_table_returns_the_data():
    import matplotlib.pyplot as plt

    fig, data = draw_table("table_s8")
    plt.close(fig)
    assert len(data) == 20


# --- audit and claims ------------------------------------------------------------------------


def test_new_audit_rows():
    from lib.audit import audit_paper

    frame = audit_paper("ssl_protocols").set_index("quantity")
    figure03 = frame[frame["artefact"] == "figure03"]
    assert len(figure03) == 5 and (figure03["status"] == "not_checkable").all()
    assert "95% CI" in figure03["note"].iloc[0]
    assert frame.loc["Sec. 3 Category group: datasets (size the text's definition implies)", "status"] == "mismatch"
    assert frame.loc["Sec. 2.2 papers cited for PFT that S.1 ticks (in domain)", "status"] == "mismatch"
    costs = frame[frame.index.str.contains("cheaper than")]
    assert len(costs) == 5 and (costs["status"] == "ok").all()


def test_claims_ledger_is_computed():
    ledger = {c.claim_id: c for c in claims()}
    assert len(ledger) == len(claims())  # unique ids
    for claim in ledger.values():
        verdict = claim.assess()
        assert isinstance(verdict, Verdict) and verdict.verdict in VERDICTS and verdict.evidence
    assert ledger["id-protocols-correlate"].assess().verdict == "supported"
    unscaled = ledger["unscaled-strong-knn"].assess()  # strong for MaskFeat, not for SimSiam
    assert unscaled.verdict == "partly_supported" and "SimSiam (RN-50): 0.4" in unscaled.evidence
    assert ledger["style-significantly-lower"].assess().verdict == "not_checkable"


@pytest.mark.parametrize("values", [[3.0, 1.0, 2.0], [0.5, 0.5, 0.1, 0.9, 0.5], [2.0, 2.0], [7.0]])
def test_average_ranks_are_scipys_with_ties_averaged(values):
    from scipy.stats import rankdata

    from lib.ssl_protocols.shift_groups import _average_ranks

    array = np.array(values)
    np.testing.assert_array_equal(_average_ranks(array), rankdata(array))
