"""A mini study reaches the same verdict on every finding whatever the machine's cores, because every
cached computation runs on the pinned thread count (`lib.threads`: `ROBUSTNESS_THREADS`, recorded with
each run).

Floating-point sums over a different number of threads differ in their last bits, and a model trained
on two threads is not the one trained on one; on the small tiers that can move a finding across its
threshold. The study is fm_perturbations' mini study, the smallest of the mini tier (three models trained
here, nine perturbations, 120 test images per domain, findings bootstrapped over images), computed afresh
in two processes at once: one started on one thread, one started on two (as a machine with more cores
would), both with the pinned count 1. A verdict that moved would mean a computation escaped the pin.

Pinning is what makes verdicts reproducible: with the pinned count itself changed (1 vs 2), one finding of
the mini study does move (Fig. 14, R_cs of the ResNet minus the ViT under fog: upper bound -0.003 on one
thread, above 0 on two; contradicted vs not distinguishable), because the models train differently.

A decision (supported, partly supported, contradicted) must be the same under both; an abstention
must stay an abstention, though it may move between its two kinds (`not_checkable`: an undefined
statistic, e.g. tied scores; `not_distinguishable`: too uncertain), which can hinge on a last-bit tie.
"""

import json
import os
import subprocess
import sys

from lib.paths import REPO_ROOT
from lib.threads import THREADS_ENV, kernel_environment

SCRIPT = ("import json, sys, warnings; warnings.simplefilter('ignore');"
          "from lib.fm_perturbations.ours import verdicts;"
          "print(json.dumps(verdicts('params/mini/fm_perturbations/study.yaml', sys.argv[1])))")


def _start(threads: int, results: str) -> subprocess.Popen:
    """The study in a process started on `threads` threads, its cached computations pinned to one."""
    env = os.environ | {name: str(threads) for name in kernel_environment()} | {THREADS_ENV: "1"}
    return subprocess.Popen([sys.executable, "-c", SCRIPT, results], cwd=REPO_ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _verdicts(process: subprocess.Popen) -> dict[str, list[str]]:
    out, err = process.communicate(timeout=900)
    assert process.returncode == 0, err[-2000:]
    return json.loads(out.strip().splitlines()[-1])


ABSTENTIONS = {"not_distinguishable", "not_checkable"}


def _decision(verdict: str) -> str:
    return "abstention" if verdict in ABSTENTIONS else verdict


def test_no_verdict_changes_with_the_thread_count(tmp_path):
    runs = [_start(1, str(tmp_path / "one")), _start(2, str(tmp_path / "two"))]
    one, two = (_verdicts(p) for p in runs)
    assert one.keys() == two.keys()
    changed = {a: (one[a], two[a]) for a in one if list(map(_decision, one[a])) != list(map(_decision, two[a]))}
    assert not changed, f"verdicts that moved with the thread count (1 thread, 2 threads): {changed}"
