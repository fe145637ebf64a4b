"""The paper's table and our run of it as one tidy frame (`lib.results`), drawn side by side on one
colour scale by `lib.plotting.paper_and_ours_heatmaps`.

`PAIRS` is the wiring, one row per artefact: the quantity drawn, how the printed table becomes rows
of that quantity (rows: methods; columns: the paper's models), how our benchmark's run becomes the
same rows per seed (columns: our pretraining regimes), and what unavoidably differs. `paired_panel`
runs (or reads back) the tier's benchmark and returns `(combined frame, figure, Findings)`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from textwrap import fill
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..plotting import paper_and_ours_heatmaps
from .. import results
from ..params import tier_of
from .benchmark import BenchmarkSettings
from .figures import short
from .ours import FT_SET, Panel, judged, ood_cells, run_benchmark
from .tables import SUITE, load_table, model_label, pretrained_baseline, select

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PAPER = "imagenet_rib"
MRI_COLUMN = "mRI"  # Table 2's mRI column, beside its RI per fine-tuning set
TITLE_WIDTH = 42  # characters per line of a panel title


# -- the paper's rows: method, model, value (and train_dataset where the table has one) -------------
def _labelled(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(model=[model_label(a, p) for a, p in zip(frame["architecture"], frame["pretraining"])])


def printed(artefact: str, metric: str, setting: str = "") -> pd.DataFrame:
    """One number per method and model, as printed (`setting`: the table's block)."""
    frame = _labelled(select(load_table(artefact), metric=metric, setting=setting))
    return frame[["method", "model", "value"]]


def printed_mean(artefact: str, over: str) -> pd.DataFrame:
    """The mean over `over` (e.g. the fine-tuning sets) of the printed numbers, per method and model."""
    frame = _labelled(load_table(artefact))
    return frame.groupby(["method", "model"], sort=False)["value"].mean().reset_index()


def printed_ri(artefact: str) -> pd.DataFrame:
    """An RI table's RI per fine-tuning set (`train_dataset`) and its mRI (`train_dataset` "mRI")."""
    frame = _labelled(load_table(artefact))
    column = np.where(frame["metric"] == "mRI", MRI_COLUMN, frame["finetune_dataset"])
    return frame.assign(train_dataset=column)[["method", "model", "train_dataset", "value"]]


def printed_ood_change(artefact: str, baseline: str) -> pd.DataFrame:
    """Per method and model, the mean over (fine-tuning set, other dataset of D) cells of the printed accuracy
    minus the pretrained accuracy of table `baseline` (Table 30 with Table 17: the baseline of its RIs)."""
    frame = _labelled(load_table(artefact))
    before = pretrained_baseline(baseline)
    cells = frame[frame["finetune_dataset"].isin(SUITE) & frame["eval_dataset"].isin(SUITE)
                  & (frame["eval_dataset"] != frame["finetune_dataset"])].dropna(subset=["value"])
    cells = cells.assign(value=cells["value"] - cells["eval_dataset"].map(before))
    return cells.groupby(["method", "model"], sort=False)["value"].mean().reset_index()


# -- our rows: regime (as model), seed, method, value (and train_dataset) -------------------------
Ours = Callable[[BenchmarkSettings, pd.DataFrame, pd.DataFrame], pd.DataFrame]


def per_seed(column: str, settings: BenchmarkSettings, acc: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """`column` of the RI/mRI table, per regime, seed and method."""
    return table[["regime", "seed", "method", column]].rename(columns={"regime": "model", column: "value"})


def per_seed_ri(regimes: tuple[str, ...], settings: BenchmarkSettings, acc: pd.DataFrame,
                table: pd.DataFrame) -> pd.DataFrame:
    """The RI per fine-tuning set and mRI (`train_dataset` "mRI"), per seed and method, of the first of
    `regimes` that the run has (the regime standing for the paper's one model)."""
    present = [r for r in regimes if r in set(table["regime"])]
    if not present:
        raise ValueError(f"the run has none of the regimes {list(regimes)}; it has {sorted(set(table['regime']))}")
    part = table[table["regime"] == present[0]].rename(columns={c: c.removeprefix("RI ") for c in table.columns})
    columns = ["mRI", *settings.suite]
    long = part.melt(id_vars=["regime", "seed", "method"], value_vars=columns, var_name="train_dataset")
    return long.rename(columns={"regime": "model"}).replace({"train_dataset": {"mRI": MRI_COLUMN}})


def per_seed_ood_change(settings: BenchmarkSettings, acc: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """Per regime, seed and method, the mean over (fine-tuning set, other suite set) cells of the accuracy
    change from the pretrained model (`ours.ood_cells` of each seed)."""
    rows = [ood_cells(part, settings.suite).assign(seed=seed) for seed, part in acc.groupby("seed", sort=False)]
    cells = pd.concat(rows)
    means = cells.groupby(["regime", "seed", "method"], sort=False)["change"].mean().reset_index()
    return means.rename(columns={"regime": "model", "change": "value"})


@dataclass(frozen=True)
class Pair:
    """One artefact's paper-and-ours heatmaps: the quantity (`metric`, in both titles), the paper's rows,
    ours, the heatmap's columns (`model` or `train_dataset`), its centre, and what differs from the paper."""

    metric: str
    paper: Callable[[], pd.DataFrame]
    ours: Ours
    columns: str = "model"
    center: float | None = 0.0
    difference: str = ""


REGIME_NOTE = "columns: our pretraining regimes, not the paper's models"
PAIRS: dict[str, Pair] = {
    "table02": Pair("RI per fine-tuning set and mRI", partial(printed_ri, "table02"),
                    partial(per_seed_ri, ("augmented", "rib_vit_b16_augreg_in1k")), columns="train_dataset",
                    difference="one regime: `augmented` (our analogue of IN-1K + AugReg; at full the paper's model); "
                               "columns: our fine-tuning domains"),
    "table03": Pair("mRI", partial(printed, "table03", "mRI"), partial(per_seed, "mRI"), difference=REGIME_NOTE),
    "table15": Pair("mRI, mean over seeds", partial(printed, "table15", "mRI", "3 seeds"), partial(per_seed, "mRI"),
                    difference=REGIME_NOTE),
    "table18": Pair("backward transfer", partial(printed, "table18", "backward transfer"),
                    partial(per_seed, "backward transfer"), difference=REGIME_NOTE),
    "table19": Pair(f"{FT_SET}, mean over the fine-tuning sets", partial(printed_mean, "table19", "finetune_dataset"),
                    partial(per_seed, FT_SET), center=None, difference=REGIME_NOTE),
    "table30": Pair("accuracy change from the pretrained model, mean over (fine-tuning set, other OOD set) cells",
                    partial(printed_ood_change, "table30", "table17"), per_seed_ood_change,
                    difference="columns: our regimes; the paper's one model is ViT-B/16 IN-1K + AugReg"),
}


def _label(name: str) -> str:
    """Short dataset and method labels; our digit domains without their `digits_` prefix."""
    return short(name.removeprefix("digits_"))


def paper_and_ours(artefact: str, settings: BenchmarkSettings, acc: pd.DataFrame, table: pd.DataFrame,
                   tier: str) -> tuple[pd.DataFrame, Figure]:
    """The paper's rows and our run's (per seed) of `artefact` in one tidy frame, and their heatmaps
    side by side on one colour scale, rows in the paper's method order."""
    if artefact not in PAIRS:
        raise KeyError(f"no paper-and-ours pair for {artefact!r}; pairs exist for {sorted(PAIRS)}")
    pair = PAIRS[artefact]
    frame = results.paper_and_ours(pair.paper(), pair.ours(settings, acc, table), paper=PAPER, artefact=artefact,
                                   tier=tier, metric=pair.metric)
    seeds = frame.loc[frame["source"] == "ours", "seed"].nunique()
    ours_title = f"ours ({tier}, {seeds} seed{'s' * (seeds != 1)}): {pair.metric}"
    fig = paper_and_ours_heatmaps(frame, "method", pair.columns, center=pair.center, label=_label,
                                  titles=(fill(f"paper: {pair.metric}", TITLE_WIDTH),
                                          "\n".join(fill(t, TITLE_WIDTH) for t in (ours_title, pair.difference) if t)))
    return frame, fig


def paired_panel(artefact: str, benchmark_params: str, results_dir: str) -> Panel:
    """`(combined frame, paper-and-ours figure, Findings)` of `artefact` from the tier's benchmark."""
    settings, acc, table = run_benchmark(benchmark_params, results_dir)
    frame, fig = paper_and_ours(artefact, settings, acc, table, tier_of(benchmark_params))
    return frame, fig, judged(artefact, settings, acc, table)
