"""Our CounterAnimal study (`study.py`) in the paper's figures, with findings on its claims.

Figures 2, 13 and 14 put counter against common accuracy per family with a line fit to the CLIPs and
one to the ImageNet models. `our_panel` draws the paper's panels (Fig. 2: 1 vs 1000 and 1 vs 20; Fig. 13:
1 vs 1000, Fig. 14: 1 vs 20, points numbered) and ours beside them with one function (`figures.scatter_panel`),
one point per (model, seed), and judges the paper's claims on our run (`findings`): each quantity is computed
per seed and given a t-interval over seeds (a run of one seed, e.g. the full tier's checkpoints, gets a
bootstrap over its models instead). Figures 5-9 compare models as bars; `our_bars` draws the
comparisons our zoo has an analogue of (`OUR_BARS`; a registry study: the paper's own panels) with the paper's
bar function (`figures.bar_panels`), and `bar_findings` judges Figs. 5-8's claims on them (`BAR_CLAIMS`). Fig. 5's
bars score every model on the groups one CLIP (the study's `curator`) chose from the miniature's pool of
backgrounds by the paper's curation rule (`curation`), where the other figures read the designed groups.

In the miniature, "CLIP" is a tiny CLIP pre-trained contrastively on captioned digits whose
background follows the class with the miniature's spurious correlation, "CLIP-HQ" the same on data
with a weaker correlation, and "ImageNet" a supervised stand-in trained on the same kind of data as
the CLIPs (not on other data, as the paper's ImageNet models were: see the notebooks). The CLIPs of one size n also
come with a smaller and a larger image tower (`tiny_clip_small`, `tiny_clip_large`): Fig. 7's backbone ladder.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..findings import Finding, Findings, Interval, bootstrap_interval, mean_interval, undefined_interval
from ..params import tier_of
from ..store import RunContext, precompute_study
from .effective_robustness import residuals
from .figures import (METRICS, PANELS as PAPER_BARS, SCATTERS, number_panels, paper_panel_title, scatter_axes,
                      scatter_panel, scatter_points)
from .curation import SELECTION_COLUMNS, rank_backgrounds, select_groups
from .metrics import GROUPS
from .miniature import DIGIT_CLASS_NAMES
from .published import BACKBONE_PARAMS, DATA_SIZE
from .study import RUN_COLUMNS, Study, StudySettings, zoo_member

HQ_FAMILIES = ("CLIP-HQ", "CLIP-DC", "CLIP-DFN")  # ours, and the paper's high-quality-data CLIPs
CURATION_THRESHOLD = 5.0  # Sec. 2: a kept class's accuracy "varies by more than 5%" across backgrounds (points)
CLIP_BACKBONE = "tiny_clip"  # the miniature CLIPs' backbone where data vary (Figs. 6, 8, 9); Fig. 7 varies it
PANELS = ("figure02", "figure13", "figure14")  # the artefacts with an our-run panel: common vs counter
# the notebooks reading the study: the scatter panels, the bars of Figs. 6, 8 and 9 (`OUR_BARS`), the ledger
READS = (*PANELS, "figure04", "figure05", "figure06", "figure07", "figure08", "figure09", "figure15", "claims")
CURATED = ("figure05",)  # the artefacts whose findings read the curated groups (`curation`), not the designed ones
CLASS_WISE = ("figure15",)  # the artefacts whose findings read the drops per class on the curated groups (`class_drops`)
STANDIN_NAMES = {"clip": "", "vit": "ViT", "resnet": "ResNet"}  # our stand-ins' names in the figures' keys


def open_study(study_params: str, results_dir: str) -> tuple[StudySettings, Study]:
    """A tier's study settings (loaded and validated) and its study over the store under `results_dir`."""
    settings = StudySettings.load(study_params)
    return settings, Study(settings, Path(results_dir), RunContext(params_file=study_params, device=settings.device))


def run_study(study_params: str, results_dir: str) -> tuple[StudySettings, pd.DataFrame]:
    """Load a tier's study settings, run (or read back) every run; settings and accuracies (with
    the `tier` of the settings file's folder, `params/<tier>/counteranimal/…`)."""
    settings, study = open_study(study_params, results_dir)
    return settings, _accuracies(study, study_params)


def _accuracies(study: Study, study_params: str) -> pd.DataFrame:
    """`run_study`'s accuracies of an open study, with `tier` and `params_m`."""
    sizes = study.model_sizes().drop_duplicates("model").set_index("model")["params_m"]
    frame = study.run_accuracies()
    return frame.assign(tier=tier_of(study_params), params_m=frame["model"].map(sizes))


def _curators_choice(settings: StudySettings, study: Study) -> tuple[pd.DataFrame, str, pd.DataFrame]:
    """A miniature study's per-(class, background) accuracies, its curator's run name and the curator's choice
    (`curated_groups`); raises if the curator kept no class at any seed."""
    backgrounds = study.background_accuracies()
    curator = zoo_member(settings.curator, settings.spec()).name
    groups = curated_groups(backgrounds, curator)
    if not groups["kept"].any():
        raise ValueError(f"the curator {settings.curator!r} kept no class at any seed: its accuracy varies by at most "
                         f"{CURATION_THRESHOLD:g} points across backgrounds for every class (train it longer: clip_pretrain)")
    return backgrounds, curator, groups


def curation(study_params: str, results_dir: str) -> tuple[StudySettings, pd.DataFrame, pd.DataFrame]:
    """Fig. 5's analogue: the study's runs (run or read back) scored on the groups its curator chose from the
    pool of backgrounds; settings, the curated accuracies (`curated_accuracies`, with `params_m` and `tier` as
    `run_study` gives them, and each model's `own_drop`: its drop on the groups it would choose itself, the
    measure of the selection effect) and the curator's choice per seed (`curated_groups`). A registry study has no pool:
    its accuracies on the real groups, which the paper's curator chose, and no choice to show."""
    settings, study = open_study(study_params, results_dir)
    frame = _accuracies(study, study_params)
    if settings.source == "registry":  # the real CounterAnimal's groups are the curator's choice already (Sec. 2)
        no_choice = pd.DataFrame(columns=["class", *SELECTION_COLUMNS, "seed"])
        return settings, frame.assign(curator=frame["model"] == settings.curator), no_choice
    backgrounds, curator, groups = _curators_choice(settings, study)
    curated = pd.concat([curated_accuracies(backgrounds, groups), own_drops(backgrounds)], ignore_index=True)
    curated = curated.merge(frame[["model", "params_m", "tier"]].drop_duplicates("model"), on="model")
    return settings, curated.assign(curator=curated["model"] == curator), groups


def curated_groups(backgrounds: pd.DataFrame, curator: str, threshold: float = CURATION_THRESHOLD) -> pd.DataFrame:
    """Per seed, the curator's choice (`curation.select_groups` on its per-(class, background) accuracies, Sec. 2):
    each class's best (common) and worst (counter) background, kept where they differ by more than `threshold`
    points; one row per class and seed."""
    chosen = backgrounds[backgrounds["model"] == curator]
    if chosen.empty:
        raise ValueError(f"the curator {curator!r} has no run in this study")
    return pd.concat([select_groups(rank_backgrounds(run[["class", "background", "items", "accuracy"]]
                                                     .rename(columns={"items": "images"})), threshold).assign(seed=seed)
                      for seed, run in chosen.groupby("seed")], ignore_index=True)


def curated_class_drops(backgrounds: pd.DataFrame, groups: pd.DataFrame) -> pd.DataFrame:
    """Every run's common, counter and drop (%) per class on the curated groups of its seed (`curated_groups`, kept
    classes only), one row per (run, class)."""
    kept = groups[groups["kept"]].rename(columns={"common_background": "common", "counter_background": "counter"})
    pairs = kept.melt(id_vars=["seed", "class"], value_vars=list(GROUPS), var_name="group", value_name="background")
    scored = backgrounds.merge(pairs, on=["seed", "class", "background"])
    if scored.empty:  # no class kept
        return pd.DataFrame(columns=[*RUN_COLUMNS, "class", *METRICS])
    wide = scored.pivot_table(index=[*RUN_COLUMNS, "class"], columns="group", values="accuracy", sort=False)
    per_class = wide.assign(drop=wide["common"] - wide["counter"]).reset_index().rename_axis(columns=None)
    return per_class[[*RUN_COLUMNS, "class", *METRICS]]


def curated_accuracies(backgrounds: pd.DataFrame, groups: pd.DataFrame) -> pd.DataFrame:
    """Every run scored on the curated groups of its seed (`curated_groups`, kept classes only): class-balanced
    common, counter and drop (the mean of the kept classes' drops), in the `accuracies` schema."""
    per_class = curated_class_drops(backgrounds, groups)
    if per_class.empty:
        return pd.DataFrame(columns=[*RUN_COLUMNS, "metric", "value", "averaging"])
    means = per_class.groupby(RUN_COLUMNS, sort=False)[METRICS].mean()
    return (means.reset_index().melt(id_vars=RUN_COLUMNS, value_vars=METRICS, var_name="metric", value_name="value")
            .assign(averaging="balanced"))


def class_drops(study_params: str, results_dir: str) -> tuple[StudySettings, pd.DataFrame]:
    """Figs. 4 and 15's analogue: every run's common, counter and drop per class on the curator's groups (the
    miniature: `curated_class_drops` on its choice from the pool; a registry study: the real groups, which the
    paper's curator chose), with `curator`, `class_id` (the digit; a registry class's row of Table 2, matched by
    its ImageNet index, `evaluation.table02_imagenet_indices`), each model's `label` (`our_labels`) and the settings file's `tier`."""
    settings, study = open_study(study_params, results_dir)
    if settings.source == "registry":
        from .evaluation import table02_imagenet_indices

        frame = study.class_drops()
        ids = {index: class_id for class_id, index in table02_imagenet_indices().items()}
        frame = frame.assign(class_id=frame["target"].map(ids), curator=frame["model"] == settings.curator)
    else:
        backgrounds, curator, groups = _curators_choice(settings, study)
        frame = curated_class_drops(backgrounds, groups)
        frame = frame.assign(class_id=frame["class"].map(DIGIT_CLASS_NAMES.index), curator=frame["model"] == curator)
    return settings, frame.assign(label=our_labels(frame), tier=tier_of(study_params))


def own_drops(backgrounds: pd.DataFrame) -> pd.DataFrame:
    """Each run's drop on the groups its own model would choose (`curated_groups` with it as the curator), as
    metric `own_drop` in the `accuracies` schema: what selection adds to a model's drop (notes P7)."""
    own = [curated_accuracies(runs, curated_groups(runs, model)) for model, runs in backgrounds.groupby("model", sort=False)]
    own = pd.concat(own, ignore_index=True)
    return own[own["metric"] == "drop"].assign(metric="own_drop")


def precompute(params: Mapping[str, Any], artefacts: Collection[str]) -> int:
    """Compute the study's runs (`study_params`, `results_dir`) if a notebook of `artefacts` reads them;
    how many were computed by this process; and the controlled studies of Tables 7 and 8 (`coloredcoco`,
    `multicolored`)."""
    from .coloredcoco import precompute as precompute_coloredcoco
    from .multicolored import precompute as precompute_multicolored

    return (precompute_study(StudySettings.load, Study, params, artefacts, READS)
            + precompute_multicolored(params, artefacts) + precompute_coloredcoco(params, artefacts))


def candidate_setup(settings: StudySettings) -> str:
    """The label space our study scores in: all ten digits in the miniature (1 vs 10), ImageNet's 1 vs 1000 at `full`."""
    return "1 vs 10" if settings.source == "miniature" else "1 vs 1000"


def our_points(frame: pd.DataFrame, averaging: str = "balanced") -> pd.DataFrame:
    """One row per (model, seed): family, common, counter, drop (%), `data` and `backbone` (`_setup`), the
    marker columns of the paper's points (`params_m`: a stand-in's size as `run_study` gives it, a registry
    model's the paper's annotation of its backbone, `published.BACKBONE_PARAMS`; `data_m`: the pre-training
    images in millions, a registry model's `published.DATA_SIZE` of its data), `high_quality` (a family of
    `HQ_FAMILIES`), `kind` (the backbone name's leading letters: RN, ViT, tiny), `ladder` (Fig. 7: a CLIP whose
    pre-training data come with more than one backbone of its kind, so that OpenAI's ResNets and ViTs are two
    ladders as in the paper's count; Fig. 7's findings read a registry study's drawn models, `drawn_models`) and
    `base` (not a miniature CLIP on another backbone than `CLIP_BACKBONE`: the models of the data comparisons
    of Figs. 6, 8 and 9; every registry model)."""
    labels = [*RUN_COLUMNS, *(["curator"] if "curator" in frame else [])]
    wide = (frame[frame["averaging"] == averaging]
            .pivot_table(index=labels, columns="metric", values="value", sort=False, dropna=False).reset_index())
    wide = wide.dropna(subset=["common", "counter"])
    setup = wide.apply(_setup, axis=1, result_type="expand")
    wide = wide.assign(data=setup[0], backbone=setup[1], kind=setup[1].str.extract(r"^([A-Za-z]+)", expand=False))
    miniature = wide["images"] > 0
    sizes = wide["model"].map(frame.drop_duplicates("model").set_index("model")["params_m"])
    wide["params_m"] = sizes.where(miniature, wide["backbone"].map(BACKBONE_PARAMS))
    wide["data_m"] = (wide["images"] / 1e6).where(miniature, wide["data"].map(DATA_SIZE))
    wide["high_quality"] = wide["family"].isin(HQ_FAMILIES)
    clips = _clips(wide)
    wide["ladder"] = clips & (wide.groupby(["data", "kind"])["backbone"].transform("nunique") > 1)
    wide["base"] = ~(miniature & clips) | (wide["architecture"] == CLIP_BACKBONE)
    return wide


def _setup(row: pd.Series) -> tuple[str, str]:
    """A model's pre-training data and backbone: a miniature member's family, size and correlation and its
    stand-in; a registry model's from its Table 3/4 row ("CLIP-LAION400M-ViT/B/32" -> LAION400M, ViT/B/32;
    an ImageNet model's data are ImageNet-1K, as the paper's tables name them)."""
    if row["images"] > 0:
        return f"{row['family']} n={row['images']:g} p={row['correlation']:g}", str(row["architecture"])
    name = table_row(str(row["model"]))
    if not name.startswith("CLIP-"):
        return "ImageNet-1K", name
    _, data, backbone = name.split("-", 2)
    return data, backbone


# -- the quantities behind the paper's claims, each a function of one seed's points (NaN where undefined) --
def _clips(points: pd.DataFrame) -> pd.Series:
    return points["family"].str.startswith("CLIP")


def clip_drop(points: pd.DataFrame) -> float:
    """Mean drop of the CLIPs (every CLIP family)."""
    return float(points.loc[_clips(points), "drop"].mean())


def imagenet_drop(points: pd.DataFrame) -> float:
    """Mean drop of the supervised ("ImageNet") models."""
    return float(points.loc[points["family"] == "ImageNet", "drop"].mean())


def drop_gap(points: pd.DataFrame) -> float:
    """Mean CLIP drop minus mean ImageNet drop (> 0: the ImageNet models drop less)."""
    return clip_drop(points) - imagenet_drop(points)


def _mean_residual(reference: pd.DataFrame, others: pd.DataFrame) -> float:
    """Mean residual of `others` from the linear fit of counter on common through `reference`; NaN
    if either is empty or the reference's common accuracies do not vary."""
    ref = reference[["common", "counter"]].to_numpy(dtype=float)
    oth = others[["common", "counter"]].to_numpy(dtype=float)
    if len(ref) < 2 or len(oth) == 0 or np.ptp(ref[:, 0]) == 0:
        return float("nan")
    return float(residuals(ref, oth, "linear").mean())


def imagenet_residual(points: pd.DataFrame) -> float:
    """Mean residual of the ImageNet models from the CLIP line (all CLIP families jointly), points."""
    return _mean_residual(points[_clips(points)], points[points["family"] == "ImageNet"])


def high_quality_residual(points: pd.DataFrame) -> float:
    """Mean residual of the high-quality-data CLIPs from the line of the other CLIPs, points."""
    return _mean_residual(points[points["family"] == "CLIP"], points[points["family"].isin(HQ_FAMILIES)])


def interval_over_seeds(points: pd.DataFrame, statistic: Callable[[pd.DataFrame], float]) -> tuple[float, Interval]:
    """The statistic's mean over seeds with a t-interval over seeds; with one seed, the statistic on
    every model with a bootstrap over models (over its units for a `UnitMean`: ladders, steps)."""
    seeds = sorted(points["seed"].unique())
    if len(seeds) >= 2:
        values = [statistic(points[points["seed"] == s]) for s in seeds]
        return float(np.mean(values)), mean_interval(values, "seeds")
    if isinstance(statistic, UnitMean):
        units = statistic.units(points)
        if not len(units):
            return float("nan"), undefined_interval(f"no {statistic.unit}")
        return float(np.mean(units)), bootstrap_interval(units, lambda u: float(np.mean(u)), resamples=500,
                                                         unit=statistic.unit)
    rows = np.arange(len(points))
    return statistic(points), bootstrap_interval(rows, lambda index: statistic(points.iloc[index]), resamples=500)


# (quantity, statistic, the paper's claim, what the paper shows, the ledger claim it bears on)
CLAIMS: tuple[tuple[str, Callable[[pd.DataFrame], float], str, str, str], ...] = (
    ("mean CLIP drop, common − counter (points)", clip_drop,
     "the counter group is harder than the common group for CLIPs (Sec. 5.2)", "every CLIP of Table 3 drops, 6.56 to 30.18",
     "clips-drop"),
    ("mean ImageNet-model drop (points)", imagenet_drop,
     "the spurious features also hurt the ImageNet models (Table 4)", "every ImageNet model drops, 7.65 to 20.31", ""),
    ("mean CLIP drop − mean ImageNet drop (points)", drop_gap,
     "ImageNet models are more robust than CLIPs: smaller drops (Sec. 5.3, Fig. 9)", "Tables 3-4", "imagenet-more-robust"),
    ("mean residual of the ImageNet models from the CLIP line (linear fit, points)", imagenet_residual,
     "ImageNet models are not below the CLIP line: more robust at equal common accuracy (Fig. 2)",
     "+2.2 points, 95 % bootstrap above 0 (figure02's effective-robustness table)", "imagenet-effective-robustness"),
    ("mean residual of the CLIP-HQ models from the other CLIPs' line (linear fit, points)", high_quality_residual,
     "CLIPs trained on high-quality data are more robust (Sec. 5.2, Fig. 8)",
     "+0.8 points, interval straddles 0 (figure02's effective-robustness table)", "high-quality-effective-robustness"),
)


def judged_over_seeds(points: pd.DataFrame, claims: Iterable[tuple[str, Callable[[pd.DataFrame], float], str, str, str,
                                                                     str]]) -> Findings:
    """Each `(quantity, statistic, claim, direction, what the paper shows, ledger claim)` judged on our points
    against 0 by `interval_over_seeds`."""
    out = []
    for quantity, statistic, claim, direction, paper, claim_id in claims:
        estimate, interval = interval_over_seeds(points, statistic)
        out.append(Finding(quantity, estimate, interval, claim, direction, 0.0, paper, claim_id))
    return Findings(out)


def findings(points: pd.DataFrame) -> Findings:
    """Each claim of `CLAIMS` judged on our points (`our_points`), `> 0` being what the claim predicts."""
    return judged_over_seeds(points, ((q, statistic, claim, ">", paper, i) for q, statistic, claim, paper, i in CLAIMS))


def our_labels(points: pd.DataFrame) -> pd.Series:
    """Short names of our models for a figure's key: "CLIP n=500", "CLIP-HQ n=1000", "CLIP n=1000 (large)"
    (a backbone other than `CLIP_BACKBONE`), "ViT n=500 (supervised)" for the miniature's zoo (the correlation is
    the family's); a registry model by its row of Tables 3-4 (`table_row`)."""
    def name(row: pd.Series) -> str:
        if not row["images"] > 0:
            return table_row(str(row["model"]))
        kind = row["architecture"].removeprefix("tiny_")
        if row["family"].startswith("CLIP"):
            rung = row["architecture"].removeprefix(CLIP_BACKBONE).removeprefix("_")
            role = "curator" if bool(row.get("curator", False)) else ""
            notes = ", ".join(note for note in (rung, role) if note)
            return f"{row['family']} n={row['images']:g}" + (f" ({notes})" if notes else "")
        return f"{STANDIN_NAMES.get(kind, kind)} n={row['images']:g} (supervised)"

    return points.apply(name, axis=1)


def table_row(key: str) -> str:
    """The Table 3 or 4 row a registry model stands for: its paper label without the checkpoint's tag
    ("CLIP-LAION2B-ViT/B/16 S34B B88K" -> "CLIP-LAION2B-ViT/B/16")."""
    from ..models.registry import spec

    return spec(key).paper_label.split(" ")[0]


def _stated(finding: Finding, unit: str = "points") -> str:
    """`**verdict**: estimate unit (95 % interval low to high)` of one finding (no numbers where the run
    leaves it undefined, e.g. a family whose common accuracies do not vary)."""
    if finding.verdict == "not_checkable":
        return "**not checkable** on this run (undefined: a line needs varying common accuracies, an interval finite values)"
    return (f"**{finding.verdict.replace('_', ' ')}**: {finding.estimate:.1f} {unit} (95 % interval "
            f"{finding.interval.low:.1f} to {finding.interval.high:.1f})")


# -- Figs. 6-9 as bars: the comparisons of our zoo that have an analogue in the paper's panels --------------
OUR_BARS: dict[str, dict[str, tuple[str, list[str]]]] = {  # figure -> panel -> (which of our models, drawn in order of)
    "figure05": {"(a) the curator's data, image tower varies": ("family == 'CLIP' and ladder", ["params_m"]),
                 "(b) the curator's backbone, data vary": ("base and family in ('CLIP', 'CLIP-HQ')", ["family", "images"])},
    "figure06": {"tiny CLIP, pre-training size n varies": ("family == 'CLIP' and base", ["images"]),
                 "CLIP-HQ (weaker correlation), n varies": ("family == 'CLIP-HQ'", ["images"])},
    "figure07": {"tiny CLIP, image tower grows at fixed n": (
        "family == 'CLIP' and ladder", ["images", "params_m"])},
    "figure08": {"CLIP against CLIP-HQ at each size n": (
        "family in ('CLIP', 'CLIP-HQ') and base", ["images", "family"])},
    "figure09": {"ViT image towers: CLIP against supervised ViT": (
        "(family == 'CLIP' and base) or architecture == 'tiny_vit'", ["family", "images"])},
}


def _bar_panels(artefact: str, settings: StudySettings, named: pd.DataFrame) -> dict[str, list[str]]:
    """The models (labels) each of our panels compares, in order: for a registry study the paper's panels
    (`figures.PANELS`, here `PAPER_BARS`) with the rows it evaluated, for the miniature `OUR_BARS`; empty panels left out."""
    if settings.source == "registry":
        ran = set(named["label"])
        panels = {title: [m for m in models if m in ran] for title, models in PAPER_BARS[artefact].items()}
    else:
        panels = {title: list(dict.fromkeys(named.query(query).sort_values(order, kind="stable")["label"]))
                  for title, (query, order) in OUR_BARS[artefact].items()}
    panels = {title: models for title, models in panels.items() if models}
    if not panels:
        raise ValueError(f"{artefact}: no model of this study is in the comparisons it draws; add such models to "
                         "the study's settings (`models`)")
    return panels


def our_bars(artefact: str, settings: StudySettings, frame: pd.DataFrame) -> tuple[Figure, pd.DataFrame]:
    """Our study in the artefact's bar panels (`_bar_panels`), drawn by `figures.bar_panels` as the paper's are:
    each model's mean over seeds, black bars the range over seeds, named as in the scatter keys (`our_labels`);
    `(figure, data)`, the data with `source` ours."""
    from .figures import bar_panels

    points = our_points(frame)
    named = points.assign(label=our_labels(points))
    table = named.groupby(["label", "family"], sort=False)[METRICS].agg(["mean", "min", "max"])
    means = table.xs("mean", axis=1, level=1).reset_index("family")
    ranges = pd.concat({f"{m} {end}": table[(m, how)] for m in METRICS for end, how in (("low", "min"), ("high", "max"))},
                       axis=1).droplevel("family")
    fig, data = bar_panels(means, _bar_panels(artefact, settings, named), candidate_setup(settings), str, ranges)
    fig.suptitle(f"ours ({frame['tier'].iloc[0]}, {points['seed'].nunique()} seeds; black: the range over seeds)",
                 fontsize=10)
    fig.tight_layout()
    return fig, data.rename(columns={"label": "model"}).assign(source="ours")


# -- Figs. 4 and 15 as class-wise bars: the curator's drops, and the other CLIPs' on its groups --------------
CLASS_DROP_PANELS: dict[str, tuple[list[str], str]] = {  # figure -> (the paper's panels, Tables 15-16: the models a
    # registry study draws where it ran them; which of the miniature's models, a query on `class_drops`)
    "figure04": (["CLIP-LAION400M-ViT/B/32"], "curator"),
    "figure15": (["CLIP-LAION400M-ViT/B/16", "CLIP-LAION400M-ViT/B/32", "CLIP-LAION400M-ViT/L/14",
                  "CLIP-LAION2B-ViT/B/32", "CLIP-OpenAI-ViT/B/32"], "curator or family in ('CLIP', 'CLIP-HQ')")}


def our_class_drops(artefact: str, settings: StudySettings, frame: pd.DataFrame) -> tuple[Figure, pd.DataFrame]:
    """Our `class_drops` drawn as Fig. 4 (the curator) or Fig. 15 (the CLIPs, the curator first, then in the study's
    order) by the paper's function (`figures.class_drop_panels`): each class's mean drop over seeds, black bars the
    range over seeds; which models: `CLASS_DROP_PANELS` (a registry study: the paper's that it ran). `(figure,
    data)`, the data with `source` ours."""
    from .figures import class_drop_panels

    paper_models, query = CLASS_DROP_PANELS[artefact]
    chosen = frame[frame["label"].isin(paper_models)] if settings.source == "registry" else frame.query(query)
    chosen = chosen.sort_values("curator", ascending=False, kind="stable")  # then the study's order of its models
    data = (chosen.groupby(["label", "class_id"], sort=False)["drop"].agg(value="mean", low="min", high="max")
            .reset_index().rename(columns={"label": "model"}))
    models = list(dict.fromkeys(data["model"]))
    if not models:
        raise ValueError(f"{artefact}: no model of this study is among those it draws; add them to the study's `models`")
    seeds = frame["seed"].nunique()
    xlabel = "class ID (the digit)" if settings.source == "miniature" else "class ID (Table 2)"
    fig = class_drop_panels(data, models, f"ours ({frame['tier'].iloc[0]}): drop on the curator's groups, "
                            f"{candidate_setup(settings)}, mean of {seeds} seed(s)", xlabel)
    return fig, data.assign(source="ours")


def size_drop_change(high_quality: bool) -> Callable[[pd.DataFrame], float]:
    """For the CLIPs on high-quality data or on the others (of the data comparisons, `base`): per backbone, the
    drop at the largest pre-training size minus at the smallest (each size's mean), mean over the backbones
    with two sizes or more (one seed's points); NaN if none."""
    def statistic(points: pd.DataFrame) -> float:
        chosen = points[_clips(points) & points["base"] & (points["high_quality"] == high_quality)]
        by_size = chosen.groupby(["backbone", "data_m"])["drop"].mean()
        changes = [d.iloc[-1] - d.iloc[0] for _, d in by_size.groupby(level="backbone") if len(d) >= 2]
        return float(np.mean(changes)) if changes else float("nan")
    return statistic


def quality_gap(metric: str) -> Callable[[pd.DataFrame], float]:
    """The high-quality-data CLIPs' `metric` minus the other CLIPs' (of the data comparisons, `base`), mean over
    the (backbone, pre-training size) cells both have (one seed's points); NaN if none."""
    def statistic(points: pd.DataFrame) -> float:
        by = points[_clips(points) & points["base"]].groupby(["high_quality", "backbone", "data_m"])[metric].mean()
        if not {True, False} <= set(by.index.get_level_values("high_quality")):
            return float("nan")
        gap = (by.xs(True) - by.xs(False)).dropna()
        return float(gap.mean()) if len(gap) else float("nan")
    return statistic


def _ladders(points: pd.DataFrame) -> list[np.ndarray]:
    """The drops up each CLIP ladder (`ladder`: a pre-training data and backbone kind with more than one backbone,
    among `points`), smallest backbone first (`params_m`, ties by backbone name), one seed's points."""
    ladder = points[(points["family"] == "CLIP") & points["ladder"]].sort_values(["params_m", "backbone"])
    return [run["drop"].to_numpy() for _, run in ladder.groupby(["data", "kind"]) if run["backbone"].nunique() > 1]


@dataclass(frozen=True)
class UnitMean:
    """A statistic of one seed's points that is the mean of per-unit values (`units`: one per ladder, or per step up
    a ladder); NaN without units. With one seed its interval is a bootstrap over those units (`interval_over_seeds`):
    resampling the models instead would break a ladder apart (a rung drawn twice is a step of no change)."""

    units: Callable[[pd.DataFrame], np.ndarray]
    unit: str  # what one unit is, for the interval's text

    def __call__(self, points: pd.DataFrame) -> float:
        values = self.units(points)
        return float(np.mean(values)) if len(values) else float("nan")


def _ladder_ends(points: pd.DataFrame) -> np.ndarray:
    """Per ladder (`_ladders`): the drop with the largest image tower minus with the smallest."""
    return np.array([drops[-1] - drops[0] for drops in _ladders(points)])


def _falling_steps(points: pd.DataFrame) -> np.ndarray:
    """Per step up a ladder (`_ladders`): 1/2 where the drop falls, −1/2 where it does not."""
    return np.concatenate([(np.diff(d) < 0) - 0.5 for d in _ladders(points)] or [np.array([])])


# The CLIPs' drop with the largest image tower minus with the smallest, mean over the ladders (one seed's points).
backbone_drop_change = UnitMean(_ladder_ends, "ladders")
# The share of the steps up the ladders at which the drop falls, minus one half (the paper's count: the drop falls
# at most steps).
falling_step_share = UnitMean(_falling_steps, "steps up the ladders")


def _curator_relatives(points: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The CLIPs other than the curator that share its pre-training data but not its backbone, and those that
    share its backbone but not its data (one seed's curated points, `our_points`' `data` and `backbone`)."""
    clips = points[_clips(points)]
    curator, others = clips[clips["curator"]], clips[~clips["curator"]]
    if curator.empty:
        return others.iloc[:0], others.iloc[:0]
    same_data, same_backbone = (others[c] == curator[c].iloc[0] for c in ("data", "backbone"))
    return others[same_data & ~same_backbone], others[same_backbone & ~same_data]


def other_backbone_drop(points: pd.DataFrame) -> float:
    """Mean drop, on the curated groups, of the CLIPs with the curator's data and another backbone (Fig. 5a)."""
    return float(_curator_relatives(points)[0]["drop"].mean())


def other_data_drop(points: pd.DataFrame) -> float:
    """Mean drop, on the curated groups, of the CLIPs with the curator's backbone and other data (Fig. 5b)."""
    return float(_curator_relatives(points)[1]["drop"].mean())


def self_selection_gain(points: pd.DataFrame) -> float:
    """Mean over the CLIPs other than the curator of (drop on the groups it would choose itself − drop on the
    curator's groups): how much choosing the groups with a model inflates that model's drop (notes P7); NaN
    without `own_drop`."""
    if "own_drop" not in points:
        return float("nan")
    others = points[_clips(points) & ~points["curator"]]
    return float((others["own_drop"] - others["drop"]).mean())


# figure -> (quantity, statistic, the paper's claim, direction, what the paper shows, the ledger claim it bears on)
BAR_CLAIMS: dict[str, tuple[tuple[str, Callable[[pd.DataFrame], float], str, str, str, str], ...]] = {
    "figure05": (
        ("mean drop on the curated groups of the CLIPs with the curator's data and another image tower (points)",
         other_backbone_drop, "backgrounds chosen with one CLIP also hurt other backbones on its data (Fig. 5a)", ">",
         "LAION400M ViT/B/16 and ViT/L/14 drop 20.94 and 17.59 (Table 3)", "laion400m-backbones-drop"),
        ("mean drop on the curated groups of the CLIPs with the curator's backbone and other data (points)",
         other_data_drop, "backgrounds chosen with one CLIP also hurt CLIPs pre-trained on other data (Fig. 5b)", ">",
         "LAION2B and OpenAI ViT/B/32 drop 24.20 and 23.51 (Table 3)", "vitb32-datasets-drop"),
        ("mean over the other CLIPs of (drop on the groups each would choose − on the curator's) (points)",
         self_selection_gain, "(notes P7, not the paper's) groups chosen by a model inflate that model's drop", ">",
         "the curator CLIP-LAION400M-ViT/B/32 drops 30.18, the most of Table 3's 28 CLIPs (next: 24.20)", "")),
    "figure06": tuple(
        (f"drop at the largest pre-training size − at the smallest, CLIPs on {kind} data, per backbone (points)",
         size_drop_change(high_quality),
         "scaling up the pre-training data does not necessarily reduce the drop (read: it does not fall)", ">",
         "LAION2B (2B) drops more than DataComp1B (1.4B) at both backbones (Table 3)", "data-scale")
        for kind, high_quality in (("ordinary", False), ("high-quality", True))),
    "figure07": (
        ("drop of the CLIP with the largest image tower − with the smallest, at fixed n (points)", backbone_drop_change,
         "larger CLIP backbones are more robust: smaller drops (Sec. 5.2, Fig. 7)", "<",
         "the drop falls at 8 of 10 steps up the LAION2B and OpenAI ladders (Table 3)", "backbone-scale"),
        ("share of the steps up the CLIP ladder at which the drop falls, − 1/2 (share of steps)", falling_step_share,
         "a clear trend: larger CLIP backbones drop less at most steps (Sec. 5.2, Fig. 7)", ">",
         "the drop falls at 8 of 10 steps up the LAION2B and OpenAI ladders (Table 3)", "backbone-scale")),
    "figure08": (
        ("mean drop of the high-quality-data CLIPs − of the others at the same backbone and pre-training size (points)",
         quality_gap("drop"),
         "CLIPs trained on high-quality data show smaller drops (Sec. 5.2)", "<",
         "DataComp / DFN rows drop less per backbone (Table 3)", "high-quality-data"),
        ("mean common accuracy of the high-quality-data CLIPs − of the others at the same backbone and pre-training "
         "size (points)", quality_gap("common"),
         "CLIPs trained on high-quality data show better performance (Sec. 5.2)", ">",
         "DataComp / DFN rows more accurate per backbone (Table 3)", "high-quality-data")),
}


def positive_class_share(frame: pd.DataFrame) -> float:
    """Over the CLIPs other than the curator, the mean share of classes whose drop on the curator's groups is positive,
    minus one half (one seed's `class_drops`); NaN without such a CLIP."""
    others = frame[_clips(frame) & ~frame["curator"]]
    if others.empty:
        return float("nan")
    return float(others.groupby("model")["drop"].apply(lambda drops: (drops > 0).mean()).mean() - 0.5)


def class_findings(frame: pd.DataFrame) -> Findings:
    """Fig. 15's claim judged on our `class_drops` (a registry study's: on the CLIPs Fig. 15 draws, `CLASS_DROP_PANELS`):
    the other CLIPs' share of positive class drops above one half, by its interval over seeds (a bootstrap over the
    rows for one seed)."""
    return judged_over_seeds(_paper_rows(frame, CLASS_DROP_PANELS["figure15"][0]), ((
        "mean share of classes with a positive drop on the curator's groups, CLIPs other than the curator, − 1/2",
        positive_class_share, "the trend of decline is preserved class-wise in the other CLIPs (App. E, Fig. 15)", ">",
        "more than half of the 45 class drops are positive for each of Tables 15-16's five CLIPs", "classwise-trends"),))


def study_points(artefact: str, study_params: str, results_dir: str) -> pd.DataFrame:
    """Our points the findings of `artefact` read: each run's drop per class on the curated groups (`CLASS_WISE`,
    `class_drops`), or its accuracies (`our_points`) on the curated groups (`CURATED`, `curation`) or the designed ones."""
    if artefact in CLASS_WISE:
        return class_drops(study_params, results_dir)[1]
    frame = curation(study_params, results_dir)[1] if artefact in CURATED else run_study(study_params, results_dir)[1]
    return our_points(frame)


def _paper_rows(frame: pd.DataFrame, models: Collection[str]) -> pd.DataFrame:
    """A registry study's rows of the paper's `models` (their Table 3/4 rows, `table_row`); the miniature's rows as
    they are (its own comparisons)."""
    if (frame["images"] > 0).all():
        return frame
    return frame[(frame["images"] > 0) | frame["model"].map(table_row).isin(models)]


def drawn_models(artefact: str, points: pd.DataFrame) -> pd.DataFrame:
    """A registry study's points of the models the paper's figure draws (`figures.PANELS`: Fig. 6 leaves out
    ViT/B/32 and LAION400M, Fig. 7 OpenAI's ViT/B/32, ...), so that its claims are read on the paper's comparison;
    the miniature's points as they are (its own comparisons, `OUR_BARS`)."""
    return _paper_rows(points, {model for models in PAPER_BARS[artefact].values() for model in models})


def bar_findings(artefact: str, points: pd.DataFrame) -> Findings:
    """The claims of `BAR_CLAIMS[artefact]` judged on our points (`drawn_models`), each by its interval over seeds."""
    return judged_over_seeds(drawn_models(artefact, points), BAR_CLAIMS[artefact])


# the findings each notebook prints on our points (`study_points`); the ledger judges claims by them
STUDY_FINDINGS: dict[str, Callable[[pd.DataFrame], Findings]] = {
    "figure02": findings, **{a: partial(bar_findings, a) for a in BAR_CLAIMS}, "figure15": class_findings}


def verdict_text(points: pd.DataFrame, found: Findings) -> str:
    """The "Verdict on our run" of Figs. 2, 13 and 14 as Markdown bullets, one per claim of `CLAIMS`, every
    number computed from our points (`our_points`) and their findings (`findings`), the per-model means
    over seeds named as in the figures' keys (`our_labels`)."""
    clip, imagenet, gap, residual, high_quality = found
    models = (points.assign(label=our_labels(points)).groupby(["family", "label"], sort=False)[["common", "counter", "drop"]]
              .mean().reset_index())
    clips, supervised = models[_clips(models)], models[models["family"] == "ImageNet"]
    clip_drops = ", ".join(f"{r.drop:.0f} ({r.label})" for r in clips.itertuples())
    supervised_text = "; ".join(f"{r.label} {r.common:.0f} / {r.counter:.0f} % (drop {r.drop:.0f})"
                                for r in supervised.itertuples())
    more_robust = {
        "contradicted": "With the data held equal, the contrastive objective with class-name captions leans on the "
                        "background less than cross-entropy does here, so the paper's finding cannot come from the "
                        "objective alone in the toy; it fits the paper's own conjecture that LAION's spurious "
                        "correlations differ from ImageNet's, which the toy does not model (both families see the same "
                        "correlation).",
        "supported": "With the data held equal the supervised models lean on the background less, as the paper finds; "
                     "in the toy that can only come from the objective.",
    }.get(gap.verdict, "The toy does not tell the two families apart on this quantity.")
    steep = (" (a steep CLIP line makes residuals near 100 % common accuracy large)"
             if residual.verdict != "not_checkable" else "")
    return "\n".join([
        f"- **The counter group is harder for CLIPs**, {_stated(clip)} mean drop over seeds; per model (mean over "
        f"seeds): {clip_drops}. Where a CLIP that learns the digits better drops less, its common and counter "
        "accuracy move together along a line: the paper's accuracy on the line.",
        f"- **The shortcut hurts the supervised models too**, {_stated(imagenet)} mean drop. Common / counter "
        f"accuracy per supervised model: {supervised_text}.",
        f"- **\"ImageNet models are more robust\" (smaller drops; not below the CLIP line).** CLIP drop minus "
        f"supervised drop, {_stated(gap)}; the supervised models' mean residual from the CLIP line, "
        f"{_stated(residual)}{steep}. {more_robust}",
        f"- **High-quality (weaker-correlation) data make CLIPs more robust**, {_stated(high_quality)} above the "
        f"other CLIPs' line, where the paper's own DC/DFN numbers give {CLAIMS[4][3].split(' (')[0]}. In the toy "
        "\"high quality\" means exactly a weaker spurious correlation, which is what the paper suggests filtering "
        "achieves; real filtering need not.",
    ])


def our_panel(artefact: str, settings: StudySettings, frame: pd.DataFrame) -> tuple[pd.DataFrame, Figure, Findings]:
    """The artefact's panels from the paper's numbers (Fig. 2: both, 1 vs 1000 and 1 vs 20) and ours from
    our study beside them, each drawn by `figures.scatter_panel` on the full 0-100 % scale (Figs. 13 and 14:
    every point numbered, with a key beside each panel): `(data, figure, findings)`, data being the point sets
    with a `source` column (paper / ours)."""
    if artefact not in PANELS:
        raise KeyError(f"no our-run panel for {artefact!r}; panels exist for {list(PANELS)}")
    panels, annotate = SCATTERS[artefact]
    papers = [scatter_points(clip_table, imagenet_table, with_lvlms).assign(setup=setup, source="paper")
              for setup, clip_table, imagenet_table, with_lvlms in panels]
    points = our_points(frame)
    tier, seeds = frame["tier"].iloc[0], points["seed"].nunique()
    candidates = candidate_setup(settings)
    ours = points.assign(setup=candidates, source="ours")
    fig, axes, keys = scatter_axes(len(panels) + 1, annotate, 7.5 if annotate else 5.2)
    letters = [f" ({chr(ord('a') + i)})" if len(panels) > 1 else "" for i in range(len(panels))]
    for ax, data, letter, panel in zip(axes, papers, letters, panels):
        scatter_panel(ax, data, panel[0])
        ax.set_title(f"paper{letter}: {paper_panel_title(*panel[1:], panel[0])}\n"
                     "lines: CLIPs jointly, ImageNet models", fontsize=9)
    scatter_panel(axes[-1], ours, candidates)
    axes[-1].set_title(f"ours ({tier}, {points['model'].nunique()} models x {seeds} seeds, {candidates})\n"
                       "lines: CLIPs jointly, ImageNet analogues", fontsize=9)
    for ax in axes:  # all on the full percentage scale, so the panels compare by eye (and a steep
        ax.set(xlim=(-2, 102), ylim=(-2, 102))  # line's band cannot hide our points)
    number_panels(fig, axes, keys, [*(p.assign(label=p["model"]) for p in papers), ours.assign(label=our_labels(ours))],
                  "label")
    return pd.concat([*papers, ours], ignore_index=True), fig, findings(points)
