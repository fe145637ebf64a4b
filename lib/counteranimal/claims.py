"""Claims ledger of counteranimal: the tables the claims file (`lib/published/counteranimal/claims.yaml`)
judges, and the assessors no shared predicate of `lib.claims` fits, registered by claim id.

Every table is tidy with a `value` column. Readings used throughout (each evidence repeats its numbers):

* **Families.** "CLIPs" are all CLIP rows (the high-quality ones included), "ImageNet models" the rows of
  Tables 4, 12 and 14. A claim that one family is "more robust" is judged on the mean drop (raw) and,
  separately, on effective robustness (the mean residual from the other family's line; 1 vs 1000, both
  axes, `effective_robustness`).
* **Table 5.** Its CLIP rows are Table 3's 1 vs 1000 numbers (audit); claims on it are judged on the
  printed table and on the reading with Table 13's 1 vs 20 rows, and are not checkable if they disagree.
* **Thresholds** the text leaves open are stated in each claim's `reading` (a "notable" drop: above the
  5-point curation threshold of Sec. 2; "similar": within 3 points; "stable": within 2 points).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from typing import Any

import pandas as pd

from ..claims import Claim, OurRun, Tables, Verdict, cached_tables, findings_of, load_claims, seed_run
from ..claims import claims_for as _claims_for
from ..findings import Finding, Findings
from .classwise import classwise_frame, implied_group_sizes, leave_one_out_count
from .effective_robustness import SETUPS, above_line, points
from .ours import STUDY_FINDINGS, study_points
from .published import PAPER, model_table, raw

TIDY = ["family", "model", "backbone", "pretrain_dataset", "checkpoint", "high_quality", "metric", "value"]


def _models(*artefacts: str) -> pd.DataFrame:
    return pd.concat([model_table(a)[TIDY] for a in artefacts], ignore_index=True)


def _table05_with_table13() -> pd.DataFrame:
    """Table 5's LVLM rows with Table 13's (1 vs 20) rows for its five CLIPs."""
    table05 = _models("table05")
    table13 = _models("table13")
    clips = table13[table13["model"].isin(table05["model"])]
    return pd.concat([table05[table05["family"] == "LVLM"], clips], ignore_index=True)


def _hq_by_backbone() -> pd.DataFrame:
    """Table 3 per backbone with both kinds of data: mean of the high-quality rows and of the others."""
    frame = _models("table03")
    frame["quality"] = frame["high_quality"].map({True: "high-quality", False: "other"})
    both = frame.groupby("backbone")["quality"].nunique() == 2
    frame = frame[frame["backbone"].isin(both[both].index)]
    return frame.groupby(["backbone", "quality", "metric"], as_index=False, sort=False)["value"].mean()


def _prompt_comparison() -> pd.DataFrame:
    """Tables 3 (one prompt) and 10 (80 prompts) stacked with a `prompt` column."""
    return pd.concat([_models("table03").assign(prompt="one prompt"), _models("table10").assign(prompt="80 prompts")],
                     ignore_index=True)


def _change(after: str, before: str, label: str) -> pd.DataFrame:
    """`after` − `before` per model and metric (e.g. the 1 vs 20 drop minus the 1 vs 1000 drop)."""
    a = _models(after).set_index(["model", "metric"])
    b = _models(before).set_index(["model", "metric"])["value"]
    a["value"] = a["value"] - b.reindex(a.index)
    return a.reset_index().assign(change=label)


def _classwise() -> pd.DataFrame:
    frame = classwise_frame().drop_duplicates(["model", "class_id", "metric"])
    return frame.assign(class_id=frame["class_id"].astype(str))


def _numeric(artefact: str) -> pd.DataFrame:
    return raw(artefact)


TABLE_SOURCES: dict[str, Callable[[], pd.DataFrame]] = {
    "table01": lambda: _numeric("table01"),
    "table03": lambda: _models("table03"),
    "main_1v1000": lambda: _models("table03", "table04"),
    "prompts_1v1000": lambda: _models("table10", "table04"),
    "unbalanced_1v1000": lambda: _models("table11", "table12"),
    "main_1v20": lambda: _models("table13", "table14"),
    "table05": lambda: _models("table05"),
    "table05_with_table13": _table05_with_table13,
    "hq_by_backbone": _hq_by_backbone,
    "prompt_comparison": _prompt_comparison,
    "setup_change": lambda: pd.concat([_change("table13", "table03", "1 vs 20 - 1 vs 1000"),
                                       _change("table14", "table04", "1 vs 20 - 1 vs 1000")], ignore_index=True),
    "prompt_change": lambda: _change("table10", "table03", "80 prompts - one prompt"),
    "table07": lambda: _numeric("table07"),
    "table08": lambda: _numeric("table08").dropna(subset=["value"]),  # "n/a": no rest class with 2 classes
    "table09": lambda: _models("table09"),
    "classwise": _classwise,
}
TABLE_NAMES: tuple[str, ...] = tuple(TABLE_SOURCES)


table = cached_tables(PAPER, TABLE_SOURCES)  # the tables the claims file may name


def _verdict_of_findings(findings: list[tuple[str, Finding]]) -> Verdict:
    """All parts supported -> supported; all contradicted -> contradicted; none decided -> not distinguishable."""
    verdicts = {f.verdict for _, f in findings}
    verdict = verdicts.pop() if len(verdicts) == 1 else (
        "partly_supported" if "supported" in verdicts else "not_distinguishable")
    return Verdict(verdict, " | ".join(f"{label}: {f.sentence()}" for label, f in findings))


def _above(others: Callable[[pd.DataFrame], pd.Series], reference: Callable[[pd.DataFrame], pd.Series],
           claim: str) -> Verdict:
    frame = points(SETUPS["1 vs 1000"])
    return _verdict_of_findings([(axis, above_line(frame[reference(frame)], frame[others(frame)], axis, claim))
                                 for axis in ("linear", "logit")])


def _imagenet_effective(tables: Tables) -> Verdict:
    return _above(lambda f: f["family"] == "ImageNet", lambda f: f["family"] != "ImageNet",
                  "ImageNet models sit above the CLIP line")


def _hq_effective(tables: Tables) -> Verdict:
    return _above(lambda f: f["family"].isin(["CLIP-DC", "CLIP-DFN"]), lambda f: f["family"] == "CLIP",
                  "high-quality CLIPs sit above the other CLIPs' line")


def _prompt_gain(tables: Tables) -> Verdict:
    """Table 10 − Table 3 per CLIP and group (common, counter): how many of the cells gain 1 to 3 points."""
    change = tables("prompt_change")
    wide = change.pivot(index="model", columns="metric", values="value")[["common", "counter"]]
    cells = wide.stack()
    in_range = (cells >= 1) & (cells <= 3)
    k, n = int(in_range.sum()), len(cells)
    verdict = "supported" if k > n / 2 else "contradicted" if k <= n / 4 else "partly_supported"
    mean = wide.mean()
    return Verdict(verdict, f"{k} of {n} (CLIP, group) cells gain 1-3 points (needs more than {n / 2:g}); "
                            f"{int((cells > 0).sum())} of {n} gain; both groups in range for "
                            f"{int(((wide >= 1) & (wide <= 3)).all(axis=1).sum())} of {len(wide)} CLIPs; mean gain "
                            f"common {mean['common']:+.2f}, counter {mean['counter']:+.2f}; outside 1-3: " + ", ".join(
                                f"{m} {g} {v:+.2f}" for (m, g), v in cells[~in_range].items()))


def _photo_totals(tables: Tables) -> Verdict:
    frame = classwise_frame()
    sizes = implied_group_sizes(frame)
    common, counter = int(sizes["common"].sum()), int(sizes["counter"].sum())
    loose = sum(leave_one_out_count(block["value"].to_numpy())[0]
                for _, block in frame[frame["metric"] == "common"].groupby("class_id"))
    text = (f"the smallest group sizes consistent with every class-wise percentage of Tables 15-16 sum to {common} "
            f"common photos (7,174 stated) and {counter} counter photos (5,926 stated; class 37's implausible 1,776 "
            f"included). Allowing one misprinted percentage per class lowers the common bound to {loose}, but only "
            f"by dropping values that fit the larger counts exactly (e.g. 71.36 = 147/206 for class 1)")
    return Verdict("contradicted" if common > 7174 else "supported", text)


BESPOKE: dict[str, Callable[[Tables], Verdict]] = {
    "imagenet-effective-robustness": _imagenet_effective,
    "high-quality-effective-robustness": _hq_effective,
    "openai-prompts-gain": _prompt_gain,
    "dataset-size": _photo_totals,
}


def _miniature_findings(params: Mapping[str, Any], artefact: str) -> Findings:
    """The findings the notebook of `artefact` prints on the miniature CounterAnimal (`study_params`;
    `ours.STUDY_FINDINGS`)."""
    return STUDY_FINDINGS[artefact](study_points(artefact, params["study_params"], params["results_dir"]))


def _simulation_findings(params: Mapping[str, Any]) -> Findings:
    """The findings of the claims notebook's simulation of the theorem (`simulation_params`)."""
    from .simulation import SimulationSettings, bound_findings, findings, simulate

    frame = simulate(SimulationSettings.load(params["simulation_params"]))
    return Findings([*findings(frame), *bound_findings(frame)])


FINDINGS_PRODUCERS: dict[str, Callable[[Mapping[str, Any]], Findings]] = {
    **{a: partial(_miniature_findings, artefact=a) for a in STUDY_FINDINGS},
    "simulation": _simulation_findings}
OUR_FINDINGS = tuple(FINDINGS_PRODUCERS)
"""What judges a claim of the ledger on our run by findings (`ours: {findings: [...]}`)."""


def our_run(params: Mapping[str, Any]) -> OurRun:
    """Our controlled studies (run or read back, from `results_dir`) as the claims file's tables, each seed a
    replicate: the MultiColored digits study (`multicolored_params`) as Table 8 (`table08`: accuracies in %, labels
    as printed) and the ColoredCOCO-style study (`coloredcoco_params`) as Table 7 (`table07`, our model as its
    `backbone`). The miniature CounterAnimal's models are not the paper's, so the claims on its tables are judged
    on ours only by the findings of Figs. 2 and 5-8 (`OUR_FINDINGS`), and the theorem by its simulation."""
    from ..params import tier_of
    from .coloredcoco import run_study as run_coloredcoco
    from .multicolored import run_study as run_multicolored

    _, frame = run_multicolored(params["multicolored_params"], params["results_dir"])
    table08 = frame.dropna(subset=["value"]).astype({"classes": int}).astype({c: str for c in ("classes", "p_inv", "p_spu")})
    _, table07 = run_coloredcoco(params["coloredcoco_params"], params["results_dir"])
    run = seed_run({"table08": table08[["classes", "p_inv", "p_spu", "train_method", "metric", "seed", "value"]],
                    "table07": table07[["backbone", "approach", "metric", "seed", "value"]]},
                   tier_of(params["multicolored_params"]))
    return replace(run, findings=findings_of(lambda name: FINDINGS_PRODUCERS[name](params)))


def claims() -> tuple[Claim, ...]:
    """Every claim of the paper that its printed numbers bear on, in reading order (from the claims file)."""
    return load_claims(PAPER)


def claims_for(artefact: str) -> list[Claim]:
    """The claims that rest on `artefact`."""
    return _claims_for(PAPER, artefact)
