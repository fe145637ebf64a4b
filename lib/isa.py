"""Instruction set of every computation: pinned, so a result does not depend on the CPU's vector units.

torch's own kernels (ATen), oneDNN (its convolutions), MKL (its matrix products) and OpenBLAS (numpy's,
scipy's and so scikit-learn's) each pick their vectorised code by the CPU they start on: AVX2 on one
machine, AVX-512 on another. Wider vectors sum in another order, the last bits differ, and training
amplifies them: the same seed trains another model (measured in `docs/measurements/instruction_set.md`).
So on x86-64 every process that imports `lib` asks ATen, oneDNN and OpenBLAS for their AVX2 code, which
every x86-64 CPU of the last decade has, and MKL for one fixed branch per CPU vendor (`MKL_BRANCHES`). MKL's
manual says it honours a branch such as AVX2 on Intel CPUs only and takes its own choice (AUTO) elsewhere, and
an AMD and an Intel machine with MKL pinned to AVX2 did train different models (measured). So Intel CPUs take
MKL's AVX2 branch, which every Intel CPU with AVX2 computes alike, and other vendors' its COMPATIBLE branch,
the one MKL keeps on every x86-64 CPU. COMPATIBLE on Intel too would make the two vendors compute alike, at 1.8
times the time of a tiny ViT's training on Intel (measured), more than the mini tier's budget can pay; so their
last bits differ, and the tests keep references per CPU class (`tests/notebooks_by_cpu/`). The libraries read
these variables when they start, so they are set when `lib` is imported (its `__init__`), and the project's
notebook kernel has them in its kernel spec (`kernel_spec_arguments`, for `make setup`), because a notebook
imports pandas, and so OpenBLAS, before `lib`. The pin is part of every run's key
(`lib.provenance.library_versions`), and `check()` refuses to compute a run under another (torch's and
OpenBLAS's choices can be read back; oneDNN and MKL read theirs at their first call, after `lib`'s import in
every process this project starts).
On other CPUs (ARM) nothing is pinned and the key says `native`.
"""

from __future__ import annotations

import os
import platform
import sys
from functools import lru_cache
from pathlib import Path

# Variable -> value for a CPU with AVX2: ATen's dispatch, oneDNN's ceiling, MKL's conditional numerical
# reproducibility branch (COMPATIBLE, the one MKL keeps on non-Intel CPUs; `MKL_BRANCHES` replaces it by vendor),
# OpenBLAS's kernel family (Haswell is its AVX2 family).
PINS: dict[str, str] = {
    "ATEN_CPU_CAPABILITY": "avx2",
    "ONEDNN_MAX_CPU_ISA": "AVX2",
    "MKL_CBWR": "COMPATIBLE",
    "OPENBLAS_CORETYPE": "Haswell",
}
# MKL's branch on the CPUs of a vendor (`/proc/cpuinfo`'s vendor_id) that honours one: AVX2, as the other pins.
MKL_BRANCHES: dict[str, str] = {"GenuineIntel": "AVX2"}


@lru_cache(maxsize=1)
def has_avx2() -> bool:
    """Whether this is an x86-64 CPU with AVX2 (read from /proc/cpuinfo where there is one, once per process:
    every run key asks; assumed elsewhere on x86-64, e.g. macOS, whose x86 machines all have it)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    cpuinfo = Path("/proc/cpuinfo")
    return not cpuinfo.exists() or "avx2" in cpuinfo.read_text().split()


# `ROBUSTNESS_KERNELS=native` lets each library pick its kernels by the CPU (faster on some CPUs; the run keys
# then say `native`, so such runs are never mixed with pinned ones, and their numbers hold for this CPU only).
KERNELS_ENV = "ROBUSTNESS_KERNELS"
KERNEL_CHOICES = ("avx2", "native")


def pins() -> dict[str, str]:
    """The variables this machine's processes are pinned to (none off x86-64, without AVX2, or under
    `ROBUSTNESS_KERNELS=native`)."""
    choice = os.environ.get(KERNELS_ENV, "avx2")
    if choice not in KERNEL_CHOICES:
        raise ValueError(f"{KERNELS_ENV}={choice!r}: set it to one of {', '.join(KERNEL_CHOICES)} (default avx2)")
    if choice != "avx2" or not has_avx2():
        return {}
    return PINS | {"MKL_CBWR": MKL_BRANCHES.get(cpu_vendor(), PINS["MKL_CBWR"])}


def pin() -> None:
    """Set the pins in this process's environment (inherited by every process it starts)."""
    os.environ.update(pins())


def key() -> str:
    """The pin as a run key holds it: `ATEN_CPU_CAPABILITY=avx2 ...`, or `native`."""
    return " ".join(f"{name}={value}" for name, value in pins().items()) or "native"


def in_force() -> dict[str, str]:
    """What torch and OpenBLAS run now (torch only if this process has imported it): ATen's capability
    and each loaded OpenBLAS's kernel family."""
    from threadpoolctl import threadpool_info

    found = {}
    if "torch" in sys.modules:
        found["torch"] = sys.modules["torch"].backends.cpu.get_cpu_capability()
    for library in threadpool_info():
        if library.get("internal_api") == "openblas":
            found[Path(library["filepath"]).name] = library.get("architecture", "?")
    return found


def check() -> None:
    """Stop before a computation whose libraries started before the pin was set (torch or numpy imported
    before `lib`): its result would be stored under a key that does not describe it."""
    wanted = pins()
    if not wanted:
        return
    expected = {"torch": wanted["ATEN_CPU_CAPABILITY"].upper()}
    for name, running in in_force().items():
        want = expected.get(name, wanted["OPENBLAS_CORETYPE"])
        if running.lower() != want.lower():
            raise RuntimeError(
                f"{name} runs {running} kernels, not the pinned {want}: it was loaded before `lib`; import lib "
                f"first, or start the process with {key()} (the project's notebook kernel has them)")


@lru_cache(maxsize=1)
def cpu_class() -> str:
    """The CPU's vendor and its per-core L1 data cache size, as Linux reports them
    (`/sys/devices/system/cpu/cpu0/cache`), e.g. `AuthenticAMD-L1d32K`; `unknown` where there is no such folder.
    The pin fixes the instruction set (MKL's by the vendor), not the rest: oneDNN sizes its convolutions' blocks by the caches (its
    maintainers guarantee the same result on the same CPU only), so two CPUs of other classes may differ in the
    last bits of a convolution, and training carries that on (`docs/measurements/instruction_set.md`). The L2
    is left out because it was measured not to matter: two AMD EPYCs with 512 KB and 1 MB of L2 per core computed
    every tiny notebook's outputs alike. The shared L3 is left out too: a virtual machine reports its share of
    it. The tests keep the notebooks' references per class (`tests/notebooks_by_cpu/`)."""
    caches = sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*"))
    l1d = [index for index in caches if (index / "level").read_text().strip() == "1"
           and (index / "type").read_text().strip() == "Data"]
    if not l1d:
        return "unknown"
    return f"{cpu_vendor()}-L1d{(l1d[0] / 'size').read_text().strip()}"


@lru_cache(maxsize=1)
def cpu_vendor() -> str:
    """`/proc/cpuinfo`'s vendor_id, e.g. `GenuineIntel` or `AuthenticAMD`; `unknown` where there is none."""
    cpuinfo = Path("/proc/cpuinfo")
    if not cpuinfo.exists():
        return "unknown"
    return next((line.split(":")[1].strip() for line in cpuinfo.read_text().splitlines()
                 if line.startswith("vendor_id")), "unknown")


def kernel_spec_arguments() -> str:
    """`ipykernel install`'s arguments that start the notebook kernel pinned (`make setup`)."""
    return " ".join(f"--env {name} {value}" for name, value in pins().items())
