"""Our-run panels of ImageNet-RIB's appendix experiments, on small synthetic accuracy frames with known answers."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from lib.findings import Findings
from lib.imagenet_rib.benchmark import PRETRAINED
from lib.imagenet_rib.experiments import load_experiments
from lib.imagenet_rib.ours_experiments import (EXPERIMENT_PANELS, ExperimentRun, clip_panel, experiments_source,
                                               has_experiment_panel, imagenet_val_panel, learning_rate_panel,
                                               our_experiment_panel, small_subsets_panel, training_curves_panel,
                                               validation_panel, weight_decay_panel, wise_alpha_panel)

SUITE = ["a", "b", "c"]
REF = "ref"
EVALS = SUITE + [REF]
PRE = 50.0
IMAGENET_RIB = {"wise_alpha_convention": "imagenet_rib"}


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def model(regime: str, method: str, finetune_dataset: str, accuracy, seed: int = 0, **extra) -> list[dict]:
    """One model's rows; `accuracy` maps evaluation set -> accuracy, or is one accuracy for all of them."""
    accuracy = accuracy if isinstance(accuracy, dict) else dict.fromkeys(EVALS, accuracy)
    return [{"regime": regime, "seed": seed, "method": method, "finetune_dataset": finetune_dataset,
             "eval_dataset": name, "accuracy": value, **extra} for name, value in accuracy.items()]


def benchmark(regime: str, deltas: dict[str, float], seed: int = 0, **extra) -> list[dict]:
    """The pretrained model at PRE everywhere and, per method, a model per suite set at PRE + delta
    everywhere: every RI, the mRI and the change of OOD accuracy are delta."""
    rows = model(regime, PRETRAINED, "", PRE, seed, **extra)
    for method, delta in deltas.items():
        rows += [row for name in SUITE for row in model(regime, method, name, PRE + delta, seed, **extra)]
    return rows


def estimates(findings: Findings) -> list[float]:
    """The estimates of the findings our run could compute."""
    return [f.estimate for f in findings if not math.isnan(f.estimate)]


def run(rows: list[dict], swept: str | None = None, finetune_datasets: list[str] = SUITE) -> ExperimentRun:
    return ExperimentRun(pd.DataFrame(rows), SUITE, REF, finetune_datasets, swept, IMAGENET_RIB)


def test_wise_alpha_panel_picks_the_best_alpha_per_regime_in_eq3_convention():
    key = "method_settings.wise_alpha"
    wise = {"r1": {0.1: 1.0, 0.5: 2.0, 0.9: 3.0}, "r2": {0.1: 4.0, 0.5: -1.0, 0.9: 0.0}}
    rows = [row for regime, by_alpha in wise.items() for alpha, delta in by_alpha.items()
            for row in benchmark(regime, {"FT": -5.0, "WiSE-FT": delta}, **{key: alpha})]
    data, fig, findings = wise_alpha_panel(run(rows, key))
    assert estimates(findings) == pytest.approx([2.0, -4.0])  # mRI at alpha 0.9 (nearest pretrained) − at 0.1
    assert "(the paper's Eq. 3)" in findings[0].quantity and findings.verdict == "not_checkable"  # one seed
    assert data.set_index([key, "regime"]).loc[(0.9, "r1"), "WiSE-FT mRI"] == pytest.approx(3.0)
    assert (data["FT mRI"] == -5.0).all() and len(data) == 6
    other = ExperimentRun(pd.DataFrame(rows), SUITE, REF, SUITE, key, {"wise_alpha_convention": "wise_ft"})
    assert estimates(wise_alpha_panel(other)[2]) == pytest.approx([-2.0, 4.0])  # alpha 0.1 is nearest pretrained


def test_validation_panel_mri_difference_from_main_and_selected_epoch():
    split = []
    for name, epoch in zip(SUITE, (3, 5, 5)):
        split += model("r1", "FT", name, PRE + 2.0, selected_epoch=epoch)
        split += model("r1", "WiSE-FT", name, PRE + 1.0, selected_epoch=math.nan)
    split += model("r1", PRETRAINED, "", PRE, selected_epoch=math.nan)
    main = benchmark("r1", {"FT": 0.5, "WiSE-FT": 1.5})
    data, fig, finding = validation_panel(run(split), run(main), "mRI")
    got = data.set_index(["method", "regime"])
    assert got.loc[("FT", "r1"), "mRI"] == pytest.approx(2.0)
    assert got.loc[("FT", "r1"), "difference from main"] == pytest.approx(1.5)
    assert got.loc[("WiSE-FT", "r1"), "difference from main"] == pytest.approx(-0.5)
    assert got.loc[("FT", "r1"), "mean selected epoch"] == pytest.approx(13 / 3)
    assert math.isnan(got.loc[("WiSE-FT", "r1"), "mean selected epoch"])  # post-hoc: no epoch
    assert estimates(finding) == pytest.approx([1.5, -0.5])  # per method, signed: FT, WiSE-FT
    assert {f.direction for f in finding} == {"within"} and {f.threshold for f in finding} == {3.3}  # equivalence
    assert {f.claim_id for f in finding} == {"split-no-difference"}  # the ledger claim they bear on


def test_validation_panel_mean_eri_against_a_testbed_on_the_identity_line():
    # per fine-tuning set D_i the testbed is {split up, split down, main up, main down}: in logit space the
    # points (0, ±ln 3) and (logit .4, logit .4), (logit .6, logit .6), whose least-squares line is y = x;
    # so β_j(50 %) = 50 % and eRI = 75 - 50 = +25 (up), 25 - 50 = -25 (down), 0 for main's models.
    split, main = [], []
    for regime_rows, models in ((split, {"up": 75.0, "down": 25.0}), (main, {"up": 40.0, "down": 60.0})):
        regime_rows += model("r1", PRETRAINED, "", PRE, selected_epoch=math.nan)
        for method, other in models.items():
            for name in SUITE:
                own = 50.0 if regime_rows is split else other
                accuracy = {d: own if d in (name, REF) else other for d in EVALS}
                regime_rows += model("r1", method, name, accuracy, selected_epoch=1)
    main = [{k: v for k, v in row.items() if k != "selected_epoch"} for row in main]
    data, fig, finding = validation_panel(run(split), run(main), "mean eRI")
    got = data.set_index("method")
    assert got.loc["up", "mean eRI"] == pytest.approx(25.0) and got.loc["down", "mean eRI"] == pytest.approx(-25.0)
    assert got.loc["up", "difference from main"] == pytest.approx(25.0)
    assert got.loc["down", "difference from main"] == pytest.approx(-25.0)
    assert estimates(finding)[0] == pytest.approx(25.0) and finding[1].verdict == "not_checkable"  # no LAION-2B
    assert [f.claim_id for f in finding] == ["eri-all-negative", ""]  # the undefined part bears on no claim


def test_imagenet_val_panel_accuracy_and_difference_from_the_pretrained_model():
    pre = {"a": 50.0, "b": 60.0, "c": 70.0, REF: 80.0}
    after = {"a": 55.0, "b": 47.0, "c": 70.0, REF: 95.0}
    rows = model("r1", PRETRAINED, "", pre) + model("r1", "FT", REF, after)
    data, fig, finding = imagenet_val_panel(run(rows, finetune_datasets=[REF]))
    assert data.set_index("eval_dataset")["difference"].to_dict() == {"a": 5.0, "b": -13.0, "c": 0.0, REF: 15.0}
    assert estimates(finding) == pytest.approx([-8 / 3])  # the signed mean change on the suite
    assert finding[0].direction == "within" and finding[0].threshold == 5.0  # judged as an equivalence


def test_clip_panel_sets_the_clip_regime_beside_the_main_regimes():
    clip = benchmark("clip", {"FT": -8.0, "FLYP": -4.0}) + benchmark("clip", {"FT": -12.0, "FLYP": -4.0}, seed=1)
    main = benchmark("r1", {"FT": 1.0, "Linear Probing": 0.0}) + benchmark("r2", {"FT": 2.0, "Linear Probing": 0.5})
    data, fig, finding = clip_panel(run(clip), run(main))
    means = data.set_index("method")
    assert list(means.columns) == ["clip", "r1", "r2"]
    assert means.loc["FT"].tolist() == pytest.approx([-10.0, 1.0, 2.0])  # clip: mean of two seeds
    assert math.isnan(means.loc["FLYP", "r1"]) and math.isnan(means.loc["Linear Probing", "clip"])
    ft, flyp = finding
    assert (ft.estimate, flyp.estimate) == pytest.approx((-10.0, 6.0))
    assert "2 seeds" in ft.interval.method and ft.verdict == "not_distinguishable"  # -8 and -12: t-interval ±25
    assert (ft.claim_id, flyp.claim_id) == ("", "flyp-small-only")


def test_weight_decay_panel_highest_and_lowest_mri():
    key = "finetune.weight_decay"
    rows = [row for decay, delta in {0.0: -1.0, 0.01: 2.0, 0.1: -3.0}.items()
            for row in benchmark("r1", {"FT": delta}, **{key: decay})]
    data, fig, finding = weight_decay_panel(run(rows, key))
    assert data["mRI"].tolist() == pytest.approx([-1.0, 2.0, -3.0])
    assert estimates(finding)[0] == pytest.approx(-2.0) and "no LAION-2B" in finding[1].interval.method


def test_training_curves_panel_starts_at_the_pretrained_model():
    rows = model("r1", PRETRAINED, "", PRE, epoch=math.nan)
    for epoch in (1, 2):
        for name in SUITE:
            accuracy = {d: PRE + 10 * epoch if d == name else PRE - epoch for d in EVALS}
            rows += model("r1", "FT", name, accuracy, epoch=epoch)
    data, fig, finding = training_curves_panel(run(rows))
    assert data["epoch"].tolist() == [0, 1, 2]
    assert data["accuracy on the fine-tuning set"].tolist() == pytest.approx([50.0, 60.0, 70.0])
    assert data["OOD accuracy"].tolist() == pytest.approx([50.0, 49.0, 48.0])
    assert estimates(finding) == pytest.approx([-1.0])  # OOD after epoch 1 − pretrained


def test_learning_rate_panel_last_and_lowest_mri_per_rate():
    key = "finetune.base_lr"
    rows = []
    for rate, deltas in {0.01: (-4.0, -2.0), 0.001: (-1.0, -1.5)}.items():
        rows += model("r1", PRETRAINED, "", PRE, epoch=math.nan, **{key: rate})
        for epoch, delta in zip((1, 2), deltas):
            rows += [row for name in SUITE for row in model("r1", "FT", name, PRE + delta, epoch=epoch, **{key: rate})]
    data, fig, finding = learning_rate_panel(run(rows, key))
    assert data[key].tolist() == [0.001, 0.001, 0.01, 0.01] and data["mRI"].tolist() == pytest.approx([-1.0, -1.5, -4.0, -2.0])
    assert estimates(finding)[0] == pytest.approx(0.5)  # last-epoch mRI at lr 0.001 − at 0.01


def test_small_subsets_panel_against_the_pretrained_model():
    key = "images_per_class"
    rows = []
    for k, (own, other) in {1: (40.0, 45.0), 10: (80.0, 55.0)}.items():
        rows += model("r1", PRETRAINED, "", PRE, **{key: k})
        for name in SUITE:
            rows += model("r1", "FT", name, {d: own if d == name else other for d in EVALS}, **{key: k})
    data, fig, finding = small_subsets_panel(run(rows, key))
    assert data["accuracy on the fine-tuning set"].tolist() == pytest.approx([40.0, 80.0])
    assert data["OOD accuracy"].tolist() == pytest.approx([45.0, 55.0])
    assert (data["OOD accuracy (pretrained)"] == PRE).all()
    assert estimates(finding) == pytest.approx([10.0])  # OOD at k=10 − at k=1 (not the CLIP regime)
    # the IN-1K + AugReg analogue is also judged on the paper's gain at the fewest images per class
    augreg = [{**row, "regime": "augmented"} for row in rows]
    _, _, (decline, gain) = small_subsets_panel(run(augreg, key))
    assert decline.estimate == pytest.approx(10.0) and gain.direction == ">" and "IN-1K + AugReg gains" in gain.claim
    fewest = small_subsets_panel(run(rows, key))[0].iloc[0]
    assert gain.estimate == pytest.approx(fewest["OOD accuracy"] - fewest["OOD accuracy (pretrained)"])


@pytest.mark.parametrize("tier", ["tiny", "mini", "full"])
def test_every_panel_names_an_experiment_that_feeds_its_artefact(tier):
    path = f"params/{tier}/imagenet_rib/experiments.yaml"
    _, experiments = load_experiments(path)
    assert "main" in experiments
    for artefact, name in EXPERIMENT_PANELS.items():
        assert artefact in experiments[name].artefacts, (tier, artefact, name)
    assert experiments_source(path) == ("registry" if tier == "full" else "embedded")


def test_unknown_artefacts_have_no_experiment_panel():
    assert has_experiment_panel("table16") and not has_experiment_panel("table03")
    with pytest.raises(KeyError, match="no experiment panel"):
        our_experiment_panel("table03", "params/tiny/imagenet_rib/experiments.yaml", "unused")


# -- the paper's numbers beside ours ------------------------------------------------------------------
from lib.imagenet_rib.ours_experiments import (EXPERIMENT_PAIRS, NO_PAPER_PANEL, PANELS, SPLIT_DIFFERENCE,  # noqa: E402
                                               SPLIT_MRI, paired_experiment_panel)
from lib.imagenet_rib.tables import load_table  # noqa: E402
from lib.results import COLUMNS  # noqa: E402


def test_every_experiment_panel_has_a_paper_pair_or_says_why_not():
    assert set(EXPERIMENT_PAIRS) | set(NO_PAPER_PANEL) == set(EXPERIMENT_PANELS) == set(PANELS)
    assert not set(EXPERIMENT_PAIRS) & set(NO_PAPER_PANEL)
    for artefact, pair in EXPERIMENT_PAIRS.items():  # the printed quantity, as printed
        paper = pair.paper()
        cell = ["method", "model", *([pair.columns] if pair.columns not in ("model", "method") else []),
                *(["metric"] if "metric" in paper else [])]
        assert len(paper) and paper["value"].notna().any() and not paper.duplicated(cell).any(), artefact


def pair_runs(artefact: str) -> list[ExperimentRun]:
    """Two seeds of two regimes for each experiment, with the keys its panel reads."""
    seeds = (0, 1)
    if artefact == "table06":  # the fixtures differ per experiment, the code under test does not
        rows = [r for reg in ("r1", "r2") for s in seeds for r in
                model(reg, PRETRAINED, "", PRE, s) + model(reg, "FT", REF, {d: PRE + 2 + s for d in EVALS}, s)]
        return [run(rows, finetune_datasets=[REF])]
    if artefact in ("table14", "table16"):
        key = {"table14": "finetune.weight_decay", "table16": "method_settings.wise_alpha"}[artefact]
        grid = {"table14": (0.0, 0.0001, 0.1), "table16": (0.1, 0.5, 0.9)}[artefact]
        rows = [r for reg in ("r1", "r2") for s in seeds for v in grid
                for r in benchmark(reg, {"FT": -5.0, "WiSE-FT": v * 10 + s}, s, **{key: v})]
        return [run(rows, key)]
    if artefact == "table21":  # one regime, as the experiment `resnets` runs
        rows = [r for s in seeds for r in benchmark("r1", {"FT": 10.0, "LP-FT": 8.0 + s, "EWC": -4.0, "LwF": 2.0}, s)]
        return [run(rows)]
    selected = {} if artefact == "table08" else {"selected_epoch": 2}
    first = [r for reg in ("r1", "r2") for s in seeds for r in benchmark(reg, {"FT": -1.0 - s, "LwF": 1.0}, s, **selected)]
    main = [r for reg in ("r1", "r2") for s in seeds for r in benchmark(reg, {"FT": -3.0, "LwF": 0.5 + s}, s)]
    return [run(first), run(main)]


def test_resnets_panel_judges_table21s_caption_by_its_groups_of_methods():
    data, fig, findings = PANELS["table21"](*pair_runs("table21"))
    # FT and LP-FT (60, 58 + seed) against EWC and LwF (46, 52); EWC (46) against the three others
    assert estimates(findings) == pytest.approx([10.25, -(10 + 2 / 3 + 11) / 2])
    assert [f.claim_id for f in findings] == ["table21-caption"] * 2 and findings.verdict == "supported"
    assert "EWC lowest (Table 21" in findings[1].paper
    assert data.set_index("method").loc["EWC", "r1"] == pytest.approx(46.0)


@pytest.mark.parametrize("artefact", sorted(EXPERIMENT_PAIRS))
def test_experiment_pair_holds_the_paper_and_ours_in_one_schema(artefact):
    data, fig, findings = paired_experiment_panel(artefact, pair_runs(artefact), "tiny")
    _, _, own_findings = PANELS[artefact](*pair_runs(artefact))
    assert str(findings) == str(own_findings)  # the findings are the panel's, untouched
    assert list(data.columns) == list(COLUMNS)
    assert list(dict.fromkeys(data["source"])) == ["paper", "ours"]
    assert set(data.loc[data["source"] == "ours", "seed"]) == {0, 1}
    assert set(data.loc[data["source"] == "paper", "tier"]) == {"published"}
    assert len(fig.axes) == 3  # paper, ours and one colour bar: one scale
    assert fig.axes[0].get_title() == "paper" and fig.axes[1].get_title() == "ours (tiny, 2 seeds)"  # one line each


def test_experiment_pairs_known_values():
    ours = lambda a: paired_experiment_panel(a, pair_runs(a), "tiny")[0].query("source == 'ours'")  # noqa: E731
    wd = ours("table14").groupby("method")["value"].mean()
    assert wd.to_dict() == pytest.approx(dict.fromkeys(["FT, weight decay 0", "FT, weight decay 0.0001",
                                                        "FT, weight decay 0.1"], -5.0))
    printed = set(paired_experiment_panel("table14", pair_runs("table14"), "tiny")[0].query("source == 'paper'")["method"])
    assert set(wd.index) <= printed  # our decays read as the paper's rows
    wise = ours("table16").groupby(["method", "seed"])["value"].mean()
    assert wise.loc[("WiSE-FT, alpha = 0.5", 1)] == pytest.approx(6.0)
    assert wise.loc[("WiSE-FT, best alpha", 0)] == pytest.approx(9.0)  # best alpha 0.9 of the mean over seeds
    split = ours("table10").groupby(["metric", "method", "seed"])["value"].mean()
    diff, with_split = split.loc[SPLIT_DIFFERENCE], split.loc[SPLIT_MRI]
    assert diff.loc[("FT", 1)] == pytest.approx(1.0) and diff.loc[("LwF", 0)] == pytest.approx(0.5)
    assert with_split.loc[("FT", 1)] == pytest.approx(-2.0) and with_split.loc[("LwF", 0)] == pytest.approx(1.0)
    assert [t.get_text() for t in paired_experiment_panel("table10", pair_runs("table10"), "tiny")[1].axes[0].texts][0] \
        == "2.8\n(+1.5)"  # Table 10's first cell as printed: FT on IN-1K + AugReg, its mRI and the difference
    change = ours("table06").set_index(["model", "seed", "eval_dataset"])["value"]
    assert change.loc[("r2", 1, REF)] == pytest.approx(3.0)
    assert list(dict.fromkeys(ours("table06")["eval_dataset"])) == [REF, *SUITE]
    clip = ours("table08")
    assert clip["value"].notna().all() and set(clip["model"]) == {"r1", "r2"}
    paper = load_table("table06")
    assert paper.query("metric == 'difference'")["value"].notna().all()


@pytest.mark.parametrize("artefact", sorted(NO_PAPER_PANEL))
def test_an_artefact_without_printed_numbers_says_so_on_our_panel(artefact, monkeypatch):
    monkeypatch.setitem(PANELS, artefact, lambda *runs: (pd.DataFrame({"x": [1]}), plt.figure(), Findings([])))
    data, fig, _ = paired_experiment_panel(artefact, [run(benchmark("r1", {"FT": 0.0}))], "mini")
    assert "no paper panel" in fig.get_suptitle() and "ours (mini)" in fig.get_suptitle()
    assert list(data.columns) == ["x"]
    _, fig, _ = paired_experiment_panel(artefact, [run(benchmark("r1", {"FT": 0.0}), finetune_datasets=["a"])], "mini")
    assert "ours (mini; FT on 1 of 3 sets)" in fig.get_suptitle()  # fine-tuned on part of the suite


def test_a_run_on_fewer_sets_keeps_their_models_and_the_pretrained_one():
    rows = benchmark("r1", {"FT": -2.0})
    rows = [dict(r, accuracy=PRE - 8.0) if r["method"] == "FT" and r["finetune_dataset"] == "c" else r for r in rows]
    main = run(rows)
    on_two = main.on_sets(["b", "a"])
    assert on_two.finetune_datasets == ["b", "a"] and set(on_two.acc["finetune_dataset"]) == {"", "a", "b"}
    assert on_two.table().loc[0, "mRI"] == pytest.approx(-2.0)  # c's model (-8) left out
    assert main.table().loc[0, "mRI"] == pytest.approx(-4.0)
    with pytest.raises(ValueError, match="not fine-tuned on"):
        on_two.on_sets(["c"])


def test_a_panel_compares_its_experiment_with_main_on_the_experiments_sets(monkeypatch):
    from lib.imagenet_rib import ours_experiments

    runs = {"validation_split": run(benchmark("r1", {"FT": 1.0}), finetune_datasets=["a"]),
            "main": run(benchmark("r1", {"FT": 0.5}))}
    monkeypatch.setattr(ours_experiments, "load_run", lambda params, name, results: runs[name])
    split, main = ours_experiments.panel_runs("table10", "experiments.yaml", "results")
    assert split is runs["validation_split"] and main.finetune_datasets == ["a"]
    assert set(main.acc["finetune_dataset"]) == {"", "a"}


def test_a_full_tier_panel_is_drawn_once_every_run_it_reads_is_stored(monkeypatch, capsys):
    from lib.imagenet_rib import ours_experiments

    stored = {"validation_split": (54, 54), "main": (40, 71)}
    monkeypatch.setattr(ours_experiments, "experiments_source", lambda params: "registry")
    monkeypatch.setattr(ours_experiments, "stored_runs", lambda params, name, results: stored[name])
    assert ours_experiments.runs_not_stored("table10", "full.yaml", "r") == "experiment 'main': 40 of 71 runs in the store"
    ours_experiments.show_experiment_panel("table10", "full.yaml", "r", "out")
    assert "40 of 71 runs in the store" in capsys.readouterr().out
    assert ours_experiments.experiment_findings("table10", "full.yaml", "r") == Findings()
    stored["main"] = (71, 71)  # all stored (computed on a GPU): drawn from the store
    assert ours_experiments.runs_not_stored("table10", "full.yaml", "r") == ""
    drawn = []
    monkeypatch.setattr(ours_experiments, "our_experiment_panel", lambda *args: drawn.append(args) or (
        pd.DataFrame({"x": [1]}), plt.figure(), Findings([])))
    monkeypatch.setattr("lib.plotting.save_figure", lambda *args, **kwargs: None)
    ours_experiments.show_experiment_panel("table10", "full.yaml", "r", "out")
    assert drawn == [("table10", "full.yaml", "r")]
