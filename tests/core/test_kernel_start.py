"""nbval's kernel start, retried: a kernel that dies at start (two test processes took the same port) is
started again; one that never starts still fails."""

import nbval.kernel
import pytest


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
