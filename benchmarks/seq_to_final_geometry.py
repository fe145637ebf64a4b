"""seq_to_final's analysis runs (Figs 1, 9-17) on a device: every run of a geometry settings file computed by
lib's own jobs (`lib.seq_to_final.geometry.GeometryStudy`) with the protocol's device set to `--device`, each
timed, and its numbers checked.

    python benchmarks/seq_to_final_geometry.py                      # CPU: the tiny tier's CLR and RCL runs, seconds
    python benchmarks/seq_to_final_geometry.py --device cuda

What it checks: the full tier trains, interpolates and projects on the GPU (`protocol: {device: cuda}` in
`params/full/seq_to_final/geometry.yaml`). Every code path of an analysis run must then keep its tensors on the
model's device: training (`methods.fit`), the interpolation paths' accuracy and their BatchNorm re-estimation
(`interpolation_paths`), the weight projections and the SVCCA activations (`model_geometry`). A tensor left on
the wrong device stops the script with its traceback. A run that finishes is checked: every path accuracy lies
in [0, 1], and every projection and SVCCA coordinate is finite.

The settings file (`--params`, default the tiny tier's: digits at 8 px, Conv-1, seconds on a CPU) is read as the
study reads it. `--sequences` keeps those path runs (default CLR, the geometry run with projections and SVCCA, and
RCL); Fig. 9's regularisation run always runs; `--seeds` keeps the first N seeds (default 1). Nothing is stored.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time

import numpy as np
import pandas as pd

from lib.bench import peak_memory_gib, report, reset_peak_memory, synchronize
from lib.seq_to_final.geometry import GeometryStudy, load_checked


def checked(frame: pd.DataFrame) -> str:
    """"ok", or what is wrong with one run's frame."""
    paths = frame[frame["analysis"] == "path"]["accuracy"]
    if not paths.between(0, 1).all():
        return f"path accuracy outside [0, 1]: {paths[~paths.between(0, 1)].tolist()[:3]}"
    coordinates = frame[frame["analysis"].isin(["projection", "svcca"])][["x", "y"]].to_numpy(float)
    if not np.isfinite(coordinates).all():
        return "a projection or SVCCA coordinate is not finite"
    return "ok"


def benchmark(params: str, device: str, sequences: list[str], seeds: int) -> pd.DataFrame:
    """One row per run: its labels, seconds, peak memory, row count and check."""
    settings = load_checked(params)
    settings = dataclasses.replace(
        settings, protocol={**settings.protocol, "device": device}, seeds=settings.seeds[:seeds],
        path_runs={name: archs for name, archs in settings.path_runs.items() if name in sequences})
    with tempfile.TemporaryDirectory() as unused_store:
        jobs = GeometryStudy(settings, unused_store).jobs()
    rows = []
    for config, compute in jobs:
        reset_peak_memory(device)
        synchronize(device)
        start = time.perf_counter()
        frame = compute()
        synchronize(device)
        rows.append({"analysis": config["analysis"], "sequence": config["sequence"],
                     "architecture": config["architecture"], "seed": config["seed"],
                     "geometry": bool(config.get("geometry", False)), "seconds": time.perf_counter() - start,
                     "peak_memory_gib": peak_memory_gib(device), "rows": len(frame), "check": checked(frame)})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> pd.DataFrame:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--params", default="params/tiny/seq_to_final/geometry.yaml",
                        help="a geometry settings file (default: the tiny tier's)")
    parser.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")
    parser.add_argument("--sequences", nargs="+", default=["CLR", "RCL"], help="the path runs to keep")
    parser.add_argument("--seeds", type=int, default=1, help="the first N seeds of the settings (default 1)")
    parser.add_argument("--out", help="also write the rows to this CSV")
    args = parser.parse_args(argv)
    frame = benchmark(args.params, args.device, args.sequences, args.seeds)
    failed = int((frame["check"] != "ok").sum())
    summary = (f"{len(frame)} analysis runs of {args.params} on {args.device} in {frame['seconds'].sum():.1f} s; "
               f"{failed} failed their check")
    report(frame, args.device, "benchmarks/seq_to_final_geometry.py", argv, summary, args.out)
    return frame


if __name__ == "__main__":
    sys.exit(int((main()["check"] != "ok").any()))
