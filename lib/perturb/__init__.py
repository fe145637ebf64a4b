"""Image perturbations of one layout and one signature (`lib.perturb.perturbations`): common
corruptions and style shifts at a continuous severity, deterministic under a seed; the nine ImageNet-C
corruptions of the foundation-model perturbation paper over their ImageNet-C parameter
(`lib.perturb.corruptions`, registered in the same `PERTURBATIONS`) and `parameter_values`, its two
ways of sampling m parameter values."""

from . import corruptions  # noqa: F401  (registers the nine ImageNet-C corruptions in PERTURBATIONS)
from .corruptions import CORRUPTIONS, PAPER_NAMES, parameter_values  # noqa: F401
