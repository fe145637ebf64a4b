"""imagenet_rib: "Large pretraining datasets don't guarantee robustness after fine-tuning" (ImageNet-RIB).

Modules: `tables` (the printed tables in one tidy schema; RI, mRI, averages and backward transfer
as pure functions of frames), `audit` (every derived number re-derived), `claims` (the claims
ledger), `figures` (the data behind each figure, and the drawing helpers of the notebooks).
"""

from collections.abc import Collection, Mapping
from typing import Any

from .audit import audits
from .claims import claims

__all__ = ["audits", "claims", "precompute"]


def precompute(params: Mapping[str, Any], artefacts: Collection[str]) -> int:
    """Compute the runs that the notebooks of `artefacts` read (the tier's benchmark and the experiments
    behind them), sharing the work with other processes doing the same; how many were computed here."""
    from .ours_experiments import precompute as compute

    return compute(params, artefacts)
