"""Audit rows for ssl_protocols: each number the text derives, re-derived from Tables S.2/S.3."""

from __future__ import annotations

from ..audit import AuditRow, check, not_checkable, rounding_tolerance
from .accuracies import published_accuracies
from .figure02 import PAPER_READING, in_domain_matrix, quoted_comparison
from .seed_study import batch_sizes, s2_cell_for, seed_runs

PAPER = "ssl_protocols"
RUN_ROUNDING = 0.005  # Table S.7 prints each run to two decimals


def figure02_audits() -> list[AuditRow]:
    """Fig. 2: the quoted in-domain correlations (left) and the ID-vs-OOD averages (right)."""
    matrix = in_domain_matrix(published_accuracies("top1"), PAPER_READING)
    comparison = quoted_comparison(matrix, PAPER_READING.include_diagonal)
    note = f"Table S.2 top-1, 26 models; reading: {PAPER_READING.describe()}"
    rows = [
        check(PAPER, "figure02", f"left: {q}", p, r, note=note)
        for q, p, r in zip(comparison["quantity"], comparison["printed"], comparison["recomputed"])
    ]
    missing = (
        "right panel averages over eleven OOD datasets including iNaturalist family/genus/species, "
        "whose accuracies are not printed in Tables S.2/S.3"
    )
    rows.append(not_checkable(PAPER, "figure02", "right: LP as OOD predictor, mean over metrics and datasets", "0.85", missing))
    rows.append(not_checkable(PAPER, "figure02", "right: kNN as OOD predictor, mean over metrics and datasets", "0.84", missing))
    return rows


def table_s7_audits() -> list[AuditRow]:
    """Table S.7: each mean and std from its three runs, and the S.2 cell each experiment repeats."""
    rows = []
    top1 = published_accuracies("top1")
    for _, run in seed_runs().iterrows():
        label = f"{run['protocol']}, {run['dataset']}, {run['method']} {run['backbone']}"
        # The runs are printed to 2 decimals; the mean and the population std move by at most
        # that rounding (0.005) when the runs do, so it is added to the tolerance.
        inputs = f"tolerance adds the ±{RUN_ROUNDING} rounding of the printed runs"
        rows.append(check(PAPER, "table_s7", f"mean of 3 runs: {label}", run["printed_mean"], run["mean"],
                          tolerance=rounding_tolerance(run["printed_mean"]) + RUN_ROUNDING, note=inputs))
        rows.append(check(
            PAPER, "table_s7", f"std of 3 runs: {label}", run["printed_std"], run["std_population"],
            tolerance=rounding_tolerance(run["printed_std"]) + RUN_ROUNDING,
            note=f"population std (ddof=0); the sample std (ddof=1) would be {run['std_sample']:.3f}; {inputs}",
        ))
        cell = s2_cell_for(run)
        quantity = f"Table S.2 prints run 1: {label}"
        if cell is None:
            rows.append(not_checkable(PAPER, "table_s7", quantity, f"{run['run1']:.2f}",
                                      "iNaturalist accuracies are not printed in Table S.2"))
            continue
        model, dataset, protocol = cell
        s2 = top1[(top1["model"] == model) & (top1["dataset"] == dataset) & (top1["protocol"] == protocol)]
        printed, value = s2["printed"].item(), s2["value"].item()
        tolerance = rounding_tolerance(printed) + RUN_ROUNDING
        note = "" if abs(value - run["run1"]) <= tolerance else (
            f"Table S.2 prints {printed}, which is the 3-run mean ({run['mean']:.2f}), not run 1"
            if abs(value - run["mean"]) <= tolerance else f"Table S.2 prints {printed}, neither run 1 nor the mean")
        rows.append(check(PAPER, "table_s7", quantity, printed, run["run1"], tolerance=tolerance, note=note))
    return rows


def batch_size_audits() -> list[AuditRow]:
    """Table S.8 repeats the ImageNet batch sizes of Table S.4; the two must agree."""
    return [
        check(PAPER, "table_s8", f"batch size of {r.protocol} equals Table S.4's", r.s8, float(r.s4), tolerance=0,
              note="" if r.s8 == r.s4 else f"Table S.4 gives {r.s4} for the same protocol on ImageNet-1k")
        for r in batch_sizes().itertuples()
    ]


def audits() -> list[AuditRow]:
    """All audit rows of the paper."""
    return figure02_audits() + table_s7_audits() + batch_size_audits()
