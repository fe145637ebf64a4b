"""The paper's table and our run of it as one tidy frame (`lib.results`), drawn side by side on one
scale by one function of `lib.plotting` (`paper_and_ours_heatmaps`, or `paper_and_ours_bars` for Fig. 4).

`PAIRS` is the wiring, one row per artefact: the quantity drawn, how the printed table becomes rows
of that quantity (rows: methods; columns: the paper's models), how our benchmark's run becomes the
same rows per seed (columns: our pretraining regimes), the drawing function of `lib.plotting` and its
options, and what unavoidably differs. `paired_panel` runs (or reads back) the tier's benchmark and
returns `(combined frame, figure, Findings)`. `draw_pair` is the one path from a `Pair` and our rows
to the combined frame and figure; the appendix experiments' pairs (`ours_experiments.EXPERIMENT_PAIRS`)
use it too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from textwrap import fill
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..plotting import paper_and_ours_bars, paper_and_ours_heatmaps
from .. import results
from ..params import tier_of
from .benchmark import PRETRAINED, BenchmarkSettings
from .figures import figure04_data, figure08_data, short
from .ours import FT_SET, Panel, judged, ood_average_before_after, ood_cells, run_benchmark
from .tables import SUITE, load_table, model_label, pretrained_baseline, select

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PAPER = "imagenet_rib"
MRI_COLUMN = "mRI"  # Table 2's mRI column, beside its RI per fine-tuning set
TITLE_WIDTH = 42  # characters per line of a panel title


# -- the paper's rows: method, model, value (and train_dataset where the table has one) -------------
def _labelled(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(model=[model_label(a, p) for a, p in zip(frame["architecture"], frame["pretraining"])])


def printed(artefact: str, metric: str, setting: str = "", labels: tuple[str, ...] = ()) -> pd.DataFrame:
    """One number per method and model (and `labels`, e.g. `eval_dataset`), as printed (`setting`: the
    table's block)."""
    frame = _labelled(select(load_table(artefact), metric=metric, setting=setting))
    return frame[["method", "model", *labels, "value"]]


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


def printed_before_after(data: Callable[[], pd.DataFrame]) -> pd.DataFrame:
    """Fig. 4 / Fig. 8 as redrawn from the printed tables (`figures.figure04_data` / `figure08_data`): per
    model the mean accuracy on D before fine-tuning (method `pretrained`, Table 17) and after each
    method (before + the Table 3 mRI)."""
    frame = data()
    before = frame.drop_duplicates("model").assign(method=PRETRAINED, value=lambda d: d["before"])
    return pd.concat([before, frame.assign(value=frame["after"])])[["method", "model", "value"]]


# -- our rows: regime (as model), seed, method, value (and train_dataset) -------------------------
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


def per_seed_before_after(methods: tuple[str, ...], settings: BenchmarkSettings, acc: pd.DataFrame,
                          table: pd.DataFrame) -> pd.DataFrame:
    """Fig. 4 / Fig. 8: per regime and seed, the pretrained model's average OOD accuracy (method
    `pretrained`) and the average after each of `methods` (all where empty): `ours.ood_average_before_after`."""
    frame = ood_average_before_after(acc, settings.suite)
    frame = frame[frame["method"].isin(methods)] if methods else frame
    before = frame.drop_duplicates(["regime", "seed"]).assign(method=PRETRAINED, value=lambda d: d["before"])
    long = pd.concat([before, frame.assign(value=frame["after"])])[["regime", "seed", "method", "value"]]
    return long.rename(columns={"regime": "model"})


@dataclass(frozen=True)
class Pair:
    """One artefact's paper and ours: the quantity (`metric`, in both titles), the paper's rows, ours (a
    function of our run), the drawing function of `lib.plotting` with its rows (`index`), columns and
    options, and what differs from the paper."""

    metric: str
    paper: Callable[[], pd.DataFrame]
    ours: Callable[..., pd.DataFrame]
    columns: str = "model"
    index: str = "method"
    draw: Callable[..., Figure] = paper_and_ours_heatmaps
    options: Mapping[str, Any] = field(default_factory=lambda: {"center": 0.0})
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
                    partial(per_seed, FT_SET), options={"center": None}, difference=REGIME_NOTE),
    "table30": Pair("accuracy change from the pretrained model, mean over (fine-tuning set, other OOD set) cells",
                    partial(printed_ood_change, "table30", "table17"), per_seed_ood_change,
                    difference="columns: our regimes; the paper's one model is ViT-B/16 IN-1K + AugReg"),
    "figure04": Pair("mean accuracy on the OOD sets (%), pretrained and after vanilla FT",
                     partial(printed_before_after, figure04_data), partial(per_seed_before_after, ("FT",)),
                     columns="method", index="model", draw=paper_and_ours_bars,
                     options={"ylabel": "mean OOD accuracy (%)", "palette": {PRETRAINED: "tab:blue", "FT": "tab:red"}},
                     difference="paper: before = Table 17's mean over D, after = before + Table 3's FT mRI; "
                                "ours: our regimes, black: the range over seeds"),
    "figure08": Pair("mean accuracy on the OOD sets (%), pretrained (first row) and after each method",
                     partial(printed_before_after, figure08_data), partial(per_seed_before_after, ()),
                     options={"center": None},
                     difference="paper: before = Table 17's mean over D, after = before + Table 3's mRI (blank: "
                                "a dash, or a model Table 17 lacks); columns: our regimes, not the paper's models"),
}


def _label(name: str) -> str:
    """Short dataset and method labels; our digit domains without their `digits_` prefix."""
    return short(name.removeprefix("digits_"))


def draw_pair(artefact: str, pair: Pair, our_rows: pd.DataFrame, tier: str) -> tuple[pd.DataFrame, Figure]:
    """The paper's rows of `pair` and `our_rows` (per seed) in one tidy frame, drawn by the pair's
    function of `lib.plotting` (one scale, the paper's order); the titles name the quantity, our tier
    and seeds, and what differs from the paper."""
    frame = results.paper_and_ours(pair.paper(), our_rows, paper=PAPER, artefact=artefact, tier=tier,
                                   metric=pair.metric)
    seeds = frame.loc[frame["source"] == "ours", "seed"].nunique()
    ours_title = f"ours ({tier}, {seeds} seed{'s' * (seeds != 1)}): {pair.metric}"
    fig = pair.draw(frame, pair.index, pair.columns, label=_label, **pair.options,
                    titles=(fill(f"paper: {pair.metric}", TITLE_WIDTH),
                            "\n".join(fill(t, TITLE_WIDTH) for t in (ours_title, pair.difference) if t)))
    return frame, fig


def paper_and_ours(artefact: str, settings: BenchmarkSettings, acc: pd.DataFrame, table: pd.DataFrame,
                   tier: str) -> tuple[pd.DataFrame, Figure]:
    """The paper's rows and our benchmark's (per seed) of `artefact` in one tidy frame, and their
    figure (`draw_pair`)."""
    if artefact not in PAIRS:
        raise KeyError(f"no paper-and-ours pair for {artefact!r}; pairs exist for {sorted(PAIRS)}")
    pair = PAIRS[artefact]
    return draw_pair(artefact, pair, pair.ours(settings, acc, table), tier)


def paired_panel(artefact: str, benchmark_params: str, results_dir: str) -> Panel:
    """`(combined frame, paper-and-ours figure, Findings)` of `artefact` from the tier's benchmark."""
    settings, acc, table = run_benchmark(benchmark_params, results_dir)
    frame, fig = paper_and_ours(artefact, settings, acc, table, tier_of(benchmark_params))
    return frame, fig, judged(artefact, settings, acc, table)
