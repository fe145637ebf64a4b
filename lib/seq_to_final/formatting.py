"""The captions' bold and italic rules, applied to the printed numbers.

The text dump lost the formatting, so these sets cannot be compared with the paper; they are computed
and shown. Rules (a difference "within .02" is taken inclusively, on the printed two-decimal values):

* **Table 2** (per sequence, on the means): italic if `mean >= oracle - .02`; bold if italic or
  `mean >= best - .02`, best over the non-oracle methods.
* **Tables 8-14, cells** (per row): italic if `acc >= oracle - .02`; bold if italic or
  `acc >= best - .02` (best over the printed non-oracle columns; the official script also counts the
  three SFT schedules separately, which are not printed).
* **Tables 8-14, Mean row**: italic if `mean(d) - std(d) < 0` for `d = oracle_a - acc_a` over the
  rows both print; bold if italic or the same holds for `d = best_a - acc_a` (population std, as the
  official script's `np.std`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .summaries import PRIMARY, rows_for
from .tables import METHODS, table02_matrix, units

THRESHOLD = 0.02
EPS = 1e-9


def _sets(values: pd.Series, oracle: float) -> tuple[list[str], list[str]]:
    """(bold, italic) methods of one row of values (the oracle excluded from both)."""
    others = values.drop("Oracle", errors="ignore").dropna()
    if others.empty:
        return [], []
    best = others.max()
    italic = [m for m, v in others.items() if not np.isnan(oracle) and v >= oracle - THRESHOLD - EPS]
    bold = [m for m, v in others.items() if m in italic or v >= best - THRESHOLD - EPS]
    return bold, italic


def table02_sets() -> pd.DataFrame:
    """Per sequence of Table 2: the bold and italic methods by its caption's rule."""
    matrix = table02_matrix()
    records = []
    for sequence, row in matrix.iterrows():
        bold, italic = _sets(row, row["Oracle"])
        records.append({"sequence": sequence, "bold": bold, "italic": italic})
    return pd.DataFrame(records)


def cell_sets(artefact: str) -> pd.DataFrame:
    """Per row (architecture or length) of an accuracy table: the bold and italic methods."""
    wide = units(artefact)
    records = []
    for row, values in wide.iterrows():
        bold, italic = _sets(values, values.get("Oracle", np.nan))
        records.append({"row": row, "bold": bold, "italic": italic})
    return pd.DataFrame(records)


def _below_zero(differences: pd.Series) -> bool:
    """Whether the mean difference lies less than one (population) standard deviation above 0."""
    d = differences.dropna().to_numpy()
    return bool(len(d)) and bool(d.mean() - d.std() < 0)


def mean_sets(artefact: str) -> pd.DataFrame:
    """Per method of an accuracy table's Mean row: italic and bold by the appendix rule, with the mean
    and std of the differences to the oracle and to the row's best."""
    wide = units(artefact)
    non_oracle = wide.drop(columns=["Oracle"], errors="ignore")
    best = non_oracle.max(axis=1)
    oracle = wide["Oracle"] if "Oracle" in wide else pd.Series(np.nan, index=wide.index)
    records = []
    for method in non_oracle.columns:
        values = rows_for(artefact, method, PRIMARY[0])
        to_oracle = (oracle - values).reindex(values.index)
        to_best = (best - values).reindex(values.index)
        italic = _below_zero(to_oracle)
        records.append({
            "method": method, "italic": italic, "bold": italic or _below_zero(to_best),
            "to_oracle": f"{to_oracle.mean():.3f} ± {to_oracle.std(ddof=0):.3f}" if to_oracle.notna().any() else "",
            "to_best": f"{to_best.mean():.3f} ± {to_best.std(ddof=0):.3f}",
        })
    frame = pd.DataFrame(records)
    return frame.set_index("method").reindex([m for m in METHODS if m in set(frame["method"])]).reset_index()
