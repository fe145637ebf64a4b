"""Paper and ours of a reproduced imagenet_rib table: one tidy frame, one drawing function."""

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

from lib.imagenet_rib.pairs import PAIRS, paper_and_ours  # noqa: E402
from lib.plotting import paper_and_ours_heatmaps  # noqa: E402
from lib.params import tier_of  # noqa: E402
from lib.imagenet_rib.tables import METHODS  # noqa: E402
from lib.results import COLUMNS  # noqa: E402

REGIMES = ("clean", "augmented")
SUITE = ["digits_a", "digits_b"]


class Settings:
    suite = SUITE


def fake_run(seeds=(0, 1)) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A benchmark's accuracies and RI/mRI table, methods in reverse of the paper's order."""
    rng = np.random.default_rng(0)
    methods = list(reversed(METHODS))
    acc = [(r, s, "pretrained", "", d, 50.0) for r in REGIMES for s in seeds for d in SUITE]
    acc += [(r, s, m, f, d, float(rng.uniform(30, 70))) for r in REGIMES for s in seeds for m in methods
            for f in SUITE for d in SUITE]
    acc = pd.DataFrame(acc, columns=["regime", "seed", "method", "finetune_dataset", "eval_dataset", "accuracy"])
    table = pd.DataFrame([(r, s, m, *rng.normal(size=5)) for r in REGIMES for s in seeds for m in methods],
                         columns=["regime", "seed", "method", *(f"RI {d}" for d in SUITE), "mRI", "backward transfer",
                                  "accuracy on the fine-tuning set"])
    return acc, table


@pytest.mark.parametrize("artefact", sorted(PAIRS))
def test_pair_holds_both_sources_in_the_schema_and_the_paper_method_order(artefact):
    acc, table = fake_run()
    frame, fig = paper_and_ours(artefact, Settings(), acc, table, "tiny")
    assert list(frame.columns) == list(COLUMNS)
    assert list(dict.fromkeys(frame["source"])) == ["paper", "ours"]
    assert set(frame.loc[frame["source"] == "ours", "tier"]) == {"tiny"}
    assert set(frame.loc[frame["source"] == "paper", "tier"]) == {"published"}
    assert frame.loc[frame["source"] == "ours", "seed"].nunique() == 2
    if PAIRS[artefact].draw is paper_and_ours_heatmaps:
        paper_rows = [label.get_text() for label in fig.axes[0].get_yticklabels()]
        ours_rows = [label.get_text() for label in fig.axes[1].get_yticklabels()]
        assert ours_rows[:len(paper_rows)] == paper_rows  # the paper's method order in both panels
    else:  # bars: one y axis, the bars in the paper's order and colours
        assert fig.axes[0].get_ylim() == fig.axes[1].get_ylim()
        assert [t.get_text() for t in fig.axes[1].get_legend().get_texts()] == ["pretrained", "FT"]
    assert fig.axes[0].get_title().startswith("paper: ") and fig.axes[1].get_title().startswith("ours (tiny, 2 seeds)")


def test_unknown_pair_names_the_valid_ones():
    with pytest.raises(KeyError, match="table03"):
        paper_and_ours("table99", Settings(), *fake_run(), "tiny")


def test_tier_is_read_from_the_params_path():
    assert tier_of("params/mini/imagenet_rib/benchmark.yaml") == "mini"
