"""`notebooks/manifest.csv`: one row per table and figure of the five papers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import Any

import pandas as pd

from . import PAPERS, TIERS
from .paths import MANIFEST, PARAMS_DIR, REPO_ROOT

COLUMNS = ["paper", "artefact", "kind", "caption", "notebook", "tiers", "status"]
STATUSES = ("todo", "published", "reproduced", "ours_only", "diagram", "absent")
RUNNABLE = ("published", "reproduced", "ours_only")
KINDS = ("table", "figure", "ledger")  # `ledger`: a paper's claims ledger (artefact `claims`)


@dataclass(frozen=True)
class Entry:
    """One manifest row."""

    paper: str
    artefact: str
    kind: str
    caption: str
    notebook: str
    tiers: tuple[str, ...]
    status: str

    @property
    def notebook_path(self) -> Path:
        return REPO_ROOT / self.notebook

    def params_path(self, tier: str) -> Path:
        return PARAMS_DIR / tier / self.paper / f"{self.artefact}.yaml"


def read(path: Path = MANIFEST) -> list[Entry]:
    """All manifest rows, checked for known papers, kinds, statuses and tiers."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    if list(frame.columns) != COLUMNS:
        raise ValueError(f"{path}: columns must be {COLUMNS}, found {list(frame.columns)}")
    entries = []
    for row in frame.itertuples(index=False):
        tiers = tuple(row.tiers.split())
        problems = [t for t in tiers if t not in TIERS]
        if row.paper not in PAPERS:
            problems.append(f"paper {row.paper!r}")
        if row.status not in STATUSES:
            problems.append(f"status {row.status!r}")
        if row.kind not in KINDS:
            problems.append(f"kind {row.kind!r}")
        if problems:
            raise ValueError(f"{path}: row {row.paper}/{row.artefact} has unknown {', '.join(problems)}")
        entries.append(Entry(row.paper, row.artefact, row.kind, row.caption, row.notebook, tiers, row.status))
    return entries


def notebook_params(paper: str, artefact: str, tier: str) -> dict[str, Any]:
    """The parameters the notebook of `paper`'s `artefact` runs with at `tier` (`params.load_for_notebook`
    of its params file); {} where the tier has no params file for it."""
    from .params import load_for_notebook

    (entry,) = [e for e in read() if e.paper == paper and e.artefact == artefact]
    path = entry.params_path(tier)
    return load_for_notebook(path, entry.notebook_path) if path.is_file() else {}


class SelectionError(ValueError):
    """A paper, artefact or tier the manifest cannot run (one line: what was asked and what exists)."""


def select(tier: str, paper: str | None = None, artefact: str | None = None) -> list[Entry]:
    """The runnable rows (published, reproduced, ours_only) with params for `tier`, optionally one paper or artefact."""
    if tier not in TIERS:
        raise SelectionError(f"unknown tier {tier!r}; expected one of {list(TIERS)}")
    rows = [e for e in read() if paper is None or e.paper == paper]
    runnable = [e for e in rows if e.status in RUNNABLE and tier in e.tiers]
    if artefact is None:
        if not runnable:
            raise SelectionError(f"{paper} has no runnable notebook at tier {tier} yet")
        return runnable
    named = [e for e in rows if e.artefact == artefact]
    if not named:
        names = sorted({e.artefact for e in runnable})
        padded = re.sub(r"(?<=[a-z])(\d)$", r"0\1", artefact)  # table4 -> table04
        near = [padded] if padded in names else get_close_matches(artefact, names, n=1)
        hint = f"did you mean {near[0]!r}? " if near else ""
        raise SelectionError(f"unknown artefact {artefact!r}{f' of {paper}' if paper else ''}; {hint}"
                             f"runnable at tier {tier}: {', '.join(names)}")
    if len({e.paper for e in named}) > 1:
        raise SelectionError(f"artefact {artefact!r} exists in {' and '.join(e.paper for e in named)}: "
                             f"give --paper to choose one")
    chosen = [e for e in named if e in runnable]
    if not chosen:
        entry = named[0]
        raise SelectionError(f"{entry.paper}/{artefact} is not runnable at tier {tier}: its status is "
                             f"{entry.status!r}{'' if entry.status in RUNNABLE else ' (no notebook yet)'}")
    return chosen
