"""Findings: what our run says about one of the paper's claims, with an interval and a verdict.

Every "our run" conclusion of a notebook is a `Finding`: the quantity measured, its estimate, an
interval (a t-interval over seeds or models, a Welch interval of two groups, or a seeded
bootstrap over models), the paper's claim and value, and
a verdict judged by the interval, never by the point estimate alone:

* `supported`: the whole interval lies on the side of the threshold the claim predicts;
* `contradicted`: the whole interval lies on the other side;
* `not_distinguishable`: the interval straddles the threshold, so the run cannot tell;
* `not_checkable`: the run leaves the quantity or its interval undefined (e.g. constant scores).

An equivalence claim ("A performs as B", direction `within`) is supported when the whole interval lies
inside ± the threshold and contradicted when it lies wholly outside.

A claim judged on several parts (regimes, groups) is summarised by `overall` under one of `QUANTIFIERS`:
* `parts` (the default): `partly_supported` when some parts support it and others do not, with the counts;
* `all`, a claim about every part ("consistently", "across all"): one contradicted part contradicts it, and
  only every part supported supports it;
* `any`, an existential claim ("does not necessarily", "in some cases"): one supported part supports it,
  and only every part contradicted contradicts it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .verdicts import VERDICTS

DIRECTIONS = (">", "<", "within")  # above, below, or within ± the threshold (an equivalence claim)
QUANTIFIERS = ("parts", "all", "any")  # how `overall` reads a claim's parts (module docstring)
RULES = {"all": "every part must hold", "any": "one part suffices"}  # as `summary` states them
LEVEL = 0.95


@dataclass(frozen=True)
class Interval:
    """A two-sided interval of an estimate and how it was computed."""

    low: float
    high: float
    method: str

    def __post_init__(self) -> None:
        if self.low > self.high:
            raise ValueError(f"interval low {self.low} exceeds high {self.high}")

    @property
    def defined(self) -> bool:
        return bool(np.isfinite(self.low) and np.isfinite(self.high))


def undefined_interval(reason: str) -> Interval:
    """An interval the run leaves undefined (NaN bounds), with the reason; its verdict is not checkable."""
    return Interval(float("nan"), float("nan"), f"undefined: {reason}")


def mean_interval(values: Sequence[float], unit: str = "seeds", level: float = LEVEL) -> Interval:
    """Student-t interval of the mean of independent values (per seed, per model), its multiplier stated (12.7
    standard errors for two values: few seeds give wide intervals); undefined (NaN bounds, the reason said) for a
    single value, so that no verdict rests on one point."""
    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return undefined_interval(f"{len(values)} {'value' if len(values) == 1 else 'values'} over {unit}, "
                                  "no interval")
    mean = float(values.mean())
    multiplier = stats.t.ppf(0.5 + level / 2, len(values) - 1)
    half = multiplier * values.std(ddof=1) / np.sqrt(len(values))
    return Interval(mean - half, mean + half,
                    f"{level:.0%} t-interval over {len(values)} {unit} (mean ± {multiplier:.3g} standard errors)")


def difference_interval(a: Sequence[float], b: Sequence[float], unit: str = "models", level: float = LEVEL) -> Interval:
    """Welch interval of mean(a) − mean(b) for two independent groups."""
    result = stats.ttest_ind(np.asarray(a, dtype=float), np.asarray(b, dtype=float), equal_var=False)
    low, high = result.confidence_interval(level)
    return Interval(float(low), float(high), f"{level:.0%} Welch interval, {len(a)} vs {len(b)} {unit}")


def defined_mean(values: Sequence[float] | np.ndarray, axis: int | None = None) -> float | np.ndarray:
    """The mean of the finite values (NaN where there are none), without numpy's empty-slice
    warning: a statistic undefined in a resample is counted by `bootstrap_interval`, not warned about."""
    values = np.asarray(values, dtype=float)
    finite = np.isfinite(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(finite, values, 0.0).sum(axis=axis) / finite.sum(axis=axis)


def bootstrap_interval(data: Sequence, statistic: Callable[[np.ndarray], float], seed: int = 0,
                       resamples: int = 2000, level: float = LEVEL, unit: str = "models",
                       strata: Sequence | None = None) -> Interval:
    """Percentile bootstrap interval of `statistic(rows)` over the rows of `data` (a row of several
    values stays together), from a seeded generator. Resamples where the statistic is undefined (a
    rank correlation of identical rows) are left out and counted in the method text. `strata` (a label
    per row): each resample draws within each stratum as many rows as it holds, the strata in the order
    of their first rows (a statistic that splits the rows by position, e.g. halves, keeps its split)."""
    data = np.asarray(data)
    rng = np.random.default_rng(seed)
    if strata is None:
        def draw() -> np.ndarray:
            return rng.integers(0, len(data), len(data))
    else:
        labels = np.asarray(strata)
        groups = [np.flatnonzero(labels == label) for label in dict.fromkeys(labels.tolist())]

        def draw() -> np.ndarray:
            return np.concatenate([group[rng.integers(0, len(group), len(group))] for group in groups])
    values = np.array([statistic(data[draw()]) for _ in range(resamples)])
    defined = values[np.isfinite(values)]
    if len(defined) < resamples / 2:
        return Interval(float("nan"), float("nan"), f"undefined in {resamples - len(defined)} of {resamples} "
                                                    f"bootstrap resamples over {len(data)} {unit} (constant scores)")
    low, high = np.percentile(defined, [50 * (1 - level), 50 * (1 + level)])
    undefined = f", {resamples - len(defined)} undefined" if len(defined) < resamples else ""
    within = "" if strata is None else f" within {len(groups)} strata"
    return Interval(float(low), float(high), f"{level:.0%} bootstrap over {len(data)} {unit} ({resamples} resamples"
                                             f"{within}{undefined}, seed {seed})")


@dataclass(frozen=True)
class Finding:
    """One quantity of our run set against the paper's claim about it.

    `direction` and `threshold` state what the claim predicts of the quantity: `>` 0 for "A beats B"
    measured as A − B, for example, or `within` 0.05 for "A performs as B" (|A − B| < 0.05).
    `claim_id` names the claim of the paper's claims ledger the finding bears on, where it bears on one:
    the ledger then judges that claim on our run by these findings (`lib.claims`).
    """

    quantity: str
    estimate: float
    interval: Interval
    claim: str
    direction: str = ">"
    threshold: float = 0.0
    paper: str = ""
    claim_id: str = ""

    @classmethod
    def undefined(cls, quantity: str, reason: str, claim: str, direction: str = ">", threshold: float = 0.0,
                  paper: str = "", claim_id: str = "") -> "Finding":
        """A claim our run cannot check, with the reason in place of an interval."""
        return cls(quantity, float("nan"), undefined_interval(reason), claim, direction, threshold, paper, claim_id)

    def __post_init__(self) -> None:
        if self.direction not in DIRECTIONS:
            raise ValueError(f"direction must be one of {DIRECTIONS}, got {self.direction!r}")

    @property
    def verdict(self) -> str:
        """Judged by the interval: supported, contradicted, or not distinguishable from the threshold (for
        `within`: supported when the interval lies inside ± the threshold, contradicted when it lies wholly
        outside); not checkable where the run leaves the quantity or its interval undefined."""
        if not (np.isfinite(self.estimate) and self.interval.defined):
            return "not_checkable"
        low, high = self.interval.low, self.interval.high
        if self.direction == "within":
            inside = -self.threshold < low and high < self.threshold
            outside = low > self.threshold or high < -self.threshold
            return "supported" if inside else "contradicted" if outside else "not_distinguishable"
        above, below = low > self.threshold, high < self.threshold
        if self.direction == "<":
            above, below = below, above
        return "supported" if above else "contradicted" if below else "not_distinguishable"

    def sentence(self) -> str:
        """One line a reader can check: quantity, estimate, interval, claim, paper value, verdict."""
        paper = f" (paper: {self.paper})" if self.paper else ""
        return (f"{self.quantity} = {self.estimate:.3g} [{self.interval.low:.3g}, {self.interval.high:.3g}], "
                f"{self.interval.method}. Claim: {self.claim}{paper}, i.e. {self._predicted()}. "
                f"Verdict: {self.verdict.replace('_', ' ')}.")

    def _predicted(self) -> str:
        """What the claim predicts of the quantity, e.g. "> 0" or "within ±0.05"."""
        return f"within ±{self.threshold:g}" if self.direction == "within" else f"{self.direction} {self.threshold:g}"

    def row(self) -> dict:
        """The finding as a flat record (for a findings table)."""
        record = asdict(self)
        interval = record.pop("interval")
        return record | {"low": interval["low"], "high": interval["high"], "interval": interval["method"],
                         "verdict": self.verdict}


def overall(findings: Sequence[Finding], quantifier: str = "parts") -> str:
    """One verdict over the parts of a claim under `quantifier` (`QUANTIFIERS`). `parts`: parts that agree keep
    their verdict; some parts supported and others not is `partly_supported`; none supported and some
    contradicted is `contradicted`. `all`: any part contradicted contradicts, every part supported supports.
    `any`: any part supported supports, every part contradicted contradicts. Otherwise the run cannot tell
    (`not_distinguishable`); no part, or every part, not checkable is `not_checkable`."""
    if quantifier not in QUANTIFIERS:
        raise ValueError(f"quantifier must be one of {QUANTIFIERS}, got {quantifier!r}")
    verdicts = {f.verdict for f in findings}
    if not verdicts:
        return "not_checkable"
    if len(verdicts) == 1:
        return verdicts.pop()
    if quantifier == "all":
        if "contradicted" in verdicts:
            return "contradicted"
    elif quantifier == "any":
        if "supported" in verdicts:
            return "supported"
    elif "supported" in verdicts:
        return "partly_supported"
    elif "contradicted" in verdicts:
        return "contradicted"
    return "not_distinguishable"


def table(findings: Sequence[Finding]) -> pd.DataFrame:
    """The findings as a frame, one row each."""
    return pd.DataFrame([f.row() for f in findings])


def summary(findings: Sequence[Finding], quantifier: str = "parts") -> str:
    """The overall verdict with the counts that make it (e.g. `partly_supported: 2 of 3 parts supported`) and,
    for a quantifier other than `parts`, its rule."""
    verdicts = [f.verdict for f in findings]
    counts = ", ".join(f"{verdicts.count(v)} {v.replace('_', ' ')}" for v in VERDICTS if v in verdicts)
    rule = f"; {RULES[quantifier]}" if quantifier in RULES else ""
    return f"{overall(findings, quantifier).replace('_', ' ')} ({counts} of {len(verdicts)} part(s){rule})"


def report(findings: Sequence[Finding]) -> str:
    """The overall verdict with its counts, then one sentence per part."""
    return "\n".join([f"Overall: {summary(findings)}."] + [f"- {f.sentence()}" for f in findings])


def markdown(findings: Sequence[Finding]) -> str:
    """The findings as a notebook's verdict in Markdown: the overall verdict with its counts, then each
    claim led by its verdict, with the estimate and interval the run measured and the paper's value.
    Computed from the run, so the numbers a reader is told are the ones this machine measured."""
    lines = [f"**Overall: {summary(findings)}.**"]
    for f in findings:
        measured = (f"{f.quantity} = {f.estimate:+.3g} [{f.interval.low:+.3g}, {f.interval.high:+.3g}], {f.interval.method}"
                    if f.verdict != "not_checkable" else f"{f.quantity}: {f.interval.method}")
        paper = f" Paper: {f.paper}." if f.paper else ""
        lines.append(f"- **{f.verdict.replace('_', ' ')}**: {f.claim}. {measured}.{paper}")
    return "\n".join(lines)


def bearing_on(findings: Sequence[Finding], *claim_ids: str) -> "Findings":
    """The findings whose `claim_id` is one of `claim_ids` (the ledger claims they bear on), in their order."""
    return Findings([f for f in findings if f.claim_id in claim_ids])


class Findings(tuple):
    """The findings of one panel: a tuple of `Finding` that prints as its `report` and has an overall verdict."""

    def __new__(cls, findings: Sequence[Finding] = ()) -> "Findings":
        if not all(isinstance(f, Finding) for f in findings):
            raise TypeError("Findings holds Finding objects only")
        return super().__new__(cls, findings)

    @property
    def verdict(self) -> str:
        return overall(self)

    def __str__(self) -> str:
        return report(self)
