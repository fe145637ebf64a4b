"""What the benchmark scripts (`benchmarks/`) share: synchronised timing on the device, steps timed inside a
loop that consumes batches (`Clocked`), peak memory, and the report every benchmark prints (a header naming
device, versions, threads, date and command; the rows, also written as CSV)."""

from __future__ import annotations

import resource
import time
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd
import torch


def synchronize(device: str) -> None:
    """Wait for the device's queued work (a no-op on the CPU), so that a clock read after it is honest."""
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def reset_peak_memory(device: str) -> None:
    """Start a new peak for `peak_memory_gib` (CUDA only: the CPU's resident-set peak never goes down)."""
    if device.startswith("cuda"):
        torch.cuda.reset_peak_memory_stats()


def peak_memory_gib(device: str) -> float:
    """The CUDA allocator's peak since the last reset, or on the CPU the process's peak resident set so far."""
    if device.startswith("cuda"):
        return torch.cuda.max_memory_allocated() / 2**30
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux


class Clocked:
    """Batches that note the time each is asked for: between two requests the code ran one step
    (computed a batch and read the next), so the steps are timed inside the consuming loop."""

    def __init__(self, batches: Iterable[Any], device: str) -> None:
        self.batches, self.device, self.times = batches, device, []

    def __len__(self) -> int:
        return len(self.batches)

    def __iter__(self) -> Iterator[Any]:
        iterator = iter(self.batches)
        while True:
            synchronize(self.device)
            self.times.append(time.perf_counter())
            try:
                batch = next(iterator)
            except StopIteration:
                return
            yield batch


def header(device: str, script: str, argv: list[str]) -> str:
    """Device, library versions, threads, date and the command that ran `script`."""
    from .provenance import device_name, library_versions

    versions = ", ".join(f"{name} {version}" for name, version in library_versions().items())
    return (f"device: {device_name(device)}, {torch.get_num_threads()} threads\n{versions}\n"
            f"date: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC\n"
            f"command: python {script} {' '.join(argv)}")


def report(frame: pd.DataFrame, device: str, script: str, argv: list[str], summary: str, out: str | None) -> None:
    """Print the header, the one-line `summary` of what ran and the rows; also write them to the CSV `out`."""
    print(header(device, script, argv))
    print(f"{summary}\n")
    print(frame.to_string(index=False, float_format=lambda v: f"{v:.3g}"))
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        frame.to_csv(out, index=False)
