"""Known answers for our-run figures drawn like the paper's: Fig. 4's bars for two of our models, the
Fig. 6 grid of paper and ours, the chance-level rule of Tables S.2/S.3 and the family colours."""

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from lib.ssl_protocols.batch_norm import our_figure04_frame, paper_and_ours_figure04, study_fine_tuning_steps
from lib.ssl_protocols.ours import _figure04_models, chance_level_runs, our_panel, run_study
from lib.ssl_protocols.scatter import FAMILY_COLOURS, backbone_marker, family, paper_and_ours_scatter_grid

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def study():
    """The tiny study, computed into build/tiny/results on first use and read back after."""
    return run_study("params/tiny/ssl_protocols/study.yaml", "build/tiny/results")


def made_up_study() -> pd.DataFrame:
    """Two models: in domain every fine-tuning protocol (the head adds 5 points), FT on one OOD domain."""
    rows = []
    for model, base in (("a", 50.0), ("b", 30.0)):
        for protocol, value in (("FT", base), ("FT10%", base), ("FT10%_BN", base + 5), ("FT1%", base - 10),
                                ("FT1%_BN", base - 5)):
            rows.append((model, "digits", protocol, value))
        rows.append((model, "photos", "FT", base / 2))
    return pd.DataFrame(rows, columns=["model", "dataset", "protocol", "value"])


def test_our_figure04_frame_pairs_the_few_shot_protocols_only():
    bars = our_figure04_frame(made_up_study(), ["a", "b"], "digits", {"FT": 200, "FT-10%": 90, "FT-1%": 30})
    a = bars[bars["model"] == "a"].set_index(["dataset", "protocol", "batch_norm"])
    assert a.loc[("digits", "FT-10%", True), "accuracy"] == 55.0
    assert a.loc[("digits", "FT-1%", False), "accuracy"] == 40.0
    assert np.isnan(a.loc[("digits", "FT", True), "accuracy"])  # no batch-norm run for full FT
    assert np.isnan(a.loc[("photos", "FT", True), "accuracy"]) and a.loc[("photos", "FT", False), "accuracy"] == 25.0
    assert a.loc[("digits", "FT-1%", True), "steps"] == 30 and np.isnan(a.loc[("photos", "FT", False), "steps"])


def test_study_fine_tuning_steps():
    labels = np.repeat(np.arange(10), 126)  # 1,260 images, 126 per class
    steps = study_fine_tuning_steps(labels, {"finetune": {"batch_size": 64, "epochs": 10},
                                             "fewshot_finetune": {"batch_size": 64, "epochs": 30}},
                                    {"FT-10%": 0.1, "FT-1%": 0.01})
    # FT: ceil(1260 / 64) = 20 batches × 10; FT-10 %: 13 per class = 130 images, 3 batches × 30;
    # FT-1 %: 1 per class = 10 images in one batch of 10, × 30
    assert steps == {"FT": 200, "FT-10%": 90, "FT-1%": 30}


def test_paired_figure04_draws_both_sources_on_one_axis():
    bars = our_figure04_frame(made_up_study(), ["a", "b"], "digits", {"FT-10%": 90, "FT-1%": 30})
    frame = pd.concat([bars.assign(source="paper"), bars.assign(source="ours")], ignore_index=True)
    fig = paper_and_ours_figure04(frame, ("paper: x", "ours: y"))
    try:
        assert [f.get_suptitle() for f in fig.subfigs] == ["paper: x", "ours: y"]
        assert len({ax.get_ylim() for ax in fig.axes}) == 1
        labels = [t.get_text() for t in fig.subfigs[1].axes[0].get_xticklabels()]
        assert labels.index("digits FT-1% (30 steps)") < labels.index("digits FT-10% (90 steps)")
        assert any(t.get_text() == "n/r" for t in fig.subfigs[1].axes[0].texts)
    finally:
        plt.close(fig)


def test_figure04_models_take_a_discriminative_resnet_and_a_generative_vit(study):
    _, frame = study
    assert _figure04_models(frame) == ["supervised-resnet-1ep", "masked-vit-1ep"]  # tiny has no SimCLR ResNet
    zoo = pd.DataFrame({"model": ["simclr-resnet-4ep", "supervised-resnet-15ep", "simclr-resnet-15ep", "masked-vit-15ep"],
                        "method": ["simclr", "supervised", "simclr", "masked"],
                        "backbone": ["tiny_resnet", "tiny_resnet", "tiny_resnet", "tiny_vit"]})
    assert _figure04_models(zoo) == ["simclr-resnet-15ep", "masked-vit-15ep"]
    # a registry study: the paper's own two, by their names in the paper's tables (`Study.method_backbone`)
    registry = pd.DataFrame({"model": ["ssl_jigsaw_rn50", "ssl_maskfeat_vitb16", "ssl_dino_rn50"],
                             "method": ["Jigsaw", "MaskFeat", "DINO"], "backbone": ["RN-50", "ViT-B/16", "RN-50"]})
    assert _figure04_models(registry) == ["ssl_dino_rn50", "ssl_maskfeat_vitb16"]


def test_a_registry_models_method_and_backbone_are_the_papers_names():
    from lib.ssl_protocols.study import Study, StudySettings

    study = Study(StudySettings.load("params/full/ssl_protocols/study.yaml"), "unused")
    named = [study.method_backbone(i) for i in range(len(study.model_names()))]
    assert ("MaskFeat", "ViT-B/16") in named and ("BEiT v2", "ViT-B/16") in named and ("DINO", "RN-50") in named
    assert family("BEiT v2") == "generative" and backbone_marker("ViT-B/16") == "^" and backbone_marker("RN-50") == "o"


def test_family_colours_and_markers():
    assert family("masked") == family("MaskFeat") == "generative"
    assert family("simclr") == family("DINO") == "discriminative"
    assert family("none") == "no pre-training" and set(FAMILY_COLOURS) >= {"discriminative", "generative", "no pre-training"}
    assert backbone_marker("ViT-B/16") == backbone_marker("tiny_vit") == "^"
    assert backbone_marker("RN-50") == backbone_marker("tiny_resnet") == "o"


def test_chance_level_runs_follow_the_rule():
    frame = pd.DataFrame({"model": ["m"] * 4, "dataset": ["digits", "digits", "parity", "parity"],
                          "protocol": ["FT", "LP", "FT", "FT"], "metric": ["top1", "top1", "top1", "top5"],
                          "value": [11.5, 12.5, 50.0, 100.0]})
    flagged = chance_level_runs(frame, {"digits": 10, "parity": 2})
    # within 2 points of 10 %; 12.5 is not; parity top-1 at 50 % is; top-5 of 2 classes (chance 100 %) never
    assert list(zip(flagged["dataset"], flagged["protocol"], flagged["metric"])) == [("digits", "FT", "top1"),
                                                                                    ("parity", "FT", "top1")]
    assert list(flagged["chance"]) == [10.0, 50.0]


def test_scatter_grid_puts_each_source_in_its_rows_with_r_and_n():
    rows = []
    for source, dataset in (("paper", "P1"), ("paper", "P2"), ("ours", "o1")):
        for metric in ("top1", "top5"):
            for protocol in ("kNN", "LP", "FT"):
                for i in range(4):
                    rows.append({"source": source, "metric": metric, "dataset": dataset, "protocol": protocol,
                                 "model": f"m{i}", "family": "discriminative", "backbone": "RN-50",
                                 "id": 10.0 * i, "ood": 100.0 if metric == "top5" and source == "ours" else 5.0 * i})
    points = pd.DataFrame(rows)
    fig = paper_and_ours_scatter_grid(points, {"paper": ["P1", "P2"], "ours": ["o1"]},
                                      {"paper": "ImageNet (ID) %", "ours": "digits (ID) %"}, ("paper: x", "ours: y"))
    try:
        paper, ours = fig.subfigs
        assert len(paper.axes) == 12 and len(ours.axes) == 6
        assert {ax.get_xlim() for ax in fig.axes} == {(0.0, 100.0)}
        first = [t.get_text() for t in paper.axes[0].texts]
        assert first == ["r = 1.00\nn = 4"]
        assert [t.get_text() for t in ours.axes[3].texts] == ["r undefined (constant)\nn = 4"]
    finally:
        plt.close(fig)


@pytest.mark.parametrize("artefact", ["figure06", "figure_s1", "figure_s5"])
def test_scatter_pairs_hold_top1_and_top5(study, artefact):
    settings, frame = study
    data, fig, _ = our_panel(artefact, settings, frame)
    plt.close(fig)
    ours = data[data["source"] == "ours"]
    assert set(ours["metric"]) == {"top1", "top5"}


def test_a_registry_studys_shift_groups_are_table_s6s_with_every_membership():
    from lib.ssl_protocols.ours import shift_groups
    from lib.ssl_protocols.study import StudySettings

    full = StudySettings.load("params/full/ssl_protocols/study.yaml")
    groups = shift_groups(full)
    assert groups["Coarse"] == ["PascalVOC", "Caltech-256", "iNat-family"]  # Caltech-256 and iNat Family twice
    assert groups["Fine"] == ["CUB", "iNat-genus", "iNat-species"]
    assert groups["Category"] == ["Caltech-256", "CUB", "iNat-family"]
    assert groups["Style"] == ["Clipart", "Infograph", "Painting", "Quickdraw", "Sketch"]
    # the figures drawn on one of our groups read the paper's datasets of that figure at full
    assert shift_groups(full, "granularity") == {"granularity": ["iNat-family", "iNat-genus", "iNat-species"]}
    assert shift_groups(full, "style")["style"][-2:] == ["Real", "Sketch"]  # Fig. S.1: all of ImageNet-D
    mini = StudySettings.load("params/mini/ssl_protocols/study.yaml")
    assert shift_groups(mini, "style") == {"style": ["digits_inverted", "digits_rotated"]}


def test_the_scatter_finding_reads_linearity_by_pearson_not_rank():
    """Fig. 6's claim is a more linear ID-OOD relationship: FT's OOD accuracy monotone in ID but curved ranks
    alike (Spearman 1 everywhere) and still falls behind the probes' straight lines by Pearson's r."""
    from lib.ssl_protocols.ours import _probing_minus_finetuning_panels
    from lib.ssl_protocols.scatter import panel_statistics

    ids = np.array([10.0, 20.0, 40.0, 60.0, 90.0])
    points = pd.concat([pd.DataFrame({"metric": "top1", "dataset": "d", "protocol": protocol, "model": list("abcde"),
                                      "id": ids, "ood": ood})
                        for protocol, ood in (("kNN", ids / 2), ("LP", ids - 5), ("FT", ids ** 4 / 90 ** 3))])
    statistics = panel_statistics(points)
    assert statistics["spearman"].tolist() == pytest.approx([1.0, 1.0, 1.0])
    pearson = statistics.set_index("protocol")["pearson"]
    assert _probing_minus_finetuning_panels(statistics, "top1") == pytest.approx(1.0 - pearson["FT"])
    assert 1.0 - pearson["FT"] > 0.05


def test_the_fig5_finding_is_the_vits_residual_from_the_line_over_every_model():
    """Rows (LP, FT, is ViT). The line over all four: FT = 0.2 + 1.2 LP, residuals -0.2, -0.6 (others) and 0.6, 0.2
    (ViTs): the ViTs' mean residual 0.4 minus the others' -0.4. The raw FT − LP gap would say 1 − 0 = 1."""
    from lib.ssl_protocols.ours import vit_residual_difference

    rows = np.array([[0, 0, 0], [2, 2, 0], [1, 2, 1], [3, 4, 1]], dtype=float)
    assert vit_residual_difference(rows) == pytest.approx(0.8)
    assert np.isnan(vit_residual_difference(rows[1:]))  # one model of the other kind: undefined
    assert np.isnan(vit_residual_difference(np.array([[1, 0, 0], [1, 2, 0], [1, 2, 1], [1, 4, 1]], dtype=float)))
