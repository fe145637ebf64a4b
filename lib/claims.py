"""Claims ledgers as data: each claim a paper makes, the artefacts it rests on, and what the numbers say.

Per paper, `lib/published/<paper>/claims.yaml` lists the claims: `id`, `section`, `claim` (the quoted
or paraphrased text), `artefacts`, and how to judge it: a `predicate` of this module with its `args`,
applied to a named `table` (rows picked by `where`), with a `quantifier` over the cases the predicate
yields; or `parts` (several such judgements, all needed); or `predicate: bespoke`, an assessor the
paper module registers by claim id where no shared predicate fits; or `not_checkable` with a
`reason`. An optional `reading` says how the text was read.

Every predicate takes the tidy frame it judges (the paper's numbers here; a run of ours has the same
schema) and returns one row per case: whether the claim holds there and the numbers that say so.
Quantifiers are read the same way everywhere:

* `all` ("across", "consistently", unquantified laws): every case; `majority` ("generally", "most"):
  more than half; `any`: at least one; `none`: no case (the predicate's condition is negated);
  `at_least`: at least `count` cases.
* The verdict is `supported` when the quantifier is met, `contradicted` when the claim holds in at most
  a quarter of its cases (`CLEARLY`: its complement then holds clearly; for `any`, in none), and
  `partly_supported` otherwise, with the counts and the exceptions named. `not_checkable`: the text
  does not print what the claim needs. `not_distinguishable` is for judging a claim on a run of ours
  whose interval is too wide to tell.
* `table` may list several tables, alternative readings of one quantity: the verdict is theirs when
  they agree, otherwise `not_checkable` (the evidence gives each).
* `per: <column>` applies the quantifier within each group of cases (e.g. each method); the claim
  then needs every group, like `parts`: all supported -> supported, all contradicted -> contradicted,
  any part not checkable -> not_checkable, else partly_supported.
* `ours` (one judgement, or a list of labelled parts) judges the claim on a run of ours where the
  paper's numbers cannot (a `not_checkable` or `bespoke` claim): it may name the tables our run alone
  has (the paper module's `OUR_TABLE_NAMES`, e.g. per-image quantities the paper only plots). Or, for
  any claim, `ours: {findings: [figure04, ...]}`: it is judged on our run by the findings those notebooks
  draw (`lib.findings.Finding`s whose `claim_id` is the claim's; the names the paper module lists in
  `OUR_FINDINGS`, its `our_run` producing them), with their overall verdict, each part judged by its
  own interval; `quantifier: all` (a claim about every part) or `any` (an existential claim) says how the
  parts make that verdict (`lib.findings.overall`; default `parts`).

The same claims are judged on a run of ours (`OurRun`, which a paper's claims module builds with
`our_run(params)`): on its estimate (the mean over seeds, or the statistic on every model) and on each
replicate (each seed, or each bootstrap resample of the models). The verdict stands when at least
`AGREEMENT` of the bootstrap resamples reach it too (a percentile interval), or, for seeds, when so many
seeds reach it that a fair coin would rarely do as well (a one-sided sign test at `SIGN_TEST_LEVEL`: every
seed of at least five); otherwise it is `not_distinguishable`. Two or three seeds that agree are thus not
enough, much as a t-interval over them is usually too wide to tell. A claim resting on
rows or columns our run does not have (the paper's own models, datasets or tables) is `not_checkable`
there, and so is a claim judged by a bespoke assessor (those read the paper's tables) unless its
`ours` judgement says how to judge it on ours.

`python -m lib claims --paper P --tier T` prints the ledger with both verdicts; `--out` and the paper's
`claims` notebook write it as CSV with columns `paper,claim_id,section,claim,artefacts,verdict,evidence,
reading,ours_verdict,ours_evidence`.
"""

from __future__ import annotations

import importlib
import inspect
import operator
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from . import PAPERS
from .findings import QUANTIFIERS as FINDINGS_QUANTIFIERS, Finding, bearing_on, overall, summary
from .paths import PUBLISHED_DIR
from .verdicts import VERDICTS

COLUMNS = ["paper", "claim_id", "section", "claim", "artefacts", "verdict", "evidence", "reading", "ours_verdict",
           "ours_evidence"]
QUANTIFIERS = ("all", "majority", "any", "none", "at_least")
CLEARLY = 0.25  # a claim holding in at most this share of its cases is contradicted
AGREEMENT = 0.95  # share of our run's bootstrap resamples that must reach the estimate's verdict
SIGN_TEST_LEVEL = 0.05  # for seeds: the sign test's largest p-value at which the verdict stands
HELD_SHOWN = 12  # how many held cases the evidence lists by name
EXCEPTIONS_SHOWN = 30  # and how many exceptions (the counts are always complete)
OPS: dict[str, Callable[[Any, Any], bool]] = {
    ">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le,
}
AGGREGATES = ("max", "min", "mean")

Frame = pd.DataFrame
Tables = Callable[[str], pd.DataFrame]


class ClaimsFileError(ValueError):
    """A claims file that does not validate (one line: the file, the claim and the fix)."""


@dataclass(frozen=True)
class Verdict:
    """What the numbers say about a claim, with the numbers that say it."""

    verdict: str
    evidence: str

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")


def holds(condition: bool, evidence: str) -> Verdict:
    """`supported` when a single condition computed from the numbers holds, else `contradicted`."""
    return Verdict("supported" if condition else "contradicted", evidence)


def unverifiable(reason: str) -> Verdict:
    """`not_checkable`: the text does not print what the claim needs."""
    return Verdict("not_checkable", reason)


# ---------------------------------------------------------------------------------------------
# Predicates: (frame, **args) -> cases, one row per case with columns `case`, `group`, `holds`, `detail`.

def _num(value: float) -> str:
    """A number as evidence shows it: one decimal from 10 up (accuracies); up to two below 10 in magnitude
    (ratios near 1, correlations), trailing zeros dropped; two significant digits below 0.1 (small rates,
    which two decimals would show as equal); '-0.0' kept."""
    if 0 < abs(value) < 0.1:
        return f"{value:.2g}"
    text = f"{value:.2f}".rstrip("0") if abs(value) < 10 else f"{value:.1f}"
    return text + "0" if text.endswith(".") else text


def _label(key: Any) -> str:
    parts = key if isinstance(key, tuple) else (key,)
    return " ".join(str(p) for p in parts if str(p) != "") or "all rows"


def _groups(frame: Frame, case: list[str]) -> list[tuple[str, Frame]]:
    if not case:
        return [("", frame)]
    return [(_label(k), g) for k, g in frame.groupby(case, sort=False)]


def _values(block: Frame, item: str) -> pd.Series:
    """{item: value} of one case (NaN dropped); several rows per item is an error in the claim's selection."""
    rows = block.dropna(subset=["value"])
    if rows[item].duplicated().any():
        raise ValueError(f"several rows per {item} in one case: {rows[item][rows[item].duplicated()].tolist()}; "
                         f"narrow `where` or add a `case` column")
    return pd.Series(rows["value"].to_numpy(), index=rows[item].to_numpy())


def _cases(rows: list[tuple[str, str, bool, str]]) -> Frame:
    return pd.DataFrame(rows, columns=["case", "group", "holds", "detail"])


def _aggregate(values: pd.Series, how: str) -> tuple[float, str]:
    if how == "mean":
        return float(values.mean()), "mean"
    best = values.idxmax() if how == "max" else values.idxmin()
    return float(values[best]), str(best)


def compare(frame: Frame, item: str, a: list[str], b: list[str] | str, case: list[str] | None = None,
            op: str = ">", a_agg: str | None = None, b_agg: str = "max", margin: float = 0.0,
            scale: float = 1.0) -> Frame:
    """Items `a` against items `b` (`"rest"`: every other item) in each case: `a op scale * b_agg(b) + margin`.

    Without `a_agg` each item of `a` is its own case (grouped by that item); with it, `a` is aggregated.
    `scale` 0.5 with negative numbers reads "loses less than half as much as".
    """
    rows = []
    for label, block in _groups(frame, case or []):
        values = _values(block, item)
        others = values.drop(a, errors="ignore") if b == "rest" else values.reindex(b).dropna()
        if others.empty:
            continue
        ref, ref_name = _aggregate(others, b_agg)
        ref *= scale
        firsts = [(a_agg, values.reindex(a).dropna())] if a_agg else [(m, values.reindex([m]).dropna()) for m in a]
        for name, chosen in firsts:
            if chosen.empty:
                continue
            value, which = _aggregate(chosen, a_agg) if a_agg else (float(chosen.iloc[0]), str(name))
            ok = bool(OPS[op](value, ref + margin))
            bound = f"{b_agg} of {'the rest' if b == 'rest' else ', '.join(b)}" if len(others) > 1 else ref_name
            bound = f"{scale:g} × {bound}" if scale != 1 else bound
            shifted = f" {'+' if margin > 0 else '−'} {abs(margin):g} = {_num(ref + margin)}" if margin else ""
            where = f" ({ref_name})" if len(others) > 1 and b_agg != "mean" else ""
            rows.append((f"{label}: {which}".strip(": "), which if not a_agg else "",
                         ok, f"{which} {_num(value)} vs {bound} {_num(ref)}{shifted}{where}"))
    return _cases(rows)


def rank(frame: Frame, item: str, items: list[str], case: list[str] | None = None, top: int = 1,
         order: str = "highest", each: bool = False) -> Frame:
    """Whether one of `items` (each of them, with `each`) is among the `top` highest (or lowest) in each
    case; ties share a rank (1 + the number of items strictly better)."""
    rows = []
    for label, block in _groups(frame, case or []):
        values = _values(block, item)
        signed = values if order == "highest" else -values
        present = [m for m in items if m in values.index]
        if not present:
            continue
        positions = {m: int(1 + (signed > signed[m]).sum()) for m in present}
        chosen = present if each else [min(present, key=positions.get)]
        leader = signed.idxmax()
        for m in chosen:
            rows.append((f"{label}: {m}".strip(": ") if each else label, "", positions[m] <= top,
                         f"{m} {_num(values[m])} is {order} #{positions[m]}" + ("" if leader == m else
                                                                               f" ({leader} {_num(values[leader])})")))
    return _cases(rows)


def bound(frame: Frame, op: str, value: float, case: list[str], absolute: bool = False) -> Frame:
    """Each row (named by its `case` columns) against a fixed number: `value_row op value` (|value_row| if `absolute`)."""
    rows = []
    for _, row in frame.dropna(subset=["value"]).iterrows():
        x = abs(row["value"]) if absolute else row["value"]
        rows.append((_label(tuple(row[c] for c in case)), "", bool(OPS[op](x, value)),
                     f"{'|' if absolute else ''}{_num(row['value'])}{'|' if absolute else ''}"))
    return _cases(rows)


def monotone(frame: Frame, item: str, order: list[str | list[str]], case: list[str] | None = None,
             direction: str = "increasing") -> Frame:
    """Each step along `order` (a list of items or of tied item lists) in each case: strictly up (or down)."""
    levels = [level if isinstance(level, list) else [level] for level in order]
    rows = []
    for label, block in _groups(frame, case or []):
        values = _values(block, item)
        for lower, upper in zip(levels, levels[1:]):
            for x in lower:
                for y in upper:
                    if x in values.index and y in values.index:
                        ok = values[y] > values[x] if direction == "increasing" else values[y] < values[x]
                        rows.append((f"{label}: {x} -> {y}".strip(": "), "", bool(ok),
                                     f"{x} {_num(values[x])} -> {y} {_num(values[y])}"))
    return _cases(rows)


def similar(frame: Frame, item: str, items: list[str], tolerance: float, case: list[str] | None = None) -> Frame:
    """Whether `items` lie within `tolerance` of each other (max - min < tolerance) in each case."""
    rows = []
    for label, block in _groups(frame, case or []):
        values = _values(block, item).reindex(items).dropna()
        spread = float(values.max() - values.min())
        rows.append((label, "", spread < tolerance,
                     ", ".join(f"{k} {_num(v)}" for k, v in values.items()) + f" (spread {_num(spread)})"))
    return _cases(rows)


def correlation(frame: Frame, item: str, x: str, y: str, case: list[str], op: str, value: float,
                method: str = "pearson") -> Frame:
    """One case: the correlation of items `x` and `y` over the cases, against `value` (e.g. `> 0.5`)."""
    wide = frame.pivot_table(index=case, columns=item, values="value", aggfunc="first").dropna(subset=[x, y])
    r = float(wide[x].corr(wide[y], method=method))
    return _cases([(f"{method} r({x}, {y})", "", bool(OPS[op](r, value)), f"r {r:.2f} over {len(wide)} cases")])


PREDICATES: dict[str, Callable[..., Frame]] = {
    f.__name__: f for f in (compare, rank, bound, monotone, similar, correlation)
}


# ---------------------------------------------------------------------------------------------
# Quantifiers and verdicts.

def _needed(quantifier: str, n: int, count: int | None) -> int:
    return {"all": n, "none": n, "majority": n // 2 + 1, "any": 1, "at_least": count or 0}[quantifier]


def judge(cases: Frame, quantifier: str, count: int | None = None) -> Verdict:
    """The verdict of a quantifier over per-case outcomes, with the counts and every exception named."""
    if cases.empty:
        return unverifiable("none of the rows the claim selects is in these numbers")
    held = cases["holds"] if quantifier != "none" else ~cases["holds"]
    k, n = int(held.sum()), len(cases)
    if k >= _needed(quantifier, n, count):
        verdict = "supported"
    elif k == 0 or (quantifier != "any" and k <= CLEARLY * n):
        verdict = "contradicted"
    else:
        verdict = "partly_supported"
    need = {"all": f"all {n}", "none": f"all {n}", "majority": f"more than {n / 2:g}", "any": "one",
            "at_least": f"{count}"}[quantifier]
    shown = cases[held]
    listed = "; ".join(f"{r.case}: {r.detail}" for r in shown.head(HELD_SHOWN).itertuples())
    more = f"; … {len(shown) - HELD_SHOWN} more" if len(shown) > HELD_SHOWN else ""
    text = f"holds in {k} of {n} (needs {need})"
    if k:
        text += f"; holds: {listed}{more}"
    if k < n:
        failed = cases[~held]
        text += "; not: " + "; ".join(f"{r.case}: {r.detail}" for r in failed.head(EXCEPTIONS_SHOWN).itertuples())
        text += f"; … {len(failed) - EXCEPTIONS_SHOWN} more" if len(failed) > EXCEPTIONS_SHOWN else ""
    return Verdict(verdict, text)


def combine(parts: list[tuple[str, Verdict]]) -> Verdict:
    """Several judgements a claim needs together: all supported -> supported, and so on (module docstring)."""
    verdicts = {v.verdict for _, v in parts}
    if "not_checkable" in verdicts:
        verdict = "not_checkable"
    elif len(verdicts) == 1:
        verdict = verdicts.pop()
    else:
        verdict = "partly_supported"
    return Verdict(verdict, " | ".join(f"{label} [{v.verdict}]: {v.evidence}" for label, v in parts))


# ---------------------------------------------------------------------------------------------
# Claims files.

CLAIM_KEYS = {"id", "section", "claim", "artefacts", "reading", "ours"}
JUDGEMENT_KEYS = {"table", "where", "predicate", "args", "quantifier", "count", "per", "label", "reason"}
PART_KEYS = JUDGEMENT_KEYS - {"reason"}
BESPOKE = "bespoke"
NOT_CHECKABLE = "not_checkable"


@dataclass(frozen=True)
class Judgement:
    """One predicate applied to one table (or several readings of it) with a quantifier."""

    tables: tuple[str, ...]
    predicate: str
    args: Mapping[str, Any]
    quantifier: str
    where: Mapping[str, Any] = field(default_factory=dict)
    count: int | None = None
    per: str | None = None
    label: str = ""

    def evaluate(self, tables: Tables) -> Verdict:
        """The verdict on the frames `tables` gives (one per reading; disagreeing readings: not_checkable)."""
        results = [(name, self._one(select_rows(tables(name), self.where))) for name in self.tables]
        if len(results) == 1:
            return results[0][1]
        evidence = " | ".join(f"reading {name} [{v.verdict}]: {v.evidence}" for name, v in results)
        verdicts = {v.verdict for _, v in results}
        if len(verdicts) == 1:
            return Verdict(verdicts.pop(), evidence)
        return unverifiable("the readings disagree. " + evidence)

    def _one(self, frame: Frame) -> Verdict:
        predicate = PREDICATES[self.predicate]
        if not self.per:
            return judge(predicate(frame, **self.args), self.quantifier, self.count)
        if self.per == self.args.get("item"):  # compare's own items of `a`, each judged against `b`
            groups = list(predicate(frame, **self.args).groupby("group", sort=False))
        else:
            groups = [(_label(g), predicate(sub, **self.args)) for g, sub in frame.groupby(self.per, sort=False)]
        return combine([(g, judge(c, self.quantifier, self.count)) for g, c in groups])


@dataclass(frozen=True)
class Claim:
    """One claim: where the paper makes it, the artefacts it rests on, and how to judge it."""

    paper: str
    claim_id: str
    section: str
    claim: str
    artefacts: tuple[str, ...]
    judgements: tuple[Judgement, ...] = ()
    bespoke: Callable[[Tables], Verdict] | None = None
    reason: str = ""
    reading: str = ""
    ours: tuple[Judgement, ...] = ()
    ours_findings: tuple[str, ...] = ()  # the producers of `OUR_FINDINGS` whose findings judge it on our run
    ours_quantifier: str = "parts"  # how those findings' parts make its verdict (`lib.findings.overall`)

    def assess(self, tables: Tables | None = None) -> Verdict:
        """The verdict on `tables` (default: the paper's printed numbers)."""
        tables = tables or paper_tables(self.paper)
        if self.reason:
            return unverifiable(self.reason)
        if self.bespoke is not None:
            return self.bespoke(tables)
        return _judge(self.judgements, tables)

    def assess_run(self, tables: Tables) -> Verdict:
        """The verdict on a run of ours' `tables`: by the claim's `ours` judgements where it has them."""
        return _judge(self.ours, tables) if self.ours else self.assess(tables)


def _judge(judgements: tuple[Judgement, ...], tables: Tables) -> Verdict:
    """One judgement's verdict, or several combined as parts."""
    if len(judgements) == 1:
        return judgements[0].evaluate(tables)
    return combine([(j.label, j.evaluate(tables)) for j in judgements])


def select_rows(frame: Frame, where: Mapping[str, Any]) -> Frame:
    """Rows whose columns equal the given labels; a list of labels means any of them."""
    mask = pd.Series(True, index=frame.index)
    for column, value in where.items():
        mask &= frame[column].isin(value) if isinstance(value, list) else frame[column] == value
    return frame[mask]


def _module(paper: str) -> Any:
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; expected one of {list(PAPERS)}")
    return importlib.import_module(f"lib.{paper}.claims")


def cached_tables(paper: str, sources: Mapping[str, Callable[[], pd.DataFrame]]) -> Tables:
    """The tables a paper's claims file may name, each built once from `sources` (table name -> builder);
    a fresh copy per call, and `KeyError` with the valid names for any other name."""
    build = cache(lambda name: sources[name]())

    def table(name: str) -> pd.DataFrame:
        if name not in sources:
            raise KeyError(f"unknown {paper} table {name!r}; expected one of {tuple(sources)}")
        return build(name).copy()

    return table


def paper_tables(paper: str) -> Tables:
    """The paper's printed tables (and derived views) by name, as its claims module provides them."""
    return _module(paper).table


def claims_path(paper: str) -> Path:
    """Where a paper's claims file lives."""
    return PUBLISHED_DIR / paper / "claims.yaml"


def _fail(path: Path, claim_id: str, problem: str) -> ClaimsFileError:
    return ClaimsFileError(f"{path}: claim {claim_id!r}: {problem}")


def _judgement(path: Path, cid: str, spec: dict, table_names: set[str]) -> Judgement:
    keys = PART_KEYS
    unknown = set(spec) - keys
    if unknown:
        raise _fail(path, cid, f"unknown key(s) {sorted(unknown)}; valid keys: {sorted(keys | CLAIM_KEYS)}")
    predicate = spec.get("predicate")
    if predicate not in PREDICATES:
        raise _fail(path, cid, f"unknown predicate {predicate!r}; valid: {sorted([*PREDICATES, BESPOKE, NOT_CHECKABLE])}")
    quantifier = spec.get("quantifier")
    if quantifier not in QUANTIFIERS:
        raise _fail(path, cid, f"unknown quantifier {quantifier!r}; valid: {list(QUANTIFIERS)}")
    if (quantifier == "at_least") != ("count" in spec):
        raise _fail(path, cid, "give `count` exactly when the quantifier is at_least")
    tables = spec.get("table")
    tables = tuple(tables) if isinstance(tables, list) else (tables,)
    for name in tables:
        if name not in table_names:
            raise _fail(path, cid, f"unknown table {name!r}; valid: {sorted(table_names)}")
    args = dict(spec.get("args") or {})
    signature = inspect.signature(PREDICATES[predicate])
    params = list(signature.parameters.values())[1:]
    allowed = {p.name for p in params}
    required = {p.name for p in params if p.default is inspect.Parameter.empty}
    if set(args) - allowed or required - set(args):
        raise _fail(path, cid, f"args of {predicate}: unknown {sorted(set(args) - allowed)}, missing "
                               f"{sorted(required - set(args))}; valid: {sorted(allowed)}")
    for key in ("op",):
        if key in args and args[key] not in OPS:
            raise _fail(path, cid, f"unknown op {args[key]!r}; valid: {list(OPS)}")
    for key in ("a_agg", "b_agg"):
        if args.get(key) not in (None, *AGGREGATES):
            raise _fail(path, cid, f"unknown {key} {args[key]!r}; valid: {list(AGGREGATES)}")
    if not isinstance(spec.get("per", ""), str):
        raise _fail(path, cid, "`per` names one column")
    return Judgement(tables, predicate, args, quantifier, dict(spec.get("where") or {}), spec.get("count"),
                     spec.get("per"), spec.get("label", ""))


def _ours_judgements(path: Path, cid: str, entry: dict, table_names: set[str], findings: set[str]
                     ) -> tuple[tuple[Judgement, ...], tuple[str, ...], str]:
    """A claim's `ours` key: `findings` naming producers of `findings` (with an optional `quantifier`, how their
    parts make the verdict: `lib.findings.QUANTIFIERS`), or one judgement or a list of labelled parts (only for
    a claim the paper's numbers cannot judge: not_checkable or bespoke)."""
    spec = entry.get("ours")
    if spec is None:
        return (), (), "parts"
    if isinstance(spec, dict) and "findings" in spec:
        names, quantifier = spec["findings"], spec.get("quantifier", "parts")
        if set(spec) - {"findings", "quantifier"} or not isinstance(names, list) or not names:
            raise _fail(path, cid, "`ours: {findings: [...], quantifier: ...}` takes a non-empty list of findings "
                                   "producers and, optionally, a quantifier")
        if quantifier not in FINDINGS_QUANTIFIERS:
            raise _fail(path, cid, f"unknown findings quantifier {quantifier!r}; valid: {', '.join(FINDINGS_QUANTIFIERS)}")
        bad = [n for n in names if n not in findings]
        if bad:
            raise _fail(path, cid, f"unknown findings producer(s) {bad}; valid: lib.<paper>.claims.OUR_FINDINGS "
                                   f"({', '.join(sorted(findings)) or 'none listed'})")
        return (), tuple(names), quantifier
    if entry.get("predicate") not in (NOT_CHECKABLE, BESPOKE):
        raise _fail(path, cid, "`ours` judgements are for a not_checkable or bespoke claim; any other is judged on ours "
                               "as on the paper's numbers (or by findings: `ours: {findings: [...]}`)")
    specs = spec if isinstance(spec, list) else [spec]
    if not specs or not all(isinstance(s, dict) for s in specs):
        raise _fail(path, cid, "`ours` is one judgement (a mapping) or a list of labelled parts")
    return tuple(_judgement(path, cid, s, table_names) for s in specs), (), "parts"


def parse_claims(paper: str, entries: list[dict], path: Path, table_names: set[str], artefacts: set[str],
                 bespoke: Mapping[str, Callable[[Tables], Verdict]], our_table_names: set[str] = frozenset(),
                 our_findings: set[str] = frozenset()) -> list[Claim]:
    """Validate every entry of a claims file (nothing is evaluated) and build its claims; `ours` judgements
    may also name `our_table_names`, and `ours: {findings: ...}` the producers `our_findings`."""
    claims, seen = [], set()
    for entry in entries:
        cid = entry.get("id", "?")
        unknown = set(entry) - CLAIM_KEYS - JUDGEMENT_KEYS - {"parts"}
        if unknown:
            raise _fail(path, cid, f"unknown key(s) {sorted(unknown)}; valid keys: "
                                   f"{sorted(CLAIM_KEYS | JUDGEMENT_KEYS | {'parts'})}")
        missing = {"id", "section", "claim", "artefacts"} - set(entry)
        if missing:
            raise _fail(path, cid, f"missing key(s) {sorted(missing)}")
        if cid in seen:
            raise _fail(path, cid, "duplicate id; ids must be unique")
        seen.add(cid)
        bad = [a for a in entry["artefacts"] if a not in artefacts]
        if bad:
            raise _fail(path, cid, f"unknown artefact(s) {bad}; valid: the {paper} rows of notebooks/manifest.csv "
                                   f"({', '.join(sorted(artefacts))})")
        ours, ours_findings, quantifier = _ours_judgements(path, cid, entry, table_names | our_table_names,
                                                           set(our_findings))
        common = dict(paper=paper, claim_id=cid, section=str(entry["section"]), claim=entry["claim"],
                      artefacts=tuple(entry["artefacts"]), reading=entry.get("reading", ""), ours=ours,
                      ours_findings=ours_findings, ours_quantifier=quantifier)
        predicate = entry.get("predicate")
        if predicate == NOT_CHECKABLE:
            if not entry.get("reason"):
                raise _fail(path, cid, "a not_checkable claim needs a `reason`")
            claims.append(Claim(**common, reason=entry["reason"]))
        elif predicate == BESPOKE:
            if cid not in bespoke:
                raise _fail(path, cid, f"no bespoke assessor registered for it in lib.{paper}.claims.BESPOKE")
            claims.append(Claim(**common, bespoke=bespoke[cid]))
        elif "parts" in entry:
            parts = tuple(_judgement(path, cid, p, table_names) for p in entry["parts"])
            claims.append(Claim(**common, judgements=parts))
        else:
            spec = {k: v for k, v in entry.items() if k in PART_KEYS}
            claims.append(Claim(**common, judgements=(_judgement(path, cid, spec, table_names),)))
    unused = set(bespoke) - seen
    if unused:
        raise ClaimsFileError(f"{path}: bespoke assessor(s) {sorted(unused)} registered for no claim; remove them")
    return claims


@cache
def load_claims(paper: str) -> tuple[Claim, ...]:
    """A paper's claims, validated strictly from `lib/published/<paper>/claims.yaml`."""
    from .manifest import read

    module = _module(paper)
    path = claims_path(paper)
    entries = yaml.safe_load(path.read_text())
    artefacts = {e.artefact for e in read() if e.paper == paper}
    return tuple(parse_claims(paper, entries, path, set(module.TABLE_NAMES), artefacts, module.BESPOKE,
                              set(getattr(module, "OUR_TABLE_NAMES", ())), set(getattr(module, "OUR_FINDINGS", ()))))


def claims_for(paper: str, artefact: str) -> list[Claim]:
    """The claims of `paper` that rest on `artefact`."""
    return [c for c in load_claims(paper) if artefact in c.artefacts]


def sign_test(verdict: str, agree: int, n: int, kind: str, text: str) -> Verdict:
    """Seeds: the estimate's verdict stands when a one-sided sign test rejects a fair coin at `SIGN_TEST_LEVEL`
    (`agree` of the `n` replicates reach it; `text`: the evidence)."""
    from scipy.stats import binomtest

    p_value = binomtest(agree, n, 0.5, alternative="greater").pvalue
    if p_value <= SIGN_TEST_LEVEL:
        return Verdict(verdict, f"{text} (sign test over {kind}: p = {p_value:.2g})")
    return Verdict("not_distinguishable", f"the estimate is {verdict} and {agree} of {n} {kind} agree, as often as a "
                                          f"fair coin would (one-sided sign test p = {p_value:.2g}, needs <= "
                                          f"{SIGN_TEST_LEVEL:g}: every replicate of at least 5); {text}")


def agreement(verdict: str, agree: int, n: int, kind: str, text: str) -> Verdict:
    """Bootstrap resamples: the estimate's verdict stands when at least `AGREEMENT` of them reach it."""
    if agree >= AGREEMENT * n:
        return Verdict(verdict, text)
    return Verdict("not_distinguishable", f"the estimate is {verdict} but only {agree} of {n} {kind} agree "
                                          f"(needs {AGREEMENT:.0%}); {text}")


Rule = Callable[[str, int, int, str, str], Verdict]  # (verdict, agreeing, replicates, their kind, evidence) -> Verdict


@dataclass(frozen=True)
class OurRun:
    """A run of ours as the tables a claims file names: the estimate and its replicates.

    `estimate` and each of `replicates` map a table name to a frame in the paper's schema (raising
    `KeyError` for a table our run does not have); `replicates` are seeds or bootstrap resamples, as
    `kind` says; `tier` names the run's tier; `findings` gives the findings of a name the paper module
    lists in `OUR_FINDINGS` (an artefact's), drawn from the same run (`findings_of`); `rule` says how the
    replicates judge the estimate's verdict (`agreement` of bootstrap resamples, a `sign_test` over seeds);
    `alongside` holds, by table name, runs whose replicates are another unit (Seq-to-Final's shift tables, over
    draws of the data): a claim on such tables only is judged on that run (`run_for`)."""

    estimate: Tables
    replicates: tuple[Tables, ...]
    kind: str
    tier: str
    findings: Callable[[str], Sequence[Finding]] | None = None
    rule: Rule = agreement
    alongside: Mapping[str, "OurRun"] = field(default_factory=dict)

    def run_for(self, claim: Claim) -> "OurRun":
        """The run that judges `claim`: the `alongside` run of its tables when they all belong to one, else this."""
        names = {name for judgement in claim.ours or claim.judgements for name in judgement.tables}
        if names and names <= self.alongside.keys() and len({id(self.alongside[n]) for n in names}) == 1:
            return self.alongside[names.pop()]
        return self


NO_RUN = "no run of ours is judged against this paper's claims yet"


def tables_of(frames: Mapping[str, pd.DataFrame]) -> Tables:
    """Tables by name from a dict of frames (a fresh copy each time); `KeyError` for a name not in it."""
    def table(name: str) -> pd.DataFrame:
        if name not in frames:
            raise KeyError(f"table {name!r}")
        return frames[name].copy()

    return table


def seed_run(frames: Mapping[str, pd.DataFrame], tier: str, kind: str = "seeds") -> OurRun:
    """An `OurRun` from per-seed frames (a `seed` column, a `value` column, every other column a label):
    the estimate is the mean over seeds, each seed a replicate (`kind` names them: seeds, or e.g. draws of the
    data), judged by a sign test."""
    seeds = sorted({s for f in frames.values() for s in f["seed"]})
    def mean(frame: pd.DataFrame) -> pd.DataFrame:
        labels = [c for c in frame.columns if c not in ("seed", "value")]
        return frame.groupby(labels, sort=False, dropna=False)["value"].mean().reset_index()

    estimate = tables_of({name: mean(f) for name, f in frames.items()})
    replicates = tuple(tables_of({name: f[f["seed"] == s].drop(columns="seed") for name, f in frames.items()})
                       for s in seeds)
    return OurRun(estimate, replicates, kind, tier, rule=sign_test)


def bootstrap_run(frames: Mapping[str, pd.DataFrame], tier: str, resamples: int, seed: int,
                  strata: tuple[str, ...] = ("dataset",)) -> OurRun:
    """An `OurRun` from per-unit frames (an `item` column naming the unit, e.g. a test image, a `value`
    column, every other column a label): the estimate is the mean over units per label group; each
    replicate resamples the units with replacement within each stratum (e.g. each dataset's images),
    the same draw for every frame and label group that shares the stratum's units."""
    rng = np.random.default_rng(seed)
    units = {}  # stratum -> its units, in a fixed order
    for frame in frames.values():
        for key, block in frame.groupby(list(strata), sort=True):  # keys: tuples, one entry per stratum column
            units.setdefault(key, set()).update(block["item"])
    units = {key: sorted(items, key=str) for key, items in sorted(units.items(), key=lambda kv: str(kv[0]))}

    def mean(frame: pd.DataFrame, weights: np.ndarray) -> pd.DataFrame:
        labels = [c for c in frame.columns if c not in ("item", "value")]
        weighted = frame.assign(value=frame["value"] * weights, weight=weights * frame["value"].notna())
        sums = weighted.groupby(labels, sort=False, dropna=False)[["value", "weight"]].sum()
        return (sums["value"] / sums["weight"]).rename("value").reset_index()

    def weights(frame: pd.DataFrame, counts: Mapping[Any, Mapping[Any, int]] | None) -> np.ndarray:
        if counts is None:
            return np.ones(len(frame))
        keys = list(frame[list(strata)].itertuples(index=False, name=None))
        return np.array([counts[k].get(i, 0) for k, i in zip(keys, frame["item"])], dtype=float)

    def tables(counts: Mapping[Any, Mapping[Any, int]] | None) -> Tables:
        return tables_of({name: mean(f, weights(f, counts)) for name, f in frames.items()})

    draws = []
    for _ in range(resamples):
        draw = {}
        for key, items in units.items():
            picked = np.bincount(rng.integers(0, len(items), size=len(items)), minlength=len(items))
            draw[key] = dict(zip(items, picked))
        draws.append(draw)
    return OurRun(tables(None), tuple(tables(d) for d in draws), "bootstrap resamples", tier)


def findings_of(produce: Callable[[str], Sequence[Finding]]) -> Callable[[str], tuple[Finding, ...]]:
    """`produce` (a producer's name -> its findings on our run) computing each producer's findings once,
    when a claim first asks for them."""
    return cache(lambda name: tuple(produce(name)))


def _by_findings(claim: Claim, run: OurRun) -> Verdict:
    """The claim judged by the findings of its `ours_findings` producers that name it: their overall verdict under
    the claim's `ours_quantifier`."""
    names = ", ".join(claim.ours_findings)
    if run.findings is None:
        return unverifiable(f"{run.tier}: this run draws no findings ({names})")
    parts = [f for name in claim.ours_findings for f in bearing_on(run.findings(name), claim.claim_id)]
    if not parts:
        return unverifiable(f"{run.tier}: no finding of {names} bears on this claim at this tier")
    rule = claim.ours_quantifier
    return Verdict(overall(parts, rule), f"{run.tier}: by our run's findings ({names}; each judged by its own "
                                         f"interval): {summary(parts, rule)}. " + " | ".join(f.sentence() for f in parts))


def assess_ours(claim: Claim, run: OurRun | None) -> Verdict:
    """The claim judged on our run: the estimate's verdict if enough replicates reach it (`AGREEMENT` of the
    bootstrap resamples; for seeds, a sign test at `SIGN_TEST_LEVEL`), `not_distinguishable` if not,
    `not_checkable` where our run lacks what the claim needs."""
    if run is None:
        return unverifiable(NO_RUN)
    run = run.run_for(claim)
    if claim.ours_findings:
        return _by_findings(claim, run)
    if claim.reason and not claim.ours:
        return unverifiable(f"no finding or table of our run is tied to this claim (on the paper's numbers: "
                            f"{claim.reason})")
    if claim.bespoke is not None and not claim.ours:
        return unverifiable("judged by a bespoke assessor of the paper's tables, not applied to our run")
    try:
        estimate = claim.assess_run(run.estimate)
    except KeyError as missing:
        return unverifiable(f"our run has no {missing} (the claim names the paper's own tables, models or datasets)")
    if estimate.verdict == "not_checkable":
        return unverifiable(f"{run.tier}: {estimate.evidence}")
    if len(run.replicates) < 2:
        return Verdict("not_distinguishable", f"{run.tier}, {len(run.replicates)} {run.kind}: no interval to judge "
                                              f"the estimate's {estimate.verdict} by. Estimate: {estimate.evidence}")
    verdicts = pd.Series([claim.assess_run(t).verdict for t in run.replicates])
    agree, n = int((verdicts == estimate.verdict).sum()), len(verdicts)
    spread = ", ".join(f"{v} {k}" for v, k in verdicts.value_counts().items())
    return run.rule(estimate.verdict, agree, n, run.kind, f"{run.tier}, {n} {run.kind}: {spread}. "
                                                          f"Estimate: {estimate.evidence}")


def ledger(claims: list[Claim] | tuple[Claim, ...], tables: Tables | None = None,
           ours: OurRun | None = None) -> pd.DataFrame:
    """Assess every claim on `tables` (default the paper's numbers) and on our run `ours`; one row per claim."""
    rows = []
    for c in claims:
        v, o = c.assess(tables), assess_ours(c, ours)
        rows.append([c.paper, c.claim_id, c.section, c.claim, " ".join(c.artefacts), v.verdict, v.evidence, c.reading,
                     o.verdict, o.evidence])
    return pd.DataFrame(rows, columns=COLUMNS)


def paper_ledger(paper: str, ours: OurRun | None = None) -> pd.DataFrame:
    """The ledger of one paper, from its claims file, judged on its numbers and on `ours`."""
    return ledger(load_claims(paper), ours=ours)


def our_run(paper: str, params: Mapping[str, Any]) -> OurRun | None:
    """Our run of `paper` as its claims module builds it from a tier's parameters (`results_dir` and
    the paper's settings files, as in `params/<tier>/<paper>/defaults.yaml`); None where it has none."""
    build = getattr(_module(paper), "our_run", None)
    return build(params) if build is not None else None


def verdict_counts(frame: pd.DataFrame, column: str = "verdict") -> str:
    """'supported 30, partly_supported 5, …' in the order of VERDICTS (verdicts with no claim left out)."""
    counts = frame[column].value_counts()
    return ", ".join(f"{v} {int(counts[v])}" for v in VERDICTS if v in counts)


def format_ledger(frame: pd.DataFrame, width: int = 100) -> str:
    """A ledger frame as readable text: one wrapped block per claim (verdict, id, section, claim, evidence,
    reading, and the verdict on our run with its evidence where there is a run)."""
    def wrap(label: str, text: str) -> str:
        return textwrap.fill(text, width, initial_indent=f"  {label}", subsequent_indent="    ")

    blocks = []
    for r in frame.itertuples():
        lines = [f"[{r.verdict}] {r.claim_id} ({r.section})", wrap("claim: ", r.claim), wrap("evidence: ", r.evidence)]
        if isinstance(r.reading, str) and r.reading:
            lines.append(wrap("reading: ", r.reading))
        if r.ours_evidence != NO_RUN:
            lines.append(wrap(f"ours [{r.ours_verdict}]: ", r.ours_evidence))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


VERDICT_COLOURS = {"supported": "tab:green", "partly_supported": "tab:olive", "contradicted": "tab:red",
                   "not_checkable": "tab:gray", "not_distinguishable": "tab:purple"}


def draw_ledger(frame: pd.DataFrame) -> Any:
    """The ledger as a figure: one row per claim in reading order, its verdict on the paper's numbers
    (left) and on our run (right), coloured by verdict."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 0.2 * len(frame) + 1.2))
    y = np.arange(len(frame))[::-1]
    for x, column in ((0.0, "verdict"), (0.5, "ours_verdict")):
        ax.barh(y, 0.5, left=x, color=[VERDICT_COLOURS[v] for v in frame[column]], edgecolor="white")
    for yi, r in zip(y, frame.itertuples()):
        ax.text(0.01, yi, f"{r.claim_id}  ({r.section})", va="center", fontsize=6, color="white")
    ax.set_yticks([])
    ax.set_xticks([0.25, 0.75], ["on the paper's numbers", "on our run"])
    ax.xaxis.tick_top()
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.6, len(frame) - 0.4)
    ax.grid(False)
    shown = [k for k in VERDICT_COLOURS if k in set(frame["verdict"]) | set(frame["ours_verdict"])]
    ax.set_title(f"{frame['paper'].iloc[0]} claims. Paper: {verdict_counts(frame)}.\n"
                 f"Ours: {verdict_counts(frame, 'ours_verdict')}.", fontsize=8)
    ax.legend([plt.Rectangle((0, 0), 1, 1, color=VERDICT_COLOURS[k]) for k in shown], shown, fontsize=7,
              loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=len(shown), frameon=False)
    fig.tight_layout()
    return fig


def numbers(values: Mapping[str, float] | pd.Series, digits: int = 1) -> str:
    """'a 1.0, b 2.5': labelled numbers for evidence strings."""
    items = values.items() if hasattr(values, "items") else values
    return ", ".join(f"{k} {v:.{digits}f}" for k, v in items if not (isinstance(v, float) and np.isnan(v)))
