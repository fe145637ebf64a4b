"""The paper's tables and figures redrawn from its printed numbers: pure functions of the tidy frames of
`published`, each returning `(figure, data drawn)` for `lib.plotting.save_figure`.

What varies per artefact is data (the dicts below); matplotlib is imported only when a figure is drawn.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import pandas as pd

from ..audit import AuditRow
from ..audit import count_line as audit_summary  # noqa: F401  (the notebooks' audit count line)
from .audit import audits
from .classwise import classwise_frame, implied_group_sizes
from .effective_robustness import fitted_lines, points
from .published import checkpoint_table, class_names, model_table, raw, wide

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


@functools.cache
def _all_audits() -> tuple[AuditRow, ...]:
    return tuple(audits())


def audit_rows(*artefacts: str) -> pd.DataFrame:
    """The audit rows of the given artefacts."""
    return pd.DataFrame([r.__dict__ for r in _all_audits() if r.artefact in artefacts],
                        columns=list(AuditRow.__dataclass_fields__))


def _table_data(artefact: str) -> pd.DataFrame:
    frame = model_table(artefact)
    label = frame["model"] + frame["checkpoint"].map(lambda c: f" {c}" if c else "")
    return frame.assign(row=label)


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
    heatmap(axes[1], values[["drop"]], annot=text[["drop"]], cmap="Reds", vmin=0, title="drop (points)")
    axes[1].set_yticks([])
    fig.tight_layout()
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
    ax.legend(fontsize=7, loc="lower left")
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


def draw_table07_grid() -> tuple[plt.Figure, pd.DataFrame]:
    """Table 7 as an annotated grid: approach × (in-distribution, out-of-distribution, drop) per backbone."""
    import matplotlib.pyplot as plt

    from ..plotting import heatmap

    data = raw("table07")
    columns = ["in-distribution", "out-of-distribution", "drop"]
    backbones = list(dict.fromkeys(data["backbone"]))
    fig, axes = plt.subplots(1, len(backbones), figsize=(9, 2.8))
    for ax, backbone in zip(axes, backbones):
        part = data[data["backbone"] == backbone]
        order = list(dict.fromkeys(part["approach"]))
        values = part.pivot(index="approach", columns="metric", values="value").reindex(index=order, columns=columns)
        text = part.pivot(index="approach", columns="metric", values="printed").reindex(index=order, columns=columns)
        heatmap(ax, values, annot=text, vmin=0, vmax=100, title=f"{backbone} (OpenAI)")
    fig.tight_layout()
    return fig, data


def draw_table07() -> tuple[plt.Figure, pd.DataFrame]:
    """Table 7 / Fig. 10: in- and out-of-distribution accuracy per approach, one panel per backbone."""
    import matplotlib.pyplot as plt

    data = raw("table07")
    backbones = list(dict.fromkeys(data["backbone"]))
    fig, axes = plt.subplots(1, len(backbones), figsize=(9, 3.2), sharey=True)
    for ax, backbone in zip(axes, backbones):
        part = data[(data["backbone"] == backbone) & (data["metric"] != "drop")]
        table = part.pivot(index="approach", columns="metric", values="value").reindex(list(dict.fromkeys(part["approach"])))
        table.plot.bar(ax=ax, rot=0, color=["tab:blue", "tab:red"], width=0.75, legend=ax is axes[0])
        ax.set(title=f"{backbone} (OpenAI)", xlabel="", ylabel="accuracy (%)")
    fig.suptitle("ColoredCOCO: zero-shot, CLIP-objective fine-tuning (obj, objbkg) and supervised", fontsize=9)
    fig.tight_layout()
    return fig, data


def draw_table08() -> tuple[plt.Figure, pd.DataFrame]:
    """Table 8: MultiColoredMNIST accuracy (mean ± sd) against the number of classes, per (p_inv, p_spu)."""
    import matplotlib.pyplot as plt

    from .published import parse_spread

    data = raw("table08")
    data["sd"] = data["printed"].map(parse_spread)
    data["classes_n"] = data["classes"].astype(int)
    settings = list(dict.fromkeys(zip(data["p_inv"], data["p_spu"])))
    metrics = list(dict.fromkeys(data["metric"]))
    fig, axes = plt.subplots(1, len(settings), figsize=(12, 3.2), sharey=True)
    styles = {"Contrastive": ("tab:blue", "o"), "Supervised": ("tab:red", "s")}
    lines = {metrics[0]: "-", metrics[1]: "--", metrics[2]: ":"}
    for ax, (p_inv, p_spu) in zip(axes, settings):
        part = data[(data["p_inv"] == p_inv) & (data["p_spu"] == p_spu)].dropna(subset=["value"])
        for (method, metric), sub in part.groupby(["train_method", "metric"], sort=False):
            colour, marker = styles[method]
            ax.errorbar(sub["classes_n"], sub["value"], yerr=sub["sd"], color=colour, marker=marker, ms=3,
                        ls=lines[metric], lw=1, capsize=2, label=f"{method}, {metric}")
        ax.set(title=f"p_inv {p_inv}, p_spu {p_spu}", xlabel="number of classes")
    axes[0].set_ylabel("accuracy (%)")
    axes[-1].legend(fontsize=6, loc="lower right")
    fig.tight_layout()
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


def draw_scatter(figure: str) -> tuple[plt.Figure, pd.DataFrame]:
    """Figs. 2, 13, 14: counter against common accuracy per family; marker size = backbone parameters,
    shade = pre-training set size (our annotations); linear fits (with 95 % bootstrap bands) for the CLIPs
    jointly and for the ImageNet models, as the caption of Fig. 2 describes."""
    import matplotlib.pyplot as plt

    panels, annotate = SCATTERS[figure]
    side = 7.0 if annotate else 5.2
    fig, axes = plt.subplots(1, len(panels), figsize=(side * len(panels), side * 0.85), squeeze=False)
    frames = []
    for ax, (setup, clip_table, imagenet_table, with_lvlms) in zip(axes[0], panels):
        data = scatter_points(clip_table, imagenet_table, with_lvlms).assign(setup=setup)
        scatter_panel(ax, data, setup, annotate)
        frames.append(data)
    fig.tight_layout()
    return fig, pd.concat(frames, ignore_index=True)


def scatter_panel(ax: plt.Axes, data: pd.DataFrame, setup: str, annotate: bool = False) -> None:
    """One panel of Figs. 2, 13, 14 (the paper's points or ours): counter against common accuracy per
    `family`, marker size `params_m`, shade `data_m`, and the linear fits (95 % bootstrap bands) to the
    CLIP families jointly and to the ImageNet models."""
    from ..plotting import scatter_with_fit

    clips = data["family"].str.startswith("CLIP")
    lines = fitted_lines(data, {"CLIP": clips, "ImageNet": data["family"] == "ImageNet"})
    scatter_with_fit(ax, data, "common", "counter", hue="family", lines=lines, size="params_m", shade="data_m",
                     palette=FAMILY_COLOURS, annotate="model" if annotate else None)
    ax.set(xlabel=f"common accuracy (%), {setup}", ylabel=f"counter accuracy (%), {setup}",
           title=f"{setup}: lines fit to the CLIPs jointly and to the ImageNet models")
    ax.title.set_fontsize(9)
    ax.legend(fontsize=7, loc="upper left")


def draw_bars(figure: str) -> tuple[plt.Figure, pd.DataFrame]:
    """Figs. 5–9: common, counter and drop of the models each panel compares (Tables 3 and 4)."""
    import matplotlib.pyplot as plt

    table = pd.concat([wide(model_table("table03")), wide(model_table("table04"))], ignore_index=True)
    table = table.set_index("model")
    panels = PANELS[figure]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4), squeeze=False)
    frames = []
    for ax, (title, models) in zip(axes[0], panels.items()):
        part = table.loc[models, ["family", "common", "counter", "drop"]].reset_index()
        part["panel"] = title
        frames.append(part)
        labels = [m.replace("CLIP-", "") if m.startswith("CLIP-") else f"ImageNet {m}" for m in part["model"]]
        part.set_index(pd.Index(labels))[["common", "counter", "drop"]].plot.bar(
            ax=ax, rot=60, color=["tab:blue", "tab:red", "dimgrey"], width=0.8, legend=False)
        for tick, family in zip(ax.get_xticklabels(), part["family"]):
            tick.set_color(FAMILY_COLOURS[family])
            tick.set_ha("right")
        ax.set(title=title, ylabel="accuracy / drop (%), 1 vs 1000", ylim=(0, 112))
        ax.title.set_fontsize(9)
        ax.tick_params(axis="x", labelsize=7)
    axes[0, 0].legend(fontsize=7, ncol=3, loc="upper left")
    fig.tight_layout()
    return fig, pd.concat(frames, ignore_index=True)


def draw_class_drops(models: list[str], title: str) -> tuple[plt.Figure, pd.DataFrame]:
    """Figs. 4 and 15: the printed class-wise drop per class ID, one panel per model (Tables 15–16)."""
    import matplotlib.pyplot as plt

    data = classwise_frame()
    data = data[(data["metric"] == "drop") & data["model"].isin(models)].drop_duplicates(["model", "class_id"])
    fig, axes = plt.subplots(len(models), 1, figsize=(10, 2.1 * len(models) + 0.4), sharex=True, squeeze=False)
    for ax, model in zip(axes[:, 0], models):
        part = data[data["model"] == model].sort_values("class_id")
        ax.bar(part["class_id"], part["value"], color=["tab:red" if v < 0 else "tab:blue" for v in part["value"]])
        ax.axhline(0, color="black", lw=0.6)
        ax.set_ylabel("drop (points)", fontsize=8)
        ax.set_title(f"{model}: mean {part['value'].mean():.2f}", fontsize=9)
    axes[-1, 0].set_xlabel("class ID")
    axes[-1, 0].set_xticks(range(1, 46, 2))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig, data


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

