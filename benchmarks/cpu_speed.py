"""How fast this machine computes today, so that timings taken on different days can be compared.

    .venv/bin/python benchmarks/cpu_speed.py      # under a minute

The shared 2-core VMs run the same work at different speeds on different days (up to about twice as slow;
docs/measurements/mini_budget.md). So a timed `make figures` or `make test` is recorded together with this
probe, run just before and just after it with nothing else running.

The probe is a fixed piece of mini-tier work, on the pinned thread count and instruction set (`lib.threads`,
`lib.isa`): ImageNet-RIB's stand-in ViT (`tiny_vit`, 16-px images, batch 64) trained 150 SGD steps on random
images, timed `--repeats` times after one untimed repetition. It prints the final loss (the same work gives the same
loss), the median seconds and the spread.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lib.isa import cpu_class  # noqa: E402  (importing lib first pins the instruction set torch will load with)
from lib.models.standins import build_standin  # noqa: E402
from lib.threads import pinned  # noqa: E402

import torch  # noqa: E402

STEPS = 150
BATCH = 64
IMAGE_SIZE = 16


def train() -> tuple[float, float]:
    """Train the stand-in ViT `STEPS` steps from a fixed seed: (seconds, final loss; the same wherever the
    pinned arithmetic is the same, so two machines' timings are of the same work)."""
    model = build_standin("tiny_vit", num_classes=10, image_size=IMAGE_SIZE, seed=0)
    optimiser = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    generator = torch.Generator().manual_seed(0)
    images = torch.randn(STEPS, BATCH, 3, IMAGE_SIZE, IMAGE_SIZE, generator=generator)
    labels = torch.randint(0, 10, (STEPS, BATCH), generator=generator)
    started = time.perf_counter()
    for batch, target in zip(images, labels):
        loss = torch.nn.functional.cross_entropy(model(batch), target)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    return time.perf_counter() - started, loss.item()


def main(argv: list[str] | None = None) -> tuple[float, float]:
    """Print and return the median seconds of `--repeats` timed trainings and their final loss."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed repetitions (default 5)")
    args = parser.parse_args(argv)
    with pinned() as threads:
        train()  # untimed: first-call allocations and kernel selection
        seconds, losses = zip(*(train() for _ in range(args.repeats)))
    median = statistics.median(seconds)
    print(f"cpu class {cpu_class()}, {threads} thread(s): {STEPS} steps of tiny_vit (final loss {losses[0]:.6f}) in "
          f"{median:.2f} s (median of {args.repeats}; range {min(seconds):.2f}-{max(seconds):.2f} s)")
    return median, losses[0]


if __name__ == "__main__":
    main()
