"""The paper's tables computed from our miniature benchmark, for the notebooks' "Our run" sections.

`run_benchmark` runs (or reads back) a tier's benchmark (its RI/mRI table: `benchmark.robustness_table`).
`judged` judges the paper's claims about Tables 2, 3, 15, 18, 19, 30 and Figs. 4 and 8 on it (their
figures beside the paper's numbers are `pairs.paired_panel`). Each `Finding` is judged by its
interval over seeds or, with a single seed (the full tier runs the paper's one per model; the tiny tier one),
by a seeded bootstrap over the fine-tuning sets whose means the table's rows are (`FinetuneSetDraws`);
Table 30's per-dataset cells by a seeded bootstrap over those cells.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..findings import Finding, Findings, Interval, bootstrap_interval, mean_interval
from ..store import RunContext
from .benchmark import (PRETRAINED, Benchmark, BenchmarkSettings, finetune_terms, mean_and_standard_error,
                        regime_pretraining, robustness_table)

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def run_benchmark(benchmark_params: str, results_dir: str) -> tuple[BenchmarkSettings, pd.DataFrame, pd.DataFrame]:
    """Settings, per-dataset accuracies and the RI/mRI table of a tier's benchmark."""
    settings = BenchmarkSettings.load(benchmark_params)
    return (settings, *benchmark_tables(settings, benchmark_params, results_dir))


def benchmark_tables(settings: BenchmarkSettings, params_file: str, results_dir: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-dataset accuracies and the RI/mRI table of the benchmark of `settings` (read from `params_file`: a
    benchmark file, or an experiments file one of whose experiments it is), run or read back."""
    context = RunContext(params_file=params_file, device=settings.device)
    bench = Benchmark(settings, Path(results_dir), context)
    acc = bench.run_accuracies()
    return acc, robustness_table(acc, settings.suite, bench.reference, bench.finetune_datasets)


def summary(table: pd.DataFrame, value: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Method × regime tables of `value`: the mean over seeds and its standard error (Tables 3, 15, 18, 19)."""
    stats = mean_and_standard_error(table, value)
    means = stats.pivot(index="method", columns="regime", values="mean")
    errors = stats.pivot(index="method", columns="regime", values="standard error")
    order = list(dict.fromkeys(stats["method"]))
    return means.loc[order], errors.loc[order]


def ood_before_after_per_set(acc: pd.DataFrame, suite: list[str]) -> pd.DataFrame:
    """Per regime, seed, method and fine-tuning set (in name order): the fine-tuned model's average accuracy over
    the suite's datasets other than that set (`after`), the pretrained model's over the same ones (`before`)."""
    rows = []
    for (regime, seed), group in acc.groupby(["regime", "seed"], sort=False):
        pre = group[group["method"] == PRETRAINED].set_index("eval_dataset")["accuracy"]
        for method, runs in group[group["method"] != PRETRAINED].groupby("method", sort=False):
            for name, run in runs.groupby("finetune_dataset"):
                others = [d for d in suite if d != name]
                rows.append({"regime": regime, "seed": seed, "method": method, "finetune_dataset": name,
                             "before": pre.loc[others].mean(),
                             "after": run.set_index("eval_dataset")["accuracy"].loc[others].mean()})
    return pd.DataFrame(rows, columns=["regime", "seed", "method", "finetune_dataset", "before", "after"])


def ood_average_before_after(acc: pd.DataFrame, suite: list[str]) -> pd.DataFrame:
    """Fig. 4 / Fig. 8: per regime, seed and method, the average accuracy over the suite's datasets
    other than the fine-tuning one (after), next to the pretrained model's average over the same ones, each the
    mean over the fine-tuning sets (`ood_before_after_per_set`)."""
    per_set = ood_before_after_per_set(acc, suite)
    return pd.DataFrame([{"regime": regime, "seed": seed, "method": method,
                          "before": sum(block["before"]) / len(block), "after": sum(block["after"]) / len(block)}
                         for (regime, seed, method), block in per_set.groupby(["regime", "seed", "method"], sort=False)],
                        columns=["regime", "seed", "method", "before", "after"])


# -- findings: the paper's claim about each artefact, judged by an interval -----------------------------
Panel = tuple[pd.DataFrame, "Figure", Findings]
BEST = "MS:PRE-FT-EWC-LwF"
ROBUST = ("EWC", "LwF", "WiSE-FT", BEST)  # Table 30's "continual learning methods and robust fine-tuning methods"
FT_SET = "accuracy on the fine-tuning set"
# Ledger claims (lib/published/imagenet_rib/claims.yaml) that Table 30's findings bear on (`Finding.claim_id`)
CONTINUAL_ROBUST_IMPROVE = "continual-robust-improve-ood"
LP_MIRRORS_FT = "lp-mirrors-ft"


@dataclass(frozen=True)
class FinetuneSetDraws:
    """One seed's rows of a table (per method, the means over the fine-tuning sets of per-set terms), recomputed
    from fine-tuning sets drawn with replacement: the interval of a per-seed statistic where the run has a single
    seed, which a t-interval over seeds leaves undefined (the full tier runs the paper's one seed per model).

    `terms` computes `per_set` when a single seed first needs it (never with several seeds): one row per regime,
    seed, method and fine-tuning set, with the terms. A drawn row holds, under the table's column `means[term]`,
    the mean of each term over the drawn sets (repeats counted), and the `spread` term also once per drawn set, as
    `<spread> <set>` (Table 2's `RI <set>` columns; a set drawn again gets ` (2)`, ` (3)`, ...)."""

    terms: Callable[[], pd.DataFrame]
    means: Mapping[str, str]
    spread: str = ""

    @functools.cached_property
    def per_set(self) -> pd.DataFrame:
        return self.terms()

    def drawn_rows(self, regime: str, seed: int) -> tuple[list[str], Callable[[np.ndarray], pd.DataFrame]]:
        """The fine-tuning sets of `regime` and `seed`, and the method-indexed rows of the sets drawn (their
        positions in that list)."""
        part = self.per_set[(self.per_set["regime"] == regime) & (self.per_set["seed"] == seed)]
        methods, sets = list(dict.fromkeys(part["method"])), list(dict.fromkeys(part["finetune_dataset"]))
        terms = {term: part.pivot(index="method", columns="finetune_dataset", values=term).loc[methods, sets].to_numpy()
                 for term in self.means}

        def rows(drawn: np.ndarray) -> pd.DataFrame:
            columns: dict[str, np.ndarray] = {}
            if self.spread:
                for k, i in enumerate(drawn):
                    repeat = int(np.sum(drawn[:k] == i))
                    columns[f"{self.spread} {sets[i]}" + (f" ({repeat + 1})" if repeat else "")] = terms[self.spread][:, i]
            columns |= {column: terms[term][:, drawn].mean(axis=1) for term, column in self.means.items()}
            return pd.DataFrame(columns, index=pd.Index(methods, name="method"))

        return sets, rows

    def interval(self, regime: str, seed: int, statistic: Callable[[pd.DataFrame], float]) -> Interval:
        """Seeded bootstrap interval of `statistic` of the method-indexed rows of `regime` and `seed`."""
        sets, rows = self.drawn_rows(regime, seed)
        return bootstrap_interval(np.arange(len(sets)), lambda drawn: statistic(rows(drawn)), unit="fine-tuning sets")


def per_seed_finding(frame: pd.DataFrame, regime: str, methods: Sequence[str], statistic: Callable[[pd.DataFrame], float],
                     quantity: str, claim: str, direction: str, threshold: float, paper: str,
                     claim_id: str = "", draws: FinetuneSetDraws | None = None) -> Finding:
    """`statistic` of each seed's method-indexed rows of `frame` (columns regime, seed, method, ...) in
    `regime`, judged by the interval of its mean over seeds, or, with one seed and `draws` (`frame`'s rows as
    means over fine-tuning sets), by a bootstrap over the fine-tuning sets; not checkable where our run lacks one
    of `methods` (the statistic reads them). `claim_id`: the ledger claim it bears on, if any."""
    part = frame[frame["regime"] == regime]
    missing = [m for m in methods if m not in set(part["method"])]
    if missing:
        return Finding.undefined(quantity, f"our run has no {', '.join(missing)}", claim, direction, threshold, paper,
                                 claim_id)
    per_seed = {seed: statistic(rows.set_index("method")) for seed, rows in part.groupby("seed", sort=False)}
    values = list(per_seed.values())
    if len(per_seed) == 1 and draws is not None:
        interval = draws.interval(regime, next(iter(per_seed)), statistic)
    else:
        interval = mean_interval(values, "seeds")
    return Finding(quantity, float(np.mean(values)), interval, claim, direction, threshold, paper, claim_id)


# The per-set terms of `benchmark.finetune_terms` -> the RI/mRI table's columns of their means over the sets
TABLE_TERMS = {"RI": "mRI", "backward transfer": "backward transfer", FT_SET: FT_SET}


def table_draws(acc: pd.DataFrame, suite: list[str], reference: str, finetune_datasets: list[str]) -> FinetuneSetDraws:
    """`FinetuneSetDraws` of `benchmark.robustness_table(acc, suite, reference, finetune_datasets)`: its RI per
    fine-tuning set, mRI, backward transfer and accuracy on the fine-tuning set from their per-set terms."""
    return FinetuneSetDraws(lambda: finetune_terms(acc, suite, reference, finetune_datasets), TABLE_TERMS, "RI")


def benchmark_draws(settings: BenchmarkSettings, acc: pd.DataFrame) -> FinetuneSetDraws:
    """`table_draws` of the benchmark of `settings` (its runs `acc`)."""
    return table_draws(acc, settings.suite, settings.reference_dataset, settings.finetuned_on)


def _ood_change_per_set(acc: pd.DataFrame, suite: list[str], methods: Sequence[str]) -> pd.DataFrame:
    per_set = ood_before_after_per_set(acc, suite)
    per_set = per_set[per_set["method"].isin(methods)] if methods else per_set
    return per_set.assign(change=per_set["after"] - per_set["before"])


def ood_change_draws(acc: pd.DataFrame, suite: list[str], methods: Sequence[str] = ()) -> FinetuneSetDraws:
    """`FinetuneSetDraws` of `ood_change(acc, suite, methods)`: before, after and change from their per-set terms."""
    return FinetuneSetDraws(lambda: _ood_change_per_set(acc, suite, methods),
                            {term: term for term in ("before", "after", "change")})


def _regimes(frame: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(frame["regime"]))


def ri_findings(table: pd.DataFrame, draws: FinetuneSetDraws | None = None) -> list[Finding]:
    """Table 2 (Sec. 4.2): per regime, the share of fine-tuning sets on which MS:PRE-FT-EWC-LwF has the highest RI
    (`draws`: the table's, for a single seed; see `per_seed_finding`)."""
    def share_best(rows: pd.DataFrame) -> float:
        return float(np.mean([rows.loc[BEST, c] >= rows[c].max() for c in rows.columns if c.startswith("RI ")]))

    return [per_seed_finding(table, r, [BEST], share_best, f"{r}: share of fine-tuning sets on which {BEST} has the highest RI",
                             f"{BEST} performs the highest on most fine-tuning sets (read: more than half)", ">", 0.5,
                             "highest in most datasets, followed by WiSE-FT (IN-1K + AugReg ViT-B/16)", draws=draws)
            for r in _regimes(table)]


def mri_findings(table: pd.DataFrame, steady: Sequence[str] = ("Linear Probing", "Visual Prompt"),
                 draws: FinetuneSetDraws | None = None) -> list[Finding]:
    """Table 3 / 15 (Sec. 4.2): per regime, MS:PRE-FT-EWC-LwF ranks first or second by mRI; the `steady` methods
    (linear probing and Visual Prompt; Table 15 prints no Visual Prompt) change robustness less than FT
    (`draws`: the table's, for a single seed)."""
    def margin(rows: pd.DataFrame) -> float:  # >= 0 iff at most one other method is above it
        return float(rows.loc[BEST, "mRI"] - rows["mRI"].drop(BEST).nlargest(2).iloc[-1])

    def steadier(method: str) -> Callable[[pd.DataFrame], float]:
        return lambda rows: float(abs(rows.loc["FT", "mRI"]) - abs(rows.loc[method, "mRI"]))

    findings = []
    for r in _regimes(table):
        findings.append(per_seed_finding(
            table, r, [BEST], margin, f"{r}: mRI of {BEST} − second-highest mRI of the other methods",
            f"{BEST} has the highest or second-highest mRI", ">", 0.0,
            "highest or second-highest for every backbone pretrained on ImageNet-based data (Table 3)",
            "soup-top2-imagenet", draws))
        findings += [per_seed_finding(
            table, r, ["FT", m], steadier(m), f"{r}: |mRI of FT| − |mRI of {m}|",
            f"the robustness of {m} stays relatively unchanged, as it barely modifies the weights (read: |mRI| below FT's)",
            ">", 0.0, "relatively unchanged (Sec. 4.2)", draws=draws) for m in steady]
    return findings


def backward_findings(table: pd.DataFrame, draws: FinetuneSetDraws | None = None) -> list[Finding]:
    """Table 18 (App. J.2): per regime, LwF has the best backward transfer (`draws`: the table's, for a single seed)."""
    def lead(rows: pd.DataFrame) -> float:
        return float(rows.loc["LwF", "backward transfer"] - rows["backward transfer"].drop("LwF").max())

    return [per_seed_finding(table, r, ["LwF"], lead, f"{r}: backward transfer of LwF − best of the other methods",
                             "LwF achieves the best backward transfer", ">", 0.0,
                             "best in most models; linear probing beats it on OpenAI and LAION-2B",
                             "lwf-best-backward-transfer", draws)
            for r in _regimes(table)]


@dataclass(frozen=True)
class FitClaim:
    """A caption's claim on the fine-tuning-set accuracy (Tables 19 and 21): which methods it puts highest
    (`>`) and lowest (`<`), and the caption's own words."""

    groups: Mapping[tuple[str, ...], tuple[str, str]]  # methods -> (direction, what the caption says of them)
    paper: str


FIT_CLAIMS = {
    "table19": FitClaim({("FT", "LP-FT"): (">", "generally achieve the highest accuracy"),
                         ("Visual Prompt", "LoRA"): ("<", "show the lowest accuracy")},
                        "FT and LP-FT highest, Visual Prompt and LoRA lowest (Table 19, ViT-B/16)"),
    "table21": FitClaim({("FT", "LP-FT"): (">", "generally achieve the highest accuracy"),
                         ("EWC",): ("<", "shows the lowest accuracy")},
                        "FT and LP-FT highest, EWC lowest (Table 21, ResNets)"),
}


def finetune_set_findings(table: pd.DataFrame, artefact: str = "table19",
                          draws: FinetuneSetDraws | None = None) -> list[Finding]:
    """Tables 19 and 21 (App. J.3): per regime, each group of methods of the caption's claim (`FIT_CLAIMS`)
    learns the fine-tuning sets better (or worse) than the other methods, on average (`draws`: the table's, for a
    single seed)."""
    claim = FIT_CLAIMS[artefact]

    def gap(methods: tuple[str, ...]) -> Callable[[pd.DataFrame], float]:
        return lambda rows: float(rows.loc[list(methods), FT_SET].mean() - rows[FT_SET].drop(list(methods)).mean())

    return [per_seed_finding(table, r, list(methods), gap(methods),
                             f"{r}: mean {FT_SET} of {' and '.join(methods)} − mean of the other methods (points)",
                             f"{' and '.join(methods)} {text} on the fine-tuning sets", direction, 0.0,
                             claim.paper, f"{artefact}-caption", draws)
            for r in _regimes(table) for methods, (direction, text) in claim.groups.items()]


def ood_cells(acc: pd.DataFrame, suite: list[str]) -> pd.DataFrame:
    """Table 30's cells: per regime, method and (fine-tuning set, other suite set), the accuracy after
    fine-tuning minus the pretrained model's, means over seeds."""
    means = acc.groupby(["regime", "method", "finetune_dataset", "eval_dataset"], sort=False)["accuracy"].mean()
    pre = means.xs(PRETRAINED, level="method").droplevel("finetune_dataset")
    tuned = means.drop(PRETRAINED, level="method").reset_index()
    tuned = tuned[tuned["eval_dataset"].isin(suite) & (tuned["eval_dataset"] != tuned["finetune_dataset"])]
    before = pre.loc[list(zip(tuned["regime"], tuned["eval_dataset"]))].to_numpy()
    return tuned.assign(change=tuned["accuracy"].to_numpy() - before)


def per_dataset_findings(acc: pd.DataFrame, suite: list[str]) -> list[Finding]:
    """Table 30 (App. J.4): per regime, the continual-learning and robust fine-tuning methods raise
    accuracy on most (fine-tuning set, OOD set) cells; LP changes it less than FT. Seeded bootstrap
    over the cells."""
    cells = ood_cells(acc, suite)
    findings = []
    for r in _regimes(cells):
        part = cells[cells["regime"] == r]
        robust = part[part["method"].isin(ROBUST)]["change"].to_numpy()
        quantity, claim = (f"{r}: share of (method, fine-tuning set, OOD set) cells of {', '.join(ROBUST)} above the "
                           "pretrained model", "continual learning and robust fine-tuning methods improve accuracy "
                           "on most OOD datasets (read: more than half of the cells)")
        findings.append(Finding(quantity, float(np.mean(robust > 0)), bootstrap_interval(
            robust, lambda rows: float(np.mean(rows > 0)), unit="cells"), claim, ">", 0.5,
            "generally improve on most OOD datasets (IN-1K + AugReg ViT-B/16)", CONTINUAL_ROBUST_IMPROVE)
            if len(robust) else Finding.undefined(quantity, f"our run has none of {', '.join(ROBUST)}", claim, ">", 0.5,
                                                  "generally improve", CONTINUAL_ROBUST_IMPROVE))
        pairs = part.pivot_table(index=["finetune_dataset", "eval_dataset"], columns="method", values="change")
        quantity, claim = (f"{r}: mean |change| of Linear Probing − that of FT over the OOD cells (points)",
                           "linear probing shows the same pattern as FT with less magnitude (read: smaller |change|)")
        if {"FT", "Linear Probing"} <= set(pairs.columns):
            rows = pairs[["Linear Probing", "FT"]].abs().to_numpy()
            findings.append(Finding(quantity, float(np.mean(rows[:, 0] - rows[:, 1])), bootstrap_interval(
                rows, lambda x: float(np.mean(x[:, 0] - x[:, 1])), unit="cells"), claim, "<", 0.0, "less magnitude",
                LP_MIRRORS_FT))
        else:
            findings.append(Finding.undefined(quantity, "our run lacks FT or Linear Probing", claim, "<", 0.0,
                                              "less magnitude", LP_MIRRORS_FT))
    return findings


def ood_change(acc: pd.DataFrame, suite: list[str], methods: Sequence[str] = ()) -> pd.DataFrame:
    """`ood_average_before_after` with the change (after − before: the mRI), of `methods` (all where empty)."""
    frame = ood_average_before_after(acc, suite)
    frame = frame[frame["method"].isin(methods)] if methods else frame
    return frame.assign(change=frame["after"] - frame["before"])


FEW_POINTS = 5.0  # "a few points" of accuracy, either way (Figs. 4/8 here, Table 6 in `ours_experiments`)
# Pretrainings whose change under fine-tuning the text states as a sign: (direction, threshold, what it predicts).
STATED_CHANGES = {"IN-1K + AugReg": (">", 0.0, "raises the average accuracy on the OOD datasets (Figs. 4 and 8's "
                                                "captions: 'improved robustness after fine-tuning')")}


def analogue_expectation(regime: str, methods: Sequence[str], who: str) -> tuple[str, float, str, str]:
    """What the paper's numbers predict of `regime`'s change of average OOD accuracy under `methods`: the Table 3
    mRI of its pretraining (`benchmark.regime_pretraining`: a miniature regime's analogue, a registry model's own)
    per architecture, the mean over those of `methods` Table 3 has.
    Where the text states the sign of that pretraining's change (`STATED_CHANGES`), that sign; else, where every
    architecture's is above -`FEW_POINTS`, the change stays within a few points either way (`within`); otherwise
    fine-tuning lowers it (`<` 0), as it does for a regime without an analogue.
    `(direction, threshold, claim, paper values)`."""
    from .tables import load_table

    pretraining = regime_pretraining(regime)
    table = load_table("table03")
    rows = table[(table["pretraining"] == pretraining) & table["method"].isin(methods)]
    means = rows.groupby("architecture", sort=False)["value"].mean()
    lowers = ("<", 0.0, f"{who} lowers the average accuracy on the OOD datasets")
    if not len(means):
        return (*lowers, "no analogue in the paper")
    paper = f"{pretraining}, Table 3 mRI: " + ", ".join(f"{a} {v:+.1f}" for a, v in means.items())
    if pretraining in STATED_CHANGES:
        direction, threshold, predicted = STATED_CHANGES[pretraining]
        return direction, threshold, f"{who} {predicted}", paper
    if (means > -FEW_POINTS).all():
        return ("within", FEW_POINTS, f"{who} moves its average OOD accuracy by a few points at most (read: within "
                f"±{FEW_POINTS:g})", paper)
    return (*lowers, paper)


def ood_change_findings(change: pd.DataFrame, methods: Sequence[str], who: str,
                        draws: FinetuneSetDraws | None = None) -> list[Finding]:
    """Fig. 4 / 8: per regime, the mean over `methods` of after − before average OOD accuracy, over seeds (over
    fine-tuning sets with one seed: `draws`, `change`'s), against what the paper's numbers predict for the
    regime's analogue (`analogue_expectation`)."""
    findings = []
    for r in _regimes(change):
        direction, threshold, claim, paper = analogue_expectation(r, methods, who)
        findings.append(per_seed_finding(change, r, methods, lambda rows: float(rows["change"].mean()),
                                         f"{r}: average OOD accuracy after − before, {who} (points)", claim, direction,
                                         threshold, paper, draws=draws))
    return findings


def regime_contrast_findings(change: pd.DataFrame, who: str, paper: str,
                             draws: FinetuneSetDraws | None = None) -> list[Finding]:
    """Fig. 4 / 8's contrast of pretraining regimes: the regime pretrained with AugReg on IN-1K (ours: `augmented`;
    `benchmark.regime_pretraining`) against the one pretrained on IN-1K alone (ours: `clean`), per seed and averaged
    over the methods in `change`: whether it loses less average OOD accuracy to fine-tuning (its change minus the
    other's > 0), and whether it ends higher (its accuracy after minus the other's > 0), each judged by its
    t-interval over seeds (with one seed and `draws`, `change`'s: by a bootstrap over the fine-tuning sets both
    regimes are fine-tuned on, of the per-set gap); undefined where the run lacks either (the full benchmark's ViTs have no IN-1K-only
    pretraining: the paper's are ResNets, Table 21's experiment). The paper's numbers say so of its IN-1K + AugReg
    ViTs against its IN-1K ResNets (Table 3), across architectures; ours differ in the augmentation alone. No regime
    of ours varies the amount of data, so these findings do not bear on the claims about the largest pretraining
    sets."""
    by_pretraining = {regime_pretraining(r): r for r in _regimes(change)}
    plain, augreg = by_pretraining.get("IN-1K"), by_pretraining.get("IN-1K + AugReg")
    parts = (("change", "change of average OOD accuracy", "pretraining with AugReg loses less OOD accuracy to fine-tuning"),
             ("after", "average OOD accuracy after", "pretraining with AugReg ends with higher OOD accuracy"))
    if plain is None or augreg is None:
        return [Finding.undefined(f"IN-1K + AugReg − IN-1K: {what}, {who} (points)",
                                  "the run has no regime pretrained on IN-1K alone beside one with AugReg", claim, ">",
                                  0.0, paper) for _, what, claim in parts]
    means = change.groupby(["regime", "seed"], sort=False)[["change", "after"]].mean()
    out = []
    for column, what, claim in parts:
        gap = (means.loc[augreg, column] - means.loc[plain, column]).dropna()
        if len(gap) == 1 and draws is not None:
            per_set = draws.per_set[draws.per_set["seed"] == gap.index[0]]
            by_set = per_set.groupby(["regime", "finetune_dataset"], sort=False)[column].mean().unstack("regime")
            set_gaps = (by_set[augreg] - by_set[plain]).dropna().to_numpy()
            interval = bootstrap_interval(set_gaps, lambda drawn: float(np.mean(drawn)), unit="fine-tuning sets")
        else:
            interval = mean_interval(gap.to_numpy(), "seeds")
        out.append(Finding(f"{augreg} − {plain}: {what}, {who} (points)", float(gap.mean()), interval, claim, ">", 0.0,
                           paper))
    return out


FIGURE04_PAPER = "IN-1K + AugReg ViTs lose less than IN-1K ResNets (Table 3, FT mRI); severe loss for LAION-2B, OpenAI"
FIGURE08_PAPER = "IN-1K + AugReg ViTs lose less than IN-1K ResNets (Table 3); severe loss for LAION-2B, OpenAI"


def before_after_findings(settings: BenchmarkSettings, acc: pd.DataFrame, methods: Sequence[str], who: str,
                          paper: str) -> list[Finding]:
    """Fig. 4 (`methods` = FT) / Fig. 8 (every method): per regime, the change of average OOD accuracy; then the
    AugReg regime against the plain one (`regime_contrast_findings`)."""
    change, draws = ood_change(acc, settings.suite, methods), ood_change_draws(acc, settings.suite, methods)
    return (ood_change_findings(change, methods or list(dict.fromkeys(change["method"])), who, draws)
            + regime_contrast_findings(change, who, paper, draws))


# The paper's claims about each artefact that `pairs.paired_panel` draws, judged on our run.
JUDGES: dict[str, Callable[[BenchmarkSettings, pd.DataFrame, pd.DataFrame], list[Finding]]] = {
    "table02": lambda settings, acc, table: ri_findings(table, benchmark_draws(settings, acc)),
    "table03": lambda settings, acc, table: mri_findings(table, draws=benchmark_draws(settings, acc)),
    "table15": lambda settings, acc, table: mri_findings(table, steady=("Linear Probing",),  # its seven methods
                                                         draws=benchmark_draws(settings, acc)),
    "table18": lambda settings, acc, table: backward_findings(table, benchmark_draws(settings, acc)),
    "table19": lambda settings, acc, table: finetune_set_findings(table, draws=benchmark_draws(settings, acc)),
    "table30": lambda settings, acc, table: per_dataset_findings(acc, settings.suite),
    "figure04": lambda settings, acc, table: before_after_findings(settings, acc, ["FT"], "vanilla FT", FIGURE04_PAPER),
    "figure08": lambda settings, acc, table: before_after_findings(settings, acc, [], "fine-tuning (mean over the methods)",
                                                                   FIGURE08_PAPER),
}


def judged(artefact: str, settings: BenchmarkSettings, acc: pd.DataFrame, table: pd.DataFrame) -> Findings:
    """The paper's claims about `artefact`, judged on our run."""
    return Findings(JUDGES[artefact](settings, acc, table))
