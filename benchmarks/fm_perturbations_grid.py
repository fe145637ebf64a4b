"""Images per second of the perturbation grid's inner step (perturb, embed, radius) and each part's share.

    python benchmarks/fm_perturbations_grid.py                    # CPU, ViT-S-32, 4 images: ~15 s on 2 idle cores
    python benchmarks/fm_perturbations_grid.py --device cuda --model ViT-L-14 --batch-size 128 --images 128

The inner step is what the study (`lib.fm_perturbations.study`) does to a set of images for one model,
through lib's own functions, each part timed on its own (`embed_grid` interleaves the first two and
writes the feature cache, so its lower-level functions are timed instead, in the same order):

1. perturb: `lib.fm_perturbations.grid.perturb_images` at every (perturbation, parameter value) cell.
   It runs on the CPU, in this process, by `--workers` threads (NumPy, SciPy, OpenCV and the
   imagecorruptions package; default the full tier's `workers`), whatever `--device` is. The study
   (`embed_grid`) perturbs one cell ahead in a background thread, overlapping this step with step 2, so
   its grid takes about the larger of the two parts plus the metrics, where the `all` row here is their sum.
2. embed: the cell's images (and once, the clean ones) through `torch_embedder` of an open_clip
   model (`--model`, built with random weights: no download) on `--device`, as the study builds it:
   uint8 batches copied to the device (from pinned memory on CUDA), there scaled to [0, 1] and normalised by
   the model's mean and std, and embedded by `encode_image` in batches of `--batch-size`, under bf16 autocast on CUDA as the full
   tier's `amp: true` has it (`--dtype float32`: without), float32 on the CPU.
3. metrics: `image_metrics` (R_cs, R_ed, R_dr of `lib.fm_perturbations.metrics`) per image over its
   versions under the perturbation (with the clean one when the full tier includes it), on the CPU.

Images are scikit-image's bundled photos in turn, resized and centre-cropped to the model's input
side as the study's registry splits are (`rgb8_transform`). The perturbations, their number of
parameter values, the sampling, the seed and `include_clean` default to the full tier's
(params/full/fm_perturbations/study.yaml). One row per group of cells: the clean cell (embedding
only), then each perturbation (its values' perturbing and embedding, then its metrics), and `all`,
the whole inner step. `images_per_s` counts each clean image once (a perturbation's row: the rate of
a grid of that perturbation alone, the clean cell aside), `versions_per_s` every embedded version;
`<part>_share` is the part's fraction of the row's time. Device timings are bracketed by
`lib.bench.synchronize`; beforehand the step runs untimed on the first batch of images at each
perturbation's first value (imports, numba's compile of glass blur, the model's move to the device,
kernels at the batch's shape). Peak memory is per row: the CUDA allocator's peak, or on the CPU the
process's peak resident set so far. The metrics' time depends on the embeddings (Welzl's algorithm,
the QP where its solve is singular): random weights may not give a pretrained model's.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from lib.bench import peak_memory_gib, report, reset_peak_memory, synchronize
from lib.fm_perturbations.grid import (CLEAN, Embedder, Grid, GridImages, grid_parameters, image_metrics,
                                       perturb_images, torch_embedder)
from lib.fm_perturbations.metrics import METRICS
from lib.params import read_params_file

SETTINGS_FILE = "params/full/fm_perturbations/study.yaml"
PARTS = ("perturb", "embed", "metrics")
TOTAL = "all"


def timed(device: str, function: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """`function(*args)` and its seconds, the device synchronised before and after."""
    synchronize(device)
    start = time.perf_counter()
    result = function(*args)
    synchronize(device)
    return result, time.perf_counter() - start


def photo_images(count: int, size: int) -> GridImages:
    """`count` images: scikit-image's photos in turn, resized and centre-cropped to `size` as the study does."""
    from PIL import Image

    from lib.data.embedded import SKIMAGE_PHOTOS, skimage_photo
    from lib.fm_perturbations.study import rgb8_transform

    crop = rgb8_transform(size)
    photos = [crop(Image.fromarray(np.uint8(np.rint(skimage_photo(name) * 255)))) for name in SKIMAGE_PHOTOS[:count]]
    targets = np.arange(count) % len(photos)
    return GridImages(f"skimage-photos-{count}-{size}px", np.stack([photos[t] for t in targets]), targets)


def open_clip_embedder(name: str, image_size: int | None, batch_size: int, device: str,
                       amp: bool) -> tuple[Embedder, int]:
    """lib's embedder of open_clip model `name` with random weights (seeded), at `image_size` (None: its
    native side; `amp`: bf16 autocast on CUDA), and that side."""
    import open_clip
    import torch

    torch.manual_seed(0)
    model = open_clip.create_model(name, pretrained=None, force_image_size=image_size)
    config = model.visual.preprocess_cfg
    embedder = torch_embedder(name, model, config["mean"], config["std"], batch_size, device, amp=amp)
    return embedder, int(config["size"][0])


def time_inner_step(data: GridImages, embedder: Embedder, parameters: Mapping[str, Sequence[float]], seed: int,
                    include_clean: bool, device: str, workers: int = 1) -> pd.DataFrame:
    """Seconds of each part and peak memory per group of cells (the clean cell, then each perturbation),
    and the `all` row summing them, with the rates and shares the module docstring describes."""
    grid = Grid(data.name, data.targets, {p: np.asarray(v, dtype=float) for p, v in parameters.items()}, {})
    rows = []
    for group in [CLEAN, *grid.parameters]:
        reset_peak_memory(device)
        seconds = dict.fromkeys(PARTS, 0.0)
        cells = [cell for cell in grid.cells() if cell[0] == group]
        for perturbation, parameter in cells:
            images, took = timed(device, perturb_images, data.images, perturbation, parameter, seed, workers)
            seconds["perturb"] += took
            grid.embeddings[(embedder.name, perturbation, parameter)], took = timed(device, embedder.embed, images)
            seconds["embed"] += took
        if group != CLEAN:
            one = Grid(grid.dataset, grid.targets, {group: grid.parameters[group]}, grid.embeddings)
            seconds["metrics"] = timed(device, image_metrics, one, tuple(METRICS), include_clean)[1]
        rows.append({"perturbation": group, "versions": len(cells) * len(data.images),
                     **{f"{part}_s": seconds[part] for part in PARTS}, "peak_memory_gib": peak_memory_gib(device)})
    frame = pd.DataFrame(rows)
    total = {"perturbation": TOTAL, **frame.drop(columns=["perturbation", "peak_memory_gib"]).sum().to_dict(),
             "peak_memory_gib": frame["peak_memory_gib"].max()}
    frame = pd.concat([frame, pd.DataFrame([total])], ignore_index=True)
    frame["total_s"] = frame[[f"{part}_s" for part in PARTS]].sum(axis=1)
    frame["images_per_s"] = len(data.images) / frame["total_s"]
    frame["versions_per_s"] = frame["versions"] / frame["total_s"]
    for part in PARTS:
        frame[f"{part}_share"] = frame[f"{part}_s"] / frame["total_s"]
    return frame


def main(argv: list[str] | None = None) -> pd.DataFrame:
    settings = read_params_file(SETTINGS_FILE)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")
    parser.add_argument("--model", default="ViT-S-32", help="an open_clip model name, built with random weights "
                        "(default ViT-S-32, small enough for the CPU; the paper's CLIP is ViT-L-14)")
    parser.add_argument("--image-size", type=int, help="image side (default: the model's native input side)")
    parser.add_argument("--batch-size", type=int, default=32, help="the embedder's batch (the full tier's: "
                        f"{settings['batch_size']})")
    parser.add_argument("--images", type=int, default=4, help="clean images in the grid")
    parser.add_argument("--perturbations", nargs="+", default=settings["perturbations"],
                        help="names in lib.perturb.PERTURBATIONS (default: the full tier's)")
    parser.add_argument("--values", type=int, default=settings["m"],
                        help=f"parameter values per perturbation (default: the full tier's {settings['m']})")
    parser.add_argument("--dtype", choices=("bfloat16", "float32"),
                        default="bfloat16" if settings["amp"] else "float32",
                        help="bfloat16: lib's bf16 autocast on CUDA (the full tier's amp: true); float32: without. "
                             "The CPU always runs float32")
    parser.add_argument("--workers", type=int, default=settings["workers"],
                        help=f"threads perturbing the images (default: the full tier's {settings['workers']})")
    parser.add_argument("--out", help="also write the rows to this CSV file")
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    amp = args.dtype == "bfloat16" and args.device.startswith("cuda")
    embedder, size = open_clip_embedder(args.model, args.image_size, args.batch_size, args.device, amp)
    data = photo_images(args.images, size)
    parameters = grid_parameters(args.perturbations, args.values, settings["sampling"], settings["seed"])
    step = (settings["seed"], settings["include_clean"], args.device, args.workers)
    batch = GridImages(data.name, data.images[:args.batch_size], data.targets[:args.batch_size])
    time_inner_step(batch, embedder, {p: values[:1] for p, values in parameters.items()}, *step)  # warm-up
    frame = time_inner_step(data, embedder, parameters, *step)
    report(frame, args.device, "benchmarks/fm_perturbations_grid.py", argv,
           f"model: {args.model} at {size} px (random weights, {'bfloat16' if amp else 'float32'}), "
           f"batch {args.batch_size}, {args.workers} perturbing threads; {args.images} images x ({len(parameters)} perturbations x {args.values} "
           f"{settings['sampling']} values + clean), metrics {' '.join(METRICS)} "
           f"(include_clean={settings['include_clean']})", args.out)
    return frame


if __name__ == "__main__":
    main()
