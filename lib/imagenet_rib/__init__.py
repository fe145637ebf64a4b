"""imagenet_rib: "Large pretraining datasets don't guarantee robustness after fine-tuning" (ImageNet-RIB).

Modules: `tables` (the printed tables in one tidy schema; RI, mRI, averages and backward transfer
as pure functions of frames), `audit` (every derived number re-derived), `claims` (the claims
ledger), `figures` (the data behind each figure, and the drawing helpers of the notebooks).
"""

from collections.abc import Collection, Mapping
from typing import Any

from .audit import audits
from .claims import claims

__all__ = ["audits", "claims", "precompute", "SETTINGS"]


def _benchmark(path: str) -> None:
    from .benchmark import BenchmarkSettings

    BenchmarkSettings.load(path)


def _experiments(path: str) -> None:
    from .experiments import load_experiments

    load_experiments(path)


# The notebook parameters that name a settings file, and the loader that validates one (strictly,
# offline): `lib.runner.validated_params` runs them before any notebook starts.
SETTINGS = {"benchmark_params": _benchmark, "experiments_params": _experiments}


def precompute(params: Mapping[str, Any], artefacts: Collection[str]) -> int:
    """Compute the runs that the notebooks of `artefacts` read (the tier's benchmark and the experiments
    behind them), sharing the work with other processes doing the same; how many were computed here."""
    from .ours_experiments import precompute as compute

    return compute(params, artefacts)
