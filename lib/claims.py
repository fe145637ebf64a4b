"""Claims ledgers: each claim a paper makes, the artefacts it rests on, and what the printed numbers say.

Each paper module may expose `claims() -> list[Claim]`. A claim's verdict is computed, not typed:
`assess` derives it from the published numbers (or returns `not_checkable` with the reason).
`python -m lib claims --paper P` and the paper's `claims` notebook write the ledger as CSV with
columns `paper,claim_id,section,claim,artefacts,verdict,evidence`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from . import PAPERS

COLUMNS = ["paper", "claim_id", "section", "claim", "artefacts", "verdict", "evidence"]
VERDICTS = ("supported", "contradicted", "not_checkable")


@dataclass(frozen=True)
class Verdict:
    """What the printed numbers say about a claim, with the numbers that say it."""

    verdict: str
    evidence: str

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")


def holds(condition: bool, evidence: str) -> Verdict:
    """`supported` when the condition computed from the numbers holds, else `contradicted`."""
    return Verdict("supported" if condition else "contradicted", evidence)


def unverifiable(reason: str) -> Verdict:
    """`not_checkable`: the text does not print what the claim needs."""
    return Verdict("not_checkable", reason)


@dataclass(frozen=True)
class Claim:
    """One claim: where the paper makes it, the artefacts it rests on, and how to assess it."""

    paper: str
    claim_id: str
    section: str
    claim: str
    artefacts: tuple[str, ...]
    assess: Callable[[], Verdict]


def ledger(claims: list[Claim]) -> pd.DataFrame:
    """Assess every claim; one row per claim in the ledger's column order."""
    rows = []
    for c in claims:
        v = c.assess()
        rows.append([c.paper, c.claim_id, c.section, c.claim, " ".join(c.artefacts), v.verdict, v.evidence])
    return pd.DataFrame(rows, columns=COLUMNS)


def paper_ledger(paper: str) -> pd.DataFrame:
    """The ledger of one paper, from `lib.<paper>.claims()`."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; expected one of {list(PAPERS)}")
    module = importlib.import_module(f"lib.{paper}")
    if not hasattr(module, "claims"):
        raise ValueError(f"lib.{paper} has no claims ledger yet")
    return ledger(module.claims())
