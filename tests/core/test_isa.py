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
    assert isa.key() == ("native" if not isa.pins() else " ".join(f"{k}={v}" for k, v in isa.pins().items()))


def test_mkl_takes_its_avx2_branch_on_intel_cpus_and_compatible_elsewhere(monkeypatch):
    monkeypatch.setattr(isa, "has_avx2", lambda: True)
    for vendor, branch in [("GenuineIntel", "AVX2"), ("AuthenticAMD", "COMPATIBLE"), ("unknown", "COMPATIBLE")]:
        monkeypatch.setattr(isa, "cpu_vendor", lambda: vendor)
        assert isa.pins() == isa.PINS | {"MKL_CBWR": branch}
        assert list(isa.pins()) == list(isa.PINS)  # the run keys' order


@pinned_machine
def test_this_test_process_runs_the_pinned_kernels():
    import torch  # noqa: F401  (so torch's capability is read too)

    running = isa.in_force()
    assert running["torch"] == "AVX2"
    assert {kind for name, kind in running.items() if name != "torch"} == {"Haswell"}
    isa.check()


@pinned_machine
def test_workers_and_the_notebook_kernel_start_pinned():
    assert isa.pins().items() <= kernel_environment().items()
    assert KernelSpecManager().get_kernel_spec(KERNEL_NAME).env == isa.pins()


@pinned_machine
def test_a_library_loaded_before_lib_stops_the_computation():
    # OpenBLAS started on kernels other than the pin's, AVX's Sandybridge, which every CPU with AVX2 runs (on a CPU
    # whose own choice is already Haswell, as on the AMD EPYC with 512 KB of L2, nothing would differ to stop)
    env = {name: value for name, value in os.environ.items() if name not in isa.pins()}
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


# `benchmarks/instruction_set.py`'s probe (a ConvNet trained 200 steps, a logistic regression) under the pin, by CPU
# vendor (MKL's branch is the vendor's), as computed on the machines the tiny references were made on: the Intel Xeon
# (Sapphire Rapids) of the shared ones (2026-12-07; the same as on 2026-12-01) and the AMD EPYC of
# tests/notebooks_by_cpu/AuthenticAMD-L1d32K/ (2026-12-02).
PINNED_PROBES = {"GenuineIntel": ["AVX2", "2.3161730766", "8dcff8d1", "f584eace"],
                 "AuthenticAMD": ["AVX2", "2.3161206245", "1054c564", "f584eace"]}


@pinned_machine
@pytest.mark.skipif(isa.cpu_vendor() not in PINNED_PROBES, reason="no references were made on this vendor's CPUs")
def test_the_pinned_probe_computes_what_the_references_machine_computed():
    spec = importlib.util.spec_from_file_location("instruction_set", REPO_ROOT / "benchmarks" / "instruction_set.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.probe(isa.pins()) == PINNED_PROBES[isa.cpu_vendor()], (
        "this CPU computes another result under the pin than the machine its vendor's tiny references were made on, "
        "so their numbers will differ here: see docs/measurements/instruction_set.md")
