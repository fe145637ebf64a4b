"""The manifest tells the truth: runnable rows have notebooks and params per tier."""

import json
from pathlib import Path

import jupytext
import pandas as pd
import pytest

from lib import PAPERS
from lib.manifest import COLUMNS, RUNNABLE, STATUSES, read
from lib.params import load_for_notebook
from lib.paths import MANIFEST, NOTEBOOKS_DIR, REPO_ROOT

ENTRIES = read()
RUNNABLE_ENTRIES = [e for e in ENTRIES if e.status in RUNNABLE]
NOTEBOOK_SOURCES = sorted(NOTEBOOKS_DIR.glob("*/*.py"))


def test_manifest_shape():
    frame = pd.read_csv(MANIFEST, dtype=str, keep_default_na=False)
    assert list(frame.columns) == COLUMNS
    assert not frame.duplicated(["paper", "artefact"]).any()
    assert set(frame["paper"]) == set(PAPERS)
    assert set(frame["status"]) <= set(STATUSES)
    assert len(frame) >= 150


def test_rows_without_a_notebook_have_no_tiers():
    for e in ENTRIES:
        if e.status not in RUNNABLE:
            assert not e.tiers, f"{e.paper}/{e.artefact} is {e.status} but lists tiers"
        if e.status == "diagram":
            assert e.caption, f"{e.paper}/{e.artefact}: a diagram row needs its description"


@pytest.mark.parametrize("entry", RUNNABLE_ENTRIES, ids=[f"{e.paper}/{e.artefact}" for e in RUNNABLE_ENTRIES])
def test_runnable_rows_have_notebook_and_valid_params_for_each_tier(entry):
    assert entry.notebook_path.is_file(), entry.notebook
    assert entry.tiers, "a runnable row lists the tiers it has params for"
    for tier in entry.tiers:
        load_for_notebook(entry.params_path(tier), entry.notebook_path)


@pytest.mark.parametrize("source", NOTEBOOK_SOURCES, ids=lambda p: str(p.relative_to(NOTEBOOKS_DIR)))
def test_notebook_pairs_are_in_sync_and_committed_without_outputs(source: Path):
    paired = source.with_suffix(".ipynb")
    assert paired.is_file(), f"{paired} missing: run `make sync`"
    stored = json.loads(paired.read_text())
    for cell in stored["cells"]:
        assert not cell.get("outputs") and not cell.get("execution_count"), f"{paired} has outputs"
    from_source = [(c.cell_type, c.source) for c in jupytext.read(source).cells]
    from_paired = [(c.cell_type, c.source) for c in jupytext.read(paired).cells]
    assert from_source == from_paired, f"{paired} is out of sync with {source.name}: run `make sync`"


def test_every_notebook_is_in_the_manifest():
    listed = {e.notebook for e in ENTRIES if e.notebook}
    for source in NOTEBOOK_SOURCES:
        assert str(source.relative_to(REPO_ROOT)) in listed, source


@pytest.mark.parametrize("paper, artefact, message", [
    ("imagenet_rib", "table4", "unknown artefact 'table4' of imagenet_rib; did you mean 'table04'?"),
    ("imagenet_rib", "tabel03", "did you mean 'table03'?"),
    (None, "figure02", "artefact 'figure02' exists in imagenet_rib and"),
    ("imagenet_rib", "table25", "imagenet_rib/table25 is not runnable at tier mini: its status is 'absent'"),
])
def test_selection_errors_name_the_fix(paper, artefact, message):
    from lib.manifest import SelectionError, select

    with pytest.raises(SelectionError) as error:
        select("mini", paper, artefact)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_selection_error_is_one_line_on_the_command_line(capsys):
    from lib.cli import main

    assert main(["check-params", "--tier", "tiny", "--artefact", "figure02"]) == 2
    assert capsys.readouterr().err.startswith("error: artefact 'figure02' exists in")


@pytest.mark.parametrize("argv, message", [
    (["run", "--tier", "mini", "--paper", "imagenet_ri"], "unknown paper 'imagenet_ri'; did you mean 'imagenet_rib'?"),
    (["check-params", "--tier", "mnii"], "unknown tier 'mnii'; did you mean 'mini'? choose from tiny, mini, full"),
    (["audit", "--paper", "xyz"], "unknown paper 'xyz'; choose from imagenet_rib, seq_to_final"),
    (["run", "--tier", "mini", "--bogus"], "unrecognized arguments: --bogus"),
])
def test_a_misspelt_argument_is_one_line_with_the_valid_names(argv, message, capsys):
    from lib.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and message in err and err.count("\n") == 1 and "usage" not in err


@pytest.mark.parametrize("entry", [e for e in RUNNABLE_ENTRIES if "mini" in e.tiers], ids=lambda e: f"{e.paper}/{e.artefact}")
def test_a_notebooks_parameter_defaults_are_its_mini_parameters(entry):
    """Opened interactively (no parameters injected), a notebook draws what `make figures` draws at mini."""
    from lib.params import declared_parameters

    source = REPO_ROOT / entry.notebook
    defaults = {p.name: p.default for p in declared_parameters(source).values()}
    mini = load_for_notebook(entry.params_path("mini"), source)
    differ = {k: (defaults[k], v) for k, v in mini.items() if k in defaults and defaults[k] != v}
    assert not differ, f"{entry.notebook}: defaults differ from params/mini (default, mini): {differ}"


@pytest.mark.parametrize("source", NOTEBOOK_SOURCES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_opened_interactively_a_notebook_runs_the_mini_tier_on_the_project_kernel(source):
    from lib.params import declared_parameters
    from lib.runner import KERNEL_NAME

    defaults = {p.name: p.default for p in declared_parameters(source).values()}
    tiny = {k: v for k, v in defaults.items() if isinstance(v, str) and "tiny" in v}
    assert not tiny, f"{source.name}: parameter defaults of the tiny tier {tiny}; notebooks default to mini"
    paired = json.loads(source.with_suffix(".ipynb").read_text())
    assert paired["metadata"].get("kernelspec", {}).get("name") == KERNEL_NAME
