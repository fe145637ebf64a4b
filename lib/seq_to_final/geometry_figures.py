"""Drawings of the analysis runs (`lib.seq_to_final.geometry`) in the paper's layout: interpolation paths
(Figs 1, 10-15), accuracy against the adjacent regularisation (Fig. 9), trajectories of models in the
projection and SVCCA planes (Figs 16-17). Each returns the figure and the tidy data drawn."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .geometry import judged_reading, regularisation_curve, trajectories
from .path_readings import layer_order

ZERO_AT = 1e-3  # the paper plots "no adjacent regularization" at 0.001 on the log axis
REFERENCES = {"Oracle": ("X", "black"), "Baseline": ("s", "tab:gray"), "ERM historical": ("o", "tab:brown")}
SEQUENCE_TITLES = {"CLR": "corruption → label flip → rotation (CLR)",
                   "RCL": "rotation → corruption → label flip (RCL)",
                   "rrr": "3 conditional rotations (rrr)", "TTT": "3 red tints (TTT)",
                   "sss": "3 sub-population shifts (sss)", "portraits": "faces by decade (Portraits stand-in)"}


def sequence_title(sequence: str) -> str:
    """A panel title for a sequence name ("rotation_<n>": n steps, n − 1 rotations of 30°)."""
    if sequence.startswith("rotation_"):
        steps = int(sequence.split("_")[1])
        return f"{steps}-step rotations ({steps - 1} × 30°)"
    return SEQUENCE_TITLES.get(sequence, sequence)


def layer_title(layer: str, blocks: int) -> str:
    """A panel title for a layer name, the paper's words first (the code's name in brackets)."""
    if layer.startswith("blocks."):
        return f"block {int(layer.split('.')[1]) + 1} of {blocks} ({layer})"
    return {"stem": "input conv (stem)", "head": "output fc (head)"}.get(layer, layer)


def path_figure(frame: pd.DataFrame, panels: list[str], columns: int = 2) -> tuple[plt.Figure, pd.DataFrame]:
    """One panel per "<sequence> <architecture>": each method's test accuracy along s (mean over the seeds,
    the band their range), on a fixed [0, 1] accuracy axis so that flat looks the same in every figure; under
    the first BatchNorm reading of the runs solid, under the others dashed in the method's colour (no band)."""
    paths = frame[frame["analysis"] == "path"]
    judged = judged_reading(frame)
    colours = dict(zip(dict.fromkeys(paths["method"]), plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    columns = min(columns, len(panels))  # one panel: one column, so that the legend sits under it
    rows = int(np.ceil(len(panels) / columns))
    fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.2 * rows), squeeze=False, sharey=True)
    drawn = []
    for ax, panel in zip(axes.flat, panels):
        sequence, architecture = panel.split()
        chosen = paths[(paths["sequence"] == sequence) & (paths["architecture"] == architecture)]
        curve = (chosen.groupby(["batchnorm", "method", "alpha"], sort=False)["accuracy"].agg(["mean", "min", "max"])
                 .reset_index())
        for (reading, method), line in curve.groupby(["batchnorm", "method"], sort=False):
            first = reading == judged
            ax.plot(line["alpha"], line["mean"], marker="." if first else None, linestyle="-" if first else "--",
                    color=colours[method], label=method if first else f"{method}, BatchNorm {reading}")
            if first:
                ax.fill_between(line["alpha"], line["min"], line["max"], alpha=0.2, color=colours[method])
        ax.set_title(f"{sequence_title(sequence)}, {architecture}", fontsize=9)
        ax.set_ylim(0, 1)
        ax.set_xlabel("s  [(1 − s)·w$_{T-1}$ + s·w$_T$]")
        ax.set_ylabel("test accuracy at final step")
        drawn.append(curve.assign(sequence=sequence, architecture=architecture))
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.tight_layout()
    handles, labels = axes.flat[0].get_legend_handles_labels()  # below the panels, where it hides no path:
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0),  # a column per BatchNorm reading
               ncol=paths["batchnorm"].nunique(), fontsize=7, frameon=False)
    return fig, pd.concat(drawn, ignore_index=True)


def regularisation_figure(frame: pd.DataFrame) -> tuple[plt.Figure, pd.DataFrame]:
    """Fig. 9: the joint model's final validation accuracy against λ_adj (log axis, 0 at 0.001), mean
    over the seeds with their range, and ERM final / ERM all as horizontal lines."""
    curve = regularisation_curve(frame)
    joint = curve[curve["method"] == "JM"].assign(x=lambda f: f["lambda_adj"].where(f["lambda_adj"] > 0, ZERO_AT))
    summary = joint.groupby("x")["accuracy"].agg(["mean", "min", "max"]).reset_index()
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(summary["x"], summary["mean"], marker="o", color="tab:blue", label="joint model")
    ax.fill_between(summary["x"], summary["min"], summary["max"], color="tab:blue", alpha=0.2)
    for (method, accuracy), color in zip(curve[curve["method"] != "JM"].groupby("method")["accuracy"].mean().items(),
                                         ("tab:red", "tab:green")):
        ax.axhline(accuracy, color=color, linestyle="--", label=method)
    ax.set_xscale("log")
    ax.set_xlabel("adjacent regularisation λ$_{adj}$ (0 plotted at 0.001)")
    ax.set_ylabel("validation accuracy at final step")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig, curve.reset_index(drop=True)


def trajectory_figure(frame: pd.DataFrame, analysis: str) -> tuple[plt.Figure, pd.DataFrame]:
    """Figs 16 ("projection") and 17 ("svcca"): one panel per layer and the entire model; each method's
    models over the steps joined in step order (mean over the seeds), the reference models as markers. Panels
    in model order (input conv, blocks, output fc, entire model, as the paper's); SVCCA on one square range for
    every panel, from the lowest coordinate (rounded down to .1) to the oracle's 1."""
    points = trajectories(frame, analysis)
    layers = layer_order(points["layer"])
    blocks = sum(layer.startswith("blocks.") for layer in layers)
    low = float(np.floor(10 * min(points["x"].min(), points["y"].min())) / 10)
    fig, axes = plt.subplots(1, len(layers), figsize=(3.8 * len(layers), 3.6), squeeze=False)
    for ax, layer in zip(axes.flat, layers):
        chosen = points[points["layer"] == layer]
        for method, line in chosen.groupby("method", sort=False):
            if method in REFERENCES:
                marker, color = REFERENCES[method]
                ax.scatter(line["x"], line["y"], marker=marker, color=color, s=60, label=method, zorder=3)
                continue
            line = line.sort_values("step")
            ax.plot(line["x"], line["y"], marker="o", markersize=3, label=method)
            ax.annotate("", xy=line[["x", "y"]].iloc[-1], xytext=line[["x", "y"]].iloc[-2],
                        arrowprops={"arrowstyle": "->", "color": ax.lines[-1].get_color()})
        ax.set_title(layer_title(layer, blocks))
        if analysis == "projection":
            ax.set_xlabel("towards ERM on history (x)")
            ax.set_ylabel("towards final-step baseline (y)")
        else:
            ax.set_xlabel("mean CCA coefficient, 50 %")
            ax.set_ylabel("mean CCA coefficient, 90 %")
            ax.set(xlim=(low, 1.02), ylim=(low, 1.02))
    axes.flat[0].legend(fontsize=7)
    fig.tight_layout()
    return fig, points
