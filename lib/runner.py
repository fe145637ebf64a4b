"""Run notebooks headlessly: jupytext source -> papermill with a validated params file.

    python -m lib run --tier mini                      # every runnable artefact
    python -m lib run --tier tiny --paper ssl_protocols
    python -m lib run --tier full --artefact figure02 --paper ssl_protocols

Every selected params file is validated against its notebook's `parameters` cell before any
notebook starts. Notebooks run in parallel worker processes (one per core by default), each worker's
notebooks one after the other in one kernel, reset to a fresh kernel's state before each
(`NotebookKernel`, `lib.kernel_state`), on the pinned thread count of `lib.threads`, with the
repository root as working directory; runs that several notebooks share are computed once
(`lib.atomic.load_or_make`). Before the notebooks, every worker process runs each selected paper's
`precompute` (the runs its notebooks will read), the workers sharing out the runs through the store,
so that no core idles while one notebook computes a long experiment alone; the notebooks then read
their runs back. Executed notebooks land in `build/<tier>/notebooks/<paper>/<artefact>.ipynb` (or
under `executed_dir`); figures go where each params file's `output_dir` says.
"""

from __future__ import annotations

import atexit
import importlib
import logging
import multiprocessing
import os
import sys
import tempfile
import time
import uuid
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from itertools import chain, zip_longest
from pathlib import Path
from typing import Any

import jupytext
import nbformat
import papermill
from jupyter_client import AsyncKernelManager, KernelManager
from jupyter_core.utils import run_sync

from .manifest import Entry, select
from .params import check_defaults, load_for_notebook, read_params_file
from .paths import PARAMS_DIR, REPO_ROOT, resolve
from .progress import LINES_PER_PROCESS, use_lines_from
from .threads import kernel_environment, run_threads

log = logging.getLogger(__name__)
BUILD_DIR = REPO_ROOT / "build"
HEARTBEAT_S = 60  # seconds between progress lines while nothing finishes
KERNEL_NAME = "robustness-companion"  # installed into the environment by `make setup` (the Makefile's KERNEL)
KERNELSPEC = {"name": KERNEL_NAME, "display_name": "Python (robustness companion)", "language": "python"}


class IPCTransport:
    """Kernel channels over IPC sockets (files named uniquely per kernel in the temporary directory) instead
    of TCP ports: kernels started at once by parallel processes (the runner's workers, the test processes)
    cannot race for a port, which with TCP killed one kernel before it replied ("Kernel died before replying
    to kernel_info")."""

    def __init__(self, **kwargs: Any) -> None:
        prefix = Path(tempfile.gettempdir()) / f"kernel-{uuid.uuid4().hex[:12]}"  # short: socket paths are capped
        super().__init__(transport="ipc", ip=str(prefix), **kwargs)


class AsyncIPCKernelManager(IPCTransport, AsyncKernelManager):
    """The asynchronous kernel manager papermill (nbclient) drives the runner's kernels with."""


class IPCKernelManager(IPCTransport, KernelManager):
    """The blocking kernel manager, for nbval's kernels (`tests/conftest.py`)."""


class NotebookKernel(AsyncIPCKernelManager):
    """The kernel a worker process runs its notebooks in, one after the other: started once, so that the kernel's
    start and the notebooks' common imports are paid once per worker, and put back before every notebook to the
    state a fresh kernel starts in (`lib.kernel_state`). Each notebook's own kernel client (nbclient makes one per
    notebook) is closed before the next."""

    def __init__(self) -> None:
        super().__init__(kernel_name=KERNEL_NAME)
        self._clients: list[Any] = []

    def client(self, **kwargs: Any) -> Any:
        client = super().client(**kwargs)
        self._clients.append(client)
        return client

    def _stop_clients(self) -> None:
        for client in self._clients:
            client.stop_channels()
        self._clients.clear()

    def fresh(self, timeout: int = 120) -> NotebookKernel:
        """The kernel, started if it is not running, in a fresh kernel's state (`FRESH_START`)."""
        self._stop_clients()
        if not run_sync(self.is_alive)():
            run_sync(self.start_kernel)(cwd=str(REPO_ROOT))
        client = self.client()
        client.start_channels()
        try:
            run_sync(client.wait_for_ready)(timeout=timeout)
            reply = run_sync(client.execute_interactive)(FRESH_START, silent=True, store_history=False,
                                                         timeout=timeout)
        finally:
            self._stop_clients()
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"the notebook kernel could not be reset: {reply['content'].get('evalue', reply)}")
        return self

    def shutdown(self) -> None:
        """Stop the kernel (if it runs) and its clients."""
        self._stop_clients()
        if run_sync(self.is_alive)():
            run_sync(self.shutdown_kernel)(now=True)


FRESH_START = "import lib.kernel_state\nlib.kernel_state.fresh_start()"
_kernel: NotebookKernel | None = None  # this worker process's kernel (`NotebookKernel`), kept between notebooks


def _notebook_kernel() -> NotebookKernel:
    """This process's notebook kernel, reset for the next notebook (started at the first)."""
    global _kernel
    if _kernel is None:
        _kernel = NotebookKernel()
        atexit.register(_kernel.shutdown)
    return _kernel.fresh()


def discard_kernel() -> None:
    """Stop this process's notebook kernel after a failure: the next notebook starts a new one."""
    global _kernel
    if _kernel is not None:
        atexit.unregister(_kernel.shutdown)
        _kernel.shutdown()
        _kernel = None


def executed_path(entry: Entry, tier: str, executed_dir: str | Path | None = None) -> Path:
    """Where the executed notebook of `entry` at `tier` is written."""
    root = resolve(executed_dir) if executed_dir else BUILD_DIR / tier / "notebooks"
    return root / entry.paper / f"{entry.artefact}.ipynb"


def interleaved(entries: list[Entry]) -> list[Entry]:
    """Round-robin over papers, so that parallel workers start on different papers' studies."""
    by_paper: dict[str, list[Entry]] = {}
    for entry in entries:
        by_paper.setdefault(entry.paper, []).append(entry)
    return [e for e in chain.from_iterable(zip_longest(*by_paper.values())) if e is not None]


def validated_params(entries: list[Entry], tier: str) -> dict[Entry, dict[str, Any]]:
    """Each entry's params at `tier` (its file over the paper's defaults), all validated, every
    defaults file checked for keys no notebook of its paper declares, and every settings file the
    params name (a paper's `SETTINGS`: study, benchmark, experiments) validated by its loader; raises
    before anything runs."""
    params = {e: load_for_notebook(e.params_path(tier), e.notebook_path) for e in entries}
    for paper in dict.fromkeys(e.paper for e in entries):
        check_defaults(PARAMS_DIR / tier / paper, [e.notebook_path for e in select(tier, paper)])
    checked = set()
    for entry, values in params.items():  # the settings files the params name, each validated once
        loaders = getattr(importlib.import_module(f"lib.{entry.paper}"), "SETTINGS", {})
        for key in sorted(loaders.keys() & values.keys()):
            if (key, values[key]) not in checked:
                checked.add((key, values[key]))
                loaders[key](values[key])
    return params


def default_workers() -> int:
    """One worker per core, each kernel using the pinned thread count."""
    return max(1, (os.cpu_count() or 1) // run_threads())


def run(tier: str, paper: str | None = None, artefact: str | None = None, cell_timeout: int = 3600,
        executed_dir: str | Path | None = None, workers: int | None = None) -> list[Path]:
    """Validate every selected params file, then execute the notebooks; return the executed paths
    in the manifest's order. The first failing notebook stops the run with its error."""
    entries = select(tier, paper, artefact)
    params = validated_params(entries, tier)
    jobs = [(entry, params[entry], executed_path(entry, tier, executed_dir), cell_timeout) for entry in entries]
    outputs = [job[2] for job in jobs]
    order = interleaved(entries)
    jobs.sort(key=lambda job: order.index(job[0]))
    context = multiprocessing.get_context("spawn")
    precompute_all(tier, entries, workers or default_workers(), context)
    workers = min(workers or default_workers(), len(jobs))
    log.info("running %d notebook(s) at tier %s on %d worker(s), %d thread(s) each", len(jobs), tier, workers, run_threads())
    started = time.perf_counter()
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        futures = {pool.submit(execute, *job): job[0] for job in jobs}
        pending, done = set(futures), 0
        try:
            while pending:
                finished, pending = wait(pending, timeout=HEARTBEAT_S, return_when=FIRST_COMPLETED)
                for future in finished:
                    seconds, done = future.result(), done + 1
                    log.info("[%d/%d] %s done in %.0f s (%.0f s so far)", done, len(jobs), _name(futures[future]),
                             seconds, time.perf_counter() - started)
                if pending:
                    log.info("    %d left (%.0f s so far)", len(pending), time.perf_counter() - started)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return outputs


def _name(entry: Entry) -> str:
    return f"{entry.paper}/{entry.artefact}"


def _precompute(tier: str, plan: dict[str, list[str]], worker: int) -> int:
    """In a worker process on the pinned thread count: each paper's `precompute` over its artefacts,
    its progress bars on the terminal lines of worker number `worker`."""
    os.environ.update(kernel_environment())
    use_lines_from(worker * LINES_PER_PROCESS)
    from .threads import pinned

    with pinned():
        return sum(importlib.import_module(f"lib.{paper}").precompute(
            read_params_file(PARAMS_DIR / tier / paper / "defaults.yaml"), artefacts) for paper, artefacts in plan.items())


def precompute_all(tier: str, entries: list[Entry], workers: int, context: Any) -> None:
    """Compute, in `workers` processes sharing the work, the runs the notebooks of `entries` will read:
    each paper whose package has a `precompute(params, artefacts)` (papers in round-robin order)."""
    plan: dict[str, list[str]] = {}
    for entry in interleaved(entries):
        if hasattr(importlib.import_module(f"lib.{entry.paper}"), "precompute"):
            plan.setdefault(entry.paper, []).append(entry.artefact)
    if not plan:
        return
    log.info("computing the runs of %s on %d worker(s) before the notebooks", ", ".join(plan), workers)
    started = time.perf_counter()
    stores = [PARAMS_DIR / tier / paper / "defaults.yaml" for paper in plan]
    roots = {resolve(read_params_file(path).get("results_dir", "results")) for path in stores}
    before = _stored_runs(roots)
    bars = sys.stderr.isatty()  # the workers' progress bars say it on a terminal, where a line would break them
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        futures = [pool.submit(_precompute, tier, plan, worker) for worker in range(workers)]
        while wait(futures, timeout=HEARTBEAT_S)[1]:
            if not bars:
                log.info("    %d run(s) computed so far (%.0f s)", _stored_runs(roots) - before,
                         time.perf_counter() - started)
        computed = sum(f.result() for f in futures)
    log.info("computed %d run(s) in %.0f s", computed, time.perf_counter() - started)


def _stored_runs(roots: set[Path]) -> int:
    """How many runs the results stores under `roots` hold (one parquet file each)."""
    return sum(1 for root in roots for _ in root.glob("*/runs/*.parquet"))


def make_reference(path: Path) -> None:
    """Turn an executed notebook into a reference for nbval (tests/notebooks/): empty the PNG
    payloads (nbval never compares images, and they would put megabytes into the history at every
    re-execution; the display outputs and their `image/png` key stay, and are tested), and drop what
    changes at every execution without changing an output (timings, paths, random cell ids), so a
    re-made reference differs only where an output did."""
    notebook = nbformat.read(path, as_version=4)
    notebook.metadata.pop("papermill", None)
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{index}"
        cell.metadata.pop("papermill", None)
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            if "image/png" in output.get("data", {}):
                output["data"]["image/png"] = ""
    nbformat.write(notebook, path)


class CodeChangedError(ValueError):
    """A reference's code cells are not its notebook's: only re-executing it can remake it."""


def refresh_prose(reference: Path, notebook_path: Path) -> bool:
    """Give `reference` (an executed notebook, e.g. nbval's) the markdown cells its notebook has now, where
    only markdown changed: its code cells and their outputs are kept, since markdown runs nothing. This
    brings a CPU class's references up to date after a prose edit without that class's machine
    (tests/notebooks_by_cpu/README.md). Return whether it changed; raise CodeChangedError where a code
    cell, or the cells' order, changed."""
    executed = nbformat.read(reference, as_version=4)
    cells = [c for c in executed.cells if "injected-parameters" not in c.metadata.get("tags", [])]
    source = jupytext.read(notebook_path).cells

    def code(cells: list) -> list[tuple[str, str]]:
        return [(c.cell_type, c.source if c.cell_type == "code" else "") for c in cells]

    if code(cells) != code(source):
        raise CodeChangedError(f"{reference}: the code cells of {notebook_path} changed since it was executed; "
                               f"re-execute it on its machine (make test-notebooks, make test-notebooks-cpu)")
    changed = [(old, new) for old, new in zip(cells, source) if old.cell_type == "markdown" and old.source != new.source]
    for old, new in changed:
        old.source = new.source
    if changed:
        nbformat.write(executed, reference)
    return bool(changed)


def execute(entry: Entry, params: dict[str, Any], output: Path, cell_timeout: int) -> float:
    """Execute one notebook with papermill in this worker process's kernel (`NotebookKernel`); return the seconds
    it took."""
    os.environ.update(kernel_environment())
    print(f"started {_name(entry)}", file=sys.stderr, flush=True)  # the worker's own line: what it is on now
    output.parent.mkdir(parents=True, exist_ok=True)
    source = output.with_suffix(".source.ipynb")
    notebook = jupytext.read(entry.notebook_path)
    notebook.metadata["kernelspec"] = KERNELSPEC
    notebook.metadata["language_info"] = {"name": "python"}
    jupytext.write(notebook, source)
    started = time.perf_counter()
    try:
        papermill.execute_notebook(str(source), str(output), parameters=params, kernel_name=KERNEL_NAME,
                                   cwd=str(REPO_ROOT), execution_timeout=cell_timeout, progress_bar=False,
                                   km=_notebook_kernel(),
                                   # written once, at the end (a failing one too, with its error): rewriting
                                   # it at every cell's start and end cost about 0.3 s a notebook
                                   request_save_on_cell_execute=False)
    except papermill.PapermillExecutionError as error:  # re-raised as a plain error: it crosses processes
        discard_kernel()
        raise RuntimeError(f"{entry.paper}/{entry.artefact} failed (executed notebook: {output}):\n{error}") from None
    except BaseException:
        discard_kernel()
        raise
    finally:
        source.unlink(missing_ok=True)
    return time.perf_counter() - started
