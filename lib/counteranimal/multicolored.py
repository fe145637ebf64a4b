"""MultiColored digits (Table 8, App. D.4): supervised against contrastive training with perfect captions.

The paper's MultiColoredMNIST, as we read App. D.4 (every reading is a choice stated here):

- Classes: the digits 0 .. k-1; class c has colour `COLOURS[c]` (red, green, then others).
- Labels: the invariant feature (the digit's shape) agrees with the label with probability p_inv: exactly
  round((1 - p_inv) n) images of each digit get a label drawn uniformly from the other k - 1 classes
  (label noise, as in Arjovsky et al.'s ColoredMNIST; the test sets carry the same noise, which is why the
  paper's accuracies stay below p_inv).
- Training colours: images labelled 0 or 1 carry their class colour (red / green) for exactly
  round(p_spu n) of them and otherwise a colour drawn uniformly from the other k - 1; images labelled 2 and
  above carry a colour drawn uniformly from all k ("Fix two class (0/1) and color (r/g)": the paper does
  not say how the other classes are coloured, and its "rest class" accuracies do not move with p_spu).
- Test "Rand": every image a colour drawn uniformly from the k (p_spu = 1/k). Test "Rev.": images labelled
  0 / 1 carry their class colour for exactly round(rev_p_spu n) (10 % in the paper) and otherwise the
  swapped colour (0 green, 1 red); the other classes as in Rand.
- Colour: the digit's strokes (`foreground`: pixel = intensity x colour, as in ColoredMNIST) or the
  background (`background`: pixel = intensity + (1 - intensity) x colour); `colour_on` picks.
- Reported (`METRICS`, the paper's column names): accuracy on test images labelled 0 / 1 on Rand and on
  Rev., and on the images labelled 2 and above on Rand ("rest class"; n/a for k = 2).

Methods, one image encoder (an MLP) each, trained on the same data (`train_pair`):
- `supervised`: the encoder and a linear head over the k labels, cross-entropy;
- `contrastive`: the encoder and a caption embedding of the perfect caption "a photo of digit <label> with
  colour <colour>": the sum of a learned embedding of its label token and of its colour token (Eq. 9's
  M_c applied to the one-hot caption h^c over objects and colours), both L2-normalised, trained with the
  symmetric InfoNCE loss over the batch (`info_nce`, fixed temperature). A batch holds repeated captions,
  which the in-batch softmax counts as negatives (CLIP's objective as is; notes P12). Zero-shot: the
  class whose prompt "a photo of digit <k>" (its label token alone) is most similar (`zero_shot_predict`).

Sources: `digits` (scikit-learn's 1,797 8 x 8 digits, a stratified split drawn per seed; mini, tiny) or
`mnist` (the registry's MNIST, the first `train_images` of its training split, as the paper's sample
counts imply 50,000; full). One stored run per (classes, p_inv, p_spu, seed) holds both methods' per-item
predictions on both test sets. No torch is imported at module level.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..findings import Finding, Findings, mean_interval
from ..params import ParamsError, SettingsFile, tier_of
from ..store import RunContext, StoredRuns, precompute_study

PAPER = "counteranimal"
ARTEFACTS = ("table08", "claims")  # the notebooks that read this study (claims: the ledger on ours)
SOURCES = ("digits", "mnist")
COLOUR_ON = ("foreground", "background")
METHODS = {"contrastive": "Contrastive", "supervised": "Supervised"}  # ours -> the paper's label
TEST_SETS = ("rand", "rev")
METRICS = ("class 0/1 (Rand)", "class 0/1 (Rev.)", "rest class")
# RGB in [0, 1]: red and green first (classes 0 and 1), then eight others, far apart
COLOURS = np.array([(1.0, 0.0, 0.0), (0.0, 0.8, 0.0), (0.0, 0.3, 1.0), (1.0, 0.85, 0.0), (1.0, 0.0, 1.0),
                    (0.0, 0.9, 0.9), (1.0, 0.5, 0.0), (0.55, 0.25, 0.9), (0.55, 0.35, 0.15), (0.6, 0.6, 0.6)])
RUN_COLUMNS = ["classes", "p_inv", "p_spu", "seed"]


# -- the data --------------------------------------------------------------------------------------
def exact_subset(members: np.ndarray, fraction: float, rng: np.random.Generator) -> np.ndarray:
    """A boolean mask over `members` (indices) marking exactly round(fraction x len) of them, at random."""
    mask = np.zeros(len(members), dtype=bool)
    mask[rng.permutation(len(members))[: round(fraction * len(members))]] = True
    return mask


def other_class(values: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """For each value, a class drawn uniformly from the k - 1 classes other than it."""
    return (values + rng.integers(1, k, len(values))) % k


def noisy_labels(digits: np.ndarray, k: int, p_inv: float, rng: np.random.Generator) -> np.ndarray:
    """Labels agreeing with the digit for exactly round(p_inv n) images of each digit, the others relabelled
    uniformly among the other k - 1 classes."""
    labels = digits.copy()
    for digit in range(k):
        members = np.flatnonzero(digits == digit)
        flipped = members[~exact_subset(members, p_inv, rng)]
        labels[flipped] = other_class(labels[flipped], k, rng)
    return labels


def biased_colours(labels: np.ndarray, k: int, p_class: float, rng: np.random.Generator, swap: bool) -> np.ndarray:
    """Colour indices: images labelled 0 / 1 carry their class colour for exactly round(p_class n) of each
    label, the others the swapped colour (`swap`, the Rev. test) or one of the other k - 1 colours
    (training); images labelled 2 and above a colour uniform over all k."""
    colours = rng.integers(0, k, len(labels))
    for label in (0, 1):
        members = np.flatnonzero(labels == label)
        own = exact_subset(members, p_class, rng)
        colours[members[own]] = label
        others = members[~own]
        colours[others] = 1 - label if swap else other_class(np.full(len(others), label), k, rng)
    return colours


def training_colours(labels: np.ndarray, k: int, p_spu: float, rng: np.random.Generator) -> np.ndarray:
    return biased_colours(labels, k, p_spu, rng, swap=False)


def reversed_colours(labels: np.ndarray, k: int, rev_p_spu: float, rng: np.random.Generator) -> np.ndarray:
    return biased_colours(labels, k, rev_p_spu, rng, swap=True)


def random_colours(labels: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    return rng.integers(0, k, len(labels))


def colourise(grey: np.ndarray, colours: np.ndarray, colour_on: str, palette: np.ndarray = COLOURS) -> np.ndarray:
    """Grey images (N, H, W) in [0, 1] coloured by `palette[colours]` on the strokes or the background:
    float32 (N, 3, H, W)."""
    rgb = palette[colours][:, :, None, None]
    ink = grey[:, None]
    image = ink * rgb if colour_on == "foreground" else ink + (1 - ink) * rgb
    return np.clip(image, 0.0, 1.0).astype(np.float32)


@dataclass(frozen=True)
class ColouredSet:
    """Coloured images with their digit (the invariant feature), noisy label and colour index."""

    images: np.ndarray
    digits: np.ndarray
    labels: np.ndarray
    colours: np.ndarray


# -- settings --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MulticoloredSettings(SettingsFile):
    """A tier's study, as written in `params/<tier>/counteranimal/multicolored.yaml`.

    Every (classes, p_inv, p_spu, seed) draws its data and trains both methods once. `rev_p_spu`: the Rev.
    test's class-colour fraction for labels 0 / 1. `train_fraction`: the digits' share for training
    (`digits`); `train_images`: the first images of MNIST's training split used (`mnist`, 0: all);
    `dataset`: the registry name of MNIST (`mnist` source only, else ""). Training: an MLP encoder of
    `hidden` units and `embedding` outputs, Adam (`lr`, `weight_decay`), `epochs` over batches of
    `batch_size`; InfoNCE at `temperature`. `margin`: the difference (points) within which the two
    methods count as performing "similarly" (the findings' thresholds).
    """

    source: str
    dataset: str
    classes: list[int]
    p_inv: list[float]
    p_spu: list[float]
    rev_p_spu: float
    seeds: list[int]
    train_fraction: float
    train_images: int
    colour_on: str
    hidden: int
    embedding: int
    epochs: int
    batch_size: int
    lr: float
    weight_decay: float
    temperature: float
    margin: float
    device: str

    def validate(self, path: Path | str) -> None:
        if self.source not in SOURCES:
            raise ParamsError(f"{path}: source must be one of {SOURCES}, got {self.source!r}")
        if self.colour_on not in COLOUR_ON:
            raise ParamsError(f"{path}: colour_on must be one of {COLOUR_ON}, got {self.colour_on!r}")
        if not (self.classes and self.p_inv and self.p_spu and self.seeds):
            raise ParamsError(f"{path}: classes, p_inv, p_spu and seeds must not be empty")
        if not all(2 <= k <= len(COLOURS) for k in self.classes):
            raise ParamsError(f"{path}: classes must lie in [2, {len(COLOURS)}] (one colour per class)")
        if not all(0 <= p <= 1 for p in [*self.p_inv, *self.p_spu, self.rev_p_spu]):
            raise ParamsError(f"{path}: p_inv, p_spu and rev_p_spu must lie in [0, 1]")
        if not 0 < self.train_fraction < 1 or self.train_images < 0:
            raise ParamsError(f"{path}: train_fraction must lie in (0, 1) and train_images be >= 0")
        if min(self.hidden, self.embedding, self.epochs, self.batch_size) < 1 or min(self.lr, self.temperature) <= 0:
            raise ParamsError(f"{path}: hidden, embedding, epochs, batch_size, lr and temperature must be positive")
        if self.source == "mnist":
            from ..data.registry import registry

            if self.dataset not in registry():
                raise ParamsError(f"{path}: dataset {self.dataset!r} is not in lib/registry/datasets.csv")
        elif self.dataset:
            raise ParamsError(f"{path}: the digits source reads no registry dataset: set dataset to \"\"")


# -- the grey digits of a source -------------------------------------------------------------------
def grey_digits(settings: MulticoloredSettings, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`(train images, train digits, test images, test digits)`, grey (N, H, W) in [0, 1]."""
    if settings.source == "mnist":
        from ..data.registry import open_dataset

        train, test = (open_dataset(settings.dataset, split=split) for split in ("train", "test"))
        limit = settings.train_images or len(train.labels)
        return (train.pixels[:limit, ..., 0] / 255.0, train.labels[:limit], test.pixels[..., 0] / 255.0, test.labels)
    from ..data.embedded import digits_arrays
    from ..data.subsets import split

    images, digits = digits_arrays()
    train, test = split(digits, seed, test_fraction=1 - settings.train_fraction)
    return images[train, 0], digits[train], images[test, 0], digits[test]


def coloured_sets(settings: MulticoloredSettings, k: int, p_inv: float, p_spu: float,
                  seed: int) -> dict[str, ColouredSet]:
    """The training set and the two test sets (`train`, `rand`, `rev`) of k classes, drawn from `seed`; the
    two test sets hold the same images and labels and differ in their colours alone."""
    rng = np.random.default_rng([seed, k, round(1000 * p_inv), round(1000 * p_spu)])
    train_x, train_d, test_x, test_d = grey_digits(settings, seed)
    train_x, train_d, test_x, test_d = train_x[train_d < k], train_d[train_d < k], test_x[test_d < k], test_d[test_d < k]
    train_labels, test_labels = noisy_labels(train_d, k, p_inv, rng), noisy_labels(test_d, k, p_inv, rng)
    colours = {"train": training_colours(train_labels, k, p_spu, rng), "rand": random_colours(test_labels, k, rng),
               "rev": reversed_colours(test_labels, k, settings.rev_p_spu, rng)}
    return {name: ColouredSet(colourise(grey, colours[name], settings.colour_on), digits, labels, colours[name])
            for name, grey, digits, labels in (("train", train_x, train_d, train_labels),
                                               ("rand", test_x, test_d, test_labels),
                                               ("rev", test_x, test_d, test_labels))}


# -- the two methods (torch) ----------------------------------------------------------------------
def info_nce(image_embeddings, caption_embeddings, temperature: float):
    """CLIP's symmetric InfoNCE loss of L2-normalised pairs (row i of each is pair i): the mean of the
    image-to-caption and caption-to-image cross-entropies of the similarities / temperature."""
    import torch
    from torch.nn import functional

    logits = image_embeddings @ caption_embeddings.T / temperature
    targets = torch.arange(len(logits), device=logits.device)
    return (functional.cross_entropy(logits, targets) + functional.cross_entropy(logits.T, targets)) / 2


def zero_shot_predict(image_embeddings: np.ndarray, prompt_embeddings: np.ndarray) -> np.ndarray:
    """The class whose prompt embedding has the highest cosine similarity with each image embedding."""
    images = image_embeddings / np.linalg.norm(image_embeddings, axis=1, keepdims=True)
    prompts = prompt_embeddings / np.linalg.norm(prompt_embeddings, axis=1, keepdims=True)
    return (images @ prompts.T).argmax(1)


def mlp_encoder(inputs: int, hidden: int, embedding: int):
    """The image encoder of the colour studies: flatten, one hidden ReLU layer, `embedding` outputs."""
    from torch import nn

    return nn.Sequential(nn.Flatten(), nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, embedding))


def fit_batches(parameters, loss_of_batch: Callable, n: int, *, lr: float, weight_decay: float, epochs: int,
                batch_size: int, device: str, seed: int) -> None:
    """Adam over `epochs` of shuffled batches of indices; `loss_of_batch(indices)` gives each batch's loss."""
    import torch

    optimiser = torch.optim.Adam(parameters, lr=lr, weight_decay=weight_decay)
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for batch in torch.randperm(n, generator=generator).to(device).split(batch_size):
            optimiser.zero_grad()
            loss_of_batch(batch).backward()
            optimiser.step()


def _fit(parameters, loss_of_batch: Callable, n: int, settings: MulticoloredSettings, seed: int) -> None:
    fit_batches(parameters, loss_of_batch, n, lr=settings.lr, weight_decay=settings.weight_decay,
                epochs=settings.epochs, batch_size=settings.batch_size, device=settings.device, seed=seed)


def train_pair(settings: MulticoloredSettings, k: int, train: ColouredSet, seed: int) -> dict[str, Callable]:
    """Both methods trained on `train`: method -> a function from images (N, 3, H, W) to predicted labels."""
    import torch
    from torch import nn
    from torch.nn import functional

    device = torch.device(settings.device)
    images, labels, colours = (torch.as_tensor(a, device=device) for a in (train.images, train.labels, train.colours))
    inputs = int(np.prod(train.images.shape[1:]))
    torch.manual_seed(seed)
    supervised = nn.Sequential(mlp_encoder(inputs, settings.hidden, settings.embedding),
                               nn.Linear(settings.embedding, k)).to(device)
    _fit(supervised.parameters(), lambda b: functional.cross_entropy(supervised(images[b]), labels[b]),
         len(labels), settings, seed)

    torch.manual_seed(seed)
    encoder = mlp_encoder(inputs, settings.hidden, settings.embedding).to(device)
    label_tokens, colour_tokens = (nn.Embedding(k, settings.embedding).to(device) for _ in range(2))

    def caption(batch):
        return functional.normalize(label_tokens(labels[batch]) + colour_tokens(colours[batch]), dim=1)

    _fit([*encoder.parameters(), *label_tokens.parameters(), *colour_tokens.parameters()],
         lambda b: info_nce(functional.normalize(encoder(images[b]), dim=1), caption(b), settings.temperature),
         len(labels), settings, seed)

    @torch.no_grad()
    def classify_supervised(x: np.ndarray) -> np.ndarray:
        return supervised(torch.as_tensor(x, device=device)).argmax(1).cpu().numpy()

    @torch.no_grad()
    def classify_zero_shot(x: np.ndarray) -> np.ndarray:
        return zero_shot_predict(encoder(torch.as_tensor(x, device=device)).cpu().numpy(), label_tokens.weight.cpu().numpy())

    return {"contrastive": classify_zero_shot, "supervised": classify_supervised}


# -- the stored study -----------------------------------------------------------------------------
class MulticoloredStudy(StoredRuns):
    """One stored run per (classes, p_inv, p_spu, seed): both methods' predictions on both test sets."""

    paper = PAPER
    settings: MulticoloredSettings

    def jobs(self) -> list[tuple[dict[str, Any], Callable[[], pd.DataFrame]]]:
        s = self.settings
        if s.source == "mnist":
            grey_digits(s, 0)  # DatasetMissingError before any compute
        cells = itertools.product(s.classes, s.p_inv, s.p_spu, s.seeds)
        return [(self.config(*cell), functools.partial(self._run, *cell)) for cell in cells]

    def config(self, k: int, p_inv: float, p_spu: float, seed: int) -> dict[str, Any]:
        """What determines a run's result (its store key is a hash of this)."""
        shared = {key: value for key, value in vars(self.settings).items()
                  if key not in ("classes", "p_inv", "p_spu", "seeds", "margin", "device")}
        return {"study": "multicolored", **shared, "classes": k, "p_inv": p_inv, "p_spu": p_spu, "seed": seed}

    def _run(self, k: int, p_inv: float, p_spu: float, seed: int) -> pd.DataFrame:
        sets = coloured_sets(self.settings, k, p_inv, p_spu, seed)
        methods = train_pair(self.settings, k, sets["train"], seed)
        rows = [pd.DataFrame({"method": method, "test_set": name, "label": sets[name].labels,
                              "digit": sets[name].digits, "colour": sets[name].colours,
                              "prediction": classify(sets[name].images), "train_size": len(sets["train"].labels)})
                for method, classify in methods.items() for name in TEST_SETS]
        return pd.concat(rows, ignore_index=True).assign(classes=k, p_inv=p_inv, p_spu=p_spu, seed=seed)


def accuracies(run: pd.DataFrame) -> pd.DataFrame:
    """Table 8's accuracies (%) of each method in a run (`METRICS`), one row each (NaN rest class at k = 2)."""
    rows = []
    for (method, *cell), part in run.groupby(["method", *RUN_COLUMNS], sort=False):
        correct = part["prediction"] == part["label"]
        pair, rand = part["label"] < 2, part["test_set"] == "rand"
        values = {METRICS[0]: correct[pair & rand].mean(), METRICS[1]: correct[pair & ~rand].mean(),
                  METRICS[2]: correct[~pair & rand].mean() if (~pair & rand).any() else np.nan}
        rows += [{**dict(zip(RUN_COLUMNS, cell)), "train_method": METHODS[method], "samples": part["train_size"].iloc[0],
                  "metric": metric, "value": 100 * value} for metric, value in values.items()]
    return pd.DataFrame(rows)


def run_study(params_file: str, results_dir: str) -> tuple[MulticoloredSettings, pd.DataFrame]:
    """The settings and every run's accuracies (computed where missing), with the settings file's `tier`."""
    settings = MulticoloredSettings.load(params_file)
    study = MulticoloredStudy(settings, Path(results_dir), RunContext(params_file=params_file, device=settings.device))
    return settings, study.summary(accuracies).assign(tier=tier_of(params_file))


def precompute(params: Mapping[str, Any], artefacts: Collection[str]) -> int:
    """Compute the study's runs (`multicolored_params`, `results_dir`) if a notebook of `artefacts` reads them."""
    if not set(artefacts) & set(ARTEFACTS):
        return 0
    return precompute_study(MulticoloredSettings.load, MulticoloredStudy,
                            {"study_params": params["multicolored_params"], "results_dir": params["results_dir"]},
                            artefacts, ARTEFACTS)


# -- Table 8's cells and the findings ---------------------------------------------------------------
def cell_means(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean and sd over seeds of each (classes, p_inv, p_spu, train_method, metric): Table 8's cells, in
    the columns of the paper's frame (`classes_n`, `value`, `sd`)."""
    keys = ["classes", "p_inv", "p_spu", "train_method", "metric"]
    cells = (frame.dropna(subset=["value"]).groupby(keys, sort=False)["value"]
             .agg(value="mean", sd="std", seeds="count").reset_index())
    return cells.assign(classes_n=cells["classes"].astype(int))


def paired_gaps(frame: pd.DataFrame) -> pd.DataFrame:
    """Per run and metric: contrastive minus supervised accuracy (points), the paired difference (both
    methods see the same data in a run)."""
    wide = frame.pivot_table(index=[*RUN_COLUMNS, "metric"], columns="train_method", values="value",
                             sort=False).reset_index()
    return wide.assign(gap=wide["Contrastive"] - wide["Supervised"])


def method_gaps(frame: pd.DataFrame) -> pd.DataFrame:
    """Per (p_inv, p_spu, metric, seed): `paired_gaps` averaged over the numbers of classes."""
    return paired_gaps(frame).groupby(["p_inv", "p_spu", "metric", "seed"], sort=False)["gap"].mean().reset_index()


def cell_gaps(frame: pd.DataFrame) -> pd.DataFrame:
    """Per Table 8 cell (classes, p_inv, p_spu, metric): the mean `paired_gaps` over seeds with its 95 %
    t-interval (`low`, `high`)."""
    rows = []
    for cell, part in paired_gaps(frame).groupby(["classes", "p_inv", "p_spu", "metric"], sort=False):
        interval = mean_interval(part["gap"].to_numpy(), "seeds")
        rows.append({**dict(zip(["classes", "p_inv", "p_spu", "metric"], cell)), "gap": part["gap"].mean(),
                     "low": interval.low, "high": interval.high})
    return pd.DataFrame(rows)


def findings(frame: pd.DataFrame, margin: float) -> Findings:
    """The paper's claim ("both contrastive learning and supervised learning perform similarly across
    different numbers of classes and bias degrees") on each bias setting's Rev. accuracy, the spurious
    colour's test: contrastive minus supervised lies below +margin (contrastive is not more robust) and
    above -margin (nor less), each judged by a t-interval over seeds."""
    gaps = method_gaps(frame)
    gaps = gaps[gaps["metric"] == METRICS[1]]
    out = []
    for (p_inv, p_spu), part in gaps.groupby(["p_inv", "p_spu"], sort=False):
        values = part["gap"].to_numpy()
        interval = mean_interval(values, "seeds")
        quantity = f"Rev. accuracy, contrastive − supervised (points), p_inv {p_inv:g}, p_spu {p_spu:g}"
        claim = "contrastive and supervised perform similarly (App. D.4)"
        out += [Finding(quantity, float(values.mean()), interval, f"{claim}: not more robust", "<", margin,
                        "Table 8: within 3 points in most printed pairs"),
                Finding(quantity, float(values.mean()), interval, f"{claim}: not less robust", ">", -margin,
                        "Table 8: within 3 points in most printed pairs")]
    return Findings(out)


def spurious_findings(frame: pd.DataFrame) -> Findings:
    """The design's premise: each method relies on the colour, Rand minus Rev. accuracy on classes 0/1 above 0
    (mean over classes and bias settings per seed, t-interval over seeds)."""
    wide = frame.pivot_table(index=[*RUN_COLUMNS, "train_method"], columns="metric", values="value").reset_index()
    wide["gap"] = wide[METRICS[0]] - wide[METRICS[1]]
    out = []
    for method, part in wide.groupby("train_method", sort=False):
        values = part.groupby("seed")["gap"].mean().to_numpy()
        out.append(Finding(f"{method}: class 0/1 accuracy, Rand − Rev. (points)", float(values.mean()),
                           mean_interval(values, "seeds"), "both methods learn the spurious colour (Table 8)",
                           ">", 0.0, "Table 8: Rev. below Rand in every printed row"))
    return Findings(out)
