"""Zero-shot CounterAnimal evaluation of open_clip CLIPs: the head's one-off build, then images per second
and peak memory of the evaluation itself.

    python benchmarks/counteranimal_zero_shot.py          # CPU: ViT-S-32-alt, 1000 classes, ~15 s on 2 cores
    python benchmarks/counteranimal_zero_shot.py --device cuda --models ViT-L-14 ViT-bigG-14 --batch-size 256 --batches 10

Every model is an open_clip model built with random weights (`pretrained=None`: no download) and run
through lib's own CounterAnimal code (`lib.counteranimal.evaluation`), as `lib.counteranimal.study`
runs a registry CLIP:
- head build: `zero_shot_head` over the first `--classes` ImageNet-1K labels (the full WordNet synset
  strings, the paper's default) and `--templates` prompts per label (1: the paper's "A photo of {}.";
  80: CLIP's ensemble, `openai_80`), the text tower run once, without gradients, as
  `registered_classifier` does. Reported in seconds (`head_build_s`). On CUDA the first model's build
  also pays CUDA's lazy start-up (cuBLAS handles, kernel loading).
- evaluation: `predictions` (image tower, the head's logits, the ranking, via `lib.evaluate.predictions.
  predict_ranked`) over synthetic items: one batch of normal-random tensors (already "normalised") at the
  model's native input size (its open_clip preprocess config: 224 for ViT-L-14 and ViT-bigG-14), fed
  `1 + --batches` times and wrapped in a small in-memory CounterAnimal item list whose targets are
  random labels and whose groups alternate common/counter. The ranking is the study's: the top
  `TOP_K` of all classes ("1 vs 1000"), or with `--candidates k` each item among its class's k
  candidates (`RestrictedRanker`, "1 vs 20"; the sets from `candidate_sets` over random class scores).
  Each step is timed inside lib's loop (`lib.bench.Clocked`: the time between two requests for a
  batch) and the rate is the median step after the first. No image is read or decoded.

Precision, as lib does it: the runner (`lib.train.loop.batch_logits`) evaluates under bf16 autocast on
CUDA when asked (`amp=True`), over float32 weights, as the study does at full (its setting `amp: true`);
the default here (`--dtype bfloat16`). `--dtype float32` times the study with `amp: false`. The head's
prompts are encoded under the same autocast (`zero_shot_head(amp=...)`), the class embeddings kept in
float32. On the CPU lib never autocasts: float32.

Peak memory is the CUDA allocator's peak from the model on the device to the end of the evaluation
(float32 weights, head build and evaluation: the memory a zero-shot run needs), or on the CPU the
process's peak resident set so far (it never goes down).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import open_clip
import pandas as pd
import torch
from torch import nn

from lib.bench import Clocked, peak_memory_gib, report, reset_peak_memory, synchronize
from lib.counteranimal.evaluation import (
    PAPER_TEMPLATE,
    RestrictedRanker,
    candidate_sets,
    label_names,
    predictions,
    zero_shot_head,
)
from lib.counteranimal.study import TOP_K
from lib.data.counteranimal import GROUPS, CounterAnimalImages
from lib.evaluate.predictions import Ranker, top_k

LABELS = "imagenet_synsets"  # zero_shot_head's default, the paper's label strings
PROMPTS = {1: PAPER_TEMPLATE, 80: "openai_80"}  # --templates -> zero_shot_head's prompt


def input_size(model: nn.Module) -> tuple[int, int]:
    """(height, width) of the model's images, from its open_clip preprocess config."""
    size = open_clip.get_model_preprocess_cfg(model)["size"]
    return (size, size) if isinstance(size, int) else tuple(size)


def synthetic_items(targets: np.ndarray, names: list[str]) -> CounterAnimalImages:
    """An in-memory CounterAnimal item list (no files) with these targets, groups alternating common/counter."""
    samples = [(Path(f"synthetic/{i}"), int(t)) for i, t in enumerate(targets)]
    groups = [GROUPS[i % 2] for i in range(len(targets))]
    return CounterAnimalImages(samples, names, list(range(len(names))), "imagenet_index", None, groups,
                               [None] * len(targets))


def ranker(targets: np.ndarray, classes: int, candidates: int) -> Ranker:
    """The study's top-`TOP_K` over all classes, or each item among its class's `candidates` labels
    (sets drawn by `candidate_sets` from random class scores)."""
    if not candidates:
        return top_k(TOP_K)
    scores = np.random.default_rng(0).random((classes, classes))
    return RestrictedRanker(targets, candidate_sets(scores, range(classes), candidates), TOP_K)


def measure(name: str, device: str, classes: int, templates: int, batch_size: int, batches: int, amp: bool,
            candidates: int) -> dict:
    """One model's row: head build seconds, steady-state images/s and peak memory (module docstring)."""
    model = open_clip.create_model(name, pretrained=None, device=device).eval()
    names = label_names(LABELS)[:classes]
    reset_peak_memory(device)
    synchronize(device)
    start = time.perf_counter()
    head = zero_shot_head(model, open_clip.get_tokenizer(name), names, PROMPTS[templates], amp)
    synchronize(device)
    head_build_s = time.perf_counter() - start

    height, width = input_size(model)
    generator = torch.Generator().manual_seed(0)
    batch = (torch.randn(batch_size, 3, height, width, generator=generator),
             torch.randint(0, classes, (batch_size,), generator=generator))
    targets = batch[1].repeat(1 + batches).numpy()
    clocked = Clocked([batch] * (1 + batches), device)
    predictions(head, synthetic_items(targets, names), clocked, ranker(targets, classes, candidates), device, amp)
    step = float(np.median(np.diff(clocked.times)[1:]))
    return {"model": name, "classes": classes, "templates": templates, "ranking": f"1 vs {candidates or classes}",
            "image_size": height if height == width else f"{height}x{width}",
            "params_m": sum(p.numel() for p in model.parameters()) / 1e6, "head_build_s": head_build_s,
            "images_per_s": batch_size / step, "peak_memory_gib": peak_memory_gib(device),
            "dtype": "bfloat16" if amp else "float32"}


def main(argv: list[str] | None = None) -> pd.DataFrame:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")
    parser.add_argument("--models", nargs="+", default=["ViT-S-32-alt"],
                        help="open_clip model names, built with random weights (GPU run: ViT-L-14 ViT-bigG-14)")
    parser.add_argument("--classes", type=int, default=1000, help="the first N ImageNet-1K labels (1 to 1000)")
    parser.add_argument("--templates", type=int, choices=sorted(PROMPTS), default=1,
                        help="prompts per label: 1 (the paper's 'A photo of {}.') or 80 (CLIP's ensemble)")
    parser.add_argument("--candidates", type=int, default=0,
                        help="rank each item among its class's k candidate labels (the paper's 1 vs 20: 20); "
                             "default 0: among all classes")
    parser.add_argument("--dtype", choices=("bfloat16", "float32"), default="bfloat16",
                        help="bfloat16: lib's bf16 autocast on CUDA (the study's amp: true); float32: amp: false. "
                             "The CPU always runs float32")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--batches", type=int, default=2, help="timed batches per model, after one untimed")
    parser.add_argument("--out", help="also write the rows to this CSV file")
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    if not 1 <= args.classes <= 1000:
        parser.error("--classes must lie in 1..1000 (ImageNet-1K's labels)")
    if not 0 <= args.candidates <= args.classes:
        parser.error("--candidates must lie in 0..--classes")
    amp = args.dtype == "bfloat16" and args.device.startswith("cuda")
    frame = pd.DataFrame([measure(name, args.device, args.classes, args.templates, args.batch_size, args.batches,
                                  amp, args.candidates) for name in args.models])
    report(frame, args.device, "benchmarks/counteranimal_zero_shot.py", argv,
           f"batch {args.batch_size}, {args.batches} timed batches, synthetic images, random weights", args.out)
    return frame


if __name__ == "__main__":
    main()
