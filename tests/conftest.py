"""Shared set-up: the pinned thread count, nbval's kernels on IPC sockets and their start retried, generated
fake image-folder trees (no real dataset is ever needed), and the benchmark scripts loaded as modules."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lib  # first: it pins the instruction set before numpy and torch load their kernels (lib.isa)
import nbval.kernel
import numpy as np
import torch
import pytest
from PIL import Image

from lib.isa import cpu_class
from lib.paths import CPU_REFERENCES_DIR, REFERENCES_DIR, REPO_ROOT
from lib.runner import IPCKernelManager
from lib.threads import kernel_environment, run_threads

# Each test process (one per core under pytest-xdist) and each notebook kernel nbval starts from it
# computes on the pinned thread count, as the notebook runner does.
os.environ.update(kernel_environment())
torch.set_num_threads(run_threads())


def kernel_start_with_retries(start: Callable[..., Any], attempts: int = 3) -> Callable[..., Any]:
    """`start` (nbval's `start_new_kernel`) tried up to `attempts` times: a kernel that dies before replying
    ("Kernel died before replying to kernel_info", seen once in a fresh-clone `make test` when kernels were
    on TCP and two test processes took one port) is started again. A kernel that cannot start at all still
    fails, on the last attempt."""
    def retried(*args: Any, **kwargs: Any) -> Any:
        for attempt in range(1, attempts + 1):
            try:
                return start(*args, **kwargs)
            except RuntimeError:
                if attempt == attempts:
                    raise
    return retried


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """nbval's reference for each notebook on this CPU's class (`lib.isa.cpu_class`): the class's own, in
    `tests/notebooks_by_cpu/<class>/`, where the notebook's outputs differ there from `tests/notebooks/`'s
    (made on another class; see tests/notebooks_by_cpu/README.md); the references of other classes are not
    collected."""
    here = CPU_REFERENCES_DIR / cpu_class()
    if collection_path.is_relative_to(CPU_REFERENCES_DIR) and collection_path != CPU_REFERENCES_DIR:
        return not (collection_path == here or here in collection_path.parents)
    if collection_path.suffix == ".ipynb" and collection_path.is_relative_to(REFERENCES_DIR):
        return (here / collection_path.relative_to(REFERENCES_DIR)).is_file()
    return None


nbval.kernel.KernelManager = IPCKernelManager  # the class nbval's start_new_kernel builds: no TCP port to race for
nbval.kernel.start_new_kernel = kernel_start_with_retries(nbval.kernel.start_new_kernel)


def write_images(folder: Path, count: int, seed: int = 0, suffix: str = ".png") -> None:
    """Write `count` tiny random RGB images into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for i in range(count):
        pixels = rng.integers(0, 255, size=(6, 6, 3), dtype=np.uint8)
        Image.fromarray(pixels).save(folder / f"img_{i:03d}{suffix}")


@pytest.fixture
def make_tree():
    """Build `root/<class>/<images>` for a mapping class name -> image count."""

    def build(root: Path, classes: dict[str, int]) -> Path:
        for i, (name, count) in enumerate(classes.items()):
            write_images(root / name, count, seed=i)
        return root

    return build


@pytest.fixture
def load_benchmark(monkeypatch) -> Callable[[str], Any]:
    """`load_benchmark(name)`: the script `benchmarks/<name>.py` as a module, registered in `sys.modules` while
    the test runs (a script's dataclasses look their module up there)."""
    def load(name: str) -> Any:
        spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "benchmarks" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)
        spec.loader.exec_module(module)
        return module
    return load


@pytest.fixture
def weights_here(monkeypatch) -> None:
    """Every registry model's weights count as on this machine: for tests that replace `load_pretrained` by a
    stand-in (the studies check the weights before any compute; tests/core/test_weight_files.py tests that)."""
    monkeypatch.setattr("lib.models.weight_files.missing_weights", lambda s, root=None: None)


@pytest.fixture
def empty_caches(tmp_path, monkeypatch):
    """Empty hub, torch and home caches, and the hubs offline: no registry model's weights are on this machine,
    nor can they be downloaded."""
    from huggingface_hub import constants

    from lib.models.weight_files import hubs_reachable

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hf"))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "torch"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ROBUSTNESS_WEIGHTS", str(tmp_path / "weights"))
    hubs_reachable.cache_clear()
    yield tmp_path
    hubs_reachable.cache_clear()
