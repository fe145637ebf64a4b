"""Path readings (`lib.seq_to_final.path_readings`) and the path and trajectory drawings' layout
(`lib.seq_to_final.geometry_figures`), on hand-made frames with known answers; torch-free."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from lib.seq_to_final.geometry_figures import layer_title, path_figure, sequence_title, trajectory_figure
from lib.seq_to_final.path_readings import (layer_order, path_findings, path_profiles, profile_table,
                                            svcca_progress_findings)

ALPHAS = [0.0, 0.25, 0.5, 0.75, 1.0]


def _paths(curves: dict[tuple[str, int], list[float]], sequence: str = "TTT", batchnorm: str = "code") -> pd.DataFrame:
    return pd.DataFrame([{"sequence": sequence, "architecture": "Conv-1", "method": method, "seed": seed,
                          "analysis": "path", "batchnorm": batchnorm, "alpha": s, "accuracy": a}
                         for (method, seed), accuracies in curves.items() for s, a in zip(ALPHAS, accuracies)])


def test_profiles_measure_the_whole_path_not_only_its_end():
    frame = _paths({("FT", 0): [0.9, 0.9, 0.9, 0.9, 0.9],      # unchanged: w_T = w_(T-1)
                    ("JM", 0): [0.9, 0.5, 0.6, 0.7, 0.9],      # same end as start, a deep sag
                    ("SFT", 0): [0.2, 0.4, 0.6, 0.7, 1.0]})    # rises, last step .3 of a .8 rise
    profiles = path_profiles(frame).set_index("method")
    assert profiles.loc["FT", "unchanged"] and not profiles.loc["JM", "unchanged"]
    assert profiles.loc["JM", "rise"] == 0 and profiles.loc["JM", "max_change"] == pytest.approx(0.4)
    assert np.isnan(profiles.loc["JM", "jump_share"])  # no rise to share
    assert profiles.loc["SFT", "jump_share"] == pytest.approx(0.3 / 0.8)
    assert profiles.loc["SFT", "max_change"] == pytest.approx(0.8)


def test_flat_finding_fails_a_sagging_path_that_ends_where_it_started():
    sag = [0.9, 0.5, 0.6, 0.7, 0.9]
    frame = _paths({("FT", s): [0.9] * 5 for s in range(3)}
                   | {("SFT", s): [0.9, 0.89, 0.9, 0.91, 0.9] for s in range(3)}
                   | {("JM", s): [v - 0.01 * s for v in sag] for s in range(3)})
    findings = {f.quantity.split(",")[0]: f for f in path_findings(frame, "figure12", ["TTT Conv-1"])}
    assert findings["JM max_change"].verdict == "contradicted"
    assert findings["SFT max_change"].verdict == "supported"
    assert "3 of 3 seeds' paths unchanged, left out; 0 defined" in findings["FT max_change"].quantity
    assert findings["FT max_change"].verdict == "not_checkable"  # flat because nothing moved: no reading
    assert profile_table(frame, ["TTT Conv-1"]).loc[("TTT", "Conv-1", "FT"), ("unchanged", "seeds")] == "3 of 3"


def test_steady_increase_needs_a_small_last_step():
    late = {("JM", s): [0.10, 0.11, 0.12, 0.13 + 0.01 * s, 0.9] for s in range(3)}  # the rise is all at the end
    steady = {("JST-1", s): [0.5, 0.6, 0.7, 0.8, 0.9 + 0.01 * s] for s in range(3)}  # a quarter of it at the end
    findings = path_findings(_paths(late | steady, "RCL"), "figure01", ["RCL Conv-1"])
    verdicts = {f.quantity.split(",")[0]: f.verdict for f in findings}
    assert verdicts == {"JM |rise|": "contradicted", "JM dip": "supported", "JM jump_share": "contradicted",
                        "JST-1 |rise|": "contradicted", "JST-1 dip": "supported", "JST-1 jump_share": "supported"}


def _svcca(points: dict[tuple[str, str], list[tuple[float, float]]]) -> pd.DataFrame:
    return pd.DataFrame([{"analysis": "svcca", "method": method, "layer": layer, "seed": seed, "step": step,
                          "x": x + 0.01 * seed, "y": y}
                         for (method, layer), steps in points.items() for seed in range(3)
                         for step, (x, y) in enumerate(steps)])


def test_layers_run_in_model_order_and_progress_is_judged_per_layer():
    layers = ["blocks.1", "entire model", "head", "stem", "blocks.0"]
    assert layer_order(layers) == ["stem", "blocks.0", "blocks.1", "head", "entire model"]
    frame = _svcca({(m, layer): ([(0.5, 0.5), (0.9, 0.9)] if layer == "head" else [(0.9, 0.9), (0.5, 0.5)])
                    for m in ("SFT", "JM") for layer in ("entire model", "head", "stem")})
    findings = svcca_progress_findings(frame)
    assert [f.quantity.split(":")[0] for f in findings][:2] == ["SFT, stem", "JM, stem"]
    assert {f.quantity.split(":")[0]: f.verdict for f in findings}["JM, head"] == "supported"
    assert {f.quantity.split(":")[0]: f.verdict for f in findings}["SFT, entire model"] == "contradicted"
    fig, _ = trajectory_figure(frame, "svcca")
    assert [ax.get_title() for ax in fig.axes] == ["input conv (stem)", "output fc (head)", "entire model"]
    assert fig.axes[0].get_ylim() == pytest.approx((0.5, 1.02)) == fig.axes[2].get_xlim()


def test_path_panels_have_readable_titles_and_a_fixed_axis():
    assert sequence_title("rotation_8") == "8-step rotations (7 × 30°)"
    assert layer_title("blocks.0", 1) == "block 1 of 1 (blocks.0)"
    fig, _ = path_figure(_paths({("FT", 0): [0.2, 0.3, 0.4, 0.5, 0.6]}), ["TTT Conv-1"])
    assert fig.axes[0].get_ylim() == (0, 1) and fig.axes[0].get_title().startswith("3 red tints")


def test_the_first_batchnorm_reading_is_judged_and_drawn_solid_the_others_dashed():
    code = _paths({("FT", 0): [0.2, 0.2, 0.2, 0.2, 0.9]})  # the code's reading: a jump at s = 1
    recomputed = _paths({("FT", 0): [0.2, 0.5, 0.7, 0.85, 0.9]}, batchnorm="recomputed")
    frame = pd.concat([code, recomputed], ignore_index=True)
    profile = path_profiles(frame).iloc[0]
    assert len(path_profiles(frame)) == 1 and profile["last_jump"] == pytest.approx(0.7)  # the code's path alone
    fig, _ = path_figure(frame, ["TTT Conv-1"])
    styles = {line.get_label(): line.get_linestyle() for line in fig.axes[0].get_lines()}
    assert styles == {"FT": "-", "FT, BatchNorm recomputed": "--"}
    legend = fig.legends[0]  # one legend, below the panels, so that it covers no path
    assert [t.get_text() for t in legend.get_texts()] == ["FT", "FT, BatchNorm recomputed"] and not fig.axes[0].get_legend()


def test_side_tuning_and_lp_ft_are_judged_where_the_text_speaks_of_them():
    rising_side = {("ST-1", s): [0.3, 0.2, 0.4, 0.5, 0.8 + 0.01 * s] for s in range(3)}  # a dip, then up: ends higher
    findings = {f.quantity.split(",")[0]: f for f in path_findings(_paths(rising_side, "RCL"), "figure10", ["RCL Conv-1"])}
    assert findings["ST-1 rise"].verdict == "supported" and findings["ST-1 rise"].estimate == pytest.approx(0.51)
    flat_lp_ft = {("LP-FT", s): [0.7, 0.7, 0.71, 0.7, 0.7 - 0.01 * s] for s in range(3)}
    findings = {f.quantity.split(",")[0]: f
                for f in path_findings(_paths(flat_lp_ft, "portraits"), "figure15", ["portraits Conv-1"])}
    assert findings["LP-FT max_change"].verdict == "supported"
    assert np.isnan(findings["JM dip"].estimate)  # a method the run lacks: no value, not a verdict


def test_projection_findings_judge_ft_and_lp_ft_each():
    from lib.seq_to_final.geometry import projection_findings

    def rows(method: str, before: float, after: float) -> list[dict]:
        return [{"analysis": "projection", "layer": "entire model", "method": method, "seed": seed, "step": step,
                 "x": distance + 0.01 * seed, "y": 0.0} for seed in range(3) for step, distance in ((2, before), (3, after))]

    findings = {f.quantity.split(":")[0]: f for f in projection_findings(pd.DataFrame(rows("FT", 2.0, 0.5)
                                                                                      + rows("LP-FT", 1.0, 1.5)))}
    assert findings["FT"].verdict == "supported" and findings["LP-FT"].verdict == "contradicted"
    assert [f.quantity.split(":")[0] for f in projection_findings(pd.DataFrame(rows("FT", 2.0, 0.5)))] == ["FT"]
