import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lib.store import FeatureCache, RunContext, StageCache, Store, run_key

REPO = Path(__file__).resolve().parents[2]


def rows(n: int = 3) -> pd.DataFrame:
    return pd.DataFrame({"item": range(n), "target": [0, 1, 0][:n], "pred_1": [0, 1, 1][:n]})


def test_key_is_stable_and_sensitive_to_every_entry():
    config = {"model": "m", "dataset": "d", "seed": 0, "hparams": {"lr": 0.1}}
    assert run_key(config) == run_key(dict(reversed(list(config.items()))))
    assert run_key(config) != run_key({**config, "seed": 1})
    assert run_key(config) != run_key({**config, "hparams": {"lr": 0.2}})


def test_run_stores_rows_with_provenance_and_skips_existing(tmp_path):
    store = Store(tmp_path, "paper")
    calls = []
    config = {"model": "m", "seed": 0}
    context = RunContext(params_file="p.yaml", params_hash="abc", dtype="float32")
    first = store.run(config, lambda: calls.append(1) or rows(), context)
    second = store.run(config, lambda: calls.append(1) or rows(), context)
    assert calls == [1]
    pd.testing.assert_frame_equal(first, second)
    for column in ("run_key", "config", "params_file", "params_hash", "git_revision", "torch_version",
                   "timm_version", "open_clip_version", "device", "dtype", "duration_s", "model", "seed"):
        assert column in second.columns
    assert second["params_file"].iloc[0] == "p.yaml"


def accuracy_of(frame: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({"seed": [frame["seed"].iloc[0]], "accuracy": [(frame["target"] == frame["pred_1"]).mean()]})


def test_summary_reads_the_runs_once_and_follows_them(tmp_path):
    store = Store(tmp_path, "paper")
    calls = []
    jobs = [({"model": "m", "seed": s}, lambda: calls.append(1) or rows()) for s in (0, 1)]
    first = store.summary(jobs, accuracy_of)
    assert first["seed"].tolist() == [0, 1] and first["accuracy"].tolist() == pytest.approx([2 / 3, 2 / 3])
    for path in store.runs_dir.glob("*.parquet"):
        path.unlink()  # a cached summary is read without the runs
    pd.testing.assert_frame_equal(store.summary(jobs, accuracy_of), first)
    assert calls == [1, 1] and len(list((tmp_path / "paper" / "summaries").glob("*.parquet"))) == 1
    store.summary(jobs[:1], accuracy_of)  # other runs: another summary, the missing run computed again
    assert calls == [1, 1, 1]


def test_failed_compute_leaves_nothing(tmp_path):
    store = Store(tmp_path, "paper")

    def boom() -> pd.DataFrame:
        raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        store.run({"model": "m"}, boom)
    assert store.load().empty
    assert not list(tmp_path.rglob("*.tmp"))


def test_feature_cache_computes_once(tmp_path):
    cache = FeatureCache(tmp_path)
    calls = []

    def compute():
        calls.append(1)
        return np.ones((4, 2), dtype=np.float32), np.arange(4)

    spec = {"model": "m", "weights": "w", "transform": "t", "dataset": "d", "split": "val"}
    a = cache.get(spec, compute)
    b = cache.get(spec, compute)
    assert calls == [1]
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])



class Unexpected:
    """An object a stage file has no business holding."""


def test_stage_cache_computes_once_and_refuses_a_file_holding_an_unexpected_object(tmp_path):
    import pickle

    import torch

    cache, calls = StageCache(tmp_path, "paper"), []
    spec = {"stage": "pretrain ERM", "seed": 0}
    value = {"state": {"w": torch.arange(3.0)}, "valid_accuracy": 0.5, "hyper": (1e-3, 0.0, 0.0)}
    first = cache.get(spec, lambda: calls.append(1) or value)
    second = cache.get(spec, lambda: calls.append(1) or value)
    assert calls == [1] and cache.has(spec) and second["hyper"] == (1e-3, 0.0, 0.0)
    torch.testing.assert_close(first["state"]["w"], second["state"]["w"])
    other = {"stage": "pretrain ERM", "seed": 1}
    torch.save({"state": Unexpected()}, cache.dir / f"{run_key(other)}.pt")
    with pytest.raises(pickle.UnpicklingError, match="Unexpected"):
        cache.get(other, lambda: value)


SWEEP = textwrap.dedent(
    """
    import sys, time
    import pandas as pd
    from lib.store import Store
    store = Store(sys.argv[1], "paper")
    for seed in range(6):
        def compute(seed=seed):
            time.sleep(float(sys.argv[2]))
            return pd.DataFrame({"item": range(50), "seed_copy": seed})
        store.run({"model": "m", "seed": seed}, compute)
    """
)


def test_killed_sweep_resumes_complete_without_duplicates(tmp_path):
    script = tmp_path / "sweep.py"
    script.write_text(SWEEP)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen([sys.executable, str(script), str(tmp_path / "store"), "0.4"], env=env)
    runs = tmp_path / "store" / "paper" / "runs"
    deadline = time.time() + 120
    while len(list(runs.glob("*.parquet"))) < 2 and time.time() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    done_before = len(list(runs.glob("*.parquet")))
    assert 2 <= done_before < 6, "the sweep should have been killed part-way"

    subprocess.run([sys.executable, str(script), str(tmp_path / "store"), "0"], env=env, check=True)
    stored = Store(tmp_path / "store", "paper").load()
    assert sorted(stored["seed"].unique()) == list(range(6))
    assert len(stored) == 6 * 50
    assert not stored.duplicated(["run_key", "item"]).any()
    assert (stored["seed"] == stored["seed_copy"]).all()


SHARED_SWEEP = textwrap.dedent(
    """
    import os, sys, time
    import pandas as pd
    from lib.store import Store
    store, log = Store(sys.argv[1], "paper"), sys.argv[2]
    def compute(seed):
        with open(log, "a") as handle:
            handle.write(f"{os.getpid()} {seed}\\n")
        time.sleep(1.0)
        return pd.DataFrame({"item": range(5), "seed_copy": seed})
    jobs = [({"model": "m", "seed": s}, lambda s=s: compute(s)) for s in range(6)]
    print(" ".join(str(int(rows["seed_copy"].iloc[0])) for rows in store.run_all(jobs)))
    """
)


def test_two_processes_share_a_sweep_and_each_reads_every_run_in_order(tmp_path):
    script, log = tmp_path / "sweep.py", tmp_path / "computed.log"
    script.write_text(SHARED_SWEEP)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    processes = [subprocess.Popen([sys.executable, str(script), str(tmp_path / "store"), str(log)], env=env,
                                  stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=120)[0].strip() for p in processes]
    assert outputs == ["0 1 2 3 4 5"] * 2
    computed = [line.split() for line in log.read_text().splitlines()]
    assert sorted(int(seed) for _, seed in computed) == list(range(6)), "each run computed exactly once"
    assert len({pid for pid, _ in computed}) == 2, "both processes computed some of the runs"


def test_a_run_does_not_depend_on_what_the_process_drew_before(tmp_path):
    import torch

    def compute():
        return pd.DataFrame({"draw": torch.rand(3).tolist()})  # no generator of its own, like LoRA's init

    first = Store(tmp_path / "a", "paper").run({"model": "m"}, compute)
    torch.rand(100)  # the process draws something else in between
    second = Store(tmp_path / "b", "paper").run({"model": "m"}, compute)
    pd.testing.assert_frame_equal(first[["draw"]], second[["draw"]])


def test_compute_missing_computes_only_what_is_absent_and_reads_nothing_back(tmp_path):
    store = Store(tmp_path, "paper")
    calls = []

    def job(seed):
        return {"model": "m", "seed": seed}, lambda: calls.append(seed) or pd.DataFrame({"item": [seed]})

    store.run(*job(0))
    assert store.compute_missing([job(0), job(1), job(2)]) == 2
    assert calls == [0, 1, 2] and all(store.has({"model": "m", "seed": s}) for s in range(3))
    assert store.compute_missing([job(1)]) == 0
