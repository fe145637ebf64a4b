"""The analysis runs of Figs 1, 9, 10-14, 16-17 (`lib.seq_to_final.geometry`, `geometry_runs`): strict
settings, the runs' frames, path endpoints equal to the two models' accuracies, and the path readings."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
import torch
import yaml

from lib.params import ParamsError
from lib.seq_to_final.geometry import (BATCHNORM_READINGS, FRAME_COLUMNS, TRAJECTORY_METHODS, GeometrySettings,
                                      judged_paths, load_checked, path_shapes)

TIERS = ("tiny", "mini", "full")


def settings_path(tier: str) -> str:
    return f"params/{tier}/seq_to_final/geometry.yaml"


@pytest.mark.parametrize("tier", TIERS)
def test_every_tier_loads_offline(tier):
    settings = load_checked(settings_path(tier))
    assert settings.alphas[0] == 0.0 and settings.alphas[-1] == 1.0 and len(settings.alphas) == settings.path_points


def test_full_tier_is_the_papers_grid():
    settings = GeometrySettings.load(settings_path("full"))
    assert settings.alphas == [round(0.01 * i, 6) for i in range(101)]
    assert (settings.regularisation_sequence, settings.regularisation_architecture) == ("RCL", "Res-4")
    assert (settings.geometry_sequence, settings.geometry_architecture) == ("CLR", "Conv-4")


@pytest.mark.parametrize("change, message", [
    ({"colour": "red"}, "unknown parameter"),
    ({"batchnorms": ["some"]}, "unknown batchnorm reading"),
    ({"batchnorms": ["code", "code"]}, "batchnorms must name at least one reading, each once"),
    ({"geometry_architecture": "Conv-9"}, "unknown architecture"),
    ({"path_methods": ["FT", "I-FT"]}, "unknown path method"),
    ({"regularisation_sequence": "XYZ"}, "unknown sequence"),
    ({"protocol": {"learning_rate": 0.1}}, "unknown protocol key"),
    ({"path_points": 1}, "path_points must be at least 2"),
    ({"seeds": "0"}, "must be list"),
])
def test_settings_are_read_strictly(tmp_path, change, message):
    path = tmp_path / "geometry.yaml"
    path.write_text(yaml.safe_dump(yaml.safe_load(open(settings_path("tiny"))) | change))
    with pytest.raises(ParamsError, match=message):
        GeometrySettings.load(path)


def test_names_kept_torch_free_match_the_code():
    from lib.seq_to_final.geometry_runs import TRAJECTORIES
    from lib.seq_to_final.interpolation_paths import STATE_READINGS

    assert tuple(TRAJECTORIES) == TRAJECTORY_METHODS
    assert tuple(STATE_READINGS) == BATCHNORM_READINGS


def test_barrier_is_the_largest_drop_below_the_endpoints_line():
    alphas = np.linspace(0, 1, 5)
    frame = pd.DataFrame({"analysis": "path", "sequence": "CLR", "architecture": "Conv-1", "method": "FT", "seed": 0,
                          "batchnorm": "code", "alpha": alphas, "accuracy": [0.2, 0.1, 0.3, 0.6, 0.6]})
    shape = path_shapes(frame).iloc[0]
    # the line runs 0.2, 0.3, 0.4, 0.5, 0.6: the path is 0.2 below it at s = .25, above it at s = .75
    assert shape["start"] == 0.2 and shape["end"] == 0.6
    assert shape["rise"] == pytest.approx(0.4) and shape["barrier"] == pytest.approx(0.2)
    assert shape["dip"] == pytest.approx(0.1) and shape["last_jump"] == 0.0
    flat = path_shapes(frame.assign(accuracy=[0.2, 0.5, 0.6, 0.6, 0.6])).iloc[0]
    assert flat["barrier"] == 0.0


@pytest.fixture(scope="module")
def tiny():
    settings = GeometrySettings.load(settings_path("tiny"))
    from lib.seq_to_final.study import protocol_settings

    return settings, protocol_settings(settings.protocol)


def test_path_endpoints_are_the_two_models_accuracies(tiny):
    from functools import cache

    from lib.seq_to_final import geometry_runs
    from lib.seq_to_final.methods import SideTunedNet, accuracy, pretrain

    settings, protocol = tiny
    ctx = geometry_runs._context(settings.spec("CLR"), "Conv-1", protocol, seed=0)
    historical = cache(lambda: pretrain(ctx, "ERM").model)
    final = ctx.data.final_index
    for method in ("FT", "JM", "LP-FT", "ST-1"):
        trajectory = geometry_runs.TRAJECTORIES[method](ctx, historical)
        (_, start), (_, end) = trajectory[-2:]
        path = geometry_runs.path_rows(method, trajectory, ctx, [0.0, 0.5, 1.0], "code")
        assert path["accuracy"].iloc[0] == accuracy(start, ctx.data.test), method
        assert path["accuracy"].iloc[-1] == accuracy(end, ctx.data.test), method
        assert [step for step, _ in trajectory][-2:] == [final - 1, final]
        if method != "JM":  # the ERM model on the history, trained once and left as it was
            assert start is historical() and not isinstance(start, SideTunedNet)
    assert isinstance(end, SideTunedNet) and end.side_scale == 1.0  # ST-1: s = 0 was the ERM model, without sides
    trajectory = geometry_runs.TRAJECTORIES["JST-1"](ctx, historical)
    (_, joint), _ = trajectory
    path = geometry_runs.path_rows("JST-1", trajectory, ctx, [0.0, 1.0], "code")
    images, labels = ctx.data.test
    with torch.no_grad():  # s = 0: the joint model at step T - 1, without step T's side modules
        at_previous = float((joint.eval()(images, step=final - 1).argmax(1) == labels).float().mean())
    assert path["accuracy"].tolist() == pytest.approx([at_previous, accuracy(joint, ctx.data.test)])
    assert len(joint.sides) == final and joint.side_scale == 1.0


def test_a_tiny_geometry_run_has_every_analysis_and_column(tiny):
    from lib.seq_to_final.geometry import _compute

    settings, _ = tiny
    labels = {"sequence": "CLR", "architecture": "Conv-1", "seed": 0}
    frame = _compute("path_run", settings.spec("CLR"), settings.protocol, labels, architecture="Conv-1", seed=0,
                     methods=list(TRAJECTORY_METHODS), alphas=[0.0, 0.5, 1.0], batchnorms=["code", "recomputed"],
                     geometry=True)
    assert list(frame.columns) == list(FRAME_COLUMNS)
    assert set(frame["analysis"]) == {"path", "projection", "svcca"}
    paths = frame[frame["analysis"] == "path"]
    assert len(paths) == 2 * 6 * 3 and paths["accuracy"].between(0, 1).all()
    assert list(dict.fromkeys(paths["batchnorm"])) == ["code", "recomputed"]  # the settings' order
    judged = judged_paths(frame)
    assert set(judged["batchnorm"]) == {"code"} and len(judged) == 6 * 3
    layers = {"stem", "blocks.0", "head", "entire model"}
    for analysis in ("projection", "svcca"):  # side modules have no place in the base model's weights
        rows = frame[frame["analysis"] == analysis]
        assert set(rows["layer"]) == layers and rows[["x", "y"]].notna().all().all()
        assert {"Oracle", "Baseline", "ERM historical", "FT", "SFT", "JM", "LP-FT"} == set(rows["method"])
    oracle = frame[(frame["analysis"] == "projection") & (frame["method"] == "Oracle")]
    assert np.allclose(oracle[["x", "y"]].to_numpy(), 0.0)  # the origin is the oracle
    similarity = frame[(frame["analysis"] == "svcca") & (frame["method"] == "Oracle")]
    assert np.allclose(similarity[["x", "y"]].to_numpy(), 1.0)
    sft_steps = sorted(set(frame[(frame["analysis"] == "svcca") & (frame["method"] == "SFT")]["step"]))
    assert sft_steps == [0, 1, 2, 3]


def test_a_tiny_regularisation_run_has_each_weight_and_both_references(tiny):
    from lib.seq_to_final.geometry_runs import regularisation_run

    settings, protocol = tiny
    frame = regularisation_run(settings.spec("RCL"), "Conv-1", [0.0, 10.0], dataclasses.replace(protocol), seed=0)
    assert list(frame["method"]) == ["JM", "JM", "ERM final", "ERM all"]
    assert list(frame["lambda_adj"].iloc[:2]) == [0.0, 10.0]
    assert frame["accuracy"].between(0, 1).all()


def test_the_ledger_names_exactly_the_figures_whose_findings_it_reads():
    from lib.seq_to_final.claims import OUR_FINDINGS
    from lib.seq_to_final.geometry import FIGURE_FINDINGS
    from lib.seq_to_final.path_readings import PATH_CLAIMS

    assert OUR_FINDINGS == (*FIGURE_FINDINGS, *PATH_CLAIMS)
