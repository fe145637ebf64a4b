"""Audits: every number a paper derives, re-derived from the numbers it is derived from.

Each paper module exposes `audits() -> list[AuditRow]`. `python -m lib audit --paper P` collects
them into rows `paper,artefact,quantity,printed,recomputed,delta,tolerance,status,note`.
A printed number is `ok` when the recomputed value lies within half a unit of its last printed
digit (unless a wider tolerance is stated with a reason in `note`).

The rows are a pure function of lib's source (code and published numbers) and the numerics
libraries, so `audit_frame` computes them once per state of those and keeps them under
`build/audit/`: every notebook of a paper shows its artefact's rows without re-deriving the paper.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

import pandas as pd

from . import PAPERS
from .atomic import load_or_make
from .paths import REPO_ROOT
from .provenance import config_hash, library_versions
from .published import parse_number, printed_decimals

AUDIT_CACHE = REPO_ROOT / "build" / "audit"
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


def artefact_rows(paper: str, artefacts: Iterable[str]) -> pd.DataFrame:
    """The audit rows of `paper` (`audit_paper`) on the given artefacts, in their order in the paper's audit."""
    frame = audit_paper(paper)
    return frame[frame["artefact"].isin(list(artefacts))].reset_index(drop=True)


def audit_paper(paper: str) -> pd.DataFrame:
    """All audit rows of one paper (its module's `audits()`), as a frame with the contract's columns."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; expected one of {list(PAPERS)}")
    try:
        module = importlib.import_module(f"lib.{paper}")
    except ModuleNotFoundError as error:
        if error.name != f"lib.{paper}":
            raise
        return pd.DataFrame(columns=COLUMNS)
    return audit_frame(paper, module.audits)


def audit_frame(paper: str, rows: Callable[[], Iterable[AuditRow]]) -> pd.DataFrame:
    """`rows()` of `paper` as a frame with the contract's columns (a fresh copy), computed once per state
    of lib's source and the numerics libraries (`source_digest`, `library_versions`): kept in
    `build/audit/<paper>-<function>-<key>.parquet`, made under a lock when parallel notebooks ask at once."""
    return _kept_audit(paper, rows).copy()


@functools.cache
def _kept_audit(paper: str, rows: Callable[[], Iterable[AuditRow]]) -> pd.DataFrame:
    key = config_hash({"rows": f"{rows.__module__}.{rows.__qualname__}", "lib": source_digest(),
                       "libraries": library_versions(), "pandas": pd.__version__})
    path = AUDIT_CACHE / f"{paper}-{rows.__name__}-{key}.parquet"
    return load_or_make(path, pd.read_parquet, lambda: pd.DataFrame([asdict(r) for r in rows()], columns=COLUMNS),
                        lambda made, tmp: made.to_parquet(tmp, index=False), pin_threads=False)


def source_digest() -> str:
    """A hash of every file under lib/ (code, published numbers, registries): what an audit reads."""
    digest = hashlib.sha256()
    lib = REPO_ROOT / "lib"
    for path in sorted(p for p in lib.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(lib)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()
