"""One long schema for the paper's numbers and our runs, so both are drawn by the same function.

Every figure of a `reproduced` artefact is drawn from one tidy frame with these columns, the paper's
printed numbers under `source = "paper"` and our run under `source = "ours"`; the figure's CSV is
that frame. A column an artefact does not use stays empty (NaN).

- `model`: the pretrained model (paper) or our pretraining regime / zoo member (ours);
- `method`: the fine-tuning method or evaluation protocol;
- `train_dataset` / `eval_dataset`: what was trained on and what was measured on;
- `metric` and `value`; `spread`: a standard error or interval half-width where one exists;
- `seed`: the run's seed (NaN for a printed or averaged number); `tier`: `published` for the
  paper, `tiny` / `mini` / `full` for ours.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

COLUMNS = ("source", "paper", "artefact", "tier", "model", "method", "train_dataset", "eval_dataset",
           "metric", "seed", "value", "spread")
SOURCES = ("paper", "ours")


def tidy(frame: pd.DataFrame, *, source: str, paper: str, artefact: str, tier: str, metric: str | None = None,
         rename: dict[str, str] | None = None) -> pd.DataFrame:
    """`frame` in the one schema: its columns renamed onto the schema's (`rename`: frame column →
    schema column), the constants set, every other schema column empty; extra columns dropped."""
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}, got {source!r}")
    renamed = frame.rename(columns=rename or {})
    unknown = sorted(set((rename or {}).values()) - set(COLUMNS))
    if unknown:
        raise ValueError(f"not columns of the results schema: {unknown}; the schema has {list(COLUMNS)}")
    if "value" not in renamed.columns:
        raise ValueError(f"no 'value' column among {list(renamed.columns)}: name it in `rename`")
    out = pd.DataFrame(index=renamed.index)
    constants = {"source": source, "paper": paper, "artefact": artefact, "tier": tier}
    for column in COLUMNS:
        if column in constants:
            out[column] = constants[column]
        elif column == "metric" and metric is not None:
            out[column] = metric
        else:
            out[column] = renamed[column] if column in renamed.columns else np.nan
    return out.reset_index(drop=True)


def combine(*frames: pd.DataFrame) -> pd.DataFrame:
    """Tidy frames of one artefact stacked, the paper's first."""
    stacked = pd.concat(frames, ignore_index=True)
    order = {s: i for i, s in enumerate(SOURCES)}
    return stacked.sort_values("source", key=lambda s: s.map(order), kind="stable").reset_index(drop=True)


def paper_and_ours(paper_rows: pd.DataFrame, our_rows: pd.DataFrame, *, paper: str, artefact: str, tier: str,
                   metric: str | None) -> pd.DataFrame:
    """One artefact's printed rows (tier `published`) and our run's rows (at `tier`), each already
    named in the schema's columns, as one tidy frame, the paper's first (`metric`: one for every row,
    or None where the rows name their own)."""
    schema = {"paper": paper, "artefact": artefact, "metric": metric}
    return combine(tidy(paper_rows, source="paper", tier="published", **schema),
                   tidy(our_rows, source="ours", tier=tier, **schema))


def matrix(frame: pd.DataFrame, index: str, columns: str, order: list[str] | None = None) -> pd.DataFrame:
    """The mean `value` per (index, columns) of a tidy frame, rows in `order` (others after, in
    their order of appearance) and columns in order of appearance; seeds are averaged."""
    table = frame.pivot_table(index=index, columns=columns, values="value", aggfunc="mean", sort=False)
    rows = [r for r in (order or []) if r in table.index] + [r for r in table.index if r not in (order or [])]
    return table.loc[rows]
