"""Claims ledger of seq_to_final: the tables the claims file (`lib/published/seq_to_final/claims.yaml`)
judges. Every claim fits a shared predicate of `lib.claims`, so no bespoke assessor is registered.

Tables (tidy, one row per printed number, `value` a float, NaN for '—'):

* `table02`: Table 2's means, `sequence`, `panel`, `method` (Table 2's names), `class`.
* `accuracies`: Tables 8-14 stacked, `table`, `sequence`, `row` (architecture or number of steps,
  `Mean`, `Std dev`), `kind` (`unit` or `summary`), `family` (Conv, Dense, Res; '' otherwise), `method`.
* `table05` (`metric`, `sequence`, `step`) and `table06` (`time_period`, `metric`): the shift metrics.
* `table15`: `method`; `table15_pairs`: the same numbers as `pair` (row i and i + 4 of the caption)
  and `variant` (`fine-tuning` or `frozen joint`).

Readings: "among the best" and "oracle-like" use the captions' .02 threshold on the printed means; a
difference the text relies on is compared in each claim's `reading` with the spread across
architectures (the Std dev rows), since every cell is a single run.

Our run (`our_run`): the tier's study in the same tables, each seed a replicate: `accuracies` (our
architectures as the unit rows, our `Mean` and `Std dev` over them), `table02` (our Mean rows of the
sequences Table 2 reports) and `table15` (its fine-tuning rows 0-3). Our sequences stand in the paper's
sequence names (the digits for CIFAR, the face stand-in for Portraits: `lib.seq_to_final.ours`). Table 15's
frozen joint rows are not run, so claims on them are not checkable on ours; nor, here, are the claims on the
shift metrics (Tables 5-6), whose replicates are draws of the data, not training seeds: the notebooks of
Tables 5 and 6 judge them on ours (`shift_runs.our_shift_panel`). The SFT column is the best of three learning-rate schedules; a tier that runs fewer
(mini: the constant rate only) has no SFT column in the ledger's view, so claims about SFT are not
checkable there and claims over method classes are judged without it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import cache
from typing import Any

import pandas as pd

from ..claims import OurRun, Tables, Verdict, cached_tables, findings_of, seed_run
from ..claims import claims_for as _claims_for
from .tables import ACCURACY_TABLES, METHOD_CLASS, PAPER, accuracies, shift_metrics, table02, table15

FROZEN_JOINT_OFFSET = 4  # Table 15's caption: row i + 4 replicates row i


def _table15_pairs() -> pd.DataFrame:
    frame = table15()
    frame["pair"] = (frame["i"] % FROZEN_JOINT_OFFSET).astype(str)
    frame["variant"] = ["fine-tuning" if i < FROZEN_JOINT_OFFSET else "frozen joint" for i in frame["i"]]
    return frame


TABLE_SOURCES: dict[str, Callable[[], pd.DataFrame]] = {
    "table02": table02,
    "accuracies": lambda: pd.concat([accuracies(a) for a in ACCURACY_TABLES], ignore_index=True),
    "table05": lambda: shift_metrics("table05"),
    "table06": lambda: shift_metrics("table06"),
    "table15": table15,
    "table15_pairs": _table15_pairs,
}
TABLE_NAMES: tuple[str, ...] = tuple(TABLE_SOURCES)
BESPOKE: dict[str, Callable[[Tables], Verdict]] = {}


table = cached_tables(PAPER, TABLE_SOURCES)  # the tables the claims file may name


def claims_for(artefact: str):
    """The claims of seq_to_final resting on one artefact."""
    return _claims_for(PAPER, artefact)


def _our_accuracies(frame: pd.DataFrame, artefact: str) -> pd.DataFrame:
    """One accuracy table of our run per seed in the paper's schema (`table`, `sequence`, `row`, `kind`,
    `family`, `method`, `seed`, `value`): our unit rows, then our Mean and Std dev rows over them. A ConvNet's
    block-sized side cells are its 1-layer runs (`ours.own_runs`): they enter the summary rows as the paper's
    do, but are left out of the unit rows, where the paper prints a dash, so a claim over cells counts each run once."""
    from .ours import TRAIN_DATASETS, our_units, own_runs, summary_rows

    units = our_units(frame, artefact)
    summaries = summary_rows(units).assign(kind="summary", family="")
    units = own_runs(units)
    family = units["row"].astype(str).str.extract(r"^(\w+)-", expand=False).fillna("")  # "Conv-1" -> Conv; a length none
    units = units.rename(columns={"accuracy": "value"}).assign(kind="unit", family=family)
    rows = pd.concat([units, summaries], ignore_index=True)
    return rows.assign(table=artefact, sequence=TRAIN_DATASETS[artefact])[
        ["table", "sequence", "row", "kind", "family", "method", "seed", "value"]]


def _our_table02(accuracies_: pd.DataFrame) -> pd.DataFrame:
    """Table 2 of our run per seed: the Mean rows of the sequences Table 2 reports, with its panel and class."""
    panels = table02().drop_duplicates("sequence").set_index("sequence")["panel"]
    means = accuracies_[(accuracies_["row"] == "Mean") & accuracies_["sequence"].isin(panels.index)]
    return means.assign(panel=means["sequence"].map(panels), **{"class": means["method"].map(METHOD_CLASS)})[
        ["sequence", "panel", "method", "class", "seed", "value"]]


def _our_table15(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 15's fine-tuning rows of our run per seed: `i` (the printed row), `method`, `seed`, `value`."""
    from .ours import table15_runs

    runs = table15_runs(frame)
    rows = runs.reset_index().melt(id_vars="seed", var_name="method", value_name="value").dropna()
    return rows.assign(i=rows["method"].map(table15().set_index("method")["i"]))[["i", "method", "seed", "value"]]


OUR_FINDINGS = ("figure09", "figure16", "figure17", "figure01", "figure10", "figure11", "figure12", "figure13",
                "figure14", "figure15")
"""The figures whose findings on our analysis runs judge a claim of the ledger (`ours: {findings: [...]}`; the
keys of `geometry.FIGURE_FINDINGS`, then those of `path_readings.PATH_CLAIMS`, judged on the panels each figure's
notebook draws at the tier; named here so that reading the claims file does not import the analyses)."""


SHIFT_TABLES = ("table05",)
"""The shift tables whose claims the ledger judges on our sequences, over `shift_draws` draws of the data (a run of
its own: its replicates are draws, not seeds); Table 6 too where the study's Portraits are the real decades
(`shift_tables`). The mini tier's face stand-in has constructed decades, so its claims would check the
construction; its notebook shows them, the ledger leaves them not checkable."""


def shift_tables(study_params: str) -> tuple[str, ...]:
    """`SHIFT_TABLES`, and Table 6 where the study's Portraits sequence is the real one (`portraits.PORTRAITS_POOL`)."""
    from .portraits import PORTRAITS_POOL
    from .study import StudySettings

    real = StudySettings.load(study_params).portraits.get("pool") == PORTRAITS_POOL
    return SHIFT_TABLES + (("table06",) if real else ())


def our_run(params: Mapping[str, Any]) -> OurRun:
    """The tier's study (`study_params`, `results_dir`; run or read back) as the claims file's tables
    `accuracies`, `table02` and `table15`, each seed a replicate; the findings of the figures of
    `OUR_FINDINGS` on the analysis runs (`geometry_params`); and `shift_tables` on `shift_draws` draws of the
    study's sequences, alongside."""
    from ..params import tier_of
    from ..manifest import notebook_params
    from .geometry import FIGURE_FINDINGS, read_runs
    from .path_readings import PATH_CLAIMS, path_findings
    from .ours import ABLATION_RUNS, SFT_SCHEDULE_RUNS, TABLE_SEQUENCES, run_study
    from .shift_runs import our_shift_table

    _, frame = run_study(params["study_params"], params["results_dir"])
    partial = (frame["column"] == "SFT") & (frame["sft_schedules"] < len(SFT_SCHEDULE_RUNS))
    frame = frame[~partial]  # not the paper's SFT column (the best of its three schedules)
    tables = [_our_accuracies(frame, a) for a in (*TABLE_SEQUENCES, "table14")]
    accuracies_ = pd.concat([t for t in tables if len(t)], ignore_index=True)  # the tables our tier ran
    frames = {"accuracies": accuracies_, "table02": _our_table02(accuracies_)}
    if frame["run"].isin(ABLATION_RUNS).any():
        frames["table15"] = _our_table15(frame)
    runs = cache(lambda: read_runs(params["geometry_params"], params["results_dir"]))  # read once, when first asked

    def panels(artefact: str) -> list[str]:  # the panels the figure's notebook draws at the analysis runs' tier
        return notebook_params(PAPER, artefact, tier_of(params["geometry_params"]))["panels"]

    producers = {**{artefact: lambda f=findings: f(runs()) for artefact, findings in FIGURE_FINDINGS.items()},
                 **{artefact: lambda a=artefact: path_findings(runs(), a, panels(a)) for artefact in PATH_CLAIMS}}
    tier = tier_of(params["study_params"])
    tables = shift_tables(params["study_params"])
    shifts = seed_run({a: our_shift_table(a, params["study_params"], params["shift_draws"]) for a in tables},
                      tier, kind="draws of the data")
    return replace(seed_run(frames, tier), findings=findings_of(lambda artefact: producers[artefact]()),
                   alongside=dict.fromkeys(tables, shifts))
