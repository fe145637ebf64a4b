"""ColoredCOCO itself (Table 7, Sec. 6, App. D.3): COCO objects pasted on coloured backgrounds, OpenAI's CLIP RN50
and ViT-B/16 used zero-shot, fine-tuned with the CLIP objective (obj / objbkg captions) or fine-tuned with a
supervised MLP head, each fine-tuning over the paper's grid with the best in-distribution accuracy kept (on the test
set, as the paper selects, or on held-out validation objects: `selection`). The full tier's study (`source: coco`); the small tiers run the embedded design of `coloredcoco` (`source: digits`).
Every reading of what the paper leaves open is stated here.

The data (after Ahmed et al. 2021's maker; `lib.data.coco` gives its readings):
- Objects: the registry dataset `dataset` (COCO 2017 train, `lib.data.coco`), the first `classes` of Ahmed et
  al.'s nine classes; per class, the largest object of the class in each image holding it, of area at least 10,000
  pixels, images in the maker's order. As the maker splits them, the first `train_per_class` objects of each class
  fine-tune, the next `validation_per_class` are its validation set (the paper selects on the test set; ours may
  select on these, `selection`), the next `test_per_class` test (the paper gives no sizes: the maker's 800, 100
  and 100).
- Images: each object's photo and mask at `image_size` pixels (the maker's 64), the background 0.75 x its colour.
  The objects are read from COCO once and kept under the results store (`<results>/counteranimal/coco_objects/`,
  about 0.5 GB at the full tier), so that every other process of the study (a cluster job per run) loads them.
- Colours: `palette(palette_seed)`: the maker's nine biased colours (class c's is `BIASED_RGB[c]`), then ten
  colours drawn as the maker draws its "unbiased" ones (uniform RGB at squared distance above 2500 from every
  biased colour), seeded. Fine-tuning and in-distribution test: exactly round(p_spu n) of each class on its biased
  colour, the rest on one of the ten (`coloredcoco.biased_colours`, as the embedded study; the maker draws each
  image's with probability p_spu). Out-of-distribution test: the same images, each on another class's biased
  colour drawn uniformly (`coloredcoco.shifted_colours`; the maker's "systematic generalisation" test set, the
  paper's "other 8 biased colors"). Validation: the validation objects by the in-distribution test's rule, drawn
  after the other three so that theirs do not depend on whether there is one.
- Colour words in objbkg captions: the nearest CSS4 colour name of each palette entry (matplotlib's table, RGB
  distance), e.g. "darkgreen", as one word (CLIP's tokenizer splits it into pieces), naming the colour before the
  0.75 scaling the image shows; the paper does not give its colour labels. The names must differ (`validate`).

The models and approaches (`backbones`: model-registry keys; open_clip towers with their OpenAI weights):
- Inputs: the composite resized to the tower's input size with PIL's bicubic kernel, as open_clip's preprocessing
  resizes, on the device (torch's antialiased bicubic, whose kernel is PIL's; PIL also rounds to 8 bits and clips
  between its two passes, so the two differ by 0.3/255 on average on a photograph upscaled from 64 to 224 px) and
  normalised with its mean and std (`TowerInputs`). No augmentation
  while fine-tuning (open_clip's training transform would add a random resized crop of scale 0.9-1).
- `zero shot`: the class whose prompt "a photo of <object>" is most similar (one template, `OBJ`).
- `obj`, `objbkg`: the CLIP objective on (image, caption) batches (`lib.finetune.zeroshot.flyp_loss`: symmetric
  InfoNCE, the learnable logit scale clamped at 100 after each step; a batch's repeated captions count as
  negatives, notes P12), captions `OBJ` or `OBJBKG`; classified as `zero shot` is, by the obj prompts.
- `supervised`: the image tower with a new MLP head (Linear-ReLU-Linear, hidden width the tower's embedding
  width), cross-entropy, every weight trained.
- Fine-tuning: `lib.train.loop.train` with AdamW and open_clip's trainer's betas and eps (`adamw_defaults`: 0.9 /
  0.98 and 1e-6 for the ViT, 0.9 / 0.999 and 1e-8 for RN50), `epochs` of batches of `batch_size`, linear warm-up over
  `warmup_steps` then cosine, bf16 autocast on CUDA when `amp`; every lr x weight decay x warm-up of the grid (the
  paper's {1e-3, 1e-4, 1e-5} x {1e-1, 1e-3, 1e-5} x {0, 1000}) is one stored run, evaluated after its last epoch.
  A run that diverges (a non-finite loss) is stored as diverged, every prediction -1 (accuracy 0), so the grid
  still finishes. Each run predicts the test sets and, where `validation_per_class` > 0, the validation set.
- Selection (`selection`, `selected`): per backbone, seed and approach, the run with the best in-distribution
  accuracy is reported, `test`: on the in-distribution test set, as the paper selects ("We select the
  model according to the best in-distribution test performance", App. D.3), so that in-distribution accuracy reads
  high (a maximum over 18 points per seed); or `validation`: on the validation objects, so that every reported
  accuracy is measured on images the selection never saw. The choice reads the stored runs and changes no run.

Reported as the embedded study: in-distribution and out-of-distribution accuracy (%) and their `drop`, per
approach, in `coloredcoco.run_study`'s frame, `backbone` the registry row's label. No torch at module level.
"""

from __future__ import annotations

import functools
import importlib.metadata
import inspect
import itertools
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..params import ParamsError, SettingsFile
from ..store import StoredRuns, weights_checked

PAPER = "counteranimal"
GRID_COLUMNS = ["lr", "weight_decay", "warmup_steps"]
SELECTIONS = {"test": "in-distribution", "validation": "validation"}  # the metric each `selection` maximises
SPLITS = ("train", "validation", "test")  # the objects' parts, in the maker's order (`_objects`' `split`)
OBJ = "a photo of {object}"
OBJBKG = "a photo of {object} in {colour} background"
BIASED_RGB = np.array([(0, 100, 0), (188, 143, 143), (255, 0, 0), (255, 215, 0), (0, 255, 0), (65, 105, 225),
                       (0, 225, 225), (0, 0, 255), (255, 20, 147)])  # the maker's biased colours, class order
UNBIASED = 10  # the maker's "10 different randomly chosen colors"
MIN_SQUARED_DISTANCE = 2500  # the maker's "sufficiently different": squared RGB distance to every biased colour


@dataclass(frozen=True)
class CocoSettings(SettingsFile):
    """The full tier's study, as written in `params/full/counteranimal/coloredcoco.yaml` (`source: coco`); the
    fields are described in the module docstring; the dataset is read from the data root ($ROBUSTNESS_DATA_ROOT)."""

    source: str
    dataset: str
    classes: int
    p_spu: float
    train_per_class: int
    validation_per_class: int
    test_per_class: int
    image_size: int
    palette_seed: int
    backbones: list[str]
    lrs: list[float]
    weight_decays: list[float]
    warmup_steps: list[int]
    epochs: int
    batch_size: int
    seeds: list[int]
    selection: str
    margin: float
    device: str
    amp: bool

    def validate(self, path: Path | str) -> None:
        from ..data.coco import COLOREDCOCO_CLASSES
        from ..data.registry import registry as datasets
        from ..models.registry import registry as models

        if self.source != "coco":
            raise ParamsError(f"{path}: source must be 'coco' for these fields, got {self.source!r}")
        if self.dataset not in datasets():
            raise ParamsError(f"{path}: dataset {self.dataset!r} is not in lib/registry/datasets.csv")
        if not 2 <= self.classes <= len(COLOREDCOCO_CLASSES):
            raise ParamsError(f"{path}: classes must lie in [2, {len(COLOREDCOCO_CLASSES)}]")
        if not 0 <= self.p_spu <= 1:
            raise ParamsError(f"{path}: p_spu must lie in [0, 1]")
        unknown = [key for key in self.backbones if key not in models() or models()[key].library != "open_clip"]
        if unknown or not self.backbones:
            raise ParamsError(f"{path}: backbones must be open_clip rows of lib/registry/models.csv; not: {unknown}")
        if not (self.seeds and self.lrs and self.weight_decays and self.warmup_steps):
            raise ParamsError(f"{path}: seeds, lrs, weight_decays and warmup_steps must not be empty")
        names = colour_names(palette(self.palette_seed))
        if len(set(names)) < len(names):
            raise ParamsError(f"{path}: palette_seed {self.palette_seed} gives two colours one name in objbkg captions "
                              f"({names}); choose another seed")
        if self.selection not in SELECTIONS:
            raise ParamsError(f"{path}: selection must be one of {list(SELECTIONS)}, got {self.selection!r}")
        if self.selection == "validation" and self.validation_per_class < 1:
            raise ParamsError(f"{path}: selection: validation needs validation_per_class >= 1")
        if self.validation_per_class < 0 or \
                min(self.train_per_class, self.test_per_class, self.image_size, self.epochs, self.batch_size) < 1 \
                or min(self.lrs) <= 0 or min(self.weight_decays) < 0 or min(self.warmup_steps) < 0:
            raise ParamsError(f"{path}: sizes, epochs and batch_size must be positive, lrs positive, weight "
                              "decays and warm-ups non-negative")

    def grid(self) -> list[dict[str, float | int]]:
        """Every fine-tuning configuration: lr x weight decay x warm-up steps."""
        return [{"lr": lr, "weight_decay": wd, "warmup_steps": warmup}
                for lr, wd, warmup in itertools.product(self.lrs, self.weight_decays, self.warmup_steps)]


# -- the data --------------------------------------------------------------------------------------
def palette(seed: int) -> np.ndarray:
    """RGB (0-255) colours: the nine biased ones, then `UNBIASED` drawn as the maker draws them, from `seed`."""
    rng = np.random.default_rng(seed)
    drawn: list[np.ndarray] = []
    while len(drawn) < UNBIASED:
        colour = rng.integers(0, 255, 3)
        if np.min(np.sum((colour - BIASED_RGB) ** 2, axis=1)) > MIN_SQUARED_DISTANCE:
            drawn.append(colour)
    return np.concatenate([BIASED_RGB, np.array(drawn)])


def colour_names(colours: np.ndarray) -> list[str]:
    """The nearest CSS4 colour name (matplotlib's table) of each RGB (0-255) colour."""
    from matplotlib.colors import CSS4_COLORS, to_rgb

    names = sorted(CSS4_COLORS)
    table = np.array([to_rgb(CSS4_COLORS[name]) for name in names]) * 255
    return [names[int(np.argmin(np.sum((table - colour) ** 2, axis=1)))] for colour in colours]


OBJECT_ARRAYS = ("photos", "masks", "labels", "split")  # `_objects`' arrays, by their names on disk


@functools.lru_cache(maxsize=1)
def _objects(dataset: str, classes: int, train_per_class: int, validation_per_class: int, test_per_class: int,
             image_size: int, kept_in: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(photos, masks, labels, split): each kept object's photo (N, size, size, 3) and mask (N, size, size) in
    [0, 1], its label and its part (an index into `SPLITS`), read once per process; with `kept_in` (a folder) also kept there on disk for every other process
    (a cluster job per run), keyed by these arguments, the annotation file's size and time, the source of the
    code that makes them (`lib.data.coco`, `_read_objects`) and the image libraries' versions."""
    def make() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return _read_objects(dataset, classes, train_per_class, validation_per_class, test_per_class, image_size)

    if kept_in is None:
        return make()
    from ..atomic import load_or_make
    from ..data.coco import annotation_file
    from ..data.registry import spec
    from ..store import run_key

    stat = annotation_file(spec(dataset).present_path()).stat()
    key = run_key({"kind": "coloredcoco_objects", "dataset": dataset, "classes": classes, "train": train_per_class,
                   "validation": validation_per_class, "test": test_per_class, "image_size": image_size,
                   "annotations": [stat.st_size, stat.st_mtime_ns],
                   "code": [inspect.getsource(sys.modules["lib.data.coco"]), inspect.getsource(_read_objects)],
                   "readers": {name: importlib.metadata.version(name) for name in ("scikit-image", "pillow")}})

    def load(path: Path) -> tuple[np.ndarray, ...]:
        with np.load(path) as kept:
            return tuple(kept[name] for name in OBJECT_ARRAYS)

    def write(value: tuple[np.ndarray, ...], tmp: str) -> None:
        with open(tmp, "wb") as handle:
            np.savez(handle, **dict(zip(OBJECT_ARRAYS, value)))

    return load_or_make(Path(kept_in) / f"{key}.npz", load, make, write, pin_threads=False)


def _read_objects(dataset: str, classes: int, train_per_class: int, validation_per_class: int, test_per_class: int,
                  image_size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`_objects` read from the COCO folder: per class its first objects in the maker's order."""
    from ..data.coco import COLOREDCOCO_CLASSES, resized_object
    from ..data.registry import open_dataset

    objects = open_dataset(dataset)
    parts = [0] * train_per_class + [1] * validation_per_class + [2] * test_per_class  # indices into SPLITS
    wanted = len(parts)
    chosen = []
    for label, name in enumerate(COLOREDCOCO_CLASSES[:classes]):
        members = [i for i in range(len(objects)) if objects.target(i) == label][:wanted]
        if len(members) < wanted:
            raise ValueError(f"ColoredCOCO: class {name!r} has {len(members)} objects in {dataset}, fewer than "
                             f"train_per_class + validation_per_class + test_per_class = {wanted}")
        chosen += [(i, label, part) for i, part in zip(members, parts)]
    photos, masks = zip(*(resized_object(np.asarray(objects.image(i)), objects.mask(i), image_size)
                          for i, _, _ in chosen))
    _, labels, split = zip(*chosen)
    return np.stack(photos), np.stack(masks), np.array(labels), np.array(split)


def coco_parts(settings: CocoSettings, seed: int, kept_in: str | None = None) -> dict[str, Any]:
    """`train`, `id`, `ood` and, with validation objects, `validation` of one seed (`coloredcoco.Part`, images
    (N, 3, size, size) float32 in [0, 1]); `id` and `ood` hold the same objects and differ in their background
    colours alone (`kept_in`: the objects' folder on disk, `_objects`)."""
    from ..data.coco import paint_background
    from .coloredcoco import PALETTE, VALIDATION, Part, biased_colours, shifted_colours

    photos, masks, labels, split = _objects(settings.dataset, settings.classes, settings.train_per_class,
                                              settings.validation_per_class, settings.test_per_class,
                                              settings.image_size, kept_in)
    rng = np.random.default_rng([seed, settings.classes, round(1000 * settings.p_spu)])
    colours = palette(settings.palette_seed)  # the indices `biased_colours` draws: 0-8 biased, 9-18 the ten others
    assert len(colours) == len(PALETTE), "coloredcoco.OTHERS and UNBIASED must both count ten colours"
    train, validation, test = (split == SPLITS.index(name) for name in SPLITS)
    drawn = {"train": (train, biased_colours(labels[train], settings.p_spu, rng)),
             "id": (test, biased_colours(labels[test], settings.p_spu, rng)),
             "ood": (test, shifted_colours(labels[test], settings.classes, rng))}
    if validation.any():  # drawn last: the other parts' colours are the same with or without it
        drawn[VALIDATION] = (validation, biased_colours(labels[validation], settings.p_spu, rng))
    return {name: Part(paint_background(photos[rows], masks[rows], colours[index]).transpose(0, 3, 1, 2),
                       labels[rows], index)
            for name, (rows, index) in drawn.items()}


# -- the models and approaches (torch) -----------------------------------------------------------------
def tower_inputs(model):
    """A module turning (N, 3, h, w) images in [0, 1] into the image tower's inputs: resized to its input size
    with PIL's bicubic kernel (torch's antialiased bicubic), normalised with its mean and std (open_clip's
    preprocessing config; OpenAI's by default)."""
    import torch
    from open_clip.constants import OPENAI_DATASET_MEAN, OPENAI_DATASET_STD
    from torch import nn
    from torch.nn import functional

    config = getattr(model.visual, "preprocess_cfg", {}) or {}
    size = model.visual.image_size
    size = tuple(size) if isinstance(size, (tuple, list)) else (size, size)

    class TowerInputs(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("mean", torch.tensor(config.get("mean", OPENAI_DATASET_MEAN)).view(1, 3, 1, 1))
            self.register_buffer("std", torch.tensor(config.get("std", OPENAI_DATASET_STD)).view(1, 3, 1, 1))

        def forward(self, images: torch.Tensor) -> torch.Tensor:
            resized = functional.interpolate(images, size=size, mode="bicubic", align_corners=False,
                                             antialias=True).clamp(0, 1)
            return (resized - self.mean) / self.std

    return TowerInputs()


def captions(approach: str, objects: Sequence[str], colours: Sequence[str]) -> list[str]:
    """The captions of an approach, indexed by label (obj) or by label x len(colours) + colour (objbkg)."""
    if approach == "objbkg":
        return [OBJBKG.format(object=o, colour=c) for o in objects for c in colours]
    return [OBJ.format(object=o) for o in objects]


def adamw_defaults(model_name: str) -> dict[str, Any]:
    """open_clip's trainer's AdamW betas and eps for an open_clip model name (`get_default_params` of its
    `params`, the CLIP paper's): (0.9, 0.98) and 1e-6 when the name holds "vit", else (0.9, 0.999) and 1e-8."""
    return {"betas": (0.9, 0.98), "eps": 1e-6} if "vit" in model_name.lower() else {"betas": (0.9, 0.999), "eps": 1e-8}


def train_config(settings: CocoSettings, config: dict, steps_per_epoch: int, seed: int, model_name: str):
    """The `TrainConfig` of one grid point (the warm-up given in steps, the lr unscaled; AdamW with open_clip's
    trainer's betas and eps for `model_name`, as the paper fine-tunes with OpenCLIP)."""
    from ..train.config import TrainConfig

    return TrainConfig(epochs=settings.epochs, batch_size=settings.batch_size, base_lr=config["lr"],
                       reference_batch=settings.batch_size, weight_decay=config["weight_decay"], optimizer="adamw",
                       **adamw_defaults(model_name), warmup_epochs=config["warmup_steps"] / steps_per_epoch,
                       seed=seed, device=settings.device, amp=settings.amp)


def approach_predictions(model, tokenizer, data: dict[str, Any], approach: str, config: dict | None,
                         settings: CocoSettings, seed: int, model_name: str) -> dict[str, np.ndarray]:
    """Predicted labels on every part of `data` but `train` of one approach (`config`: its grid point; None for
    `zero shot`), `model` the pretrained open_clip CLIP (fine-tuned in place), `model_name` its open_clip name."""
    import torch
    from torch import nn

    from ..data.coco import COLOREDCOCO_CLASSES
    from ..evaluate.predictions import predict_ranked, top_k
    from ..finetune.zeroshot import ZeroShotClassifier, clamp_logit_scale_, flyp_loss
    from ..train.loop import tensor_batches, train
    from .coloredcoco import CLIP_OBJECTIVE

    objects = [name.replace("_", " ") for name in COLOREDCOCO_CLASSES[:settings.classes]]
    inputs = tower_inputs(model).to(settings.device)
    part = data["train"]
    images, labels = torch.as_tensor(part.images), torch.as_tensor(part.labels)
    if approach == "supervised":
        width = model.visual.output_dim
        classifier = nn.Sequential(inputs, model.visual, nn.Linear(width, width), nn.ReLU(),
                                   nn.Linear(width, settings.classes))
        batches = tensor_batches(images, labels, settings.batch_size, seed)
        train(classifier, batches, train_config(settings, config, len(batches), seed, model_name))
    else:
        if approach in CLIP_OBJECTIVE:
            names = colour_names(palette(settings.palette_seed))
            tokens = tokenizer(captions(approach, objects, names)).to(settings.device)
            targets = labels * len(names) + torch.as_tensor(part.colours) if approach == "objbkg" else labels

            def clip_loss(clip: nn.Module, x: torch.Tensor, caption: torch.Tensor) -> torch.Tensor:
                return flyp_loss(clip, inputs(x), caption, tokens)

            batches = tensor_batches(images, targets, settings.batch_size, seed)
            train(model, batches, train_config(settings, config, len(batches), seed, model_name), loss=clip_loss,
                  after_step=clamp_logit_scale_)
        obj_tokens = tokenizer(captions("obj", objects, [])).unsqueeze(1).to(settings.device)
        classifier = nn.Sequential(inputs, ZeroShotClassifier(model.to(settings.device), obj_tokens, "frozen"))
    predicted = {}
    for name in evaluated(data):
        test = data[name]
        batches = tensor_batches(torch.as_tensor(test.images), torch.as_tensor(test.labels), settings.batch_size,
                                 seed=0, shuffle=False)
        ranked, _ = predict_ranked(classifier, batches, top_k(1), settings.device, settings.amp)
        predicted[name] = ranked[:, 0]
    return predicted


def evaluated(data: dict[str, Any]) -> list[str]:
    """The parts of `data` a run predicts: every one but `train`."""
    return [name for name in data if name != "train"]


# -- the stored study -----------------------------------------------------------------------------
def backbone_label(key: str) -> str:
    """A backbone's label in Table 7's `backbone` column: its registry row's label (e.g. CLIP-OpenAI-RN50)."""
    from ..models.registry import spec

    return spec(key).paper_label


class CocoStudy(StoredRuns):
    """One stored run per backbone, seed, approach and grid point (zero shot: one): predictions on both test
    sets."""

    paper = PAPER
    settings: CocoSettings

    def jobs(self) -> list[tuple[dict[str, Any], Callable[[], pd.DataFrame]]]:
        """`(config, compute)` of every run; a missing dataset or weights stop here, before any compute."""
        from ..data.coco import annotation_file
        from ..data.registry import spec
        from .coloredcoco import FINE_TUNED

        annotation_file(spec(self.settings.dataset).present_path())
        points = [("zero shot", None)] + [(a, c) for a in FINE_TUNED for c in self.settings.grid()]
        jobs = [(self.config(backbone, seed, approach, config), functools.partial(self._run, backbone, seed, approach, config))
                for backbone in self.settings.backbones for seed in self.settings.seeds for approach, config in points]
        return weights_checked(self.store, jobs, self.weights_needed)

    def weights_needed(self, config: dict[str, Any]) -> tuple[str, ...]:
        """The model-registry keys whose weights the run of `config` loads (`store.weights_checked`)."""
        return (config["backbone"],)

    def config(self, backbone: str, seed: int, approach: str, config: dict | None) -> dict[str, Any]:
        """What determines a run's result (its store key is a hash of this)."""
        shared = {key: value for key, value in vars(self.settings).items()
                  if key not in ("seeds", "selection", "margin", "device", "backbones", "lrs", "weight_decays",
                                 "warmup_steps")}
        if config is None:  # zero shot trains nothing
            shared = {key: value for key, value in shared.items() if key not in ("epochs", "batch_size")}
        predicts = ["id", "ood"] + (["validation"] if self.settings.validation_per_class else [])
        return {"study": "coloredcoco_coco", **shared, "predicts": predicts, "backbone": backbone, "seed": seed,
                "approach": approach, **(config or {})}

    def _run(self, backbone: str, seed: int, approach: str, config: dict | None) -> pd.DataFrame:
        import torch

        from ..models.clip import tokenizer_for
        from ..models.registry import load_pretrained, spec

        data = coco_parts(self.settings, seed, str(self.store.root / PAPER / "coco_objects"))
        torch.manual_seed(seed)
        try:
            predicted, diverged = approach_predictions(load_pretrained(backbone), tokenizer_for(backbone), data,
                                                       approach, config, self.settings, seed, spec(backbone).name), False
        except FloatingPointError:  # lib's train loop stops at a non-finite loss
            predicted = {name: np.full(len(data[name].labels), -1) for name in evaluated(data)}
            diverged = True
        point = {"point": grid_point(config), **(config or dict.fromkeys(GRID_COLUMNS, np.nan))}
        rows = [pd.DataFrame({"approach": approach, "test_set": name, "label": data[name].labels,
                              "colour": data[name].colours, "prediction": predicted[name]})
                for name in predicted]
        return pd.concat(rows, ignore_index=True).assign(backbone=backbone_label(backbone), seed=seed,
                                                         train_size=len(data["train"].labels), diverged=diverged,
                                                         **point)

    def table(self) -> pd.DataFrame:
        """Table 7's frame: per backbone, seed and approach, the accuracies of the grid point `selection` picks."""
        from .coloredcoco import accuracies

        return selected(self.summary(accuracies), SELECTIONS[self.settings.selection])


def grid_point(config: dict | None) -> str:
    """A grid point's label ("none" for zero shot)."""
    return "none" if config is None else ", ".join(f"{key} {config[key]:g}" for key in GRID_COLUMNS)


def selected(accuracies: pd.DataFrame, by: str = SELECTIONS["test"]) -> pd.DataFrame:
    """Per backbone, seed and approach, the grid point (`point`) with the best accuracy on metric `by` (a value of
    `SELECTIONS`; a tie to the first in grid order): its rows of `accuracies`, the validation rows left out."""
    keys = ["backbone", "seed", "approach"]
    judged = accuracies[accuracies["metric"] == by]
    best = judged.loc[judged.groupby(keys, sort=False)["value"].idxmax(), keys + ["point"]]
    chosen = accuracies.merge(best, on=keys + ["point"])
    return chosen[chosen["metric"] != SELECTIONS["validation"]].reset_index(drop=True)
