"""Tables 5-6 on our sequences: the printed schema, the draws of the data, the paper's drawing function."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lib.seq_to_final.sequence import build
from lib.seq_to_final.shift_metrics import shift_metrics
from lib.seq_to_final.shift_runs import our_shift_panel, our_shift_table
from lib.seq_to_final.study import StudySettings
from lib.seq_to_final.tables import shift_metrics as printed

TINY = "params/tiny/seq_to_final/study.yaml"


@pytest.mark.parametrize("artefact", ["table05", "table06"])
def test_our_table_has_the_printed_cells_once_per_draw(artefact):
    ours = our_shift_table(artefact, TINY, draws=2)
    paper = printed(artefact).drop(columns=["printed", "value"])
    assert list(ours.columns) == [*paper.columns, "seed", "value"]
    for seed in (0, 1):  # every printed cell, each draw
        cells = ours[ours["seed"] == seed].drop(columns=["seed", "value"])
        assert sorted(map(tuple, cells.to_numpy())) == sorted(map(tuple, paper.to_numpy()))
    assert np.isfinite(ours["value"]).all() and (ours["value"] > 0).all()
    by_draw = ours.pivot_table(index=list(paper.columns), columns="seed", values="value")
    assert not np.allclose(by_draw[0], by_draw[1])  # another draw of the data moves the metrics


def test_draw_zero_is_the_study_s_own_sequence():
    ours = our_shift_table("table05", TINY, draws=1)
    own = shift_metrics(build(StudySettings.load(TINY).specs()["RCL"]))
    rcl = ours[ours["sequence"] == "Rotation, corruption, label"].set_index(["metric", "step"])["value"]
    assert rcl[("W_X", "1")] == pytest.approx(own.loc[1, "W_X"])
    assert rcl[("W_XgivenY", "0")] == pytest.approx(own.loc[0, "W_XgivenY"])


def test_bad_requests_say_what_to_fix():
    with pytest.raises(KeyError, match="Tables 5 and 6"):
        our_shift_table("table07", TINY, draws=1)
    with pytest.raises(ValueError, match="at least 1"):
        our_shift_table("table05", TINY, draws=0)


def test_our_panel_draws_means_with_their_intervals_and_judges_the_claims():
    data, fig, verdicts = our_shift_panel("table05", TINY, draws=3)
    assert set(data["source"]) == {"ours"} and set(data["tier"]) == {"tiny"}
    cells = [t.get_text() for t in fig.axes[0].texts]
    assert len(cells) == 15 and all(" ± " in c for c in cells)  # 5 sequences x 3 steps
    assert "3 draws of the data" in fig.get_suptitle()
    assert set(verdicts["claim_id"]) >= {"rcl-no-difference-steps-1-2", "rrr-source-closer"}
    assert verdicts["ours_evidence"].str.contains("tiny, 3 draws of the data").all()
    plt.close(fig)
