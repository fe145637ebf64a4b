"""Our run of Seq-to-Final's analysis figures (Sec. 4.1 Fig. 1; App. F Fig. 9; App. G Figs 10-17), through
the results store; torch-free (the runs compute in `lib.seq_to_final.geometry_runs`).

Settings: `params/<tier>/seq_to_final/geometry.yaml` (`GeometrySettings`, read strictly: an unknown,
missing or mistyped key, or an unknown sequence, architecture, method, protocol key or reading, stops
with one line; `load_checked` also builds the protocol's `methods.Settings`, checking its values). Runs (`GeometryStudy.jobs`):
- one "path" run per (sequence, architecture) of `path_runs` and seed: the interpolation paths of
  `path_methods` (Figs 1, 10-15); the run on (`geometry_sequence`, `geometry_architecture`) also holds
  the weight projections (Fig. 16) and the SVCCA similarities (Fig. 17);
- one "regularisation" run per seed: the joint model's final validation accuracy at each
  `adjacent_weights` λ_adj, with ERM on the final step and on all steps (Fig. 9).
Every run returns rows of `FRAME_COLUMNS` (columns an analysis does not use are empty).

Readings: `path_shapes` (per path: its start and end accuracy, the rise end − start and the barrier,
the largest drop of the path below the straight line between its endpoints; `path_readings` judges the
text's statements about the paths on them); `regularisation_findings`, `trajectory_findings`: the text's
statements about Figs 9 and 16-17, judged by a t-interval over the seeds.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..findings import Finding, Findings, mean_interval
from ..params import ParamsError, SettingsFile
from ..store import RunContext, StageCache, StoredRuns, precompute_study
from .sampler import SEQUENCES, variable_length_sizes
from .sequence import POOLS, SequenceSpec, pool_error, scaling_config, synthetic_spec, variable_length_spec
from .faces import PORTRAITS_SEQUENCE, check_decades, decade_spec
from .study import PROTOCOL_KEYS, SUBPOPULATION_SEQUENCES, VARIABLE_PREFIX, protocol_settings
from .tables import ARCHITECTURES, PAPER

if TYPE_CHECKING:
    from .sequence import DecadeSpec

TRAJECTORY_METHODS = ("FT", "SFT", "JM", "LP-FT", "ST-1", "JST-1")  # `geometry_runs.TRAJECTORIES`
BATCHNORM_READINGS = ("code", "interpolated", "recomputed")  # `interpolation_paths.STATE_READINGS`
PROJECTION_READINGS = ("code", "length")
# Enters every path run's store key, so a path of older code is never read back. 2: a side-tuned model's frozen
# BatchNorms are re-estimated under "recomputed" (they had kept the reset statistics, mean 0 and variance 1).
PATH_REVISION = 2
ENTIRE_READINGS = ("layer_mean", "concatenated")
ARTEFACTS = ("claims", "figure01", "figure09", "figure10", "figure11", "figure12", "figure13", "figure14", "figure15",
             "figure16", "figure17")
FRAME_COLUMNS = ("sequence", "architecture", "seed", "analysis", "method", "step", "alpha", "accuracy",
                 "batchnorm", "lambda_adj", "layer", "x", "y")


@dataclass(frozen=True)
class GeometrySettings(SettingsFile):
    """One tier's analysis runs, as written in `params/<tier>/seq_to_final/geometry.yaml`.

    Data as in `study.StudySettings`: `pool`, `subpopulation_pool`, `sizes` (train+validation per step of
    the synthetic sequences), `test_size`, `image_size`, `variable_length_scale` (Table 3's sizes times it
    for `rotation_<n>`), `data_seed`; `seeds`: training seeds; `protocol`: fields of `methods.Settings`
    that differ from the official defaults (`joint` as {lr, weight_decay, dropout}); `portraits`: the sequence
    `portraits` (Fig. 15) as {pool, scale, image_size, input_scaling} (`faces.decade_spec`: the real decades or the
    stand-in; `sequence.INPUT_SCALINGS`).
    Paths: `path_runs` maps a sequence to its architectures, `path_methods` (of `TRAJECTORY_METHODS`),
    `path_points` evenly spaced s in [0, 1] (the paper's 101), `batchnorms`: the BatchNorm readings of the
    paths (`interpolation_paths`), each drawn, the first solid and the one the findings judge, the others dashed.
    Fig. 9: `regularisation_sequence`, `regularisation_architecture`, `adjacent_weights`.
    Figs 16-17: `geometry_sequence`, `geometry_architecture`, `projection_reading` ("code": the signed
    scalar projection, or "length"), `svcca_entire` ("concatenated" as the text, "layer_mean" as the code)."""

    pool: str
    subpopulation_pool: str
    sizes: list[int]
    test_size: int
    image_size: int
    variable_length_scale: float
    data_seed: int
    seeds: list[int]
    protocol: dict
    path_runs: dict
    path_methods: list[str]
    path_points: int
    batchnorms: list[str]
    regularisation_sequence: str
    regularisation_architecture: str
    adjacent_weights: list[float]
    geometry_sequence: str
    geometry_architecture: str
    projection_reading: str
    svcca_entire: str
    portraits: dict

    def validate(self, path: Path | str) -> None:
        """Check every name against what the code knows, before any compute (torch-free)."""
        sequences = [*self.path_runs, self.regularisation_sequence, self.geometry_sequence]
        architectures = [a for archs in self.path_runs.values() for a in (archs if isinstance(archs, list) else [archs])]
        checks = [
            ("sequence", sequences, set(SEQUENCES) | {f"{VARIABLE_PREFIX}{n}" for n in variable_length_sizes()}
             | {PORTRAITS_SEQUENCE}),
            ("architecture", [*architectures, self.regularisation_architecture, self.geometry_architecture],
             set(ARCHITECTURES)),
            ("path method", self.path_methods, set(TRAJECTORY_METHODS)),
            ("protocol key", list(self.protocol), set(PROTOCOL_KEYS)),
            ("batchnorm reading", self.batchnorms, set(BATCHNORM_READINGS)),
            ("projection reading", [self.projection_reading], set(PROJECTION_READINGS)),
            ("svcca_entire reading", [self.svcca_entire], set(ENTIRE_READINGS)),
        ]
        for what, names, known in checks:
            unknown = [name for name in names if name not in known]
            if unknown:
                raise ParamsError(f"{path}: unknown {what} {unknown}; known: {sorted(known)}")
        if not all(isinstance(archs, list) for archs in self.path_runs.values()):
            raise ParamsError(f"{path}: path_runs must map each sequence to a list of architectures")
        for pool in (self.pool, self.subpopulation_pool):
            if pool not in POOLS:
                raise ParamsError(f"{path}: {pool_error(pool)}")
        if not self.batchnorms or len(set(self.batchnorms)) < len(self.batchnorms):
            raise ParamsError(f"{path}: batchnorms must name at least one reading, each once, got {self.batchnorms}")
        if self.path_points < 2:
            raise ParamsError(f"{path}: path_points must be at least 2 (the two endpoints), got {self.path_points}")
        try:
            check_decades(self.portraits, self.protocol)
            [self.spec(name) for name in sequences]
        except (TypeError, ValueError, KeyError) as error:
            raise ParamsError(f"{path}: {error}") from None

    @property
    def device(self) -> str:
        return self.protocol.get("device", "cpu")

    @property
    def alphas(self) -> list[float]:
        """The interpolation coefficients s, evenly spaced from 0 to 1 (the paper's 0, .01, …, 1 at 101)."""
        return [round(float(s), 6) for s in np.linspace(0.0, 1.0, self.path_points)]

    def spec(self, sequence: str) -> SequenceSpec | DecadeSpec:
        """What to draw for a sequence name."""
        if sequence == PORTRAITS_SEQUENCE:
            return decade_spec(self.portraits, self.data_seed)
        options = {"image_size": self.image_size, "seed": self.data_seed}
        if sequence.startswith(VARIABLE_PREFIX):
            return variable_length_spec(int(sequence[len(VARIABLE_PREFIX):]), self.pool, self.test_size,
                                        self.variable_length_scale, **options)
        pool = self.subpopulation_pool if sequence in SUBPOPULATION_SEQUENCES else self.pool
        return synthetic_spec(sequence, pool, self.sizes, self.test_size, **options)


def load_checked(path: str | Path) -> GeometrySettings:
    """`GeometrySettings.load`, then the protocol's values turned into `methods.Settings` (imports
    torch: the runner's check before any notebook starts, and the tests)."""
    settings = GeometrySettings.load(path)
    try:
        protocol_settings(settings.protocol)
    except (TypeError, ValueError) as error:
        raise ParamsError(f"{path}: protocol: {error}") from None
    return settings


def _compute(function: str, spec: SequenceSpec, protocol: dict, labels: dict[str, Any], **kwargs: Any) -> pd.DataFrame:
    from . import geometry_runs  # torch only when a run is computed

    frame = getattr(geometry_runs, function)(spec, settings=protocol_settings(protocol), **kwargs)
    return frame.assign(**labels).reindex(columns=list(FRAME_COLUMNS))


class GeometryStudy(StoredRuns):
    """The analysis runs of one tier, through the results store."""

    paper = PAPER
    settings: GeometrySettings

    def _config(self, analysis: str, sequence: str, architecture: str, seed: int, **extra: Any) -> dict[str, Any]:
        spec = self.settings.spec(sequence)
        return {"study": f"{PAPER}_geometry", "analysis": analysis, "sequence": sequence, "pool": spec.pool,
                "entries": list(spec.entries), "sizes": list(spec.sizes), "test_size": spec.test_size,
                "image_size": spec.image_size, "data_seed": spec.seed, "architecture": architecture, "seed": seed,
                "protocol": self.settings.protocol, **scaling_config(spec), **extra}

    def jobs(self) -> list[tuple[dict[str, Any], Any]]:
        """`(config, compute)` of every run, per seed the path runs, then the regularisation run; stored runs
        read back without torch."""
        s = self.settings
        pairs = [(sequence, architecture) for sequence, archs in s.path_runs.items() for architecture in archs]
        geometry_pair = (s.geometry_sequence, s.geometry_architecture)
        pairs += [geometry_pair] if geometry_pair not in pairs else []
        jobs, stages = [], StageCache(self.store.root, PAPER)  # the study's stages, where the data and settings agree
        for seed in s.seeds:
            for sequence, architecture in pairs:
                geometry = (sequence, architecture) == geometry_pair
                options = {"methods": list(s.path_methods), "alphas": s.alphas, "batchnorms": list(s.batchnorms),
                           "geometry": geometry}
                if geometry:
                    options.update(reading=s.projection_reading, entire=s.svcca_entire)
                labels = {"sequence": sequence, "architecture": architecture, "seed": seed}
                jobs.append((self._config("path", sequence, architecture, seed, revision=PATH_REVISION, **options),
                             functools.partial(_compute, "path_run", s.spec(sequence), s.protocol, labels,
                                               architecture=architecture, seed=seed, stages=stages, **options)))
            sequence, architecture = s.regularisation_sequence, s.regularisation_architecture
            labels = {"sequence": sequence, "architecture": architecture, "seed": seed}
            weights = [float(w) for w in s.adjacent_weights]
            jobs.append((self._config("regularisation", sequence, architecture, seed, adjacent_weights=weights),
                         functools.partial(_compute, "regularisation_run", s.spec(sequence), s.protocol, labels,
                                           architecture=architecture, seed=seed, adjacent_weights=weights)))
        if not all(self.store.has(config) for config, _ in jobs):
            protocol_settings(s.protocol)  # a bad protocol value stops here, before any compute (imports torch)
        return jobs

    def frame(self) -> pd.DataFrame:
        """Every run's rows (`FRAME_COLUMNS`), computed first where missing."""
        return self.run().reindex(columns=list(FRAME_COLUMNS))


def read_runs(geometry_params: str, results_dir: str) -> pd.DataFrame:
    """The analysis runs of a tier's settings file, read back from the store (computed where missing)."""
    settings = GeometrySettings.load(geometry_params)
    return GeometryStudy(settings, Path(results_dir), RunContext(params_file=geometry_params)).frame()


def precompute(params: dict[str, Any], artefacts: Any) -> int:
    """Compute the analysis runs (`geometry_params`, `results_dir` of the tier's defaults) if a notebook
    of `artefacts` reads them; how many were computed by this process."""
    return precompute_study(GeometrySettings.load, GeometryStudy,
                            {"study_params": params["geometry_params"],
                             "results_dir": params.get("results_dir", "results")}, artefacts, ARTEFACTS)


# ------------------------------------------------------------------------------------------ readings

PATH_KEYS = ["sequence", "architecture", "method", "seed"]


def judged_reading(frame: pd.DataFrame) -> str | None:
    """The settings' first BatchNorm reading, the one the findings and tables judge (a path run writes its
    readings in the settings' order, so the first path row's reading is the first); None without paths."""
    paths = frame[frame["analysis"] == "path"]
    return paths["batchnorm"].iloc[0] if len(paths) else None


def judged_paths(frame: pd.DataFrame) -> pd.DataFrame:
    """The path rows under `judged_reading`."""
    paths = frame[frame["analysis"] == "path"]
    return paths[paths["batchnorm"] == judged_reading(frame)]


def path_shapes(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per path (sequence, architecture, method, seed): start and end accuracy, rise = end − start,
    dip = how far the path falls below its start (0 if never: "decrease and then increase" is a change of
    basin), last_jump = the end's accuracy less the point before it (a "sharp local minimum"), and
    barrier = the largest drop of the path below the straight line between its endpoints (0 if none); under the
    first BatchNorm reading (`judged_paths`)."""
    rows = []
    for keys, path in judged_paths(frame).groupby(PATH_KEYS, sort=False):
        path = path.sort_values("alpha")
        s, accuracy = path["alpha"].to_numpy(float), path["accuracy"].to_numpy(float)
        start, end = accuracy[0], accuracy[-1]
        rows.append(dict(zip(PATH_KEYS, keys)) | {
            "start": start, "end": end, "rise": end - start, "dip": float(max(0.0, start - accuracy.min())),
            "last_jump": end - accuracy[-2], "barrier": float(max(0.0, np.max(start + s * (end - start) - accuracy)))})
    return pd.DataFrame(rows)


def regularisation_curve(frame: pd.DataFrame) -> pd.DataFrame:
    """Fig. 9's rows: method, lambda_adj (NaN for the ERM references), seed, accuracy (final validation)."""
    return frame.loc[frame["analysis"] == "regularisation", ["method", "lambda_adj", "seed", "accuracy"]]


def regularisation_findings(frame: pd.DataFrame) -> Findings:
    """App. F's statements about Fig. 9, per seed then over the seeds: the joint model at λ_adj = 0 is ERM
    on the final step, at the largest λ_adj ERM on all steps (the signed difference within ±.05), and an
    intermediate λ_adj beats both extremes."""
    curve = regularisation_curve(frame)
    joint = curve[curve["method"] == "JM"].pivot(index="seed", columns="lambda_adj", values="accuracy")
    references = curve[curve["method"] != "JM"].pivot(index="seed", columns="method", values="accuracy")
    weights = list(joint.columns)
    extremes = joint[[weights[0], weights[-1]]].max(axis=1)
    parts = [
        (f"JM(λ={weights[0]:g}) − ERM final", joint[weights[0]] - references["ERM final"], "within", 0.05,
         "no adjacent regularisation: the joint model at the final step performs as ERM final"),
        (f"JM(λ={weights[-1]:g}) − ERM all", joint[weights[-1]] - references["ERM all"], "within", 0.05,
         "very high adjacent regularisation: the joint model is ERM all"),
        ("best intermediate JM − best extreme JM", joint[weights[1:-1]].max(axis=1) - extremes, ">", 0.0,
         "the validation accuracy is higher at intermediate levels of adjacent regularization"),
    ]
    return Findings([Finding(quantity, float(values.mean()), mean_interval(values.to_numpy(float)), claim, direction,
                             threshold, claim_id="adjacent-reg-helps")
                     for quantity, values, direction, threshold, claim in parts])


TRAJECTORY_KEYS = ["method", "step", "layer"]


def trajectories(frame: pd.DataFrame, analysis: str) -> pd.DataFrame:
    """Fig. 16 ("projection") or 17 ("svcca") rows, the mean over the seeds of every (method, step, layer)."""
    rows = frame[frame["analysis"] == analysis]
    return rows.groupby(TRAJECTORY_KEYS, sort=False)[["x", "y"]].mean().reset_index()


def _entire(frame: pd.DataFrame, analysis: str) -> pd.DataFrame:
    return frame[(frame["analysis"] == analysis) & (frame["layer"] == "entire model")]


def projection_findings(frame: pd.DataFrame) -> Findings:
    """App. G.2's statement about Fig. 16: ERM plus fine-tuning, and ERM plus linear probing then fine-tuning,
    head towards the oracle (the entire model's distance to the origin falls from the ERM-on-history model to
    the fine-tuned one), for each of the two the run has."""
    rows = _entire(frame, "projection").assign(distance=lambda f: np.hypot(f["x"], f["y"]))
    findings = []
    for method, words in (("FT", "fine-tuning"), ("LP-FT", "linear probing then fine-tuning")):
        if method not in set(rows["method"]):
            continue
        by_step = rows[rows["method"] == method].pivot(index="seed", columns="step", values="distance")
        change = by_step[by_step.columns.max()] - by_step[by_step.columns.min()]
        findings.append(Finding(f"{method}: distance to the oracle after − before {words} (entire model)",
                                float(change.mean()), mean_interval(change.to_numpy(float)),
                                f"the trajectory of ERM followed by {words} heads towards the oracle", "<", 0.0,
                                claim_id="weight-projection-collapse"))
    return Findings(findings)


SVCCA_CLAIM = "svcca-progression"  # the ledger claim Fig. 17's findings bear on


def svcca_findings(frame: pd.DataFrame) -> Findings:
    """App. G.2's statements about Fig. 17 (entire model, level .9): the sequential and joint trajectories
    progress towards the oracle (final step above step 0), and end near ERM on the final data (within .05)."""
    rows = _entire(frame, "svcca")
    by_step = rows.pivot_table(index="seed", columns=["method", "step"], values="y")
    baseline = rows[rows["method"] == "Baseline"].set_index("seed")["y"]
    findings = []
    for method in ("SFT", "JM"):
        steps = sorted(by_step[method].columns)
        progress = by_step[(method, steps[-1])] - by_step[(method, steps[0])]
        near = (by_step[(method, steps[-1])] - baseline).abs()
        findings += [Finding(f"{method}: SVCCA(.9) at step {steps[-1]} − at step {steps[0]}", float(progress.mean()),
                             mean_interval(progress.to_numpy(float)),
                             "the trajectories do show some progression towards the oracle at (1, 1)", ">", 0.0,
                             claim_id=SVCCA_CLAIM),
                     Finding(f"{method}: |SVCCA(.9) at step {steps[-1]} − baseline's|", float(near.mean()),
                             mean_interval(near.to_numpy(float)),
                             "many of them end up near the coordinate for performing ERM only on the limited final "
                             "data", "<", 0.05, claim_id=SVCCA_CLAIM)]
    return Findings(findings)


FIGURE_FINDINGS = {"figure09": regularisation_findings, "figure16": projection_findings, "figure17": svcca_findings}
"""The findings each analysis figure prints, from the analysis runs (`read_runs`)."""
