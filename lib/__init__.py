"""Robustness companion: training, evaluation and audit code behind the notebooks.

Modules are named for what they hold: `params` (validated notebook parameters), `store`
(results and feature cache), `published` (the papers' printed numbers), `audit`, `plotting`,
`data`, `models`, `metrics`, and one module per paper (e.g. `ssl_protocols`).
"""

# First, before any numerics library starts: the instruction set their kernels use (`lib.isa`).
from . import isa as _isa

_isa.pin()

PAPERS: tuple[str, ...] = (
    "imagenet_rib",
    "seq_to_final",
    "fm_perturbations",
    "ssl_protocols",
    "counteranimal",
)
TIERS: tuple[str, ...] = ("tiny", "mini", "full")

# tqdm.auto (imported by the model hubs) warns in every notebook kernel that ipywidgets is missing;
# progress bars there fall back to text, which is what the headless runs want.
import warnings as _warnings

_warnings.filterwarnings("ignore", message="IProgress not found", module="tqdm")
