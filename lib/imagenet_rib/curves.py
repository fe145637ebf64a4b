"""Our curves of Figs. 5, 12 and 13 (`ours_experiments`) on the axes of the paper's redraws.

The paper prints none of these curves, only their reference values, which `figures.draw` redraws on
0-100 % accuracy axes (Fig. 13's mRI panel: -45 to 5). `show_on_paper_axes` draws our experiment's panel
on those same ranges, so a 10-point drop of ours looks as large as a 10-point drop of the paper's, with the
axes named as the redraws name them; for Fig. 13 it adds our main run's FT mRI per regime as dashed
references (black `clean`, grey `augmented`): Fig. 13's models, LAION-2B and IN-21K + AugReg, have no analogue
among our regimes (`benchmark.REGIME_ANALOGUES`).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..plotting import save_figure
from .experiments import load_experiments
from .figures import PANEL_YLABELS
from .ours import FT_SET
from .ours_experiments import (CLAIMS, EXPERIMENT_PANELS, finetuned_on, load_run,
                               our_experiment_panel, runs_not_stored, show_experiment_panel)

ACCURACY = (0.0, 100.0)
# y range per panel (the panel's title names the value drawn), as in the redraws of `figures.draw`
Y_RANGES: dict[str, dict[str, tuple[float, float]]] = {
    "figure05": {FT_SET: ACCURACY, "OOD accuracy": ACCURACY},
    "figure12": {FT_SET: ACCURACY, "OOD accuracy": ACCURACY},
    "figure13": {FT_SET: ACCURACY, "mRI": (-45.0, 5.0)},
}
X_LABELS = {"epoch": "epoch", "images_per_class": "images per class"}
MAIN_REFERENCE = {"figure13"}  # artefacts drawn with our main run's FT mRI as dashed lines
REFERENCE_COLOURS = {"clean": "black", "augmented": "grey"}  # our main run's regimes (neither stands for a model of Fig. 13)


def main_run_reference(experiments_params: str, results_dir: str | Path, finetune_datasets: list[str]) -> pd.DataFrame:
    """Our main run's FT mRI per regime on `finetune_datasets` (those of the experiment it is drawn beside; means
    over seeds; index: regime), with a label naming the main run's learning rate and epochs."""
    base, _ = load_experiments(experiments_params)
    table = load_run(experiments_params, "main", results_dir).on_sets(finetune_datasets).table()
    mri = table[table["method"] == "FT"].groupby("regime", sort=False)["mRI"].mean()
    finetune = base["finetune"]
    labels = [f"main run, {r}, lr {finetune['base_lr']:g}, {finetune['epochs']} epochs" for r in mri.index]
    return pd.DataFrame({"label": labels, "mRI": mri})


def on_paper_axes(fig, artefact: str, references: pd.DataFrame | None = None) -> None:
    """Put `fig`'s panels (titled by the value drawn) on the redraws' y ranges and axis names; dashed
    `references` (`main_run_reference`) on the mRI panel."""
    for ax in fig.axes:
        value = ax.get_title()
        if value not in Y_RANGES[artefact]:
            continue
        ax.set_ylim(*Y_RANGES[artefact][value])
        ax.set_ylabel(PANEL_YLABELS[value])
        ax.set_xlabel(X_LABELS.get(ax.get_xlabel(), ax.get_xlabel()))
        if value == "mRI" and references is not None:
            for regime, (label, level) in references.iterrows():
                ax.axhline(level, color=REFERENCE_COLOURS[regime], linestyle="--", linewidth=1,
                           label=f"{label}: {level:.1f}")
            ax.legend(fontsize=7)
    fig.tight_layout()


def show_on_paper_axes(artefact: str, experiments_params: str, results_dir: str | Path, output_dir: str | Path) -> None:
    """`ours_experiments.show_experiment_panel` with our curves on the redraws' axes (`on_paper_axes`)."""
    if artefact not in Y_RANGES or runs_not_stored(artefact, experiments_params, results_dir):
        show_experiment_panel(artefact, experiments_params, results_dir, output_dir)
        return
    data, fig, findings = our_experiment_panel(artefact, experiments_params, results_dir)
    references = (main_run_reference(experiments_params, results_dir,
                                     finetuned_on(experiments_params, EXPERIMENT_PANELS[artefact]))
                  if artefact in MAIN_REFERENCE else None)
    on_paper_axes(fig, artefact, references)
    save_figure(fig, data, output_dir, f"{artefact}_ours")
    print(f"experiment {EXPERIMENT_PANELS[artefact]!r}. Paper: {CLAIMS[artefact]}\n{findings}")
