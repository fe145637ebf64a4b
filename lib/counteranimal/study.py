"""Our CounterAnimal study: a zoo of CLIPs and supervised classifiers on common and counter groups.

Each run is one model (for one seed) evaluated on every item of its test set (the miniature: every
held-out digit on all ten backgrounds, the common and counter groups among them; the real dataset: its
common and counter groups); the store keeps its per-item ranked predictions (`lib.evaluate.frames`
format, with each item's class, group and background), `accuracies` turns a run into the paper's
metrics on the common and counter groups (class-balanced and micro common, counter and drop;
`lib.counteranimal.metrics`) and `background_accuracies` into the per-(class, background) accuracies
a curation reads (`ours.curation`, Fig. 5).

Two sources, as `params/<tier>/counteranimal/study.yaml` says (`StudySettings`):
- `miniature` (tiny and mini tiers): the miniature CounterAnimal (`miniature.py`, digits on
  backgrounds). Zoo members `family:architecture:images[:correlation]`:
  - `CLIP:tiny_clip:<n>`: a tiny CLIP pre-trained contrastively (`lib.models.clip.pretrain_clip`) on
    n image-caption pairs whose caption is the prompt filled with the digit's name, the data
    carrying the spurious class-background correlation; evaluated zero-shot through the shared head
    (`evaluation.zero_shot_head`) over the ten digit names with the same prompt (1 vs 10);
  - `CLIP-HQ:tiny_clip:<n>:<correlation>`: the same on data with a weaker correlation (the
    "high-quality" data analogue of DataComp/DFN);
  - `ImageNet:tiny_vit|tiny_resnet:<n>`: a supervised classifier (`build_standin`, cross-entropy)
    trained on the same kind of data with the same correlation (the "ImageNet models" analogue:
    supervised on exactly these classes); evaluated through its logits.
  Every member is trained and evaluated once per seed (the seed draws the digits' split, the
  rendered data, the initialisation and the batches).
- `registry` (full tier): the paper's checkpoints (`lib/registry/models.csv` keys; CLIPs zero-shot
  over the 1000 ImageNet labels with the paper's prompt, ImageNet models through their logits) on
  the real CounterAnimal (`lib/registry/datasets.csv`: `counteranimal`), 1 vs 1000, seed 0 only.
"""

from __future__ import annotations

import functools
import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from ..params import ParamsError, SettingsFile
from ..store import RunContext, StoredRuns, weights_checked
from . import metrics
from .miniature import DIGIT_CLASS_NAMES, MiniatureSpec

PAPER = "counteranimal"
TOP_K = 5
SOURCES = ("miniature", "registry")
# family -> (architectures it may use, how it is trained)
FAMILIES: dict[str, tuple[tuple[str, ...], str]] = {
    "CLIP": (("tiny_clip", "tiny_clip_small", "tiny_clip_large"), "contrastive"),
    "CLIP-HQ": (("tiny_clip",), "contrastive"),
    "ImageNet": (("tiny_vit", "tiny_resnet"), "supervised"),
}
RUN_COLUMNS = ["model", "family", "architecture", "images", "correlation", "seed"]
# what a miniature run is evaluated on (part of its key): every held-out digit on every background (`miniature.py`)
TEST_SET = "every background"


@dataclass(frozen=True)
class StudySettings(SettingsFile):
    """One tier's study, as written in `params/<tier>/counteranimal/study.yaml`.

    `models`: zoo members (`miniature`) or registry keys (`registry`). `seeds`: one run of each model
    per seed. `prompt`: the zero-shot template of the CLIPs (and the caption template of the
    miniature's pre-training). `miniature`: `MiniatureSpec` fields. `clip_pretrain`, `classifier_train`:
    `TrainConfig` fields of the two families (miniature only). `dataset`, `labels`: the registry
    dataset and label set (`evaluation.LABEL_SETS`; registry only). `curator`: the zoo member whose accuracies
    choose the curated groups from the miniature's pool of backgrounds (Fig. 5's analogue, `ours.curation`), the
    analogue of the paper's curation CLIP; for `registry`, that CLIP's key (the real groups are its choice
    already). `batch_size`: of evaluation. `amp`: evaluate under bf16 autocast on CUDA
    (`lib.evaluate.predictions.predict_ranked`; no effect on the CPU). `workers`: the data loader's processes
    that decode and transform the registry dataset's images (0: the main process).
    """

    source: str
    models: list[str]
    seeds: list[int]
    device: str
    batch_size: int
    amp: bool
    workers: int
    prompt: str
    miniature: dict
    clip_pretrain: dict
    classifier_train: dict
    dataset: str
    labels: str
    curator: str

    def validate(self, path: Path | str) -> None:
        """Check names against the zoo's families, the registries and the schemas, before any compute."""
        if self.source not in SOURCES:
            raise ParamsError(f"{path}: source must be one of {SOURCES}, got {self.source!r}")
        if not self.seeds or not self.models:
            raise ParamsError(f"{path}: models and seeds must not be empty")
        if self.workers < 0:
            raise ParamsError(f"{path}: workers must be >= 0, got {self.workers}")
        if self.source == "registry":
            self._validate_registry(path)
            return
        from ..train.config import TrainConfig

        for block in ("clip_pretrain", "classifier_train"):
            bad = sorted(set(getattr(self, block)) - {f.name for f in fields(TrainConfig)})
            if bad:
                raise ParamsError(f"{path}: {block} has keys {bad} that TrainConfig does not know")
        try:
            spec = MiniatureSpec.from_dict(self.miniature, f"{path}: miniature")
        except (TypeError, ValueError) as error:
            raise ParamsError(str(error).splitlines()[0]) from None
        for member in self.models:
            zoo_member(member, spec, path)
        if self.curator not in self.models or FAMILIES[zoo_member(self.curator, spec, path).family][1] != "contrastive":
            raise ParamsError(f"{path}: curator {self.curator!r} must be one of the study's CLIP models "
                              f"{[m for m in self.models if m.startswith('CLIP')]}")
        if "{}" not in self.prompt:
            raise ParamsError(f"{path}: prompt {self.prompt!r} needs a '{{}}' for the class name")

    def _validate_registry(self, path: Path | str) -> None:
        from ..data.registry import registry as datasets
        from ..models.registry import registry as models
        from .evaluation import LABEL_SETS

        unknown = [m for m in self.models if m not in models()]
        if unknown:
            raise ParamsError(f"{path}: models not in lib/registry/models.csv: {unknown}")
        if self.dataset not in datasets():
            raise ParamsError(f"{path}: dataset {self.dataset!r} is not in lib/registry/datasets.csv")
        if self.labels not in LABEL_SETS:
            raise ParamsError(f"{path}: labels must be one of {sorted(LABEL_SETS)}, got {self.labels!r}")
        if self.miniature or self.clip_pretrain or self.classifier_train:
            raise ParamsError(f"{path}: a registry study trains nothing: leave miniature, clip_pretrain and "
                              "classifier_train empty ({})")
        if self.curator not in self.models:
            raise ParamsError(f"{path}: curator {self.curator!r} must be one of the study's models (the paper's: "
                              "ca_clip_vit_b_32_laion400m_e31)")

    def spec(self) -> MiniatureSpec:
        return MiniatureSpec(**self.miniature)

    def train_config(self, family: str, seed: int):
        """The `TrainConfig` of a family's training, for one seed."""
        from ..train.config import TrainConfig

        block = self.clip_pretrain if FAMILIES[family][1] == "contrastive" else self.classifier_train
        return TrainConfig(**{**block, "seed": seed, "device": self.device})


@dataclass(frozen=True)
class ZooMember:
    """A miniature model: its family, stand-in architecture, pre-training images and correlation."""

    family: str
    architecture: str
    images: int
    correlation: float

    @property
    def name(self) -> str:
        return f"{self.family} {self.architecture.removeprefix('tiny_')} {self.images} img p={self.correlation:g}"


def zoo_member(text: str, spec: MiniatureSpec, path: Path | str = "study") -> ZooMember:
    """Parse `family:architecture:images[:correlation]` (correlation: default the spec's; a `CLIP-HQ`
    member must give one below it)."""
    parts = text.split(":")
    usage = (f"{path}: zoo member {text!r} must read family:architecture:images[:correlation] with family and "
             f"architecture in {({f: list(a) for f, (a, _) in FAMILIES.items()})}")
    if len(parts) not in (3, 4) or parts[0] not in FAMILIES or parts[1] not in FAMILIES[parts[0]][0] or not parts[2].isdigit():
        raise ParamsError(usage)
    try:
        correlation = float(parts[3]) if len(parts) == 4 else spec.spurious_correlation
    except ValueError:
        raise ParamsError(usage) from None
    if not 0.0 <= correlation <= 1.0:
        raise ParamsError(f"{path}: zoo member {text!r}: correlation must lie in [0, 1]")
    if parts[0] == "CLIP-HQ" and correlation >= spec.spurious_correlation:
        raise ParamsError(f"{path}: zoo member {text!r}: a CLIP-HQ member's correlation must be below the "
                          f"miniature's spurious_correlation {spec.spurious_correlation}")
    return ZooMember(parts[0], parts[1], int(parts[2]), correlation)


def registry_family(key: str) -> str:
    """The paper's family of a registry model: CLIP (CLIP-DC, CLIP-DFN for DataComp and DFN data) or ImageNet."""
    from ..models.registry import spec

    row = spec(key)
    if row.library != "open_clip":
        return "ImageNet"
    return "CLIP-DC" if "DataComp" in row.paper_label else "CLIP-DFN" if "DFN" in row.paper_label else "CLIP"


class Study(StoredRuns):
    """Runs (or reads back from the store) every model of a tier for every seed."""

    paper = PAPER
    settings: StudySettings

    def __init__(self, settings: StudySettings, results_root: str | Path, context: RunContext = RunContext()) -> None:
        super().__init__(settings, results_root, context)
        self._test_sets: dict[int, Any] = {}

    def jobs(self) -> list[tuple[dict[str, Any], Callable[[], pd.DataFrame]]]:
        """`(config, compute)` of every (model, seed) run; a missing dataset stops here."""
        s = self.settings
        if s.source == "registry":
            self._registry_data()  # DatasetMissingError before any compute
            jobs = [(self.registry_config(key), functools.partial(self._evaluate_registered, key)) for key in s.models]
            return weights_checked(self.store, jobs, self.weights_needed)
        spec = s.spec()
        return [(self.miniature_config(member, seed), functools.partial(self._train_and_evaluate, member, seed))
                for seed in s.seeds for member in (zoo_member(m, spec) for m in s.models)]

    def weights_needed(self, config: dict[str, Any]) -> tuple[str, ...]:
        """The model-registry keys whose weights the run of `config` loads (`store.weights_checked`)."""
        return (config["model"],) if config["source"] == "registry" else ()

    def miniature_config(self, member: ZooMember, seed: int) -> dict[str, Any]:
        """What determines a miniature run's result, and nothing else (its store key is a hash of this)."""
        s = self.settings
        train = {k: v for k, v in vars(s.train_config(member.family, seed)).items() if k != "device"}
        return {"study": PAPER, "source": s.source, **asdict(member), "model": member.name, "seed": seed,
                "miniature": asdict(s.spec()), "train": train, "prompt": s.prompt, "test_set": TEST_SET}

    def registry_config(self, key: str) -> dict[str, Any]:
        s = self.settings
        return {"study": PAPER, "source": s.source, "model": key, "family": registry_family(key), "seed": 0,
                "dataset": s.dataset, "labels": s.labels, "prompt": s.prompt, "amp": s.amp}

    def run_accuracies(self) -> pd.DataFrame:
        """`accuracies` of every run, kept as the store's summary of these runs."""
        return self.summary(accuracies)

    def background_accuracies(self) -> pd.DataFrame:
        """`background_accuracies` of every run, kept as the store's summary of these runs."""
        return self.summary(background_accuracies)

    def class_drops(self) -> pd.DataFrame:
        """`class_drops` of every run, kept as the store's summary of these runs."""
        return self.summary(class_drops)

    def model_sizes(self) -> pd.DataFrame:
        """`model_size` of every run, kept as the store's summary of these runs (reading it back
        builds no model, so needs no torch)."""
        return self.summary(model_size)

    # -- miniature ----------------------------------------------------------------------------
    def _test_set(self, seed: int):
        """The miniature CounterAnimal of `seed`, rendered once per study."""
        from .miniature import counteranimal_set

        if seed not in self._test_sets:
            self._test_sets[seed] = counteranimal_set(self.settings.spec(), seed)
        return self._test_sets[seed]

    def _train_and_evaluate(self, member: ZooMember, seed: int) -> pd.DataFrame:
        """Train the member on its pre-training data of `seed`, then rank the classes of every item."""
        import torch

        from ..evaluate.predictions import top_k
        from ..train.loop import tensor_batches
        from .evaluation import predictions
        from .miniature import as_tensors, pretraining_set

        s, spec = self.settings, self.settings.spec()
        data = pretraining_set(spec, member.images, seed, member.correlation)
        images, labels = as_tensors(data.images), torch.as_tensor(data.targets)
        config = s.train_config(member.family, seed)
        classifier = (self._pretrained_clip if FAMILIES[member.family][1] == "contrastive" else self._supervised)(
            member, images, labels, config)
        test = self._test_set(seed)
        batches = tensor_batches(as_tensors(test.images), torch.as_tensor(test.targets), s.batch_size, seed, shuffle=False)
        frame = predictions(classifier.eval(), test, batches, top_k(TOP_K), s.device, s.amp)
        return frame.assign(model=member.name, family=member.family, architecture=member.architecture,
                            images=member.images, correlation=member.correlation, seed=seed)

    def _pretrained_clip(self, member: ZooMember, images, labels, config):
        """A tiny CLIP pre-trained on the captions, as its zero-shot head over the digit names."""
        import torch
        from open_clip.tokenizer import SimpleTokenizer

        from ..models.clip import pretrain_clip
        from ..models.standins import build_standin
        from .evaluation import zero_shot_head

        model = build_standin(member.architecture, image_size=self.settings.spec().image_size, seed=config.seed)
        tokenizer = SimpleTokenizer(context_length=model.context_length)
        pretrain_clip(model, tokenizer, images, labels, DIGIT_CLASS_NAMES, self.settings.prompt, config)
        with torch.no_grad():
            return zero_shot_head(model.eval(), tokenizer, list(DIGIT_CLASS_NAMES), self.settings.prompt)

    def _supervised(self, member: ZooMember, images, labels, config):
        """A stand-in classifier trained with cross-entropy on the same kind of data."""
        from ..models.standins import build_standin
        from ..train.loop import tensor_batches, train

        model = build_standin(member.architecture, num_classes=len(DIGIT_CLASS_NAMES),
                              image_size=self.settings.spec().image_size, seed=config.seed)
        train(model, tensor_batches(images, labels, config.batch_size, config.seed), config)
        return model

    # -- registry -----------------------------------------------------------------------------
    def _registry_data(self, transform: Callable | None = None):
        from ..data.registry import open_dataset

        return open_dataset(self.settings.dataset, transform=transform)

    def _evaluate_registered(self, key: str) -> pd.DataFrame:
        """A registry model (missing weights: WeightsMissingError) on the real dataset, 1 vs 1000."""
        from ..evaluate.predictions import top_k
        from .evaluation import ordered_batches, predictions, registered_classifier

        s = self.settings
        classifier, transform = registered_classifier(key, s.labels, s.prompt, s.device, amp=s.amp)
        data = self._registry_data(transform)
        frame = predictions(classifier, data, ordered_batches(data, s.batch_size, s.workers), top_k(TOP_K), s.device, s.amp)
        return frame.assign(model=key, family=registry_family(key), architecture=key, images=0, correlation=float("nan"),
                            seed=0)


def _per_run(runs: pd.DataFrame, compute: Callable[[pd.DataFrame], pd.DataFrame], columns: list[str]) -> pd.DataFrame:
    """`compute(run)` of each run in `runs`, labelled by the run's columns (`RUN_COLUMNS`), then `columns`."""
    rows = [compute(run).assign(**dict(zip(RUN_COLUMNS, key)))
            for key, run in runs.groupby(RUN_COLUMNS, sort=False, dropna=False)]
    return pd.concat(rows, ignore_index=True)[[*RUN_COLUMNS, *columns]]


def accuracies(runs: pd.DataFrame) -> pd.DataFrame:
    """The paper's metrics of each run on its common and counter groups (balanced and micro common, counter,
    drop, in %), one row each, labelled by the run's columns (`RUN_COLUMNS`)."""
    return _per_run(runs[runs["group"].isin(metrics.GROUPS)], metrics.summary, ["averaging", "metric", "value"])


def background_accuracies(runs: pd.DataFrame) -> pd.DataFrame:
    """Each run's accuracy (%) per (class, background) and its number of `items`, every background it was evaluated
    on (the miniature's pool: all ten), labelled by the run's columns (`RUN_COLUMNS`): what a curation reads
    (`ours.curation`)."""
    def per_background(run: pd.DataFrame) -> pd.DataFrame:
        return metrics.accuracy_by(run, ["class", "background"]).rename(columns={"images": "items"})
    return _per_run(runs, per_background, ["class", "background", "items", "accuracy"])


def class_drops(runs: pd.DataFrame) -> pd.DataFrame:
    """Each run's common, counter and drop (%) per class (`target`: a registry study's ImageNet-1K index, which the
    folder names) on its common and counter groups (`metrics.classwise_drops`), labelled by the run's columns
    (`RUN_COLUMNS`): Figs. 4 and 15 of a registry study, whose groups are the real ones."""
    return _per_run(runs, functools.partial(metrics.classwise_drops, by="target"), ["target", "common", "counter", "drop"])


@functools.cache
def standin_parameters(architecture: str, image_size: int) -> float:
    """Millions of parameters of a stand-in (NaN for a registry model), for the marker size."""
    from ..models.standins import STANDINS, build_standin

    if architecture not in STANDINS:
        return float("nan")
    model = build_standin(architecture, num_classes=10, image_size=image_size)
    return sum(p.numel() for p in model.parameters()) / 1e6


def model_size(run: pd.DataFrame) -> pd.DataFrame:
    """A run's model and its millions of parameters (`params_m`): a stand-in's at the image size of its
    miniature, NaN for a registry model."""
    config = json.loads(run["config"].iloc[0])
    image_size = config["miniature"]["image_size"] if config["source"] == "miniature" else 0
    return pd.DataFrame({"model": [config["model"]], "params_m": [standin_parameters(config["architecture"], image_size)]})
