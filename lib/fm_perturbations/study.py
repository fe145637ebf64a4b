"""The perturbation study (Secs. 4-5): the grid of every model, dataset, perturbation and parameter
value, its per-image robustness metrics, and the zero-shot and linear-probe heads on every cell.

Runs go through the results store, one per (model, dataset) for the metrics (per-image R_cs, R_ed,
R_dr) and one per (model, dataset, head) for the predictions (the shared per-item format, every
cell); both read the grid's embeddings from the feature cache (`lib.fm_perturbations.grid`), so a
perturbed image is embedded once per model whatever reads it. The linear probe trains on the clean
embeddings of the dataset's training split, embedded a batch at a time into the same cache.

The settings of a tier live in `params/<tier>/fm_perturbations/study.yaml` (`StudySettings`):
`source: embedded` runs stand-ins (`lib.models.standins`) on the embedded mini domains
(`lib.data.shifts`: scikit-learn's digits, scikit-image's photo crops; grey, shown to the models as
RGB), random-init or pretrained on the domains' training images (`pretrain`,
`lib.fm_perturbations.training`); `source: registry` runs the paper's models of `lib/registry/models.csv` on registry datasets,
each model at its own native input size (images resized on the shorter side, bicubic, and centre
cropped before they are perturbed).

Two further analyses run through the store when their settings are not empty: `sampling_study`
(Fig. 3: the average DivergenceRadius of one model, dataset and perturbation as the number m of
sampled parameter values grows, equally spaced and random) and `finetune` (Fig. 7 and the λ sweep of
Table 9: robustness fine-tuning of one CLIP, R_cs, R_dr and zero-shot accuracy before and after).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..atomic import load_or_make
from ..finetune.templates import TEMPLATE_SETS
from ..params import ParamsError, SettingsFile
from ..store import FeatureCache, RunContext, Store, run_key, weights_checked
from .accuracies import PAPER
from .grid import CLEAN, Embedder, Grid, GridImages, embed_grid, grid_parameters, image_metrics, metric_summary
from .metrics import METRICS
from .tables import LINEAR_PROBE, ZERO_SHOT, accuracy_table, image_accuracies

SOURCES = ("embedded", "registry")
SAMPLINGS = ("equal", "random")
STANDIN_MEAN_STD = ((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))  # pixels to [-1, 1] for the stand-ins
CLIP_STANDINS = ("tiny_clip",)  # stand-ins with a text tower (a zero-shot head)
REGISTRY_LIBRARIES = ("open_clip", "timm")
SAMPLING_KEYS = {"model", "dataset", "perturbation", "m_values", "random_repeats", "n_images"}
FINETUNE_KEYS = {"model", "dataset", "perturbation", "lambdas", "n_train", "train"}


@dataclass(frozen=True)
class StudySettings(SettingsFile):
    """One tier's study, as written in `params/<tier>/fm_perturbations/study.yaml`.

    `models`: stand-in names (`source: embedded`) or `models.csv` keys (`source: registry`);
    `zero_shot` and `linear_probe_models`: the models each head runs on (a zero-shot head needs a
    CLIP); `datasets`: mini domains (`digits`, `photos`), or for the registry `label=train/test` with
    registry dataset names (the probe, the stand-ins' pretraining and the fine-tuning train on `train`,
    everything else reads `test`);
    `perturbations`: names in `lib.perturb.PERTURBATIONS`; `m` values each, `sampling` `equal` or
    `random`; `include_clean`: whether the clean image is one of the versions the metrics see (K ∋ ⊥);
    `n_images` / `n_train`: seeded subsets of the test / training images (0: all); `image_size`: the
    side of the embedded images (0 for the registry: each model's native size); `templates`: a
    `lib.finetune.templates.TEMPLATE_SETS` name; `linear_probe`: `TrainConfig` values of the probe;
    `pretrain`: stand-in -> `TrainConfig` values of its pretraining (embedded only; others stay
    random-init); `sampling_study`: `{}` or the keys `SAMPLING_KEYS` (Fig. 3); `finetune`: `{}` or
    the keys `FINETUNE_KEYS` (Fig. 7; `train`: `TrainConfig` values, `n_train`: training images);
    `amp`: embed under bf16 autocast on CUDA (`grid.torch_embedder`; no effect on the CPU); `workers`: the
    threads that perturb a grid cell's images (`grid.perturb_images`; the result does not depend on it).
    """

    source: str
    models: list[str]
    zero_shot: list[str]
    linear_probe_models: list[str]
    datasets: list[str]
    perturbations: list[str]
    m: int
    sampling: str
    include_clean: bool
    n_images: int
    n_train: int
    image_size: int
    seed: int
    device: str
    batch_size: int
    amp: bool
    workers: int
    templates: str
    linear_probe: dict
    bootstrap_resamples: int
    data_root: str
    pretrain: dict
    sampling_study: dict
    finetune: dict

    def validate(self, path: Path | str = "study") -> None:
        """Check every name against the registries, the mini domains and the perturbations, offline."""
        from ..perturb.perturbations import PERTURBATIONS
        from ..train.config import TrainConfig

        checks = [
            (self.source in SOURCES, f"source must be one of {SOURCES}, got {self.source!r}"),
            (self.sampling in SAMPLINGS, f"sampling must be one of {SAMPLINGS}, got {self.sampling!r}"),
            (self.m >= 1 and self.n_images >= 0 and self.n_train >= 0, "m must be >= 1, n_images and n_train >= 0"),
            (self.workers >= 1, f"workers must be >= 1 (threads perturbing the images), got {self.workers}"),
            (not set(self.zero_shot + self.linear_probe_models) - set(self.models),
             "zero_shot and linear_probe_models must be models of the study"),
            (not set(self.perturbations) - set(PERTURBATIONS),
             f"unknown perturbations {sorted(set(self.perturbations) - set(PERTURBATIONS))}; see lib.perturb.PERTURBATIONS"),
            (self.templates in TEMPLATE_SETS, f"templates must be one of {list(TEMPLATE_SETS)}, got {self.templates!r}"),
            (not set(self.linear_probe) - {f.name for f in fields(TrainConfig)},
             f"linear_probe has keys {sorted(set(self.linear_probe) - {f.name for f in fields(TrainConfig)})} "
             "that TrainConfig does not know"),
            (not set(self.pretrain) - set(self.models), "pretrain must name models of the study"),
            (all(isinstance(c, dict) and not set(c) - {f.name for f in fields(TrainConfig)}
                 for c in self.pretrain.values()), "pretrain: each model's values must be TrainConfig keys"),
            *self._analysis_checks("sampling_study", self.sampling_study, SAMPLING_KEYS),
            *self._analysis_checks("finetune", self.finetune, FINETUNE_KEYS),
            (not self.finetune or not set(self.finetune.get("train", {})) - {f.name for f in fields(TrainConfig)},
             "finetune: train's values must be TrainConfig keys"),
        ]
        checks += self._embedded_checks() if self.source == "embedded" else self._registry_checks(path)
        checks.append((not self.finetune or self.finetune.get("model") in self.zero_shot,
                       "finetune: model must be one of zero_shot (Fig. 7 measures zero-shot accuracy)"))
        for ok, message in checks:
            if not ok:
                raise ParamsError(f"{path}: {message}")

    def _analysis_checks(self, name: str, values: dict, keys: set[str]) -> list[tuple[bool, str]]:
        """An optional analysis: empty, or exactly `keys` naming a model, dataset and perturbation of the study."""
        if not values:
            return []
        return [(set(values) == keys, f"{name} must be {{}} or have exactly the keys {sorted(keys)}"),
                (values.get("model") in self.models, f"{name}: model must be one of {self.models}"),
                (values.get("dataset") in self.labels(), f"{name}: dataset must be one of {self.labels()}"),
                (values.get("perturbation") in self.perturbations,
                 f"{name}: perturbation must be one of the study's perturbations")]

    def _embedded_checks(self) -> list[tuple[bool, str]]:
        from ..models.standins import STANDINS

        return [
            (not set(self.models) - set(STANDINS), f"embedded models must be stand-ins {sorted(STANDINS)}"),
            (not set(self.zero_shot) - set(CLIP_STANDINS), f"zero_shot needs CLIP stand-ins {CLIP_STANDINS}"),
            (not set(self.datasets) - set(EMBEDDED_CLASS_NAMES), f"embedded datasets must be in {list(EMBEDDED_CLASS_NAMES)}"),
            (self.image_size > 0, "image_size must be positive for embedded data"),
        ]

    def _registry_checks(self, path: Path | str) -> list[tuple[bool, str]]:
        from ..data.registry import registry as datasets
        from ..models.registry import registry as models

        unknown_models = [m for m in self.models if m not in models()]
        unknown_data = [n for entry in self.datasets for n in registry_pair(entry, path)[1:] if n not in datasets()]
        return [
            (not unknown_models, f"models not in lib/registry/models.csv: {unknown_models}"),
            (all(models()[m].library in REGISTRY_LIBRARIES for m in self.models if m in models()),
             f"registry models must be {REGISTRY_LIBRARIES} rows"),
            (all(models()[m].library == "open_clip" for m in self.zero_shot if m in models()),
             "zero_shot needs open_clip models"),
            (not unknown_data, f"datasets not in lib/registry/datasets.csv: {unknown_data}"),
            (self.image_size == 0, "image_size must be 0 for the registry (each model's native input size)"),
            (not self.pretrain, "pretrain is for stand-ins (source: embedded); registry models come pretrained"),
        ]

    def parameters(self) -> dict[str, np.ndarray]:
        """The sampled parameter values of every perturbation."""
        return grid_parameters(self.perturbations, self.m, self.sampling, self.seed)

    def labels(self) -> list[str]:
        """The names the study reports datasets under."""
        return [registry_pair(e)[0] if self.source == "registry" else e for e in self.datasets]


def _digit_names() -> tuple[str, ...]:
    from ..data.embedded import DIGIT_CLASS_NAMES

    return DIGIT_CLASS_NAMES


def _photo_names() -> tuple[str, ...]:
    from ..data.embedded import SKIMAGE_PHOTOS

    return tuple(name.replace("_", " ") for name in SKIMAGE_PHOTOS)


EMBEDDED_CLASS_NAMES: dict[str, Callable[[], tuple[str, ...]]] = {"digits": _digit_names, "photos": _photo_names}


def registry_pair(entry: str, path: Path | str = "study") -> tuple[str, str, str]:
    """`label=train/test` -> (label, train dataset, test dataset)."""
    label, sep, names = entry.partition("=")
    train, slash, test = names.partition("/")
    if not (sep and slash and label and train and test):
        raise ParamsError(f"{path}: registry dataset {entry!r} must read label=train/test (registry dataset names)")
    return label, train, test


@dataclass(frozen=True)
class Split:
    """One split of a dataset at one image side, subset as the settings say: `name` (dataset, split,
    subset and side: it names the split's cache entries), the `targets`, `load` (positions in the
    subset -> uint8 images (n, side, side, 3), read only when asked) and its label space."""

    name: str
    targets: np.ndarray
    load: Callable[[np.ndarray], np.ndarray]
    class_names: tuple[str, ...]
    num_classes: int

    def images(self) -> GridImages:
        """Every image of the split in memory, for the grid."""
        return GridImages(self.name, self.load(np.arange(len(self.targets))), self.targets)


def subset(count: int, n: int, seed: int) -> np.ndarray:
    """`n` of `count` indices drawn with `seed`, in order (all of them when n is 0 or at least count)."""
    if n == 0 or n >= count:
        return np.arange(count)
    return np.sort(np.random.default_rng(seed).choice(count, size=n, replace=False))


class Study:
    """Runs (or reads back from the store) the metrics and head predictions of every model and dataset."""

    def __init__(self, settings: StudySettings, results_root: str | Path, context: RunContext = RunContext()) -> None:
        self.settings = settings
        self.store = Store(results_root, PAPER)
        self.cache = FeatureCache(results_root)
        self.context = context
        self._models: dict[str, Any] = {}
        self._splits: dict[tuple[str, str, int], Split] = {}
        self._grids: dict[str, Grid] = {}

    # -- models -------------------------------------------------------------------------------
    def model(self, name: str) -> Any:
        """The network of a model of the study: a stand-in (pretrained as `pretrain` says, the weights
        cached under the results root), or the registry's pretrained model."""
        if name not in self._models:
            s = self.settings
            if s.source == "embedded" and name in s.pretrain:
                self._models[name] = self._pretrained_standin(name)
            elif s.source == "embedded":
                from ..models.standins import build_standin

                self._models[name] = build_standin(name, num_classes=0, image_size=s.image_size, seed=s.seed)
            else:
                from ..models.registry import load_pretrained

                self._models[name] = load_pretrained(name)
        return self._models[name]

    def _pretrained_standin(self, name: str) -> Any:
        """A stand-in trained on the training images of every dataset of the study, their label spaces side by side."""
        import torch

        from ..models.standins import build_standin
        from ..train.config import TrainConfig
        from .training import normalised, pretrain_standin

        s = self.settings
        splits = [self.split(i, "all_train", s.image_size) for i in range(len(s.datasets))]
        offsets = np.cumsum([0] + [split.num_classes for split in splits])
        class_names = [n for split in splits for n in split.class_names]
        model = build_standin(name, num_classes=0 if name in CLIP_STANDINS else int(offsets[-1]),
                              image_size=s.image_size, seed=s.seed)
        spec = {"kind": "fm_perturbations_pretrain", "model": name, "datasets": [split.name for split in splits],
                "config": s.pretrain[name], "templates": s.templates, "seed": s.seed}

        def make() -> dict:
            images = torch.cat([normalised(split.load(np.arange(len(split.targets))), *STANDIN_MEAN_STD)
                                for split in splits])
            labels = torch.as_tensor(np.concatenate([split.targets + o for split, o in zip(splits, offsets)]))
            config = TrainConfig(**{"seed": s.seed, "device": s.device, **s.pretrain[name]})
            trained = pretrain_standin(model, images, labels, class_names, TEMPLATE_SETS[s.templates][0], config)
            return {k: v.detach().cpu() for k, v in trained.state_dict().items()}

        path = self.store.root / PAPER / "weights" / f"{run_key(spec)}.pt"
        state = load_or_make(path, lambda p: torch.load(p, map_location="cpu"), make, torch.save)
        model.load_state_dict(state)
        return model.eval()

    def input_size(self, name: str) -> int:
        """The side of the images a model reads: the study's for stand-ins, the native one for the registry."""
        return self.settings.image_size if self.settings.source == "embedded" else native_input(name)[0]

    def mean_std(self, name: str) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The per-channel normalisation of a model's input."""
        return STANDIN_MEAN_STD if self.settings.source == "embedded" else native_input(name)[1:]

    def embedder(self, name: str, network: Any = None, tag: str = "") -> Embedder:
        """The grid's view of a model of the study (or of `network`, a tuned copy of it, named `name` + `tag`)."""
        from .grid import torch_embedder

        s = self.settings
        version = f"{s.source} seed={s.seed} input={self.input_size(name)} pretrain={s.pretrain.get(name, {})} {tag}"
        return torch_embedder(name + tag, self.model(name) if network is None else network, *self.mean_std(name),
                              s.batch_size, s.device, version.strip(), s.amp)

    # -- data ---------------------------------------------------------------------------------
    def split(self, index: int, part: str, size: int) -> Split:
        """The `part` of the `index`-th dataset at image side `size`: "test" and "train" subset as set
        (`n_images`, `n_train`), "all_train" the whole training split."""
        key = (self.settings.datasets[index], part, size)
        if key not in self._splits:
            load = self._embedded_split if self.settings.source == "embedded" else self._registry_split
            self._splits[key] = load(index, part, size)
        return self._splits[key]

    def _embedded_split(self, index: int, part: str, size: int) -> Split:
        from ..data.shifts import make_domain
        from ..perturb.tensors import to_rgb8

        s, name = self.settings, self.settings.datasets[index]
        domain = make_domain(name, size, s.seed)
        images, labels = (domain.test_images, domain.test_labels) if part == "test" else (domain.train_images, domain.train_labels)
        keep = subset(len(labels), {"train": s.n_train, "test": s.n_images}.get(part, 0), s.seed)
        pixels = to_rgb8(images[keep])
        return Split(f"{name}-{part}-{len(keep)}of{len(labels)}-{size}px-seed{s.seed}", labels.numpy()[keep],
                     lambda positions: pixels[positions], EMBEDDED_CLASS_NAMES[name](), domain.num_classes)

    def _registry_split(self, index: int, part: str, size: int) -> Split:
        from ..data.registry import open_dataset
        from ..models.clip import imagenet_class_names

        s = self.settings
        _, train, test = registry_pair(s.datasets[index])
        name = test if part == "test" else train
        data = open_dataset(name, root=s.data_root or None, transform=rgb8_transform(size))
        keep = subset(len(data), {"train": s.n_train, "test": s.n_images}.get(part, 0), s.seed)
        targets = np.array([data.target(int(i)) for i in keep], dtype=np.int64)
        names = (tuple(imagenet_class_names()) if data.label_space != "own"
                 else tuple(n.replace("_", " ") for n in data.class_names))
        return Split(f"{name}-{part}-{len(keep)}of{len(data)}-{size}px-seed{s.seed}", targets,
                     lambda positions: np.stack([data[int(keep[p])][0] for p in positions]), names, data.num_outputs)

    def check_inputs(self) -> None:
        """Open every registry dataset before any compute; missing ones stop the study with one error listing them."""
        if self.settings.source != "registry":
            return
        from ..data.labelled import DatasetMissingError
        from ..data.registry import spec

        missing = [spec(n).missing_message(self.settings.data_root or None)
                   for entry in self.settings.datasets for n in registry_pair(entry)[1:]
                   if not spec(n).path(self.settings.data_root or None).is_dir()]
        if missing:
            raise DatasetMissingError(f"{len(missing)} dataset(s) of the study are missing:\n- " + "\n- ".join(missing))

    # -- the grid -----------------------------------------------------------------------------
    def grid(self, index: int) -> Grid:
        """The `index`-th dataset's grid (test split) for every model: the models are grouped by input size,
        and each group's images are perturbed once."""
        key = self.settings.datasets[index]
        if key not in self._grids:
            s = self.settings
            sizes: dict[int, list[str]] = {}
            for name in s.models:
                sizes.setdefault(self.input_size(name), []).append(name)
            embeddings: dict = {}
            for size, names in sizes.items():
                split = self.split(index, "test", size)
                embeddings |= embed_grid(split.images(), [self.embedder(n) for n in names], s.parameters(), s.seed,
                                         self.cache, s.workers).embeddings
            self._grids[key] = Grid(s.labels()[index], split.targets, s.parameters(), embeddings)
        return self._grids[key]

    def train_features(self, model: str, index: int) -> tuple[np.ndarray, np.ndarray]:
        """Clean embeddings and targets of the `index`-th dataset's training split (the probe's input),
        through the feature cache, the images read and embedded a batch at a time."""
        s, embedder = self.settings, self.embedder(model)
        split = self.split(index, "train", self.input_size(model))
        spec = {"kind": "fm_perturbations_train", "model": model, "model_version": embedder.version,
                "dataset": split.name}

        def compute() -> tuple[np.ndarray, np.ndarray]:
            positions = np.arange(len(split.targets))
            batches = [positions[i:i + s.batch_size] for i in range(0, len(positions), s.batch_size)]
            return np.concatenate([embedder.embed(split.load(b)) for b in batches]), split.targets

        return self.cache.get(spec, compute)

    # -- runs ---------------------------------------------------------------------------------
    def base_config(self, model: str, index: int) -> dict[str, Any]:
        s = self.settings
        return {"study": PAPER, "source": s.source, "model": model, "dataset": s.labels()[index],
                "dataset_spec": s.datasets[index], "perturbations": s.perturbations, "m": s.m, "sampling": s.sampling,
                "n_images": s.n_images, "image_size": self.input_size(model), "seed": s.seed,
                "pretrain": s.pretrain.get(model, {})}

    def jobs(self) -> list[tuple[dict[str, Any], Callable[[], pd.DataFrame]]]:
        """`(config, compute)` of every metrics run and every head run; missing inputs stop here."""
        self.check_inputs()
        s, jobs = self.settings, []
        for index in range(len(s.datasets)):
            for model in s.models:
                config = {**self.base_config(model, index), "kind": "metrics", "include_clean": s.include_clean}
                jobs.append((config, functools.partial(self._metrics, model, index)))
                heads = [(ZERO_SHOT, model in s.zero_shot), (LINEAR_PROBE, model in s.linear_probe_models)]
                for head in (h for h, wanted in heads if wanted):
                    config = {**self.base_config(model, index), "kind": "predictions", "head": head}
                    config.update({"templates": s.templates} if head == ZERO_SHOT else
                                  {"linear_probe": s.linear_probe, "n_train": s.n_train})
                    jobs.append((config, functools.partial(self._predictions, model, index, head)))
        return weights_checked(self.store, jobs, self.weights_needed)

    def weights_needed(self, config: dict[str, Any]) -> tuple[str, ...]:
        """The model-registry keys whose weights the run of `config` loads (`store.weights_checked`)."""
        return (config["model"],) if config["source"] == "registry" else ()

    def _metrics(self, model: str, index: int) -> pd.DataFrame:
        grid = self.grid(index)
        one = Grid(grid.dataset, grid.targets, grid.parameters,
                   {k: v for k, v in grid.embeddings.items() if k[0] == model})
        return image_metrics(one, tuple(METRICS), self.settings.include_clean)

    def _predictions(self, model: str, index: int, head_name: str) -> pd.DataFrame:
        from .heads import EmbeddingZeroShot, grid_predictions

        s, grid = self.settings, self.grid(index)
        split = self.split(index, "test", self.input_size(model))
        if head_name == ZERO_SHOT:
            head = EmbeddingZeroShot.from_classifier(self._zero_shot_classifier(model, split.class_names))
        else:
            from ..train.config import TrainConfig
            from ..train.probe import fit_linear_probe

            features, targets = self.train_features(model, index)
            config = TrainConfig(**{"seed": s.seed, "device": s.device, **s.linear_probe})
            head = fit_linear_probe(features, targets, split.num_classes, config, batchnorm=False)
        return grid_predictions(head, grid, model, head_name, device=s.device)

    def _zero_shot_classifier(self, model: str, class_names: tuple[str, ...], network: Any = None):
        from open_clip.tokenizer import SimpleTokenizer

        from ..models.clip import tokenizer_for, zero_shot_classifier

        network = self.model(model) if network is None else network
        tokenizer = (SimpleTokenizer(context_length=network.context_length) if self.settings.source == "embedded"
                     else tokenizer_for(model))
        return zero_shot_classifier(network, tokenizer, class_names, TEMPLATE_SETS[self.settings.templates],
                                    text_tower="frozen").eval()

    def run(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """Every run, computed or read back: (per-image metrics, per-item predictions of every cell)."""
        frames = list(self.store.run_all(self.jobs(), self.context))
        metrics = [f for f in frames if (f["kind"] == "metrics").all()]
        predictions = [f for f in frames if (f["kind"] == "predictions").all()]
        return (pd.concat(metrics, ignore_index=True),
                pd.concat(predictions, ignore_index=True) if predictions else pd.DataFrame())

    def summaries(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """(metric means with bootstrap intervals per model, dataset and perturbation; the Tables 2-3 frame)."""
        metrics, predictions = self.run()
        table = accuracy_table(predictions) if len(predictions) else pd.DataFrame()
        return metric_summary(metrics, self.settings.bootstrap_resamples, self.settings.seed), table


    # -- Fig. 3: sampling the domain; Fig. 7: robustness fine-tuning ---------------------------------
    def analysis_jobs(self) -> list[tuple[dict[str, Any], Callable[[], pd.DataFrame]]]:
        """`(config, compute)` of the sampling study (one run) and of the fine-tuning (one run for the
        original model, one per λ), for those of the two the settings ask for; missing inputs stop here."""
        self.check_inputs()
        s, jobs = self.settings, []
        if s.sampling_study:
            c = s.sampling_study
            config = {**self.base_config(c["model"], s.labels().index(c["dataset"])), "kind": "sampling",
                      "sampling_study": c, "include_clean": s.include_clean}
            jobs.append((config, self._sampling))
        if s.finetune:
            f = s.finetune
            base = {**self.base_config(f["model"], s.labels().index(f["dataset"])), "kind": "finetune",
                    "datasets": s.datasets, "finetune": f, "templates": s.templates, "include_clean": s.include_clean}
            for weight in [None, *map(float, f["lambdas"])]:
                jobs.append(({**base, "lambda": weight}, functools.partial(self._finetuned, weight)))
        return weights_checked(self.store, jobs, self.weights_needed)

    def precompute(self) -> int:
        """Compute every missing run no other process is computing, reading nothing back; how many were computed here."""
        return self.store.compute_missing(self.jobs() + self.analysis_jobs(), self.context)

    def analyses(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """(the sampling study's per-image R_dr; the fine-tuning's per-image metrics and accuracies),
        computed or read back; empty frames for an analysis the settings leave out."""
        frames = list(self.store.run_all(self.analysis_jobs(), self.context))
        sampling = [f for f in frames if (f["kind"] == "sampling").all()]
        tuned = [f for f in frames if (f["kind"] == "finetune").all()]
        return (pd.concat(sampling, ignore_index=True) if sampling else pd.DataFrame(),
                pd.concat(tuned, ignore_index=True) if tuned else pd.DataFrame())

    def _sampling(self) -> pd.DataFrame:
        """Per image (`n_images` of the test images), R_dr of the one model under the one perturbation for
        every m, equally spaced (one set) and random (`random_repeats` sets, seeds seed, seed + 1, ...)."""
        from ..perturb.corruptions import parameter_values

        s, c = self.settings, self.settings.sampling_study
        split = self.split(s.labels().index(c["dataset"]), "test", self.input_size(c["model"]))
        keep = subset(len(split.targets), int(c["n_images"]), s.seed)  # a subset of the study's test images
        data = GridImages(split.name, split.load(keep), split.targets[keep])
        embedder, frames = self.embedder(c["model"]), []
        for how, repeats in (("equal", 1), ("random", int(c["random_repeats"]))):
            for m in c["m_values"]:
                for repeat in range(repeats):
                    values = parameter_values(c["perturbation"], int(m), how, s.seed + repeat)
                    grid = embed_grid(data, [embedder], {c["perturbation"]: values}, s.seed, self.cache, s.workers)
                    frames.append(image_metrics(grid, ("divergence_radius",), s.include_clean).assign(
                        dataset=c["dataset"], sampling=how, m=int(m), repeat=repeat))
        return pd.concat(frames, ignore_index=True)

    def _finetuned(self, weight: float | None) -> pd.DataFrame:
        """The CLIP as it is (`weight` None) or fine-tuned with λ = `weight` (Sec. 6.1) on `n_train` training
        images of the fine-tuning dataset; per test image of every dataset, R_cs and R_dr under the
        perturbation (the study's sampled values) and the zero-shot head's ACC (clean) and ACC_p."""
        from ..train.config import TrainConfig
        from .heads import EmbeddingZeroShot, grid_predictions
        from .training import robustness_finetune

        s, f = self.settings, self.settings.finetune
        model, network, tag = f["model"], self.model(f["model"]), ""
        size = self.input_size(model)
        if weight is not None:
            split = self.split(s.labels().index(f["dataset"]), "all_train", size)
            images = split.load(subset(len(split.targets), int(f["n_train"]), s.seed))
            config = TrainConfig(**{"seed": s.seed, "device": s.device, **f["train"]})
            network = robustness_finetune(network, images, f["perturbation"], weight, *self.mean_std(model), config)
            tag = f"+robust(lambda={weight:g}, {f['dataset']}, {f['perturbation']}, n={f['n_train']}, {f['train']})"
        embedder, parameters, frames = self.embedder(model, network, tag), s.parameters(), []
        for index, label in enumerate(s.labels()):
            split = self.split(index, "test", size)
            grid = embed_grid(split.images(), [embedder], {f["perturbation"]: parameters[f["perturbation"]]}, s.seed,
                              self.cache, s.workers)
            metrics = image_metrics(grid, ("cosine", "divergence_radius"), s.include_clean)
            head = EmbeddingZeroShot.from_classifier(self._zero_shot_classifier(model, split.class_names, network))
            accuracy = image_accuracies(grid_predictions(head, grid, embedder.name, ZERO_SHOT, device=s.device))
            accuracy["metric"] = np.where(accuracy["perturbation"] == CLEAN, "ACC", "ACC_p")
            frames += [metrics.assign(dataset=label),
                       accuracy.rename(columns={"accuracy": "value"}).assign(dataset=label)[metrics.columns]]
        state = "before" if weight is None else "after"
        return pd.concat(frames, ignore_index=True).assign(model=model, state=state,
                                                           weight=np.nan if weight is None else weight)


@functools.cache
def native_input(key: str) -> tuple[int, tuple[float, ...], tuple[float, ...]]:
    """A registry model's native input side, normalisation mean and std, from the installed library's
    configs (offline, no weights)."""
    from ..models.registry import spec

    row = spec(key)
    if row.library == "open_clip":
        import open_clip

        pretrained = open_clip.get_pretrained_cfg(row.name, row.pretrained)
        size = open_clip.get_model_config(row.name)["vision_cfg"]["image_size"]
        return int(size), tuple(pretrained.get("mean", open_clip.OPENAI_DATASET_MEAN)), tuple(
            pretrained.get("std", open_clip.OPENAI_DATASET_STD))
    import timm

    config = timm.models.get_pretrained_cfg(row.name)
    return int(config.input_size[-1]), tuple(config.mean), tuple(config.std)


def rgb8_transform(size: int) -> Callable:
    """PIL image -> (size, size, 3) uint8: resize of the shorter side to `size` (bicubic), centre crop."""
    from torchvision import transforms

    crop = transforms.Compose([transforms.Resize(size, interpolation=transforms.InterpolationMode.BICUBIC),
                               transforms.CenterCrop(size)])
    return lambda image: np.asarray(crop(image.convert("RGB")), dtype=np.uint8)


