"""Where things live: the repository, the data root, the results store, the figures."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PUBLISHED_DIR = Path(__file__).resolve().parent / "published"
REGISTRY_DIR = Path(__file__).resolve().parent / "registry"
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
PARAMS_DIR = REPO_ROOT / "params"
MANIFEST = NOTEBOOKS_DIR / "manifest.csv"
# nbval's references: the executed tiny notebooks, shared, and those a CPU class keeps of its own
REFERENCES_DIR = REPO_ROOT / "tests" / "notebooks"
CPU_REFERENCES_DIR = REPO_ROOT / "tests" / "notebooks_by_cpu"

DATA_ROOT_ENV = "ROBUSTNESS_DATA_ROOT"
RESULTS_ROOT_ENV = "ROBUSTNESS_RESULTS"
WEIGHTS_ROOT_ENV = "ROBUSTNESS_WEIGHTS"


def _from_env(variable: str, default: Path, override: str | Path | None) -> Path:
    """An explicit override wins, then the environment variable, then the default."""
    if override not in (None, ""):
        return Path(override).expanduser().resolve()
    value = os.environ.get(variable)
    return Path(value).expanduser().resolve() if value else default


def data_root(override: str | Path | None = None) -> Path:
    """Root folder holding the real datasets (`full` tier), one sub-folder per dataset."""
    return _from_env(DATA_ROOT_ENV, REPO_ROOT / "data", override)


def results_root(override: str | Path | None = None) -> Path:
    """Root folder of the results store (parquet runs and the feature cache)."""
    return _from_env(RESULTS_ROOT_ENV, REPO_ROOT / "results", override)


def weights_root(override: str | Path | None = None) -> Path:
    """Folder holding checkpoint files that are not on a hub (url rows of the model registry)."""
    return _from_env(WEIGHTS_ROOT_ENV, REPO_ROOT / "weights", override)


def resolve(path: str | Path) -> Path:
    """A path from a params file: relative paths are relative to the repository root."""
    p = Path(path).expanduser()
    return p if p.is_absolute() else REPO_ROOT / p
