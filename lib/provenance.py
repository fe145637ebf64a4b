"""Provenance recorded with every stored run: code revision, library versions, device, timing."""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import platform
import re
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Any

from .paths import REPO_ROOT


def canonical_json(obj: Any) -> str:
    """JSON with sorted keys and no whitespace: equal configurations give equal text."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)


def config_hash(config: dict[str, Any], length: int = 16) -> str:
    """A short, stable hash of a configuration mapping."""
    return hashlib.sha256(canonical_json(config).encode()).hexdigest()[:length]


@lru_cache(maxsize=1)
def git_revision() -> str:
    """The repository's HEAD commit, with `+dirty` when the tree has uncommitted changes."""
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=REPO_ROOT, capture_output=True, text=True, check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + ("+dirty" if dirty else "")


def unimported_version(package: str) -> str:
    """`package.__version__` read from the package's `version.py`, without importing the package
    (torch, timm and open_clip take seconds to import; every run key holds their versions, and a
    notebook reading stored runs needs only the keys). Torch's holds its build tag, e.g. `+cu130`."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"{package} is not installed")
    text = Path(spec.submodule_search_locations[0], "version.py").read_text()
    found = re.search(r"^__version__ = ['\"]([^'\"]+)['\"]", text, re.M)
    if found is None:
        raise ValueError(f"no __version__ literal in {package}/version.py")
    return found.group(1)


@lru_cache(maxsize=1)
def library_versions() -> dict[str, str]:
    """Versions of the libraries whose numerics can change a result (scikit-learn's from its installed
    distribution: importing it takes a second, and a notebook reading stored runs needs only the keys),
    and the instruction set their kernels are pinned to (`lib.isa`)."""
    import numpy

    from . import isa

    return {
        "python": platform.python_version(),
        "torch": unimported_version("torch"),
        "timm": unimported_version("timm"),
        "open_clip": unimported_version("open_clip"),
        "numpy": numpy.__version__,
        "sklearn": importlib.metadata.version("scikit-learn"),
        "kernels": isa.key(),
    }


def device_name(device: str) -> str:
    """A human-readable name of the device a run used: the GPU model where there is one, else the CPU's
    architecture and class (vendor and caches, `lib.isa.cpu_class`)."""
    import torch

    from . import isa

    if device.startswith("cuda") and torch.cuda.is_available():
        return torch.cuda.get_device_name(torch.device(device))
    return f"cpu ({platform.machine()}, {isa.cpu_class()})"
