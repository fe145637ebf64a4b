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
  averages over the other fine-tuning datasets (the paper's over all 8). The open_clip rows (CLIP
  with a zero-shot head, App. C) are refused: see `ZERO_SHOT_NOT_WIRED`.

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
from typing import Callable, Iterator

import numpy as np
import pandas as pd
import torch
from torch import nn

from ..atomic import atomic_write
from ..data.registry import IMAGENET_C_SEVERITIES, registry as dataset_registry
from ..data.shifts import DOMAINS, STYLE_SHIFTS
from ..data.transforms import eval_transform
from ..metrics.robustness import backward_transfer, mean_robustness_improvement, robustness_improvement
from ..models.registry import load_pretrained, registry as model_registry, spec as model_spec
from ..models.standins import STANDINS, build_standin
from ..params import ParamsError, read_params_file, read_settings
from ..paths import REPO_ROOT
from ..store import RunContext, Store, run_key
from ..train.loop import Batches, TrainConfig, predict_logits, tensor_batches, train
from .methods import METHODS, POST_HOC, SOUP_INGREDIENTS, TRAINED, MethodSettings, post_hoc, train_method
from .suite_data import OBJECTNET_EVALUATIONS, EmbeddedSuite, RegistrySuite, registry_finetune_datasets

log = logging.getLogger(__name__)
PAPER = "imagenet_rib"
REGIMES = ("clean", "augmented")
PRETRAINED = "pretrained"
NOISE_SIGMA = 0.1
SOURCES = ("embedded", "registry")
COMMON_KEYS = ("source", "regimes", "suite", "methods", "seeds", "device", "finetune", "method_settings")
SOURCE_KEYS = {
    "embedded": ("architecture", "pretrain_domain", "class_subsets", "image_size", "pretrain", "augment_shifts"),
    "registry": ("reference", "objectnet_evaluation", "imagenet_c_finetune_severities", "data_root", "workers"),
}
CLASSIFIER_LIBRARIES = ("timm", "torchvision")
ZERO_SHOT_NOT_WIRED = (
    "is an open_clip CLIP model without an ImageNet-1K head. It would need the zero-shot head of "
    "lib.finetune.zeroshot (ZeroShotClassifier, text tower trained along, logit scale clamped after every "
    "step as in the released code), which the benchmark's methods are not wired to: linear probing, LP-FT, "
    "LoRA and the prompter look for a timm/torchvision head and ViT blocks. Use the timm rows fine-tuned on "
    "ImageNet-1K (e.g. rib_vit_b16_clip_openai_ft_in1k)"
)
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
        source = read_params_file(path).get("source")
        if source not in SOURCES:
            raise ParamsError(f"{path}: source must be one of {SOURCES}, got {source!r}")
        annotations = {f.name: f.type for f in fields(cls)}
        values = read_settings(path, {name: annotations[name] for name in (*COMMON_KEYS, *SOURCE_KEYS[source])})
        settings = cls(**values)
        settings.validate(path)
        return settings

    def validate(self, path: Path) -> None:
        """Names checked against the methods, stand-ins, domains and registries before any compute."""
        source_problems = self._embedded_problems() if self.source == "embedded" else self._registry_problems()
        problems = self._method_problems() + source_problems
        if problems:
            raise ParamsError(f"{path}: " + "; ".join(problems))

    def _method_problems(self) -> list[str]:
        problems = [f"method {m!r} not in {list(METHODS)}" for m in self.methods if m not in METHODS]
        if "MS:PRE-FT-EWC-LwF" in self.methods:
            problems += [f"the soup needs {m} in methods" for m in SOUP_INGREDIENTS if m not in self.methods]
        if "WiSE-FT" in self.methods and "FT" not in self.methods:
            problems.append("WiSE-FT needs FT in methods")
        blocks = ("finetune", "pretrain") if self.source == "embedded" else ("finetune",)
        for block in blocks:
            bad = sorted(set(getattr(self, block)) - {f.name for f in fields(TrainConfig)})
            problems += [f"{block} has keys {bad} that TrainConfig does not know"] if bad else []
        known = {f.name for f in fields(MethodSettings)}
        if set(self.method_settings) != known:
            problems.append(f"method_settings must set exactly {sorted(known)}")
        elif not (isinstance(self.method_settings["ewc_fisher_images"], int) and self.method_settings["ewc_fisher_images"] > 0):
            problems.append("method_settings.ewc_fisher_images must be a positive int")
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
        return problems

    def _registry_problems(self) -> list[str]:
        problems, models, datasets = [], model_registry(), dataset_registry()
        for regime in self.regimes:
            row = models.get(regime)
            if row is None:
                problems.append(f"regime {regime!r} is not a key of lib/registry/models.csv")
            elif row.library == "open_clip" or row.key_recipe == "open_clip_file":
                problems.append(f"regime {regime!r} {ZERO_SHOT_NOT_WIRED}")
            elif row.paper != PAPER or row.library not in CLASSIFIER_LIBRARIES:
                problems.append(f"regime {regime!r} is not one of the paper's {CLASSIFIER_LIBRARIES} ImageNet-1K classifiers")
            elif row.library == "torchvision" and "LoRA" in self.methods:
                problems.append(f"LoRA targets ViT blocks; {regime!r} is a ResNet (the paper does not apply LoRA to ResNets)")
        for name in [*self.suite, self.reference]:
            row = datasets.get(name)
            if row is None:
                problems.append(f"dataset {name!r} is not in lib/registry/datasets.csv")
            elif row.label_space == "own" or row.splits:
                problems.append(f"dataset {name!r} is not a one-split dataset in the ImageNet-1K label space")
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
                out[chosen] = STYLE_SHIFTS[shift][1](images[chosen])
        return (out + NOISE_SIGMA * torch.randn(out.shape, generator=generator)).clamp(0.0, 1.0)

    return apply


class AugmentedBatches:
    """`batches` passed through `augment` afresh on every pass (re-iterable, with a length)."""

    def __init__(self, batches: Batches, augment: Callable[[torch.Tensor], torch.Tensor]) -> None:
        self.batches, self.augment = batches, augment

    def __len__(self) -> int:
        return len(self.batches)

    def __iter__(self):
        return ((self.augment(x), y) for x, y in self.batches)


class Benchmark:
    """Runs (or reads back from the store) the benchmark of one tier."""

    def __init__(self, settings: BenchmarkSettings, results_root: str | Path, context: RunContext = RunContext()) -> None:
        self.s = settings
        self.store = Store(results_root, PAPER)
        self.weights_dir = Path(results_root) / PAPER / "weights"
        self.context = context

    @property
    def reference(self) -> str:
        """The pretraining dataset's evaluation set (backward transfer)."""
        return self.s.pretrain_domain if self.s.source == "embedded" else self.s.reference

    @property
    def finetune_datasets(self) -> list[str]:
        """The suite datasets the models are fine-tuned on (registry: all but ObjectNet)."""
        return list(self.s.suite) if self.s.source == "embedded" else registry_finetune_datasets(self.s.suite)

    @functools.cached_property
    def suite(self) -> Suite:
        """The data. The registry suite opens every dataset here (DatasetMissingError names all missing ones)."""
        s = self.s
        if s.source == "embedded":
            return EmbeddedSuite(s.pretrain_domain, s.suite, s.class_subsets, s.image_size)
        return RegistrySuite(s.suite, s.reference, s.objectnet_evaluation, s.imagenet_c_finetune_severities,
                             s.data_root or None, s.workers)

    # -- runs ------------------------------------------------------------------------------------
    def run(self) -> pd.DataFrame:
        """Every run of the tier, computed or read back: per-item predictions on every evaluation set.

        The full tier holds about 4 M items per run (ImageNet-C: 3.75 M): use `run_accuracies` there."""
        return pd.concat(list(self._runs()), ignore_index=True)

    def run_accuracies(self) -> pd.DataFrame:
        """`accuracies(self.run())`, one run at a time: the per-item rows of one run in memory at most."""
        return pd.concat([accuracies(rows) for rows in self._runs()], ignore_index=True)

    def _runs(self) -> Iterator[pd.DataFrame]:
        """The per-item rows of each run in turn, computed (and stored) or read back from the store."""
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
        for (regime, seed), configs in plan.items():
            model = functools.cache(functools.partial(self.pretrained, regime, seed))  # loaded once, only if needed
            for config in configs:
                yield self.store.run(config, functools.partial(self._compute, config, model), self.context)

    def _run_config(self, regime: str, seed: int, method: str, name: str) -> dict:
        """What determines a run's predictions (its store key; also the key of its cached weights)."""
        s = self.s
        config = {"benchmark": PAPER, "source": s.source, "regime": regime, "seed": seed, "suite": s.suite}
        if s.source == "embedded":
            config |= {"architecture": s.architecture, "image_size": s.image_size, "pretrain": s.pretrain,
                       "pretrain_domain": s.pretrain_domain, "augment_shifts": s.augment_shifts, "class_subsets": s.class_subsets}
        else:
            row = model_spec(regime)
            model = {"library": row.library, "name": row.name, "pretrained": row.pretrained, "preprocess": row.preprocess}
            config |= {"model": model, "reference": s.reference, "objectnet_evaluation": s.objectnet_evaluation}
            if method != PRETRAINED and dataset_registry()[name].layout == "imagenet_c":
                config["imagenet_c_finetune_severities"] = s.imagenet_c_finetune_severities
        if method == PRETRAINED:
            return config | {"method": PRETRAINED, "finetune_dataset": ""}
        return config | {"method": method, "finetune_dataset": name, "finetune": s.finetune, "method_settings": s.method_settings}

    def _compute(self, config: dict, model: Callable[[], nn.Module]) -> pd.DataFrame:
        regime, seed, method, name = config["regime"], config["seed"], config["method"], config["finetune_dataset"]
        pretrained = model()
        suite = self._suite_for(regime, pretrained)
        if method == PRETRAINED:
            return self._evaluate(pretrained, suite)
        return self._evaluate(self._finetuned(method, regime, seed, name, pretrained, suite), suite)

    # -- models ----------------------------------------------------------------------------------
    def pretrained(self, regime: str, seed: int) -> nn.Module:
        """The pretrained classifier: trained under `regime` (embedded, cached) or loaded from the registry."""
        if self.s.source == "registry":
            return load_pretrained(regime).eval()
        s = self.s
        spec = {"pretrain": regime, "seed": seed, "architecture": s.architecture, "image_size": s.image_size,
                "pretrain_domain": s.pretrain_domain, "config": s.pretrain,
                "augment_shifts": s.augment_shifts if regime == "augmented" else None}
        model = self._blank(seed)
        model.load_state_dict(self._cached(spec, lambda: self._pretrain(regime, seed)))
        return model.eval()

    def finetuned(self, method: str, regime: str, seed: int, name: str) -> nn.Module:
        """The model after `method` on suite dataset `name` (weights cached where the post-hoc methods need them)."""
        pretrained = self.pretrained(regime, seed)
        return self._finetuned(method, regime, seed, name, pretrained, self._suite_for(regime, pretrained)).eval()

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

    def _suite_for(self, regime: str, model: nn.Module) -> Suite:
        """The suite read through the model's eval transform (registry); the embedded suite as is."""
        if self.s.source == "embedded":
            return self.suite
        row = model_spec(regime)
        return self.suite.with_transform(eval_transform(row.preprocess, model, weights=row.pretrained))

    def _cached(self, spec: dict, make: Callable[[], nn.Module]) -> dict[str, torch.Tensor]:
        path = self.weights_dir / f"{run_key(spec)}.pt"
        if path.is_file():
            return torch.load(path, map_location="cpu")
        state = {k: v.detach().cpu().clone() for k, v in make().state_dict().items()}
        atomic_write(path, lambda tmp: torch.save(state, tmp))
        return state

    @property
    def _ingredients(self) -> set[str]:
        """The trained methods whose weights the post-hoc methods of this tier reuse (cached on disk)."""
        needed = {"FT"} if "WiSE-FT" in self.s.methods else set()
        return needed | (set(SOUP_INGREDIENTS) if "MS:PRE-FT-EWC-LwF" in self.s.methods else set())

    def _finetuned(self, method: str, regime: str, seed: int, name: str, pretrained: nn.Module, suite: Suite) -> nn.Module:
        """The model after `method` on `name`: trained, or combined from cached weights (post-hoc)."""
        if method in POST_HOC:
            ingredients = ("FT",) if method == "WiSE-FT" else SOUP_INGREDIENTS
            weights = {m: self._weights(m, regime, seed, name, pretrained, suite) for m in ingredients}
            return post_hoc(method, pretrained, weights, MethodSettings(**self.s.method_settings))
        if method not in self._ingredients:
            return self._train(method, seed, name, pretrained, suite)
        model = copy.deepcopy(pretrained)
        model.load_state_dict(self._weights(method, regime, seed, name, pretrained, suite))
        return model

    def _weights(
        self, method: str, regime: str, seed: int, name: str, pretrained: nn.Module, suite: Suite
    ) -> dict[str, torch.Tensor]:
        """A trained method's weights, cached under the key of its run (WiSE-FT and the soup reuse them)."""
        config = self._run_config(regime, seed, method, name)
        return self._cached(config, lambda: self._train(method, seed, name, pretrained, suite))

    def _train(self, method: str, seed: int, name: str, pretrained: nn.Module, suite: Suite) -> nn.Module:
        config = self.s.config("finetune", seed)
        settings = MethodSettings(**self.s.method_settings)
        fisher = suite.fisher_batches(settings.ewc_fisher_images, config.batch_size, seed) if method == "EWC" else None
        return train_method(method, pretrained, suite.train_batches(name, config.batch_size, seed), config, settings,
                            suite.mask(name), fisher_batches=fisher)

    def _evaluate(self, model: nn.Module, suite: Suite) -> pd.DataFrame:
        """Per-item predictions on every evaluation set, batch by batch (no dataset's logits are kept:
        ImageNet-C's would take 15 GB); the model is left on the CPU."""
        amp = self.s.config("finetune", 0).amp
        frames = []
        for name, evaluation in suite.evaluation_sets().items():
            predictions, targets = [], []
            for batch in evaluation.batches:
                logits, target = predict_logits(model, [batch], self.s.device, amp=amp)
                predictions.append(suite.predictions(name, logits))
                targets.append(target)
            targets = torch.cat(targets).numpy()
            frames.append(pd.DataFrame({"eval_dataset": name, "part": evaluation.parts, "item": np.arange(len(targets)),
                                        "target": targets, "prediction": torch.cat(predictions).numpy()}))
        model.cpu()
        return pd.concat(frames, ignore_index=True)


def accuracies(runs: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) per regime, seed, method, fine-tuning dataset and evaluation dataset: the mean
    over the evaluation dataset's parts (ImageNet-C: its 75 corruption x severity splits)."""
    keys = ["regime", "seed", "method", "finetune_dataset", "eval_dataset"]
    correct = runs.assign(correct=runs["target"] == runs["prediction"])
    per_part = correct.groupby([*keys, "part"], sort=False, observed=True)["correct"].mean()
    return (100.0 * per_part.groupby(level=keys, sort=False).mean()).rename("accuracy").reset_index()


def robustness_table(
    acc: pd.DataFrame, suite: list[str], reference: str, finetune_datasets: list[str] | None = None
) -> pd.DataFrame:
    """RI per fine-tuning dataset, mRI, backward transfer on `reference` and accuracy on the
    fine-tuning set itself, per regime, seed and method (`lib.metrics.robustness`, Eq. 1).

    `finetune_datasets` (default: the whole suite) are the datasets fine-tuned on; RI_i still
    averages over every other dataset of `suite`."""
    finetune_datasets = list(suite) if finetune_datasets is None else finetune_datasets
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
            rows.append(row)
    return pd.DataFrame(rows)


def mean_and_standard_error(table: pd.DataFrame, value: str) -> pd.DataFrame:
    """Mean ± standard error over seeds of one column, per regime and method."""
    grouped = table.groupby(["regime", "method"], sort=False)[value]
    out = grouped.agg(["mean", "std", "count"]).reset_index()
    out["standard error"] = out["std"] / np.sqrt(out["count"])
    return out.drop(columns="std")
