"""The executed tiny notebooks in tests/notebooks/ (nbval's references) are current and show their figures,
and the references kept per CPU class (tests/notebooks_by_cpu/) are current and needed.

`make test` runs nbval on these files: each notebook is executed once and its outputs compared with
the stored ones. These tests check that the references were made from today's notebook sources and
tiny params (`make test-notebooks` remakes them), and that every figure a notebook saves is displayed
in it: the paper's for a `published` artefact, the paper's and ours for a `reproduced` one, ours for
an `ours_only` one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import jupytext
import nbformat
import pytest

from lib.manifest import RUNNABLE, read
from lib.params import load_for_notebook
from lib.paths import CPU_REFERENCES_DIR, REFERENCES_DIR

EXECUTED = REFERENCES_DIR
ENTRIES = [e for e in read() if e.status in RUNNABLE and "tiny" in e.tiers]
# The figure stems each status saves and displays, `{a}` standing for the artefact.
SAVED_STEMS = {"published": ("{a}",), "reproduced": ("{a}", "{a}_ours"), "ours_only": ("{a}",)}
SAVED = re.compile(r"^saved (?P<stem>\S+)\.png, \.pdf and \.csv$", re.MULTILINE)
REMAKE = "run `make test-notebooks` to re-execute the tiny notebooks into tests/notebooks/"


def _reference(entry) -> Path:
    return EXECUTED / entry.paper / f"{entry.artefact}.ipynb"


def _outputs(notebook: nbformat.NotebookNode) -> list[dict]:
    return [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]


def test_every_runnable_artefact_has_one_reference_and_no_other_exists():
    expected = {_reference(e) for e in ENTRIES}
    found = set(EXECUTED.glob("*/*.ipynb"))
    assert not expected - found, f"missing {sorted(map(str, expected - found))}: {REMAKE}"
    assert not found - expected, f"no manifest row for {sorted(map(str, found - expected))}: {REMAKE}"


BY_CPU = CPU_REFERENCES_DIR
CPU_REFERENCES = sorted(BY_CPU.glob("*/*/*.ipynb"))
CPU_REMAKE = "run `make test-notebooks-cpu` on a machine of that class, or delete it (tests/notebooks_by_cpu/README.md)"


def _entry(path: Path):
    """The manifest row of a CPU class's reference `<class>/<paper>/<artefact>.ipynb`."""
    found = [e for e in ENTRIES if (e.paper, e.artefact) == (path.parent.name, path.stem)]
    assert found, f"{path}: no runnable tiny artefact {path.parent.name}/{path.stem}: {CPU_REMAKE}"
    return found[0]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e.paper}/{e.artefact}")
def test_reference_was_made_from_the_current_source_and_tiny_params(entry):
    _check_made_from_current(_reference(entry), entry, REMAKE)


@pytest.mark.parametrize("path", CPU_REFERENCES, ids=lambda p: str(p.relative_to(BY_CPU)))
def test_a_cpu_class_reference_is_current_and_differs_from_the_shared_one(path):
    entry = _entry(path)
    _check_made_from_current(path, entry, CPU_REMAKE)
    own, shared = nbformat.read(path, as_version=4), nbformat.read(_reference(entry), as_version=4)
    assert _outputs(own) != _outputs(shared), f"{path} has the outputs of {_reference(entry)}: delete it"


def _check_made_from_current(reference: Path, entry, remake: str) -> None:
    """`reference` holds one papermill parameters cell with the tiny params, then the notebook's cells as they
    are now."""
    executed = nbformat.read(reference, as_version=4)
    injected = [c for c in executed.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert len(injected) == 1, f"{reference} has no papermill parameters cell: {remake}"
    values = {}
    for node in ast.parse(injected[0].source).body:
        values[node.targets[0].id] = ast.literal_eval(node.value)
    assert values == load_for_notebook(entry.params_path("tiny"), entry.notebook_path), f"{reference}: tiny params changed since: {remake}"
    cells = [(c.cell_type, c.source) for c in executed.cells if c is not injected[0]]
    source = [(c.cell_type, c.source) for c in jupytext.read(entry.notebook_path).cells]
    assert cells == source, f"{entry.notebook} changed since {reference} was executed: {remake}"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e.paper}/{e.artefact}")
def test_every_saved_figure_is_displayed(entry):
    outputs = _outputs(nbformat.read(_reference(entry), as_version=4))
    assert not [o for o in outputs if o.output_type == "error"], f"{_reference(entry)} holds an error"
    saved = []
    for before, output in zip([None] + outputs, outputs):
        for match in SAVED.finditer(output.get("text", "") if output.output_type == "stream" else ""):
            assert before is not None and "image/png" in before.get("data", {}), (
                f"{entry.paper}/{entry.artefact}: {match['stem']} was saved but not displayed just before")
            saved.append(Path(match["stem"]).name)
    for stem in SAVED_STEMS[entry.status]:
        assert stem.format(a=entry.artefact) in saved, (
            f"{entry.paper}/{entry.artefact} ({entry.status}) does not save and display {stem.format(a=entry.artefact)}")
