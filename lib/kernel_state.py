"""Run inside a notebook kernel that `lib.runner` reuses for several notebooks: `fresh_start` puts back, before
each notebook, what a freshly started kernel has, so that a notebook's outputs do not depend on the ones run
before it in the same kernel. Imported modules stay imported; that is the point of reusing the kernel (each
notebook would otherwise spend about 2 s starting a kernel and importing pandas, matplotlib and seaborn).

Put back: the user namespace, the input and output history and the execution counter (IPython's
`reset(new_session=True)`); matplotlib's figures (closed) and its settings, and numpy's print options, as they
were when this module was first imported, right after the kernel started; pandas' display options (their
defaults: notebooks set some, e.g. `display.width`); and the warnings each place has already shown (the filters'
version is moved on, as any change to the filters does, so a warning shows again as it would in a fresh kernel).
`tests/core/test_kernel_reuse.py` changes each of these in one notebook and checks that the next starts fresh.
Run in reused kernels, the whole tiny tier matched nbval's references (made in fresh kernels) in every output,
and the mini tier every output and figure of a run in fresh kernels (`docs/measurements/mini_budget.md`).
"""

from __future__ import annotations

import warnings

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

_FRESH_RC = {key: value for key, value in matplotlib.rcParams.items() if key != "backend"}
_FRESH_PRINT_OPTIONS = np.get_printoptions()


def fresh_start() -> None:
    """Reset the kernel's state to a fresh kernel's (see the module docstring); the caller's names go too."""
    from IPython import get_ipython

    plt.close("all")
    matplotlib.rcParams.update(_FRESH_RC)
    np.set_printoptions(**_FRESH_PRINT_OPTIONS)
    pd.reset_option(r"^display\.")
    with warnings.catch_warnings():  # entering and leaving it moves the filters' version on
        pass
    get_ipython().reset(new_session=True)
