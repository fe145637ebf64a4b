"""The instruction-set pin (`lib.isa`) is in force in every process the project starts, is part of every run
key, and a process whose libraries started before it is stopped before it computes."""

import importlib.util
import os
import subprocess
import sys

import pytest
from jupyter_client.kernelspec import KernelSpecManager

from lib import isa
from lib.paths import REPO_ROOT
from lib.provenance import library_versions
from lib.runner import KERNEL_NAME
from lib.threads import kernel_environment

pinned_machine = pytest.mark.skipif(not isa.has_avx2(), reason="nothing is pinned off x86-64 with AVX2")


def test_the_pin_is_part_of_every_run_key():
    assert library_versions()["kernels"] == isa.key()
    assert isa.key() == ("native" if not isa.pins() else " ".join(f"{k}={v}" for k, v in isa.PINS.items()))


@pinned_machine
def test_this_test_process_runs_the_pinned_kernels():
    import torch  # noqa: F401  (so torch's capability is read too)

    running = isa.in_force()
    assert running["torch"] == "AVX2"
    assert {kind for name, kind in running.items() if name != "torch"} == {"Haswell"}
    isa.check()


@pinned_machine
def test_workers_and_the_notebook_kernel_start_pinned():
    assert isa.PINS.items() <= kernel_environment().items()
    assert KernelSpecManager().get_kernel_spec(KERNEL_NAME).env == isa.PINS


@pinned_machine
def test_a_library_loaded_before_lib_stops_the_computation():
    # OpenBLAS started on kernels other than the pin's, AVX's Sandybridge, which every CPU with AVX2 runs (on a CPU
    # whose own choice is already Haswell, as on the AMD EPYC with 512 KB of L2, nothing would differ to stop)
    env = {name: value for name, value in os.environ.items() if name not in isa.PINS}
    env["OPENBLAS_CORETYPE"] = "Sandybridge"
    script = "import numpy, lib.isa; lib.isa.check()"
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "not the pinned Haswell: it was loaded before `lib`" in done.stderr.splitlines()[-1]


def test_native_kernels_unpin_and_say_so_in_the_key(monkeypatch):
    monkeypatch.setenv(isa.KERNELS_ENV, "native")
    assert isa.pins() == {} and isa.key() == "native"
    isa.check()  # nothing pinned, nothing to check
    monkeypatch.setenv(isa.KERNELS_ENV, "avx512")
    with pytest.raises(ValueError, match="ROBUSTNESS_KERNELS='avx512': set it to one of avx2, native"):
        isa.pins()


# `benchmarks/instruction_set.py`'s probe (a ConvNet trained 200 steps, a logistic regression) under the pin, as
# computed on the machine the committed references and figures were made on (Intel Xeon, Sapphire Rapids, 2026-12-01).
PINNED_PROBE = ["AVX2", "2.3161206245", "1054c564", "f584eace"]


@pinned_machine
def test_the_pinned_probe_computes_what_the_references_machine_computed():
    spec = importlib.util.spec_from_file_location("instruction_set", REPO_ROOT / "benchmarks" / "instruction_set.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.probe(dict(isa.PINS)) == PINNED_PROBE, (
        "this CPU computes another result under the pin than the machine the tiny references and mini figures were "
        "made on, so their numbers will differ here: see docs/measurements/instruction_set.md")
