"""Claims ledger of seq_to_final: the tables the claims file (`lib/published/seq_to_final/claims.yaml`)
judges. Every claim fits a shared predicate of `lib.claims`, so no bespoke assessor is registered.

Tables (tidy, one row per printed number, `value` a float, NaN for '—'):

* `table02`: Table 2's means, `sequence`, `panel`, `method` (Table 2's names), `class`.
* `accuracies`: Tables 8-14 stacked, `table`, `sequence`, `row` (architecture or number of steps,
  `Mean`, `Std dev`), `kind` (`unit` or `summary`), `family` (Conv, Dense, Res; '' otherwise), `method`.
* `table05` (`metric`, `sequence`, `step`) and `table06` (`time_period`, `metric`): the shift metrics.
* `table15`: `method`; `table15_pairs`: the same numbers as `pair` (row i and i + 4 of the caption)
  and `variant` (`fine-tuning` or `frozen joint`).

Readings: "among the best" and "oracle-like" use the captions' .02 threshold on the printed means; a
difference the text relies on is compared in each claim's `reading` with the spread across
architectures (the Std dev rows), since every cell is a single run.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from ..claims import Tables, Verdict, cached_tables
from ..claims import claims_for as _claims_for
from .tables import ACCURACY_TABLES, PAPER, accuracies, shift_metrics, table02, table15

FROZEN_JOINT_OFFSET = 4  # Table 15's caption: row i + 4 replicates row i


def _table15_pairs() -> pd.DataFrame:
    frame = table15()
    frame["pair"] = (frame["i"] % FROZEN_JOINT_OFFSET).astype(str)
    frame["variant"] = ["fine-tuning" if i < FROZEN_JOINT_OFFSET else "frozen joint" for i in frame["i"]]
    return frame


TABLE_SOURCES: dict[str, Callable[[], pd.DataFrame]] = {
    "table02": table02,
    "accuracies": lambda: pd.concat([accuracies(a) for a in ACCURACY_TABLES], ignore_index=True),
    "table05": lambda: shift_metrics("table05"),
    "table06": lambda: shift_metrics("table06"),
    "table15": table15,
    "table15_pairs": _table15_pairs,
}
TABLE_NAMES: tuple[str, ...] = tuple(TABLE_SOURCES)
BESPOKE: dict[str, Callable[[Tables], Verdict]] = {}


table = cached_tables(PAPER, TABLE_SOURCES)  # the tables the claims file may name


def claims_for(artefact: str):
    """The claims of seq_to_final resting on one artefact."""
    return _claims_for(PAPER, artefact)
