"""Throughput and memory of the protocols' steps on full-size architectures (random init, synthetic images).

    python scripts/gpu_throughput.py --out docs/measurements/ssl_protocols_throughput.csv

Times, per architecture (torchvision ResNet-50, timm ViT-B/16, both random-init, 224 px), the
steps the ssl_protocols study runs through `lib`: frozen feature extraction (what kNN probing and
linear probing on cached features cost), the kNN vote of 10,000 queries against 100,000 stored
features, a linear-probe step on cached features, and a fine-tuning step (`lib.train.loop.train`:
SGD, bf16 autocast, layer-wise lr decay and drop path for the ViT). Needs a CUDA device.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from lib.evaluate.features import extract_features
from lib.evaluate.knn import knn_votes
from lib.train.heads import Classifier, linear_head, layer_decay_groups, set_drop_path
from lib.train.config import TrainConfig
from lib.train.loop import train


def build(arch: str) -> torch.nn.Module:
    if arch == "resnet50":
        import torchvision

        model = torchvision.models.resnet50(weights=None)
        return model
    import timm

    return timm.create_model("vit_base_patch16_224", pretrained=False, num_classes=0)


def synthetic(n: int, batch: int, classes: int = 1000) -> list[tuple[torch.Tensor, torch.Tensor]]:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(batch, 3, 224, 224, generator=g)
    y = torch.randint(0, classes, (batch,), generator=g)
    return [(x, y)] * n


def timed(fn, images: int, device: str) -> dict:
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    start = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "images_per_s": images / seconds, "peak_memory_gib": torch.cuda.max_memory_allocated() / 2**30}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()
    device = "cuda"
    rows = []
    for arch in ("resnet50", "vit_b16"):
        backbone = build(arch).to(device)
        # feature extraction: forward only, eval mode (kNN and LP read these cached features)
        batches = synthetic(args.steps, 256)
        extract_features(backbone, batches[:3], device)  # warm-up
        with torch.autocast("cuda", dtype=torch.bfloat16):
            r = timed(lambda: extract_features(backbone, batches, device), 256 * args.steps, device)
        rows.append({"architecture": arch, "step": "feature extraction (bf16 autocast, batch 256)", **r})
        dim = 2048 if arch == "resnet50" else 768
        rng = np.random.default_rng(0)
        train_x = rng.normal(size=(100_000, dim)).astype(np.float32)
        train_y = rng.integers(0, 1000, 100_000)
        test_x = rng.normal(size=(10_000, dim)).astype(np.float32)
        r = timed(lambda: knn_votes(train_x, train_y, test_x, 1000, k=20, normalize=True, device=device), 10_000, device)
        rows.append({"architecture": arch, "step": "kNN votes, k=20, z-scored, 10k queries x 100k train (float64)", **r})
        head = linear_head(dim, 1000, batchnorm=True)
        features = [(torch.randn(1024, dim), torch.randint(0, 1000, (1024,)))] * args.steps
        config = TrainConfig(epochs=1, batch_size=1024, base_lr=0.1, device=device)
        r = timed(lambda: train(head, features, config), 1024 * args.steps, device)
        rows.append({"architecture": arch, "step": "linear probe step on cached features (BN head, batch 1024)", **r})
        del backbone
        torch.cuda.empty_cache()
        for batch in (64, 128):
            model = Classifier(build(arch), 1000)
            groups = None
            if arch == "vit_b16":
                set_drop_path(model.backbone, 0.2)
                groups = layer_decay_groups(model, 0.65, 0.05)
            config = TrainConfig(epochs=1, batch_size=batch, base_lr=0.1, label_smoothing=0.1, device=device, amp=True)
            train(model, synthetic(3, batch), config, groups=groups)  # warm-up
            r = timed(lambda: train(model, synthetic(args.steps, batch), config, groups=groups), batch * args.steps, device)
            rows.append({"architecture": arch, "step": f"fine-tuning step (SGD, bf16 autocast, batch {batch})", **r})
            del model
            torch.cuda.empty_cache()
    frame = pd.DataFrame(rows)
    frame.insert(0, "device", torch.cuda.get_device_name())
    frame.insert(1, "torch", torch.__version__)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out, index=False)
    print(frame.round(3).to_string(index=False))


if __name__ == "__main__":
    main()
