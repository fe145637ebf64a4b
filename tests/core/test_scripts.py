"""The GPU measurement scripts still import against today's lib (they run only where a GPU is)."""

import importlib.util

import pytest

from lib.paths import REPO_ROOT

SCRIPTS = sorted((REPO_ROOT / "scripts").glob("*.py"))


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_script_imports(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
