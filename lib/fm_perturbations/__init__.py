"""fm_perturbations: "Robustness of vision foundation models to common perturbations" (seed 002).

Modules: `metrics` (R_cs, R_ed and DivergenceRadius, Table 1), `examples` (the paper's Fig. 1 and 2
examples and hand-built sets with known answers), `properties` (Table 1's five properties checked
with our metric code), `accuracies` (Tables 2 and 3 and the quoted numbers as tidy frames),
`figures` (drawings of the tables and theory figures), `audit` and `claims` (the claims ledger);
our run: `grid` (perturb once, embed with every model), `heads` (zero-shot and linear probe),
`training` (pretraining the stand-ins, robustness fine-tuning), `study` (the settings and runs
through the store) and `ours` (the paper's analyses on our run, for the notebooks).
Importing this package imports no torch.
"""

from ..lazy import lazy
from .audit import audits

__all__ = ["audits", "precompute", "SETTINGS"]


# The notebook parameter that names a settings file, and the loader that validates it (strictly,
# offline): `lib.runner.validated_params` runs it before any notebook starts. `precompute(params,
# artefacts)` computes the study's runs when a notebook of `artefacts` reads them, sharing the work
# with other processes doing the same (`lib.lazy`: torch is imported only when they are called).
SETTINGS = {"study_params": lazy(f"{__name__}.study", "StudySettings.load")}
precompute = lazy(f"{__name__}.ours", "precompute")
