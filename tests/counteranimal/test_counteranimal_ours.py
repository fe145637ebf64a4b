"""Our run in the paper's scatter figures: the points, the claims' quantities, the paired panel."""

from __future__ import annotations

from dataclasses import replace

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from lib.counteranimal import ours
from lib.counteranimal.ours import (
    bar_findings, clip_drop, drop_gap, findings, high_quality_residual, imagenet_drop, imagenet_residual,
    interval_over_seeds, our_bars, our_panel, our_points, quality_gap, size_drop_change,
)
from lib.counteranimal.study import StudySettings

# per seed: CLIPs on the line counter = common − 10, ImageNet 5 above it, CLIP-HQ 2 above the CLIP line
MODELS = [("CLIP a", "CLIP", "tiny_clip", 100, 60.0), ("CLIP b", "CLIP", "tiny_clip", 200, 70.0),
          ("CLIP c", "CLIP", "tiny_clip", 400, 80.0), ("HQ", "CLIP-HQ", "tiny_clip", 200, 75.0),
          ("IN a", "ImageNet", "tiny_vit", 100, 65.0), ("IN b", "ImageNet", "tiny_resnet", 100, 85.0)]
ABOVE = {"CLIP": 0.0, "CLIP-HQ": 2.0, "ImageNet": 5.0}
PARAMS_M = {"tiny_clip": 0.2, "tiny_vit": 0.05, "tiny_resnet": 0.3,  # as `run_study` adds them
            "tiny_clip_small": 0.1, "tiny_clip_large": 0.4}
# Fig. 7's ladder at n = 200 beside "CLIP b": the small tower drops 16, the large one 7 (CLIP b: 10)
LADDER = [("CLIP s", "CLIP", "tiny_clip_small", 200, 70.0), ("CLIP l", "CLIP", "tiny_clip_large", 200, 70.0)]
LADDER_DROPS = {"CLIP s": 16.0, "CLIP l": 7.0}


def accuracy_frame(seeds=(0, 1), noise=0.0, models=MODELS) -> pd.DataFrame:
    """Rows in the study's `accuracies` schema for `models`, one run per seed."""
    rng = np.random.default_rng(0)
    rows = []
    for seed in seeds:
        for model, family, architecture, images, common in models:
            counter = common - LADDER_DROPS.get(model, 10) + ABOVE.get(family, 0.0) + noise * rng.normal()
            for averaging in ("balanced", "micro"):
                for metric, value in (("common", common), ("counter", counter), ("drop", common - counter)):
                    rows.append({"model": model, "family": family, "architecture": architecture, "images": images,
                                 "correlation": 0.8, "seed": seed, "averaging": averaging, "metric": metric,
                                 "value": value, "params_m": PARAMS_M.get(architecture, np.nan)})
    return pd.DataFrame(rows).assign(tier="tiny")


def test_points_are_one_row_per_model_and_seed_with_marker_columns():
    points = our_points(accuracy_frame())
    assert len(points) == 2 * len(MODELS)
    assert {"common", "counter", "drop", "params_m", "data_m", "family"} <= set(points.columns)
    assert (points["params_m"] > 0).all() and np.allclose(points["data_m"], points["images"] / 1e6)


def test_the_claims_quantities_on_a_known_answer():
    points = our_points(accuracy_frame(seeds=(0,)))
    assert clip_drop(points) == pytest.approx((10 * 3 + 8) / 4)
    assert imagenet_drop(points) == pytest.approx(5.0)
    assert drop_gap(points) == pytest.approx(9.5 - 5.0)
    assert imagenet_residual(points) == pytest.approx(5.0 - 0.5, abs=0.5)  # the joint CLIP line includes HQ
    assert high_quality_residual(points) == pytest.approx(2.0)
    lonely = points[points["family"] != "CLIP-HQ"]
    assert np.isnan(high_quality_residual(lonely))


def test_intervals_are_over_seeds_or_a_bootstrap_over_models_for_one_seed():
    many = our_points(accuracy_frame(seeds=(0, 1, 2), noise=0.5))
    estimate, interval = interval_over_seeds(many, high_quality_residual)
    assert "t-interval over 3 seeds" in interval.method and interval.low < estimate < interval.high
    one = our_points(accuracy_frame(seeds=(0,), noise=0.5))
    _, interval = interval_over_seeds(one, drop_gap)
    assert "bootstrap over" in interval.method
    verdicts = {f.quantity.split(" (")[0]: f.verdict for f in findings(many)}
    assert verdicts["mean CLIP drop, common − counter"] == "supported"
    assert verdicts["mean residual of the CLIP-HQ models from the other CLIPs' line"] == "supported"


def test_our_panel_draws_the_paper_and_ours_with_one_function():
    settings = StudySettings.load("params/tiny/counteranimal/study.yaml")
    for artefact in ours.PANELS:
        data, fig, found = our_panel(artefact, settings, accuracy_frame())
        assert set(data["source"]) == {"paper", "ours"}
        assert {"CLIP", "ImageNet"} <= set(data.loc[data["source"] == "paper", "family"])
        assert len(found) == len(ours.CLAIMS)
        plt.close(fig)
    data, fig, _ = our_panel("figure02", settings, accuracy_frame())  # both paper panels (1 vs 1000, 1 vs 20) and ours
    assert len(fig.axes) == 3 and set(data["setup"]) == {"1 vs 1000", "1 vs 20", "1 vs 10"}
    assert "LVLM" in set(data.loc[data["setup"] == "1 vs 20", "family"])
    plt.close(fig)
    _, fig, _ = our_panel("figure13", settings, accuracy_frame())  # two scatters, each with its numbered key
    key = [t.get_text() for t in fig.axes[3].texts]
    assert len(fig.axes) == 4 and key == [" 1  CLIP n=100", " 2  CLIP n=200", " 3  CLIP n=400", " 4  CLIP-HQ n=200",
                                          " 5  ViT n=100 (supervised)", " 6  ResNet n=100 (supervised)"]
    numbers = sorted(t.get_text() for t in fig.axes[2].texts)  # every point (model x seed) carries its number
    assert numbers == sorted(str(i) for i in range(1, 7) for _ in range(2))
    plt.close(fig)
    with pytest.raises(KeyError, match="no our-run panel"):
        our_panel("table03", settings, accuracy_frame())


def test_the_bars_quantities_on_a_known_answer():
    points = our_points(accuracy_frame(seeds=(0,)))
    points.loc[points["model"] == "CLIP c", "drop"] = 4.0  # CLIP drops 10, 10, 4 at n = 100, 200, 400
    assert size_drop_change(high_quality=False)(points) == pytest.approx(-6.0)
    assert np.isnan(size_drop_change(high_quality=True)(points))  # one size: no change to measure
    assert quality_gap("drop")(points) == pytest.approx(8.0 - 10.0)  # HQ and CLIP share n = 200 only
    assert quality_gap("common")(points) == pytest.approx(75.0 - 70.0)
    assert np.isnan(quality_gap("drop")(points[points["family"] != "CLIP-HQ"]))
    found = bar_findings("figure08", our_points(accuracy_frame(seeds=(0, 1, 2), noise=0.5)))
    assert [f.claim_id for f in found] == ["high-quality-data"] * 2 and found.verdict == "supported"


def test_our_bars_draw_each_panels_models_in_order_with_the_paper_function():
    settings = StudySettings.load("params/tiny/counteranimal/study.yaml")
    expected = {"figure06": [["CLIP n=100", "CLIP n=200", "CLIP n=400"], ["CLIP-HQ n=200"]],
                "figure08": [["CLIP n=100", "CLIP n=200", "CLIP-HQ n=200", "CLIP n=400"]],
                "figure09": [["CLIP n=100", "CLIP n=200", "CLIP n=400", "ViT n=100 (supervised)"]]}
    for artefact, panels in expected.items():
        fig, data = our_bars(artefact, settings, accuracy_frame())
        assert [list(part["model"]) for _, part in data.groupby("panel", sort=False)] == panels
        assert [[t.get_text() for t in ax.get_xticklabels()] for ax in fig.axes] == panels
        assert all(ax.get_ylim() == (0, 125) and ax.get_ylabel().endswith("1 vs 10") for ax in fig.axes)
        assert set(data["source"]) == {"ours"} and "2 seeds" in fig.get_suptitle()
        plt.close(fig)
    _, data = our_bars("figure06", settings, accuracy_frame())
    assert data.set_index("model").loc["CLIP-HQ n=200", "drop"] == pytest.approx(8.0)


def test_the_backbone_ladder_is_figure07s_and_left_out_of_the_data_comparisons():
    with_ladder = accuracy_frame(models=MODELS + LADDER)
    points = our_points(with_ladder)
    assert set(points.loc[points["ladder"], "model"]) == {"CLIP s", "CLIP b", "CLIP l"}
    assert set(points.loc[~points["base"], "model"]) == {"CLIP s", "CLIP l"}
    one_seed = points[points["seed"] == 0]
    assert ours.backbone_drop_change(one_seed) == pytest.approx(7.0 - 16.0)
    assert np.isnan(ours.backbone_drop_change(our_points(accuracy_frame(seeds=(0,)))))  # no ladder
    without = our_points(accuracy_frame(seeds=(0,)))  # the data comparisons do not see the ladder
    for statistic in (size_drop_change(high_quality=False), quality_gap("drop"), quality_gap("common")):
        assert statistic(one_seed) == pytest.approx(statistic(without))
    settings = StudySettings.load("params/tiny/counteranimal/study.yaml")
    fig, data = our_bars("figure07", settings, with_ladder)
    assert list(data["model"]) == ["CLIP n=200 (small)", "CLIP n=200", "CLIP n=200 (large)"]  # smallest tower first
    plt.close(fig)
    _, data = our_bars("figure06", settings, with_ladder)
    assert "CLIP n=200 (small)" not in set(data["model"])
    found = bar_findings("figure07", our_points(accuracy_frame(seeds=(0, 1, 2), noise=0.5, models=MODELS + LADDER)))
    assert [f.claim_id for f in found] == ["backbone-scale"] * 2 and found.verdict == "supported"
    assert ours.falling_step_share(one_seed) == pytest.approx(1.0 - 0.5)  # 16 -> 10 -> 7: falls at both steps
    one_seed = one_seed.assign(drop=one_seed["drop"].where(one_seed["model"] != "CLIP l", 12.0))  # 16 -> 10 -> 12
    assert ours.falling_step_share(one_seed) == pytest.approx(0.5 - 0.5)
    with pytest.raises(ValueError, match="no model of this study is in the comparisons"):
        our_bars("figure07", settings, accuracy_frame())


def test_a_registry_study_draws_the_papers_own_panels(monkeypatch):
    rows = {"ca_b16": "CLIP-LAION2B-ViT/B/16 S34B B88K", "ca_l14": "CLIP-LAION2B-ViT/L/14 S32B B82K",
            "ca_rn50": "CLIP-OpenAI-RN50"}
    monkeypatch.setattr(ours, "table_row", lambda key: rows[key].split(" ")[0])
    frame = accuracy_frame(seeds=(0,), models=[(key, "CLIP", key, 0, 70.0 + i) for i, key in enumerate(rows)])
    settings = StudySettings.load("params/tiny/counteranimal/study.yaml")
    settings = replace(settings, source="registry")
    fig, data = our_bars("figure07", settings, frame)
    assert [list(part["model"]) for _, part in data.groupby("panel", sort=False)] == [
        ["CLIP-LAION2B-ViT/B/16", "CLIP-LAION2B-ViT/L/14"], ["CLIP-OpenAI-RN50"]]  # the paper's order, rows we ran
    plt.close(fig)
    monkeypatch.setattr(ours, "open_study", lambda *args: (replace(settings, curator="ca_b16"), None))
    monkeypatch.setattr(ours, "_accuracies", lambda *args: frame)
    _, curated, groups = ours.curation("study.yaml", "results")  # the real groups are the curator's choice already
    assert curated.loc[curated["curator"], "model"].unique().tolist() == ["ca_b16"]
    assert groups.empty and {"class", "common_background", "counter_background", "kept", "seed"} <= set(groups.columns)
    points = our_points(curated)  # relatives by the Table 3 row: LAION2B ViT/L/14 shares the curator's data
    assert points.set_index("model").loc["ca_l14", ["data", "backbone"]].tolist() == ["LAION2B", "ViT/L/14"]
    assert ours.other_backbone_drop(points) == pytest.approx(10.0) and np.isnan(ours.other_data_drop(points))


def test_a_registry_studys_comparisons_are_defined_by_the_papers_annotations(monkeypatch):
    rows = {"l2b_b16": ("CLIP", "CLIP-LAION2B-ViT/B/16", 20.0), "l400m_b16": ("CLIP", "CLIP-LAION400M-ViT/B/16", 12.0),
            "oai_b16": ("CLIP", "CLIP-OpenAI-ViT/B/16", 16.0), "l2b_l14": ("CLIP", "CLIP-LAION2B-ViT/L/14", 15.0),
            "dfn_b16": ("CLIP-DFN", "CLIP-DFN2B-ViT/B/16", 9.0), "dc_b16": ("CLIP-DC", "CLIP-DataComp1B-ViT/B/16", 11.0),
            "in_b16": ("ImageNet", "ViT/B/16", 7.0)}
    monkeypatch.setattr(ours, "table_row", lambda key: rows[key][1])
    frame = accuracy_frame(seeds=(0,), models=[(key, family, key, 0, 70.0) for key, (family, _, _) in rows.items()])
    points = our_points(frame).set_index("model")
    points["drop"] = [rows[key][2] for key in points.index]
    # the paper's marker annotations (published.BACKBONE_PARAMS, DATA_SIZE), which the scatter and the bars read
    assert points.loc["l2b_b16", ["params_m", "data_m"]].tolist() == [86, 2000]
    assert points.loc["in_b16", ["data", "data_m"]].tolist() == ["ImageNet-1K", 1.28]
    assert points["high_quality"].tolist() == [False] * 4 + [True] * 2 + [False]
    assert points["ladder"].tolist() == [True, False, False, True, False, False, False]  # LAION2B: B/16 and L/14
    points = points.reset_index()
    assert size_drop_change(high_quality=False)(points) == pytest.approx(20.0 - (12.0 + 16.0) / 2)  # B/16: 400M -> 2B
    assert size_drop_change(high_quality=True)(points) == pytest.approx(9.0 - 11.0)  # B/16: DataComp 1.4B -> DFN 2B
    assert quality_gap("drop")(points) == pytest.approx(9.0 - 20.0)  # B/16 at 2B, the one cell both kinds have
    assert ours.backbone_drop_change(points) == pytest.approx(15.0 - 20.0)  # LAION2B's ladder, B/16 -> L/14


def test_a_registry_studys_ladders_are_figure07s_resnets_and_vits_apart(monkeypatch):
    """OpenAI's ResNets and ViTs are two ladders (the paper's count); Fig. 7's findings read the models it draws,
    so not ViT/B/32 (Sec. 5.2 leaves it out) nor the LAION400M ladder."""
    rows = {"rn50": ("CLIP-OpenAI-RN50", 25.0), "rn101": ("CLIP-OpenAI-RN101", 27.0),
            "rn50x4": ("CLIP-OpenAI-RN50×4", 20.0), "b16": ("CLIP-OpenAI-ViT/B/16", 18.0),
            "b32": ("CLIP-OpenAI-ViT/B/32", 30.0), "l14": ("CLIP-OpenAI-ViT/L/14", 12.0),
            "l400m_b16": ("CLIP-LAION400M-ViT/B/16", 9.0), "l400m_l14": ("CLIP-LAION400M-ViT/L/14", 40.0)}
    monkeypatch.setattr(ours, "table_row", lambda key: rows[key][0])
    frame = accuracy_frame(seeds=(0,), models=[(key, "CLIP", key, 0, 70.0) for key in rows])
    points = our_points(frame).set_index("model")
    points["drop"] = [rows[key][1] for key in points.index]
    assert points["ladder"].all()  # every CLIP here shares its data and kind with another backbone
    points = ours.drawn_models("figure07", points.reset_index())  # the models Fig. 7 draws
    assert points["model"].tolist() == ["rn50", "rn101", "rn50x4", "b16", "l14"]
    # ResNets 25 -> 27 -> 20 (RN50×4, 87 M, above RN101, 56 M), ViTs 18 -> 12 (B/16, 86 M, below L/14)
    assert [d.tolist() for d in ours._ladders(points)] == [[25.0, 27.0, 20.0], [18.0, 12.0]]
    assert ours.backbone_drop_change(points) == pytest.approx(((20 - 25) + (12 - 18)) / 2)
    assert ours.falling_step_share(points) == pytest.approx(2 / 3 - 0.5)
    assert len(ours.bar_findings("figure07", our_points(frame).assign(drop=[rows[k][1] for k in rows]))) == 2
    # one seed: the interval is a bootstrap over the units (steps, ladders), never a resample of the models
    estimate, interval = ours.interval_over_seeds(points, ours.falling_step_share)
    assert estimate == pytest.approx(2 / 3 - 0.5) and "over 3 steps up the ladders" in interval.method
    assert interval.low <= estimate <= interval.high and interval.high == pytest.approx(0.5)
    estimate, interval = ours.interval_over_seeds(points, ours.backbone_drop_change)
    assert "over 2 ladders" in interval.method and (interval.low, interval.high) == pytest.approx((-6.0, -5.0))


def test_precompute_runs_nothing_for_other_artefacts():
    assert ours.precompute({"study_params": "params/tiny/counteranimal/study.yaml", "results_dir": "nowhere"},
                           ["table03", "figure03"]) == 0


def background_frame(seeds=(0, 1)) -> pd.DataFrame:
    """Per-(class, background) accuracies of three CLIPs (the curator "CLIP b", a ladder rung "CLIP s" and a
    CLIP on other data "CLIP c"): class zero varies across backgrounds, class one does not."""
    accuracy = {"CLIP b": {"zero": {"grass": 100, "water": 90, "snow": 60}, "one": {"grass": 80, "water": 80, "snow": 78}},
                "CLIP s": {"zero": {"grass": 90, "water": 80, "snow": 70}, "one": {"grass": 50, "water": 90, "snow": 10}},
                "CLIP c": {"zero": {"grass": 95, "water": 95, "snow": 85}, "one": {"grass": 70, "water": 70, "snow": 70}}}
    members = {"CLIP b": ("tiny_clip", 200), "CLIP s": ("tiny_clip_small", 200), "CLIP c": ("tiny_clip", 400)}
    rows = [{"model": model, "family": "CLIP", "architecture": members[model][0], "images": members[model][1],
             "correlation": 0.8, "seed": seed, "class": name, "background": background, "items": 10, "accuracy": value}
            for seed in seeds for model, classes in accuracy.items() for name, row in classes.items()
            for background, value in row.items()]
    return pd.DataFrame(rows)


def test_the_curator_chooses_the_groups_and_every_model_is_scored_on_them():
    backgrounds = background_frame()
    groups = ours.curated_groups(backgrounds, "CLIP b")
    assert len(groups) == 2 * 2 and set(groups["seed"]) == {0, 1}
    zero = groups[(groups["class"] == "zero") & (groups["seed"] == 0)].iloc[0]
    assert (zero["common_background"], zero["counter_background"], zero["spread"], zero["kept"]) == ("grass", "snow", 40, True)
    assert not groups.loc[groups["class"] == "one", "kept"].any()  # 2 points: below the 5-point threshold
    curated = ours.curated_accuracies(backgrounds, groups)
    drops = curated[curated["metric"] == "drop"].groupby("model")["value"].mean()
    assert drops.to_dict() == {"CLIP b": 40.0, "CLIP c": 10.0, "CLIP s": 20.0}  # class zero alone, grass vs snow
    points = our_points(curated.assign(params_m=curated["architecture"].map(PARAMS_M), tier="tiny",
                                       curator=curated["model"] == "CLIP b"))
    one_seed = points[points["seed"] == 0]
    assert ours.other_backbone_drop(one_seed) == pytest.approx(20.0)  # the small tower on the curator's data
    assert ours.other_data_drop(one_seed) == pytest.approx(10.0)  # the curator's backbone on 400 images
    assert np.isnan(ours.self_selection_gain(one_seed))  # without own drops
    own = ours.own_drops(backgrounds)  # CLIP s would keep both classes (drops 20, 80), CLIP c class zero (grass vs snow)
    assert own[own["seed"] == 0].set_index("model")["value"].to_dict() == {"CLIP b": 40.0, "CLIP s": 50.0, "CLIP c": 10.0}
    with_own = our_points(pd.concat([curated, own]).assign(
        params_m=lambda f: f["architecture"].map(PARAMS_M), tier="tiny", curator=lambda f: f["model"] == "CLIP b"))
    assert ours.self_selection_gain(with_own[with_own["seed"] == 0]) == pytest.approx(((50 - 20) + (10 - 10)) / 2)
    assert "CLIP n=200 (curator)" in set(ours.our_labels(points))
    with pytest.raises(ValueError, match="has no run"):
        ours.curated_groups(backgrounds, "CLIP z")
    flat = backgrounds.assign(accuracy=50.0)  # no class varies: nothing kept, nothing scored
    assert ours.curated_accuracies(flat, ours.curated_groups(flat, "CLIP b")).empty


def test_class_wise_drops_on_the_curators_groups_are_drawn_by_the_papers_function(monkeypatch):
    backgrounds = background_frame()
    per_class = ours.curated_class_drops(backgrounds, ours.curated_groups(backgrounds, "CLIP b"))
    assert per_class.groupby("model")["drop"].mean().to_dict() == {"CLIP b": 40.0, "CLIP c": 10.0, "CLIP s": 20.0}

    class FakeStudy:  # the study's summaries, read back
        def background_accuracies(self):
            return backgrounds
    settings = replace(StudySettings.load("params/tiny/counteranimal/study.yaml"), curator="CLIP:tiny_clip:200")
    monkeypatch.setattr(ours, "open_study", lambda *args: (settings, FakeStudy()))
    monkeypatch.setattr(ours, "zoo_member", lambda *args: type("Member", (), {"name": "CLIP b"}))
    _, drops = ours.class_drops("params/tiny/counteranimal/study.yaml", "results")
    assert set(drops["class_id"]) == {0} and drops.loc[drops["curator"], "model"].unique().tolist() == ["CLIP b"]
    assert ours.positive_class_share(drops[drops["seed"] == 0]) == pytest.approx(1.0 - 0.5)  # both others drop
    fig, data = ours.our_class_drops("figure15", settings, drops)
    assert [ax.get_title().split(":")[0] for ax in fig.axes] == ["CLIP n=200 (curator)", "CLIP n=200 (small)", "CLIP n=400"]
    assert data.set_index("model").loc["CLIP n=200 (small)", ["value", "low", "high"]].tolist() == [20.0, 20.0, 20.0]
    plt.close(fig)
    fig, data = ours.our_class_drops("figure04", settings, drops)
    assert len(fig.axes) == 1 and set(data["model"]) == {"CLIP n=200 (curator)"} and set(data["source"]) == {"ours"}
    plt.close(fig)
    found = ours.class_findings(drops)
    assert [f.claim_id for f in found] == ["classwise-trends"]


def test_a_registry_studys_class_drops_are_numbered_by_table_2(monkeypatch):
    # the folders' ImageNet indices: ostrich 9 (Table 2's class 1), king snake 56 (class 14, printed garbled)
    rows = pd.DataFrame({"model": "ca_b32", "family": "CLIP", "architecture": "ca_b32", "images": 0, "correlation": np.nan,
                         "seed": 0, "target": [9, 56], "common": [90.0, 80.0], "counter": [70.0, 85.0], "drop": [20.0, -5.0]})

    class FakeStudy:
        def class_drops(self):
            return rows
    settings = replace(StudySettings.load("params/tiny/counteranimal/study.yaml"), source="registry", curator="ca_b32")
    monkeypatch.setattr(ours, "open_study", lambda *args: (settings, FakeStudy()))
    rows_of = {"ca_b32": "CLIP-LAION400M-ViT/B/32", "dfn": "CLIP-DFN2B-ViT/B/16", "b16": "CLIP-LAION400M-ViT/B/16"}
    monkeypatch.setattr(ours, "table_row", rows_of.get)
    _, drops = ours.class_drops("params/full/counteranimal/study.yaml", "results")
    assert drops["class_id"].tolist() == [1, 14] and drops["curator"].all() and set(drops["tier"]) == {"full"}
    fig, data = ours.our_class_drops("figure04", settings, drops)  # the paper's panel: its curator, which ran
    assert data["model"].unique().tolist() == ["CLIP-LAION400M-ViT/B/32"] and data["value"].tolist() == [20.0, -5.0]
    plt.close(fig)
    # Fig. 15's claim reads the CLIPs Fig. 15 draws: a DFN2B CLIP with falling drops is left out
    other = drops.assign(model="dfn", label="CLIP-DFN2B-ViT/B/16", curator=False, drop=[-1.0, -2.0])
    drawn = drops.assign(model="b16", label="CLIP-LAION400M-ViT/B/16", curator=False, drop=[3.0, 4.0])
    assert ours.class_findings(pd.concat([drops, other, drawn], ignore_index=True))[0].estimate == pytest.approx(0.5)
