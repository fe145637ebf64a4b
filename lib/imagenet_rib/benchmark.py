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
stored results read back without data or weights. Fine-tuned weights that WiSE-FT and the soup
need are kept in `<results>/imagenet_rib/weights/` (full tier: about 350 MB per ViT-B/16 model).
"""

from __future__ import annotations

import copy
import functools
import logging
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Callable, get_args

import numpy as np
import pandas as pd
import torch
from torch import nn

from ..atomic import atomic_write, load_or_make
from ..finetune.interpolation import AlphaConvention
from ..finetune.zeroshot import tokenize_prompts
from ..data.registry import IMAGENET_C_SEVERITIES, registry as dataset_registry
from ..data.domains import DOMAINS, STYLE_SHIFTS
from ..data.transforms import eval_transform
from ..metrics.robustness import backward_transfer, mean_robustness_improvement, robustness_improvement
from ..models import clip as clip_models
from ..models.clip import TEMPLATE_SETS
from ..models.registry import OPEN_CLIP_FILE, load_pretrained, registry as model_registry, spec as model_spec
from ..models.standins import STANDINS, build_standin
from ..params import Parameter, ParamsError, matches, read_params_file, validate as validate_values
from ..paths import REPO_ROOT
from ..store import RunContext, Store, StoredRuns, run_key
from ..train.loop import Batches, tensor_batches, train
from ..train.config import TrainConfig
from ..evaluate.predictions import hits, predict_ranked, prediction_frame
from ..finetune.methods import BestEpoch, EpochHook, MethodSettings, post_hoc, train_method
from .methods import METHODS, POST_HOC, TRAINED, ZERO_SHOT_METHODS
from .suite_data import OBJECTNET_EVALUATIONS, EmbeddedSuite, RegistrySuite, TrainingSplit, registry_finetune_datasets

log = logging.getLogger(__name__)
PAPER = "imagenet_rib"
REGIMES = ("clean", "augmented", "clip")
PRETRAINED = "pretrained"
NOISE_SIGMA = 0.1
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
HEAD_METHODS = ("Linear Probing", "LP-FT")  # need a classifier head; App. C excludes them for zero-shot CLIP
OWN_CLASSES_METHODS = ("FT", "FLYP")  # leave a whole CLIP model, evaluated with the ImageNet head after (Table 12)
TEXT_TOWERS = ("trainable", "frozen")
RUN_COLUMNS = ("epoch", "selected_epoch")  # run-level columns of the per-epoch (Fig. 13) and App. E variants
Suite = EmbeddedSuite | RegistrySuite


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
    imagenet_c_finetune_severities: list[int] = field(default_factory=lambda: list(IMAGENET_C_SEVERITIES))
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

    def config(self, block: str, seed: int, **overrides) -> TrainConfig:
        return TrainConfig(**{"device": self.device, **getattr(self, block), "seed": seed, **overrides})


def style_augment(shifts: list[str], seed: int) -> Callable[[torch.Tensor], torch.Tensor]:
    """A batch transform applying one random shift of `shifts` (or none) per image, then noise σ 0.1.

    With no shifts it adds the noise only."""
    generator = torch.Generator().manual_seed(seed)

    def apply(images: torch.Tensor) -> torch.Tensor:
        choice = torch.randint(0, len(shifts) + 1, (len(images),), generator=generator)
        out = images.clone()
        for index, shift in enumerate(shifts):
            chosen = choice == index + 1
            if chosen.any():
                out[chosen] = STYLE_SHIFTS[shift](images[chosen])
        return (out + NOISE_SIGMA * torch.randn(out.shape, generator=generator)).clamp(0.0, 1.0)

    return apply


def _state(model: nn.Module) -> dict[str, torch.Tensor]:
    """A CPU copy of `model`'s weights, as cached on disk."""
    return {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}


class AugmentedBatches:
    """`batches` passed through `augment` afresh on every pass (re-iterable, with a length)."""

    def __init__(self, batches: Batches, augment: Callable[[torch.Tensor], torch.Tensor]) -> None:
        self.batches, self.augment = batches, augment

    def __len__(self) -> int:
        return len(self.batches)

    def __iter__(self):
        return ((self.augment(x), y) for x, y in self.batches)


class Benchmark(StoredRuns):
    """Runs (or reads back from the store) the benchmark of one tier. A full-tier run holds about 4 M
    items (ImageNet-C: 3.75 M): read accuracies with `run_accuracies`, one run in memory at a time."""

    def __init__(self, settings: BenchmarkSettings, results_root: str | Path, context: RunContext = RunContext()) -> None:
        self.s = settings
        self.store = Store(results_root, PAPER)
        self.weights_dir = self.store.root / PAPER / "weights"
        self.context = context

    @property
    def reference(self) -> str:
        """The pretraining dataset's evaluation set (backward transfer)."""
        return self.s.pretrain_domain if self.s.source == "embedded" else self.s.reference

    @property
    def finetune_datasets(self) -> list[str]:
        """The datasets the models are fine-tuned on: `finetune_datasets`, or the suite's (registry: all but ObjectNet)."""
        if self.s.finetune_datasets:
            return list(self.s.finetune_datasets)
        return list(self.s.suite) if self.s.source == "embedded" else registry_finetune_datasets(self.s.suite)

    @functools.cached_property
    def suite(self) -> Suite:
        """The data. The registry suite opens every dataset here (DatasetMissingError names all missing ones)."""
        s = self.s
        if s.source == "embedded":
            return EmbeddedSuite(s.pretrain_domain, s.suite, s.class_subsets, s.image_size)
        return RegistrySuite(s.suite, s.reference, s.objectnet_evaluation, s.imagenet_c_finetune_severities,
                             s.data_root or None, s.workers, finetune_only=self.finetune_datasets)

    # -- runs ------------------------------------------------------------------------------------
    def run_accuracies(self) -> pd.DataFrame:
        """`accuracies(self.run())`, one run at a time (the per-item rows of one run in memory at
        most), kept as the store's summary of these runs."""
        return self.summary(accuracies)

    def jobs(self) -> list[tuple[dict, Callable[[], pd.DataFrame]]]:
        """`(config, compute)` of every run: per regime and seed the pretrained model, then each method
        on each fine-tuning set (post-hoc methods last: they read the trained ones' weights)."""
        methods = [m for m in self.s.methods if m in TRAINED] + [m for m in self.s.methods if m in POST_HOC]
        plan = {
            (regime, seed): [self._run_config(regime, seed, PRETRAINED, "")]
            + [self._run_config(regime, seed, m, name) for m in methods for name in self.finetune_datasets]
            for regime in self.s.regimes for seed in self.s.seeds
        }
        todo = sum(not self.store.has(config) for configs in plan.values() for config in configs)
        if todo:
            log.info("%d runs to compute", todo)
            self.suite  # opens the data: missing datasets stop the run here, before any compute
        jobs = []
        for (regime, seed), configs in plan.items():
            model = functools.cache(functools.partial(self.pretrained, regime, seed))  # loaded once, only if needed
            jobs += [(config, functools.partial(self._compute, config, model)) for config in configs]
        return jobs

    def _run_config(self, regime: str, seed: int, method: str, name: str) -> dict:
        """What determines a run's predictions (its store key; also the key of its cached weights)."""
        s = self.s
        config = {"benchmark": PAPER, "source": s.source, "regime": regime, "seed": seed, "suite": s.suite}
        if s.source == "embedded":
            architecture = "tiny_clip" if regime == CLIP_REGIME else s.architecture
            config |= {"architecture": architecture, "image_size": s.image_size, "pretrain": s.pretrain,
                       "pretrain_domain": s.pretrain_domain, "augment_shifts": s.augment_shifts, "class_subsets": s.class_subsets}
        else:
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

    def _compute(self, config: dict, model: Callable[[], nn.Module]) -> pd.DataFrame:
        regime, seed, method, name = config["regime"], config["seed"], config["method"], config["finetune_dataset"]
        pretrained = model()
        suite = self.suite_for(regime, pretrained)
        if method == PRETRAINED:
            return self._evaluate(pretrained, suite)
        if method in POST_HOC:
            return self._evaluate(self._finetuned(method, regime, seed, name, pretrained, suite), suite)
        hook = self._epoch_hook(name, suite, seed)
        trained = self._train(method, regime, seed, name, pretrained, suite, hook)
        if method in self._ingredients:  # kept for WiSE-FT and the soup
            self._store_weights(self._run_config(regime, seed, method, name), trained)
        if isinstance(hook, EveryEpoch):
            return pd.concat(hook.frames, ignore_index=True)
        frame = self._evaluate(trained, suite)
        return frame.assign(selected_epoch=hook.epoch) if isinstance(hook, BestEpoch) else frame

    def _epoch_hook(self, name: str, suite: Suite, seed: int) -> EpochHook | None:
        """Per-epoch evaluation (Fig. 13), best-epoch selection on the held-out split (App. E), or none."""
        if self.s.evaluate_every_epoch:
            return EveryEpoch(lambda model: self._evaluate(model, suite, release=False))
        if self.s.validation_fraction > 0:
            batch = self.s.config("finetune", seed).batch_size
            held_out = suite.validation_batches(name, batch, seed, self.s.training_split)
            return BestEpoch(lambda model: self._accuracy(model, held_out, suite, name))
        return None

    def _accuracy(self, model: nn.Module, batches: Batches, suite: Suite, name: str) -> float:
        """Accuracy (%) of `model` on `batches` of dataset `name` (its mask applied); the model stays put."""
        ranked, targets = self._ranked(model, batches, suite, name)
        return 100.0 * float((ranked[:, 0] == targets).mean())

    def _ranked(self, model: nn.Module, batches: Batches, suite: Suite, name: str) -> tuple[np.ndarray, np.ndarray]:
        """Top-1 classes and targets of every item of `batches` of dataset `name` (the shared runner)."""
        return predict_ranked(model, batches, suite.ranker(name), self.s.device, amp=self.s.config("finetune", 0).amp)

    # -- models ----------------------------------------------------------------------------------
    def pretrained(self, regime: str, seed: int) -> nn.Module:
        """The pretrained classifier: trained under `regime` (embedded, cached) or loaded from the registry;
        a CLIP regime classifies through its zero-shot head over the pretraining classes."""
        s = self.s
        if s.source == "registry":
            if s.zero_shot(regime):
                return clip_models.zero_shot_classifier(
                    load_pretrained(regime), clip_models.tokenizer_for(regime), clip_models.imagenet_class_names(),
                    TEMPLATE_SETS[s.zero_shot_templates], s.zero_shot_text_tower).eval()
            return load_pretrained(regime).eval()
        spec = {"pretrain": regime, "seed": seed, "architecture": s.architecture, "image_size": s.image_size,
                "pretrain_domain": s.pretrain_domain, "config": s.pretrain,
                "augment_shifts": s.augment_shifts if regime == "augmented" else None}
        if regime == CLIP_REGIME:
            spec["architecture"] = "tiny_clip"
            clip, tokenizer = clip_models.tiny_clip(s.image_size, seed)
            clip.load_state_dict(self._cached(spec, lambda: self._pretrain_clip(seed)))
            return clip_models.zero_shot_classifier(clip, tokenizer, clip_models.DIGIT_CLASS_NAMES,
                                                    TEMPLATE_SETS[s.zero_shot_templates], s.zero_shot_text_tower).eval()
        model = self._blank(seed)
        model.load_state_dict(self._cached(spec, lambda: self._pretrain(regime, seed)))
        return model.eval()

    def finetuned(self, method: str, regime: str, seed: int, name: str) -> nn.Module:
        """The model after `method` on dataset `name` (weights cached where the post-hoc methods need them),
        ready to evaluate on the suite."""
        pretrained = self.pretrained(regime, seed)
        suite = self.suite_for(regime, pretrained)
        return self._finetuned(method, regime, seed, name, pretrained, suite).eval()

    def _blank(self, seed: int) -> nn.Module:
        return build_standin(self.s.architecture, num_classes=self.suite.pretraining.num_classes,
                             image_size=self.s.image_size, in_chans=1, seed=seed)

    def _pretrain(self, regime: str, seed: int) -> nn.Module:
        domain, config = self.suite.pretraining, self.s.config("pretrain", seed)
        batches = tensor_batches(domain.train_images, domain.train_labels, config.batch_size, seed)
        if regime == "augmented":  # fresh augmented views on every epoch
            batches = AugmentedBatches(batches, style_augment(self.s.augment_shifts, seed))
        model = self._blank(seed)
        train(model, batches, config)
        return model

    def _pretrain_clip(self, seed: int) -> nn.Module:
        """The embedded CLIP regime: a tiny CLIP trained with the CLIP loss on clean digits and their captions."""
        domain, config = self.suite.pretraining, self.s.config("pretrain", seed)
        clip, tokenizer = clip_models.tiny_clip(self.s.image_size, seed)
        template = TEMPLATE_SETS[self.s.zero_shot_templates][0]
        clip_models.pretrain_clip(clip, tokenizer, domain.train_images, domain.train_labels,
                                  clip_models.DIGIT_CLASS_NAMES, template, config)
        return clip

    def suite_for(self, regime: str, model: nn.Module) -> Suite:
        """The suite read through the model's eval transform (registry); the embedded suite as is."""
        if self.s.source == "embedded":
            return self.suite
        row = model_spec(regime)
        inner = model.model if self.s.zero_shot(regime) else model  # the CLIP model under a zero-shot head
        return self.suite.with_transform(eval_transform(row.preprocess, inner, weights=row.pretrained))

    def _cached(self, spec: dict, make: Callable[[], nn.Module]) -> dict[str, torch.Tensor]:
        return load_or_make(self._weights_path(spec), lambda path: torch.load(path, map_location="cpu"),
                            lambda: _state(make()), torch.save)

    def _weights_path(self, spec: dict) -> Path:
        return self.weights_dir / f"{run_key(spec)}.pt"

    def _store_weights(self, spec: dict, model: nn.Module) -> None:
        state = _state(model)
        atomic_write(self._weights_path(spec), lambda tmp: torch.save(state, tmp))

    @property
    def _ingredients(self) -> set[str]:
        """The trained methods whose weights the post-hoc methods of this tier reuse (cached on disk)."""
        return {i for m in self.s.methods for i in METHODS[m].ingredients}

    def _finetuned(self, method: str, regime: str, seed: int, name: str, pretrained: nn.Module, suite: Suite) -> nn.Module:
        """The model after `method` on `name`, with the head of the evaluation suite: trained, or
        combined from cached weights (post-hoc)."""
        if method in POST_HOC:
            weights = {m: self._weights(m, regime, seed, name, pretrained, suite) for m in METHODS[method].ingredients}
            return post_hoc(METHODS[method], pretrained, weights, MethodSettings(**self.s.method_settings))
        if method not in self._ingredients:
            return self._train(method, regime, seed, name, pretrained, suite)
        model = copy.deepcopy(pretrained)
        model.load_state_dict(self._weights(method, regime, seed, name, pretrained, suite))
        return model

    def _weights(
        self, method: str, regime: str, seed: int, name: str, pretrained: nn.Module, suite: Suite
    ) -> dict[str, torch.Tensor]:
        """A trained method's weights, cached under the key of its run."""
        config = self._run_config(regime, seed, method, name)
        return self._cached(config, lambda: self._train(method, regime, seed, name, pretrained, suite))

    def _train(self, method: str, regime: str, seed: int, name: str, pretrained: nn.Module, suite: Suite,
               hook: EpochHook | None = None) -> nn.Module:
        """`method` on dataset `name`. A dataset with its own classes (StanfordCars) trains through a
        zero-shot head over them; the model returned classifies over the pretraining classes again."""
        config = self.s.config("finetune", seed)
        settings = MethodSettings(**self.s.method_settings)
        fisher = suite.fisher_batches(settings.ewc_fisher_images, config.batch_size, seed) if method == "EWC" else None
        own_classes = suite.own_class_names(name)
        start = pretrained
        if own_classes is not None:
            tokenizer = clip_models.tokenizer_for(regime)
            start = pretrained.with_class_tokens(tokenize_prompts(tokenizer, own_classes, TEMPLATE_SETS[self.s.zero_shot_templates]))
        trained = train_method(METHODS[method], start, suite.train_batches(name, config.batch_size, seed, self.s.training_split),
                               config, settings, suite.mask(name), fisher_batches=fisher, epoch_hook=hook)
        return trained if own_classes is None else trained.with_class_tokens(pretrained.class_tokens)

    def _evaluate(self, model: nn.Module, suite: Suite, release: bool = True) -> pd.DataFrame:
        """Per-item predictions on every evaluation set; `release`: the model is left on the CPU (not
        during training)."""
        frames = []
        for name, evaluation in suite.evaluation_sets().items():
            ranked, targets = self._ranked(model, evaluation.batches, suite, name)
            frames.append(prediction_frame(targets, ranked, eval_dataset=name, part=evaluation.parts))
        if release:
            model.cpu()
        return pd.concat(frames, ignore_index=True)


class EveryEpoch:
    """Fig. 13's hook: evaluate the model on the suite after every epoch; the run is the last epoch's model."""

    def __init__(self, evaluate: Callable[[nn.Module], pd.DataFrame]) -> None:
        self.evaluate = evaluate
        self.frames: list[pd.DataFrame] = []

    def __call__(self, epoch: int, model: nn.Module) -> None:
        self.frames.append(self.evaluate(model).assign(epoch=epoch))

    def chosen(self, last: nn.Module) -> nn.Module:
        return last


def accuracies(runs: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) per regime, seed, method, fine-tuning dataset and evaluation dataset: the mean
    over the evaluation dataset's parts (ImageNet-C: its 75 corruption x severity splits). The run
    columns of some variants are kept: `epoch` (Fig. 13) and `selected_epoch` (App. E)."""
    keys = ["regime", "seed", "method", "finetune_dataset", "eval_dataset"] + [c for c in RUN_COLUMNS if c in runs]
    correct = runs.assign(correct=hits(runs))
    per_part = correct.groupby([*keys, "part"], sort=False, observed=True, dropna=False)["correct"].mean()
    return (100.0 * per_part.groupby(level=keys, sort=False, dropna=False).mean()).rename("accuracy").reset_index()


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
    rows = []
    for (regime, seed), group in acc.groupby(["regime", "seed"], sort=False):
        pre = group[group["method"] == PRETRAINED].set_index("eval_dataset")["accuracy"].to_dict()
        for method, runs in group[group["method"] != PRETRAINED].groupby("method", sort=False):
            by_dataset = {d: r.set_index("eval_dataset")["accuracy"].to_dict() for d, r in runs.groupby("finetune_dataset")}
            by_dataset = {d: by_dataset[d] for d in finetune_datasets}
            row = {"regime": regime, "seed": seed, "method": method}
            for name in finetune_datasets:
                row[f"RI {name}"] = robustness_improvement(by_dataset[name], pre, name, suite)
            row["mRI"] = mean_robustness_improvement(by_dataset, pre, suite)
            row["backward transfer"] = backward_transfer(by_dataset, pre, reference)
            row["accuracy on the fine-tuning set"] = float(np.mean([by_dataset[d][d] for d in finetune_datasets]))
            if "selected_epoch" in runs:
                row["mean selected epoch"] = float(runs.groupby("finetune_dataset")["selected_epoch"].first().mean())
            rows.append(row)
    return pd.DataFrame(rows)


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
