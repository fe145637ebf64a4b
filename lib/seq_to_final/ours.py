"""Our Seq-to-Final study (`study.py`) in the paper's Tables 2, 8-15, with findings on their claims.

Torch-free: the runs are computed by `precompute` before the notebooks run; `run_study` reads them back (the
store's per-run summary, `study.run_accuracies`), computing only what is missing.

Frames (one tidy frame per table, `lib.results`' schema, `source` paper / ours):
- a cell of Tables 8-14 is our test accuracy of one (row, column), the mean over seeds with the
  half-width of a 95 % t-interval over seeds as `spread` (rows: architectures; Table 14: sequence lengths);
- the `Mean` and `Std dev` rows are computed per seed as the paper computes them from its one run (mean and
  population standard deviation over the rows; which rows count in the side-tuning columns is the study's
  `summary_rows`, the official script's reading at full, `summaries.counts`), then averaged over seeds with
  their interval;
- Table 2 is our `Mean` rows, one per sequence.

Findings (`findings`): each claim is a difference A − B computed per unit, a unit being one (architecture,
seed) of a table (Table 14: one (method, seed); Table 15: one seed), judged by a t-interval over units.
The paper's value is the same difference on its printed rows (one run per cell), and each finding says whether
our interval is wider than the paper's difference, i.e. whether our run could have seen it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
import functools
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..findings import Finding, Findings, mean_interval
from ..params import tier_of
from ..plotting import paper_and_ours_hbars, paper_and_ours_heatmaps
from ..results import paper_and_ours
from ..store import RunContext, precompute_study
from .faces import PORTRAITS_SEQUENCE
from .geometry import precompute as precompute_geometry
from .study import VARIABLE_PREFIX, Study, StudySettings, column_accuracies, run_accuracies, same_run
from .summaries import counts
from .tables import METHOD_CLASS, METHODS, PAPER, SEQUENCE_TABLES, accuracies, table02, table15, units

# Our sequence name per accuracy table (Table 13: Portraits, at the small tiers its stand-in `faces`), the
# tables whose Mean rows are our Table 2 (the synthetic sequences'), and the artefacts whose notebooks read the study.
TABLE_SEQUENCES: dict[str, str] = {"table08": "CLR", "table09": "RCL", "table10": "rrr", "table11": "TTT",
                                   "table12": "sss", "table13": PORTRAITS_SEQUENCE}
TABLE02_TABLES: tuple[str, ...] = ("table08", "table09", "table10", "table11", "table12")
READS: tuple[str, ...] = ("table02", *TABLE_SEQUENCES, "table14", "table15", "claims")  # claims: the ledger on ours
SUMMARY_STATISTICS = {"Mean": lambda v: float(np.mean(v)), "Std dev": lambda v: float(np.std(v))}
EVAL = "final-step test split"
# Table 15's rows as our runs' columns name them (rows 4-7, the frozen joint model, re-run rows 0-3).
TABLE15_NAMES = {"Baseline": "ERM final", "FT": "Standard fine-tuning"}
ABLATION_RUNS = ("FT-reg-previous", "FT-init-ablated-reg-previous")
SFT_SCHEDULE_RUNS = ("SFT", "SFT-linear", "SFT-exponential")  # the runs whose best is the SFT column


def precompute(params: Mapping[str, Any], artefacts: Collection[str]) -> int:
    """Compute the stored studies' runs (`study_params`, `results_dir`) that a notebook of `artefacts` reads;
    how many were computed by this process."""
    return (precompute_study(StudySettings.load, Study, params, artefacts, READS)
            + precompute_geometry(params, artefacts))  # the analysis runs of Figs 1, 9-14, 16-17 (`geometry`)


def run_study(study_params: str, results_dir: str) -> tuple[StudySettings, pd.DataFrame]:
    """The settings and one row per (sequence, architecture, seed, column) with its test `accuracy` (the code's
    reading of SFT's schedules), the settings file's `tier`, how many of SFT's three schedules its sequence ran
    and the reading of the summary rows (`summary_rows`)."""
    settings = StudySettings.load(study_params)
    study = Study(settings, Path(results_dir), RunContext(params_file=study_params, device=settings.device))
    schedules = {name: len(set(SFT_SCHEDULE_RUNS) & set(settings.methods_of(name))) for name in settings.specs()}
    frame = column_accuracies(settings.with_doubles(study.summary(run_accuracies)))
    return settings, frame.assign(tier=tier_of(study_params), sft_schedules=frame["sequence"].map(schedules),
                                  summary_rows=settings.summary_rows)


def _sequence_rows(frame: pd.DataFrame, artefact: str) -> pd.DataFrame:
    """Tables 8-13: the runs of the table's sequence, one row per architecture."""
    return frame[frame["sequence"] == TABLE_SEQUENCES[artefact]].assign(row=lambda f: f["architecture"])


def _length_rows(frame: pd.DataFrame, artefact: str) -> pd.DataFrame:
    """Table 14: the variable-length rotation runs, one row per number of steps, shortest first."""
    rows = frame[frame["sequence"].str.startswith(VARIABLE_PREFIX)]
    rows = rows.assign(row=rows["sequence"].str.removeprefix(VARIABLE_PREFIX))
    return rows.iloc[np.argsort(rows["row"].astype(int).to_numpy(), kind="stable")]


UNIT_ROWS = {**{artefact: _sequence_rows for artefact in TABLE_SEQUENCES}, "table14": _length_rows}


def our_units(frame: pd.DataFrame, artefact: str) -> pd.DataFrame:
    """One accuracy table's runs: `row` (architecture, or the number of steps for Table 14), `seed`, `method`,
    `accuracy`, `architecture`, `summary_rows` (the reading of the summary rows)."""
    rows = UNIT_ROWS[artefact](frame, artefact)
    rows = rows[rows["column"].isin(METHODS)].rename(columns={"column": "method"})
    return rows[["row", "seed", "method", "accuracy", "architecture", "summary_rows"]]


def own_runs(units: pd.DataFrame) -> pd.DataFrame:
    """The rows of `units` (`our_units`) that are runs of their own: a ConvNet's block-sized side columns are its
    1-layer runs (`study.same_run`), left out so that a run counts once."""
    own = [same_run(architecture, method) is None for architecture, method in zip(units["architecture"], units["method"])]
    return units[np.array(own, dtype=bool)]


def over_seeds(per_seed: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Mean over seeds of `value` per `keys` (in order of appearance), with the half-width of the t-interval over
    seeds as `spread` (NaN with one seed) and the number of `seeds`."""
    records = []
    for key, block in per_seed.groupby(keys, sort=False):
        interval = mean_interval(block["value"].to_numpy(), "seeds")
        records.append({**dict(zip(keys, key if isinstance(key, tuple) else (key,))), "value": block["value"].mean(),
                        "spread": (interval.high - interval.low) / 2, "seeds": len(block)})
    return pd.DataFrame(records, columns=[*keys, "value", "spread", "seeds"])


def summary_rows(unit_rows: pd.DataFrame) -> pd.DataFrame:
    """Per seed and method, the `Mean` and `Std dev` (population) over the rows that count under the unit rows'
    `summary_rows` reading (`summaries.counts`): `row`, `seed`, `method`, `value`."""
    counted = unit_rows[np.array([counts(reading, method, architecture) for reading, method, architecture
                                  in zip(unit_rows["summary_rows"], unit_rows["method"], unit_rows["architecture"])],
                                 dtype=bool)]
    records = [{"row": name, "seed": seed, "method": method, "value": statistic(block["accuracy"].to_numpy())}
               for name, statistic in SUMMARY_STATISTICS.items()
               for (seed, method), block in counted.groupby(["seed", "method"], sort=False)]
    return pd.DataFrame(records, columns=["row", "seed", "method", "value"])


def our_table(frame: pd.DataFrame, artefact: str) -> pd.DataFrame:
    """One accuracy table of our run: `row` (units, then `Mean`, `Std dev`), `method` (Table 2's order),
    `value` (mean over seeds), `spread` (t-interval half-width over seeds), `seeds`."""
    unit_rows = our_units(frame, artefact)
    ranks = {"method": {m: i for i, m in enumerate(METHODS)},
             "row": {r: i for i, r in enumerate(dict.fromkeys(unit_rows["row"]))}}
    unit_rows = unit_rows.sort_values(["row", "method"], key=lambda c: c.map(ranks[c.name]), kind="stable")
    cells = over_seeds(unit_rows.rename(columns={"accuracy": "value"}), ["row", "method"])
    return pd.concat([cells, over_seeds(summary_rows(unit_rows), ["row", "method"])], ignore_index=True)


def table02_ours(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 2 from our `Mean` rows: `sequence` (Table 2's names), `method`, `value`, `spread`, `seeds`."""
    blocks = [our_table(frame, artefact).query("row == 'Mean'").assign(sequence=SEQUENCE_TABLES[artefact])
              for artefact in ran_tables(frame)]
    return pd.concat(blocks, ignore_index=True).drop(columns="row")


def ran_tables(frame: pd.DataFrame) -> list[str]:
    """Tables 8-12 (Table 2's rows from our run) whose sequence our run holds."""
    return [artefact for artefact in TABLE02_TABLES if (frame["sequence"] == TABLE_SEQUENCES[artefact]).any()]


def table15_ours(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 15's fine-tuning rows (0-3) from our runs, named as printed: `method`, `value`, `spread`, `seeds`
    (rows 4-7 re-run rows 0-3 through the code's frozen 2-step joint model, the same computation: not run)."""
    runs = table15_runs(frame)
    per_seed = runs.reset_index().melt(id_vars="seed", var_name="method", value_name="value").dropna()
    return over_seeds(per_seed, ["method"])


def table15_runs(frame: pd.DataFrame) -> pd.DataFrame:
    """Seeds × Table 15's fine-tuning rows (as printed) on the ablation runs' sequence and architectures."""
    ablation = frame[frame["run"].isin(ABLATION_RUNS)]
    rows = frame[frame["sequence"].isin(ablation["sequence"]) & frame["architecture"].isin(ablation["architecture"])]
    rows = rows.assign(method=rows["column"].replace(TABLE15_NAMES))
    names = [n for n in table15()["method"] if n in set(rows["method"])]
    return rows.pivot_table(index="seed", columns="method", values="accuracy", aggfunc="mean")[names]


PAPER_TABLES = {"table02": lambda: table02(), "table15": lambda: table15(),
                **{a: functools.partial(accuracies, a) for a in (*TABLE_SEQUENCES, "table14")}}
OUR_TABLES = {"table02": table02_ours, "table15": table15_ours,
              **{a: functools.partial(lambda f, artefact: our_table(f, artefact), artefact=a)
                 for a in (*TABLE_SEQUENCES, "table14")}}
# The column naming each table's rows (Tables 8-14: `row`; Table 15 has one row per method).
ROW_COLUMNS = {"table02": "sequence", "table15": ""}
# The sequence each table reports (Table 15: RCL with one architecture; Table 2: its rows).
TRAIN_DATASETS = {**SEQUENCE_TABLES, "table14": "Rotation sequences", "table15": SEQUENCE_TABLES["table09"]}


def identical_runs(frame: pd.DataFrame, method: str, other: str) -> pd.DataFrame:
    """Per sequence: how many (architecture, seed) runs it has and in how many `method`'s test accuracy equals
    `other`'s to the last digit, as when a stage of `method` keeps its start model (LP-FT whose probe selects its
    epoch 0 is FT): a claim of the one against the other then compares a model with itself. No rows where the
    tier runs only one of the two."""
    wide = frame[frame["column"].isin([method, other])].pivot_table(
        index=["sequence", "architecture", "seed"], columns="column", values="accuracy", sort=False)
    if not {method, other} <= set(wide.columns):
        return pd.DataFrame(columns=["sequence", "runs", f"{method} = {other}"])
    same = (wide[method] == wide[other]).groupby(level="sequence", sort=False)
    return pd.DataFrame({"runs": same.size(), f"{method} = {other}": same.sum()}).reset_index()


def comparison_frame(frame: pd.DataFrame, artefact: str) -> pd.DataFrame:
    """The paper's printed table and ours in one tidy frame (`lib.results`): `model` the row (an architecture,
    a length, `Mean`, `Std dev`; Table 2: the sequence; Table 15: empty), `method` the column, `metric`
    accuracy, `train_dataset` the sequence; ours with `spread` and our `tier`."""
    to_schema = {ROW_COLUMNS.get(artefact, "row"): "model"}
    paper, ours = (table.rename(columns=to_schema).drop(columns="sequence", errors="ignore")
                   for table in (PAPER_TABLES[artefact](), OUR_TABLES[artefact](frame)))
    printed_order = {m: i for i, m in enumerate(dict.fromkeys(paper["method"]))}  # columns in the paper's order
    ours = ours.sort_values("method", key=lambda m: m.map(printed_order), kind="stable")
    if artefact in UNIT_ROWS:
        paper = with_mean_on_our_rows(paper, ours)
    paper, ours = (part.assign(train_dataset=TRAIN_DATASETS.get(artefact, part.get("model")), eval_dataset=EVAL)
                   for part in (paper, ours))
    return paper_and_ours(paper, ours, paper=PAPER,
                          artefact=artefact, tier=str(frame["tier"].iloc[0]), metric="accuracy")


def with_mean_on_our_rows(paper: pd.DataFrame, ours: pd.DataFrame) -> pd.DataFrame:
    """The paper's table (`model`, `method`, `value`) with, after its `Mean` row, the mean of its printed values
    over the rows our run has (e.g. `Mean (Conv-1, Conv-2)`; blank for a method any of them leaves blank), so
    that our `Mean` row meets the paper's over the same rows; unchanged where our rows are all of the paper's."""
    rows = [r for r in dict.fromkeys(ours["model"]) if r not in SUMMARY_STATISTICS]
    printed = [r for r in dict.fromkeys(paper["model"]) if r not in SUMMARY_STATISTICS]
    if not rows or set(printed) <= set(rows) or not set(rows) <= set(printed):
        return paper
    name = f"Mean ({', '.join(rows)})"
    means = (paper[paper["model"].isin(rows)].groupby("method", sort=False)["value"]
             .agg(lambda v: v.mean(skipna=False)).reset_index().assign(model=name))
    order = list(dict.fromkeys(paper["model"]))
    order.insert(order.index("Mean") + 1, name)
    rank = {r: i for i, r in enumerate(order)}
    return (pd.concat([paper, means], ignore_index=True)
            .sort_values("model", key=lambda m: m.map(rank), kind="stable", ignore_index=True))


# ------------------------------------------------------------------------------------------------ findings

@dataclass(frozen=True)
class Comparison:
    """A claim read as a difference A − B per unit: A and B are columns (several: their best per unit), `rows`
    optionally restricts a table's rows to a family; `direction` and `threshold` what the claim predicts."""

    quantity: str
    a: tuple[str, ...]
    b: tuple[str, ...]
    claim: str
    direction: str = ">"
    threshold: float = 0.0
    family: str = ""


CLASS1 = tuple(m for m in METHODS if METHOD_CLASS[m] == "1")
CLASS2 = tuple(m for m in METHODS if METHOD_CLASS[m] == "2")
CLASS3 = tuple(m for m in METHODS if METHOD_CLASS[m] == "3")
HISTORY = tuple(m for m in METHODS if METHOD_CLASS[m] in ("1", "2", "3"))
EVERY_TABLE: tuple[Comparison, ...] = (
    Comparison("Oracle − Baseline", ("Oracle",), ("Baseline",),
               "the final step's samples alone are not enough: the oracle beats the baseline (Sec. 2.3)"),
    Comparison("best history-using method − Baseline", HISTORY, ("Baseline",),
               "leveraging historical data is critical: some method beats the baseline (Sec. 2.3)"),
    Comparison("best class 2 − best class 3", CLASS2, CLASS3,
               "adapting to the final step without the sequence does as well as using it (within .02; Sec. 1, 5)",
               ">", -0.02),
    Comparison("JM − SFT", ("JM",), ("SFT",), "the joint model does not beat sequential fine-tuning (Sec. 4)", "<"),
    Comparison("ST-1 − FT", ("ST-1",), ("FT",), "a 1-layer side module is often worse than fine-tuning (App. F)",
               "<"),
    Comparison("SFT − EWC", ("SFT",), ("EWC",),
               "sequential fine-tuning (best learning-rate schedule) beats EWC (App. E)"),
)
CONVNETS_BELOW_BASELINE = Comparison(
    "ERM − Baseline (ConvNets)", ("ERM",), ("Baseline",),
    "ConvNets fit with ERM on all steps underperform the baseline (App. E)", "<", 0.0, "Conv")
ORACLE_LEVEL = Comparison("best history-using method − Oracle", HISTORY, ("Oracle",),
                          "many methods reach oracle-level accuracy (within .02; Sec. 4)", ">", -0.02)
TABLE_COMPARISONS: dict[str, tuple[Comparison, ...]] = {
    "table08": (*EVERY_TABLE, CONVNETS_BELOW_BASELINE),
    "table09": (*EVERY_TABLE, Comparison(
        "LP-FT − best other non-oracle method", ("LP-FT",), tuple(m for m in HISTORY + ("Baseline",) if m != "LP-FT"),
        "LP-FT is the clear winner when the final shift is a label flip (Sec. 4)")),
    "table10": (*EVERY_TABLE, CONVNETS_BELOW_BASELINE),
    "table11": (*EVERY_TABLE, ORACLE_LEVEL),
    "table12": (*EVERY_TABLE, ORACLE_LEVEL),
    # Portraits prints no oracle; its Sec. 4 claims are about classes 1 and 2 against class 3 (two comparisons
    # without SFT, which stay checkable where a tier runs one of SFT's three schedules).
    "table13": (
        Comparison("best class 1 or 2 − Baseline", CLASS1 + CLASS2, ("Baseline",),
                   "leveraging historical data is critical: a method that learns from it beats the baseline "
                   "(Sec. 2.3)"),
        Comparison("best class 1 or 2 − best class 3", CLASS1 + CLASS2, CLASS3,
                   "for the real-world Portraits sequence, some methods that do not leverage the sequential nature "
                   "of historical data are also among the best-performing methods (within .02; Sec. 4)", ">", -0.02),
        Comparison("JM − best class 1 or 2", ("JM",), CLASS1 + CLASS2,
                   "the joint model does not seem to benefit from accessing all steps at once (Sec. 4)", "<"),
        EVERY_TABLE[3]),
}
# Table 14 compares lengths per (method, seed); Table 15 fine-tuning variants per seed.
LENGTH_COMPARISON = Comparison("accuracy at the longest − the shortest sequence", ("longest",), ("shortest",),
                               "performance deteriorates as the sequences get longer (App. E)", "<")
TABLE15_COMPARISONS: tuple[Comparison, ...] = (
    Comparison("FT with init ablated + reg to prev − standard FT", ("Fine-tuning w/ init ablated + reg to prev",),
               ("Standard fine-tuning",), "ablating the initialisation falls (slightly) below standard fine-tuning "
               "(App. F)", "<"),
    Comparison("FT with init ablated + reg to prev − standard FT (within .02)",
               ("Fine-tuning w/ init ablated + reg to prev",), ("Standard fine-tuning",),
               "... but gets close to it: within .02 (App. F)", ">", -0.02),
    Comparison("standard FT − ERM final", ("Standard fine-tuning",), ("ERM final",),
               "fine-tuning from the historical model beats ERM on the final step (Table 15)"),
)


def _difference(wide: pd.DataFrame, comparison: Comparison) -> pd.Series:
    """A − B per unit (row of `wide`): the best of A's columns minus the best of B's, where both exist."""
    a = wide.reindex(columns=list(comparison.a)).max(axis=1, skipna=True)
    b = wide.reindex(columns=list(comparison.b)).max(axis=1, skipna=True)
    return (a - b).dropna()


def _finding(ours: pd.DataFrame, paper: pd.DataFrame, comparison: Comparison, unit: str) -> Finding:
    """The comparison on our units (rows of `ours`, t-interval) against the paper's mean difference over its rows."""
    if comparison.family:
        ours, paper = (wide[[str(r).startswith(f"{comparison.family}-") for r in wide.index.get_level_values(0)]]
                       for wide in (ours, paper))
    mine, printed = _difference(ours, comparison), _difference(paper, comparison)
    if len(mine) < 2:
        return Finding.undefined(comparison.quantity, f"{len(mine)} unit(s) of our run", comparison.claim,
                                 comparison.direction, comparison.threshold)
    interval = mean_interval(mine.to_numpy(), unit)
    half = (interval.high - interval.low) / 2
    return Finding(comparison.quantity, float(mine.mean()), interval, comparison.claim, comparison.direction,
                   comparison.threshold, _paper_text(printed, set(ours.index.get_level_values(0)), comparison, half))


def _paper_text(printed: pd.Series, ran: set, comparison: Comparison, half: float) -> str:
    """The paper's difference first on its printed rows that our run has too (e.g. Conv-1, Conv-2), then over all
    its rows, and whether our interval's half-width could have told the first from the threshold."""
    if not len(printed):
        return "not printed"
    same = printed[printed.index.isin(ran)]
    reference = same if len(same) else printed
    distance = abs(float(reference.mean()) - comparison.threshold)
    text = (f"{same.mean():+.3f} on its printed rows we ran ({', '.join(map(str, same.index))}), "
            f"{printed.mean():+.3f} over all its {len(printed)} rows" if len(same) and len(same) < len(printed)
            else f"{printed.mean():+.3f} over its {len(printed)} printed row(s)")
    return (f"{text}, one run each; our interval's half-width {half:.3f} is "
            f"{'wider' if half > distance else 'narrower'} than the distance of the first to the threshold "
            f"({distance:.3f})")


def _table_units(frame: pd.DataFrame, artefact: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Ours as (row, seed) × method and the paper's rows × methods of one accuracy table."""
    ours = our_units(frame, artefact).pivot_table(index=["row", "seed"], columns="method", values="accuracy",
                                                  sort=False)
    return ours, units(artefact)


def _sft_schedules(frame: pd.DataFrame, artefact: str) -> int:
    """How many of SFT's three learning-rate schedules our tier ran on the table's sequence."""
    return int(frame.loc[frame["sequence"] == TABLE_SEQUENCES[artefact], "sft_schedules"].iloc[0])


def _as_run(comparison: Comparison, schedules: int) -> Comparison | str:
    """The comparison as our run can make it: with fewer than SFT's three schedules (whose best is the paper's SFT
    column), SFT leaves the groups it is one of, and a comparison of SFT itself becomes the reason it cannot be made."""
    if schedules == len(SFT_SCHEDULE_RUNS) or "SFT" not in (*comparison.a, *comparison.b):
        return comparison
    a, b = (tuple(m for m in side if m != "SFT") for side in (comparison.a, comparison.b))
    if a and b:
        return replace(comparison, a=a, b=b, quantity=f"{comparison.quantity} (without SFT)")
    return f"our SFT ran {schedules} of the three learning-rate schedules whose best is the paper's SFT column"


def _finding_as_run(ours: pd.DataFrame, paper: pd.DataFrame, comparison: Comparison, schedules: int) -> Finding:
    made = _as_run(comparison, schedules)
    if isinstance(made, str):
        return Finding.undefined(comparison.quantity, made, comparison.claim, comparison.direction, comparison.threshold)
    return _finding(ours, paper, made, "(architecture, seed) units")


def _sequence_findings(frame: pd.DataFrame, artefact: str) -> Findings:
    ours, paper = _table_units(frame, artefact)
    schedules = _sft_schedules(frame, artefact)
    return Findings([_finding_as_run(ours, paper, c, schedules) for c in TABLE_COMPARISONS[artefact]])


def _table02_findings(frame: pd.DataFrame) -> Findings:
    """Table 2's central claim per sequence: the best class-2 mean within .02 of the best class-3 mean."""
    found = []
    for artefact in ran_tables(frame):
        ours, paper = _table_units(frame, artefact)
        comparison = replace(EVERY_TABLE[2], quantity=f"{SEQUENCE_TABLES[artefact]}: {EVERY_TABLE[2].quantity}")
        found.append(_finding_as_run(ours, paper, comparison, _sft_schedules(frame, artefact)))
    return Findings(found)


def _ends(wide: pd.DataFrame) -> pd.DataFrame:
    """Lengths as columns renamed to `shortest` and `longest`."""
    lengths = sorted(wide.columns, key=int)
    return wide[[lengths[0], lengths[-1]]].set_axis(["shortest", "longest"], axis=1)


def _table14_findings(frame: pd.DataFrame) -> Findings:
    """Per (method, seed) unit; a ConvNet's block-sized side columns are its 1-layer runs (`study.same_run`), so
    they are left out rather than counted twice."""
    ours = own_runs(our_units(frame, "table14")).pivot_table(index=["method", "seed"], columns="row", values="accuracy")
    paper = units("table14").T
    return Findings([_finding(_ends(ours), _ends(paper), LENGTH_COMPARISON, "(method, seed) units")])


def _table15_findings(frame: pd.DataFrame) -> Findings:
    ours = table15_runs(frame)
    paper = table15().set_index("method")["value"].to_frame().T
    return Findings([_finding(ours, paper, c, "seeds") for c in TABLE15_COMPARISONS])


FINDINGS = {"table02": _table02_findings, "table14": _table14_findings, "table15": _table15_findings,
            **{a: functools.partial(_sequence_findings, artefact=a) for a in TABLE_SEQUENCES}}


def findings(frame: pd.DataFrame, artefact: str) -> Findings:
    """The claims resting on one of Tables 2, 8-15, judged on our run (see the module's docstring)."""
    return FINDINGS[artefact](frame)


# ------------------------------------------------------------------------------------------------ drawing

# What each paper panel's cells are, where not "one run per architecture and method" (Tables 8-13).
PAPER_TITLES = {"table02": "Mean rows of Tables 8-13 (over 12 architectures)",
                "table14": "Res-4, one run per sequence length and method", "table15": "Res-4 on RCL, one run per row"}
# The runs whose architectures the title of ours names, where not every run (Table 15: the ablation's).
TITLE_RUNS = {"table15": lambda frame: frame[frame["run"].isin(ABLATION_RUNS)]}
SHOWN_ROWS = ("Std dev",)  # left out of the heatmaps (their own scale in the paper's figure; in the CSV)


def our_panel(artefact: str, frame: pd.DataFrame) -> tuple[pd.DataFrame, Figure, Findings]:
    """The paper's table and ours drawn side by side by one function on one colour scale (`lib.plotting`'s
    `paper_and_ours_heatmaps`; Table 15: `paper_and_ours_hbars`): `(data, figure, findings)`, data being both in
    the one results schema (`source` paper / ours, Std dev rows included)."""
    data = comparison_frame(frame, artefact)
    ours = data[data["source"] == "ours"]
    seeds = int(frame["seed"].nunique())
    if artefact in UNIT_ROWS:
        rows = "rows " + ", ".join(str(r) for r in dict.fromkeys(ours["model"]) if r not in SUMMARY_STATISTICS)
    else:  # Table 2: Mean rows over our architectures; Table 15: the ablation's architecture
        runs = TITLE_RUNS.get(artefact, lambda f: f)(frame)
        rows = "on " + ", ".join(dict.fromkeys(runs["architecture"]))
    titles = (f"paper: Table {int(artefact[5:])}, {PAPER_TITLES.get(artefact, 'one run per architecture and method')}",
              f"ours ({ours['tier'].iloc[0] if len(ours) else 'no run'}, mean over {seeds} seeds; {rows})")
    fig = DRAWINGS.get(artefact, _heatmaps)(data, titles)
    return data, fig, findings(frame, artefact)


def _heatmaps(data: pd.DataFrame, titles: tuple[str, str]) -> Figure:
    """Rows × methods, the paper's above ours, one colour scale (the Std dev rows left out)."""
    return paper_and_ours_heatmaps(data[~data["model"].isin(SHOWN_ROWS)], "model", "method", fmt=".2f", titles=titles,
                                   stacked=True)


TABLE15_BLOCKS = ("fine-tuning (rows 0-3)", "frozen joint (rows 4-7)")


def _bars(data: pd.DataFrame, titles: tuple[str, str]) -> Figure:
    """Table 15 as the redraw draws it: one group per fine-tuning variant (rows 0-3), its bar beside the frozen
    joint row meant to replicate it (rows 4-7: the paper's alone, as ours does not run them), paper | ours on one
    accuracy axis, ours with its t-interval over seeds."""
    printed = list(table15()["method"])  # rows 0-7: row i + 4 re-runs row i through the frozen joint model
    row = data["method"].map({name: i for i, name in enumerate(printed)})
    shown = data.assign(variant=[printed[i % 4] for i in row], block=[TABLE15_BLOCKS[i // 4] for i in row])
    return paper_and_ours_hbars(shown, "variant", "block", titles=titles, decimals=4,
                                xlabel="test accuracy, final step (RCL)",
                                note="rows 4-7 not run: the code's frozen joint model repeats rows 0-3's computation")


DRAWINGS = {"table15": _bars}
GAP = "share of the Baseline-to-Oracle gap closed"


def gap_closed(data: pd.DataFrame) -> pd.DataFrame:
    """A comparison frame (`comparison_frame`) as the share of the gap from Baseline to Oracle each method closes in
    its row, (acc − Baseline) / (Oracle − Baseline): 0 is the baseline, 1 the oracle, below 0 worse than the
    baseline; ours from the means over seeds. NaN where the row lacks either or they are equal (and where the
    cell is blank); the Std dev rows and the Baseline and Oracle columns themselves are left out."""
    keys = ["source", "model"]
    cells = data[~data["model"].isin(SHOWN_ROWS)]
    ends = cells[cells["method"].isin(["Baseline", "Oracle"])].pivot_table(index=keys, columns="method",
                                                                           values="value", aggfunc="mean")
    if not {"Baseline", "Oracle"} <= set(ends.columns):
        return cells.iloc[:0].assign(metric=GAP)
    width = (ends["Oracle"] - ends["Baseline"]).where(lambda w: w.abs() > 1e-9).rename("width")
    shares = cells[~cells["method"].isin(["Baseline", "Oracle"])].join(ends["Baseline"], on=keys).join(width, on=keys)
    shares = shares.assign(value=(shares["value"] - shares["Baseline"]) / shares["width"], spread=np.nan, metric=GAP)
    return shares.drop(columns=["Baseline", "width"]).reset_index(drop=True)  # NaN cells kept: blank, in place


def gap_panel(artefact: str, frame: pd.DataFrame) -> tuple[pd.DataFrame, Figure]:
    """`gap_closed` of the artefact's comparison frame drawn as `our_panel` draws the accuracies (the paper above
    ours, one diverging scale from −1 to 1 centred on the baseline; cells beyond it keep their colour's end and
    print their value), so that method differences show whatever the task's difficulty."""
    data = gap_closed(comparison_frame(frame, artefact))
    seeds = int(frame["seed"].nunique())
    fig = paper_and_ours_heatmaps(data, "model", "method", fmt=".2f", center=0.0, limits=(-1.0, 1.0), stacked=True,
                                  titles=(f"paper: Table {int(artefact[5:])}, {GAP}",
                                          f"ours ({data['tier'].iloc[-1] if len(data) else 'no run'}, of the means "
                                          f"over {seeds} seeds)"))
    return data, fig


def cells_text(table: pd.DataFrame, index: str = "row", columns: str | None = "method") -> pd.DataFrame:
    """An `our_table` / `table02_ours` / `table15_ours` frame as `index` × `columns` of "mean ± half-width"
    text (`columns=None`: one column, `accuracy`)."""
    text = table.assign(cell=[f"{v:.3f} ± {s:.3f}" for v, s in zip(table["value"], table["spread"])])
    if columns is None:
        return text.set_index(index)[["cell"]].rename(columns={"cell": "accuracy"})
    return text.pivot(index=index, columns=columns, values="cell").reindex(
        index=list(dict.fromkeys(text[index])), columns=list(dict.fromkeys(text[columns])))
