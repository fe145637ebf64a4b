"""Every Spearman ρ figure of ssl_protocols, redraw and paired alike, on one diverging −1…1 scale; Fig. 3 / S.2
in the paper's protocol-major layout with our groups under the paper's; Figs. 2 / S.3 with their ID-vs-OOD panel;
Fig. S.4 with the paper's three unprinted targets above our one."""

from contextlib import contextmanager

import matplotlib
import matplotlib.pyplot as plt
import pytest

from lib.ssl_protocols.accuracies import published_accuracies
from lib.ssl_protocols.inaturalist import draw_unprinted_matrices, figure_s4_cells
from lib.ssl_protocols.ours import our_panel, run_study
from lib.ssl_protocols.rho_panels import RHO_LABEL, RHO_LIMITS
from lib.ssl_protocols.shift_groups import draw_group_panels, group_correlations, in_group_order

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def study():
    """The tiny study, computed into build/tiny/results on first use and read back after."""
    return run_study("params/tiny/ssl_protocols/study.yaml", "build/tiny/results")


@contextmanager
def pair(study, artefact):
    """The artefact's paired data and figure on the tiny study (the figure closed after)."""
    settings, frame = study
    data, fig, _ = our_panel(artefact, settings, frame)
    try:
        yield data, fig
    finally:
        plt.close(fig)


def heatmaps(fig):
    return [ax for ax in fig.axes if ax.collections and ax.get_xlabel()]


def colour_bar(fig):
    return next(ax for ax in fig.axes if ax.get_ylabel() == RHO_LABEL)


def test_groups_are_drawn_in_the_papers_order_ours_under_theirs():
    assert in_group_order(["style", "Fine", "categorical", "granularity", "Coarse"]) == [
        "Coarse", "Fine", "granularity", "categorical", "style"]


def test_redraws_use_the_one_rho_scale():
    for fig in (draw_group_panels(group_correlations(published_accuracies("top1")), "Fig. 3"),
                draw_unprinted_matrices(figure_s4_cells(), "Fig. S.4")):
        try:
            assert {ax.collections[0].get_clim() for ax in heatmaps(fig)} == {RHO_LIMITS}
            assert colour_bar(fig)
        finally:
            plt.close(fig)


@pytest.mark.parametrize("artefact, panels", [("figure03", 6), ("figure_s2", 6), ("figure02", 4), ("figure_s3", 4),
                                              ("figure_s4", 4)])
def test_pairs_draw_both_sources_on_the_rho_scale(study, artefact, panels):
    with pair(study, artefact) as (_, fig):
        drawn = heatmaps(fig)
        assert len(drawn) == panels
        assert {ax.collections[0].get_clim() for ax in drawn} == {RHO_LIMITS}
        assert colour_bar(fig)


def test_figure03_pair_is_protocol_major_with_boxes_and_the_group_mapping(study):
    with pair(study, "figure03") as (_, fig):
        drawn = heatmaps(fig)
        assert [ax.get_xlabel() for ax in drawn] == ["OOD kNN", "OOD LP", "OOD FT"] * 2
        ours = [t.get_text().split("\n")[0] for t in drawn[3].get_xticklabels()]
        assert ours == ["granularity", "categorical", "style"]
        assert all(len(ax.patches) == 1 for ax in drawn)  # the box where ID and OOD protocol match
        assert "under Coarse, Fine" in fig.get_supxlabel()


def test_figure_s2_pair_keeps_the_undefined_granularity_columns_and_says_why(study):
    with pair(study, "figure_s2") as (data, fig):
        label = heatmaps(fig)[3].get_xticklabels()[0].get_text()
        assert label.startswith("granularity") and "top-5 undefined" in label and "(2 classes)" in label
        assert data.loc[(data["source"] == "ours") & data["eval_dataset"].str.startswith("granularity"),
                        "value"].isna().all()


def test_figure02_and_s3_pairs_hold_the_id_vs_ood_panel(study):
    for artefact in ("figure02", "figure_s3"):
        with pair(study, artefact) as (data, _):
            pass
        for source in ("paper", "ours"):
            part = data[data["source"] == source]
            assert part["eval_dataset"].str.startswith("ID ").any()
            assert part["eval_dataset"].str.startswith("OOD ").any()
