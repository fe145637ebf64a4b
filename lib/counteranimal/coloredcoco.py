"""A ColoredCOCO-style study (Table 7, Sec. 6, App. D.3): does fine-tuning a CLIP with the CLIP objective give
more robustness to a spurious background colour than supervised fine-tuning?

The paper fine-tunes OpenAI's RN50 and ViT-B/16 on 9 COCO classes pasted on coloured backgrounds. Ours keeps the
design and replaces the data and the model (every reading is a choice stated here):

- Objects: scikit-learn's digits 0 .. `classes`-1 (nine, as the paper's nine COCO classes), 8 x 8 grey, coloured
  on the background (`multicolored.colourise`: pixel = ink + (1 - ink) x colour). Each seed splits the digits,
  stratified, into a pretraining, a fine-tuning and a test part (`fractions`).
- Colours: class c's biased colour is `BIASED[c]`; `OTHERS` are ten further colours, far from them.
  Fine-tuning set: exactly round(p_spu n) images of each class carry its biased colour (80 % in the paper) and
  the rest a colour drawn uniformly from `OTHERS` ("20 % uniformly correlates to 10 different randomly chosen
  colors", read as one palette of ten shared by all classes). In-distribution test: the same rule on the test
  images. Out-of-distribution test: the same images, each with a colour drawn uniformly from the other classes'
  biased colours ("classes randomly correlating to other 8 biased colors").
- The pretrained CLIP: an MLP image encoder and a text side of one learned embedding per object token and per
  colour token (a caption embeds as the normalised sum of its tokens, as in `multicolored`), pretrained with the
  symmetric InfoNCE loss on the pretraining part with every colour drawn uniformly from all of them (no
  correlation) and captions naming object and colour: a CLIP that has seen both words, but never together.
- Approaches (the paper's names): `zero shot` (the pretrained CLIP, the class whose prompt "a photo of
  <object>", its object token alone, is most similar); `obj` and `objbkg` (the CLIP fine-tuned with the CLIP
  objective, captions naming the object, or the object and its background colour); `supervised` (the
  pretrained image encoder with a new MLP head, fully fine-tuned with cross-entropy). A batch holds repeated
  captions, counted as negatives by the in-batch softmax (CLIP's objective as is; notes P12).
- One learning rate, weight decay and no warm-up (the paper selects each approach's best of a 3 x 3 x 2 grid by
  in-distribution test accuracy); `supervised`'s head is Linear-ReLU-Linear.

Reported: in-distribution and out-of-distribution accuracy (%) and their difference `drop`, per approach. One
stored run per seed holds every approach's per-item predictions on both test sets. No torch at module level.

A settings file's `source` picks the study (`SOURCES`): `digits`, this embedded design (the small tiers), or
`coco`, ColoredCOCO itself with OpenAI's CLIPs (`coloredcoco_coco`, the full tier). Both give Table 7's frame
(`run_study`) and the same findings, per backbone.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..findings import Finding, Findings, mean_interval
from ..params import ParamsError, SettingsFile, read_params_file, tier_of
from ..store import RunContext, StoredRuns, precompute_study
from .coloredcoco_coco import CocoSettings, CocoStudy, coco_parts
from .multicolored import COLOURS, colourise, exact_subset

PAPER = "counteranimal"
ARTEFACTS = ("table07", "figure10", "claims")  # the notebooks that read this study (claims: the ledger on ours)
APPROACHES = ("zero shot", "obj", "objbkg", "supervised")  # Table 7's order and names
FINE_TUNED = APPROACHES[1:]
CLIP_OBJECTIVE = ("obj", "objbkg")
METRICS = ("in-distribution", "out-of-distribution", "drop")
TEST_SETS = {"id": METRICS[0], "ood": METRICS[1]}
VALIDATION = "validation"  # a held-out in-distribution set the full tier may select its grid point on
BACKBONE = "tiny CLIP (MLP)"  # our model in Table 7's `backbone` column
BIASED = COLOURS[:9]  # class c's biased colour (multicolored's palette: red, green, blue, ...)
OTHERS = np.array([(0.5, 0.0, 0.0), (0.0, 0.4, 0.0), (0.0, 0.0, 0.5), (1.0, 0.75, 0.8), (0.6, 1.0, 0.6),
                   (0.6, 0.8, 1.0), (0.5, 0.5, 0.0), (0.0, 0.5, 0.5), (0.5, 0.0, 0.5), (0.2, 0.2, 0.2)])
PALETTE = np.concatenate([BIASED, OTHERS])  # colour index i < 9: class i's biased colour; 9 .. 18: OTHERS


@dataclass(frozen=True)
class ColoredCocoSettings(SettingsFile):
    """A tier's study, as written in `params/<tier>/counteranimal/coloredcoco.yaml`.

    `fractions`: the digits' shares for pretraining, fine-tuning and testing (each seed draws its own split).
    Model: an MLP encoder of `hidden` units and `embedding` outputs; Adam at `lr` (`weight_decay`) for
    `pretrain_epochs` (InfoNCE at `temperature`), then `epochs` of fine-tuning, batches of `batch_size`.
    `margin`: the out-of-distribution gain over `supervised` (points) above which the CLIP objective's
    robustness counts as non-trivial (the claims file's reading: 5)."""

    source: str
    classes: int
    p_spu: float
    fractions: list[float]
    seeds: list[int]
    hidden: int
    embedding: int
    pretrain_epochs: int
    epochs: int
    batch_size: int
    lr: float
    weight_decay: float
    temperature: float
    margin: float
    device: str

    def validate(self, path: Path | str) -> None:
        if self.source != "digits":
            raise ParamsError(f"{path}: source must be 'digits' for these fields, got {self.source!r}")
        if not 2 <= self.classes <= len(BIASED):
            raise ParamsError(f"{path}: classes must lie in [2, {len(BIASED)}] (one biased colour per class)")
        if not 0 <= self.p_spu <= 1:
            raise ParamsError(f"{path}: p_spu must lie in [0, 1]")
        if len(self.fractions) != 3 or min(self.fractions) <= 0 or sum(self.fractions) > 1 + 1e-9:
            raise ParamsError(f"{path}: fractions must be three positive shares (pretraining, fine-tuning, test) "
                              "summing to at most 1")
        if not self.seeds:
            raise ParamsError(f"{path}: seeds must not be empty")
        if min(self.hidden, self.embedding, self.pretrain_epochs, self.epochs, self.batch_size) < 1 \
                or min(self.lr, self.temperature) <= 0:
            raise ParamsError(f"{path}: hidden, embedding, the epochs, batch_size, lr and temperature must be positive")


# -- the data --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Part:
    """Background-coloured images with their class and colour index (into `PALETTE`)."""

    images: np.ndarray
    labels: np.ndarray
    colours: np.ndarray


def biased_colours(labels: np.ndarray, p_spu: float, rng: np.random.Generator) -> np.ndarray:
    """Exactly round(p_spu n) images of each class get its biased colour, the rest one of `OTHERS` uniformly."""
    colours = len(BIASED) + rng.integers(0, len(OTHERS), len(labels))
    for label in np.unique(labels):
        members = np.flatnonzero(labels == label)
        colours[members[exact_subset(members, p_spu, rng)]] = label
    return colours


def shifted_colours(labels: np.ndarray, classes: int, rng: np.random.Generator) -> np.ndarray:
    """Each image one of the other classes' biased colours, uniformly."""
    return (labels + rng.integers(1, classes, len(labels))) % classes


def uniform_colours(labels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each image a colour drawn uniformly from the whole palette (the pretraining data: no correlation)."""
    return rng.integers(0, len(PALETTE), len(labels))


def parts(settings: ColoredCocoSettings, seed: int) -> dict[str, Part]:
    """`pretrain`, `train`, `id` and `ood` of one seed; `id` and `ood` hold the same images and labels and
    differ in their background colours alone."""
    from ..data.embedded import digits_arrays

    rng = np.random.default_rng([seed, settings.classes, round(1000 * settings.p_spu)])
    images, digits = digits_arrays()
    keep = digits < settings.classes
    grey, labels = images[keep, 0], digits[keep]
    split = {"pretrain": [], "train": [], "test": []}
    for label in range(settings.classes):  # stratified: each class split in the same shares
        members = rng.permutation(np.flatnonzero(labels == label))
        ends = np.round(np.cumsum(settings.fractions) * len(members)).astype(int)
        for name, start, end in zip(split, [0, *ends[:-1]], ends):
            split[name].append(members[start:end])
    index = {name: np.concatenate(chunks) for name, chunks in split.items()}
    test = index["test"]
    colours = {"pretrain": uniform_colours(labels[index["pretrain"]], rng),
               "train": biased_colours(labels[index["train"]], settings.p_spu, rng),
               "id": biased_colours(labels[test], settings.p_spu, rng),
               "ood": shifted_colours(labels[test], settings.classes, rng)}
    source = {"pretrain": index["pretrain"], "train": index["train"], "id": test, "ood": test}
    return {name: Part(colourise(grey[source[name]], colours[name], "background", PALETTE), labels[source[name]],
                       colours[name]) for name in colours}


def show_examples(settings: ColoredCocoSettings | CocoSettings, seed: int = 0, per_class: int = 4):
    """Figure 11's analogue: `per_class` fine-tuning images of each class (rows), then the same test image
    in distribution and out of distribution."""
    import matplotlib.pyplot as plt

    data = SOURCES[settings.source].parts(settings, seed)
    fig, axes = plt.subplots(settings.classes, per_class + 2, figsize=(0.9 * (per_class + 2), 0.9 * settings.classes))
    for label, row in enumerate(axes):
        shown = [data["train"].images[i] for i in np.flatnonzero(data["train"].labels == label)[:per_class]]
        first = np.flatnonzero(data["id"].labels == label)[0]
        shown += [data["id"].images[first], data["ood"].images[first]]
        for ax, image in zip(row, shown):
            ax.imshow(image.transpose(1, 2, 0), interpolation="nearest")
            ax.set_xticks([]), ax.set_yticks([])
        row[0].set_ylabel(str(label), rotation=0, labelpad=8)
    for ax, title in zip(axes[0], [*["fine-tuning"] * per_class, "test ID", "test OOD"]):
        ax.set_title(title, fontsize=7)
    fig.tight_layout()
    return fig


# -- the approaches (torch) ------------------------------------------------------------------------
def train_approaches(settings: ColoredCocoSettings, data: Mapping[str, Part], seed: int) -> dict[str, Callable]:
    """The pretrained CLIP and its three fine-tunings: approach -> a function from images to predicted labels."""
    import copy

    import torch
    from torch import nn
    from torch.nn import functional

    from .multicolored import fit_batches, info_nce, mlp_encoder, zero_shot_predict

    device = torch.device(settings.device)
    inputs = int(np.prod(data["train"].images.shape[1:]))
    fit = functools.partial(fit_batches, lr=settings.lr, weight_decay=settings.weight_decay,
                            batch_size=settings.batch_size, device=settings.device, seed=seed)

    def tensors(part: Part):
        return (torch.as_tensor(a, device=device) for a in (part.images, part.labels, part.colours))

    def clip_fit(clip: dict, part: Part, with_colour: bool, epochs: int) -> None:
        images, labels, colours = tensors(part)
        encoder, objects, backgrounds = clip["encoder"], clip["objects"], clip["colours"]

        def loss(batch):
            captions = objects(labels[batch]) + (backgrounds(colours[batch]) if with_colour else 0)
            return info_nce(functional.normalize(encoder(images[batch]), dim=1), functional.normalize(captions, dim=1),
                            settings.temperature)

        fit([p for module in clip.values() for p in module.parameters()], loss, len(labels), epochs=epochs)

    torch.manual_seed(seed)
    pretrained = {"encoder": mlp_encoder(inputs, settings.hidden, settings.embedding).to(device),
                  "objects": nn.Embedding(settings.classes, settings.embedding).to(device),
                  "colours": nn.Embedding(len(PALETTE), settings.embedding).to(device)}
    clip_fit(pretrained, data["pretrain"], True, settings.pretrain_epochs)
    clips = {"zero shot": pretrained}
    for approach in CLIP_OBJECTIVE:
        clips[approach] = copy.deepcopy(pretrained)
        clip_fit(clips[approach], data["train"], approach == "objbkg", settings.epochs)

    torch.manual_seed(seed)
    images, labels, _ = tensors(data["train"])
    supervised = nn.Sequential(copy.deepcopy(pretrained["encoder"]), nn.ReLU(),
                               nn.Linear(settings.embedding, settings.hidden), nn.ReLU(),
                               nn.Linear(settings.hidden, settings.classes)).to(device)
    fit(supervised.parameters(), lambda b: functional.cross_entropy(supervised(images[b]), labels[b]), len(labels),
        epochs=settings.epochs)

    def zero_shot(clip: dict) -> Callable:
        @torch.no_grad()
        def classify(x: np.ndarray) -> np.ndarray:
            embeddings = clip["encoder"](torch.as_tensor(x, device=device)).cpu().numpy()
            return zero_shot_predict(embeddings, clip["objects"].weight.cpu().numpy())
        return classify

    @torch.no_grad()
    def classify_supervised(x: np.ndarray) -> np.ndarray:
        return supervised(torch.as_tensor(x, device=device)).argmax(1).cpu().numpy()

    return {**{approach: zero_shot(clip) for approach, clip in clips.items()}, "supervised": classify_supervised}


# -- the stored study -----------------------------------------------------------------------------
class ColoredCocoStudy(StoredRuns):
    """One stored run per seed: every approach's predictions on both test sets."""

    paper = PAPER
    settings: ColoredCocoSettings

    def jobs(self) -> list[tuple[dict[str, Any], Callable[[], pd.DataFrame]]]:
        return [(self.config(seed), functools.partial(self._run, seed)) for seed in self.settings.seeds]

    def config(self, seed: int) -> dict[str, Any]:
        """What determines a run's result (its store key is a hash of this)."""
        shared = {key: value for key, value in vars(self.settings).items()
                  if key not in ("source", "seeds", "margin", "device")}  # "source": the study's name says it
        return {"study": "coloredcoco", **shared, "seed": seed}

    def _run(self, seed: int) -> pd.DataFrame:
        data = parts(self.settings, seed)
        approaches = train_approaches(self.settings, data, seed)
        rows = [pd.DataFrame({"approach": approach, "test_set": name, "label": data[name].labels,
                              "colour": data[name].colours, "prediction": classify(data[name].images)})
                for approach, classify in approaches.items() for name in TEST_SETS]
        return pd.concat(rows, ignore_index=True).assign(seed=seed, train_size=len(data["train"].labels))

    def table(self) -> pd.DataFrame:
        """Table 7's frame: every run's accuracies, our model as the backbone."""
        return self.summary(accuracies).assign(backbone=BACKBONE)


RUN_KEYS = ("backbone", "seed", "approach", "point", "lr", "weight_decay", "warmup_steps")  # those a run has


def accuracies(run: pd.DataFrame) -> pd.DataFrame:
    """Table 7's cells of each approach (and grid point) in a run: accuracy (%) in and out of distribution and
    their `drop` (and on `VALIDATION` where the run predicted it)."""
    keys = [key for key in RUN_KEYS if key in run]
    correct = (run["prediction"] == run["label"]).groupby([run[key] for key in [*keys, "test_set"]], sort=False,
                                                          dropna=False).mean()
    wide = (100 * correct).unstack("test_set").rename(columns=TEST_SETS).reset_index()
    wide[METRICS[2]] = wide[METRICS[0]] - wide[METRICS[1]]
    return wide.melt(id_vars=keys, value_vars=[*METRICS, *([VALIDATION] if VALIDATION in wide else [])],
                     var_name="metric")


class Source(NamedTuple):
    """What a settings file's `source` names: its settings class, its stored study, and a seed's parts."""

    settings: type[SettingsFile]
    study: type[StoredRuns]
    parts: Callable[[Any, int], dict[str, Part]]


SOURCES = {"digits": Source(ColoredCocoSettings, ColoredCocoStudy, parts),
           "coco": Source(CocoSettings, CocoStudy, coco_parts)}


def load_settings(params_file: str | Path) -> ColoredCocoSettings | CocoSettings:
    """A study's settings, read strictly by the class its `source` names."""
    source = read_params_file(params_file).get("source")
    if source not in SOURCES:
        raise ParamsError(f"{params_file}: source must be one of {list(SOURCES)}, got {source!r}")
    return SOURCES[source].settings.load(params_file)


def study(settings: ColoredCocoSettings | CocoSettings, results_dir: Path, context: RunContext) -> StoredRuns:
    """The stored study of the settings' source."""
    return SOURCES[settings.source].study(settings, results_dir, context)


def run_study(params_file: str, results_dir: str) -> tuple[ColoredCocoSettings | CocoSettings, pd.DataFrame]:
    """The settings and every run's accuracies (computed where missing), in Table 7's columns (`backbone`,
    `approach`, `metric`, `value`) with `seed` and the settings file's `tier`."""
    settings = load_settings(params_file)
    runs = study(settings, Path(results_dir), RunContext(params_file=params_file, device=settings.device))
    return settings, runs.table().assign(tier=tier_of(params_file))


def precompute(params: Mapping[str, Any], artefacts: Collection[str]) -> int:
    """Compute the study's runs (`coloredcoco_params`, `results_dir`) if a notebook of `artefacts` reads them."""
    if not set(artefacts) & set(ARTEFACTS):
        return 0
    return precompute_study(load_settings, study,
                            {"study_params": params["coloredcoco_params"], "results_dir": params["results_dir"]},
                            artefacts, ARTEFACTS)


# -- the findings ----------------------------------------------------------------------------------
def _per_seed(frame: pd.DataFrame, metric: str) -> list[tuple[str, pd.DataFrame]]:
    """Per backbone, seeds x approaches of one metric, with the label prefix naming the backbone (none when the
    frame has one backbone)."""
    chosen = frame[frame["metric"] == metric]
    parts = list(chosen.groupby("backbone", sort=False)) if "backbone" in chosen else [("", chosen)]
    return [(f"{backbone}: " if len(parts) > 1 else "",
             part.pivot_table(index="seed", columns="approach", values="value")) for backbone, part in parts]


def findings(frame: pd.DataFrame, margin: float) -> Findings:
    """Table 7's claim on our run, per backbone and prompt: the CLIP objective's out-of-distribution accuracy
    minus supervised fine-tuning's stays below `margin` points (no non-trivial robustness), judged by a t-interval
    over seeds."""
    out = []
    for prefix, ood in _per_seed(frame, METRICS[1]):
        for approach in CLIP_OBJECTIVE:
            gap = (ood[approach] - ood["supervised"]).to_numpy()
            out.append(Finding(f"{prefix}out-of-distribution accuracy, {approach} − supervised (points)",
                               float(gap.mean()), mean_interval(gap, "seeds"), "the CLIP objective gives no "
                               f"non-trivial robustness over supervised fine-tuning (read: gains at most {margin:g} "
                               "points)", "<", margin, "RN50 -4.6 / -5.1, ViT-B/16 +19.7 / +0.3 (obj / objbkg, "
                               "Table 7)"))
    return Findings(out)


def drop_findings(frame: pd.DataFrame) -> Findings:
    """The design's premise, per backbone and fine-tuned approach: in- minus out-of-distribution accuracy above 0
    (it leans on the colour), judged by a t-interval over seeds."""
    return Findings([Finding(f"{prefix}{approach}: in- minus out-of-distribution accuracy (points)",
                             float(drops[approach].mean()), mean_interval(drops[approach].to_numpy(), "seeds"),
                             "fine-tuned CLIPs and supervised models are sensitive to the spurious colour", ">", 0.0,
                             "drops of 77-95 points (Table 7)")
                     for prefix, drops in _per_seed(frame, METRICS[2]) for approach in FINE_TUNED])
