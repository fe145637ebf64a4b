"""Our Seq-to-Final run in the paper's tables (`lib.seq_to_final.ours`): the settings of every tier, the frames
the notebooks draw (known values on a small synthetic frame) and the findings."""

import subprocess
import sys
from dataclasses import fields

import numpy as np
import pandas as pd
import pytest

from lib.params import ParamsError
from lib.paths import REPO_ROOT
from lib.seq_to_final import ours, shift_runs
from lib.seq_to_final.study import PROTOCOL_KEYS, RUN_NAMES, VARIABLE_PREFIX, StudySettings

TIERS = ("tiny", "mini", "full")


def study_path(tier: str):
    return REPO_ROOT / "params" / tier / "seq_to_final" / "study.yaml"


@pytest.mark.parametrize("tier", TIERS)
def test_every_tier_loads_and_validates_offline(tier):
    settings = StudySettings.load(study_path(tier))
    assert settings.specs() and settings.runs()
    assert {seq for seq, *_ in settings.runs()} >= set(settings.sequences)


def test_mini_runs_every_synthetic_sequence_and_column_with_two_seeds():
    settings = StudySettings.load(study_path("mini"))
    assert set(settings.sequences) == {ours.TABLE_SEQUENCES[artefact] for artefact in ours.TABLE02_TABLES}
    assert ours.TABLE_SEQUENCES["table13"] in settings.specs()  # Portraits' stand-in, its own methods
    assert set(ours.METHODS) <= set(settings.methods) and len(settings.seeds) >= 2
    assert settings.ablation_sequence == "RCL" and len(settings.variable_lengths) >= 2


def test_settings_load_without_torch():
    code = ("import sys\nfrom lib.seq_to_final.study import StudySettings\n"
            f"StudySettings.load({str(study_path('full'))!r})\nprint('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_torch_free_names_equal_the_methods_module():
    from lib.seq_to_final.methods import RUNS, Settings

    assert set(RUN_NAMES) == set(RUNS)
    assert PROTOCOL_KEYS == tuple(f.name for f in fields(Settings))


@pytest.mark.parametrize("old, new, message", [
    ("\nseeds:", "\nsedes:", "unknown parameter(s) ['sedes']"),
    ("  max_epochs:", "  max_epoch:", "unknown protocol key ['max_epoch']"),
    ("ablation_sequence: RCL", "ablation_sequence: Portraits", "ablation_sequence 'Portraits'"),
    ("summary_rows: ConvNet in -1 and -B", "summary_rows: ConvNet only", "unknown summary_rows 'ConvNet only'"),
])
def test_a_misspelt_key_is_a_one_line_error(tmp_path, old, new, message):
    text = study_path("mini").read_text()
    assert old in text
    path = tmp_path / "study.yaml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ParamsError) as error:
        StudySettings.load(path)
    assert message in str(error.value) and "\n" not in str(error.value)


def synthetic_frame() -> pd.DataFrame:
    """`run_study`'s frame for CLR: two architectures x two seeds x three columns, known accuracies."""
    values = {  # (architecture, seed) -> Oracle, Baseline, FT
        ("Conv-1", 0): (0.9, 0.5, 0.7), ("Conv-1", 1): (0.8, 0.5, 0.6),
        ("Conv-2", 0): (0.7, 0.3, 0.5), ("Conv-2", 1): (0.9, 0.4, 0.6),
    }
    rows = [{"sequence": "CLR", "architecture": a, "seed": s, "column": m, "run": m, "accuracy": v,
             "valid_accuracy": v, "tier": "mini", "sft_schedules": 3,
             "summary_rows": "ConvNet in -1 and -B"}
            for (a, s), accs in values.items() for m, v in zip(("Oracle", "Baseline", "FT"), accs)]
    return pd.DataFrame(rows)


def test_our_table_cells_and_summary_rows_are_the_papers_statistics_averaged_over_seeds():
    table = ours.our_table(synthetic_frame(), "table08").set_index(["row", "method"])
    assert table.loc[("Conv-1", "Oracle"), "value"] == pytest.approx(0.85)
    assert table.loc[("Conv-2", "Baseline"), "value"] == pytest.approx(0.35)
    # Mean row: per seed, mean over architectures; then mean over seeds
    assert table.loc[("Mean", "FT"), "value"] == pytest.approx(np.mean([(0.7 + 0.5) / 2, (0.6 + 0.6) / 2]))
    # Std dev row: per seed, population std over architectures (0.1 and 0.0 for FT), then mean over seeds
    assert table.loc[("Std dev", "FT"), "value"] == pytest.approx(0.05)
    assert table.loc[("Std dev", "Oracle"), "value"] == pytest.approx(np.mean([0.1, 0.05]))
    # the interval over two seeds: t(0.975, 1) x sample std / sqrt(2)
    half = 12.7062047 * np.std([0.7, 0.6], ddof=1) / np.sqrt(2)
    assert table.loc[("Conv-1", "FT"), "spread"] == pytest.approx(half, rel=1e-6)
    assert list(table.index.get_level_values("row").unique()) == ["Conv-1", "Conv-2", "Mean", "Std dev"]
    assert list(table.loc["Mean"].index) == ["Oracle", "Baseline", "FT"]


@pytest.mark.parametrize("reading, st1_rows, stb_rows", [
    ("ConvNet in -B only", ["Res-1"], ["Conv-1", "Res-1"]),  # the official script's
    ("ConvNet in -1 and -B", ["Conv-1", "Res-1"], ["Conv-1", "Res-1"]),
    ("printed rows", ["Conv-1", "Res-1"], ["Res-1"]),
])
def test_summary_rows_count_a_convnets_side_runs_by_the_reading(reading, st1_rows, stb_rows):
    accuracy = {("Conv-1", "ST-1"): 0.2, ("Conv-1", "ST-B"): 0.2, ("Res-1", "ST-1"): 0.6, ("Res-1", "ST-B"): 0.8}
    frame = pd.DataFrame([{"sequence": "CLR", "architecture": a, "seed": 0, "column": m, "run": m, "accuracy": v,
                           "tier": "full", "sft_schedules": 3, "summary_rows": reading}
                          for (a, m), v in accuracy.items()])
    means = ours.our_table(frame, "table08").query("row == 'Mean'").set_index("method")["value"]
    assert means["ST-1"] == pytest.approx(np.mean([accuracy[a, "ST-1"] for a in st1_rows]))
    assert means["ST-B"] == pytest.approx(np.mean([accuracy[a, "ST-B"] for a in stb_rows]))


def test_full_summarises_as_the_official_script():
    assert StudySettings.load(study_path("full")).summary_rows == "ConvNet in -B only"


def test_table02_is_our_mean_rows():
    frame = synthetic_frame()
    t2 = ours.table02_ours(frame).set_index("method")
    mean = ours.our_table(frame, "table08").query("row == 'Mean'").set_index("method")
    assert (t2["sequence"] == "Corruption, label, rotation").all()
    assert t2["value"].to_dict() == pytest.approx(mean["value"].to_dict())


def test_comparison_frame_holds_paper_and_ours_in_one_schema():
    data = ours.comparison_frame(synthetic_frame(), "table08")
    assert set(data["source"]) == {"paper", "ours"}
    assert set(data.loc[data["source"] == "ours", "model"]) == {"Conv-1", "Conv-2", "Mean", "Std dev"}
    assert (data.loc[data["source"] == "paper", "tier"] == "published").all()
    assert (data["metric"] == "accuracy").all()


def test_the_paper_panel_gets_its_mean_over_the_rows_our_run_has():
    from lib.seq_to_final.tables import units

    data = ours.comparison_frame(synthetic_frame(), "table08")
    paper = data[data["source"] == "paper"]
    rows = list(dict.fromkeys(paper["model"]))
    assert rows[rows.index("Mean") + 1] == "Mean (Conv-1, Conv-2)"  # right under the paper's Mean row
    printed = units("table08").loc[["Conv-1", "Conv-2"]]
    derived = paper[paper["model"] == "Mean (Conv-1, Conv-2)"].set_index("method")["value"]
    assert derived["FT"] == pytest.approx(printed["FT"].mean())
    assert np.isnan(derived["ST-B"]) and printed["ST-B"].isna().all()  # blank where the paper prints '—'
    everything = pd.DataFrame({"model": ["A", "B", "Mean"], "method": "FT", "value": [1.0, 2.0, 1.5]})
    assert ours.with_mean_on_our_rows(everything, everything).equals(everything)  # ours has every row: unchanged


def test_findings_are_differences_per_architecture_and_seed():
    found = {f.quantity: f for f in ours.findings(synthetic_frame(), "table08")}
    gap = found["Oracle − Baseline"]
    assert gap.estimate == pytest.approx(np.mean([0.4, 0.3, 0.4, 0.5]))
    assert gap.verdict == "supported"  # every unit at least .3 above: the interval lies above 0
    assert found["JM − SFT"].verdict == "not_checkable"  # columns the frame does not hold


def test_table14_counts_a_convnets_block_sized_side_runs_once():
    """On a ConvNet ST-B is ST-1's run (`study.same_run`): the length finding's units are (method, seed) pairs
    without the copies."""
    changes = {"FT": (-0.1, -0.3), "ST-1": (0.2, 0.0)}  # method -> 8 steps − 2 steps, per seed
    rows = [{"sequence": f"{VARIABLE_PREFIX}{length}", "architecture": "Conv-1", "seed": seed, "column": column,
             "run": column, "accuracy": 0.5 + (change[seed] if length == 8 else 0.0), "valid_accuracy": 0.5,
             "tier": "mini", "sft_schedules": 3, "summary_rows": "ConvNet in -1 and -B"}
            for length in (2, 8) for seed in (0, 1)
            for column, change in [*changes.items(), ("ST-B", changes["ST-1"])]]
    (finding,) = ours.findings(pd.DataFrame(rows), "table14")
    units = [-0.1, -0.3, 0.2, 0.0]
    assert finding.estimate == pytest.approx(np.mean(units))  # four units, not six
    half = 3.18244631 * np.std(units, ddof=1) / np.sqrt(4)  # t(0.975, 3 degrees of freedom)
    assert finding.interval.high - finding.interval.low == pytest.approx(2 * half, rel=1e-6)


def test_sft_findings_are_not_checked_when_a_tier_runs_fewer_than_three_schedules():
    frame = synthetic_frame()
    frame = pd.concat([frame, frame[frame["column"] == "FT"].assign(column="SFT", run="SFT"),
                       frame[frame["column"] == "FT"].assign(column="EWC", run="EWC", accuracy=0.1)])
    complete = {f.quantity: f for f in ours.findings(frame, "table08")}
    assert complete["SFT − EWC"].verdict == "supported"
    partial = {f.quantity: f for f in ours.findings(frame.assign(sft_schedules=1), "table08")}
    assert partial["SFT − EWC"].verdict == "not_checkable" and "1 of the three" in partial["SFT − EWC"].interval.method
    assert partial["Oracle − Baseline"].verdict == "supported"
    # a group SFT is one of is compared without it: the best history-using method is FT here either way
    assert partial["best history-using method − Baseline (without SFT)"].estimate == pytest.approx(
        complete["best history-using method − Baseline"].estimate)


def test_our_run_gives_the_claims_file_tables_per_seed_and_leaves_out_a_partial_sft(monkeypatch):
    from lib.seq_to_final import claims

    frame = synthetic_frame()
    frame = pd.concat([frame, frame[frame["column"] == "FT"].assign(column="SFT", run="SFT")], ignore_index=True)
    monkeypatch.setattr(ours, "run_study", lambda *args: (None, frame.assign(sft_schedules=1)))
    shifts = pd.DataFrame({"sequence": "Red tinting x3", "metric": "W_X", "step": "0", "seed": [0, 1, 2],
                           "value": [1.0, 1.1, 1.2]})
    monkeypatch.setattr(shift_runs, "our_shift_table", lambda artefact, params, draws: shifts.head(draws))
    run = claims.our_run({"study_params": "params/mini/seq_to_final/study.yaml", "results_dir": "unused",
                          "shift_draws": 2})
    assert run.kind == "seeds" and len(run.replicates) == 2
    table = run.estimate("accuracies").set_index(["row", "method"])
    assert table.loc[("Conv-1", "Oracle"), "value"] == pytest.approx(0.85)  # mean over the two seeds
    assert table.loc[("Mean", "FT"), "kind"] == "summary" and table.loc[("Conv-2", "FT"), "family"] == "Conv"
    assert "SFT" not in set(run.estimate("accuracies")["method"])  # not the paper's best-of-three-schedules column
    assert set(run.estimate("table02")["sequence"]) == {"Corruption, label, rotation"}
    with pytest.raises(KeyError):
        run.estimate("table05")  # the shift metrics are a run of their own, over draws of the data
    draws = run.alongside["table05"]
    assert draws.kind == "draws of the data" and len(draws.replicates) == 2
    assert draws.estimate("table05")["value"].item() == pytest.approx(1.05)
    assert set(run.alongside) == set(claims.SHIFT_TABLES) == {"table05"}  # Table 6's stand-in decades: not judged
    # the real Portraits decades (full) are judged
    assert claims.shift_tables("params/full/seq_to_final/study.yaml") == ("table05", "table06")
    assert claims.shift_tables("params/mini/seq_to_final/study.yaml") == ("table05",)


def test_the_ledgers_unit_rows_hold_a_convnets_block_sized_side_runs_once():
    """The paper prints a dash for a ConvNet's ST-B (its ST-1 run, `study.same_run`): our unit rows leave that cell
    out, so a claim over cells counts the run once, while the Mean row still averages it in as the paper's does."""
    from lib.seq_to_final import claims

    rows = [{"sequence": "CLR", "architecture": a, "seed": 0, "column": m, "run": m, "accuracy": v, "valid_accuracy": v,
             "tier": "mini", "sft_schedules": 3, "summary_rows": "ConvNet in -1 and -B"}
            for a, st in (("Conv-1", 0.6), ("Res-1", 0.8)) for m, v in (("ST-1", st), ("ST-B", st + (a == "Res-1") * 0.1))]
    table = claims._our_accuracies(pd.DataFrame(rows), "table08")
    units = table[table["kind"] == "unit"].set_index(["row", "method"])["value"]
    assert sorted(units.index) == [("Conv-1", "ST-1"), ("Res-1", "ST-1"), ("Res-1", "ST-B")]
    mean = table[table["row"] == "Mean"].set_index("method")["value"]
    assert mean["ST-B"] == pytest.approx((0.6 + 0.9) / 2)  # Conv-1's ST-B cell is its ST-1 run


def test_gap_closed_is_the_share_of_the_baseline_to_oracle_gap_per_row_and_source():
    from lib.seq_to_final.tables import units

    data = ours.comparison_frame(synthetic_frame(), "table08")
    gaps = ours.gap_closed(data)
    assert set(gaps["method"]) - {"Baseline", "Oracle"} == set(gaps["method"]) and "Std dev" not in set(gaps["model"])
    mine = gaps[(gaps["source"] == "ours") & (gaps["model"] == "Conv-1")].set_index("method")["value"]
    assert mine["FT"] == pytest.approx((0.65 - 0.5) / (0.85 - 0.5))  # means over seeds: FT .65, Baseline .5, Oracle .85
    printed = units("table08").loc["Res-4"]
    theirs = gaps[(gaps["source"] == "paper") & (gaps["model"] == "Res-4")].set_index("method")["value"]
    assert theirs["FT"] == pytest.approx((printed["FT"] - printed["Baseline"]) / (printed["Oracle"] - printed["Baseline"]))
    assert (gaps["metric"] == ours.GAP).all()


def test_identical_runs_counts_the_runs_where_two_methods_reach_the_same_accuracy():
    frame = pd.DataFrame({"sequence": ["RCL"] * 4 + ["CLR"] * 4, "architecture": "Conv-1",
                          "seed": [0, 0, 1, 1] * 2, "column": ["FT", "LP-FT"] * 4,
                          "accuracy": [0.5, 0.5, 0.6, 0.6, 0.5, 0.7, 0.6, 0.6]})
    counts = ours.identical_runs(frame, "LP-FT", "FT").set_index("sequence")
    assert counts.loc["RCL"].tolist() == [2, 2] and counts.loc["CLR"].tolist() == [2, 1]
    assert ours.identical_runs(frame[frame["column"] == "FT"], "LP-FT", "FT").empty  # a tier without LP-FT
