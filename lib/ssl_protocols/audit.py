"""Audit rows for ssl_protocols: each number the text derives, re-derived from Tables S.2/S.3."""

from __future__ import annotations

from ..audit import AuditRow, check, not_checkable
from .accuracies import published_accuracies
from .figure02 import PAPER_READING, in_domain_matrix, quoted_comparison

PAPER = "ssl_protocols"


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


def audits() -> list[AuditRow]:
    """All audit rows of the paper."""
    return figure02_audits()
