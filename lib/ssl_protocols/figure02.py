"""Figure 2 (left): Spearman correlations between the five in-domain (ImageNet) protocols.

The paper quotes per-protocol average correlations (LP 0.90, FT-10% 0.91, FT 0.79) and the
kNN-LP correlation (0.99 "when features are normalized") but does not say which Table S.2
columns (plain or normalised / batch-norm variants) nor which averaging it used. `readings()`
tries every combination; `PAPER_READING` is the one that reproduces every quoted value.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pandas as pd

from ..audit import rounding_tolerance
from ..metrics.correlation import mean_correlation, spearman_matrix
from ..published import parse_number
from .accuracies import score_table

PROTOCOLS = ("kNN", "LP", "FT", "FT-10%", "FT-1%")
# Table S.2 columns each protocol may be read from (plain first, then the normalised variant).
VARIANTS: dict[str, tuple[str, ...]] = {
    "kNN": ("kNN", "kNN_N"),
    "LP": ("LP", "LP_BN"),
    "FT": ("FT",),
    "FT-10%": ("FT10%", "FT10%_BN"),
    "FT-1%": ("FT1%", "FT1%_BN"),
}
# Numbers the text quotes for this panel (Sec. 4.1), exactly as printed.
QUOTED_MEANS = {"LP": "0.90", "FT-10%": "0.91", "FT": "0.79"}
QUOTED_PAIRS = {("kNN", "LP"): "0.99"}


@dataclass(frozen=True)
class Reading:
    """Which Table S.2 column each protocol is read from, and how row averages are taken."""

    columns: tuple[tuple[str, str], ...]
    include_diagonal: bool

    @property
    def column_map(self) -> dict[str, str]:
        return dict(self.columns)

    def describe(self) -> str:
        cols = ", ".join(f"{p}={c}" for p, c in self.columns)
        return f"{cols}; average {'with' if self.include_diagonal else 'without'} the diagonal"


PAPER_READING = Reading(
    columns=(("kNN", "kNN_N"), ("LP", "LP_BN"), ("FT", "FT"), ("FT-10%", "FT10%"), ("FT-1%", "FT1%")),
    include_diagonal=True,
)


def in_domain_matrix(accuracies: pd.DataFrame, reading: Reading = PAPER_READING) -> pd.DataFrame:
    """The 5 × 5 Spearman matrix of the in-domain protocols under `reading`."""
    return spearman_matrix(score_table(accuracies, "Imagenet", reading.column_map))


def quoted_comparison(matrix: pd.DataFrame, include_diagonal: bool) -> pd.DataFrame:
    """Each quoted number beside its recomputation from `matrix`: `quantity, printed, recomputed, ok`."""
    means = mean_correlation(matrix, include_diagonal)
    rows = [(f"mean correlation of {p}", printed, means[p]) for p, printed in QUOTED_MEANS.items()]
    rows += [(f"correlation {a}-{b}", printed, matrix.loc[a, b]) for (a, b), printed in QUOTED_PAIRS.items()]
    frame = pd.DataFrame(rows, columns=["quantity", "printed", "recomputed"])
    frame["ok"] = [
        abs(r - parse_number(p)) <= rounding_tolerance(p) for p, r in zip(frame["printed"], frame["recomputed"])
    ]
    return frame


def readings(accuracies: pd.DataFrame) -> pd.DataFrame:
    """Every reading of the panel (column variants × averaging) and how many quoted values it reproduces."""
    rows = []
    for choice in itertools.product(*(VARIANTS[p] for p in PROTOCOLS)):
        columns = tuple(zip(PROTOCOLS, choice))
        for include_diagonal in (True, False):
            reading = Reading(columns, include_diagonal)
            matrix = in_domain_matrix(accuracies, reading)
            comparison = quoted_comparison(matrix, include_diagonal)
            means = mean_correlation(matrix, include_diagonal)
            rows.append(
                {
                    **{p: c for p, c in columns},
                    "include_diagonal": include_diagonal,
                    **{f"mean {p}": round(means[p], 3) for p in PROTOCOLS},
                    "kNN-LP": round(matrix.loc["kNN", "LP"], 3),
                    "quoted values reproduced": int(comparison["ok"].sum()),
                    "is paper reading": reading == PAPER_READING,
                }
            )
    total = len(QUOTED_MEANS) + len(QUOTED_PAIRS)
    frame = pd.DataFrame(rows).sort_values("quoted values reproduced", ascending=False, kind="stable")
    frame.attrs["quoted values"] = total
    return frame.reset_index(drop=True)


# Fig. S.3 ("extended version of Fig. 2"): every protocol with and without feature normalisation,
# except 100 % fine-tuning, which has no normalised column. Labels use ^N / ^BN as Table S.2 does.
EXTENDED_ID_COLUMNS: dict[str, str] = {
    "kNN": "kNN", "kNN^N": "kNN_N", "LP": "LP", "LP^BN": "LP_BN", "FT": "FT",
    "FT-10%": "FT10%", "FT-10%^BN": "FT10%_BN", "FT-1%": "FT1%", "FT-1%^BN": "FT1%_BN",
}
EXTENDED_OOD_COLUMNS: dict[str, str] = {"kNN": "kNN", "kNN^N": "kNN_N", "LP": "LP", "LP^BN": "LP_BN", "FT": "FT"}


def extended_in_domain_matrix(accuracies: pd.DataFrame) -> pd.DataFrame:
    """Fig. S.3 (left): the 9 × 9 Spearman matrix of every ImageNet column of Table S.2/S.3."""
    return spearman_matrix(score_table(accuracies, "Imagenet", EXTENDED_ID_COLUMNS))


def normalisation_pairs(matrix: pd.DataFrame) -> pd.DataFrame:
    """From an extended matrix: each protocol's plain-vs-normalised correlation, and kNN–LP both ways."""
    rows = [(f"{p} vs {p}^{s}", matrix.loc[p, f"{p}^{s}"]) for p, s in
            (("kNN", "N"), ("LP", "BN"), ("FT-10%", "BN"), ("FT-1%", "BN"))]
    rows += [("kNN vs LP (plain)", matrix.loc["kNN", "LP"]), ("kNN^N vs LP^BN (normalised)", matrix.loc["kNN^N", "LP^BN"])]
    return pd.DataFrame(rows, columns=["pair", "spearman"])
