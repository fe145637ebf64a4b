"""`python -m lib refresh-prose`: a reference takes its notebook's new markdown and keeps its outputs, and a
changed code cell is refused (only re-executing can remake that reference)."""

from __future__ import annotations

from pathlib import Path

import jupytext
import nbformat
import pytest

from lib.runner import CodeChangedError, refresh_prose

SOURCE = """# %% [markdown]
# # A table
# {prose}

# %% tags=["parameters"]
x = 1

# %%
print({code})
"""


def _write(path: Path, prose: str = "Its question.", code: str = "x") -> Path:
    path.write_text(SOURCE.format(prose=prose, code=code))
    return path


def _reference(notebook: Path, path: Path) -> Path:
    """`notebook` as papermill would have executed it: an injected parameters cell, an output."""
    executed = jupytext.read(notebook)
    injected = nbformat.v4.new_code_cell("x = 2")
    injected.metadata["tags"] = ["injected-parameters"]
    executed.cells.insert(2, injected)
    executed.cells[-1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="2\n")]
    nbformat.write(executed, path)
    return path


def test_new_markdown_is_taken_and_the_outputs_kept(tmp_path):
    notebook = _write(tmp_path / "table01.py")
    reference = _reference(notebook, tmp_path / "table01.ipynb")
    _write(notebook, prose="Its question, reworded.")
    assert refresh_prose(reference, notebook)
    refreshed = nbformat.read(reference, as_version=4)
    assert "Its question, reworded." in refreshed.cells[0].source
    assert refreshed.cells[2].source == "x = 2" and refreshed.cells[-1].outputs[0].text == "2\n"
    assert not refresh_prose(reference, notebook)


def test_a_changed_code_cell_is_refused(tmp_path):
    notebook = _write(tmp_path / "table01.py")
    reference = _reference(notebook, tmp_path / "table01.ipynb")
    before = reference.read_text()
    _write(notebook, prose="Reworded.", code="x + 1")
    with pytest.raises(CodeChangedError, match="re-execute it"):
        refresh_prose(reference, notebook)
    assert reference.read_text() == before
