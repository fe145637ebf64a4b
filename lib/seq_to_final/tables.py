"""The printed tables of Seq-to-Final as tidy frames, with the paper's method and row vocabulary.

Tables 8-14 print one accuracy per row (an architecture, or a sequence length in Table 14) and method
column, then a `Mean` and a `Std dev` row. Their first and last columns are printed as `4k` (`Final`
in Table 13) and `20k`; Table 2 calls the same columns `Baseline` and `Oracle`. `accuracies` renames
them to Table 2's names so that one vocabulary serves every table.
"""

from __future__ import annotations

import functools

import pandas as pd

from .. import published
from ..published import parse_number

PAPER = "seq_to_final"

# The 18 method columns in the order of Table 2 (oracle and baseline first, then the three classes).
METHODS: tuple[str, ...] = (
    "Oracle", "Baseline", "ERM", "IRM", "DRO",
    "FT", "LP-FT", "I-FT", "D-FT", "ST-1", "ST-B",
    "SFT", "EWC", "SST-1", "SST-B", "JM", "JST-1", "JST-B",
)
PRINTED_ORDER: tuple[str, ...] = (*METHODS[1:], METHODS[0])  # Tables 8-14 print the oracle (20k) last
METHOD_CLASS: dict[str, str] = {
    "Oracle": "oracle", "Baseline": "baseline",
    **{m: "1" for m in ("ERM", "IRM", "DRO")},
    **{m: "2" for m in ("FT", "LP-FT", "I-FT", "D-FT", "ST-1", "ST-B")},
    **{m: "3" for m in ("SFT", "EWC", "SST-1", "SST-B", "JM", "JST-1", "JST-B")},
}
PRINTED_NAMES = {"4k": "Baseline", "Final": "Baseline", "20k": "Oracle"}

# Block-sized side modules and the 1-layer variant whose column prints the ConvNet result (notes §2.1).
SIDE_BLOCK_PAIRS: dict[str, str] = {"ST-B": "ST-1", "SST-B": "SST-1", "JST-B": "JST-1"}

# Per-architecture tables (8-13) and the sequence-length table (14), by the sequence Table 2 names.
SEQUENCE_TABLES: dict[str, str] = {
    "table08": "Corruption, label, rotation",
    "table09": "Rotation, corruption, label",
    "table10": "Conditional rotation x3",
    "table11": "Red tinting x3",
    "table12": "Sub-population shift x3",
    "table13": "Portraits",
}
ACCURACY_TABLES: tuple[str, ...] = (*SEQUENCE_TABLES, "table14")
SUMMARY_ROWS = ("Mean", "Std dev")
ARCHITECTURES: tuple[str, ...] = tuple(f"{family}-{n}" for family in ("Conv", "Dense", "Res") for n in range(1, 5))


def family(row: str) -> str:
    """'Conv', 'Dense' or 'Res' for an architecture row; '' for anything else (lengths, summaries)."""
    head = row.split("-", 1)[0]
    return head if head in ("Conv", "Dense", "Res") else ""


@functools.cache
def _accuracies(artefact: str) -> pd.DataFrame:
    frame = published.load(PAPER, artefact)
    frame["method"] = frame["method"].replace(PRINTED_NAMES)
    frame["kind"] = frame["row"].map(lambda r: "summary" if r in SUMMARY_ROWS else "unit")
    frame["family"] = frame["row"].map(family)
    frame["table"] = artefact
    frame["sequence"] = SEQUENCE_TABLES.get(artefact, "Rotation sequences (Res-4)")
    return frame[["table", "sequence", "row", "kind", "family", "method", "printed", "value"]]


def accuracies(artefact: str) -> pd.DataFrame:
    """One of Tables 8-14, one row per printed cell: `row` (architecture, length, `Mean`, `Std dev`),
    `kind` (`unit` or `summary`), `family`, `method` (Table 2's names), `printed`, `value` (NaN for '—')."""
    if artefact not in ACCURACY_TABLES:
        raise KeyError(f"{artefact!r} is not one of the accuracy tables {ACCURACY_TABLES}")
    return _accuracies(artefact).copy()


def units(artefact: str) -> pd.DataFrame:
    """The rows × methods matrix of one accuracy table's units (architectures or lengths), NaN for '—'."""
    return _units(artefact).copy()


@functools.cache
def _units(artefact: str) -> pd.DataFrame:
    frame = accuracies(artefact)
    frame = frame[frame["kind"] == "unit"]
    order = list(dict.fromkeys(frame["row"]))
    wide = frame.pivot(index="row", columns="method", values="value").reindex(order)
    return wide[[m for m in METHODS if m in wide.columns]]


def printed_summary(artefact: str, which: str) -> pd.Series:
    """The printed `Mean` or `Std dev` row of an accuracy table, as text by method."""
    frame = accuracies(artefact)
    row = frame[frame["row"] == which].set_index("method")["printed"]
    return row.reindex([m for m in METHODS if m in row.index])


@functools.cache
def _table02() -> pd.DataFrame:
    frame = published.load(PAPER, "table02")
    frame["class"] = frame["method"].map(METHOD_CLASS)
    return frame


def table02() -> pd.DataFrame:
    """Table 2 (three panels): `sequence`, `panel`, `method`, `class`, `printed`, `value` (NaN for '—')."""
    return _table02().copy()


def table02_matrix(column: str = "value") -> pd.DataFrame:
    """Table 2 as sequences × methods (floats, or the printed text with `column='printed'`)."""
    frame = table02()
    order = list(dict.fromkeys(frame["sequence"]))
    return frame.pivot(index="sequence", columns="method", values=column).reindex(order)[list(METHODS)]


def sample_sizes() -> pd.DataFrame:
    """Table 3: `n_steps`, `step`, `thousands` per printed step of each variable-length sequence."""
    frame = published.load(PAPER, "table03")
    frame["n_steps"] = frame["n_steps"].astype(int)
    frame["step"] = frame["step"].astype(int)
    return frame.rename(columns={"value": "thousands"})


def portraits_sizes() -> pd.Series:
    """Table 4: samples per time period (1930s ... 2000s)."""
    frame = published.load(PAPER, "table04")
    return frame.set_index("time_period")["value"]


def shift_metrics(artefact: str) -> pd.DataFrame:
    """Table 5 (`metric`, `sequence`, `step`) or Table 6 (`time_period`, `metric`) with `printed`, `value`."""
    if artefact not in ("table05", "table06"):
        raise KeyError(f"{artefact!r}: shift metrics are Tables 5 and 6")
    return published.load(PAPER, artefact)


def model_sizes() -> pd.DataFrame:
    """Table 7: `model`, `size_sequence` (printed), `sizes` (ints), `n_parameters` (printed, e.g. '.3M'),
    `millions` (float)."""
    frame = published.load(PAPER, "table07", numeric=False)
    wide = frame.pivot(index="model", columns="quantity", values="printed").reindex(list(ARCHITECTURES))
    wide["sizes"] = wide["size_sequence"].map(lambda s: tuple(int(x) for x in s.split(", ")))
    wide["millions"] = wide["n_parameters"].map(lambda s: parse_number(s.removesuffix("M")))
    return wide.reset_index()[["model", "size_sequence", "sizes", "n_parameters", "millions"]]


def table15() -> pd.DataFrame:
    """Table 15: `method`, `printed`, `value` in printed order, with the row index `i` the caption uses."""
    frame = published.load(PAPER, "table15")
    frame.insert(0, "i", range(len(frame)))
    return frame


def methods_table() -> pd.DataFrame:
    """Table 1 as printed: one row per method with its description, class and modes."""
    frame = published.load(PAPER, "table01", numeric=False)
    order = list(dict.fromkeys(frame["method"]))
    wide = frame.pivot(index="method", columns="field", values="printed").reindex(order)
    return wide[["description", "class", "historical_mode", "final_mode"]].reset_index()
