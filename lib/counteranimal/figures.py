"""The paper's tables and figures redrawn from its printed numbers: pure functions of the tidy frames of
`published`, each returning `(figure, data drawn)` for `lib.plotting.save_figure`.

What varies per artefact is data (the dicts below); matplotlib is imported only when a figure is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..audit import artefact_rows
from ..audit import count_line as audit_summary  # noqa: F401  (the notebooks' audit count line)
from .classwise import classwise_frame, implied_group_sizes
from .effective_robustness import fitted_lines, points
from .published import PAPER, checkpoint_table, class_names, model_table, raw, wide

if TYPE_CHECKING:
    import matplotlib.pyplot as plt

FAMILY_COLOURS = {"CLIP": "tab:blue", "CLIP-DC": "tab:green", "CLIP-DFN": "tab:purple", "ImageNet": "tab:red",
                  "LVLM": "tab:orange", "CLIP-HQ": "tab:olive"}  # CLIP-HQ: our miniature's weaker-correlation CLIPs
METRICS = ["common", "counter", "drop"]

# Figures 5-9: which Table 3 (and 4) rows each panel compares, in the paper's order of the text.
PANELS: dict[str, dict[str, list[str]]] = {
    "figure05": {
        "(a) LAION400M, varying backbone": ["CLIP-LAION400M-ViT/B/16", "CLIP-LAION400M-ViT/B/32", "CLIP-LAION400M-ViT/L/14"],
        "(b) ViT/B/32, varying pre-train data": ["CLIP-LAION400M-ViT/B/32", "CLIP-LAION2B-ViT/B/32", "CLIP-OpenAI-ViT/B/32"],
    },
    "figure06": {  # Sec. 5.2 excludes ViT/B/32 and LAION400M
        "ViT/B/16": ["CLIP-OpenAI-ViT/B/16", "CLIP-DataComp1B-ViT/B/16", "CLIP-LAION2B-ViT/B/16", "CLIP-DFN2B-ViT/B/16"],
        "ViT/L/14": ["CLIP-OpenAI-ViT/L/14", "CLIP-DataComp1B-ViT/L/14", "CLIP-LAION2B-ViT/L/14", "CLIP-DFN2B-ViT/L/14"],
    },
    "figure07": {
        "LAION2B": ["CLIP-LAION2B-ViT/B/16", "CLIP-LAION2B-ViT/L/14", "CLIP-LAION2B-ViT/H/14", "CLIP-LAION2B-ViT/G/14",
                    "CLIP-LAION2B-ViT/bigG/14"],
        "OpenAI": ["CLIP-OpenAI-RN50", "CLIP-OpenAI-RN101", "CLIP-OpenAI-RN50×4", "CLIP-OpenAI-RN50×16",
                   "CLIP-OpenAI-RN50×64", "CLIP-OpenAI-ViT/B/16", "CLIP-OpenAI-ViT/L/14", "CLIP-OpenAI-ViT/L/14-336"],
    },
    "figure08": {
        "ViT/B/16": ["CLIP-OpenAI-ViT/B/16", "CLIP-LAION2B-ViT/B/16", "CLIP-DataComp1B-ViT/B/16", "CLIP-DFN2B-ViT/B/16"],
        "ViT/L/14": ["CLIP-OpenAI-ViT/L/14", "CLIP-LAION2B-ViT/L/14", "CLIP-DataComp1B-ViT/L/14", "CLIP-DFN2B-ViT/L/14"],
        "ViT/H/14": ["CLIP-LAION2B-ViT/H/14", "CLIP-DFN5B-ViT/H/14", "CLIP-DFN5B-ViT/H/14-384"],
    },
    "figure09": {
        "ViT/B/16": ["CLIP-LAION400M-ViT/B/16", "CLIP-OpenAI-ViT/B/16", "CLIP-DataComp1B-ViT/B/16",
                     "CLIP-LAION2B-ViT/B/16", "CLIP-DFN2B-ViT/B/16", "ViT/B/16"],
        "ViT/B/32": ["CLIP-LAION400M-ViT/B/32", "CLIP-OpenAI-ViT/B/32", "CLIP-DataComp1B-ViT/B/32",
                     "CLIP-LAION2B-ViT/B/32", "ViT/B/32"],
    },
}
SCATTERS = {  # figure -> panels, each (setup, CLIP table, ImageNet table, with Table 5's LVLMs); annotate names
    "figure02": ([("1 vs 1000", "table03", "table04", False), ("1 vs 20", "table13", "table14", True)], False),
    "figure13": ([("1 vs 1000", "table03", "table04", False)], True),
    "figure14": ([("1 vs 20", "table13", "table14", True)], True),
}


def audit_rows(*artefacts: str) -> pd.DataFrame:
    """The audit rows of the given artefacts."""
    return artefact_rows(PAPER, artefacts)


def _table_data(artefact: str) -> pd.DataFrame:
    """The table's rows labelled as printed: model, checkpoint, and `*` for high-quality pre-training data."""
    frame = model_table(artefact)
    label = (frame["model"] + frame["checkpoint"].map(lambda c: f" {c}" if c else "")
             + frame["high_quality"].map({True: " *", False: ""}))
    return frame.assign(row=label)


# The drop colours of every model-level table run from 0 to this many points (the printed drops lie in 0-35.1), so
# one shade is one drop in every table: a CLIP's and an ImageNet model's compare across Tables 3-5 and 9-14.
MODEL_DROP_COLOURS = 40.0


def draw_model_table(artefact: str) -> tuple[plt.Figure, pd.DataFrame]:
    """A model-level table as an annotated heatmap (cells show the printed text), rows as printed."""
    import matplotlib.pyplot as plt

    from ..plotting import heatmap

    data = _table_data(artefact)
    order = list(dict.fromkeys(data["row"]))
    values = data.pivot(index="row", columns="metric", values="value").reindex(index=order, columns=METRICS)
    text = data.pivot(index="row", columns="metric", values="printed").reindex(index=order, columns=METRICS)
    fig, axes = plt.subplots(1, 2, figsize=(8, 0.26 * len(order) + 1.6), gridspec_kw={"width_ratios": [2, 1]})
    heatmap(axes[0], values[["common", "counter"]], annot=text[["common", "counter"]], vmin=0, vmax=100,
            title="accuracy (%)")
    heatmap(axes[1], values[["drop"]], annot=text[["drop"]], cmap="Reds", vmin=0, vmax=MODEL_DROP_COLOURS, cbar=True,
            title="drop (points)")
    axes[1].set_yticks([])
    if data["high_quality"].any():
        fig.text(0.01, 0.005, "* pre-trained on high-quality data (the paper's *)", fontsize=7, va="bottom")
    fig.tight_layout(rect=(0, 0.02 if data["high_quality"].any() else 0, 1, 1))
    return fig, data.drop(columns=["row"])


def draw_table01() -> tuple[plt.Figure, pd.DataFrame]:
    """Table 1: the five example classes, accuracies with their backgrounds, and the drops."""
    import matplotlib.pyplot as plt

    data = raw("table01")
    wide_ = data.pivot_table(index="object_label", columns=["group", "quantity"], values="printed", aggfunc="first",
                             sort=False)
    fig, ax = plt.subplots(figsize=(6.5, 3))
    labels = list(dict.fromkeys(data["object_label"]))
    for i, label in enumerate(labels):
        common, counter = float(wide_.loc[label, ("common", "accu")]), float(wide_.loc[label, ("counter", "accu")])
        ax.plot([common, counter], [i, i], "-", color="grey", lw=1)
        ax.scatter([common], [i], color="tab:blue", zorder=3, label="common" if i == 0 else None)
        ax.scatter([counter], [i], color="tab:red", zorder=3, label="counter" if i == 0 else None)
        ax.annotate(wide_.loc[label, ("common", "bkg")], (common, i), xytext=(4, 4), textcoords="offset points", fontsize=7)
        ax.annotate(wide_.loc[label, ("counter", "bkg")], (counter, i), xytext=(4, 4), textcoords="offset points",
                    fontsize=7)
        ax.annotate(f"drop {wide_.loc[label, ('', 'drop')]}", (101, i), fontsize=7, va="center")
    ax.set(yticks=range(len(labels)), yticklabels=labels, xlim=(0, 120), xlabel="zero-shot accuracy (%), 1 vs 1000",
           title="CLIP-LAION400M-ViT/B/32 on five example classes")
    ax.invert_yaxis()
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # outside: inside, it hid a marker's label
    fig.tight_layout()
    return fig, data


def draw_table02() -> tuple[plt.Figure, pd.DataFrame]:
    """Table 2 summarised: how many classes pair each common background with each counter background."""
    import matplotlib.pyplot as plt

    from ..plotting import heatmap

    names = class_names()
    counts = pd.crosstab(names["common"], names["counter"])
    fig, ax = plt.subplots(figsize=(6, 4.2))
    heatmap(ax, counts.astype(float), fmt=".0f", cmap="Blues", title="classes per (common, counter) background pair")
    ax.set_xlabel("counter background")
    ax.set_ylabel("common background")
    fig.tight_layout()
    return fig, names


def draw_text_table(frame: pd.DataFrame, title: str, width: float = 7.0) -> plt.Figure:
    """A frame of words (e.g. the checkpoint list) drawn as a table."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, 0.3 * len(frame) + 0.8))
    ax.axis("off")
    table = ax.table(cellText=frame.to_numpy(), colLabels=list(frame.columns), loc="center", cellLoc="left")
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    table.scale(1, 1.2)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig


def draw_table06() -> tuple[plt.Figure, pd.DataFrame]:
    """Table 6, the adopted checkpoints, beside our OpenCLIP reading of each."""
    data = checkpoint_table()
    columns = ["backbone", "pretrain_dataset", "printed", "openclip_model", "openclip_tag", "printed_tag_exists"]
    return draw_text_table(data[columns], "Table 6 as printed, and the OpenCLIP checkpoint we read it as", 10), data


TABLE07_COLUMNS = ["in-distribution", "out-of-distribution", "drop"]


def table07_frame(ours: pd.DataFrame | None = None) -> pd.DataFrame:
    """Table 7 in the one results schema (`lib.results`): `model` the backbone, `method` the approach, `metric`
    the column; with `ours` (`coloredcoco.run_study`'s frame: `backbone`, `approach`, `metric`, `seed`, `value`,
    `tier`), our run's rows after the paper's, one per seed."""
    from ..results import paper_and_ours, tidy

    printed = raw("table07").assign(model=lambda f: f["backbone"] + " (" + f["pretrain_dataset"] + ")")
    to_schema = {"approach": "method"}
    if ours is None:
        return tidy(printed.rename(columns=to_schema), source="paper", paper="counteranimal", artefact="table07",
                    tier="published")
    return paper_and_ours(printed.rename(columns=to_schema), ours.rename(columns={**to_schema, "backbone": "model"}),
                          paper="counteranimal", artefact="table07", tier=str(ours["tier"].iloc[0]), metric=None)


def _table07_title(model: str, part: pd.DataFrame) -> str:
    """A Table 7 panel's title: the model, and whose numbers (ours with the tier and how many seeds)."""
    if part["source"].iloc[0] == "ours":
        return f"{model}: ours ({part['tier'].iloc[0]}, {part['seed'].nunique()} seeds)"
    return f"{model}: paper"


def draw_table07_grid(frame: pd.DataFrame | None = None) -> tuple[plt.Figure, pd.DataFrame]:
    """Table 7 as annotated grids, approach × (in-distribution, out-of-distribution, drop), one panel per model of
    `frame` (`table07_frame`; default the paper's numbers), every panel on one 0-100 scale in the paper's row
    order: a printed cell as printed, a cell of ours as mean ± sd over seeds."""
    import matplotlib.pyplot as plt

    from ..plotting import heatmap

    data = table07_frame() if frame is None else frame
    models = list(dict.fromkeys(data["model"]))
    order = list(dict.fromkeys(data["method"]))
    fig, axes = plt.subplots(1, len(models), figsize=(4.5 * len(models), 2.8), squeeze=False)
    for ax, model in zip(axes[0], models):
        part = data[data["model"] == model]
        cells = part.groupby(["method", "metric"], sort=False)["value"]
        values = cells.mean().unstack("metric").reindex(index=order, columns=TABLE07_COLUMNS)
        spread = cells.std().unstack("metric").reindex_like(values)
        ours = part["source"].iloc[0] == "ours"
        text = values.apply(lambda column: [f"{v:.1f} ± {e:.1f}" if ours else f"{v:g}"
                                            for v, e in zip(column, spread[column.name])])
        heatmap(ax, values, annot=text, vmin=0, vmax=100, title=_table07_title(model, part))
    fig.tight_layout()
    return fig, data


def draw_table07(frame: pd.DataFrame | None = None) -> tuple[plt.Figure, pd.DataFrame]:
    """Table 7 / Fig. 10: in- and out-of-distribution accuracy per approach, one panel per model of `frame`
    (`table07_frame`; default the paper's numbers) on one 0-100 axis; ours: the mean over seeds, each seed a dot."""
    import matplotlib.pyplot as plt

    data = table07_frame() if frame is None else frame
    models = list(dict.fromkeys(data["model"]))
    colours = {"in-distribution": "tab:blue", "out-of-distribution": "tab:red"}
    fig, axes = plt.subplots(1, len(models), figsize=(4.5 * len(models), 3.2), sharey=True, squeeze=False)
    for ax, model in zip(axes[0], models):
        part = data[(data["model"] == model) & (data["metric"].isin(colours))]
        order = list(dict.fromkeys(part["method"]))
        table = part.pivot_table(index="method", columns="metric", values="value", aggfunc="mean").reindex(order)
        table[list(colours)].plot.bar(ax=ax, rot=0, color=list(colours.values()), width=0.75, legend=False)
        if part["source"].iloc[0] == "ours":  # each seed, at the centre of its bar (two bars in 0.75)
            for offset, metric in zip((-0.1875, 0.1875), colours):
                seeds = part[part["metric"] == metric]
                ax.scatter(seeds["method"].map({m: i for i, m in enumerate(order)}) + offset, seeds["value"],
                           s=6, color="black", zorder=3)
        ax.set(title=_table07_title(model, part), xlabel="", ylabel="accuracy (%)", ylim=(0, 100))
    fig.suptitle("ColoredCOCO: zero-shot, CLIP-objective fine-tuning (obj, objbkg) and supervised", fontsize=9)
    axes[0, -1].legend(*axes[0, 0].get_legend_handles_labels(), fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig, data


TABLE08_LINES = {"class 0/1 (Rand)": "-", "class 0/1 (Rev.)": "--", "rest class": ":"}  # metric -> line style


def table08_frame() -> pd.DataFrame:
    """Table 8's printed cells, one row each: `value` the printed mean, `sd` the printed spread, `classes_n`."""
    from .published import parse_spread

    data = raw("table08")
    data["sd"] = data["printed"].map(parse_spread)
    data["classes_n"] = data["classes"].astype(int)
    return data


def draw_table08(sources: dict[str, pd.DataFrame] | None = None) -> tuple[plt.Figure, pd.DataFrame]:
    """Table 8: MultiColoredMNIST accuracy (mean ± sd) against the number of classes, one panel per
    (p_inv, p_spu) and one row of panels per source (default: the paper's numbers alone), every panel on
    the same axes. Each source's frame has the columns of `table08_frame`; the data returned are all of
    them with a `source` column."""
    import matplotlib.pyplot as plt

    sources = sources or {"paper": table08_frame()}
    data = pd.concat([frame.assign(source=name) for name, frame in sources.items()], ignore_index=True)
    data = data.astype({"p_inv": float, "p_spu": float})  # printed as text, ours as numbers
    settings = list(dict.fromkeys(zip(data["p_inv"], data["p_spu"])))
    fig, axes = plt.subplots(len(sources), len(settings), figsize=(12, 3.2 * len(sources)), sharex=True,
                             sharey=True, squeeze=False)
    styles = {"Contrastive": ("tab:blue", "o"), "Supervised": ("tab:red", "s")}
    for row, source in zip(axes, sources):
        for ax, (p_inv, p_spu) in zip(row, settings):
            part = data[(data["source"] == source) & (data["p_inv"] == p_inv) & (data["p_spu"] == p_spu)]
            for (method, metric), sub in part.dropna(subset=["value"]).groupby(["train_method", "metric"], sort=False):
                colour, marker = styles[method]
                ax.errorbar(sub["classes_n"], sub["value"], yerr=sub["sd"], color=colour, marker=marker, ms=3,
                            ls=TABLE08_LINES[metric], lw=1, capsize=2, label=f"{method}, {metric}")
            ax.set(title=f"p_inv {p_inv:g}, p_spu {p_spu:g}", xlabel="number of classes",
                   xticks=sorted(data["classes_n"].unique()))
        row[0].set_ylabel(f"{source}\naccuracy (%)")
    handles, labels = max((ax.get_legend_handles_labels() for ax in axes.flat), key=lambda pair: len(pair[1]))
    fig.legend(handles, labels, fontsize=7, loc="lower center", ncol=3, frameon=False)  # below, off the data
    fig.tight_layout(rect=(0, 0.42 / fig.get_figheight(), 1, 1))  # 0.42 inch for the legend's two rows
    return fig, data


def draw_classwise(artefact: str) -> tuple[plt.Figure, pd.DataFrame]:
    """Table 15 or 16: class × (model, metric) heatmap of the printed values."""
    import matplotlib.pyplot as plt

    from ..plotting import heatmap

    data = classwise_frame()
    data = data[data["artefact"] == artefact]
    models = list(dict.fromkeys(data["model"]))
    fig, axes = plt.subplots(1, len(models), figsize=(13, 11))
    for ax, model in zip(axes, models):
        part = data[data["model"] == model]
        values = part.pivot(index="class_id", columns="metric", values="value")[METRICS]
        text = part.pivot(index="class_id", columns="metric", values="printed")[METRICS]
        heatmap(ax, values, annot=text, center=0, cmap="vlag_r", vmin=-100, vmax=100, title=model)
    fig.tight_layout()
    return fig, data


def scatter_points(clip_table: str, imagenet_table: str, with_lvlms: bool) -> pd.DataFrame:
    """One panel's points: the CLIPs and ImageNet models of two tables (and Table 5's LVLMs)."""
    data = points((clip_table, imagenet_table))
    if with_lvlms:
        lvlms = wide(model_table("table05"))
        data = pd.concat([data, lvlms[lvlms["family"] == "LVLM"].assign(artefact="table05")], ignore_index=True)
    return data


def scatter_axes(panels: int, keyed: bool, side: float = 5.2) -> tuple[plt.Figure, list[plt.Axes], list[plt.Axes | None]]:
    """A row of `panels` square scatter axes, each followed by a narrow axis for its numbered key when
    `keyed`: the figure, the scatter axes and their key axes (None without keys)."""
    import matplotlib.pyplot as plt

    ratios = [1.0, 0.32] * panels if keyed else [1.0] * panels
    fig, axes = plt.subplots(1, len(ratios), figsize=(side * sum(ratios), side * 0.85), squeeze=False,
                             gridspec_kw={"width_ratios": ratios})
    axes = list(axes[0])
    return fig, axes[::2] if keyed else axes, axes[1::2] if keyed else [None] * panels


def draw_scatter(figure: str) -> tuple[plt.Figure, pd.DataFrame]:
    """Figs. 2, 13, 14: counter against common accuracy per family; marker size = backbone parameters,
    shade = pre-training set size (our annotations); linear fits (with 95 % bootstrap bands) for the CLIPs
    jointly and for the ImageNet models, as the caption of Fig. 2 describes. Figs. 13 and 14 name each
    model: a number beside each point and a key of the numbers beside each panel."""
    panels, annotate = SCATTERS[figure]
    fig, axes, keys = scatter_axes(len(panels), annotate, 6.5 if annotate else 5.2)
    frames = []
    for ax, (setup, clip_table, imagenet_table, with_lvlms) in zip(axes, panels):
        data = scatter_points(clip_table, imagenet_table, with_lvlms).assign(setup=setup)
        scatter_panel(ax, data, setup)
        frames.append(data)
    number_panels(fig, axes, keys, frames)
    return fig, pd.concat(frames, ignore_index=True)


def number_panels(fig: plt.Figure, axes: list[plt.Axes], keys: list[plt.Axes | None], frames: list[pd.DataFrame],
                  label: str = "model") -> None:
    """Lay the figure out, then number the points of each panel that has a key axis by their `label`
    column (`numbered_key`): the numbers are placed once the axes have their final size and limits."""
    fig.tight_layout()
    for ax, key_ax, data in zip(axes, keys, frames):
        if key_ax is not None:
            numbered_key(ax, key_ax, data, label)


def paper_panel_title(clip_table: str, imagenet_table: str, with_lvlms: bool, setup: str) -> str:
    """Which printed tables a scatter panel of the paper's numbers draws, e.g. "Tables 3-4 (1 vs 1000)"."""
    number = {table: str(int(table.removeprefix("table"))) for table in (clip_table, imagenet_table, "table05")}
    lvlms = f" + Table {number['table05']}'s LVLMs" if with_lvlms else ""
    return f"Tables {number[clip_table]}-{number[imagenet_table]}{lvlms} ({setup})"


def scatter_panel(ax: plt.Axes, data: pd.DataFrame, setup: str) -> None:
    """One panel of Figs. 2, 13, 14 (the paper's points or ours): counter against common accuracy per
    `family`, marker size `params_m`, shade `data_m`, and the linear fits (95 % bootstrap bands) to the
    CLIP families jointly and to the ImageNet models."""
    from ..plotting import scatter_with_fit

    clips = data["family"].str.startswith("CLIP")
    lines = fitted_lines(data, {"CLIP": clips, "ImageNet": data["family"] == "ImageNet"})
    scatter_with_fit(ax, data, "common", "counter", hue="family", lines=lines, size="params_m", shade="data_m",
                     palette=FAMILY_COLOURS)
    ax.set(xlabel=f"common accuracy (%), {setup}", ylabel=f"counter accuracy (%), {setup}",
           title=f"{setup}: lines fit to the CLIPs jointly and to the ImageNet models")
    ax.title.set_fontsize(9)
    ax.legend(fontsize=7, loc="upper left")


def numbered_key(ax: plt.Axes, key_ax: plt.Axes, data: pd.DataFrame, label: str) -> pd.Series:
    """Name the points of a dense scatter legibly: number the distinct values of `label` in their order
    in `data` (the paper's table order), write each point's number beside it (moved clear of the points
    and of each other by adjustText, with a leader line), and list "number  label" in `key_ax`, coloured
    by family. Returns the numbers, indexed by label."""
    from ..plotting import move_labels_clear

    numbers = pd.Series(range(1, data[label].nunique() + 1), index=pd.unique(data[label]))
    texts = [ax.text(row.common, row.counter, str(numbers[getattr(row, label)]), fontsize=6, zorder=4,
                     bbox={"boxstyle": "square,pad=0.05", "facecolor": "white", "edgecolor": "none", "alpha": 0.7})
             for row in data.itertuples()]
    move_labels_clear(ax, texts, data["common"], data["counter"])
    families = data.drop_duplicates(label).set_index(label)["family"]
    rows = max(len(numbers), 24)
    for line, (name, number) in enumerate(numbers.items()):
        key_ax.text(0.02, 1 - line / rows, f"{number:>2}  {name}", fontsize=7, va="top", transform=key_ax.transAxes,
                    color=FAMILY_COLOURS.get(families[name], "black"))
    key_ax.axis("off")
    return numbers


BAR_LIMITS = (0, 125)  # accuracy and drop run to 100 %; the band above holds the legend, clear of the bars


def bar_panels(table: pd.DataFrame, panels: Mapping[str, list[str]], setup: str, label: Callable[[str], str],
               ranges: pd.DataFrame | None = None) -> tuple[plt.Figure, pd.DataFrame]:
    """Common, counter and drop of the models each panel compares, in the panel's order: `table` has one row per
    model (indexed by name) with its family and the three metrics; tick colours by family, one axis (`BAR_LIMITS`) for
    every figure. `ranges` (same index, `<metric> low` and `<metric> high` columns) adds black range bars (ours:
    over seeds). `(figure, data drawn)`, the data with a `panel` column."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4), squeeze=False)
    frames = []
    for ax, (title, models) in zip(axes[0], panels.items()):
        part = table.loc[models, ["family", *METRICS]]
        errors = None
        if ranges is not None:
            spread = ranges.loc[models]
            errors = np.stack([[part[m] - spread[f"{m} low"], spread[f"{m} high"] - part[m]] for m in METRICS])
        part.set_index(pd.Index([label(m) for m in models]))[METRICS].plot.bar(
            ax=ax, rot=60, color=["tab:blue", "tab:red", "dimgrey"], width=0.8, legend=False, yerr=errors,
            error_kw={"ecolor": "black", "elinewidth": 0.8, "capsize": 2})
        for tick, family in zip(ax.get_xticklabels(), part["family"]):
            tick.set_color(FAMILY_COLOURS[family])
            tick.set_ha("right")
        ax.set(title=title, ylabel=f"accuracy / drop (%), {setup}", ylim=BAR_LIMITS)
        ax.title.set_fontsize(9)
        ax.tick_params(axis="x", labelsize=7)
        frames.append(part.reset_index().assign(panel=title))
    axes[0, 0].legend(fontsize=7, ncol=3, loc="upper left")  # one row, in the band above 100 %
    fig.tight_layout()
    return fig, pd.concat(frames, ignore_index=True)


def paper_bar_label(model: str) -> str:
    """A Table 3 / 4 row's name under its bars: the CLIP's setup without `CLIP-`, `ImageNet <name>` otherwise."""
    return model.removeprefix("CLIP-") if model.startswith("CLIP-") else f"ImageNet {model}"


def draw_bars(figure: str) -> tuple[plt.Figure, pd.DataFrame]:
    """Figs. 5–9: common, counter and drop of the models each panel compares (`PANELS`; Tables 3 and 4)."""
    table = pd.concat([wide(model_table("table03")), wide(model_table("table04"))], ignore_index=True)
    return bar_panels(table.set_index("model"), PANELS[figure], "1 vs 1000", paper_bar_label)


def draw_class_drops(models: list[str], title: str) -> tuple[plt.Figure, pd.DataFrame]:
    """Figs. 4 and 15: the printed class-wise drop per class ID, one panel per model (Tables 15–16)."""
    data = classwise_frame()
    data = data[(data["metric"] == "drop") & data["model"].isin(models)].drop_duplicates(["model", "class_id"])
    return class_drop_panels(data, models, title), data


# The drop axis of every class-wise panel (points): a drop lies in [-100, 100]; the printed ones and ours lie in
# about [-15, 100].
DROP_AXIS = (-20.0, 100.0)


def class_drop_panels(data: pd.DataFrame, models: list[str], title: str, xlabel: str = "class ID") -> plt.Figure:
    """One panel per model of `models`: a bar per class ID (`class_id`, `value`; red where negative), titled with the
    model and its mean; black bars from `low` to `high` where `data` has them (ours: the range over seeds). Every
    panel, the paper's and ours, spans `DROP_AXIS` (wider only where a bar goes beyond it), so bars compare across
    panels and figures."""
    import matplotlib.pyplot as plt

    values = data[[c for c in ("value", "low", "high") if c in data.columns]]
    limits = (min(DROP_AXIS[0], float(values.min().min())), max(DROP_AXIS[1], float(values.max().max())))
    fig, axes = plt.subplots(len(models), 1, figsize=(10, 2.1 * len(models) + 0.4), sharex=True, sharey=True,
                             squeeze=False)
    axes[0, 0].set_ylim(*limits)
    for ax, model in zip(axes[:, 0], models):
        part = data[data["model"] == model].sort_values("class_id")
        ax.bar(part["class_id"], part["value"], color=["tab:red" if v < 0 else "tab:blue" for v in part["value"]])
        if {"low", "high"} <= set(part.columns):
            ax.vlines(part["class_id"], part["low"], part["high"], color="black", lw=1)
        ax.axhline(0, color="black", lw=0.6)
        ax.set_ylabel("drop (points)", fontsize=8)
        ax.set_title(f"{model}: mean {part['value'].mean():.2f}", fontsize=9)
    ids = sorted(data["class_id"].dropna().unique())
    axes[-1, 0].set_xlabel(xlabel)
    axes[-1, 0].set_xticks(ids if len(ids) <= 20 else range(1, int(max(ids)) + 1, 2))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def draw_group_sizes() -> tuple[plt.Figure, pd.DataFrame]:
    """Fig. 3's layout (photos per class and group) from the smallest counts Tables 15–16 allow."""
    import matplotlib.pyplot as plt

    sizes = implied_group_sizes()
    fig, ax = plt.subplots(figsize=(10, 3.4))
    width = 0.4
    ax.bar(sizes["class_id"] - width / 2, sizes["common"], width, label=f"common (sum {int(sizes['common'].sum())})",
           color="tab:blue")
    ax.bar(sizes["class_id"] + width / 2, sizes["counter"], width, label=f"counter (sum {int(sizes['counter'].sum())})",
           color="tab:red")
    ax.set(xlabel="class ID", ylabel="photos (smallest count consistent)", yscale="log",
           title="Smallest group sizes the class-wise percentages of Tables 15–16 allow (text: 7,174 / 5,926)")
    ax.title.set_fontsize(9)
    ax.set_xticks(range(1, 46, 2))
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig, sizes

