"""Notebook kernels: on IPC sockets, so that kernels started at once by parallel processes cannot race for a TCP
port (the runner's papermill kernels and nbval's), and nbval's kernel start retried: a kernel that dies at start
is started again; one that never starts still fails."""

from concurrent.futures import ThreadPoolExecutor

import nbformat
import nbval.kernel
import papermill
import pytest

from lib.runner import KERNEL_NAME, KERNELSPEC, AsyncIPCKernelManager


def test_nbval_kernels_started_at_once_each_get_their_own_ipc_sockets():
    with ThreadPoolExecutor(3) as pool:
        started = list(pool.map(lambda _: nbval.kernel.start_new_kernel(kernel_name=KERNEL_NAME), range(3)))
    try:
        assert {km.transport for km, _ in started} == {"ipc"} and len({km.ip for km, _ in started}) == 3
        for _, client in started:
            assert client.execute_interactive("answer = 6 * 7", timeout=30)["content"]["status"] == "ok"
    finally:
        for manager, client in started:
            client.stop_channels()
            manager.shutdown_kernel(now=True)


def test_the_runners_papermill_kernel_runs_on_ipc(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    notebook.metadata["kernelspec"] = KERNELSPEC
    nbformat.write(notebook, tmp_path / "in.ipynb")
    assert AsyncIPCKernelManager(kernel_name=KERNEL_NAME).transport == "ipc"
    executed = papermill.execute_notebook(str(tmp_path / "in.ipynb"), str(tmp_path / "out.ipynb"),
                                          kernel_name=KERNEL_NAME, progress_bar=False,
                                          kernel_manager_class=AsyncIPCKernelManager)
    assert executed.cells[0].outputs[0]["text"] == "42\n"


def test_a_kernel_that_dies_at_start_is_started_again_and_one_that_never_starts_fails(request):
    retrying = request.config.pluginmanager.get_plugin(f"{request.config.rootpath}/tests/conftest.py")
    assert nbval.kernel.start_new_kernel.__qualname__.startswith("kernel_start_with_retries")  # the one nbval calls
    tries = []

    def dies_once(**kwargs):
        tries.append(kwargs)
        if len(tries) == 1:
            raise RuntimeError("Kernel died before replying to kernel_info")
        return "manager", "client"

    assert retrying.kernel_start_with_retries(dies_once)(kernel_name="k") == ("manager", "client") and len(tries) == 2

    def never_starts(**kwargs):
        tries.append(kwargs)
        raise RuntimeError("Kernel died before replying to kernel_info")

    tries.clear()
    with pytest.raises(RuntimeError, match="Kernel died"):
        retrying.kernel_start_with_retries(never_starts, attempts=3)()
    assert len(tries) == 3
