"""Scatter analyses: Fig. 5 (ImageNet LP vs FT with a regression line and its confidence band) and
Fig. 6 / S.1 (ID vs OOD accuracy per protocol and dataset, with Spearman's r in each panel).

Fig. 5's caption: "the solid line is a linear regression with a 90% confidence interval". Seaborn's
`regplot`, the likely source, bootstraps that band; `linear_fit` gives the analytic (t-based) band
of the mean response instead, which is deterministic and close to the bootstrap for 26 points.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from scipy import stats

from .accuracies import published_accuracies, score_table
from .shift_groups import COMPLETE_OOD_DATASETS, IMAGENET_D, IN_DOMAIN, wide_scores

if TYPE_CHECKING:  # matplotlib is imported where a figure is drawn, so the audit does not load it
    import matplotlib.pyplot as plt

# Masked-image-modelling methods, the paper's "generative" family (Sec. 2.1, Fig. 5 colours). Sec. 4.4
# names four of them; MILAN, EVA and PixMIM are masked-image models too (Sec. 2.1 cites them there).
GENERATIVE_METHODS = ("iBOT", "MAE", "MaskFeat", "BEiT v2", "MILAN", "EVA", "PixMIM")
NAMED_GENERATIVE = ("MaskFeat", "MAE", "BEiT v2", "iBOT")  # Sec. 4.4, as examples of "a generative loss"
BACKBONE_SWITCH_METHODS = ("DINO", "MoCo v3")  # the two methods printed with both backbones
# Fig. 6 / S.1 draw each protocol against itself; the main text uses the normalised kNN and LP.
SCATTER_COLUMNS = {"kNN": "kNN_N", "LP": "LP_BN", "FT": "FT"}
IMAGENET_D_MEAN = "ImageNet-D (mean of 6)"
FIGURE06_DATASETS = COMPLETE_OOD_DATASETS + (IMAGENET_D_MEAN,)
# Our zoo's pre-training objectives (`lib.train.objectives`) in the paper's two families; a randomly
# initialised backbone (`none`) is neither.
OBJECTIVE_FAMILIES = {"supervised": "discriminative", "simclr": "discriminative", "rotation": "discriminative",
                      "masked": "generative", "none": "no pre-training"}
FAMILY_COLOURS = {"discriminative": "tab:blue", "generative": "tab:orange", "no pre-training": "tab:grey"}


def family(method: str) -> str:
    """`generative` (masked image modelling) or `discriminative`; for our zoo's objectives, their family."""
    if method in OBJECTIVE_FAMILIES:
        return OBJECTIVE_FAMILIES[method]
    return "generative" if method in GENERATIVE_METHODS else "discriminative"


def backbone_marker(backbone: str) -> str:
    """The marker of a backbone in every scatter: triangle for a ViT, circle for a ResNet."""
    return "^" if "vit" in backbone.lower() else "o"


@dataclass(frozen=True)
class LinearFit:
    """Ordinary least squares y = intercept + slope·x, with the confidence band of the mean response."""

    slope: float
    intercept: float
    n: int
    residual_sd: float
    x_mean: float
    x_ss: float
    level: float

    def predict(self, x: np.ndarray | float) -> np.ndarray:
        return self.intercept + self.slope * np.asarray(x, dtype=float)

    def band(self, x: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
        """Lower and upper edge of the `level` confidence band of the fitted line at `x`."""
        x = np.asarray(x, dtype=float)
        t = stats.t.ppf(0.5 + self.level / 2, self.n - 2)
        half = t * self.residual_sd * np.sqrt(1 / self.n + (x - self.x_mean) ** 2 / self.x_ss)
        fit = self.predict(x)
        return fit - half, fit + half


def linear_fit(x: np.ndarray | pd.Series, y: np.ndarray | pd.Series, level: float = 0.90) -> LinearFit:
    """Least-squares line through (x, y) and what its confidence band needs."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if len(x) < 3:
        raise ValueError("a regression with a confidence band needs at least 3 points")
    x_mean = x.mean()
    x_ss = float(((x - x_mean) ** 2).sum())
    slope = float(((x - x_mean) * (y - y.mean())).sum() / x_ss)
    intercept = float(y.mean() - slope * x_mean)
    residuals = y - (intercept + slope * x)
    residual_sd = math.sqrt(float((residuals**2).sum()) / (len(x) - 2))
    return LinearFit(slope, intercept, len(x), residual_sd, float(x_mean), x_ss, level)


def lp_vs_ft(accuracies: pd.DataFrame, lp_column: str = "LP_BN", level: float = 0.90) -> tuple[pd.DataFrame, LinearFit]:
    """Fig. 5: one row per model with ImageNet LP and FT, the gap FT - LP, and its place against the fit.

    `residual` is FT minus the regression line at the model's LP; `above_line` is residual > 0.
    """
    table = score_table(accuracies, IN_DOMAIN, {"LP": lp_column, "FT": "FT"})
    meta = accuracies.drop_duplicates("model").set_index("model").loc[table.index, ["method", "backbone"]]
    frame = meta.join(table).reset_index()
    frame["family"] = frame["method"].map(family)
    fit = linear_fit(frame["LP"], frame["FT"], level)
    frame["gap"] = frame["FT"] - frame["LP"]
    frame["fitted"] = fit.predict(frame["LP"])
    frame["residual"] = frame["FT"] - frame["fitted"]
    frame["above_line"] = frame["residual"] > 0
    frame["lp_column"] = lp_column
    return frame, fit


def backbone_switches(frame: pd.DataFrame) -> pd.DataFrame:
    """For DINO and MoCo v3: the residual of the ResNet-50 and of the ViT-B/16 model."""
    rows = []
    for method in BACKBONE_SWITCH_METHODS:
        of = frame[frame["method"] == method].set_index("backbone")
        rows.append({"method": method, "residual RN-50": of.loc["RN-50", "residual"],
                     "residual ViT-B/16": of.loc["ViT-B/16", "residual"]})
    return pd.DataFrame(rows)


def draw_lp_vs_ft(frame: pd.DataFrame, fit: LinearFit, ax: plt.Axes) -> None:
    """Fig. 5's layout: colour = family, marker = backbone, dotted identity, fit with its band; each point named,
    the names moved clear of each other."""
    from ..plotting import move_labels_clear

    low = min(frame["LP"].min(), frame["FT"].min()) - 3
    high = max(frame["LP"].max(), frame["FT"].max()) + 3
    ax.plot([low, high], [low, high], ":", color="grey", label="equal accuracy")
    xs = np.linspace(frame["LP"].min() - 2, frame["LP"].max() + 2, 200)
    band_low, band_high = fit.band(xs)
    ax.fill_between(xs, band_low, band_high, color="black", alpha=0.12, label=f"{fit.level:.0%} band")
    ax.plot(xs, fit.predict(xs), "-", color="black", lw=1.2, label="linear fit")
    for (fam, backbone), part in frame.groupby(["family", "backbone"], sort=True):
        ax.scatter(part["LP"], part["FT"], c=FAMILY_COLOURS[fam], marker=backbone_marker(backbone), s=38,
                   edgecolor="white", linewidth=0.5, label=f"{fam}, {backbone}", zorder=3)
    ax.set_xlim(low, high)
    ax.set_ylim(min(frame["FT"].min(), fit.predict(low)) - 3, frame["FT"].max() + 3)
    texts = [ax.text(row.LP, row.FT, row.method, fontsize=6, zorder=4) for row in frame.itertuples()]
    move_labels_clear(ax, texts, frame["LP"], frame["FT"])
    ax.set_xlabel(f"ImageNet linear probing ({frame['lp_column'].iloc[0]}), top-1 %")
    ax.set_ylabel("ImageNet fine-tuning (FT), top-1 %")
    ax.legend(fontsize=7, loc="lower right")


def scatter_points(
    metrics: tuple[str, ...] = ("top1", "top5"),
    datasets: tuple[str, ...] = FIGURE06_DATASETS,
    columns: dict[str, str] | None = None,
) -> pd.DataFrame:
    """Fig. 6 / S.1 points: `metric, dataset, protocol, model, method, backbone, family, id, ood`.

    `ImageNet-D (mean of 6)` averages the six ImageNet-D domains per model (models missing any
    domain are left out). Models without a printed OOD value are left out of that panel.
    """
    columns = SCATTER_COLUMNS if columns is None else columns
    frames = []
    for metric in metrics:
        accuracies = published_accuracies(metric)
        wide = wide_scores(accuracies)
        meta = accuracies.drop_duplicates("model").set_index("model")[["method", "backbone"]]
        for dataset in datasets:
            for protocol, column in columns.items():
                if dataset == IMAGENET_D_MEAN:
                    ood = wide[[(d, column) for d in IMAGENET_D]].mean(axis=1, skipna=False)
                else:
                    ood = wide[(dataset, column)]
                part = pd.DataFrame({"id": wide[(IN_DOMAIN, column)], "ood": ood}).dropna()
                part = meta.loc[part.index].join(part).reset_index()
                part.insert(0, "protocol", protocol)
                part.insert(0, "dataset", dataset)
                part.insert(0, "metric", metric)
                part["column"] = column
                frames.append(part)
    points = pd.concat(frames, ignore_index=True)
    points.insert(points.columns.get_loc("backbone") + 1, "family", points["method"].map(family))
    return points


def panel_statistics(points: pd.DataFrame) -> pd.DataFrame:
    """Per panel: number of models, Spearman's r (as in the figures), Pearson's r (linearity), mean OOD - ID."""
    rows = []
    for (metric, dataset, protocol), part in points.groupby(["metric", "dataset", "protocol"], sort=False):
        with warnings.catch_warnings():  # a constant column (top-5 of two classes) has no rank correlation: NaN
            warnings.simplefilter("ignore", stats.ConstantInputWarning)
            spearman = part["id"].corr(part["ood"], method="spearman")
        rows.append({
            "metric": metric, "dataset": dataset, "protocol": protocol, "n_models": len(part),
            "spearman": spearman,
            "pearson": part["id"].corr(part["ood"], method="pearson"),
            "mean ood - id": float((part["ood"] - part["id"]).mean()),
            "models with ood < id": int((part["ood"] < part["id"]).sum()),
        })
    return pd.DataFrame(rows)


def near_ties(points: pd.DataFrame, id_within: float = 0.5, ood_apart: float = 10.0) -> pd.DataFrame:
    """Pairs of models whose ID accuracy differs by at most `id_within` points but OOD by at least `ood_apart`."""
    rows = []
    for (metric, dataset, protocol), part in points.groupby(["metric", "dataset", "protocol"], sort=False):
        records = part.to_dict("records")
        for i, a in enumerate(records):
            for b in records[i + 1:]:
                if abs(a["id"] - b["id"]) <= id_within and abs(a["ood"] - b["ood"]) >= ood_apart:
                    rows.append({"metric": metric, "dataset": dataset, "protocol": protocol,
                                 "model a": a["model"], "model b": b["model"], "id a": a["id"], "id b": b["id"],
                                 "ood a": a["ood"], "ood b": b["ood"], "ood gap": abs(a["ood"] - b["ood"])})
    return pd.DataFrame(rows, columns=["metric", "dataset", "protocol", "model a", "model b", "id a", "id b",
                                       "ood a", "ood b", "ood gap"])


def _draw_grid(axes: np.ndarray, points: pd.DataFrame, statistics: pd.DataFrame, rows: list[str],
               panels: list[tuple[str, str]], id_label: str, limits: tuple[float, float] | None = None) -> None:
    """Fill `axes` (rows × panels): ID vs OOD per dataset and (metric, protocol), colour = family,
    marker = backbone, dotted identity, each panel's Spearman r and n; with `limits`, every panel on
    those axes and empty panels marked `no points`."""
    stats_by_panel = statistics.set_index(["metric", "dataset", "protocol"])
    for r, dataset in enumerate(rows):
        for c, (metric, protocol) in enumerate(panels):
            ax = axes[r, c]
            part = points[(points["dataset"] == dataset) & (points["metric"] == metric) & (points["protocol"] == protocol)]
            for (fam, backbone), sub in part.groupby(["family", "backbone"], sort=True):
                ax.scatter(sub["id"], sub["ood"], c=FAMILY_COLOURS[fam], marker=backbone_marker(backbone), s=14,
                           edgecolor="white", linewidth=0.3, clip_on=False)  # a point at 0 or 100 % drawn whole
            if len(part):
                low = min(part["id"].min(), part["ood"].min()) if limits is None else limits[0]
                high = max(part["id"].max(), part["ood"].max()) if limits is None else limits[1]
                ax.plot([low, high], [low, high], ":", color="grey", lw=0.8)
                s = stats_by_panel.loc[(metric, dataset, protocol)]
                rho = (f"r = {s['spearman']:.2f}" if np.isfinite(s["spearman"])
                       else "r undefined (n < 3)" if s["n_models"] < 3 else "r undefined (constant)")
                ax.text(0.03, 0.97, f"{rho}\nn = {int(s['n_models'])}", transform=ax.transAxes, va="top", fontsize=7)
            elif limits is not None:
                ax.text(0.5, 0.5, "no points", transform=ax.transAxes, ha="center", va="center", color="grey", fontsize=7)
            if limits is not None:
                ax.set(xlim=limits, ylim=limits)
            if r == 0:
                ax.set_title(f"{protocol} ({metric})", fontsize=8)
            if c == 0:
                ax.set_ylabel(f"{dataset}\nOOD %", fontsize=7)
            if r == len(rows) - 1:
                ax.set_xlabel(id_label, fontsize=7)
            ax.tick_params(labelsize=6)


def _family_legend(fig, points: pd.DataFrame, **options) -> None:
    import matplotlib.pyplot as plt

    styles: dict[tuple[str, str], list[str]] = {}  # one entry per drawn style: the backbones it stands for
    for f, b in sorted(set(zip(points["family"], points["backbone"]))):
        styles.setdefault((f, backbone_marker(b)), []).append(b)
    handles = [plt.Line2D([], [], ls="", marker=marker, color=FAMILY_COLOURS[f], label=f"{f}, {' / '.join(bs)}")
               for (f, marker), bs in styles.items()]
    fig.legend(handles=handles, ncol=min(len(handles), 6), fontsize=7, **options)


def draw_scatter_grid(points: pd.DataFrame, statistics: pd.DataFrame, title: str) -> plt.Figure:
    """Rows: datasets; columns: metric × protocol; each panel ID vs OOD with its Spearman r and n."""
    import matplotlib.pyplot as plt

    datasets = list(dict.fromkeys(points["dataset"]))
    panels = list(dict.fromkeys(zip(points["metric"], points["protocol"])))
    fig, axes = plt.subplots(len(datasets), len(panels), figsize=(2.3 * len(panels), 2.2 * len(datasets)),
                             squeeze=False)
    _draw_grid(axes, points, statistics, datasets, panels, "ImageNet (ID) %")
    _family_legend(fig, points, loc="lower center", bbox_to_anchor=(0.5, -0.01))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.03, 1, 0.98))
    return fig


def paper_and_ours_scatter_grid(points: pd.DataFrame, rows: dict[str, list[str]], id_labels: dict[str, str],
                                titles: tuple[str, str], metrics: tuple[str, ...] = ("top1", "top5"),
                                protocols: tuple[str, ...] = tuple(SCATTER_COLUMNS)) -> plt.Figure:
    """Fig. 6's grid for the paper's points (top block) and ours (bottom block), drawn alike: rows =
    each source's datasets (`rows[source]`), columns = metric × protocol, every panel on 0–100 % axes
    with its Spearman r and n. `points`: `source, metric, dataset, protocol, model, family, backbone, id, ood`."""
    import matplotlib.pyplot as plt

    panels = [(m, p) for m in metrics for p in protocols]
    heights = [len(rows[s]) + 0.9 for s in ("paper", "ours")]
    fig = plt.figure(figsize=(2.1 * len(panels) + 0.8, 2.0 * sum(heights) + 0.5))
    for subfig, source, title, height in zip(fig.subfigures(2, 1, height_ratios=heights), ("paper", "ours"), titles, heights):
        part = points[points["source"] == source]
        margin = 0.45 / height  # fixed margins (a layout engine costs seconds on a grid this size)
        axes = subfig.subplots(len(rows[source]), len(panels), squeeze=False, sharex=True, sharey=True,
                               gridspec_kw={"left": 0.07, "right": 0.99, "top": 1 - margin, "bottom": margin * 1.2,
                                            "hspace": 0.25, "wspace": 0.12})
        _draw_grid(axes, part, panel_statistics(part), rows[source], panels, id_labels[source], limits=(0, 100))
        for ax in axes.flat:
            ax.set_xticks([0, 50, 100])
            ax.set_yticks([0, 50, 100])
        subfig.suptitle(title, fontsize=10, y=1 - 0.1 / height)
    _family_legend(fig, points, loc="lower center", bbox_to_anchor=(0.5, -0.02))
    return fig


def xy_points(frame: pd.DataFrame, is_x: pd.Series, on: list[str]) -> pd.DataFrame:
    """Scatter points from a tidy frame (`lib.results`): every row not selected by `is_x` is a point,
    its `value` as `y`, the value of the `is_x` row with the same `on` labels as `x`."""
    xs = frame.loc[is_x, on + ["value"]].rename(columns={"value": "x"})
    return frame[~is_x].rename(columns={"value": "y"}).merge(xs, on=on)


def paper_and_ours_scatter(points: pd.DataFrame, *, xlabel: str, ylabel: str,
                           titles: tuple[str, str] = ("paper", "ours"), fit_level: float | None = None) -> plt.Figure:
    """The paper's points and ours (`xy_points` of one tidy frame, with `family` and `backbone`
    columns) as two panels with the same axes (accuracy %, 0–100), colour = family and marker =
    backbone as in Fig. 5, the dotted identity on both; with `fit_level`, each panel's least-squares
    line and its `fit_level` confidence band."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4.4), sharex=True, sharey=True)
    for ax, source, title in zip(axes, ("paper", "ours"), titles):
        part = points[points["source"] == source]
        ax.plot([0, 100], [0, 100], ":", color="grey", lw=0.8, label="equal accuracy")
        if fit_level is not None and len(part) >= 3:
            fit = linear_fit(part["x"], part["y"], fit_level)
            xs = np.linspace(part["x"].min(), part["x"].max(), 100)
            low, high = fit.band(xs)
            ax.fill_between(xs, low, high, color="black", alpha=0.12, label=f"{fit_level:.0%} band")
            ax.plot(xs, fit.predict(xs), "-", color="black", lw=1.1, label="linear fit")
        for (fam, backbone), sub in part.groupby(["family", "backbone"], sort=True):
            ax.scatter(sub["x"], sub["y"], s=22, c=FAMILY_COLOURS[fam], marker=backbone_marker(backbone),
                       edgecolor="white", linewidth=0.4, label=f"{fam}, {backbone}", zorder=3, clip_on=False)
        ax.set(xlim=(0, 100), ylim=(0, 100), xlabel=xlabel, title=title)
        ax.title.set_fontsize(9)
        ax.legend(fontsize=6, loc="upper left")
    axes[0].set_ylabel(ylabel)
    fig.tight_layout()
    return fig
