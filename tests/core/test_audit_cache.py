"""The audit rows kept under build/audit/: computed once per state of lib's source, read back exactly."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from lib import audit
from lib.audit import COLUMNS, AuditRow, audit_frame, check, not_checkable


def _rows() -> list[AuditRow]:
    _rows.calls += 1
    return [check("demo", "table01", "a sum", "3.0", 3.04), not_checkable("demo", "table01", "a mean", "2.5", "no inputs")]


_rows.calls = 0


@pytest.fixture
def kept(tmp_path, monkeypatch):
    """A fresh cache folder and in-process cache; the function's call count from zero."""
    monkeypatch.setattr(audit, "AUDIT_CACHE", tmp_path)
    audit._kept_audit.cache_clear()
    _rows.calls = 0
    yield tmp_path
    audit._kept_audit.cache_clear()


def test_rows_are_computed_once_and_read_back_exactly(kept):
    first = audit_frame("demo", _rows)
    audit._kept_audit.cache_clear()  # a new process: only the file remains
    second = audit_frame("demo", _rows)
    assert _rows.calls == 1
    assert len(list(kept.glob("demo-_rows-*.parquet"))) == 1
    expected = pd.DataFrame([dataclasses.asdict(r) for r in _rows()], columns=COLUMNS)
    pd.testing.assert_frame_equal(first, expected)
    pd.testing.assert_frame_equal(second, expected)


def test_a_changed_source_recomputes(kept, monkeypatch):
    audit_frame("demo", _rows)
    audit._kept_audit.cache_clear()
    monkeypatch.setattr(audit, "source_digest", lambda: "an edited lib/")
    audit_frame("demo", _rows)
    assert _rows.calls == 2
    assert len(list(kept.glob("demo-_rows-*.parquet"))) == 2


def test_each_caller_gets_its_own_copy(kept):
    frame = audit_frame("demo", _rows)
    frame.loc[0, "status"] = "edited"
    assert audit_frame("demo", _rows).loc[0, "status"] == "ok"


def test_source_digest_follows_the_published_numbers(tmp_path, monkeypatch):
    (tmp_path / "lib" / "published").mkdir(parents=True)
    table = tmp_path / "lib" / "published" / "t.csv"
    table.write_text("a\n1.0\n")
    monkeypatch.setattr(audit, "REPO_ROOT", tmp_path)
    before = audit.source_digest()
    table.write_text("a\n1.1\n")
    assert audit.source_digest() != before
