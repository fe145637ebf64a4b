"""Claims ledger of fm_perturbations: the tables `lib/published/fm_perturbations/claims.yaml` judges, and
the assessors no shared predicate fits, registered by claim id.

Tables (tidy, one `value` per row):

* `drops`: Tables 2 and 3's printed ACC_p drops (percentage points) by `dataset`, `head`, `perturbation`.
* `quoted_radii`: the four average DivergenceRadius values Sec. 4.2 quotes from Fig. 4, by `model` and
  `perturbation` (ImageNet).

The theory claims (Table 1, Theorems 1 and 2, Fig. 1) are judged with our metric code
(`lib.fm_perturbations.metrics`) on the paper's example and on seeded random unit vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from ..claims import Claim, OurRun, Tables, Verdict, bootstrap_run, cached_tables, findings_of, holds, load_claims
from ..claims import claims_for as _claims_for
from ..claims import format_ledger  # noqa: F401  (re-exported for the notebooks)
from ..params import tier_of
from .accuracies import HEADS, PAPER, drops, quoted, quoted_radii
from .examples import figure01_embeddings
from .metrics import cosine_metric, divergence_radius, euclidean_metric, unit_rows
from .properties import PROPERTIES, printed_violations, property_checks
from .tables import paper_name

TABLE_SOURCES: dict[str, Callable[[], pd.DataFrame]] = {
    "drops": lambda: drops()[["dataset", "head", "perturbation", "drop"]].rename(columns={"drop": "value"}),
    "quoted_radii": lambda: quoted_radii()[["model", "perturbation", "dataset", "value"]],
}
TABLE_NAMES: tuple[str, ...] = tuple(TABLE_SOURCES)
# Tables our run alone has (a claim's `ours` judgement may name them): `finetune`, the Sec. 6 fine-tuning's
# average R_cs, R_dr and zero-shot ACC (points) per `dataset` and `condition` (before, λ = 1), by `metric`.
OUR_TABLE_NAMES: tuple[str, ...] = ("finetune",)
# The paper's datasets our study's stand in for, by position (as `lib.fm_perturbations.ours` reads them).
PAPER_DATASETS: tuple[str, ...] = ("ImageNet", "Food101")
FINETUNE_METRICS = {"cosine": "R_cs", "divergence_radius": "R_dr", "ACC": "ACC"}
LEDGER_RESAMPLES = 200  # bootstrap resamples of the test images the ledger judges our run on
THEOREM2_SETS = 200  # seeded random sets for Theorem 2


table = cached_tables(PAPER, TABLE_SOURCES)  # the tables the claims file may name


def _quoted_drop(perturbation: str, dataset: str) -> Verdict:
    """A drop the text quotes (quoted.csv) against the table's printed drop in that cell (points)."""
    q = quoted().query("artefact in ['table02', 'table03'] and perturbation == @perturbation and dataset == @dataset")
    value = float(q["value"].iloc[0])
    head = next(h for h, model in HEADS.items() if q["model"].iloc[0].startswith(model))
    column = drops().query("dataset == @dataset and head == @head").set_index("perturbation")
    cell = column.loc[perturbation]
    same = ", ".join(column.index[np.isclose(column["drop"], value)]) or "no perturbation"
    largest = column["drop"].idxmax()
    return holds(bool(np.isclose(cell["drop"], value)),
                 f"quoted {value:g}; {q['artefact'].iloc[0]} ({dataset}, {head}) prints {perturbation}: ACC {cell['ACC']:.1f} "
                 f"- ACC_p {cell['ACC_p']:.1f} = drop {cell['drop']:.1f} points ({cell['drop'] / cell['ACC'] * 100:.1f} % "
                 f"relative); {value:g} is the drop of {same}; the column's largest drop is {largest} "
                 f"({column['drop'].max():.1f})")


def _glass_drop(tables: Tables) -> Verdict:
    return _quoted_drop("Glass blurring", "ImageNet")


def _frost_drop(tables: Tables) -> Verdict:
    return _quoted_drop("Frost blurring", "Food101")


def _table01(tables: Tables) -> Verdict:
    printed = printed_violations().set_index(["metric", "property"])["violated"]
    ours = property_checks().set_index(["metric", "property"])
    agree = printed == ours["violated"]
    found = "; ".join(f"{m}: {', '.join(p for p in PROPERTIES if ours.loc[(m, p), 'violated']) or 'none'} "
                      f"(worst-robustness breach {ours.loc[(m, 'Worst robustness'), 'breach']:.3f})"
                      for m in dict.fromkeys(ours.index.get_level_values(0)))
    return holds(bool(agree.all()), f"{int(agree.sum())} of {len(agree)} metric × property cells agree with Table 1. "
                                    f"Violations our code finds: {found}")


def _theorem2(tables: Tables) -> Verdict:
    rng = np.random.default_rng(0)
    gaps = []
    for i in range(THEOREM2_SETS):
        d = (2, 64, 512, 1536)[i % 4]
        points = unit_rows(rng.normal(size=d) + (0.05, 0.5, 5.0)[i % 3] * rng.normal(size=(int(rng.integers(2, 8)), d)))
        gaps.append(abs(euclidean_metric(points) - np.sqrt(cosine_metric(points))))
    largest = "below 1e-12 (rounding)" if max(gaps) < 1e-12 else f"{max(gaps):.1e}"
    return holds(max(gaps) < 1e-9, f"max |R_ed - sqrt(R_cs)| over {THEOREM2_SETS} seeded random unit-vector sets "
                                   f"(d 2-1536, n 2-7): {largest}; identity ||a-b||² = 2 - 2cos(a,b)")


def _figure01(tables: Tables) -> Verdict:
    points = figure01_embeddings()
    r_cs, r_ed, r_dr = cosine_metric(points), euclidean_metric(points), divergence_radius(points)
    return holds(np.isclose(r_cs, 0.75) and np.isclose(r_dr, 1.0),
                 f"three plane unit vectors 120° apart (sum zero): R_cs {r_cs:.4f}, R_ed {r_ed:.4f}, R_dr {r_dr:.4f}; "
                 f"any g with g(0)=0, g(1)=1, increasing gives g(0.75) < 1")


def _cosine_one(tables: Tables) -> Verdict:
    antipodal = cosine_metric(np.array([[1.0, 0.0], [-1.0, 0.0]]))
    figure = cosine_metric(figure01_embeddings())
    return holds(np.isclose(antipodal, 1.0) and figure < 1.0,
                 f"R_cs = (1 - min cos)/2 is 1 exactly when some pair has cos -1: antipodal pair {antipodal:.2f}; "
                 f"Fig. 1's evenly spread vectors {figure:.2f}")


BESPOKE: dict[str, Callable[[Tables], Verdict]] = {
    "table01-violations": _table01,
    "theorem2-euclidean-sqrt-cosine": _theorem2,
    "figure01-cosine-not-worst": _figure01,
    "cosine-one-only-antipodal": _cosine_one,
    "glass-zero-shot-drop": _glass_drop,
    "frost-food-linear-drop": _frost_drop,
}


OUR_FINDINGS = ("figure03", "figure04", "figure13", "figure05", "figure06", "figure10", "figure11", "table09")
"""The artefacts whose findings on our run judge a claim of the ledger (`ours: {findings: [...]}`)."""


def our_run(params: Mapping[str, Any]) -> OurRun:
    """Our perturbation study (`study_params`, `results_dir`; run or read back) as the claims file's `drops`
    (Tables 2-3's layout, the study's datasets named as the paper's they stand in for) and `finetune`, one
    value per test image; the replicates resample the images of each dataset (`LEDGER_RESAMPLES`)."""
    from .ours import drop_matrix, finetune_condition, panel_findings, run_study

    run = run_study(params["study_params"], params["results_dir"])
    names = dict(zip(run.settings.labels(), PAPER_DATASETS))
    drops = [drop_matrix(run, ours, head).rename(columns=paper_name).reset_index()
             .melt(id_vars="item", var_name="perturbation", value_name="value").assign(dataset=paper, head=head)
             for ours, paper in names.items() for head in HEADS if head in set(run.predictions["head"])]
    finetune = run.finetune.assign(condition=finetune_condition(run.finetune), dataset=run.finetune["dataset"].map(names),
                                   value=lambda f: f["value"] * np.where(f["metric"] == "ACC", 100.0, 1.0),
                                   metric=run.finetune["metric"].map(FINETUNE_METRICS))
    finetune = finetune[finetune["condition"].isin(["before", "λ = 1"])]
    frames = {"drops": pd.concat(drops, ignore_index=True)[["dataset", "head", "perturbation", "item", "value"]],
              "finetune": finetune[["dataset", "metric", "condition", "item", "value"]]}
    label = f"{tier_of(params['study_params'])} ({', '.join(f'{o} as {p}' for o, p in names.items())})"
    return replace(bootstrap_run(frames, label, LEDGER_RESAMPLES, run.settings.seed),
                   findings=findings_of(lambda artefact: panel_findings(run, artefact)))


def claims() -> tuple[Claim, ...]:
    """Every claim of the paper, in reading order (from the claims file)."""
    return load_claims(PAPER)


def claims_for(artefact: str) -> list[Claim]:
    """The claims that rest on `artefact`."""
    return _claims_for(PAPER, artefact)
