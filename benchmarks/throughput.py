"""Images per second and peak memory of lib's evaluation, feature extraction and fine-tuning methods,
each as a fraction of the device's own ceiling.

    python benchmarks/throughput.py                                   # CPU, small defaults: about a minute
    python benchmarks/throughput.py --device cuda --model vit_base_patch16_224 --batch-size 256 --batches 20

Every task runs lib's own code path on a timm model with random weights (no download): evaluation
is `lib.evaluate.predictions.predict_ranked` (top-5 of 1000 classes), feature extraction
`lib.evaluate.features.extract_features`, and each fine-tuning method `lib.finetune.methods.train_method`
with the full tier's method settings (params/full/imagenet_rib/benchmark.yaml; SGD, a 200-class
logit mask as for ImageNet-R). Inputs are synthetic images, or a JPEG folder tree of scikit-image's
photos cropped and resized to ImageNet's typical 500x375 at quality 90, written by this script to a
temporary folder and read through a DataLoader with `--workers` processes and the project's eval
transform (resize, centre crop to `--image-size`, normalise).

Rates are steady state: each step is timed inside lib's loop (the time between two requests for a
batch, reading included), and the rate is the median step after the first of `1 + --batches`;
everything else the task took (building the optimiser, the first step, EWC's Fisher estimate, the
teacher copy of LwF) is reported separately as `one_off_s`. The ceiling is a large square matmul in
the task's dtype (bf16 where lib runs under autocast on CUDA, else float32), timed here; the ratio
is achieved FLOP/s over it, counting a forward pass with torch's FlopCounterMode and fine-tuning as
three forward passes per image (forward and backward; LwF's teacher and the penalties count as
overhead). Peak memory is the CUDA allocator's peak per task, or on the CPU the process's peak
resident set so far (it never goes down).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.utils.data import DataLoader, Subset

from lib.bench import Clocked, peak_memory_gib, report, reset_peak_memory, synchronize

EVALUATION, FEATURES = "evaluation", "features"
DEFAULT_TASKS = (EVALUATION, FEATURES, "FT", "EWC", "EWC (L2, released code)", "LwF")
NUM_CLASSES = 1000
UNMASKED = 200  # the logit mask keeps the first 200 classes (ImageNet-R's count); every label is among them
JPEG_SIZE, JPEG_QUALITY = (500, 375), 90
TRAIN_FLOPS_PER_FORWARD = 3  # forward + backward, the usual count
SETTINGS_FILE = "params/full/imagenet_rib/benchmark.yaml"


def matmul_ceiling(device: str, dtype: torch.dtype, size: int, repeats: int = 3) -> float:
    """FLOP/s of a `size`-square matmul in `dtype` on `device` (best of `repeats`, after a warm-up)."""
    a = torch.randn(size, size, device=device, dtype=dtype)
    b = torch.randn(size, size, device=device, dtype=dtype)
    times = []
    for _ in range(repeats + 1):  # the first is a warm-up
        synchronize(device)
        start = time.perf_counter()
        a @ b
        synchronize(device)
        times.append(time.perf_counter() - start)
    return 2 * size**3 / min(times[1:])


def forward_flops(model: nn.Module, image_size: int, device: str) -> float:
    """FLOPs of one image's forward pass, counted by torch's FlopCounterMode."""
    from torch.utils.flop_counter import FlopCounterMode

    counter = FlopCounterMode(display=False)
    with torch.no_grad(), counter:
        model.eval()(torch.zeros(1, 3, image_size, image_size, device=device))
    return float(counter.get_total_flops())


def write_jpeg_tree(root: Path, count: int, classes: int = 4) -> Path:
    """`count` JPEGs under `root/<class>/`: random crops of scikit-image's photos, resized to 500x375, quality 90."""
    from PIL import Image

    from lib.data.embedded import SKIMAGE_PHOTOS, skimage_photo

    rng = np.random.default_rng(0)
    photos = [np.asarray(skimage_photo(name) * 255, dtype=np.uint8) for name in SKIMAGE_PHOTOS[:count]]
    width, height = JPEG_SIZE
    for i in range(count):
        photo = photos[i % len(photos)]
        crop_h = int(rng.integers(photo.shape[0] // 2, photo.shape[0] + 1))
        crop_w = min(photo.shape[1], int(crop_h * width / height))
        top = int(rng.integers(0, photo.shape[0] - crop_h + 1))
        left = int(rng.integers(0, photo.shape[1] - crop_w + 1))
        image = Image.fromarray(photo[top:top + crop_h, left:left + crop_w]).resize(JPEG_SIZE, Image.Resampling.BICUBIC)
        folder = root / f"class_{i % classes}"
        folder.mkdir(parents=True, exist_ok=True)
        image.save(folder / f"{i:05d}.jpg", quality=JPEG_QUALITY)
    return root


class Inputs:
    """`batches(n)`: n batches of images and labels, synthetic tensors or decoded from a JPEG folder tree."""

    def __init__(self, kind: str, batch_size: int, image_size: int, count: int, workers: int, folder: Path) -> None:
        self.kind, self.batch_size, self.workers = kind, batch_size, workers
        generator = torch.Generator().manual_seed(0)
        labels = torch.randint(0, UNMASKED, (batch_size,), generator=generator)
        self.synthetic = (torch.randn(batch_size, 3, image_size, image_size, generator=generator), labels)
        if kind == "jpeg":
            from torchvision import transforms

            from lib.data.folders import FolderImages
            from lib.data.transforms import IMAGENET_MEAN, IMAGENET_STD

            transform = transforms.Compose([  # imagenet_default's transform at `image_size`
                transforms.Resize(round(image_size * 256 / 224)), transforms.CenterCrop(image_size),
                transforms.ToTensor(), transforms.Normalize(IMAGENET_MEAN, IMAGENET_STD)])
            self.images = FolderImages.from_root(write_jpeg_tree(folder, count), "own", transform)

    def batches(self, n: int):
        """A re-iterable source of `n` batches (its length is `n`)."""
        if self.kind == "synthetic":
            return [self.synthetic] * n
        return DataLoader(Subset(self.images, range(n * self.batch_size)), batch_size=self.batch_size,
                          num_workers=self.workers, pin_memory=torch.cuda.is_available(), drop_last=True)


def task_runner(task: str, model: nn.Module, device: str, amp: bool, batch_size: int) -> Callable:
    """`run(batches, fisher_batches)`: the task through lib's own code path."""
    from lib.evaluate.features import extract_features
    from lib.evaluate.predictions import predict_ranked, top_k
    from lib.finetune.methods import TRAINERS, MethodSettings, fisher_from, train_method
    from lib.params import read_params_file
    from lib.train.config import TrainConfig

    if task == EVALUATION:
        return lambda batches, _: predict_ranked(model, batches, top_k(5), device, amp)
    if task == FEATURES:
        return lambda batches, _: extract_features(model, batches, device)
    if task not in TRAINERS:
        raise SystemExit(f"unknown task {task!r}: {EVALUATION}, {FEATURES} or a trained method of lib.finetune.methods "
                         f"({', '.join(TRAINERS)})")
    settings = MethodSettings(**read_params_file(SETTINGS_FILE)["method_settings"])
    mask = torch.zeros(NUM_CLASSES, dtype=torch.bool)
    mask[:UNMASKED] = True
    config = TrainConfig(epochs=1, batch_size=batch_size, base_lr=0.001, reference_batch=batch_size, device=device, amp=amp)
    return lambda batches, fisher: train_method(task, model, batches, config, settings, mask,
                                                fisher=fisher_from(fisher, settings, config) if fisher is not None else None)


def measure(task: str, model: nn.Module, inputs: Inputs, batches: int, device: str, amp: bool) -> dict:
    """Steady-state images/s of `task` (the median step after the first of 1 + `batches`) and the
    seconds of everything else (one-off work: set-up, the first step, EWC's Fisher, LwF's teacher)."""
    reset_peak_memory(device)
    run = task_runner(task, model, device, amp, inputs.batch_size)
    clocked = Clocked(inputs.batches(1 + batches), device)
    synchronize(device)
    start = time.perf_counter()
    run(clocked, inputs.batches(1))
    synchronize(device)
    total = time.perf_counter() - start
    steps = np.diff(clocked.times)
    step = float(np.median(steps[1:]))
    return {"task": task, "images_per_s": inputs.batch_size / step, "one_off_s": max(total - len(steps) * step, 0.0),
            "peak_memory_gib": peak_memory_gib(device)}


def build_model(name: str, image_size: int) -> nn.Module:
    """A timm classifier over 1000 classes with random weights, for `image_size` inputs."""
    import timm

    try:
        return timm.create_model(name, pretrained=False, num_classes=NUM_CLASSES, img_size=image_size)
    except TypeError:  # convolutional models take any input size and have no img_size argument
        return timm.create_model(name, pretrained=False, num_classes=NUM_CLASSES)


def benchmark(model_name: str, device: str, data: list[str], tasks: list[str], batch_size: int, batches: int,
              image_size: int, workers: int, ceiling_size: int) -> pd.DataFrame:
    """One row per data kind and task: images/s, one-off seconds, peak memory and the ratio to the ceiling.

    The ceiling of a dtype is the best of its matmuls timed before every task that uses it, so a
    moment of contention on a shared machine does not lower it."""
    amp = device.startswith("cuda")  # lib's evaluation and training run under bf16 autocast on CUDA
    model = build_model(model_name, image_size).to(device)
    flops = forward_flops(model, image_size, device)
    ceilings: dict[torch.dtype, float] = {}
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for kind in data:
            inputs = Inputs(kind, batch_size, image_size, (1 + batches) * batch_size, workers, Path(folder) / kind)
            measure("FT", model, inputs, 1, device, amp)  # warm-up: allocator, kernels, loader start-up
            for task in tasks:
                dtype = torch.float32 if task == FEATURES or not amp else torch.bfloat16
                ceilings[dtype] = max(ceilings.get(dtype, 0.0), matmul_ceiling(device, dtype, ceiling_size))
                row = measure(task, model, inputs, batches, device, amp)
                work = flops * (1 if task in (EVALUATION, FEATURES) else TRAIN_FLOPS_PER_FORWARD)
                rows.append({"data": kind, **row, "gflops_per_image": work / 1e9, "dtype": dtype,
                             "tflops": row["images_per_s"] * work / 1e12})
    frame = pd.DataFrame(rows)
    frame["ceiling_tflops"] = [ceilings[dtype] / 1e12 for dtype in frame["dtype"]]
    frame["ratio_to_ceiling"] = frame["tflops"] / frame["ceiling_tflops"]
    return frame.assign(dtype=[str(dtype).removeprefix("torch.") for dtype in frame["dtype"]])


def main(argv: list[str] | None = None) -> pd.DataFrame:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")
    parser.add_argument("--model", default="vit_tiny_patch16_224", help="a timm model name, built with random weights")
    parser.add_argument("--data", nargs="+", choices=("synthetic", "jpeg"), default=["synthetic", "jpeg"])
    parser.add_argument("--tasks", nargs="+", default=list(DEFAULT_TASKS),
                        help=f"{EVALUATION}, {FEATURES} and trained methods (default: {' '.join(DEFAULT_TASKS)})")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--batches", type=int, default=2, help="timed batches per task, after one untimed")
    parser.add_argument("--image-size", type=int, default=224)
    parser.add_argument("--workers", type=int, default=1, help="DataLoader processes decoding the JPEGs")
    parser.add_argument("--ceiling-size", type=int, help="side of the square matmul measuring the ceiling "
                        "(default 8192 on CUDA, 1024 on the CPU)")
    parser.add_argument("--out", help="also write the rows to this CSV file")
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    ceiling_size = args.ceiling_size or (8192 if args.device.startswith("cuda") else 1024)
    frame = benchmark(args.model, args.device, args.data, args.tasks, args.batch_size, args.batches, args.image_size,
                      args.workers, ceiling_size)
    report(frame, args.device, "benchmarks/throughput.py", argv,
           f"model: {args.model} at {args.image_size} px (random weights), batch {args.batch_size}", args.out)
    return frame


if __name__ == "__main__":
    main()
