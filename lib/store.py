"""The results store: one parquet file per run, keyed by a hash of the run's full configuration.

Runs store per-item outputs (targets, predictions, logits), never only a summary, so a metric can
be recomputed without a forward pass. Each file is written to a temporary name and renamed into
place, so a killed run leaves no half-written result; re-running the same sweep skips every key
that is already stored and completes the rest. Two processes asking for the same run at once
compute it once (`lib.atomic.load_or_make`), on the pinned thread count (`lib.threads`), and a run's
result depends on the run alone, never on the order a process computed runs in (the global random
state is seeded from the run's key).

Layout under the results root:

    <root>/<paper>/runs/<key>.parquet     per-item rows + config + provenance columns
    <root>/<paper>/summaries/<key>.parquet   a summary of a set of runs (`Store.summary`)
    <root>/<paper>/stages/<key>.pt        a trained model several runs start from (see StageCache)
    <root>/features/<key>.npz             the feature cache (see FeatureCache)
"""

from __future__ import annotations

import inspect
import logging
import sys
import time
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from . import isa
from .atomic import load_or_make
from .paths import resolve
from .progress import progress
from .provenance import canonical_json, config_hash, device_name, git_revision, library_versions
from .threads import run_threads

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunContext:
    """Where a run came from and what it ran on; recorded on every row, not part of the key."""

    params_file: str = ""
    params_hash: str = ""
    device: str = "cpu"
    dtype: str = "float32"

    @classmethod
    def from_params(cls, params_file: str, params: dict[str, Any], device: str = "cpu", dtype: str = "float32") -> "RunContext":
        """A context for a notebook run: the params file and the hash of its validated values."""
        return cls(params_file=params_file, params_hash=config_hash(params), device=device, dtype=dtype)


# The layout of stored rows; part of every key, so rows written in an older layout are never read as
# this one. 2: the prediction frame of `lib.evaluate.frames` (1 had imagenet_rib's `prediction`).
ROWS_FORMAT = 2


def run_key(config: dict[str, Any]) -> str:
    """The store key of a run: a hash of its configuration, the numerics libraries' versions and the
    rows' format."""
    return config_hash({"config": config, "libraries": library_versions(), "format": ROWS_FORMAT})


class Store:
    """Parquet results of one paper's runs under `<root>/<paper>/runs/`."""

    def __init__(self, root: str | Path, paper: str) -> None:
        self.root = resolve(root)
        self.paper = paper
        self.runs_dir = self.root / paper / "runs"

    def path(self, key: str) -> Path:
        return self.runs_dir / f"{key}.parquet"

    def has(self, config: dict[str, Any]) -> bool:
        return self.path(run_key(config)).is_file()

    def run(
        self,
        config: dict[str, Any],
        compute: Callable[[], pd.DataFrame],
        context: RunContext = RunContext(),
        wait: bool = True,
    ) -> pd.DataFrame | None:
        """Return the stored rows of `config`, computing and storing them first if absent.

        `compute()` returns the run's per-item rows; the store adds the key, the configuration
        (scalar entries as columns, the whole as canonical JSON) and provenance columns. With
        `wait=False`, a run another process is computing gives None at once.
        """
        key = run_key(config)

        def make() -> pd.DataFrame:
            started = time.perf_counter()
            with _random_state_of(key):
                rows = compute()
            rows = self._with_provenance(rows, key, config, context, time.perf_counter() - started)
            log.info("wrote %s: %d rows in %.1fs (%s)", key, len(rows), rows["duration_s"].iloc[0], _describe(config))
            return rows

        def load(path: Path) -> pd.DataFrame:
            log.info("skip %s: already stored (%s)", key, _describe(config))
            return pd.read_parquet(path)

        return load_or_make(self.path(key), load, make, lambda rows, tmp: rows.to_parquet(tmp, index=False), wait)

    def run_all(self, jobs: Sequence[tuple[dict[str, Any], Callable[[], pd.DataFrame]]],
                context: RunContext = RunContext()) -> Iterator[pd.DataFrame]:
        """The rows of each `(config, compute)` job, in the jobs' order, one run in memory at a time.

        First every missing run that no other process is computing is computed (so two processes
        running the same sweep share its runs instead of queueing behind one another); then each
        run is read back in order, waiting for those another process is still computing.
        """
        self.compute_missing(jobs, context)
        for config, compute in jobs:
            yield self.run(config, compute, context)

    def compute_missing(self, jobs: Sequence[tuple[dict[str, Any], Callable[[], pd.DataFrame]]],
                        context: RunContext = RunContext(), label: str | None = None) -> int:
        """Compute every missing run of `jobs` that no other process is computing (none is read back);
        return how many this process computed. A progress bar (`label`, the paper by default) counts
        the jobs gone through: stored already, computed here, or left to the process computing them."""
        computed = 0
        for config, compute in progress(jobs, desc=label or f"{self.paper} runs", unit="run"):
            if not self.has(config):
                computed += self.run(config, compute, context, wait=False) is not None
        return computed

    def summary(self, jobs: Sequence[tuple[dict[str, Any], Callable[[], pd.DataFrame]]],
                summarise: Callable[[pd.DataFrame], pd.DataFrame], context: RunContext = RunContext()) -> pd.DataFrame:
        """`summarise(rows)` of every job's run (computed first where missing), concatenated in the
        jobs' order and cached as one file under `<root>/<paper>/summaries/`, keyed by the runs' keys
        and the source of the module defining `summarise`: every notebook reading the same runs then
        reads one small file instead of every run's per-item rows."""
        key = config_hash({"runs": [run_key(config) for config, _ in jobs], "summarise": summarise.__qualname__,
                           "source": inspect.getsource(sys.modules[summarise.__module__])})

        def make() -> pd.DataFrame:
            return pd.concat([summarise(rows) for rows in self.run_all(jobs, context)], ignore_index=True)

        return load_or_make(self.root / self.paper / "summaries" / f"{key}.parquet", pd.read_parquet, make,
                            lambda frame, tmp: frame.to_parquet(tmp, index=False))

    @staticmethod
    def _with_provenance(
        rows: pd.DataFrame, key: str, config: dict[str, Any], context: RunContext, duration: float
    ) -> pd.DataFrame:
        rows = rows.copy()
        for name, value in config.items():
            if np.isscalar(value) and name not in rows.columns:
                rows[name] = value
        versions = library_versions()
        provenance = {
            "run_key": key,
            "config": canonical_json(config),
            "params_file": context.params_file,
            "params_hash": context.params_hash,
            "git_revision": git_revision(),
            "torch_version": versions["torch"],
            "timm_version": versions["timm"],
            "open_clip_version": versions["open_clip"],
            "device": device_name(context.device),
            "dtype": context.dtype,
            "duration_s": duration,
            "threads": run_threads(),
            "kernels": ", ".join(f"{name} {kind}" for name, kind in isa.in_force().items()),
        }
        for name, value in provenance.items():
            rows[name] = value
        return rows

    def load(self) -> pd.DataFrame:
        """All stored rows of this paper (empty frame if none). Temporary files are never read."""
        files = sorted(self.runs_dir.glob("*.parquet"))
        if not files:
            return pd.DataFrame()
        return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)


Job = tuple[dict[str, Any], Callable[[], pd.DataFrame]]


class StoredRuns:
    """A benchmark or study whose runs live in a `Store`: a subclass names its `paper` (the store's folder) and
    gives `jobs()`, the `(config, compute)` of every run (missing inputs stop there); the constructor keeps the
    settings and opens the paper's store under `results_root`."""

    paper: str
    store: Store
    context: RunContext

    def __init__(self, settings: Any, results_root: str | Path, context: RunContext = RunContext()) -> None:
        self.settings, self.context = settings, context
        self.store = Store(results_root, self.paper)

    def jobs(self) -> list[Job]:
        raise NotImplementedError

    def run(self) -> pd.DataFrame:
        """Every run's per-item rows, computed (and stored) or read back."""
        return pd.concat(list(self.store.run_all(self.jobs(), self.context)), ignore_index=True)

    def summary(self, summarise: Callable[[pd.DataFrame], pd.DataFrame]) -> pd.DataFrame:
        """`summarise` of every run, one run in memory at a time, kept as the store's summary of these runs."""
        return self.store.summary(self.jobs(), summarise, self.context)

    def precompute(self, label: str | None = None) -> int:
        """Compute the runs no other process is computing, read nothing back; how many were computed here
        (`label`: the progress bar's, the paper by default)."""
        return self.store.compute_missing(self.jobs(), self.context, label)



def weights_checked(store: Store, jobs: list[Job], weights_needed: Callable[[dict[str, Any]], Collection[str]]) -> list[Job]:
    """`jobs`, once the pretrained weights of every model that a run still to compute loads (`weights_needed`:
    a run's config -> its model-registry keys) are on this machine: the missing ones stop a study here, before
    any compute, in one WeightsMissingError listing them all."""
    todo = [config for config, _ in jobs if weights_needed(config) and not store.has(config)]
    if todo:
        from .models.weight_files import require_weights

        require_weights(key for config in todo for key in weights_needed(config))
    return jobs


def precompute_study(load: Callable[[str], Any], study: Callable[[Any, Path, RunContext], StoredRuns],
                     params: Mapping[str, Any], artefacts: Collection[str], reads: Collection[str]) -> int:
    """A paper's `precompute` for a study whose settings file is `params["study_params"]`: compute its
    runs into `params["results_dir"]` if a notebook of `artefacts` is among those that `reads` them; how
    many were computed by this process."""
    if not set(artefacts) & set(reads):
        return 0
    settings = load(params["study_params"])
    context = RunContext(params_file=params["study_params"], device=settings.device)
    return study(settings, Path(params["results_dir"]), context).precompute()

@contextmanager
def _random_state_of(key: str) -> Iterator[None]:
    """Torch's global random state seeded from the run's key while the run computes (and restored
    after), so whatever a run draws without its own generator (e.g. LoRA's initialisation) depends
    on the run alone, not on which runs the process computed before it."""
    import torch

    with torch.random.fork_rng():
        torch.manual_seed(int(key, 16) % 2**63)
        yield


def _describe(config: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in config.items() if np.isscalar(v))


class FeatureCache:
    """Embeddings computed once per (model, weights, transform, dataset, split).

    Stored as `<root>/features/<key>.npz` with arrays `features` and `targets`.
    """

    def __init__(self, root: str | Path) -> None:
        self.dir = resolve(root) / "features"

    def has(self, spec: dict[str, Any]) -> bool:
        """Whether the features of `spec` are cached."""
        return (self.dir / f"{run_key(spec)}.npz").is_file()

    def get(
        self,
        spec: dict[str, Any],
        compute: Callable[[], tuple[np.ndarray, np.ndarray]],
    ) -> tuple[np.ndarray, np.ndarray]:
        """Features and targets for `spec`, computing and caching them if absent."""
        key = run_key(spec)

        def load(path: Path) -> tuple[np.ndarray, np.ndarray]:
            with np.load(path) as stored:
                return stored["features"], stored["targets"]

        def make() -> tuple[np.ndarray, np.ndarray]:
            features, targets = compute()
            log.info("cached features %s: %s (%s)", key, features.shape, _describe(spec))
            return features, targets

        def write(value: tuple[np.ndarray, np.ndarray], tmp: str) -> None:
            with open(tmp, "wb") as handle:
                np.savez(handle, features=value[0], targets=value[1])

        return load_or_make(self.dir / f"{key}.npz", load, make, write)


class StageCache:
    """Trained models that several runs start from, computed once per (stage, what determines it).

    Stored as `<root>/<paper>/stages/<key>.pt` (tensors and plain numbers only, read back with
    `torch.load(..., weights_only=True)`), keyed like a run (`run_key`: the stage's spec, the numerics
    libraries' versions) and, like a run, written atomically under a lock of its own, so a run that needs a stage
    another process is training waits for it, and a killed run resumes after the stages it finished. The time a
    stage takes counts in the `duration_s` of the run that trained it.
    """

    def __init__(self, root: str | Path, paper: str) -> None:
        self.dir = resolve(root) / paper / "stages"

    def has(self, spec: dict[str, Any]) -> bool:
        """Whether the stage of `spec` is stored."""
        return (self.dir / f"{run_key(spec)}.pt").is_file()

    def get(self, spec: dict[str, Any], compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The stored stage of `spec` (a dict of tensors and numbers), computing and storing it first if absent."""
        import torch

        key = run_key(spec)

        def make() -> dict[str, Any]:
            started = time.perf_counter()
            value = compute()
            log.info("wrote stage %s in %.1fs (%s)", key, time.perf_counter() - started, _describe(spec))
            return value

        def load(path: Path) -> dict[str, Any]:
            return torch.load(path, map_location="cpu", weights_only=True)

        return load_or_make(self.dir / f"{key}.pt", load, make, lambda value, tmp: torch.save(value, tmp))
