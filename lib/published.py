"""The papers' printed numbers: `lib/published/<paper>/<artefact>.csv`, loaded into tidy frames.

Convention for every published CSV: one row per printed cell, a final column `value` holding the
text exactly as printed, every other column a label of that cell. A table printed in several
blocks may be split into `<artefact>_a.csv`, `<artefact>_b.csv`, ... Notes on garbled cells live
in `lib/published/<paper>/README.md`, never in the numbers.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd

from .paths import PUBLISHED_DIR

_DASHES = {"-", "–", "—", "−", ""}
_NUMBER = re.compile(r"^[+\-−]?\d*\.?\d+$")


def parse_number(text: str) -> float:
    """The float a printed cell shows: NaN for a dash or blank; the unicode minus is a minus."""
    cleaned = str(text).strip().replace("−", "-").rstrip("%")
    if cleaned in _DASHES:
        return math.nan
    if not _NUMBER.match(cleaned):
        raise ValueError(f"not a printed number: {text!r}")
    return float(cleaned)


def printed_decimals(text: str) -> int:
    """How many decimal places a printed number shows ("0.90" -> 2, "72" -> 0)."""
    cleaned = str(text).strip().rstrip("%")
    return len(cleaned.split(".", 1)[1]) if "." in cleaned else 0


def paths(paper: str, artefact: str) -> list[Path]:
    """The CSV file(s) holding an artefact: `<artefact>.csv` or its blocks `<artefact>_a.csv`, ..."""
    folder = PUBLISHED_DIR / paper
    single = folder / f"{artefact}.csv"
    if single.is_file():
        return [single]
    blocks = sorted(folder.glob(f"{artefact}_[a-z].csv"))
    if not blocks:
        raise FileNotFoundError(f"no published numbers for {paper}/{artefact} under {folder}")
    return blocks


def load(paper: str, artefact: str, numeric: bool = True) -> pd.DataFrame:
    """The printed cells of one artefact as a tidy frame.

    Columns: the CSV's label columns, `printed` (the text as printed), and, when `numeric`,
    `value` (its float; NaN for dashes). Blocks get a `block` column ("a", "b", ...).
    """
    frames = []
    for path in paths(paper, artefact):
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
        if "value" not in frame.columns:
            raise ValueError(f"{path}: published CSVs need a final 'value' column")
        frame = frame.rename(columns={"value": "printed"})
        if path.stem != artefact:
            frame["block"] = path.stem.rsplit("_", 1)[1]
        if numeric:
            frame["value"] = frame["printed"].map(parse_number)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)
