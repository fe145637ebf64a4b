"""`make lab` serves JupyterLab on the notebooks with the project's kernel: started headless here, and
its REST API lists every paper's notebooks and the kernel the runner and nbval use."""

import json
import socket
import subprocess
import time
import urllib.request

from lib.paths import REPO_ROOT
from lib.runner import KERNEL_NAME

TOKEN = "companion-test"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port: int, path: str) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}?token={TOKEN}", timeout=5) as response:
        return json.load(response)


def test_make_lab_lists_the_notebooks_and_the_kernel():
    port = _free_port()
    args = f"--no-browser --port={port} --ServerApp.ip=127.0.0.1 --ServerApp.token={TOKEN}"
    server = subprocess.Popen(["make", "-s", "lab", f"LAB_ARGS={args}"], cwd=REPO_ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                root = _get(port, "/api/contents")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "JupyterLab did not start"
                time.sleep(0.5)
        folders = {item["name"] for item in root["content"] if item["type"] == "directory"}
        assert {"imagenet_rib", "ssl_protocols"} <= folders
        listed = {item["name"] for item in _get(port, "/api/contents/imagenet_rib")["content"]}
        assert {"table03.ipynb", "table03.py"} <= listed
        assert KERNEL_NAME in _get(port, "/api/kernelspecs")["kernelspecs"]
    finally:
        import os
        import signal

        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
