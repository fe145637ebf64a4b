"""ssl_protocols: "A closer look at benchmarking self-supervised pre-training with image classification".

Modules: `accuracies` (Tables S.2/S.3 as tidy frames), `figure02` (the in-domain protocol
correlations, Fig. 2 and S.3, and which reading of the paper reproduces its quoted numbers),
`shift_groups` (ID-vs-OOD correlations overall and per domain-shift group, Fig. 2 right, 3, S.2),
`scatter` (Fig. 5's LP-vs-FT regression, Fig. 6/S.1's ID-vs-OOD panels), `batch_norm` (Sec. 4.3,
Fig. 4), `survey` (Table S.1), `seed_study` (S.7), `inaturalist` (what is printed for Figs. S.4/S.5),
`tables` (renderings of S.1–S.8), `rho_panels` (the one Spearman ρ colour scale and the heatmap
panel rows of Figs. 2, 3, S.2–S.4, the paper's and ours), `audit` and `claims` (the claims ledger).
"""

from ..lazy import lazy
from .audit import audits
from .claims import claims

__all__ = ["audits", "claims", "precompute", "SETTINGS"]


# The notebook parameter that names a settings file, and the loader that validates it (strictly,
# offline): `lib.runner.validated_params` runs it before any notebook starts. `precompute(params,
# artefacts)` computes the study's runs when a notebook of `artefacts` reads them, sharing the work
# with other processes doing the same (`lib.lazy`: torch is imported only when they are called).
SETTINGS = {"study_params": lazy(f"{__name__}.study", "StudySettings.load")}
precompute = lazy(f"{__name__}.ours", "precompute")
