"""Images per second, peak memory and trained parameters of one training update of each of Seq-to-Final's
18 methods (Table 1's columns), through lib's own code.

    python benchmarks/seq_to_final_steps.py                           # CPU, Conv-1: well under a minute
    python benchmarks/seq_to_final_steps.py --device cuda --architectures Conv-4 Dense-4 Res-4 --batches 5

An update is one step of `lib.train.loop.train` as `lib.seq_to_final.methods.fit` drives it: a batch, the
forward pass, the method's objective and penalties (weight decay, IRM, DRO, EWC's Fisher pulls, the pull of a
side-tuned stem and head to the frozen ones, the joint models' adjacent term), backward and the Adam step.
Each is run by the method's own procedure in `lib.seq_to_final.methods` (`final_only`, `lp_ft_from`,
`all_steps`, `side_tune_from`, `sequential`, `sequential_side_tune`, `joint_model`, `joint_side_tune`) under
the official settings cut to one point of every grid and one epoch, so that each stage of a method is one
fit; nothing of a method is re-implemented here. Updates that are the same computation share a measurement,
and every column is listed with each of its training stages and the update it was timed as (`COLUMNS`):
plain cross-entropy on one model for Oracle, Baseline, ERM, SFT and the ERM pre-training and fine-tuning of
the two-stage methods; LP-FT's probe (the head alone) and its fine-tuning after it; IRM's and DRO's
objectives over one batch of each of the 4 steps (also I-FT's and D-FT's pre-training, which the code runs
on all steps); EWC at the final step, pulled to the 3 earlier steps' weights by their Fishers; ST-1 / ST-B's
side modules beside the frozen base; SST-1 / SST-B's final step of the 4-step sequence, the base and the 2
earlier side sets frozen; JM's 4 models under the adjacent penalty; JST-1 / JST-B's base and 3 side sets.

Inputs are a synthetic 4-step sequence of random images on 0-255 as lib's networks take them (10 classes,
random weights, no download): `1 + --batches` training batches per step and one validation batch per step,
held on the CPU as lib's runs hold them (`train` copies each batch to the device).
Steps are timed inside lib's loop by a global torch optimiser hook that notes the end of every optimiser
step (the device synchronised), so that the time between two ends is one whole update, reading the batch
included (as `lib.bench.Clocked` times a loop from outside its batches); a new optimiser marks a new fit.
The rate is `images_per_step` (the batch size, times 4 where an update reads a batch of every step) over the
median step after the first of `1 + --batches`; everything else a timed fit took is `one_off_s`: the time
from the previous fit's last step (the procedure's start for the first) to its own last step (the
procedure's end for the last), less its steps at the median: set-up, validation at epoch 0 and after the
epoch, the first step and, where the procedure runs it before the fit, EWC's Fisher or SST's new sides.
Peak memory is the CUDA allocator's peak over the steps after the first, or on the CPU the process's peak
resident set so far (it never goes down); `trained_parameters` counts what the fit's optimiser updates.
lib's Seq-to-Final training computes in float32 on every device (`fit` asks for no autocast), on
`Settings.device` (`--device`).
"""

from __future__ import annotations

import argparse
import sys
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
import torch
from torch.optim import Optimizer
from torch.optim.optimizer import register_optimizer_step_post_hook

from lib.bench import peak_memory_gib, report, reset_peak_memory, synchronize
from lib.seq_to_final.methods import (Context, Fitted, SequenceTensors, Settings, all_steps, final_only, joint_model,
                                      joint_side_tune, lp_ft_from, sequential, sequential_side_tune, side_tune_from)
from lib.seq_to_final.tables import ARCHITECTURES, METHODS

N_STEPS = 4  # the synthetic sequences' steps: the source, two intermediate steps and the final one
NUM_CLASSES = 10  # CIFAR-10 (the sss sequence's 20 super-classes change only the head)

CE, PROBE, PROBED = "cross-entropy", "linear probe", "fine-tuning after the probe"
IRM, DRO, EWC = "IRM over the 4 steps", "DRO over the 4 steps", "EWC, 3 Fisher anchors"
ST_1, ST_B = "1-layer sides, base frozen", "block sides, base frozen"
SST_1, SST_B = "1-layer sides, base + 2 sets frozen", "block sides, base + 2 sets frozen"
JM, JST_1, JST_B = "4 models, adjacent penalty", "base + 3 1-layer side sets", "base + 3 block side sets"

# Each column's training stages, in order, and the update each is timed as.
COLUMNS: dict[str, tuple[tuple[str, str], ...]] = {
    "Oracle": (("final step", CE),),
    "Baseline": (("final step", CE),),
    "ERM": (("all steps", CE),),
    "IRM": (("all steps", IRM),),
    "DRO": (("all steps", DRO),),
    "FT": (("pre-training", CE), ("fine-tuning", CE)),
    "LP-FT": (("pre-training", CE), ("probing", PROBE), ("fine-tuning", PROBED)),
    "I-FT": (("pre-training", IRM), ("fine-tuning", CE)),
    "D-FT": (("pre-training", DRO), ("fine-tuning", CE)),
    "ST-1": (("pre-training", CE), ("final step", ST_1)),
    "ST-B": (("pre-training", CE), ("final step", ST_B)),
    "SFT": (("every step", CE),),
    "EWC": (("source", CE), ("later steps", EWC)),
    "SST-1": (("source", CE), ("later steps", SST_1)),
    "SST-B": (("source", CE), ("later steps", SST_B)),
    "JM": (("joint", JM),),
    "JST-1": (("joint", JST_1),),
    "JST-B": (("joint", JST_B),),
}


@dataclass(frozen=True)
class Procedure:
    """A method procedure of lib, the number of fits it runs under one-point grids, the updates of its last
    fits (in order) and how many batches one update reads (`StepBatches`: one of every step)."""

    run: Callable[[Context], Fitted]
    fits: int
    updates: tuple[str, ...]
    batches_per_step: int = 1


PROCEDURES: tuple[Procedure, ...] = (
    Procedure(final_only, 1, (CE,)),
    Procedure(lambda ctx: lp_ft_from(ctx, ctx.new_model()), 2, (PROBE, PROBED)),
    Procedure(all_steps("IRM"), 1, (IRM,), N_STEPS),
    Procedure(all_steps("DRO"), 1, (DRO,), N_STEPS),
    Procedure(lambda ctx: side_tune_from(ctx, ctx.new_model(), "layer"), 1, (ST_1,)),
    Procedure(lambda ctx: side_tune_from(ctx, ctx.new_model(), "block"), 1, (ST_B,)),
    Procedure(sequential("none", ewc=True), N_STEPS, (EWC,)),
    Procedure(sequential_side_tune("layer"), N_STEPS, (SST_1,)),
    Procedure(sequential_side_tune("block"), N_STEPS, (SST_B,)),
    Procedure(joint_model, 1, (JM,), N_STEPS),
    Procedure(joint_side_tune("layer"), 1, (JST_1,), N_STEPS),
    Procedure(joint_side_tune("block"), 1, (JST_B,), N_STEPS),
)


def one_point_settings(batch_size: int, device: str) -> Settings:
    """The official settings with one point per grid (the first lr, weight decay, adjacent and EWC
    coefficient; dropout 0.5, the joint models' fixed value) and one epoch: one fit per stage."""
    full = Settings()
    return replace(full, lrs=full.lrs[:1], weight_decays=full.weight_decays[:1], dropouts=(full.joint.dropout,),
                   adjacent_grid=full.adjacent_grid[:1], ewc_grid=full.ewc_grid[:1], max_epochs=1,
                   batch_size=batch_size, device=device)


def synthetic_sequence(batch_size: int, batches: int, image_size: int) -> SequenceTensors:
    """`N_STEPS` steps of random 0-255 images: `1 + batches` training batches each, one validation batch each
    and a test batch."""
    generator = torch.Generator().manual_seed(0)

    def split(n: int) -> tuple[torch.Tensor, torch.Tensor]:
        return (torch.randint(0, 256, (n, 3, image_size, image_size), generator=generator, dtype=torch.float32),
                torch.randint(0, NUM_CLASSES, (n,), generator=generator))

    train = tuple(split((1 + batches) * batch_size) for _ in range(N_STEPS))
    return SequenceTensors(train, tuple(split(batch_size) for _ in range(N_STEPS)), split(batch_size), NUM_CLASSES)


@dataclass
class Fit:
    """One fit's optimiser steps: the parameters it trains, when each step ended and each step's peak memory."""

    trained: int
    ends: list[float] = field(default_factory=list)
    peaks: list[float] = field(default_factory=list)


class StepClock:
    """While entered, notes the end of every optimiser step (a global torch hook, the device synchronised)
    and the peak memory since the previous one; the steps of a new optimiser start a new `Fit`."""

    def __init__(self, device: str) -> None:
        self.device = device
        self.fits: list[Fit] = []
        self.optimizer: weakref.ref | None = None  # the last step's (a weak reference keeps no optimiser alive)

    def __enter__(self) -> StepClock:
        synchronize(self.device)
        self.start = time.perf_counter()
        self.handle = register_optimizer_step_post_hook(self.note)
        return self

    def __exit__(self, *_exception) -> None:
        self.handle.remove()
        synchronize(self.device)
        self.end = time.perf_counter()

    def note(self, optimizer: Optimizer, _args: tuple, _kwargs: dict) -> None:
        synchronize(self.device)
        now = time.perf_counter()
        if self.optimizer is None or self.optimizer() is not optimizer:
            self.optimizer = weakref.ref(optimizer)
            self.fits.append(Fit(sum(p.numel() for group in optimizer.param_groups for p in group["params"])))
        self.fits[-1].ends.append(now)
        self.fits[-1].peaks.append(peak_memory_gib(self.device))
        reset_peak_memory(self.device)

    def steady(self, images_per_step: int) -> list[dict]:
        """Per fit: images/s at its median step after the first, one-off seconds, peak memory of the steps
        after the first and trained parameters."""
        rows, since = [], self.start
        for index, fit in enumerate(self.fits):
            until = self.end if index == len(self.fits) - 1 else fit.ends[-1]
            step = float(np.median(np.diff(fit.ends)))
            rows.append({"images_per_step": images_per_step, "images_per_s": images_per_step / step,
                         "one_off_s": max(until - since - len(fit.ends) * step, 0.0),
                         "peak_memory_gib": max(fit.peaks[1:]), "trained_parameters": fit.trained})
            since = fit.ends[-1]
        return rows


def measure(procedure: Procedure, ctx: Context) -> dict[str, dict]:
    """The rows of the updates `procedure` times (its last fits), by update."""
    with StepClock(ctx.settings.device) as clock:
        procedure.run(ctx)
    if len(clock.fits) != procedure.fits:
        raise RuntimeError(f"expected {procedure.fits} fits of {procedure.updates}, lib ran {len(clock.fits)}")
    rows = clock.steady(ctx.settings.batch_size * procedure.batches_per_step)
    return dict(zip(procedure.updates, rows[-len(procedure.updates):]))


def benchmark(architectures: list[str], columns: list[str], device: str, batch_size: int, batches: int,
              image_size: int) -> pd.DataFrame:
    """One row per architecture, column and training stage, with the update it was timed as."""
    data = synthetic_sequence(batch_size, batches, image_size)
    settings = one_point_settings(batch_size, device)
    wanted = {update for column in columns for _, update in COLUMNS[column]}
    rows = []
    for architecture in architectures:
        ctx = Context(data, architecture, settings, 0, image_size)
        final_only(ctx)  # warm-up: allocator, kernels
        measured: dict[str, dict] = {}
        for procedure in PROCEDURES:
            if wanted & set(procedure.updates):
                measured.update(measure(procedure, ctx))
        rows += [{"architecture": architecture, "column": column, "stage": stage, "update": update, **measured[update]}
                 for column in columns for stage, update in COLUMNS[column]]
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> pd.DataFrame:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")
    parser.add_argument("--architectures", nargs="+", choices=ARCHITECTURES, default=["Conv-1"], metavar="NAME",
                        help="Table 7's names, Conv-1 ... Res-4 (default Conv-1)")
    parser.add_argument("--methods", nargs="+", choices=METHODS, default=list(METHODS), metavar="COLUMN",
                        help="Table 1's columns (default: all 18)")
    parser.add_argument("--batch-size", type=int, default=100)
    parser.add_argument("--batches", type=int, default=2, help="timed batches per fit, after one untimed")
    parser.add_argument("--image-size", type=int, default=32)
    parser.add_argument("--out", help="also write the rows to this CSV file")
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    if args.batches < 1:
        parser.error("--batches must be at least 1")
    frame = benchmark(args.architectures, args.methods, args.device, args.batch_size, args.batches, args.image_size)
    report(frame, args.device, "benchmarks/seq_to_final_steps.py", argv,
           f"{N_STEPS}-step synthetic sequence at {args.image_size} px (random weights, float32), "
           f"batch {args.batch_size}, {args.batches} timed steps per fit after one untimed", args.out)
    return frame


if __name__ == "__main__":
    main()
