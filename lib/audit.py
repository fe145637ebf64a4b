"""Audits: every number a paper derives, re-derived from the numbers it is derived from.

Each paper module exposes `audits() -> list[AuditRow]`. `python -m lib audit --paper P` collects
them into rows `paper,artefact,quantity,printed,recomputed,delta,tolerance,status,note`.
A printed number is `ok` when the recomputed value lies within half a unit of its last printed
digit (unless a wider tolerance is stated with a reason in `note`).
"""

from __future__ import annotations

import importlib
import math
from dataclasses import asdict, dataclass

import pandas as pd

from . import PAPERS
from .published import parse_number, printed_decimals

COLUMNS = ["paper", "artefact", "quantity", "printed", "recomputed", "delta", "tolerance", "status", "note"]
STATUSES = ("ok", "mismatch", "not_checkable")


@dataclass(frozen=True)
class AuditRow:
    """One printed quantity compared with its re-derivation."""

    paper: str
    artefact: str
    quantity: str
    printed: str
    recomputed: float
    delta: float
    tolerance: float
    status: str
    note: str = ""


def rounding_tolerance(printed: str) -> float:
    """Half a unit of the last printed digit: the largest error rounding alone explains."""
    return 0.5 * 10.0 ** (-printed_decimals(printed)) + 1e-9


def check(
    paper: str,
    artefact: str,
    quantity: str,
    printed: str,
    recomputed: float,
    tolerance: float | None = None,
    note: str = "",
) -> AuditRow:
    """Compare a printed number with its recomputation; `ok` within `tolerance` (default: rounding)."""
    tol = rounding_tolerance(printed) if tolerance is None else tolerance
    delta = float(recomputed) - parse_number(printed)
    status = "ok" if abs(delta) <= tol else "mismatch"
    return AuditRow(paper, artefact, quantity, str(printed), float(recomputed), delta, tol, status, note)


def not_checkable(paper: str, artefact: str, quantity: str, printed: str, note: str) -> AuditRow:
    """A printed number whose inputs the text does not give; `note` says what is missing."""
    return AuditRow(paper, artefact, quantity, str(printed), math.nan, math.nan, math.nan, "not_checkable", note)


def count_line(rows: pd.DataFrame) -> str:
    """'n rows: ok a, mismatch b, not_checkable c' of some audit rows."""
    counts = rows["status"].value_counts()
    return f"{len(rows)} rows: " + ", ".join(f"{s} {int(counts.get(s, 0))}" for s in STATUSES)


def audit_paper(paper: str) -> pd.DataFrame:
    """All audit rows of one paper, as a frame with the contract's columns."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; expected one of {list(PAPERS)}")
    try:
        module = importlib.import_module(f"lib.{paper}")
    except ModuleNotFoundError as error:
        if error.name != f"lib.{paper}":
            raise
        return pd.DataFrame(columns=COLUMNS)
    rows = [asdict(row) for row in module.audits()]
    return pd.DataFrame(rows, columns=COLUMNS)
