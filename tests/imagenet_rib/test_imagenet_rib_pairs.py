"""Paper and ours of a reproduced imagenet_rib table: one tidy frame, one drawing function."""

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

from lib.imagenet_rib.pairs import PAIRS, before_after_panels, paper_and_ours  # noqa: E402
from lib.plotting import paper_and_ours_heatmaps  # noqa: E402
from lib.params import tier_of  # noqa: E402
from lib.imagenet_rib.tables import METHODS  # noqa: E402
from lib.results import COLUMNS  # noqa: E402

REGIMES = ("clean", "augmented")
SUITE = ["digits_a", "digits_b"]


class Settings:
    suite = SUITE
    finetuned_on = SUITE


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
    elif PAIRS[artefact].draw is before_after_panels:  # ours alone, one panel per method, as the redraw
        assert [ax.get_title() for ax in fig.axes if ax.get_visible()][:2] == ["FT", "LP"]
        assert fig.get_suptitle().startswith("ours (tiny, 2 seeds): ")
        return
    else:  # bars: one y axis, the bars in the paper's order and colours
        assert fig.axes[0].get_ylim() == fig.axes[1].get_ylim()
        assert [t.get_text() for t in fig.axes[1].get_legend().get_texts()] == ["pretrained", "FT"]
    assert fig.axes[0].get_title() == "paper" and fig.axes[1].get_title() == "ours (tiny, 2 seeds)"
    assert fig.get_suptitle() == PAIRS[artefact].metric and "\n" not in fig.get_suptitle()  # one line


def test_table15_keeps_the_paper_methods_and_prints_mean_and_standard_error():
    acc, table = fake_run()
    frame, fig = paper_and_ours("table15", Settings(), acc, table, "tiny")
    ours = frame[frame["source"] == "ours"]
    assert set(ours["method"]) == set(frame.loc[frame["source"] == "paper", "method"])  # no VP, LoRA or EWC (L2)
    assert frame.loc[frame["source"] == "paper", "spread"].notna().all()
    texts = [t.get_text() for ax in fig.axes[:2] for t in ax.texts]
    assert texts and all(" ± " in t for t in texts)


def test_table30_ours_is_accuracy_per_evaluation_set_on_a_0_100_scale():
    acc, table = fake_run()
    frame, fig = paper_and_ours("table30", Settings(), acc, table, "tiny")
    ours = frame[frame["source"] == "ours"]
    assert set(ours["model"]) == {"augmented"} and list(dict.fromkeys(ours["method"]))[0] == "Pretrained"
    assert list(dict.fromkeys(ours["eval_dataset"])) == SUITE
    # the mean over the fine-tuning sets other than the evaluation set, per seed
    cell = acc[(acc["regime"] == "augmented") & (acc["seed"] == 0) & (acc["method"] == "FT")
               & (acc["eval_dataset"] == "digits_a") & (acc["finetune_dataset"] != "digits_a")]["accuracy"].mean()
    got = ours[(ours["seed"] == 0) & (ours["method"] == "FT") & (ours["eval_dataset"] == "digits_a")]["value"]
    assert got.item() == pytest.approx(cell)
    assert fig.axes[0].collections[0].get_clim() == (0.0, 100.0)


def test_unknown_pair_names_the_valid_ones():
    with pytest.raises(KeyError, match="table03"):
        paper_and_ours("table99", Settings(), *fake_run(), "tiny")


def test_tier_is_read_from_the_params_path():
    assert tier_of("params/mini/imagenet_rib/benchmark.yaml") == "mini"


def test_table08_comparison_columns_and_rows_are_ruled_off():
    import matplotlib.pyplot as plt

    from lib.imagenet_rib.pairs import COMPARISONS, Comparison, _separate
    from lib.results import paper_and_ours as tidy_pair

    paper = pd.DataFrame({"method": ["FT", "FLYP"], "model": ["m", "m"], "value": [-30.0, -25.0]})
    ours = pd.DataFrame({"method": ["FT", "FLYP", "FT", "Linear Probing"], "model": ["clip", "clip", "clean", "clean"],
                         "seed": 0, "value": [-20.0, -21.0, -11.0, -4.0]})
    frame = tidy_pair(paper, ours, paper="imagenet_rib", artefact="table08", tier="tiny", metric="mRI")
    fig = paper_and_ours_heatmaps(frame, "method", "model", center=0.0)
    _separate(fig.axes[1], frame, Comparison("FLYP", "caption"))
    vertical, horizontal = fig.axes[1].get_lines()
    assert vertical.get_xdata()[0] == 1 and horizontal.get_ydata()[0] == 2  # after `clip`; below FT, FLYP
    assert fig.axes[1].get_xlabel() == "caption" and "table08" in COMPARISONS
    plt.close(fig)


def test_ri_per_fine_tuning_set_skips_a_suite_set_evaluated_on_only():
    """At full ObjectNet is in the suite but never fine-tuned on, so the RI table has no column for it."""
    from lib.imagenet_rib.pairs import per_seed_ri

    class WithEvaluationOnly:
        suite = [*SUITE, "objectnet"]

    acc, table = fake_run()
    rows = per_seed_ri(REGIMES, WithEvaluationOnly(), acc, table)
    assert list(dict.fromkeys(rows["train_dataset"]))[1:] == SUITE and set(rows["model"]) == {"clean"}


def test_our_panel_says_when_it_fine_tunes_on_part_of_the_suite():
    from lib.imagenet_rib.pairs import finetuned_subset

    assert finetuned_subset(["a", "b", "c"], list("abcdef")) == "FT on 3 of 6 sets"
    assert finetuned_subset(list("abcdef"), list("abcdef")) == ""
    assert finetuned_subset(["digits"], list("abc")) == ""  # a set outside the suite (Table 6's): no subset
