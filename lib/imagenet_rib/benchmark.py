"""ImageNet-RIB: pretrain (or load) a model, fine-tune it on each dataset of a suite, evaluate on all of them.

Protocol (Sec. 3 of the paper): a suite 𝔻 of out-of-distribution datasets sharing the pretraining
label space; a pretrained model is fine-tuned on each D_i with each method and evaluated on every
dataset of 𝔻 and on the pretraining dataset's validation split; RI, mRI and backward transfer
follow from those accuracies (`lib.metrics.robustness`).

The params key `source` picks where models and data come from; the code path is the same.
- `embedded` (tiny, mini): a miniature on the embedded digits (`suite_data.EmbeddedSuite`). The paper
  compares pretraining datasets; the miniature compares pretraining *regimes* of one stand-in
  architecture:
  - `clean`: supervised on the clean digits only (the analogue of ImageNet-1K);
  - `augmented`: supervised on the digits under random style augmentation drawn from shifts
    *outside* the suite (`augment_shifts`, possibly none), plus Gaussian noise σ 0.1: the analogue
    of AugReg, whose augmentations overlap ImageNet-C's corruptions.
  A suite dataset may keep only some classes (`class_subsets`, the analogue of ImageNet-A/-R's 200
  classes): its logit mask then applies to training, distillation and evaluation.
- `registry` (full): `regimes` are keys of the model registry (the paper's timm and torchvision
  ImageNet-1K classifiers, loaded by `lib.models.registry.load_pretrained`), `suite` names registered
  datasets and `reference` the pretraining evaluation set (ImageNet-1K val), all read through the
  model's eval transform (`suite_data.RegistrySuite`, which documents the ObjectNet and ImageNet-C
  choices). ObjectNet is evaluated on, never fine-tuned on (its licence forbids training), so mRI
  averages over the other fine-tuning datasets (the paper's over all 8).

CLIP regimes (App. C; the registry's open_clip rows, or `clip` in the miniature: a tiny CLIP
pretrained with the CLIP loss on the clean digits and their captions) classify through a zero-shot
head over the pretraining class names (`lib.finetune.zeroshot.ZeroShotClassifier`: templates and text
tower are settings; the logit scale is clamped to [0, ln 100] at every step, as in the released code).
Every method then runs through that head, FLYP too; linear probing and LP-FT are not run on them (App. C).
A fine-tuning dataset with its own classes (StanfordCars, App. G) trains through a head over its
names and is evaluated through the ImageNet head of the same fine-tuned towers.

The appendix studies are settings of the same benchmark (`experiments.py` names them per tier):
`finetune_datasets` (the reference itself, Table 6; ImageNet-1K train, Fig. 6; StanfordCars, Table 12),
`images_per_class` (Figs. 6, 12), `validation_fraction` with best-epoch selection (App. E; the run
records its `selected_epoch`), `evaluate_every_epoch` (Figs. 5, 13; rows carry their `epoch`), and the
`finetune` and `method_settings` blocks (weight decay, lr, WiSE-FT alpha sweeps).

The settings of a tier live in `params/<tier>/imagenet_rib/benchmark.yaml` (`BenchmarkSettings`).
Every (regime, seed, method, fine-tuning dataset) is one run in the results store holding per-item
predictions on every evaluation dataset (and part, e.g. ImageNet-C's corruption/severity). `run`
first lists the runs missing from the store; only if there are any does it open the data, so
missing datasets raise one DatasetMissingError naming them all before anything is computed, and
stored results read back without data or weights: this module holds the settings and the plan of
runs and imports no torch; `runner.BenchmarkRunner` (`Benchmark.runner`, made only when a run is
computed) loads the models and data, fine-tunes and evaluates. Fine-tuned weights that WiSE-FT and
the soup need are kept in `<results>/imagenet_rib/weights/` (full tier: about 350 MB per ViT-B/16 model).
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Callable, get_args

import numpy as np
import pandas as pd

from ..data.domains import DOMAINS, STYLE_SHIFTS
from ..evaluate.frames import hits
from ..finetune.method_table import AlphaConvention, MethodSettings
from ..finetune.templates import TEMPLATE_SETS
from ..metrics.robustness import backward_transfer, mean_robustness_improvement, robustness_improvement
from ..models.standins import STANDINS
from ..params import Parameter, ParamsError, matches, read_params_file, validate as validate_values
from ..paths import REPO_ROOT
from ..store import RunContext, Store, StoredRuns, weights_checked
from ..train.config import TrainConfig
from .methods import METHODS, POST_HOC, TRAINED, ZERO_SHOT_METHODS
from .splits import OBJECTNET_EVALUATIONS, TrainingSplit, registry_finetune_datasets

if TYPE_CHECKING:
    from torch import nn

    from .runner import BenchmarkRunner

log = logging.getLogger(__name__)
PAPER = "imagenet_rib"
REGIMES = ("clean", "augmented", "clip")
PRETRAINED = "pretrained"
SOURCES = ("embedded", "registry")
COMMON_KEYS = ("source", "regimes", "suite", "methods", "seeds", "device", "finetune", "method_settings",
               "finetune_datasets", "images_per_class", "validation_fraction", "evaluate_every_epoch",
               "zero_shot_templates", "zero_shot_text_tower")
SOURCE_KEYS = {
    "embedded": ("architecture", "pretrain_domain", "class_subsets", "image_size", "pretrain", "augment_shifts"),
    "registry": ("reference", "objectnet_evaluation", "imagenet_c_finetune_severities", "data_root", "workers"),
}
CLASSIFIER_LIBRARIES = ("timm", "torchvision")
CLIP_REGIME = "clip"  # embedded: a tiny CLIP pretrained contrastively on the clean digits, zero-shot head
# What each embedded regime stands for among the paper's pretrained models: one mapping, for every notebook and
# finding. `clean` against `augmented` is pretraining without vs with AugReg-like augmentation on the same data;
# no regime varies the amount or source of data, so the paper's other models (IN-1K + SAM, the IN-21K ones,
# OpenAI, LAION-400M, LAION-2B) have none.
REGIME_ANALOGUES = {"clean": "IN-1K", "augmented": "IN-1K + AugReg",
                    CLIP_REGIME: "a small-data zero-shot CLIP (LAION-100M, CC-12M, YFCC-15M), in kind only"}
def regime_pretraining(regime: str) -> str:
    """The paper's pretraining a regime is or stands for: a miniature regime's analogue (`REGIME_ANALOGUES`), a
    registry model's pretraining as Table 13 prints it ("LAION-2B"); "" for neither."""
    from .tables import TABLE13_PRINTED

    printed = {key: pretraining for _, pretraining, _, _, key in TABLE13_PRINTED}
    return REGIME_ANALOGUES.get(regime) or printed.get(regime, "")


HEAD_METHODS = ("Linear Probing", "LP-FT")  # need a classifier head; App. C excludes them for zero-shot CLIP
OWN_CLASSES_METHODS = ("FT", "FLYP")  # leave a whole CLIP model, evaluated with the ImageNet head after (Table 12)
TEXT_TOWERS = ("trainable", "frozen")
RUN_COLUMNS = ("epoch", "selected_epoch")  # run-level columns of the per-epoch (Fig. 13) and App. E variants


@dataclass(frozen=True)
class BenchmarkSettings:
    """One tier's benchmark, as written in `params/<tier>/imagenet_rib/benchmark.yaml`.

    Common keys: `COMMON_KEYS`; each source adds its own (`SOURCE_KEYS`) and takes no other.
    """

    source: str
    regimes: list[str]
    suite: list[str]
    methods: list[str]
    seeds: list[int]
    device: str
    finetune: dict
    method_settings: dict
    # what is fine-tuned on, and how (the appendix variants; defaults in the main benchmark)
    finetune_datasets: list[str]   # [] = the suite's (all but ObjectNet); may name the reference (Table 6) or,
                                   # registry, a dataset outside the suite (ImageNet-1K train: Fig. 6; StanfordCars: Table 12)
    images_per_class: int          # 0 = every image; k > 0: k per class (Figs. 6, 12)
    validation_fraction: float     # 0 = none; 0.2 = App. E's 4:1 split, the best epoch on it kept (Tables 10, 11)
    evaluate_every_epoch: bool     # evaluate after every epoch, not only the last (Fig. 13)
    zero_shot_templates: str       # CLIP regimes' zero-shot head: a key of TEMPLATE_SETS
    zero_shot_text_tower: str      # "trainable" (the released code) or "frozen"
    # source: embedded
    architecture: str = ""
    pretrain_domain: str = ""
    class_subsets: dict = field(default_factory=dict)
    image_size: int = 0
    pretrain: dict = field(default_factory=dict)
    augment_shifts: list[str] = field(default_factory=list)
    # source: registry
    reference: str = ""
    objectnet_evaluation: str = "masked"
    imagenet_c_finetune_severities: list[int] = field(default_factory=list)  # every registry file sets it
    data_root: str = ""
    workers: int = 0

    @classmethod
    def load(cls, path: str | Path) -> "BenchmarkSettings":
        """Read and validate a benchmark file: unknown, missing or mistyped keys stop here."""
        path = REPO_ROOT / path
        return cls.from_values(read_params_file(path), str(path))

    @classmethod
    def from_values(cls, values: dict, where: str) -> "BenchmarkSettings":
        """Validated settings from a mapping (a benchmark file, or one with an experiment's overrides)."""
        source = values.get("source")
        if source not in SOURCES:
            raise ParamsError(f"{where}: source must be one of {SOURCES}, got {source!r}")
        annotations = {f.name: f.type for f in fields(cls)}
        declared = {name: Parameter(name, annotations[name], None) for name in (*COMMON_KEYS, *SOURCE_KEYS[source])}
        settings = cls(**validate_values(values, declared, where, declarer="the benchmark schema"))
        settings.validate(where)
        return settings

    def validate(self, path: Path | str) -> None:
        """Names checked against the methods, stand-ins, domains and registries before any compute."""
        source_problems = self._embedded_problems() if self.source == "embedded" else self._registry_problems()
        problems = self._method_problems() + self._variant_problems() + source_problems
        if problems:
            raise ParamsError(f"{path}: " + "; ".join(problems))

    def zero_shot(self, regime: str) -> bool:
        """Whether `regime` is a CLIP model classifying through a zero-shot head (App. C)."""
        if self.source == "embedded":
            return regime == CLIP_REGIME
        from ..models.registry import OPEN_CLIP_FILE, registry as model_registry  # the registry source only (torch)

        row = model_registry().get(regime)
        return row is not None and (row.library == "open_clip" or row.key_recipe == OPEN_CLIP_FILE)

    def _method_problems(self) -> list[str]:
        problems = [f"method {m!r} not in {list(METHODS)}" for m in self.methods if m not in METHODS]
        problems += [f"{m} needs {i} in methods" for m in self.methods if m in METHODS
                     for i in METHODS[m].ingredients if i not in self.methods]
        for regime in self.regimes:
            if self.zero_shot(regime):
                problems += [f"{m} is not run on the zero-shot CLIP regime {regime!r} (App. C: a zero-shot head needs "
                             "no probe)" for m in self.methods if m in HEAD_METHODS]
            else:
                problems += [f"{m} needs a zero-shot CLIP regime; {regime!r} is a classifier"
                             for m in self.methods if m in ZERO_SHOT_METHODS]
        blocks = ("finetune", "pretrain") if self.source == "embedded" else ("finetune",)
        types = {f.name: f.type for f in fields(TrainConfig)}
        for block in blocks:
            bad = sorted(set(getattr(self, block)) - set(types))
            problems += [f"{block} has keys {bad} that TrainConfig does not know"] if bad else []
            problems += [f"{block}.{key} must be {types[key]}, got {value!r}" for key, value in getattr(self, block).items()
                         if key in types and not matches(value, types[key])]
        known = {f.name for f in fields(MethodSettings)}
        if set(self.method_settings) != known:
            problems.append(f"method_settings must set exactly {sorted(known)}")
        else:
            m = self.method_settings
            if not (isinstance(m["ewc_fisher_images"], int) and m["ewc_fisher_images"] > 0):
                problems.append("method_settings.ewc_fisher_images must be a positive int")
            if m["wise_alpha_convention"] not in get_args(AlphaConvention):
                problems.append(f"method_settings.wise_alpha_convention must be one of {get_args(AlphaConvention)}")
            if not 0 <= m["wise_alpha"] <= 1:
                problems.append("method_settings.wise_alpha must lie in [0, 1]")
        return problems

    def _variant_problems(self) -> list[str]:
        problems = []
        if self.images_per_class < 0:
            problems.append("images_per_class must be >= 0 (0: every image)")
        if not 0.0 <= self.validation_fraction < 1.0:
            problems.append("validation_fraction must be in [0, 1)")
        if self.evaluate_every_epoch and self.validation_fraction > 0:
            problems.append("evaluate_every_epoch and validation_fraction > 0 exclude each other (which epoch is the run?)")
        if self.evaluate_every_epoch:
            problems += [f"evaluate_every_epoch needs trained methods only; {m} is post-hoc" for m in self.methods if m in POST_HOC]
            if self.source == "registry":
                from ..data.registry import registry as dataset_registry  # the registry source only (torch)

                problems += [f"evaluate_every_epoch evaluates through the pretraining head; {d!r} has its own classes"
                             for d in self.finetune_datasets if d in dataset_registry() and dataset_registry()[d].label_space == "own"]
        if len(set(self.finetune_datasets)) != len(self.finetune_datasets):
            problems.append("finetune_datasets has duplicates")
        if self.zero_shot_templates not in TEMPLATE_SETS:
            problems.append(f"zero_shot_templates must be one of {sorted(TEMPLATE_SETS)}")
        if self.zero_shot_text_tower not in TEXT_TOWERS:
            problems.append(f"zero_shot_text_tower must be one of {TEXT_TOWERS}")
        return problems

    def _embedded_problems(self) -> list[str]:
        problems = []
        if self.architecture not in STANDINS:
            problems.append(f"architecture {self.architecture!r} not in {sorted(STANDINS)}")
        problems += [f"regime {r!r} not in {REGIMES}" for r in self.regimes if r not in REGIMES]
        problems += [f"domain {d!r} not in {list(DOMAINS)}" for d in [self.pretrain_domain, *self.suite] if d not in DOMAINS]
        problems += [f"class_subsets names {d!r}, not a suite dataset" for d in self.class_subsets if d not in self.suite]
        problems += [f"augment shift {s!r} not in {list(STYLE_SHIFTS)}" for s in self.augment_shifts if s not in STYLE_SHIFTS]
        problems += [f"augment shift {s!r} is in the suite: the augmented regime would see test shifts"
                     for s in self.augment_shifts if f"digits_{s}" in self.suite]
        if "LoRA" in self.methods and self.architecture != "tiny_vit" and set(self.regimes) - {CLIP_REGIME}:
            problems.append(f"LoRA targets ViT attention; the stand-in {self.architecture!r} is not a ViT")
        problems += [f"finetune_datasets names {d!r}: the embedded suite fine-tunes on its datasets or {self.pretrain_domain!r}"
                     for d in self.finetune_datasets if d not in [*self.suite, self.pretrain_domain]]
        return problems

    def _registry_problems(self) -> list[str]:
        from ..data.registry import IMAGENET_C_SEVERITIES, registry as dataset_registry  # the registry source only (torch)
        from ..models.registry import registry as model_registry

        problems, models, datasets = [], model_registry(), dataset_registry()
        for regime in self.regimes:
            row = models.get(regime)
            if row is None:
                problems.append(f"regime {regime!r} is not a key of lib/registry/models.csv")
            elif row.paper != PAPER or not (self.zero_shot(regime) or row.library in CLASSIFIER_LIBRARIES):
                problems.append(f"regime {regime!r} is not one of the paper's ImageNet-1K classifiers or CLIP models")
            elif "LoRA" in self.methods and not row.architecture.lower().startswith("vit"):
                problems.append(f"LoRA targets ViT attention; {regime!r} is a {row.architecture} (the paper applies "
                                "LoRA to ViTs only)")
        for name in [*self.suite, self.reference]:
            row = datasets.get(name)
            if row is None:
                problems.append(f"dataset {name!r} is not in lib/registry/datasets.csv")
            elif row.label_space == "own" or row.splits:
                problems.append(f"dataset {name!r} is not a one-split dataset in the ImageNet-1K label space")
        for name in self.finetune_datasets:
            row = datasets.get(name)
            if row is None:
                problems.append(f"fine-tuning dataset {name!r} is not in lib/registry/datasets.csv")
            elif registry_finetune_datasets([name]) != [name]:
                problems.append(f"fine-tuning dataset {name!r} is for evaluation only ({row.licence})")
            elif row.label_space == "own":
                problems += [f"{name!r} has its own classes: only a zero-shot CLIP regime can be fine-tuned on it, "
                             f"not {r!r}" for r in self.regimes if not self.zero_shot(r)]
                problems += [f"{name!r} has its own classes: only {OWN_CLASSES_METHODS} keep the CLIP model whole to "
                             f"evaluate it after, not {m!r}" for m in self.methods if m not in OWN_CLASSES_METHODS]
        if self.reference in self.suite:
            problems.append(f"the reference {self.reference!r} is in the suite")
        if self.objectnet_evaluation not in OBJECTNET_EVALUATIONS:
            problems.append(f"objectnet_evaluation must be one of {OBJECTNET_EVALUATIONS}")
        severities = self.imagenet_c_finetune_severities
        if not severities or len(set(severities)) != len(severities) or not set(severities) <= set(IMAGENET_C_SEVERITIES):
            problems.append(f"imagenet_c_finetune_severities must be distinct severities of {IMAGENET_C_SEVERITIES}")
        if self.workers < 0:
            problems.append("workers must be >= 0")
        return problems

    @property
    def training_split(self) -> TrainingSplit:
        return TrainingSplit(self.images_per_class, self.validation_fraction)

    @property
    def reference_dataset(self) -> str:
        """The pretraining dataset's evaluation set (backward transfer)."""
        return self.pretrain_domain if self.source == "embedded" else self.reference

    @property
    def finetuned_on(self) -> list[str]:
        """The datasets the models are fine-tuned on: `finetune_datasets`, or the suite's (registry: all but ObjectNet)."""
        if self.finetune_datasets:
            return list(self.finetune_datasets)
        return list(self.suite) if self.source == "embedded" else registry_finetune_datasets(self.suite)

    def config(self, block: str, seed: int, **overrides) -> TrainConfig:
        return TrainConfig(**{"device": self.device, **getattr(self, block), "seed": seed, **overrides})


class Benchmark(StoredRuns):
    """Runs (or reads back from the store) the benchmark of one tier. A full-tier run holds about 4 M
    items (ImageNet-C: 3.75 M): read accuracies with `run_accuracies`, one run in memory at a time."""

    def __init__(self, settings: BenchmarkSettings, results_root: str | Path, context: RunContext = RunContext()) -> None:
        self.s = settings
        self.store = Store(results_root, PAPER)
        self.weights_dir = self.store.root / PAPER / "weights"
        self.context = context

    @functools.cached_property
    def runner(self) -> BenchmarkRunner:
        """What computes the runs: models, data, fine-tuning and evaluation (imports torch)."""
        from .runner import BenchmarkRunner

        return BenchmarkRunner(self)

    @property
    def reference(self) -> str:
        """The pretraining dataset's evaluation set (backward transfer)."""
        return self.s.reference_dataset

    @property
    def finetune_datasets(self) -> list[str]:
        """The datasets the models are fine-tuned on (`BenchmarkSettings.finetuned_on`)."""
        return self.s.finetuned_on

    # -- runs ------------------------------------------------------------------------------------
    def run_accuracies(self) -> pd.DataFrame:
        """`accuracies(self.run())`, one run at a time (the per-item rows of one run in memory at
        most), kept as the store's summary of these runs."""
        return self.summary(accuracies)

    def _plan(self) -> dict[tuple[str, int], list[dict]]:
        """Per regime and seed, the configs of its runs: the pretrained model, then each method on each fine-tuning
        set (post-hoc methods last: they read the trained ones' weights)."""
        methods = [m for m in self.s.methods if m in TRAINED] + [m for m in self.s.methods if m in POST_HOC]
        return {
            (regime, seed): [self.run_config(regime, seed, PRETRAINED, "")]
            + [self.run_config(regime, seed, m, name) for m in methods for name in self.finetune_datasets]
            for regime in self.s.regimes for seed in self.s.seeds
        }

    def stored(self) -> tuple[int, int]:
        """How many of the benchmark's runs are in the store, of how many (nothing opened: no data, no weights)."""
        configs = [config for configs in self._plan().values() for config in configs]
        return sum(self.store.has(config) for config in configs), len(configs)

    def jobs(self) -> list[tuple[dict, Callable[[], pd.DataFrame]]]:
        """`(config, compute)` of every run (`_plan`'s order). Missing datasets or weights stop the run here,
        before any compute."""
        plan = self._plan()
        todo = sum(not self.store.has(config) for configs in plan.values() for config in configs)
        if todo:
            log.info("%d runs to compute", todo)
            self.runner.suite  # opens the data: missing datasets stop the run here, before any compute
        jobs = []
        for (regime, seed), configs in plan.items():
            model = functools.cache(functools.partial(self._pretrained, regime, seed))  # loaded once, only if needed
            jobs += [(config, functools.partial(self._compute, config, model)) for config in configs]
        return weights_checked(self.store, jobs, self.weights_needed)

    def weights_needed(self, config: dict) -> tuple[str, ...]:
        """The model-registry keys whose weights the run of `config` loads (`store.weights_checked`)."""
        return (config["regime"],) if config["source"] == "registry" else ()

    def _pretrained(self, regime: str, seed: int) -> nn.Module:
        """The pretrained model of `regime` and `seed`, loaded by the runner (only when a run is computed)."""
        return self.runner.pretrained(regime, seed)

    def _compute(self, config: dict, model: Callable[[], nn.Module]) -> pd.DataFrame:
        """One run's per-item predictions, computed by the runner."""
        return self.runner.compute(config, model)

    def run_config(self, regime: str, seed: int, method: str, name: str) -> dict:
        """What determines a run's predictions (its store key; also the key of its cached weights)."""
        s = self.s
        config = {"benchmark": PAPER, "source": s.source, "regime": regime, "seed": seed, "suite": s.suite}
        if s.source == "embedded":
            architecture = "tiny_clip" if regime == CLIP_REGIME else s.architecture
            config |= {"architecture": architecture, "image_size": s.image_size, "pretrain": s.pretrain,
                       "pretrain_domain": s.pretrain_domain, "augment_shifts": s.augment_shifts, "class_subsets": s.class_subsets}
        else:
            from ..data.registry import registry as dataset_registry  # the registry source only (torch)
            from ..models.registry import spec as model_spec

            row = model_spec(regime)
            model = {"library": row.library, "name": row.name, "pretrained": row.pretrained, "preprocess": row.preprocess}
            config |= {"model": model, "reference": s.reference, "objectnet_evaluation": s.objectnet_evaluation}
            if method != PRETRAINED and dataset_registry()[name].layout == "imagenet_c":
                config["imagenet_c_finetune_severities"] = s.imagenet_c_finetune_severities
        if s.zero_shot(regime):
            config["zero_shot"] = {"templates": s.zero_shot_templates, "text_tower": s.zero_shot_text_tower}
        if method == PRETRAINED:
            return config | {"method": PRETRAINED, "finetune_dataset": ""}
        return config | {"method": method, "finetune_dataset": name, "finetune": s.finetune,
                         "method_settings": {k: s.method_settings[k] for k in METHODS[method].settings},
                         "images_per_class": s.images_per_class, "validation_fraction": s.validation_fraction,
                         "evaluate_every_epoch": s.evaluate_every_epoch}

    @property
    def _ingredients(self) -> set[str]:
        """The trained methods whose weights the post-hoc methods of this tier reuse (cached on disk)."""
        return {i for m in self.s.methods for i in METHODS[m].ingredients}


def accuracies(runs: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) per regime, seed, method, fine-tuning dataset and evaluation dataset: the mean
    over the evaluation dataset's parts (ImageNet-C: its 75 corruption x severity splits). The run
    columns of some variants are kept: `epoch` (Fig. 13) and `selected_epoch` (App. E)."""
    keys = ["regime", "seed", "method", "finetune_dataset", "eval_dataset"] + [c for c in RUN_COLUMNS if c in runs]
    correct = runs.assign(correct=hits(runs))
    per_part = correct.groupby([*keys, "part"], sort=False, observed=True, dropna=False)["correct"].mean()
    return (100.0 * per_part.groupby(level=keys, sort=False, dropna=False).mean()).rename("accuracy").reset_index()


def _accuracy_lookup(acc: pd.DataFrame) -> dict:
    """accuracy[(regime, seed)][method][finetune_dataset][eval_dataset], read once (the pretrained model's under
    finetune_dataset ""); methods in order of first appearance, as the rows are."""
    accuracy: dict = {}
    columns = ["regime", "seed", "method", "finetune_dataset", "eval_dataset", "accuracy"]
    for regime, seed, method, tuned, evaluated, value in acc[columns].itertuples(index=False, name=None):
        key = "" if method == PRETRAINED else tuned
        accuracy.setdefault((regime, seed), {}).setdefault(method, {}).setdefault(key, {})[evaluated] = value
    return accuracy


def finetune_terms(acc: pd.DataFrame, suite: list[str], reference: str, finetune_datasets: list[str]) -> pd.DataFrame:
    """Per regime, seed, method and fine-tuning dataset i (runs evaluated once, not per epoch): `RI` (RI_i, Eq. 1),
    `backward transfer` and `accuracy on the fine-tuning set` of the model fine-tuned on i, the terms whose means
    over the fine-tuning datasets are `robustness_table`'s mRI, backward transfer and accuracy on the fine-tuning
    set (a bootstrap over fine-tuning datasets resamples them)."""
    rows = []
    for (regime, seed), methods in _accuracy_lookup(acc).items():
        pre = methods.get(PRETRAINED, {}).get("", {})
        rows += [{"regime": regime, "seed": seed, "method": method, "finetune_dataset": name,
                  "RI": robustness_improvement(tuned[name], pre, name, suite),
                  "backward transfer": backward_transfer({name: tuned[name]}, pre, reference),
                  "accuracy on the fine-tuning set": tuned[name][name]}
                 for method, tuned in methods.items() if method != PRETRAINED for name in finetune_datasets]
    return pd.DataFrame(rows)


def robustness_table(
    acc: pd.DataFrame, suite: list[str], reference: str, finetune_datasets: list[str] | None = None
) -> pd.DataFrame:
    """RI per fine-tuning dataset, mRI, backward transfer on `reference` and accuracy on the
    fine-tuning set itself, per regime, seed and method (`lib.metrics.robustness`, Eq. 1); per
    epoch too where the runs were evaluated after every epoch, and with the mean selected epoch
    where one was selected on held-out data.

    `finetune_datasets` (default: the whole suite) are the datasets fine-tuned on; RI_i still
    averages over every other dataset of `suite`."""
    finetune_datasets = list(suite) if finetune_datasets is None else finetune_datasets
    if "epoch" in acc and acc["epoch"].notna().any():
        table = per_value(acc, "epoch", lambda part: robustness_table(part, suite, reference, finetune_datasets))
        return table.astype({"epoch": int})
    selected = _selected_epochs(acc) if "selected_epoch" in acc else {}
    rows = []
    for (regime, seed), methods in _accuracy_lookup(acc).items():
        pre = methods.get(PRETRAINED, {}).get("", {})
        for method, tuned in methods.items():
            if method == PRETRAINED:
                continue
            by_dataset = {d: tuned[d] for d in finetune_datasets}
            row = {"regime": regime, "seed": seed, "method": method}
            for name in finetune_datasets:
                row[f"RI {name}"] = robustness_improvement(by_dataset[name], pre, name, suite)
            row["mRI"] = mean_robustness_improvement(by_dataset, pre, suite)
            row["backward transfer"] = backward_transfer(by_dataset, pre, reference)
            row["accuracy on the fine-tuning set"] = float(np.mean([by_dataset[d][d] for d in finetune_datasets]))
            if selected:
                row["mean selected epoch"] = selected[(regime, seed, method)]
            rows.append(row)
    return pd.DataFrame(rows)


def _selected_epochs(acc: pd.DataFrame) -> dict[tuple, float]:
    """Mean over fine-tuning datasets of the epoch selected on held-out data, per (regime, seed, method)."""
    runs = acc[acc["method"] != PRETRAINED]
    first = runs.groupby(["regime", "seed", "method", "finetune_dataset"], sort=False)["selected_epoch"].first()
    return {key: float(value) for key, value in first.groupby(level=["regime", "seed", "method"], sort=False).mean().items()}


def per_value(acc: pd.DataFrame, column: str, compute: Callable[[pd.DataFrame], pd.DataFrame]) -> pd.DataFrame:
    """`compute` on the rows of each value of `column`, with that column added; rows without a value
    (the pretrained model's in per-epoch runs) join every value."""
    shared = acc[acc[column].isna()]
    return pd.concat([compute(pd.concat([shared, part]).drop(columns=column)).assign(**{column: value})
                      for value, part in acc[acc[column].notna()].groupby(column, sort=True)], ignore_index=True)


def mean_and_standard_error(table: pd.DataFrame, value: str) -> pd.DataFrame:
    """Mean ± standard error over seeds of one column, per regime and method."""
    grouped = table.groupby(["regime", "method"], sort=False)[value]
    out = grouped.agg(["mean", "std", "count"]).reset_index()
    out["standard error"] = out["std"] / np.sqrt(out["count"])
    return out.drop(columns="std")
