"""The perturbation grid: every (perturbation, parameter value) version of a set of images, embedded
once per model through the feature cache, so that every metric and head reads the same embeddings.

- Images: 8-bit RGB (N, H, W, 3) at the model's input size (`GridImages`; resizing and cropping
  happen before the grid, as ImageNet-C perturbs 224-pixel crops).
- Cells: the clean image (perturbation and parameter both `CLEAN`, the paper's k = ⊥) and, per
  perturbation of `lib.perturb.PERTURBATIONS`, its sampled parameter values (`grid_parameters`: the
  paper's equally-spaced or random sampling of m values, `lib.perturb.parameter_values`).
- Randomness: image i is perturbed with a generator seeded by `(seed, i)`, the same at every parameter
  value of a perturbation, so stochastic perturbations use common random numbers across the domain
  (the same noise, fog map, frost crop, pixel shuffle at every k), and image i's version depends on
  (seed, i) alone, not on the images after it.
- Cache: each (model, cell) is one `FeatureCache` entry whose spec names the model (and its version), the dataset (its
  name, size and a digest of its pixels), the perturbation, the parameter and the seed. A cell's
  perturbed images are computed at most once per call, only when some model's entry is missing, and
  one cell ahead of the embedding (a background thread perturbs the next missing cell meanwhile).
- Metrics: `image_metrics` computes R_cs, R_ed and R_dr (`lib.fm_perturbations.metrics`) per image over
  its versions under each perturbation (K includes ⊥ by default, as Sec. 3.3.1 states for R_dr; a
  setting for all three); `metric_summary` averages them over images per (model, dataset,
  perturbation) with a bootstrap interval over images (the paper reports means only).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..findings import bootstrap_interval
from ..perturb.corruptions import parameter_values
from ..perturb.perturbations import PERTURBATIONS, check_image
from ..store import FeatureCache
from .metrics import METRICS

if TYPE_CHECKING:
    import torch

CLEAN = "clean"  # perturbation and parameter of the unperturbed image (k = ⊥)
Parameter = float | str  # a parameter value, or CLEAN
Embed = Callable[[np.ndarray], np.ndarray]  # uint8 (n, H, W, 3) -> float (n, d)


@dataclass(frozen=True)
class GridImages:
    """The images of one dataset for the grid: `name` (as the cache spec names it), uint8 `images`
    (N, H, W, 3) and integer `targets` (N,)."""

    name: str
    images: np.ndarray
    targets: np.ndarray

    def __post_init__(self) -> None:
        if self.images.ndim != 4 or len(self.images) == 0 or len(self.targets) != len(self.images):
            raise ValueError(f"{self.name}: expected N >= 1 images (N, H, W, 3) and N targets, got "
                             f"{self.images.shape} and {len(self.targets)}")
        check_image(self.images[0])

    def digest(self) -> str:
        """A short hash of the pixels and targets: a changed image set is a new cache entry."""
        hasher = hashlib.blake2b(digest_size=8)
        hasher.update(np.ascontiguousarray(self.images).data)
        hasher.update(np.asarray(self.targets, dtype=np.int64).tobytes())
        return hasher.hexdigest()


@dataclass(frozen=True)
class Embedder:
    """A model as the grid uses it: `name` (the model in the grid and the cache spec), `embed`, uint8
    images (n, H, W, 3) -> embeddings (n, d), and `version`: whatever else the cache spec must name
    to tell its weights and preprocessing apart (a stand-in's seed, an input size)."""

    name: str
    embed: Embed
    version: str = ""


def grid_parameters(perturbations: Sequence[str], m: int, how: str = "equal", seed: int = 0) -> dict[str, np.ndarray]:
    """The m sampled parameter values of each perturbation (`parameter_values`; `how` "equal" or "random")."""
    return {name: parameter_values(name, m, how, seed) for name in perturbations}


def perturb_images(images: np.ndarray, perturbation: str, parameter: Parameter, seed: int,
                   workers: int = 1) -> np.ndarray:
    """Every image at one grid cell: itself for `CLEAN`, else perturbed with the generator seeded by (seed, i),
    by `workers` threads (the perturbations' numpy, SciPy and PIL code releases the GIL; each image's generator
    is its own, so the result does not depend on `workers`)."""
    if perturbation == CLEAN:
        return images
    function = PERTURBATIONS[perturbation].function

    def one(index: int) -> np.ndarray:
        return function(images[index], float(parameter), np.random.default_rng([seed, index]))

    if workers <= 1:
        return np.stack([one(index) for index in range(len(images))])
    with ThreadPoolExecutor(workers) as pool:
        return np.stack(list(pool.map(one, range(len(images)))))


@dataclass
class Grid:
    """Embeddings of every cell for every model: `embeddings[(model, perturbation, parameter)]` is
    (N, d), rows in image order; the clean cell is `(model, CLEAN, CLEAN)`."""

    dataset: str
    targets: np.ndarray
    parameters: dict[str, np.ndarray]
    embeddings: dict[tuple[str, str, Parameter], np.ndarray]

    @property
    def models(self) -> list[str]:
        return list(dict.fromkeys(model for model, _, _ in self.embeddings))

    def clean(self, model: str) -> np.ndarray:
        return self.embeddings[(model, CLEAN, CLEAN)]

    def cells(self) -> list[tuple[str, Parameter]]:
        """Every (perturbation, parameter) of the grid, the clean cell first."""
        return [(CLEAN, CLEAN)] + [(p, float(v)) for p, values in self.parameters.items() for v in values]

    def stack(self, model: str, perturbation: str, include_clean: bool = True) -> np.ndarray:
        """(N, n, d): per image, the embeddings of its versions under `perturbation` (the clean one first
        when `include_clean`: the paper's K includes ⊥), the input of the metrics."""
        versions = [self.embeddings[(model, perturbation, float(v))] for v in self.parameters[perturbation]]
        if include_clean:
            versions.insert(0, self.clean(model))
        return np.stack(versions, axis=1)


def cell_spec(embedder: Embedder, data: GridImages, digest: str, perturbation: str, parameter: Parameter,
              seed: int) -> dict:
    """The feature-cache spec of one model at one cell of the grid."""
    return {"kind": "fm_perturbations_grid", "model": embedder.name, "model_version": embedder.version,
            "dataset": data.name, "n_images": len(data.images),
            "image_shape": list(data.images.shape[1:]), "images_digest": digest, "perturbation": perturbation,
            "parameter": parameter, "seed": seed}


def embed_grid(data: GridImages, embedders: Sequence[Embedder], parameters: Mapping[str, Sequence[float]],
               seed: int, cache: FeatureCache, workers: int = 1) -> Grid:
    """The grid of `data` under `parameters` (perturbation -> values) for every embedder, read from
    `cache` or computed into it: a cell's images are perturbed once (by `workers` threads), only if a model
    misses it, and while the cell before it is embedded (one cell ahead, in a background thread: perturbing
    on the CPU overlaps embedding on the device; the numbers do not depend on it)."""
    unknown = [p for p in parameters if p not in PERTURBATIONS]
    if unknown:
        raise KeyError(f"unknown perturbations {unknown}; available: {list(PERTURBATIONS)}")
    names = [e.name for e in embedders]
    if len(set(names)) != len(names):
        raise ValueError(f"embedder names must be distinct, got {names}")
    grid = Grid(data.name, np.asarray(data.targets), {p: np.asarray(v, dtype=float) for p, v in parameters.items()}, {})
    digest = data.digest()
    specs = {cell: [cell_spec(e, data, digest, *cell, seed) for e in embedders] for cell in grid.cells()}
    missed = iter([cell for cell, cell_specs in specs.items() if not all(map(cache.has, cell_specs))])
    with ThreadPoolExecutor(1) as ahead:
        queued: dict[tuple[str, Parameter], Future] = {}

        def queue_next() -> None:
            cell = next(missed, None)
            if cell is not None:
                queued[cell] = ahead.submit(perturb_images, data.images, *cell, seed, workers)

        def images_of(cell: tuple[str, Parameter]) -> np.ndarray:
            """A cell's perturbed images: those queued (then the next missing cell is queued), or made here if
            the cell was cached when the queue was planned and is missing now."""
            if cell not in queued:
                return perturb_images(data.images, *cell, seed, workers)
            images = queued.pop(cell).result()
            queue_next()
            return images

        queue_next()
        for cell, cell_specs in specs.items():
            perturbed = functools.cache(functools.partial(images_of, cell))
            if cell in queued:
                perturbed()  # taken now, so that the next missing cell is perturbed while this one is embedded
            for embedder, spec in zip(embedders, cell_specs):
                features, _ = cache.get(spec, lambda: (np.asarray(embedder.embed(perturbed())), grid.targets))
                grid.embeddings[(embedder.name, *cell)] = features
    return grid


def torch_embedder(name: str, model: "torch.nn.Module", mean: Sequence[float], std: Sequence[float],
                   batch_size: int = 64, device: str = "cpu", version: str = "", amp: bool = False) -> Embedder:
    """An `Embedder` of a torch image model: pixels to [0, 1], normalised per channel by `mean` and `std`,
    then the model's image embedding (`encode_image` for a CLIP, else `lib.train.heads.embed`: the
    pre-logits of a timm model), in eval mode without gradients, in batches of `batch_size`, returned as
    float32; with `amp` on CUDA computed under bf16 autocast (then the version says "bf16", so that its cache
    entries are apart from float32 ones). Each batch travels as uint8 (from pinned memory on CUDA, a quarter of
    float32's bytes) and is scaled and normalised on the device, in float32 (the same numbers as on the CPU)."""
    import torch

    from ..train.heads import embed

    encode = model.encode_image if hasattr(model, "encode_image") else (lambda x: embed(model, x))
    shift = torch.tensor(mean, dtype=torch.float32, device=device).view(1, -1, 1, 1)
    scale = torch.tensor(std, dtype=torch.float32, device=device).view(1, -1, 1, 1)
    cuda = device.startswith("cuda")

    def inputs(pixels: np.ndarray) -> "torch.Tensor":
        batch = torch.from_numpy(np.ascontiguousarray(pixels[..., :3]))
        batch = batch.pin_memory() if cuda else batch
        # NCHW as before (a channels-last input changed the mini tier's ResNet embeddings in their last bits)
        rgb = batch.to(device, non_blocking=True).permute(0, 3, 1, 2).contiguous().float() / 255.0
        return (rgb - shift) / scale

    @torch.no_grad()
    def run(images: np.ndarray) -> np.ndarray:
        model.eval().to(device)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp and cuda):
            out = [encode(inputs(images[i:i + batch_size])).float().cpu() for i in range(0, len(images), batch_size)]
        return torch.cat(out).numpy()

    return Embedder(name, run, f"{version} mean={list(mean)} std={list(std)}{' bf16' if amp and cuda else ''}".strip())


def image_metrics(grid: Grid, metrics: Sequence[str] = tuple(METRICS), include_clean: bool = True) -> pd.DataFrame:
    """Per image, model and perturbation, each robustness metric (`metrics.METRICS`) over the embeddings
    of the image's versions (with the clean one when `include_clean`): columns `model`, `dataset`,
    `perturbation`, `item`, `metric`, `value`."""
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise KeyError(f"unknown metrics {unknown}; available: {list(METRICS)}")
    rows = []
    for model in grid.models:
        for perturbation in grid.parameters:
            for item, points in enumerate(grid.stack(model, perturbation, include_clean)):
                rows += [{"model": model, "dataset": grid.dataset, "perturbation": perturbation, "item": item,
                          "metric": metric, "value": METRICS[metric](points)} for metric in metrics]
    return pd.DataFrame(rows)


def metric_summary(frame: pd.DataFrame, resamples: int = 2000, seed: int = 0) -> pd.DataFrame:
    """The mean of each metric over images per (model, dataset, perturbation), with a seeded percentile
    bootstrap interval over images (`lib.findings.bootstrap_interval`): columns `model`, `dataset`,
    `perturbation`, `metric`, `mean`, `low`, `high`, `n_images`, `interval`."""
    rows = []
    for (model, dataset, perturbation, metric), group in frame.groupby(
            ["model", "dataset", "perturbation", "metric"], sort=False):
        values = group["value"].to_numpy(dtype=float)
        interval = bootstrap_interval(values, np.mean, seed=seed, resamples=resamples, unit="images")
        rows.append({"model": model, "dataset": dataset, "perturbation": perturbation, "metric": metric,
                     "mean": float(values.mean()), "low": interval.low, "high": interval.high,
                     "n_images": len(values), "interval": interval.method})
    return pd.DataFrame(rows)
