"""What the text prints about iNaturalist 2021 mini (Figs. S.4, S.5): no accuracy table, only its
batch sizes (Table S.4), its domain-shift groups (Table S.6) and two seed-study rows (Table S.7).
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from .. import published
from .accuracies import model_label, published_accuracies
from .rho_panels import RhoPanel, RhoRow, draw_rho_rows
from .seed_study import S7_TO_S2_METHOD, S7_TO_S2_PROTOCOL, seed_runs

PAPER = "ssl_protocols"
TARGETS = ("Family", "Genus", "Species")
# The ImageNet column an iNat seed-study row is compared with in an ID-vs-OOD panel (normalised LP,
# as in the main text, and plain FT).
ID_COLUMN_FOR_S7_PROTOCOL = {"LP": "LP_BN", "FT": "FT"}


def batch_sizes() -> pd.DataFrame:
    """Table S.4's rows for the three iNaturalist targets."""
    s4 = published.load(PAPER, "table_s4")
    return s4[s4["dataset"].str.startswith("iNaturalist")].reset_index(drop=True)


def groups() -> pd.DataFrame:
    """Table S.6's ticks for the three iNaturalist targets."""
    s6 = published.load(PAPER, "table_s6", numeric=False)
    return s6[s6["dataset"].str.startswith("iNat")].reset_index(drop=True)


def seed_points(metric: str = "top1") -> pd.DataFrame:
    """Table S.7's iNaturalist runs beside the model's printed ImageNet accuracy for the same protocol.

    These are the only (ID, OOD) accuracy pairs on iNaturalist the text prints: two models, Family target.
    """
    runs = seed_runs()
    runs = runs[runs["dataset"].str.startswith("iNat")]
    imagenet = published_accuracies(metric)
    imagenet = imagenet[imagenet["dataset"] == "Imagenet"].set_index(["model", "protocol"])["value"]
    rows = []
    for run in runs.itertuples():
        protocol = S7_TO_S2_PROTOCOL[run.protocol]
        model = model_label(S7_TO_S2_METHOD.get(run.method, run.method), run.backbone)
        id_column = ID_COLUMN_FOR_S7_PROTOCOL[protocol]
        rows.append({"model": model, "protocol": protocol, "target": "Family", "id_column": id_column,
                     "id": imagenet[(model, id_column)], "ood_mean": run.mean, "ood_std": run.std_population,
                     "run1": run.run1, "run2": run.run2, "run3": run.run3})
    return pd.DataFrame(rows)


ID_PROTOCOLS = ("kNN", "LP", "FT", "FT-10%", "FT-1%")
OOD_PROTOCOLS = ("kNN", "LP", "FT")


def figure_s4_cells() -> pd.DataFrame:
    """Fig. S.4's cells (target × OOD protocol × ID protocol), each `not printed`."""
    rows = [{"target": t, "ood_protocol": o, "id_protocol": i, "rho": float("nan"), "status": "not printed"}
            for t in TARGETS for o in OOD_PROTOCOLS for i in ID_PROTOCOLS]
    return pd.DataFrame(rows)


def target_panels(cells: pd.DataFrame, missing: str = "n/p") -> list[RhoPanel]:
    """Fig. S.4's panels from cells `target, ood_protocol, id_protocol, rho`: per target, ID × OOD
    protocols, NaN cells marked `missing`."""
    panels = []
    for target in dict.fromkeys(cells["target"]):
        part = cells[cells["target"] == target]
        matrix = part.pivot(index="id_protocol", columns="ood_protocol", values="rho")
        matrix = matrix.loc[list(dict.fromkeys(part["id_protocol"])), list(dict.fromkeys(part["ood_protocol"]))]
        panels.append(RhoPanel(target, matrix.rename(columns=lambda p: f"OOD {p}"), missing=missing))
    return panels


def draw_unprinted_matrices(cells: pd.DataFrame, title: str) -> Figure:
    """One ID × OOD grid per target on the ρ scale, every cell hatched and marked `n/p` (not printed)."""
    return draw_rho_rows([RhoRow("", target_panels(cells.assign(target="iNat mini, " + cells["target"])))], suptitle=title)


def draw_seed_points(points: pd.DataFrame, title: str):
    """Fig. S.5's grid (target × protocol); the only printed (ID, OOD) pairs are Table S.7's iNat runs."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(TARGETS), len(OOD_PROTOCOLS), figsize=(3.0 * len(OOD_PROTOCOLS), 2.6 * len(TARGETS)),
                             squeeze=False)
    for r, target in enumerate(TARGETS):
        for c, protocol in enumerate(OOD_PROTOCOLS):
            ax = axes[r, c]
            part = points[(points["target"] == target) & (points["protocol"] == protocol)]
            if len(part):
                ax.errorbar(part["id"], part["ood_mean"], yerr=part["ood_std"], fmt="o", color="tab:blue", capsize=3)
                for row in part.itertuples():
                    ax.annotate(f"{row.model}\n(S.7, 3 seeds)", (row.id, row.ood_mean), fontsize=6,
                                xytext=(4, -12), textcoords="offset points")
                ax.set_xlim(part["id"].min() - 10, part["id"].max() + 10)
                ax.set_ylim(part["ood_mean"].min() - 15, part["ood_mean"].max() + 15)
            else:
                ax.text(0.5, 0.5, "not printed", transform=ax.transAxes, ha="center", va="center", color="grey")
                ax.set_xticks([])
                ax.set_yticks([])
            if r == 0:
                ax.set_title(f"{protocol} (top-1)", fontsize=9)
            if c == 0:
                ax.set_ylabel(f"iNat {target}\nOOD %", fontsize=8)
            if r == len(TARGETS) - 1:
                ax.set_xlabel("ImageNet (ID) %", fontsize=8)
            ax.tick_params(labelsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig
