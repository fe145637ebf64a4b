"""One colour scale for every Spearman ρ the ssl_protocols figures draw (the paper's redraws and our
run alike: a diverging map over -1…1, since our small zoo gives negative ρ), and the rows of heatmap
panels of Figs. 3, S.2 and S.4: one panel per OOD protocol (or target), one row per source, a black
box where the ID and OOD protocol match, hatched cells where ρ is not printed or undefined.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
from matplotlib.figure import Figure

RHO_CMAP = "vlag_r"  # blue: positive ρ, red: negative
RHO_LIMITS = (-1.0, 1.0)
RHO_LABEL = "Spearman ρ"


@dataclass(frozen=True)
class RhoPanel:
    """One heatmap: ID protocols (rows) × `matrix`'s columns (their labels as drawn), headed `header`;
    a black box around row `boxed`, a white rule after `split` columns, NaN cells hatched and marked
    `missing` (e.g. "n/p")."""

    header: str
    matrix: pd.DataFrame
    boxed: str = ""
    split: int = 0
    missing: str = ""


@dataclass(frozen=True)
class RhoRow:
    """One source's panels, titled `title` (over its middle panel)."""

    title: str
    panels: Sequence[RhoPanel]


def draw_rho_rows(rows: Sequence[RhoRow], suptitle: str = "", note: str = "") -> Figure:
    """Each row's panels side by side (panel `i` of every row in one column of the figure, so the
    sources line up), all on the one ρ scale with one colour bar labelled "Spearman ρ"; `note` under."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from ..plotting import sns_heatmap

    slots = max(len(r.panels) for r in rows)
    widths = [max((r.panels[i].matrix.shape[1] for r in rows if i < len(r.panels)), default=1) + 0.8
              for i in range(slots)]
    height = max(p.matrix.shape[0] for r in rows for p in r.panels)
    fig, axes = plt.subplots(len(rows), slots, squeeze=False, layout="constrained",
                             figsize=(1.05 * sum(widths) + 1.8, len(rows) * (0.42 * height + 2.1) + 0.6),
                             gridspec_kw={"width_ratios": widths})
    mesh = None
    for row, line in zip(rows, axes):
        for i, ax in enumerate(line):
            if i >= len(row.panels):
                ax.set_axis_off()
                continue
            panel = row.panels[i]
            values = panel.matrix.astype(float)
            sns_heatmap(ax, values, annot=True, fmt=".2f", cmap=RHO_CMAP, vmin=RHO_LIMITS[0], vmax=RHO_LIMITS[1],
                        cbar=False, linewidths=0.4, linecolor="white", annot_kws={"fontsize": 8})
            mesh = ax.collections[0]
            for y, x in zip(*values.isna().to_numpy().nonzero()):
                ax.add_patch(Rectangle((x, y), 1, 1, fill=False, hatch="///", edgecolor="lightgrey", lw=0))
                ax.text(x + 0.5, y + 0.5, panel.missing, ha="center", va="center", fontsize=7, color="dimgrey")
            if panel.split:
                ax.axvline(panel.split, color="white", lw=3)
            if panel.boxed in list(values.index):
                ax.add_patch(Rectangle((0, list(values.index).index(panel.boxed)), values.shape[1], 1, fill=False,
                                       edgecolor="black", lw=2))
            ax.set_xticklabels(ax.get_xticklabels(), rotation=0, fontsize=8)
            ax.set_yticklabels(ax.get_yticklabels() if i == 0 else [], rotation=0)
            ax.set_ylabel("ID protocol" if i == 0 else "")
            ax.xaxis.set_label_position("top")
            ax.set_xlabel(panel.header, fontsize=9)
            ax.grid(False)
        line[(len(row.panels) - 1) // 2].set_title(row.title, fontsize=10, pad=4)
    fig.colorbar(mesh, ax=axes.ravel().tolist(), label=RHO_LABEL, shrink=0.8)
    if suptitle:
        fig.suptitle(suptitle, fontsize=10)
    if note:
        fig.supxlabel(note, fontsize=8)
    return fig
