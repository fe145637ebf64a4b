"""The experiments of ImageNet-RIB as variants of one benchmark (`params/<tier>/imagenet_rib/experiments.yaml`).

The paper's main benchmark and each of its appendix studies is one experiment: the tier's benchmark
file (`benchmark:`) with `overrides` and at most one `sweep`. Keys are those of the benchmark file;
`block.key` sets one entry of a block (`finetune.weight_decay`, `method_settings.wise_alpha`). A
sweep runs one benchmark per value of its key. Every variant of every experiment is validated
when the file is read (models against the installed timm/open_clip registries, datasets against
lib/registry/datasets.csv), so a mistyped experiment fails before any compute. Variants share the
results store: a run two experiments have in common (e.g. seed 0 of the main benchmark and of the
seeds study) is computed once, and a WiSE-FT alpha sweep reuses the FT weights of its runs.

Run one with `python -m lib experiment --tier <tier> --name <experiment>` (`--check` validates all).
"""

from __future__ import annotations

import copy
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import Any

import pandas as pd

from ..params import Parameter, ParamsError, read_params_file, validate
from ..paths import REPO_ROOT
from ..store import RunContext
from ..train.config import TrainConfig
from .benchmark import Benchmark, BenchmarkSettings

FILE_KEYS = {"benchmark": "str", "experiments": "dict"}
EXPERIMENT_KEYS = {"artefacts": "list[str]", "description": "str", "overrides": "dict", "sweep": "dict"}


@dataclass(frozen=True)
class Experiment:
    """One study: the artefacts it feeds, and how its benchmarks differ from the tier's."""

    name: str
    artefacts: list[str]
    description: str
    overrides: dict
    sweep: dict

    @property
    def swept(self) -> str | None:
        """The key the sweep varies (None: a single benchmark)."""
        return next(iter(self.sweep), None)

    def variants(self, base: dict, where: str) -> list[tuple[Any, BenchmarkSettings]]:
        """`(swept value or None, settings)` of every benchmark of the experiment, each validated."""
        values = dict(base)
        for key, value in self.overrides.items():
            values = with_value(values, key, value, f"{where}: experiment {self.name!r}")
        if self.swept is None:
            return [(None, BenchmarkSettings.from_values(values, f"{where}: experiment {self.name!r}"))]
        out = []
        for value in self.sweep[self.swept]:
            label = f"{where}: experiment {self.name!r}, {self.swept}={value!r}"
            out.append((value, BenchmarkSettings.from_values(with_value(values, self.swept, value, label), label)))
        return out


# The defaults of the training blocks' entries (TrainConfig's): an entry a block leaves out has this value.
TRAINING_BLOCKS = ("finetune", "pretrain")
TRAINING_DEFAULTS = {f.name: f.default for f in fields(TrainConfig) if f.default is not MISSING}


def with_value(values: dict, key: str, value: Any, where: str) -> dict:
    """`values` with `key` (or `block.key`) set to `value`; the input is not changed. Setting a training
    block's absent entry to its default changes nothing, so that variant is the benchmark itself, with
    the same runs and store keys (e.g. weight decay 0.0 of a weight-decay sweep is the main FT run)."""
    out = copy.deepcopy(values)
    block, _, entry = key.partition(".")
    if not entry:
        out[key] = value
    elif not isinstance(out.get(block), dict):
        raise ParamsError(f"{where}: {key!r} names an entry of {block!r}, which is not a block of the benchmark file")
    elif not (block in TRAINING_BLOCKS and entry not in out[block] and _is_default(entry, value)):
        out[block][entry] = value
    return out


def _is_default(entry: str, value: Any) -> bool:
    default = TRAINING_DEFAULTS.get(entry, MISSING)
    return type(value) is type(default) and value == default


def load_experiments(path: str | Path) -> tuple[dict, dict[str, Experiment]]:
    """The base benchmark values and every experiment of an experiments file, all variants validated."""
    path = REPO_ROOT / path
    content = validate(read_params_file(path), _declared(FILE_KEYS), path, declarer="the experiments schema")
    base = read_params_file(REPO_ROOT / content["benchmark"])
    experiments = {}
    for name, entry in content["experiments"].items():
        if not isinstance(entry, dict):
            raise ParamsError(f"{path}: experiment {name!r} must be a mapping of {sorted(EXPERIMENT_KEYS)}")
        entry = validate(entry, _declared(EXPERIMENT_KEYS), f"{path}: experiment {name!r}", declarer="the experiment schema")
        if len(entry["sweep"]) > 1 or not all(isinstance(v, list) and v for v in entry["sweep"].values()):
            raise ParamsError(f"{path}: experiment {name!r}: sweep must map one key to a non-empty list of values")
        experiment = Experiment(name=name, **entry)
        experiment.variants(base, str(path))
        experiments[name] = experiment
    return base, experiments


def named_experiment(path: str | Path, name: str) -> tuple[dict, Experiment]:
    """The base benchmark values and experiment `name` of an experiments file (an unknown name lists the others)."""
    base, experiments = load_experiments(path)
    if name not in experiments:
        raise ParamsError(f"{path}: no experiment {name!r}; experiments: {sorted(experiments)}")
    return base, experiments[name]


def experiment_settings(path: str | Path, name: str) -> BenchmarkSettings:
    """The benchmark of experiment `name` (one without a sweep), validated."""
    base, experiment = named_experiment(path, name)
    variants = experiment.variants(base, str(path))
    if len(variants) != 1:
        raise ParamsError(f"{path}: experiment {name!r} sweeps {experiment.swept!r}; one benchmark is needed here")
    return variants[0][1]


def run_experiment(path: str | Path, name: str, results_dir: str | Path) -> pd.DataFrame:
    """Accuracies of every benchmark of experiment `name`, with a column of the swept key's value."""
    base, experiment = named_experiment(path, name)
    frames = []
    for value, settings in experiment.variants(base, str(path)):
        context = RunContext(params_file=str(path), device=settings.device)
        acc = Benchmark(settings, results_dir, context).run_accuracies()
        frames.append(acc if experiment.swept is None else acc.assign(**{experiment.swept: value}))
    return pd.concat(frames, ignore_index=True)


def stored_runs(path: str | Path, name: str, results_dir: str | Path) -> tuple[int, int]:
    """How many runs of experiment `name` are in the store under `results_dir`, of how many (`Benchmark.stored`)."""
    base, experiment = named_experiment(path, name)
    counts = [Benchmark(settings, results_dir).stored() for _, settings in experiment.variants(base, str(path))]
    return sum(stored for stored, _ in counts), sum(total for _, total in counts)


def _declared(keys: dict[str, str]) -> dict[str, Parameter]:
    return {name: Parameter(name, annotation, None) for name, annotation in keys.items()}
