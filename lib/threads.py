"""Thread count of every computation: pinned, so a result does not depend on the machine's cores.

Floating-point reductions split over a different number of threads add up in a different order,
and on the small tiers that is enough to reorder close results. So every cached computation runs
with a fixed number of threads (`ROBUSTNESS_THREADS`, default 1) and records it with the run;
parallelism comes from processes (the notebook runner and the test suite run one kernel per core).
Worker processes also get the pinned instruction set (`lib.isa`), and `pinned()` checks it is in force.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from . import isa

THREADS_ENV = "ROBUSTNESS_THREADS"
# The variables the numerics libraries read when they start (OpenMP, MKL, OpenBLAS).
_LIBRARY_ENV = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def run_threads() -> int:
    """The thread count of a computation: `$ROBUSTNESS_THREADS`, else 1."""
    value = os.environ.get(THREADS_ENV, "1")
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{THREADS_ENV}={value!r}: set it to a whole number of threads, at least 1")
    return int(value)


def kernel_environment(threads: int | None = None) -> dict[str, str]:
    """Environment variables that start a worker process (a notebook kernel) on `threads` threads
    (default: the pinned count) and the pinned instruction set (`lib.isa`)."""
    count = str(threads or run_threads())
    return {THREADS_ENV: count, **{name: count for name in _LIBRARY_ENV}, **isa.pins()}


@contextmanager
def pinned() -> Iterator[int]:
    """Run the body on `run_threads()` threads (torch and the BLAS pools), after checking that the
    libraries run the pinned instruction set (`lib.isa.check`); restore the thread count afterwards."""
    import torch
    from threadpoolctl import threadpool_limits

    isa.check()
    threads = run_threads()
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        with threadpool_limits(limits=threads):
            yield threads
    finally:
        torch.set_num_threads(before)
