"""Effective robustness on the printed numbers: counter accuracy against common accuracy, per family.

Fig. 2 "linearly fit[s] the trends for CLIPs (CLIP, CLIP-DC and CLIP-DFN jointly) and ImageNet models".
Counter accuracy falls with common accuracy along such a line (accuracy on the line), so a family can
have smaller drops simply by being more accurate. The question the paper's claims need is whether a
family sits *above* another family's line: its mean residual (counter minus the line's prediction at its
common accuracy, in points). Lines are fit on two axes: `linear` (percent, the paper's) and `logit`
(Taori et al.'s axis, `lib.metrics.robustness.fit_linear_baseline`). Intervals: a seeded bootstrap over
models that resamples both families and refits the line each time (`lib.findings.bootstrap_interval`).

Selection bias (notes P7): the dataset was curated to maximise CLIP-LAION400M-ViT/B/32's drop, so each
comparison is also given without the models sharing its data or backbone (`without_reference`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..findings import Finding, bootstrap_interval
from ..metrics.robustness import fit_linear_baseline
from .published import model_table, wide

AXES = ("linear", "logit")
REFERENCE_DATA, REFERENCE_BACKBONE = "LAION400M", "ViT/B/32"
SETUPS = {  # setup -> (CLIP table, ImageNet table)
    "1 vs 1000": ("table03", "table04"),
    "1 vs 1000, unbalanced": ("table11", "table12"),
    "1 vs 20": ("table13", "table14"),
}
RESAMPLES = 1000


def points(artefacts: Sequence[str]) -> pd.DataFrame:
    """One row per model of the given model-level tables: family, model, backbone, ..., common, counter, drop."""
    return pd.concat([wide(model_table(a)).assign(artefact=a) for a in artefacts], ignore_index=True)


def without_reference(frame: pd.DataFrame) -> pd.DataFrame:
    """The models sharing neither pre-training data nor backbone with the curation model (Sec. 5.2's exclusion)."""
    keep = (frame["pretrain_dataset"] != REFERENCE_DATA) & (frame["backbone"] != REFERENCE_BACKBONE)
    return frame[keep | (frame["family"] == "ImageNet")]


def predict(reference: np.ndarray, x: np.ndarray, axis: str) -> np.ndarray:
    """Counter accuracy the line through `reference` (rows: common, counter) predicts at common accuracy `x`."""
    baseline = fit_linear_baseline(reference[:, 0], reference[:, 1], scale=axis)
    return baseline(np.atleast_1d(np.asarray(x, dtype=float)))


def residuals(reference: np.ndarray, others: np.ndarray, axis: str) -> np.ndarray:
    """Counter accuracy of `others` above the line fit to `reference` (points)."""
    return others[:, 1] - predict(reference, others[:, 0], axis)


def _stack(reference: pd.DataFrame, others: pd.DataFrame) -> np.ndarray:
    """Rows (common, counter, is_other) of both groups, for resampling together."""
    return np.vstack([np.column_stack([reference["common"], reference["counter"], np.zeros(len(reference))]),
                      np.column_stack([others["common"], others["counter"], np.ones(len(others))])])


def mean_residual(rows: np.ndarray, axis: str) -> float:
    """Mean residual of the `is_other` rows from the line of the others; NaN if a resample leaves a group
    too small (fewer than 3 reference models or no other model)."""
    ref, oth = rows[rows[:, 2] == 0, :2], rows[rows[:, 2] == 1, :2]
    if len(ref) < 3 or len(oth) == 0 or np.ptp(ref[:, 0]) == 0:
        return float("nan")
    return float(residuals(ref, oth, axis).mean())


def above_line(reference: pd.DataFrame, others: pd.DataFrame, axis: str, claim: str, seed: int = 0,
               resamples: int = RESAMPLES) -> Finding:
    """Whether `others` sit above the line of `reference`: their mean residual with a bootstrap interval."""
    rows = _stack(reference, others)
    estimate = mean_residual(rows, axis)
    interval = bootstrap_interval(rows, lambda r: mean_residual(r, axis), seed=seed, resamples=resamples)
    return Finding(f"mean residual ({axis} fit), points", estimate, interval, claim, ">", 0.0)


COMPARISONS = {  # name -> (reference family selector, other family selector, claim)
    "ImageNet above the CLIP line": (lambda f: f["family"] != "ImageNet", lambda f: f["family"] == "ImageNet",
                                     "ImageNet models are more robust than CLIPs (Sec. 5.3)"),
    "high-quality CLIPs above the other CLIPs' line": (lambda f: f["family"] == "CLIP",
                                                       lambda f: f["family"].isin(["CLIP-DC", "CLIP-DFN"]),
                                                       "CLIPs trained on high-quality data are more robust (Sec. 5.2)"),
}


def findings(setups: dict[str, tuple[str, str]] | None = None, seed: int = 0, resamples: int = RESAMPLES) -> pd.DataFrame:
    """Every comparison × axis × setup × model subset as a findings table (one row per `Finding`)."""
    rows = []
    for setup, artefacts in (setups or SETUPS).items():
        everything = points(artefacts)
        for subset, frame in (("all models", everything), ("without LAION400M and ViT/B/32", without_reference(everything))):
            for comparison, (ref_of, other_of, claim) in COMPARISONS.items():
                for axis in AXES:
                    finding = above_line(frame[ref_of(frame)], frame[other_of(frame)], axis, claim, seed, resamples)
                    rows.append({"setup": setup, "subset": subset, "comparison": comparison, "axis": axis,
                                 "n_reference": int(ref_of(frame).sum()), "n_others": int(other_of(frame).sum()),
                                 **finding.row()})
    return pd.DataFrame(rows)


def fitted_lines(frame: pd.DataFrame, groups: dict[str, pd.Series], axis: str = "linear", seed: int = 0,
                 resamples: int = 500, level: float = 0.95) -> pd.DataFrame:
    """For each named group of rows: its line over its common-accuracy range with a bootstrap band
    (columns `line, x, fit, low, high`), for `lib.plotting.scatter_with_fit`; an accuracy lies in
    [0, 100] %, so the line stops where its fit leaves that range and the band is clipped to it."""
    rng = np.random.default_rng(seed)
    out = []
    for name, mask in groups.items():
        data = frame.loc[mask, ["common", "counter"]].to_numpy(dtype=float)
        xs = np.linspace(data[:, 0].min(), data[:, 0].max(), 60)
        draws = []
        for _ in range(resamples):
            sample = data[rng.integers(0, len(data), len(data))]
            if np.ptp(sample[:, 0]) > 0:
                draws.append(predict(sample, xs, axis))
        low, high = np.percentile(np.array(draws), [50 * (1 - level), 50 * (1 + level)], axis=0)
        line = pd.DataFrame({"line": name, "x": xs, "fit": predict(data, xs, axis), "low": low, "high": high})
        inside = line["fit"].between(0.0, 100.0)
        out.append(line[inside].assign(low=line["low"].clip(0.0, 100.0), high=line["high"].clip(0.0, 100.0)))
    return pd.concat(out, ignore_index=True)


def drop_accuracy_correlation(frame: pd.DataFrame) -> pd.DataFrame:
    """Pearson r of drop against common accuracy within each family group (CLIPs jointly, ImageNet)."""
    clips = frame["family"] != "ImageNet"
    rows = [{"family": name, "models": int(mask.sum()), "pearson r(common, drop)":
             float(np.corrcoef(frame.loc[mask, "common"], frame.loc[mask, "drop"])[0, 1])}
            for name, mask in (("CLIPs", clips), ("ImageNet", ~clips)) if mask.sum() > 2]
    return pd.DataFrame(rows)
