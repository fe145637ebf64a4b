"""Provenance recorded with every stored run: code revision, library versions, device, timing."""

from __future__ import annotations

import hashlib
import json
import platform
import subprocess
from functools import lru_cache
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


@lru_cache(maxsize=1)
def library_versions() -> dict[str, str]:
    """Versions of the libraries whose numerics can change a result."""
    import numpy
    import open_clip
    import sklearn
    import timm
    import torch

    return {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "timm": timm.__version__,
        "open_clip": open_clip.__version__,
        "numpy": numpy.__version__,
        "sklearn": sklearn.__version__,
    }


def device_name(device: str) -> str:
    """A human-readable name of the device a run used (the GPU model where there is one)."""
    import torch

    if device.startswith("cuda") and torch.cuda.is_available():
        return torch.cuda.get_device_name(torch.device(device))
    return f"cpu ({platform.processor() or platform.machine()})"
