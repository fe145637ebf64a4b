"""Progress bars for the long loops (runs of a study or benchmark, evaluation sets, feature batches).

A bar is drawn on the command's stderr only when stderr is a terminal (tqdm's `disable=None`): never
into a notebook's outputs (a kernel's stderr is no terminal, so executed notebooks and their nbval
references stay as they are), a log file or a captured test. Bars nest: the outermost bar of a
process on its first line, a bar opened inside it on the line below, and deeper ones are not drawn.
The worker processes of `python -m lib run` compute runs side by side, each on its own pair of lines
(`use_lines_from`), so each worker shows its own bar without overwriting another's.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")
LINES_PER_PROCESS = 2  # an outer bar (e.g. a study's runs) and one inner bar (e.g. a run's evaluation sets)
_first_line = 0  # the terminal line of this process's outermost bar
_in_worker = False  # a worker's bars are cleared when done (only a lone process's outermost bar stays)


def use_lines_from(line: int) -> None:
    """Draw this process's bars from terminal line `line` down (a worker of a parallel run: its own
    lines), each cleared when done."""
    global _first_line, _in_worker
    _first_line, _in_worker = line, True


def progress(items: Iterable[T], desc: str, total: int | None = None, unit: str = "it") -> Iterator[T]:
    """`items`, with a bar on stderr counting them (to `total`, or `len(items)` where it has one)."""
    depth = sum(1 for bar in getattr(tqdm, "_instances", ()) if not bar.disable)  # the open bars of this process
    line = _first_line + depth
    disable = None if depth < LINES_PER_PROCESS else True  # None: tqdm draws only on a terminal
    return tqdm(items, desc=desc, total=total, unit=unit, file=sys.stderr, disable=disable, position=line,
                leave=line == 0 and not _in_worker, dynamic_ncols=True, mininterval=0.5)
