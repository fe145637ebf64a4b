"""The `Mean` and `Std dev` rows of Tables 8-14, recomputed from their rows under every reading.

Two choices are not stated in the text:

* **Rows.** ConvNets print '—' in the block-sized side-module columns (ST-B, SST-B, JST-B): for a
  ConvNet a block is one convolution, so its block side module *is* the 1-layer one, and its result
  is printed in the 1-layer column (ST-1, SST-1, JST-1). A summary may average the printed rows
  (`printed rows`: 12 in -1 columns, 8 in -B columns); count each ConvNet in both columns
  (`ConvNet in -1 and -B`: 12 rows each); or count it in the -B column only (`ConvNet in -B only`:
  12 rows in -B columns, the 8 Dense/Res rows in -1 columns), which is what the official summary
  script does when it relabels the ConvNet side-tuning runs as block runs.
* **Standard deviation.** Population (ddof = 0, numpy's default, used by the official script) or
  sample (ddof = 1).

Every cell is compared under each reading. The tolerance is 0.01: the printed summary is rounded to
two decimals (±0.005) and so is every row it is computed from (moving a mean, or a standard
deviation, by at most another 0.005).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..published import parse_number
from .tables import ACCURACY_TABLES, SIDE_BLOCK_PAIRS, family, printed_summary, units

TOLERANCE = 0.01  # printed rounding of the summary (0.005) + rounding of the rows it averages (0.005)
ROW_READINGS = ("printed rows", "ConvNet in -1 and -B", "ConvNet in -B only")
ONE_LAYER = {one: block for block, one in SIDE_BLOCK_PAIRS.items()}
DDOF = {"population": 0, "sample": 1}
PRIMARY = ("ConvNet in -B only", "population")  # the official script's reading (notes §2.1)


def counts(reading: str, method: str, architecture: str) -> bool:
    """Whether the run of `architecture` counts in `method`'s summary under a row reading: the readings differ
    only on a ConvNet's side-tuning runs (its -B column under `printed rows`, its -1 column under
    `ConvNet in -B only`)."""
    if family(architecture) != "Conv":
        return True
    if method in SIDE_BLOCK_PAIRS:
        return reading != "printed rows"
    return not (method in ONE_LAYER and reading == "ConvNet in -B only")


def rows_for(artefact: str, method: str, reading: str) -> pd.Series:
    """The unit values one summary cell averages under a row reading (dashes dropped)."""
    wide = units(artefact)
    values = wide[method].copy()
    conv = [r for r in wide.index if family(r) == "Conv"]
    if method in SIDE_BLOCK_PAIRS:
        values[conv] = values[conv].fillna(wide.loc[conv, SIDE_BLOCK_PAIRS[method]])
    return values[np.array([counts(reading, method, row) for row in values.index], dtype=bool)].dropna()


@dataclass(frozen=True)
class Recomputed:
    """One summary cell recomputed under one reading."""

    method: str
    statistic: str  # "Mean" or "Std dev"
    rows: str
    std: str  # "population" / "sample" ("" for means)
    n: int
    value: float


def recomputed(artefact: str) -> pd.DataFrame:
    """Every Mean and Std dev cell of one table under every reading: columns of `Recomputed` plus
    `printed` and `delta` (recomputed − printed)."""
    return _recomputed(artefact).copy()


@functools.cache
def _recomputed(artefact: str) -> pd.DataFrame:
    records = []
    for method in units(artefact).columns:
        for rows in ROW_READINGS:
            values = rows_for(artefact, method, rows)
            if values.empty:
                continue
            records.append(Recomputed(method, "Mean", rows, "", len(values), float(values.mean())))
            for std, ddof in DDOF.items():
                spread = float(np.std(values.to_numpy(), ddof=ddof)) if len(values) > ddof else np.nan
                records.append(Recomputed(method, "Std dev", rows, std, len(values), spread))
    frame = pd.DataFrame([r.__dict__ for r in records])
    printed = {s: printed_summary(artefact, s) for s in ("Mean", "Std dev")}
    frame["printed"] = [printed[s].get(m, "") for m, s in zip(frame["method"], frame["statistic"])]
    frame["delta"] = frame["value"] - frame["printed"].map(parse_number)
    return frame


def reproducing(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per printed summary cell of `recomputed`: `readings`, each distinct recomputed value with
    the readings that give it, its n, and ✓ (within TOLERANCE of the printed cell), = (rounds to exactly
    the printed text) or ✗."""
    frame = frame.assign(
        reading=np.where(frame["std"] == "", frame["rows"], frame["rows"] + ", " + frame["std"] + " std"),
        mark=np.select([(frame["value"] + 1e-9).round(2) == frame["printed"].map(parse_number),
                        frame["delta"].abs() <= TOLERANCE + 1e-9], ["=", "✓"], "✗"),
    )
    out = []
    for (method, statistic), block in frame.groupby(["method", "statistic"], sort=False):
        values = block.groupby(["value", "n", "mark"], sort=False)["reading"].apply(" = ".join).reset_index()
        text = "; ".join(f"{r.reading} (n = {r.n}): {r.value:.4f} {r.mark}" for r in values.itertuples())
        out.append({"method": method, "statistic": statistic, "printed": block["printed"].iloc[0], "readings": text,
                    "reproduced": bool((block["mark"] != "✗").any())})
    return pd.DataFrame(out)


def primary(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of `recomputed` under the official script's reading (PRIMARY)."""
    rows, std = PRIMARY
    keep = (frame["rows"] == rows) & ((frame["statistic"] == "Mean") | (frame["std"] == std))
    return frame[keep]


def reading_scores() -> pd.DataFrame:
    """Per table and reading of the standard deviation: how many Std dev cells it reproduces within the
    tolerance and exactly (the evidence for choosing population vs sample)."""
    records = []
    for artefact in ACCURACY_TABLES:
        frame = recomputed(artefact)
        frame = frame[(frame["statistic"] == "Std dev") & (frame["rows"] == PRIMARY[0])]
        for std, block in frame.groupby("std"):
            exact = (block["value"] + 1e-9).round(2) == block["printed"].map(parse_number)
            records.append({"table": artefact, "std": std, "cells": len(block),
                            "within tolerance": int((block["delta"].abs() <= TOLERANCE + 1e-9).sum()),
                            "exact at 2 decimals": int(exact.sum())})
    return pd.DataFrame(records)
