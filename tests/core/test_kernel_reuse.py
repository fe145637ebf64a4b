"""The runner's notebooks share their worker's kernel (`lib.runner.NotebookKernel`): each one starts as in a fresh
kernel (`lib.kernel_state`), and a notebook that fails leaves a new kernel to the next."""

import json
import textwrap

import nbformat
import pytest

from lib import runner
from lib.manifest import Entry

STATE = ('print(json.dumps([sorted(n for n in globals() if n.startswith("left_")), plt.get_fignums(), '
         'plt.rcParams["lines.linewidth"], np.get_printoptions()["precision"], pd.get_option("display.width"), '
         'os.getpid()]))')


@pytest.fixture
def notebook(tmp_path):
    """Write a notebook of `cells` and execute it through the runner; its cells back."""
    (tmp_path / "warns_here.py").write_text("import warnings\n\ndef warn():\n    warnings.warn('a warning')\n")
    preamble = (f"import json, os, sys\nsys.path.insert(0, {str(tmp_path)!r})\nimport warns_here\n"
                "import matplotlib.pyplot as plt\nimport numpy as np\nimport pandas as pd")

    def execute(name: str, *cells: str) -> list:
        path = tmp_path / f"{name}.ipynb"
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (preamble, *cells)])
        nbformat.write(notebook, path)
        entry = Entry("kernel", name, "figure", "", str(path), ("tiny",), "done")
        runner.execute(entry, {}, tmp_path / f"{name}.out.ipynb", cell_timeout=120)
        return nbformat.read(tmp_path / f"{name}.out.ipynb", as_version=4).cells

    yield execute
    runner.discard_kernel()


def _printed(cell) -> list:
    return json.loads("".join(o["text"] for o in cell.outputs if o["output_type"] == "stream"))


def _warned(cell) -> bool:
    return any(o.get("name") == "stderr" and "UserWarning: a warning" in o["text"] for o in cell.outputs)


def test_a_notebook_starts_as_in_a_fresh_kernel_after_another_in_the_same_kernel(notebook):
    first = notebook("first", STATE, textwrap.dedent("""\
        left_behind = 1
        plt.figure()
        plt.rcParams["lines.linewidth"] = 9.0
        np.set_printoptions(precision=2)
        pd.set_option("display.width", 200)"""), "warns_here.warn()")
    second = notebook("second", STATE, "warns_here.warn()")
    fresh, after = _printed(first[1]), _printed(second[1])
    assert fresh[:5] == [[], [], fresh[2], 8, 80] and fresh[2] != 9.0
    assert after == fresh  # the same kernel process (same pid), in the state it started in
    assert _warned(first[3]) and _warned(second[2])  # shown again, as a fresh kernel would
    assert [c.execution_count for c in second] == [1, 2, 3]


def test_after_a_failing_notebook_the_next_runs_in_a_new_kernel(notebook):
    before = _printed(notebook("before", STATE)[1])[-1]
    with pytest.raises(RuntimeError, match="kernel/failing failed"):
        notebook("failing", "raise ValueError('stop')")
    after = _printed(notebook("after", STATE)[1])[-1]
    assert after != before
