"""Drawings of fm_perturbations' published artefacts: Table 1 against our property checks, Tables 2/3
as annotated heatmaps of the drops, and the theory Figures 1 and 2 drawn from our metric code on the
paper's examples. Each function returns `(figure, tidy data drawn)` for `lib.plotting.save_figure`.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..plotting import heatmap
from .accuracies import HEADS, PERTURBATIONS, TABLES, accuracies, drops
from .examples import FIGURE01_ANGLES, FIGURE02_ANGLES, figure01_embeddings, figure02_embeddings
from .metrics import cosine_metric, divergence_radius, euclidean_metric, welzl_ball
from .properties import PROPERTIES, printed_violations, property_checks


def table01_frame() -> pd.DataFrame:
    """Per metric and property: violated as printed in Table 1, violated by our check, and the breach."""
    ours = property_checks().rename(columns={"violated": "violated_ours"})
    return printed_violations().rename(columns={"violated": "violated_printed"}).merge(ours, on=["metric", "property"])


def draw_table01() -> tuple[plt.Figure, pd.DataFrame]:
    """Two metric × property grids: Table 1's printed violations, and what our metric code finds."""
    frame = table01_frame()
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.0))
    for ax, column, title in zip(axes, ("violated_printed", "violated_ours"),
                                 ("Table 1 (printed): violated properties", "our metric code: violated properties")):
        matrix = frame.pivot(index="metric", columns="property", values=column).astype(float)
        matrix = matrix.reindex(index=list(dict.fromkeys(frame["metric"])), columns=list(PROPERTIES))
        text = matrix.map(lambda v: "violated" if v else "holds")
        heatmap(ax, matrix, annot=text, cmap="Reds", vmin=0, vmax=1.5, title=title)
    fig.tight_layout()
    return fig, frame


def accuracy_frame(artefact: str) -> pd.DataFrame:
    """One table's rows: ACC, ACC_p and drop per head and perturbation, with the printed cell text."""
    frame = drops()
    frame = frame[frame["artefact"] == artefact].copy()
    frame["cell"] = [f"{a:.1f} (↓ {p})" for a, p in zip(frame["ACC_p"], frame["printed_drop"])]
    frame["model"] = frame["head"].map(HEADS)
    return frame


def paper_accuracy_panel(artefact: str) -> tuple[pd.DataFrame, dict[str, str]]:
    """Table 2 or 3 as printed, ready for `accuracy_heatmaps`: its rows (`accuracy_frame`) and each
    head's column note (model, printed ACC)."""
    clean = accuracies().query("artefact == @artefact and quantity == 'ACC'").set_index("head")["printed"]
    return accuracy_frame(artefact), {h: f"({HEADS[h]})\nACC {clean[h]}" for h in HEADS}


def draw_accuracy_table(artefact: str) -> tuple[plt.Figure, pd.DataFrame]:
    """Table 2 or 3 as printed (`accuracy_heatmaps`), with the printed cells as text."""
    frame, notes = paper_accuracy_panel(artefact)
    fig = accuracy_heatmaps([(frame, notes, f"{TABLES[artefact]}: ACC_p (%) and its drop (points) per perturbation, "
                                            "as printed")])
    return fig, frame


DROP_LABEL = "drop ACC − ACC_p (points)"


def accuracy_heatmaps(panels: list[tuple[pd.DataFrame, dict[str, str], str]]) -> plt.Figure:
    """Tables 2-3's drawing, for the paper's numbers and for ours alike, one panel per `(frame, column
    notes, title)` side by side: the drop ACC - ACC_p per perturbation (rows, the paper's order) and head
    (columns), coloured by the drop and annotated with the `cell` text; `frame` has columns
    `perturbation`, `head`, `drop`, `cell`; each column's title is the head's first word over its note
    (model, ACC). Each panel has its own colour scale from 0 (no drop, white; lower if a drop is negative)
    to its largest drop, with a labelled colour bar: the paper's drops and ours differ several-fold in size."""
    fig, axes = plt.subplots(1, len(panels), figsize=(6.2 * len(panels), 4.6), squeeze=False)
    for ax, (frame, notes, title) in zip(axes[0], panels):
        labels = {h: f"{h.split()[0]}\n{notes.get(h, '')}" for h in HEADS}
        matrix = frame.pivot(index="perturbation", columns="head", values="drop").reindex(index=list(PERTURBATIONS),
                                                                                             columns=list(HEADS))
        text = frame.pivot(index="perturbation", columns="head", values="cell").reindex_like(matrix)
        heatmap(ax, matrix.rename(columns=labels), annot=text.rename(columns=labels).fillna(""), cmap="Reds",
                vmin=min(0.0, float(matrix.min().min())), cbar=True, title=title)
        ax.collections[0].colorbar.set_label(DROP_LABEL)
        ax.set_xticklabels(ax.get_xticklabels(), rotation=0, ha="center")
    fig.tight_layout()
    return fig


def _unit_circle(ax: plt.Axes) -> None:
    t = np.linspace(0, 2 * np.pi, 361)
    ax.plot(np.cos(t), np.sin(t), color="0.6", lw=1, label="unit sphere (embedding space)")
    ax.set_aspect("equal")
    ax.set_xlim(-1.35, 1.35)
    ax.set_ylim(-1.35, 1.35)


def _vectors(ax: plt.Axes, points: np.ndarray, angles: tuple[float, ...]) -> None:
    for (x, y), angle in zip(points, angles):
        ax.annotate("", xy=(x, y), xytext=(0, 0), arrowprops={"arrowstyle": "->", "color": "tab:blue", "lw": 1.5})
        ax.text(1.12 * x, 1.12 * y, f"{angle:g}°", ha="center", va="center", fontsize=8, color="tab:blue")


def _metrics_frame(example: str, points: np.ndarray, angles: tuple[float, ...], centre: np.ndarray,
                   radius: float) -> pd.DataFrame:
    values = {"R_cs": cosine_metric(points), "R_ed": euclidean_metric(points), "R_dr": divergence_radius(points)}
    rows = [{"example": example, "kind": "embedding", "angle_deg": a, "x": x, "y": y, "value": np.nan}
            for a, (x, y) in zip(angles, points)]
    rows.append({"example": example, "kind": "ball centre", "angle_deg": np.nan, "x": centre[0], "y": centre[1],
                 "value": radius})
    rows += [{"example": example, "kind": k, "angle_deg": np.nan, "x": np.nan, "y": np.nan, "value": v}
             for k, v in values.items()]
    return pd.DataFrame(rows)


def _draw_ball_example(example: str, points: np.ndarray, angles: tuple[float, ...], title: str) -> tuple[plt.Figure, pd.DataFrame]:
    centre, radius = welzl_ball(points)
    data = _metrics_frame(example, points, angles, centre, radius)
    fig, ax = plt.subplots(figsize=(4.6, 4.6))
    _unit_circle(ax)
    _vectors(ax, points, angles)
    ax.add_patch(plt.Circle(tuple(centre), radius, fill=False, color="tab:red", lw=1.8, ls="--",
                            label="minimum enclosing ball"))
    ax.plot(*centre, "x", color="tab:red")
    values = data.set_index("kind")["value"]
    ax.set_title(f"{title}\nours: R_cs {values['R_cs']:.3f}, R_ed {values['R_ed']:.3f}, R_dr {values['R_dr']:.3f}",
                 fontsize=9)
    ax.legend(loc="lower left", fontsize=7)
    fig.tight_layout()
    return fig, data


def draw_figure01() -> tuple[plt.Figure, pd.DataFrame]:
    """Fig. 1: three unit vectors summing to zero; their enclosing ball is the unit sphere (R_dr = 1)."""
    return _draw_ball_example("figure01", figure01_embeddings(), FIGURE01_ANGLES,
                              "Fig. 1 example: embeddings summing to zero")


def draw_figure02() -> tuple[plt.Figure, pd.DataFrame]:
    """Fig. 2: the minimum enclosing ball of three nearby unit vectors (our angles)."""
    return _draw_ball_example("figure02", figure02_embeddings(), FIGURE02_ANGLES,
                              "Fig. 2 example: minimum enclosing ball of 3 embeddings")
