"""Our run of Seq-to-Final: every (sequence × architecture × method × seed) job through the results store.

The settings of a tier live in `params/<tier>/seq_to_final/study.yaml` (`StudySettings`, read strictly:
an unknown, missing or mistyped key, an unknown sequence, architecture, method, pool or protocol key
stops with one line before any compute). Each job draws its sequence (`lib.seq_to_final.sequence`), runs
one method (`lib.seq_to_final.methods.RUNS`) and stores the per-item top-5 predictions on the final
step's test split (`lib.seq_to_final.training.run`) under the hash of its configuration, so a re-run
skips what is stored and a killed sweep resumes.

Sequences: the synthetic ones by name (`sampler.SEQUENCES`; "sss" draws from `subpopulation_pool`, the
others from `pool`) and the variable-length rotation sequences of Table 3/14, named `rotation_<n>` for
n steps, their sizes Table 3's times `variable_length_scale`.

Table 15's fine-tuning ablations (`ablation_methods`) run on one sequence and its architectures only.
Table 13's sequence, `portraits`, is the settings' `portraits` block (`faces.decade_spec`): the real decades
(full) or their embedded stand-in (`lib.seq_to_final.faces`), on its own architectures and methods.
Settings load, and stored runs read back, without torch; torch is imported when a run computes.

`accuracies(frame, reading)` turns the stored predictions into one test accuracy per (sequence,
architecture, seed, Table 1 column), in two steps: `run_accuracies` (one row per run, the store's per-run
summary) and `column_accuracies` (SFT's three schedule runs share one column, taken as the code does, best
test accuracy, or by validation accuracy).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import pandas as pd

from ..params import ParamsError, SettingsFile
from ..store import StageCache, StoredRuns
from .faces import DECADE_KEYS, PORTRAITS_SEQUENCE, check_decades, decade_spec
from .sampler import SEQUENCES
from .sequence import (POOLS, SequenceSpec, open_pools, pool_error, scaling_config, synthetic_spec,
                       variable_length_spec)
from .summaries import ROW_READINGS
from .tables import ARCHITECTURES, METHODS, PAPER, SIDE_BLOCK_PAIRS

if TYPE_CHECKING:
    from .methods import Settings
    from .sequence import DecadeSpec

SUBPOPULATION_SEQUENCES = ("sss",)
VARIABLE_PREFIX = "rotation_"
# Protocol keys whose YAML lists become tuples (of pairs, for the decay schedules).
PAIR_KEYS = ("linear_decays", "exponential_decays")
# The names of `methods.RUNS` and the fields of `methods.Settings`, here so that settings load and stored runs
# read back without torch (a test keeps them equal).
RUN_NAMES: tuple[str, ...] = (*METHODS, "SFT-linear", "SFT-exponential", "FT-reg-previous",
                              "FT-init-ablated-reg-previous")
# Methods whose code was corrected after their runs were first stored: the revision enters their store key, so a
# run of the old code is never read back. 2: block-sized side modules train (they had been frozen copies).
METHOD_REVISIONS: dict[str, int] = {"ST-B": 2, "SST-B": 2}
PROTOCOL_KEYS: tuple[str, ...] = (
    "lrs", "weight_decays", "dropouts", "max_epochs", "patience", "batch_size", "irm_penalty", "joint",
    "final_loss_weight", "adjacent_grid", "ewc_grid", "ewc_fisher", "linear_decays", "exponential_decays",
    "pretrain_includes_final", "side_stem_head_init", "augmentation", "device")
PORTRAITS_KEYS = (*DECADE_KEYS, "architectures", "methods")  # the `portraits` block



def protocol_settings(protocol: dict) -> Settings:
    """A settings file's protocol block as `methods.Settings`: lists as tuples, `joint` as a `Hyper`
    (imports torch)."""
    from .methods import Hyper, Settings

    values: dict[str, Any] = {}
    for key, value in protocol.items():
        if key == "joint":
            value = Hyper(**value)
        elif key in PAIR_KEYS:
            value = tuple(tuple(pair) for pair in value)
        elif isinstance(value, list):
            value = tuple(value)
        values[key] = value
    return Settings(**values)

@dataclass(frozen=True)
class StudySettings(SettingsFile):
    """One tier's study, as written in `params/<tier>/seq_to_final/study.yaml`.

    `pool` / `subpopulation_pool`: image pools (`sequence.POOLS`) of the class sequences and of "sss";
    `sequences`: synthetic sequence names; `variable_lengths`: step counts n of the rotation sequences
    (Table 3 sizes × `variable_length_scale`), run on `variable_length_architectures` only (Table 14: Res-4);
    `sizes`: train+validation size per step of the synthetic
    sequences (source first); `architectures`: Table 7 names; `methods`: keys of `methods.RUNS`;
    `seeds`: training seeds; `data_seed`: the sequences' seed (the code's 1007); `protocol`: fields of
    `methods.Settings` that differ from the official defaults (`joint` as {lr, weight_decay, dropout});
    `ablation_methods`: Table 15's fine-tuning ablations, run on `ablation_sequence` (the paper's RCL) and
    `ablation_architectures` only (the paper's Res-4; its Baseline and FT rows are the main study's runs, so
    the sequence and architectures must be among `sequences` and `architectures`); `summary_rows`: which rows the
    Mean and Std dev rows of Tables 8-14 average in the side-tuning columns (`summaries.ROW_READINGS`; the
    official script's is "ConvNet in -B only"); `portraits`: Table 13's
    sequence as {pool (`lfw_faces`, the stand-in, or `portraits`), scale (of Table 4's sizes), image_size,
    input_scaling (`sequence.INPUT_SCALINGS`), architectures, methods} (no architectures: not run; no Oracle,
    which Table 13 does not print)."""

    pool: str
    subpopulation_pool: str
    sequences: list[str]
    variable_lengths: list[int]
    variable_length_scale: float
    variable_length_architectures: list[str]
    sizes: list[int]
    test_size: int
    image_size: int
    architectures: list[str]
    methods: list[str]
    seeds: list[int]
    data_seed: int
    subpopulation_reading: str
    summary_rows: str
    protocol: dict
    ablation_methods: list[str]
    ablation_sequence: str
    ablation_architectures: list[str]
    portraits: dict

    def validate(self, path: Path | str) -> None:
        """Check every name against what the code knows, before any compute."""
        try:
            check_decades(self.portraits, self.protocol, PORTRAITS_KEYS)
        except ValueError as error:
            raise ParamsError(f"{path}: {error}") from None
        checks = [
            ("sequence", self.sequences, set(SEQUENCES)),
            ("architecture", self.architectures + self.variable_length_architectures
             + list(self.portraits["architectures"]), set(ARCHITECTURES)),
            ("method", self.methods + self.ablation_methods, set(RUN_NAMES)),
            ("Portraits method", list(self.portraits["methods"]), set(RUN_NAMES) - {"Oracle"}),
            ("protocol key", list(self.protocol), set(PROTOCOL_KEYS)),
        ]
        for what, names, known in checks:
            unknown = [name for name in names if name not in known]
            if unknown:
                raise ParamsError(f"{path}: unknown {what} {unknown}; known: {sorted(known)}")
        for pool in (self.pool, self.subpopulation_pool):
            if pool not in POOLS:
                raise ParamsError(f"{path}: {pool_error(pool)}")
        if self.ablation_methods and (self.ablation_sequence not in self.sequences
                                      or not set(self.ablation_architectures) <= set(self.architectures)):
            raise ParamsError(f"{path}: ablation_sequence {self.ablation_sequence!r} and ablation_architectures "
                              f"{self.ablation_architectures} must be among sequences and architectures")
        if self.subpopulation_reading not in ("code", "paper"):
            raise ParamsError(f"{path}: subpopulation_reading must be 'code' or 'paper', got {self.subpopulation_reading!r}")
        if self.summary_rows not in ROW_READINGS:
            raise ParamsError(f"{path}: unknown summary_rows {self.summary_rows!r}; known: {list(ROW_READINGS)}")
        try:
            self.specs()
        except (TypeError, ValueError, KeyError) as error:
            raise ParamsError(f"{path}: {error}") from None

    def method_settings(self) -> Settings:
        """The protocol block as `methods.Settings` (`protocol_settings`; imports torch)."""
        return protocol_settings(self.protocol)

    @property
    def device(self) -> str:
        """Where the runs compute (the protocol's `device`, CPU by default)."""
        return self.protocol.get("device", "cpu")

    def runs(self) -> list[tuple[str, str, str, int]]:
        """Every (sequence, architecture, method, seed) the study computes, Table 15's ablations last; a
        method that another run of the sequence stands for (`doubles`) is not computed."""
        doubles = self.doubles()
        main = [(name, architecture, method, seed) for name in self.specs()
                for architecture in self.architectures_of(name) for method in self.methods_of(name)
                if (name, architecture, method) not in doubles for seed in self.seeds]
        return main + [(self.ablation_sequence, architecture, method, seed)
                       for architecture in self.ablation_architectures
                       for method in self.ablation_methods for seed in self.seeds]

    def doubles(self) -> dict[tuple[str, str, str], str]:
        """{(sequence, architecture, method): the method whose runs stand for it}: the block-sized side
        variants on an architecture whose blocks are one layer, where the sequence runs the 1-layer one."""
        return {(name, architecture, method): single for name in self.specs()
                for architecture in self.architectures_of(name) for method in self.methods_of(name)
                if (single := same_run(architecture, method)) in self.methods_of(name)}

    def with_doubles(self, runs: pd.DataFrame) -> pd.DataFrame:
        """`run_accuracies` rows with each double's rows added: its stand-in's, relabelled."""
        copies = [runs[(runs["sequence"] == name) & (runs["architecture"] == architecture) & (runs["method"] == single)]
                  .assign(method=method, column=method)
                  for (name, architecture, method), single in self.doubles().items()]
        return pd.concat([runs, *copies], ignore_index=True)

    def architectures_of(self, sequence: str) -> list[str]:
        """The architectures a sequence runs on."""
        if sequence == PORTRAITS_SEQUENCE:
            return list(self.portraits["architectures"])
        return self.variable_length_architectures if sequence.startswith(VARIABLE_PREFIX) else self.architectures

    def methods_of(self, sequence: str) -> list[str]:
        """The methods a sequence runs (Portraits: its own list)."""
        return list(self.portraits["methods"]) if sequence == PORTRAITS_SEQUENCE else self.methods

    def specs(self) -> dict[str, SequenceSpec | DecadeSpec]:
        """Sequence name -> what to draw."""
        options = {"image_size": self.image_size, "seed": self.data_seed,
                   "subpopulation_reading": self.subpopulation_reading}
        specs = {name: synthetic_spec(name, self.subpopulation_pool if name in SUBPOPULATION_SEQUENCES else self.pool,
                                      self.sizes, self.test_size, **options)
                 for name in self.sequences}
        for n_steps in self.variable_lengths:
            specs[f"{VARIABLE_PREFIX}{n_steps}"] = variable_length_spec(
                n_steps, self.pool, self.test_size, self.variable_length_scale, **options)
        if self.portraits["architectures"]:
            specs[PORTRAITS_SEQUENCE] = decade_spec(self.portraits, self.data_seed)
        return specs


class Study(StoredRuns):
    """The (sequence × architecture × method × seed) runs of one tier, through the results store."""

    paper = PAPER
    settings: StudySettings

    def run_config(self, sequence: str, spec: SequenceSpec, architecture: str, method: str, seed: int) -> dict[str, Any]:
        """What determines one run's result (its store key is a hash of this)."""
        return {"study": PAPER, "sequence": sequence, "pool": spec.pool, "entries": list(spec.entries),
                "sizes": list(spec.sizes), "test_size": spec.test_size, "image_size": spec.image_size,
                "data_seed": spec.seed, "subpopulation_reading": spec.subpopulation_reading,
                "architecture": architecture, "method": method, "seed": seed, "protocol": self.settings.protocol,
                **scaling_config(spec),
                **({"revision": METHOD_REVISIONS[method]} if method in METHOD_REVISIONS else {})}

    def jobs(self) -> list[tuple[dict[str, Any], Callable[[], pd.DataFrame]]]:
        """`(config, compute)` of every run. If any is missing from the store, every pool is read and the
        protocol turned into `methods.Settings` first (torch), so a missing dataset or a bad protocol value
        stops here (`sequence.open_pools`); stored runs read back without the data and without torch."""
        specs, stages = self.settings.specs(), StageCache(self.store.root, PAPER)
        jobs = [(self.run_config(name, specs[name], architecture, method, seed),
                 functools.partial(_labelled, self.settings, name, specs[name], method, architecture, seed, stages))
                for name, architecture, method, seed in self.settings.runs()]
        if not all(self.store.has(config) for config, _ in jobs):
            self.settings.method_settings()
            open_pools(specs.values())
        return jobs


def _labelled(settings: StudySettings, sequence: str, spec: SequenceSpec, method: str, architecture: str,
              seed: int, stages: StageCache) -> pd.DataFrame:
    from .training import run  # torch only when a run computes

    frame = run(spec, method, architecture, settings.method_settings(), seed, stages=stages)
    frame.insert(0, "sequence", sequence)
    return frame


# A Conv-n block is one Conv 3×3 → BN: the 1-layer side module itself (`methods.one_layer_side`). There the
# block-sized side variants are the 1-layer ones, module for module and draw for draw (the paper prints a
# ConvNet's side results once), so they are read from the 1-layer runs rather than computed twice. Computed
# separately, they agreed to the last digit in every mini cell but one, where one test item of one seed
# differed (JST-B on red tinting, Conv-2: mean .531 against .532), a last-bit difference of the arithmetic.
ONE_LAYER_BLOCK_FAMILIES = ("Conv",)


def same_run(architecture: str, method: str) -> str | None:
    """The method whose run is `method`'s own on `architecture` (None: it has its own run)."""
    family = architecture.partition("-")[0]
    return SIDE_BLOCK_PAIRS.get(method) if family in ONE_LAYER_BLOCK_FAMILIES else None


# How runs that share a Table 1 column (SFT's three schedules) become one cell: the code's summary takes
# the best TEST accuracy ("code"); "valid" takes the run with the best validation accuracy instead.
COLUMN_READINGS = {"code": "accuracy", "valid": "valid_accuracy"}


def run_accuracies(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per method run of `frame` (per-item predictions): `sequence`, `architecture`, `seed`, `column`,
    `method`, its test `accuracy` and the `valid_accuracy` of its selected model (the store's per-run summary)."""
    correct = frame.assign(correct=frame["pred_1"] == frame["target"])
    return (correct.groupby(["sequence", "architecture", "seed", "column", "method"], sort=False)
            .agg(accuracy=("correct", "mean"), valid_accuracy=("valid_accuracy", "first")).reset_index())


def column_accuracies(runs: pd.DataFrame, reading: str = "code") -> pd.DataFrame:
    """One row per (sequence, architecture, seed, column) of `run_accuracies` rows, `run` naming the method run
    chosen for the column under `reading`."""
    if reading not in COLUMN_READINGS:
        raise ValueError(f"reading must be one of {sorted(COLUMN_READINGS)}, got {reading!r}")
    keys = ["sequence", "architecture", "seed", "column"]
    chosen = runs.sort_values(COLUMN_READINGS[reading], ascending=False, kind="stable").groupby(keys, sort=False).head(1)
    return chosen.rename(columns={"method": "run"}).sort_values(keys, kind="stable").reset_index(drop=True)


def accuracies(frame: pd.DataFrame, reading: str = "code") -> pd.DataFrame:
    """One row per (sequence, architecture, seed, column) with its test `accuracy` from the per-item
    predictions, `run` naming the method run chosen for the column under `reading`."""
    if reading not in COLUMN_READINGS:
        raise ValueError(f"reading must be one of {sorted(COLUMN_READINGS)}, got {reading!r}")
    return column_accuracies(run_accuracies(frame), reading)
