"""The protocol study: every evaluation protocol of the paper run on a zoo of models and datasets.

For each model of the zoo and each dataset, the study runs
- kNN probing (k nearest training items, Euclidean; `kNN` plain, `kNN_N` on z-scored features),
- linear probing on frozen features (`LP` plain, `LP_BN` behind a non-affine BatchNorm),
- end-to-end fine-tuning (`FT`), and, in-domain only, few-shot fine-tuning on class-balanced
  subsets (`FT10%`, `FT1%`, and with a BatchNorm head `FT10%_BN`, `FT1%_BN`),
the protocol names being the columns of the paper's Tables S.2/S.3. Each (model, dataset, protocol)
is one run in the results store holding the per-item top-5 ranked predictions, so top-1 and top-5
accuracies (and any later metric) come from the stored predictions.

The settings of a tier live in `params/<tier>/ssl_protocols/study.yaml` (see `StudySettings`).
Tiny and mini tiers pre-train a zoo of small stand-ins on an embedded domain (`lib.train.pretext`);
the full tier reads the paper's 26 checkpoints and datasets from the registries.

This module holds the settings and the plan of runs (their store keys) and imports no torch: a
notebook reading stored runs never does. The runs are computed by `protocols.ProtocolRunner`,
imported only when a run is computed or a registered dataset is opened.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import pandas as pd

from ..data.domains import DOMAINS
from ..evaluate.frames import hits, prediction_columns
from ..models.standins import STANDINS
from ..params import ParamsError, SettingsFile
from ..store import RunContext, StoredRuns, weights_checked
from ..train.config import TrainConfig
from ..train.objectives import OBJECTIVES

if TYPE_CHECKING:
    from .protocols import ProtocolRunner

PAPER = "ssl_protocols"
TOP_K = 5
PROBE_PROTOCOLS = ("kNN", "kNN_N", "LP", "LP_BN")
FEWSHOT_PROTOCOLS = ("FT10%", "FT10%_BN", "FT1%", "FT1%_BN")
FEWSHOT_FRACTIONS = {"FT10%": 0.1, "FT1%": 0.01}


@dataclass(frozen=True)
class StudySettings(SettingsFile):
    """One tier's study, as written in `params/<tier>/ssl_protocols/study.yaml`.

    `models`: for `source: embedded`, zoo members `objective:standin:epochs` (e.g.
    `simclr:tiny_resnet:20`); for `source: registry`, keys of `lib/registry/models.csv`.
    `in_domain` and `out_of_domain`: mini domain names (`lib.data.domains.DOMAINS`), or for the
    registry `label=train/test` where each side is a registry dataset, optionally `dataset:split`.
    `batch_sizes`: per dataset label, `[fine-tuning, linear probe]` batch sizes overriding the
    blocks' (Table S.4); empty in the small tiers.
    """

    source: str
    models: list[str]
    in_domain: str
    out_of_domain: list[str]
    image_size: int
    seed: int
    device: str
    knn_k: int
    pretrain: dict
    linear_probe: dict
    finetune: dict
    fewshot_finetune: dict
    vit: dict
    batch_sizes: dict

    def validate(self, path: Path) -> None:
        """Check names against the registries and the mini domains, before any compute."""
        for block in ("pretrain", "linear_probe", "finetune", "fewshot_finetune"):
            bad = sorted(set(getattr(self, block)) - {f.name for f in fields(TrainConfig)})
            if bad:
                raise ParamsError(f"{path}: {block} has keys {bad} that TrainConfig does not know")
        labels = set(self.dataset_labels())
        bad_sizes = [k for k, v in self.batch_sizes.items() if k not in labels or not (isinstance(v, list) and len(v) == 2)]
        if bad_sizes:
            raise ParamsError(f"{path}: batch_sizes entries {bad_sizes} must be dataset labels of the study mapped to [fine-tuning, probe]")
        if set(self.vit) != {"layer_decay", "label_smoothing", "drop_path"}:
            raise ParamsError(f"{path}: vit must set exactly layer_decay, label_smoothing, drop_path")
        if self.source == "embedded":
            for member in self.models:
                zoo_member(member, path)
            unknown = [d for d in [self.in_domain, *self.out_of_domain] if d not in DOMAINS]
            if unknown:
                raise ParamsError(f"{path}: unknown mini domains {unknown}; available {list(DOMAINS)}")
        elif self.source == "registry":
            from ..data.registry import registry as datasets
            from ..models.registry import registry as models

            unknown = [m for m in self.models if m not in models()]
            for entry in [self.in_domain, *self.out_of_domain]:
                unknown += [n for n in registry_pair(entry, path)[1:] if n.partition(":")[0] not in datasets()]
            if unknown:
                raise ParamsError(f"{path}: not in the registries: {unknown}")
        else:
            raise ParamsError(f"{path}: source must be 'embedded' or 'registry', got {self.source!r}")

    def config(self, block: str, dataset: str | None = None, **overrides: Any) -> TrainConfig:
        """The training config of a block; Table S.4's batch size for `dataset` where one is set."""
        values = {"seed": self.seed, "device": self.device, **getattr(self, block), **overrides}
        if dataset in self.batch_sizes and block != "pretrain":
            values["batch_size"] = self.batch_sizes[dataset][1 if block == "linear_probe" else 0]
        return TrainConfig(**values)


    def dataset_labels(self) -> list[str]:
        """The names the study reports datasets under (mini domain names, or registry labels)."""
        entries = [self.in_domain, *self.out_of_domain]
        return entries if self.source == "embedded" else [registry_pair(e)[0] for e in entries]


@dataclass(frozen=True)
class ZooMember:
    """A miniature model: a stand-in architecture pre-trained with one objective for some epochs."""

    objective: str
    architecture: str
    epochs: int

    @property
    def name(self) -> str:
        return f"{self.objective}-{self.architecture.removeprefix('tiny_')}-{self.epochs}ep"


def zoo_member(text: str, path: Path | str = "study") -> ZooMember:
    """Parse `objective:standin:epochs`."""
    parts = text.split(":")
    if len(parts) != 3 or parts[0] not in OBJECTIVES or parts[1] not in STANDINS or not parts[2].isdigit():
        raise ParamsError(f"{path}: zoo member {text!r} must be objective:standin:epochs with objective in "
                          f"{OBJECTIVES} and standin in {sorted(STANDINS)}")
    return ZooMember(parts[0], parts[1], int(parts[2]))


def registry_pair(entry: str, path: Path | str = "study") -> tuple[str, str, str]:
    """Parse `label=train/test` (or `label=dataset`, split with the seed); each side `dataset[:split]`."""
    if "=" not in entry:
        raise ParamsError(f"{path}: registry dataset {entry!r} must read label=train/test")
    label, names = entry.split("=", 1)
    train_name, _, test_name = names.partition("/")
    return label, train_name, test_name or train_name


class Study(StoredRuns):
    """Runs (or reads back from the store) every protocol for every model and dataset of a tier."""

    paper = PAPER
    settings: StudySettings

    def __init__(self, settings: StudySettings, results_root: str | Path, context: RunContext = RunContext()) -> None:
        super().__init__(settings, results_root, context)
        self.results_root = results_root

    @functools.cached_property
    def runner(self) -> ProtocolRunner:
        """What computes the runs: models, data and protocols (imports torch)."""
        from .protocols import ProtocolRunner

        return ProtocolRunner(self)

    # -- models -------------------------------------------------------------------------------
    def model_names(self) -> list[str]:
        s = self.settings
        return [zoo_member(m).name for m in s.models] if s.source == "embedded" else list(s.models)

    def method_backbone(self, index: int) -> tuple[str, str]:
        """The pre-training method and the architecture of the `index`-th model (a registry model's as the paper's
        tables name them: "MoCo v3", "ViT-B/16")."""
        s = self.settings
        if s.source == "embedded":
            member = zoo_member(s.models[index])
            return member.objective, member.architecture
        from ..models.registry import spec

        method, backbone = spec(s.models[index]).paper_label.rsplit(" ", 1)  # "MoCo v3 ViT-B/16": as Table S.2 names them
        return method, backbone

    # -- data ---------------------------------------------------------------------------------
    def dataset_names(self) -> list[str]:
        return self.settings.dataset_labels()

    def check_inputs(self) -> None:
        """Open every registered dataset before any compute: missing ones stop the study with one
        error listing them all (embedded domain names are checked with the settings)."""
        if self.settings.source == "registry":
            self.runner.registry

    # -- protocols ----------------------------------------------------------------------------
    def protocols(self, in_domain: bool) -> tuple[str, ...]:
        return PROBE_PROTOCOLS + ("FT",) + (FEWSHOT_PROTOCOLS if in_domain else ())

    def run_accuracies(self) -> pd.DataFrame:
        """`accuracies(self.run())`, one run at a time, kept as the store's summary of these runs."""
        return self.summary(accuracies)

    def jobs(self) -> list[tuple[dict[str, Any], Callable[[], pd.DataFrame]]]:
        """`(config, compute)` of every (model, dataset, protocol) run; missing inputs stop here."""
        self.check_inputs()
        entries = [self.settings.in_domain, *self.settings.out_of_domain]
        jobs = [(self.run_config(index, label, protocol), functools.partial(self._evaluate, index, entry, label, protocol))
                for index in range(len(self.model_names()))
                for position, (entry, label) in enumerate(zip(entries, self.dataset_names()))
                for protocol in self.protocols(position == 0)]
        return weights_checked(self.store, jobs, self.weights_needed)

    def weights_needed(self, config: dict[str, Any]) -> tuple[str, ...]:
        """The model-registry keys whose weights the run of `config` loads (`store.weights_checked`)."""
        return (config["model_spec"],) if config["source"] == "registry" else ()

    def run_config(self, index: int, label: str, protocol: str) -> dict[str, Any]:
        """What determines one run's result, and nothing else (its store key is a hash of this)."""
        s = self.settings
        method, backbone = self.method_backbone(index)
        config = {"study": PAPER, "model": self.model_names()[index], "model_spec": s.models[index], "method": method,
                  "backbone": backbone, "dataset": label, "protocol": protocol, "source": s.source,
                  "pretrain_domain": s.in_domain, "pretrain": s.pretrain, "image_size": s.image_size, "seed": s.seed}
        if protocol.startswith("kNN"):
            config["knn_k"] = s.knn_k
        elif protocol.startswith("LP"):
            config["train"] = vars(s.config("linear_probe", label))
        else:
            block = "finetune" if protocol == "FT" else "fewshot_finetune"
            config["train"] = vars(s.config(block, label))
            config["vit"] = s.vit
        config["train"] = {k: v for k, v in config.get("train", {}).items() if k != "device"} or None
        return config

    def _evaluate(self, index: int, entry: str, label: str, protocol: str) -> pd.DataFrame:
        return self.runner.evaluate(index, entry, label, protocol)


def accuracies(runs: pd.DataFrame) -> pd.DataFrame:
    """Top-1 and top-5 accuracy (%) of each run, in the schema of `accuracies.published_accuracies`.

    Top-5 on a dataset of fewer than five classes counts every ranked class (it is then 100 %).
    """
    ranks = len(prediction_columns(runs))
    rows = []
    keys = ["model", "method", "backbone", "dataset", "protocol"]
    for key, run in runs.groupby(keys, sort=False):
        for metric, k in (("top1", 1), ("top5", min(TOP_K, ranks))):  # missing ranks (NaN) never hit
            value = 100.0 * hits(run, k).mean()
            rows.append({**dict(zip(keys, key)), "metric": metric, "printed": f"{value:.1f}", "value": value})
    return pd.DataFrame(rows)
