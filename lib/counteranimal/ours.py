"""Our CounterAnimal study (`study.py`) in the paper's scatter figures, with findings on its claims.

Figures 2 and 13 put counter against common accuracy per family with a line fit to the CLIPs and
one to the ImageNet models. `our_panel` draws the paper's 1 vs 1000 panel and ours side by side with
one function (`figures.scatter_panel`), one point per (model, seed), and judges the paper's claims on
our run (`findings`): each quantity is computed per seed and given a t-interval over seeds (a run of
one seed, e.g. the full tier's checkpoints, gets a bootstrap over its models instead).

In the miniature, "CLIP" is a tiny CLIP pre-trained contrastively on captioned digits whose
background follows the class with the miniature's spurious correlation, "CLIP-HQ" the same on data
with a weaker correlation, and "ImageNet" a supervised stand-in trained on the same kind of data as
the CLIPs (not on other data, as the paper's ImageNet models were: see the notebooks).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..findings import Finding, Findings, Interval, bootstrap_interval, mean_interval
from ..params import tier_of
from ..store import RunContext, precompute_study
from .effective_robustness import residuals
from .figures import SCATTERS, scatter_panel, scatter_points
from .study import Study, StudySettings

HQ_FAMILIES = ("CLIP-HQ", "CLIP-DC", "CLIP-DFN")  # ours, and the paper's high-quality-data CLIPs
PANELS = ("figure02", "figure13")  # the artefacts with an our-run panel: common vs counter, 1 vs 1000


def run_study(study_params: str, results_dir: str) -> tuple[StudySettings, pd.DataFrame]:
    """Load a tier's study settings, run (or read back) every run; settings and accuracies (with
    the `tier` of the settings file's folder, `params/<tier>/counteranimal/…`)."""
    settings = StudySettings.load(study_params)
    context = RunContext(params_file=study_params, device=settings.device)
    study = Study(settings, Path(results_dir), context)
    sizes = study.model_sizes().drop_duplicates("model").set_index("model")["params_m"]
    frame = study.run_accuracies()
    return settings, frame.assign(tier=tier_of(study_params), params_m=frame["model"].map(sizes))


def precompute(params: Mapping[str, Any], artefacts: Collection[str]) -> int:
    """Compute the study's runs (`study_params`, `results_dir`) if a notebook of `artefacts` reads them;
    how many were computed by this process."""
    return precompute_study(StudySettings.load, Study, params, artefacts, PANELS)


def our_points(frame: pd.DataFrame, averaging: str = "balanced") -> pd.DataFrame:
    """One row per (model, seed): family, common, counter, drop (%), and the marker columns of the
    paper's points (`params_m` the stand-in's size, as `run_study` gives it, `data_m` the pre-training
    images in millions)."""
    labels = ["model", "family", "architecture", "images", "correlation", "seed"]
    wide = (frame[frame["averaging"] == averaging]
            .pivot_table(index=labels, columns="metric", values="value", sort=False, dropna=False).reset_index())
    wide = wide.dropna(subset=["common", "counter"])
    wide["params_m"] = wide["model"].map(frame.drop_duplicates("model").set_index("model")["params_m"])
    wide["data_m"] = wide["images"].where(wide["images"] > 0) / 1e6
    return wide


# -- the quantities behind the paper's claims, each a function of one seed's points (NaN where undefined) --
def _clips(points: pd.DataFrame) -> pd.Series:
    return points["family"].str.startswith("CLIP")


def clip_drop(points: pd.DataFrame) -> float:
    """Mean drop of the CLIPs (every CLIP family)."""
    return float(points.loc[_clips(points), "drop"].mean())


def imagenet_drop(points: pd.DataFrame) -> float:
    """Mean drop of the supervised ("ImageNet") models."""
    return float(points.loc[points["family"] == "ImageNet", "drop"].mean())


def drop_gap(points: pd.DataFrame) -> float:
    """Mean CLIP drop minus mean ImageNet drop (> 0: the ImageNet models drop less)."""
    return clip_drop(points) - imagenet_drop(points)


def _mean_residual(reference: pd.DataFrame, others: pd.DataFrame) -> float:
    """Mean residual of `others` from the linear fit of counter on common through `reference`; NaN
    if either is empty or the reference's common accuracies do not vary."""
    ref = reference[["common", "counter"]].to_numpy(dtype=float)
    oth = others[["common", "counter"]].to_numpy(dtype=float)
    if len(ref) < 2 or len(oth) == 0 or np.ptp(ref[:, 0]) == 0:
        return float("nan")
    return float(residuals(ref, oth, "linear").mean())


def imagenet_residual(points: pd.DataFrame) -> float:
    """Mean residual of the ImageNet models from the CLIP line (all CLIP families jointly), points."""
    return _mean_residual(points[_clips(points)], points[points["family"] == "ImageNet"])


def high_quality_residual(points: pd.DataFrame) -> float:
    """Mean residual of the high-quality-data CLIPs from the line of the other CLIPs, points."""
    return _mean_residual(points[points["family"] == "CLIP"], points[points["family"].isin(HQ_FAMILIES)])


def interval_over_seeds(points: pd.DataFrame, statistic: Callable[[pd.DataFrame], float]) -> tuple[float, Interval]:
    """The statistic's mean over seeds with a t-interval over seeds; with one seed, the statistic on
    every model with a bootstrap over models."""
    seeds = sorted(points["seed"].unique())
    if len(seeds) >= 2:
        values = [statistic(points[points["seed"] == s]) for s in seeds]
        return float(np.mean(values)), mean_interval(values, "seeds")
    rows = np.arange(len(points))
    return statistic(points), bootstrap_interval(rows, lambda index: statistic(points.iloc[index]), resamples=500)


# (quantity, statistic, the paper's claim, what the paper shows)
CLAIMS: tuple[tuple[str, Callable[[pd.DataFrame], float], str, str], ...] = (
    ("mean CLIP drop, common − counter (points)", clip_drop,
     "the counter group is harder than the common group for CLIPs (Sec. 5.2)", "every CLIP of Table 3 drops, 6.56 to 30.18"),
    ("mean ImageNet-model drop (points)", imagenet_drop,
     "the spurious features also hurt the ImageNet models (Table 4)", "every ImageNet model drops, 7.65 to 20.31"),
    ("mean CLIP drop − mean ImageNet drop (points)", drop_gap,
     "ImageNet models are more robust than CLIPs: smaller drops (Sec. 5.3, Fig. 9)", "Tables 3-4"),
    ("mean residual of the ImageNet models from the CLIP line (linear fit, points)", imagenet_residual,
     "ImageNet models are not below the CLIP line: more robust at equal common accuracy (Fig. 2)",
     "+2.2 points, 95 % bootstrap above 0 (figure02's effective-robustness table)"),
    ("mean residual of the CLIP-HQ models from the other CLIPs' line (linear fit, points)", high_quality_residual,
     "CLIPs trained on high-quality data are more robust (Sec. 5.2, Fig. 8)",
     "+0.8 points, interval straddles 0 (figure02's effective-robustness table)"),
)


def findings(points: pd.DataFrame) -> Findings:
    """Each claim of `CLAIMS` judged on our points (`our_points`), `> 0` being what the claim predicts."""
    out = []
    for quantity, statistic, claim, paper in CLAIMS:
        estimate, interval = interval_over_seeds(points, statistic)
        out.append(Finding(quantity, estimate, interval, claim, ">", 0.0, paper))
    return Findings(out)


def our_panel(artefact: str, settings: StudySettings, frame: pd.DataFrame) -> tuple[pd.DataFrame, Figure, Findings]:
    """The artefact's 1 vs 1000 panel from the paper's numbers and ours from our study, drawn side by
    side by `figures.scatter_panel`: `(data, figure, findings)`, data being both point sets with a
    `source` column (paper / ours)."""
    import matplotlib.pyplot as plt

    if artefact not in PANELS:
        raise KeyError(f"no our-run panel for {artefact!r}; panels exist for {list(PANELS)}")
    (setup, clip_table, imagenet_table, with_lvlms), annotate = SCATTERS[artefact][0][0], SCATTERS[artefact][1]
    paper = scatter_points(clip_table, imagenet_table, with_lvlms).assign(setup=setup, source="paper")
    points = our_points(frame)
    tier, seeds = frame["tier"].iloc[0], points["seed"].nunique()
    candidates = "1 vs 10" if settings.source == "miniature" else "1 vs 1000"
    ours = points.assign(setup=candidates, source="ours")
    side = 7.0 if annotate else 5.2
    fig, axes = plt.subplots(1, 2, figsize=(2 * side, side * 0.9))
    scatter_panel(axes[0], paper, setup, annotate)
    scatter_panel(axes[1], ours, candidates)
    axes[0].set_title(f"paper: Tables 3-4 ({setup})\nlines: CLIPs jointly, ImageNet models", fontsize=9)
    axes[1].set_title(f"ours ({tier}, {points['model'].nunique()} models x {seeds} seeds, {candidates})\n"
                      "lines: CLIPs jointly, ImageNet analogues", fontsize=9)
    for ax in axes:  # both on the full percentage scale, so the two panels compare by eye (and a steep
        ax.set(xlim=(-2, 102), ylim=(-2, 102))  # line's band cannot hide our points)
    fig.tight_layout()
    return pd.concat([paper, ours], ignore_index=True), fig, findings(points)
