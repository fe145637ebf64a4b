"""Atomic file writes and compute-once files.

A reader never sees a half-written file and a killed writer leaves none (`atomic_write`); a file
that several processes may want at once is computed by one of them while the others wait for it
(`load_or_make`), so parallel notebooks never compute the same run twice.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Callable, TypeVar

from filelock import FileLock, Timeout

T = TypeVar("T")


def atomic_write(path: str | Path, write: Callable[[str], None]) -> None:
    """Call `write(tmp_path)` on a temporary file beside `path`, then rename it into place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def load_or_make(path: str | Path, load: Callable[[Path], T], make: Callable[[], T],
                 write: Callable[[T, str], None], wait: bool = True, pin_threads: bool = True) -> T | None:
    """`load(path)` if the file exists; else `make()`, written atomically with `write(value, tmp)`.

    The making happens under an inter-process lock (`<path>.lock`), on the pinned thread count
    (`lib.threads`, which imports torch; `pin_threads=False` for a computation without torch or
    BLAS-sized reductions); a process that finds the lock taken waits, then loads what the other
    made, or with `wait=False` returns None at once (the other process is making it).
    """
    from .threads import pinned

    path = Path(path)
    if path.is_file():
        return load(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(f"{path}.lock")
    try:
        lock.acquire(timeout=-1 if wait else 0)
    except Timeout:
        return None
    try:
        if path.is_file():
            return load(path)
        with pinned() if pin_threads else contextlib.nullcontext():
            value = make()
        atomic_write(path, lambda tmp: write(value, tmp))
    finally:
        lock.release()
    return value
