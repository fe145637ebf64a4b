"""imagenet_rib: "Large pretraining datasets don't guarantee robustness after fine-tuning" (ImageNet-RIB).

Modules: `tables` (the printed tables in one tidy schema; RI, mRI, averages and backward transfer
as pure functions of frames), `audit` (every derived number re-derived), `claims` (the claims
ledger), `figures` (the data behind each figure, and the drawing helpers of the notebooks).
"""

from .audit import audits
from .claims import claims

__all__ = ["audits", "claims"]
