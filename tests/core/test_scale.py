"""Grids of runs sent as submitit jobs (lib/scale.py): each missing store key once, resumed from the store."""

from __future__ import annotations

import functools
import signal
import sys
import time
from pathlib import Path

import cloudpickle
import pandas as pd
import pytest

from lib import scale
from lib.cli import experiment_benchmarks, main
from lib.store import run_key

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the job processes cannot import this test module

EXPERIMENTS = """\
benchmark: params/tiny/imagenet_rib/benchmark.yaml
experiments:
  small:
    artefacts: []
    description: the tiny benchmark's pretrained model and FT on one domain (two runs)
    overrides: {regimes: [clean], methods: [FT], suite: [digits_inverted], class_subsets: {}, pretrain.epochs: 1}
    sweep: {}
"""


class Paused:
    """A grid whose runs after the first wait while the file `pause` exists (a job to kill half-way)."""

    def __init__(self, grid, pause: Path) -> None:
        self.grid, self.pause = grid, pause
        self.store, self.context = grid.store, grid.context

    def jobs(self):
        def held(compute):
            while self.pause.exists():
                time.sleep(0.05)
            return compute()

        jobs = self.grid.jobs()
        return jobs[:1] + [(config, functools.partial(held, compute)) for config, compute in jobs[1:]]


def paused_benchmarks(path: str, results: str, pause: Path) -> list[Paused]:
    return [Paused(grid, pause) for grid in experiment_benchmarks(path, "small", results)]


@pytest.fixture
def cancellable_jobs():
    """SIGINT at its default in the processes the test starts: a shell's background job (`make test &`) ignores
    SIGINT, its children inherit that, and the local executor cancels a job with SIGINT."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_a_job_killed_half_way_is_resumed_from_the_store_by_a_rerun(tmp_path, cancellable_jobs):
    (tmp_path / "experiments.yaml").write_text(EXPERIMENTS)
    results, pause = str(tmp_path / "results"), tmp_path / "pause"
    grids = functools.partial(paused_benchmarks, str(tmp_path / "experiments.yaml"), results, pause)
    settings = scale.ExecutorSettings("local", tmp_path / "jobs", keys_per_job=2, timeout_min=5)
    in_process = scale.ExecutorSettings("debug", tmp_path / "jobs", keys_per_job=2)  # the same job, run here
    keys = scale.missing_keys(grids())
    assert len(keys) == 2

    pause.touch()
    [job] = scale.submit_missing(grids, settings)  # both keys in one job
    stored = Path(results) / "imagenet_rib" / "runs" / f"{keys[0]}.parquet"
    while not stored.is_file():
        assert job.state not in ("FINISHED", "FAILED"), job.stderr()
        time.sleep(0.1)
    job.cancel()  # killed while it waits to compute the second key
    while not job.done():
        time.sleep(0.1)
    assert scale.missing_keys(grids()) == keys[1:]
    first_written = stored.stat().st_mtime_ns

    pause.unlink()
    assert scale.run_on_executor(grids, in_process) == keys[1:]  # only the missing key is computed
    assert stored.stat().st_mtime_ns == first_written
    assert scale.run_on_executor(grids, settings) == []  # nothing left: no job is sent

    [benchmark] = experiment_benchmarks(str(tmp_path / "experiments.yaml"), "small", results)
    gathered = benchmark.store.load()  # the results, gathered from the store
    assert set(gathered["run_key"]) == set(keys)
    assert len(benchmark.run_accuracies()) == 4  # 2 runs x 2 evaluation sets, read back without compute


def test_a_requeued_job_resubmits_the_same_keys():
    job = scale.ComputeKeys(functools.partial(experiment_benchmarks, "x", "y", "z"), ["a", "b"])
    resubmitted = job.checkpoint()
    assert resubmitted.function is job and job.keys == ["a", "b"]


def test_keys_built_on_another_environment_fail_with_one_line(tmp_path):
    (tmp_path / "experiments.yaml").write_text(EXPERIMENTS)
    job = scale.ComputeKeys(functools.partial(experiment_benchmarks, str(tmp_path / "experiments.yaml"), "small",
                                              str(tmp_path / "results")), [run_key({"other": 1})])
    with pytest.raises(KeyError, match="library versions differ"):
        job()


def test_the_experiment_command_sends_its_benchmarks_to_the_executor(monkeypatch, tmp_path, capsys):
    sent = {}

    def fake_run(grids, settings):
        sent.update(grids=grids, settings=settings)
        return ["k"]

    monkeypatch.setattr(scale, "run_on_executor", fake_run)
    monkeypatch.setattr("lib.imagenet_rib.experiments.run_experiment", lambda *a: pd.DataFrame({"accuracy": [1.0]}))
    assert main(["experiment", "--tier", "tiny", "--name", "main", "--results", str(tmp_path), "--executor", "slurm",
                 "--keys-per-job", "3", "--partition", "gpu", "--gpus-per-job", "1"]) == 0
    assert "1 runs computed by slurm jobs" in capsys.readouterr().out
    assert sent["grids"].func is experiment_benchmarks
    assert sent["grids"].args == ("params/tiny/imagenet_rib/experiments.yaml", "main", str(tmp_path))
    assert sent["settings"] == scale.ExecutorSettings("slurm", tmp_path / "jobs", 3, 240, "gpu", 1, 1, 0, 0)


def test_the_slurm_settings_become_the_sbatch_script(monkeypatch, tmp_path):
    """Without a cluster: the script submitit would send (partition, resources, time, requeue signal)."""
    from submitit.slurm.slurm import SlurmExecutor

    monkeypatch.setattr(SlurmExecutor, "affinity", classmethod(lambda cls: 1))  # pretend srun is there
    settings = scale.ExecutorSettings("slurm", tmp_path, 1, 120, "gpu", 1, 8, 64, 4)
    script = settings.executor_for()._executor._make_submission_file_text("python job.py", "uid")
    for line in ("--partition=gpu", "--gpus-per-node=1", "--cpus-per-task=8", "--mem=64GB", "--time=120", "--signal=USR2@"):
        assert f"#SBATCH {line}" in script
