"""Run notebooks headlessly: jupytext source -> papermill with a validated params file.

    python -m lib run --tier mini                      # every runnable artefact
    python -m lib run --tier tiny --paper ssl_protocols
    python -m lib run --tier full --artefact figure02 --paper ssl_protocols

Every selected params file is validated against its notebook's `parameters` cell before any
notebook starts. Executed notebooks land in `build/<tier>/notebooks/<paper>/<artefact>.ipynb`;
figures go where each params file's `output_dir` says.
"""

from __future__ import annotations

import logging
from pathlib import Path

import jupytext
import papermill

from .manifest import Entry, select
from .params import load_for_notebook
from .paths import REPO_ROOT

log = logging.getLogger(__name__)
BUILD_DIR = REPO_ROOT / "build"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


def executed_path(entry: Entry, tier: str) -> Path:
    """Where the executed notebook of `entry` at `tier` is written."""
    return BUILD_DIR / tier / "notebooks" / entry.paper / f"{entry.artefact}.ipynb"


def run(tier: str, paper: str | None = None, artefact: str | None = None, cell_timeout: int = 3600) -> list[Path]:
    """Validate every selected params file, then execute each notebook; return the executed paths."""
    entries = select(tier, paper, artefact)
    params = {e: load_for_notebook(e.params_path(tier), e.notebook_path) for e in entries}
    written = []
    for entry in entries:
        output = executed_path(entry, tier)
        output.parent.mkdir(parents=True, exist_ok=True)
        source = output.with_suffix(".source.ipynb")
        notebook = jupytext.read(entry.notebook_path)
        notebook.metadata["kernelspec"] = KERNELSPEC
        notebook.metadata["language_info"] = {"name": "python"}
        jupytext.write(notebook, source)
        log.info("running %s/%s at tier %s", entry.paper, entry.artefact, tier)
        papermill.execute_notebook(
            str(source),
            str(output),
            parameters=params[entry],
            kernel_name="python3",
            cwd=str(REPO_ROOT),
            execution_timeout=cell_timeout,
            progress_bar=False,
        )
        source.unlink()
        written.append(output)
    return written
