"""counteranimal: "Do CLIPs always generalize better than ImageNet models?" (CounterAnimal).

Modules: `published` (the printed tables as tidy frames), `classwise` (Tables 15–16: class means and
the group sizes the percentages imply), `effective_robustness` (counter against common accuracy per
family, linear and logit fits, residuals with bootstrap intervals), `figures` (the tables and figures
redrawn from the printed numbers), `audit` and `claims` (the claims ledger). Our runs: `metrics`,
`evaluation` and `curation` (the paper's protocol as code), `miniature` (a miniature CounterAnimal on
embedded data), `study` (the zoo of CLIPs and supervised models evaluated on it, or the paper's
checkpoints on the real dataset) and `ours` (the study in the paper's figures, with findings);
`simulation` (the linear-CLIP simulation of Theorem 6.2) and `simulation_report` (its verdict as text); `multicolored` (Table 8's MultiColored digits
study: supervised against contrastive training with perfect captions); `coloredcoco` (Table 7's design on
background-coloured digits: a tiny CLIP zero-shot, fine-tuned with the CLIP objective, or with a supervised head).
No torch is imported here.
"""

from ..lazy import lazy
from .audit import audits

__all__ = ["audits", "precompute", "SETTINGS"]


# The notebook parameter that names a settings file, and the loader that validates it (strictly,
# offline): `lib.runner.validated_params` runs it before any notebook starts. `precompute(params,
# artefacts)` computes the study's runs when a notebook of `artefacts` reads them, sharing the work
# with other processes doing the same (`lib.lazy`: torch is imported only when they are called).
SETTINGS = {"study_params": lazy(f"{__name__}.study", "StudySettings.load"),
            "simulation_params": lazy(f"{__name__}.simulation", "SimulationSettings.load"),
            "multicolored_params": lazy(f"{__name__}.multicolored", "MulticoloredSettings.load"),
            "coloredcoco_params": lazy(f"{__name__}.coloredcoco", "load_settings")}
precompute = lazy(f"{__name__}.ours", "precompute")
