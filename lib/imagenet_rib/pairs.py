"""The paper's table and our run of it as one tidy frame (`lib.results`), drawn side by side on one
scale by one function of `lib.plotting` (`paper_and_ours_heatmaps`, or `paper_and_ours_bars` for Fig. 4);
Fig. 8's ours is drawn by the redraw's own function (`before_after_panels`).

`PAIRS` is the wiring, one row per artefact: the quantity drawn, how the printed table becomes rows
of that quantity (rows: methods; columns: the paper's models), how our benchmark's run becomes the
same rows per seed (columns: our pretraining regimes), the drawing function of `lib.plotting` and its
options, and what unavoidably differs. `paired_panel` runs (or reads back) the tier's benchmark and
returns `(combined frame, figure, Findings)`. `draw_pair` is the one path from a `Pair` and our rows
to the combined frame and figure; the appendix experiments' pairs (`ours_experiments.EXPERIMENT_PAIRS`)
use it too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..plotting import paper_and_ours_bars, paper_and_ours_heatmaps
from .. import results
from ..params import tier_of
from .benchmark import CLIP_REGIME, PRETRAINED, REGIME_ANALOGUES, BenchmarkSettings
from .figures import draw_before_after, figure04_data, figure08_data, short
from .experiments import experiment_settings
from .ours import FT_SET, Panel, benchmark_tables, judged, ood_average_before_after
from .tables import load_table, model_label, select

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

PAPER = "imagenet_rib"
MRI_COLUMN = "mRI"  # Table 2's mRI column, beside its RI per fine-tuning set


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


def printed_with_error(artefact: str, metric: str, setting: str = "") -> pd.DataFrame:
    """`printed` with the printed standard error of each number (metric `<metric> standard error`) as `spread`."""
    error = printed(artefact, f"{metric} standard error", setting).rename(columns={"value": "spread"})
    return printed(artefact, metric, setting).merge(error, on=["method", "model"], how="left")


def printed_accuracy_by_eval(artefact: str) -> pd.DataFrame:
    """Table 30 per method (`Pretrained` first) and evaluation set: the printed accuracy (%) after fine-tuning,
    mean over the fine-tuning sets (the fine-tuning set's own cell is a dash, so it is left out)."""
    frame = _labelled(load_table(artefact)).dropna(subset=["value"])
    return frame.groupby(["method", "model", "eval_dataset"], sort=False)["value"].mean().reset_index()


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
    `regimes` that the run has (the regime standing for the paper's one model); the suite's sets it was fine-tuned on
    (at full not ObjectNet, which is evaluated on only)."""
    part = table[table["regime"] == _first_regime(table, regimes)].rename(columns={c: c.removeprefix("RI ") for c in table.columns})
    columns = ["mRI", *(name for name in settings.suite if name in part.columns)]
    long = part.melt(id_vars=["regime", "seed", "method"], value_vars=columns, var_name="train_dataset")
    return long.rename(columns={"regime": "model"}).replace({"train_dataset": {"mRI": MRI_COLUMN}})


def per_seed_of_printed(column: str, artefact: str, settings: BenchmarkSettings, acc: pd.DataFrame,
                        table: pd.DataFrame) -> pd.DataFrame:
    """`per_seed` of `column`, only the methods the printed `artefact` has (e.g. Table 15's seven)."""
    rows = per_seed(column, settings, acc, table)
    return rows[rows["method"].isin(set(load_table(artefact)["method"]))]


def _first_regime(frame: pd.DataFrame, regimes: tuple[str, ...]) -> str:
    """The first of `regimes` that `frame` (column `regime`) has: the regime standing for the paper's one model."""
    present = [r for r in regimes if r in set(frame["regime"])]
    if not present:
        raise ValueError(f"the run has none of the regimes {list(regimes)}; it has {sorted(set(frame['regime']))}")
    return present[0]


def per_seed_accuracy_by_eval(regimes: tuple[str, ...], settings: BenchmarkSettings, acc: pd.DataFrame,
                              table: pd.DataFrame) -> pd.DataFrame:
    """Table 30's quantity per seed, for the first of `regimes` the run has: per method (`Pretrained` for the
    pretrained model) and evaluation set (the pretraining domain first, then the suite), the accuracy (%)
    after fine-tuning, mean over the fine-tuning sets other than the evaluation set."""
    part = acc[(acc["regime"] == _first_regime(acc, regimes)) & (acc["eval_dataset"] != acc["finetune_dataset"])]
    order = [*(d for d in dict.fromkeys(part["eval_dataset"]) if d not in settings.suite), *settings.suite]
    means = part.groupby(["regime", "seed", "method", "eval_dataset"], sort=False)["accuracy"].mean().reset_index()
    means = means.sort_values("eval_dataset", key=lambda d: d.map(order.index), kind="stable")
    return means.rename(columns={"regime": "model", "accuracy": "value"}).replace({"method": {PRETRAINED: "Pretrained"}})


def per_seed_before_after(methods: tuple[str, ...], settings: BenchmarkSettings, acc: pd.DataFrame,
                          table: pd.DataFrame) -> pd.DataFrame:
    """Fig. 4 / Fig. 8: per regime and seed, the pretrained model's average OOD accuracy (method
    `pretrained`) and the average after each of `methods` (all where empty): `ours.ood_average_before_after`."""
    frame = ood_average_before_after(acc, settings.suite)
    frame = frame[frame["method"].isin(methods)] if methods else frame
    before = frame.drop_duplicates(["regime", "seed"]).assign(method=PRETRAINED, value=lambda d: d["before"])
    long = pd.concat([before, frame.assign(value=frame["after"])])[["regime", "seed", "method", "value"]]
    return long.rename(columns={"regime": "model"})


def before_after_panels(frame: pd.DataFrame, index: str, columns: str, *, label: Callable[[str], str],
                        titles: tuple[str, str]) -> Figure:
    """Fig. 8 drawn as the paper draws it (`figures.draw_before_after`: one panel per method, blue before,
    red after, the 0-80 % axis), for our rows of `frame` (seeds averaged; x: `columns`, our regimes); the
    paper's panels are the redraw of the printed numbers (`figures.draw("figure08")`)."""
    ours = frame[frame["source"] == "ours"].groupby([index, columns], sort=False)["value"].mean().reset_index()
    before = ours[ours[index] == PRETRAINED].set_index(columns)["value"]
    after = ours[ours[index] != PRETRAINED]
    order = [*dict.fromkeys(frame.loc[frame["source"] == "paper", index])]
    after = after.sort_values(index, key=lambda m: m.map(lambda x: order.index(x) if x in order else len(order)),
                              kind="stable")
    data = pd.DataFrame({"method": after[index].map(label), "model": after[columns].map(label),
                         "before": after[columns].map(before).to_numpy(), "after": after["value"].to_numpy()})
    return draw_before_after(data, titles[1])


@dataclass(frozen=True)
class Pair:
    """One artefact's paper and ours: the quantity (`metric`, the figure's title), the paper's rows, ours (a
    function of our run), the drawing function of `lib.plotting` with its rows (`index`), columns and
    options, and what differs from the paper (shown under the figure, not in it)."""

    metric: str
    paper: Callable[[], pd.DataFrame]
    ours: Callable[..., pd.DataFrame]
    columns: str = "model"
    index: str = "method"
    draw: Callable[..., Figure] = paper_and_ours_heatmaps
    options: Mapping[str, Any] = field(default_factory=lambda: {"center": 0.0})
    difference: str = ""


# the pairs whose "ours" is an experiment of the tier's experiments file, not its benchmark (`paired_experiment`):
# Table 15 repeats seven methods over three seeds on three models (App. I.3)
PAIRED_EXPERIMENTS = {"table15": "seeds"}
REGIME_NOTE = ("columns: our pretraining regimes, not the paper's models (" + ", ".join(
    f"`{regime}` stands for {model}" for regime, model in REGIME_ANALOGUES.items() if regime != CLIP_REGIME) + ")")
PAIRS: dict[str, Pair] = {
    "table02": Pair("RI per fine-tuning set and mRI", partial(printed_ri, "table02"),
                    partial(per_seed_ri, ("augmented", "rib_vit_b16_augreg_in1k")), columns="train_dataset",
                    difference="one regime: `augmented` (our analogue of IN-1K + AugReg; at full the paper's model); "
                               "columns: our fine-tuning domains"),
    "table03": Pair("mRI", partial(printed, "table03", "mRI"), partial(per_seed, "mRI"), difference=REGIME_NOTE),
    "table15": Pair("mRI, mean ± standard error over seeds", partial(printed_with_error, "table15", "mRI", "3 seeds"),
                    partial(per_seed_of_printed, "mRI", "table15"), options={"center": 0.0, "errors": True},
                    difference=f"{REGIME_NOTE}; ours: only Table 15's seven methods, its standard error over our seeds"),
    "table18": Pair("backward transfer", partial(printed, "table18", "backward transfer"),
                    partial(per_seed, "backward transfer"), difference=REGIME_NOTE),
    "table19": Pair(f"{FT_SET}, mean over the fine-tuning sets", partial(printed_mean, "table19", "finetune_dataset"),
                    partial(per_seed, FT_SET), options={"center": None}, difference=REGIME_NOTE),
    "table30": Pair("accuracy (%) on each evaluation set after fine-tuning, mean over the fine-tuning sets",
                    partial(printed_accuracy_by_eval, "table30"),
                    partial(per_seed_accuracy_by_eval, ("augmented", "rib_vit_b16_augreg_in1k")), columns="eval_dataset",
                    options={"center": None, "limits": (0.0, 100.0)},
                    difference="one regime: `augmented` (our analogue of IN-1K + AugReg; at full the paper's model); "
                               "columns: our pretraining domain (ImageNet-1K's analogue), then our suite"),
    "figure04": Pair("mean accuracy on the OOD sets (%), pretrained and after vanilla FT",
                     partial(printed_before_after, figure04_data), partial(per_seed_before_after, ("FT",)),
                     columns="method", index="model", draw=paper_and_ours_bars,
                     options={"ylabel": "mean OOD accuracy (%)", "palette": {PRETRAINED: "tab:blue", "FT": "tab:red"}},
                     difference="paper: before = Table 17's mean over D, after = before + Table 3's FT mRI; "
                                "ours: our regimes, black: the range over seeds"),
    "figure08": Pair("mean accuracy on the OOD sets (%), pretrained and after each method",
                     partial(printed_before_after, figure08_data), partial(per_seed_before_after, ()),
                     draw=before_after_panels, options={},
                     difference="the paper's panels are the redraw above (before = Table 17's mean over D, after = "
                                "before + Table 3's mRI); ours: x = our regimes, not the paper's models"),
}


@dataclass(frozen=True)
class Comparison:
    """Columns of our panel that stand beside the artefact's own for comparison only: those with no value for
    `marker` (a method that only the artefact's own columns run), drawn right of a vertical rule; our rows
    the paper does not have go below a horizontal rule; `caption` (the panel's x label) says so."""

    marker: str
    caption: str


COMPARISONS: dict[str, Comparison] = {
    "table08": Comparison("FLYP", "right of the rule: the main benchmark's regimes, Table 3's mRI\n"
                                  "(not zero-shot), for comparison; below it: methods Table 8 lacks"),
}


def _separate(ax: Axes, frame: pd.DataFrame, comparison: Comparison) -> None:
    """Draw `comparison`'s rules and caption on our heatmap `ax` of `frame` (columns `model`, rows `method`)."""
    ours = frame[frame["source"] == "ours"]
    own = {_label(m) for m in ours.loc[ours["method"] == comparison.marker, "model"]}
    columns = [t.get_text() for t in ax.get_xticklabels()]
    paper_rows = {_label(m) for m in frame.loc[frame["source"] == "paper", "method"]}
    rows = [t.get_text() for t in ax.get_yticklabels()]
    first = next((i for i, c in enumerate(columns) if c not in own), None)
    if first is not None and first > 0:
        ax.axvline(first, color="black", linewidth=2.5)
    shared = sum(r in paper_rows for r in rows)
    if 0 < shared < len(rows):
        ax.axhline(shared, color="black", linewidth=2.5)
    ax.set_xlabel(comparison.caption, fontsize=7)


def _label(name: str) -> str:
    """Short dataset and method labels; our digit domains without their `digits_` prefix."""
    return short(name.removeprefix("digits_"))


def _with_metric(rows: pd.DataFrame, metric: str) -> pd.DataFrame:
    """`rows` with `metric` as every row's metric, unless they name their own (e.g. Table 10's note rows)."""
    return rows if "metric" in rows.columns else rows.assign(metric=metric)


def finetuned_subset(finetune_datasets: Sequence[str], suite: Sequence[str]) -> str:
    """`FT on k of n sets` where a run fine-tunes on a proper subset of its suite (mini's appendix studies: 2 of 6;
    the full tier: 7 of 8, ObjectNet's licence), else empty."""
    subset = set(finetune_datasets) < set(suite)
    return f"FT on {len(finetune_datasets)} of {len(suite)} sets" if subset else ""


def draw_pair(artefact: str, pair: Pair, our_rows: pd.DataFrame, tier: str, note: str = "") -> tuple[pd.DataFrame, Figure]:
    """The paper's rows of `pair` and `our_rows` (per seed) in one tidy frame, drawn by the pair's
    function (one scale, the paper's order); one-line titles name the quantity (the figure's) and our tier,
    seeds and `note` (our panel's: `finetuned_subset`); what differs from the paper (`Pair.difference`) is the
    notebook's text under the figure."""
    frame = results.paper_and_ours(*(_with_metric(rows, pair.metric) for rows in (pair.paper(), our_rows)), paper=PAPER,
                                   artefact=artefact, tier=tier, metric=None)
    seeds = frame.loc[frame["source"] == "ours", "seed"].nunique()
    ours = f"ours ({tier}, {seeds} seed{'s' * (seeds != 1)}{'; ' + note if note else ''})"
    fig = pair.draw(frame, pair.index, pair.columns, label=_label, **pair.options, titles=("paper", ours))
    if artefact in COMPARISONS:
        _separate(fig.axes[1], frame, COMPARISONS[artefact])
    fig.suptitle(f"{fig.get_suptitle()}: {pair.metric}" if fig.get_suptitle() else pair.metric, fontsize=10)
    fig.tight_layout()
    return frame, fig


def paper_and_ours(artefact: str, settings: BenchmarkSettings, acc: pd.DataFrame, table: pd.DataFrame,
                   tier: str) -> tuple[pd.DataFrame, Figure]:
    """The paper's rows and our benchmark's (per seed) of `artefact` in one tidy frame, and their
    figure (`draw_pair`)."""
    if artefact not in PAIRS:
        raise KeyError(f"no paper-and-ours pair for {artefact!r}; pairs exist for {sorted(PAIRS)}")
    pair = PAIRS[artefact]
    return draw_pair(artefact, pair, pair.ours(settings, acc, table), tier,
                     finetuned_subset(settings.finetuned_on, settings.suite))


def paired_panel(artefact: str, benchmark_params: str, results_dir: str) -> Panel:
    """`(combined frame, paper-and-ours figure, Findings)` of `artefact` from the tier's benchmark."""
    return _paired(artefact, BenchmarkSettings.load(benchmark_params), benchmark_params, results_dir)


def paired_experiment(artefact: str, experiments_params: str, results_dir: str) -> Panel:
    """`paired_panel` of `artefact` from the benchmark of its experiment (`PAIRED_EXPERIMENTS`) in the tier's
    experiments file: the same rows of the same quantity, over that experiment's models and seeds."""
    settings = experiment_settings(experiments_params, PAIRED_EXPERIMENTS[artefact])
    return _paired(artefact, settings, experiments_params, results_dir)


def _paired(artefact: str, settings: BenchmarkSettings, params_file: str, results_dir: str) -> Panel:
    acc, table = benchmark_tables(settings, params_file, results_dir)
    frame, fig = paper_and_ours(artefact, settings, acc, table, tier_of(params_file))
    return frame, fig, judged(artefact, settings, acc, table)
