"""seq_to_final: "Seq-to-Final: a benchmark for tuning from sequential distributions to a final time point".

Modules: `tables` (the printed Tables 1-15 as tidy frames), `summaries` (Mean/Std rows of Tables 8-14
re-derived under each reading), `formatting` (the captions' bold/italic rules), `audit`, `claims`
(the claims ledger) and `figures` (drawings of the printed tables for the notebooks); our runs' data:
`shifts` (the shift building blocks, as the official code does them), `sampler` (the per-step stratified
sampler and the shift sequences), `pools` (the CIFAR-10 and CIFAR-100 super-class pools, read
through the dataset registry), `portraits` (the Portraits decades, read through the registry) and `faces` (their
embedded stand-in for the small tiers: drifting "decades" of scikit-image's faces), `illustrations` (Figs 2-6
drawn by our shift code, and the faces stand-in), `sequence` (a drawn sequence's time points and splits); our runs (torch): `architectures`, `methods` (Table 1's 18
methods as the official code runs them), `training` (one method over a sequence, predictions on the final
test split) and `study` (sequence x architecture x method x seed through the store); the analyses:
`shift_metrics` (Tables 5-6's covariate and conditional shift, PCA then exact optimal transport),
`interpolation_paths` (accuracy along linear weight interpolations, Figs 1 and 10-15, with the code's
BatchNorm treatment and its alternatives) and `model_geometry` (parameter vectors, the joint model's
adjacent-weight distances, the weight projections of Fig. 16 and the per-layer SVCCA of Fig. 17, on
`lib.metrics.svcca`); `ours` (the study in the paper's Tables 2 and 8-15, with findings);
`geometry` (the stored analysis runs of Figs 1 and 9-17: settings, readings, findings),
`geometry_runs` (their computation, torch) and `geometry_figures` (their drawings). None of them is
imported here.
"""

from ..lazy import lazy
from .audit import audits

__all__ = ["audits", "precompute", "SETTINGS"]

# The notebook parameter that names the study's settings file, and its strict offline loader
# (`lib.runner.validated_params` runs it before any notebook starts); `precompute(params, artefacts)` computes
# the stored runs the notebooks of `artefacts` read (`lib.lazy`: torch only when called).
SETTINGS = {"study_params": lazy(f"{__name__}.study", "StudySettings.load"),
            "geometry_params": lazy(f"{__name__}.geometry", "GeometrySettings.load")}
precompute = lazy(f"{__name__}.ours", "precompute")
