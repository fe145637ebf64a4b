"""nbval's references per CPU class: `lib.isa.cpu_class` names this machine's, and `make test` collects a
notebook's reference from tests/notebooks_by_cpu/<class>/ where that class has its own, from tests/notebooks/
elsewhere, and never another class's."""

from __future__ import annotations

import re
import subprocess
import sys

from lib import isa
from lib.paths import CPU_REFERENCES_DIR, REFERENCES_DIR, REPO_ROOT

BY_CPU = CPU_REFERENCES_DIR


def test_the_cpu_class_names_the_vendor_and_the_l1_data_cache():
    name = isa.cpu_class()
    assert name == "unknown" or re.fullmatch(r"[A-Za-z]+-L1d\d+[KMG]", name), name


def _collected_notebooks() -> set[str]:
    listing = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "--nbval", "-p", "no:cacheprovider",
         "tests/notebooks", "tests/notebooks_by_cpu"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True).stdout
    return {line.split(".ipynb")[0] + ".ipynb" for line in listing.splitlines() if ".ipynb" in line}


def test_each_notebook_is_collected_once_from_this_cpu_class_or_the_shared_references():
    collected = _collected_notebooks()
    own = {p.relative_to(BY_CPU / isa.cpu_class()) for p in (BY_CPU / isa.cpu_class()).glob("*/*.ipynb")}
    shared = {p.relative_to(REFERENCES_DIR) for p in REFERENCES_DIR.glob("*/*.ipynb")}
    expected = {f"tests/notebooks/{p}" for p in shared - own} | {
        f"tests/notebooks_by_cpu/{isa.cpu_class()}/{p}" for p in own}
    assert collected == expected
