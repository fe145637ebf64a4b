"""Progress bars (lib.progress): drawn on a terminal's stderr, counting to the end; nothing where
stderr is no terminal (a notebook kernel, a log file, a captured test); the runs of a study counted."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pandas as pd
import pytest

from lib import progress as progress_module
from lib.progress import LINES_PER_PROCESS, progress
from lib.store import RunContext, Store, StoredRuns


class Terminal(io.StringIO):
    """A captured stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@contextmanager
def terminal() -> Iterator[Terminal]:
    """stderr replaced by a `Terminal` in the test's own body (pytest's capture sets sys.stderr anew
    between a fixture's set-up and the test)."""
    stream, saved = Terminal(), sys.stderr
    sys.stderr = stream
    try:
        yield stream
    finally:
        sys.stderr = saved


def _last_count(text: str, desc: str) -> str:
    """The last `n/total` a bar labelled `desc` drew."""
    counts = re.findall(rf"{re.escape(desc)}: [^\r\n]*?(\d+/\d+)", text)
    assert counts, f"no bar {desc!r} in {text!r}"
    return counts[-1]


def test_a_bar_counts_to_the_end_on_a_terminal():
    with terminal() as stderr:
        assert list(progress(range(7), desc="items")) == list(range(7))
    assert _last_count(stderr.getvalue(), "items") == "7/7"


def test_no_bar_where_stderr_is_no_terminal(monkeypatch: pytest.MonkeyPatch):
    captured = io.StringIO()  # a kernel's or a log file's stderr: isatty() is False
    monkeypatch.setattr(sys, "stderr", captured)
    assert list(progress(range(3), desc="items")) == [0, 1, 2]
    assert captured.getvalue() == ""


def test_nested_bars_take_the_next_lines_and_deeper_ones_are_not_drawn(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(progress_module, "_first_line", 4)  # a worker's lines: from line 4 down
    with terminal() as stderr:
        for _ in (outer := progress(range(1), desc="outer")):
            for _ in (inner := progress(range(1), desc="inner")):
                deepest = progress(range(1), desc="deepest")
                drawn = [outer.pos, inner.pos, deepest.disable]
                list(deepest)
    assert drawn == [-4, -5, True] and LINES_PER_PROCESS == 2  # tqdm keeps a fixed position negated
    assert "inner" in stderr.getvalue() and "deepest" not in stderr.getvalue()


class TinyStudy(StoredRuns):
    """Three runs of a made-up study in a store."""

    def __init__(self, store: Store) -> None:
        self.store, self.context = store, RunContext()

    def jobs(self):
        return [({"seed": seed}, lambda: pd.DataFrame({"item": [0, 1], "target": [0, 1]})) for seed in range(3)]


def test_precompute_shows_the_runs_of_a_study_gone_through(tmp_path):
    study = TinyStudy(Store(tmp_path, "paper"))
    with terminal() as stderr:
        assert study.precompute() == 3
        assert study.precompute("again") == 0  # stored already: gone through, none computed
    assert _last_count(stderr.getvalue(), "paper runs") == "3/3"
    assert _last_count(stderr.getvalue(), "again") == "3/3"
