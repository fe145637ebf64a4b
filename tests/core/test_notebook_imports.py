"""A notebook that reads stored runs imports no torch, timm or open_clip (4-8 s per kernel).

Each paper's notebooks' `lib` modules (from their `from lib... import` lines) are imported in a
fresh interpreter per paper, all papers at once; only computing a run may import torch.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from lib import PAPERS
from lib.paths import REPO_ROOT
from lib.provenance import library_versions

HEAVY = ("torch", "timm", "open_clip")


def notebook_modules(paper: str) -> list[str]:
    """The `lib` modules the paper's notebooks import (`from lib... import` lines)."""
    sources = (path.read_text() for path in sorted((REPO_ROOT / "notebooks" / paper).glob("*.py")))
    return sorted({m for source in sources for m in re.findall(r"^from (lib[\w.]*) import", source, re.M)})


@pytest.fixture(scope="module")
def imported() -> dict[str, list[str]]:
    """Per paper, which of `HEAVY` importing its notebooks' modules imported (one interpreter per paper, in parallel)."""
    code = "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m)\nprint(' '.join(m for m in {heavy} if m in sys.modules))"
    processes = {paper: subprocess.Popen([sys.executable, "-c", code.format(heavy=HEAVY), *notebook_modules(paper)],
                                         cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for paper in PAPERS}
    out = {}
    for paper, process in processes.items():
        stdout, stderr = process.communicate(timeout=120)
        assert process.returncode == 0, stderr
        out[paper] = stdout.split()
    return out


@pytest.mark.parametrize("paper", PAPERS)
def test_notebook_modules_import_no_torch(paper, imported):
    assert notebook_modules(paper), f"no `from lib... import` line in notebooks/{paper}"
    assert imported[paper] == [], f"importing the {paper} notebooks' lib modules imported {imported[paper]}"


def test_run_keys_name_the_versions_the_libraries_report():
    """Run keys hold torch's, timm's, open_clip's and scikit-learn's versions read without importing them:
    the same strings."""
    import open_clip
    import sklearn
    import timm
    import torch

    versions = library_versions()
    assert (versions["torch"], versions["timm"], versions["open_clip"], versions["sklearn"]) == (
        torch.__version__, timm.__version__, open_clip.__version__, sklearn.__version__)
