"""imagenet_rib: "Large pretraining datasets don't guarantee robustness after fine-tuning" (ImageNet-RIB).

Modules: `tables` (the printed tables in one tidy schema; RI, mRI, averages and backward transfer
as pure functions of frames), `audit` (every derived number re-derived), `claims` (the claims
ledger), `figures` (the data behind each figure, and the drawing helpers of the notebooks).
"""

from ..lazy import lazy
from .audit import audits
from .claims import claims

__all__ = ["audits", "claims", "precompute", "SETTINGS"]

# The notebook parameters that name a settings file, and the loader that validates one (strictly,
# offline): `lib.runner.validated_params` runs them before any notebook starts. `precompute(params,
# artefacts)` computes the runs that the notebooks of `artefacts` read (the tier's benchmark and the
# experiments behind them), sharing the work with other processes (`lib.lazy`: torch is imported
# only when they are called).
SETTINGS = {"benchmark_params": lazy(f"{__name__}.benchmark", "BenchmarkSettings.load"),
            "experiments_params": lazy(f"{__name__}.experiments", "load_experiments")}
precompute = lazy(f"{__name__}.ours_experiments", "precompute")
