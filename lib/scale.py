"""Every grid of runs sent to a Slurm cluster, or to processes on this machine, through submitit.

A grid is anything with a results `store`, a run `context` and `jobs()`: its `(config, compute)`
pairs, one per store key (an ImageNet-RIB `Benchmark`, the SSL `Study`). `run_on_executor` is given
a picklable function that builds the grids (a module-level function or a `functools.partial` of
one); it builds them here first (so bad params or missing data stop the run before anything is
sent), finds the keys not yet in the store, and sends one job per key, or per bundle of
`keys_per_job` keys. Each job builds the grids again on its node and computes those of its keys
that are still missing, through `Store.run` (atomic, one process per key), so:

- a re-run of the same command skips every key already stored;
- a job that is preempted, requeued or killed half-way resumes from the store: its finished keys
  are skipped, the key it was computing is computed again (the store never holds half a run);
- the results are gathered by reading the store, as an in-process run would.

On Slurm, a job is requeued by submitit when it is preempted or reaches its time limit (a
`checkpoint` that resubmits the same keys). A post-hoc method's run (WiSE-FT) trains the weights it
combines itself when their own job has not written them yet: the same weights, at worst computed
twice. The store must sit on a file system every node sees, with working file locks.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the CLI imports this module to build its parser: no pandas or torch at import
    from .store import RunContext, Store

log = logging.getLogger(__name__)

EXECUTORS = ("local", "slurm")

Job = tuple[dict[str, Any], Callable[[], Any]]  # (config, compute): compute() gives the run's per-item rows


class Grid(Protocol):
    """A set of runs through the results store (ImageNet-RIB's Benchmark, the SSL Study)."""

    store: Store
    context: RunContext

    def jobs(self) -> list[Job]: ...


GridFactory = Callable[[], Sequence[Grid]]


class JobsFailedError(RuntimeError):
    """Some cluster jobs failed; what they computed is stored, the rest is computed by a re-run."""


@dataclass(frozen=True)
class ExecutorSettings:
    """Where the jobs run and what each asks for (`slurm` fields are ignored by `local`)."""

    executor: str  # one of EXECUTORS
    folder: Path  # submitit's job scripts, pickles and logs
    keys_per_job: int = 1
    timeout_min: int = 240
    partition: str = ""
    gpus_per_job: int = 0
    cpus_per_job: int = 1
    mem_gb: int = 0  # 0: the partition's default
    max_parallel: int = 0  # Slurm array parallelism; 0: no limit

    def executor_for(self) -> Any:
        """A submitit executor with these settings."""
        import submitit

        executor = submitit.AutoExecutor(folder=self.folder, cluster=self.executor)
        executor.update_parameters(timeout_min=self.timeout_min, gpus_per_node=self.gpus_per_job,
                                   cpus_per_task=self.cpus_per_job, name="robustness")
        if self.executor == "slurm":
            extra = {"slurm_partition": self.partition, "mem_gb": self.mem_gb,
                     "slurm_array_parallelism": self.max_parallel}
            executor.update_parameters(**{k: v for k, v in extra.items() if v})
        return executor


def add_executor_arguments(parser: argparse.ArgumentParser) -> None:
    """The `--executor` options of a command that runs a grid."""
    group = parser.add_argument_group("executor", "send the missing runs as jobs (default: run them in this process)")
    group.add_argument("--executor", choices=EXECUTORS,
                       help="slurm: one Slurm job per store key; local: one process per job on this machine")
    group.add_argument("--keys-per-job", type=_positive, default=1, help="bundle this many small runs into one job (default 1)")
    group.add_argument("--jobs-folder", help="submitit's scripts and logs (default <results>/jobs)")
    group.add_argument("--timeout-min", type=int, default=240, help="each job's time limit; it is requeued after (default 240)")
    group.add_argument("--partition", default="", help="Slurm partition")
    group.add_argument("--gpus-per-job", type=int, default=0)
    group.add_argument("--cpus-per-job", type=int, default=1)
    group.add_argument("--mem-gb", type=int, default=0, help="memory per job (default: the partition's)")
    group.add_argument("--max-parallel", type=int, default=0, help="at most this many jobs at once on Slurm (default: no limit)")


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return int(text)


def executor_settings(args: argparse.Namespace) -> ExecutorSettings:
    """The settings given by `add_executor_arguments`' options."""
    return ExecutorSettings(args.executor, Path(args.jobs_folder or Path(args.results) / "jobs"), args.keys_per_job,
                            args.timeout_min, args.partition, args.gpus_per_job, args.cpus_per_job, args.mem_gb,
                            args.max_parallel)


def missing_keys(grids: Sequence[Grid]) -> list[str]:
    """The store keys of the grids' runs not stored yet, in the jobs' order, each once."""
    from .store import run_key

    keys: dict[str, None] = {}
    for grid in grids:
        for config, _ in grid.jobs():
            if not grid.store.has(config):
                keys[run_key(config)] = None
    return list(keys)


class ComputeKeys:
    """One job: build the grids on this node and compute those of `keys` still missing from the store.

    It holds no state but the keys: on preemption or timeout submitit resubmits it as it is
    (`checkpoint`), and the store tells the new run what is left."""

    def __init__(self, grids: GridFactory, keys: Sequence[str]) -> None:
        self.grids, self.keys = grids, list(keys)

    def __call__(self) -> list[str]:
        """The keys this job computed (those already stored are skipped)."""
        from .store import run_key

        runs = {run_key(config): (grid, config, compute) for grid in self.grids() for config, compute in grid.jobs()}
        unknown = [key for key in self.keys if key not in runs]
        if unknown:
            raise KeyError(f"{len(unknown)} of this job's runs (e.g. {unknown[0]}) are not among the runs the grids give on "
                           f"this node: the params files or the library versions differ from the submitting machine's")
        computed = []
        for key in self.keys:
            grid, config, compute = runs[key]
            if not grid.store.has(config):
                grid.store.run(config, compute, grid.context)
                computed.append(key)
        return computed

    def checkpoint(self) -> Any:
        """Requeue the same keys (submitit calls this on preemption and timeout)."""
        from submitit.helpers import DelayedSubmission

        return DelayedSubmission(self)


def submit_missing(grids: GridFactory, settings: ExecutorSettings) -> list[Any]:
    """Send one job per bundle of missing keys (none when all are stored); the submitit jobs."""
    keys = missing_keys(grids())
    bundles = [keys[i:i + settings.keys_per_job] for i in range(0, len(keys), settings.keys_per_job)]
    if not bundles:
        log.info("every run is stored: no job to send")
        return []
    executor = settings.executor_for()
    with executor.batch():
        jobs = [executor.submit(ComputeKeys(grids, bundle)) for bundle in bundles]
    log.info("sent %d runs as %d %s jobs (logs: %s)", len(keys), len(jobs), settings.executor, settings.folder)
    return jobs


def gather(jobs: Sequence[Any]) -> list[str]:
    """Wait for every job; the keys they computed. Raises JobsFailedError naming the failed jobs' logs."""
    computed, failed = [], []
    for job in jobs:
        try:
            computed += job.result()
        except Exception as error:  # a job's failure, re-raised by submitit with its traceback
            failed.append(f"{job.job_id} ({type(error).__name__}; log {job.paths.stderr})")
    if failed:
        raise JobsFailedError(f"{len(failed)} of {len(jobs)} jobs failed: {', '.join(failed)}. Their finished runs are "
                              f"stored; run the same command again to compute the rest.")
    return computed


def run_on_executor(grids: GridFactory, settings: ExecutorSettings) -> list[str]:
    """Send the missing runs of `grids()` as jobs, wait for them, and return the keys they computed."""
    return gather(submit_missing(grids, settings))
