"""Every ImageNet-RIB fine-tuning method on a full-size architecture (random init, synthetic images).

    python scripts/gpu_finetune_methods.py --out docs/measurements/imagenet_rib_methods.csv

Runs each trained method of the paper (`lib.imagenet_rib.methods`, dispatched by `lib.finetune.methods`) (FT, Linear Probing, LP-FT, Visual Prompt,
LoRA, EWC with a Fisher from 64 images, the released L2 pull, LwF) on timm's ViT-B/16 (1000
classes, 224 px, random init) through `lib.train.loop.train` with the paper's recipe (SGD, lr
0.001, momentum 0.9, cosine, batch 64; Visual Prompt lr 40) in bf16 autocast, then the post-hoc
WiSE-FT and uniform soup, then evaluation. Records images per second and peak GPU memory per
method. A 200-class logit mask (ImageNet-R's case) is applied throughout. Needs a CUDA device.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd
import timm
import torch

from lib.finetune.methods import MethodSettings, fisher_from, masked, post_hoc, train_method
from lib.imagenet_rib.methods import METHODS, POST_HOC, TRAINED
from lib.train.config import TrainConfig
from lib.train.loop import predict_logits

SETTINGS = MethodSettings(prompt_lr=40.0, prompt_pad=30, lora_rank=8, lora_alpha=1.0, ewc_coefficient=1.0,
                          ewc_fisher_labels="sampled", ewc_fisher_images=64, l2_coefficient=1.0, lwf_temperature=2.0,
                          lwf_weight=1.0, wise_alpha_convention="imagenet_rib",
                          lp_epochs=1, wise_alpha=0.5)


def synthetic(steps: int, batch: int, mask: torch.Tensor) -> list[tuple[torch.Tensor, torch.Tensor]]:
    g = torch.Generator().manual_seed(0)
    classes = mask.nonzero().squeeze(1)
    x = torch.randn(batch, 3, 224, 224, generator=g)
    y = classes[torch.randint(0, len(classes), (batch,), generator=g)]
    return [(x, y)] * steps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    mask = torch.zeros(1000, dtype=torch.bool)
    mask[::5] = True  # 200 classes
    pretrained = timm.create_model("vit_base_patch16_224", pretrained=False, num_classes=1000).eval()
    batches = synthetic(args.steps, 64, mask)
    config = TrainConfig(epochs=1, batch_size=64, base_lr=0.001, reference_batch=64, device="cuda", amp=True)
    fisher = synthetic(1, 64, mask)
    rows, weights = [], {}
    train_method("FT", pretrained, batches[:3], config, SETTINGS, mask)  # warm-up: CUDA context, kernels
    for method in TRAINED:
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        start = time.perf_counter()
        model = train_method(method, pretrained, batches, config, SETTINGS, mask,
                             fisher=fisher_from(fisher, SETTINGS, config))
        torch.cuda.synchronize()
        seconds = time.perf_counter() - start
        images = 64 * args.steps * (2 if method == "LP-FT" else 1)
        rows.append({"method": method, "phase": "fine-tuning", "seconds": seconds, "images_per_s": images / seconds,
                     "peak_memory_gib": torch.cuda.max_memory_allocated() / 2**30,
                     "note": "includes the Fisher over 64 images" if method == "EWC" else ""})
        if method in ("FT", "EWC", "LwF"):
            weights[method] = {k: v.detach().cpu() for k, v in model.state_dict().items()}
        del model
        torch.cuda.empty_cache()
    for method in POST_HOC:
        start = time.perf_counter()
        model = post_hoc(METHODS[method], pretrained, weights, SETTINGS)
        rows.append({"method": method, "phase": "weight averaging (CPU)", "seconds": time.perf_counter() - start,
                     "images_per_s": float("nan"), "peak_memory_gib": float("nan"), "note": ""})
    torch.cuda.reset_peak_memory_stats()
    start = time.perf_counter()
    logits, targets = predict_logits(model, synthetic(args.steps, 256, mask), "cuda", amp=True)
    torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    accuracy = (masked(logits, mask).argmax(1) == targets).float().mean().item()
    rows.append({"method": "evaluation (masked argmax)", "phase": "inference, batch 256", "seconds": seconds,
                 "images_per_s": 256 * args.steps / seconds, "peak_memory_gib": torch.cuda.max_memory_allocated() / 2**30,
                 "note": f"accuracy on random labels {accuracy:.3f} (chance 0.005)"})
    frame = pd.DataFrame(rows)
    frame.insert(0, "device", torch.cuda.get_device_name())
    frame.insert(1, "torch", torch.__version__)
    frame.insert(2, "architecture", "vit_base_patch16_224 (random init)")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out, index=False)
    print(frame.round(3).to_string(index=False))


if __name__ == "__main__":
    main()
