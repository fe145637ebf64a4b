"""What each instruction-set variable of `lib.isa` changes: one small training and one scikit-learn fit, run in
a fresh process per setting, their results hashed.

    python benchmarks/instruction_set.py            # about half a minute on one core

The probe, on one thread and seed 0: a 2-conv ConvNet with batch norm trained 200 SGD steps on random
16-px images (ATen's kernels, oneDNN's convolutions, MKL's matrix products), then a logistic regression
on a random 400 x 64 problem (scikit-learn, OpenBLAS). Settings: `native` (nothing set: each library
picks the widest code this CPU has), each variable of `lib.isa.pins()` (this CPU's values) alone, and all
of them (`lib.isa`'s pin). Two settings that print the same hashes ran the same arithmetic; a hash that
differs from `pinned` means that library's choice changes results, so an unpinned run on a CPU of another
width differs too.
The probe imports neither `lib` nor anything that would set a variable itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lib.isa import PINS, pins  # noqa: E402  (lib pins this process; the probes get their own environments)

PROBE = """
import hashlib, numpy as np, torch, threadpoolctl
from sklearn.linear_model import LogisticRegression
torch.set_num_threads(1); threadpoolctl.threadpool_limits(1); torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.BatchNorm2d(16), torch.nn.ReLU(),
                          torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
                          torch.nn.Flatten(), torch.nn.Linear(32, 10))
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
x, y = torch.randn(256, 3, 16, 16), torch.randint(0, 10, (256,))
for _ in range(200):
    idx = torch.randint(0, 256, (32,))
    loss = torch.nn.functional.cross_entropy(net(x[idx]), y[idx])
    opt.zero_grad(); loss.backward(); opt.step()
rng = np.random.default_rng(0); a = rng.normal(size=(400, 64)); b = (a @ rng.normal(size=64) > 0).astype(int)
coef = LogisticRegression(max_iter=200).fit(a, b).coef_
digest = lambda array: hashlib.md5(np.ascontiguousarray(array).tobytes()).hexdigest()[:8]
print(torch.backends.cpu.get_cpu_capability(), f"{loss.item():.10f}", digest(net[-1].weight.detach().numpy()),
      digest(coef))
"""


def settings() -> dict[str, dict[str, str]]:
    """Setting name -> the variables it sets."""
    pinned = pins()
    return {"native": {}, **{name: {name: value} for name, value in pinned.items()}, "pinned": pinned}


def probe(variables: dict[str, str]) -> list[str]:
    """The probe's printed fields (ATen capability, final loss, head digest, regression digest) in a
    process whose environment has `variables` and none of the other pins."""
    env = {name: value for name, value in os.environ.items() if name not in PINS} | variables
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return out.stdout.split()


def main() -> None:
    print("| setting | ATen kernels | loss after 200 steps | ConvNet head | logistic regression | seconds |")
    print("|---|---|---|---|---|---|")
    for name, variables in settings().items():
        started = time.perf_counter()
        fields = probe(variables)
        print(f"| {name} | " + " | ".join(fields) + f" | {time.perf_counter() - started:.1f} |")


if __name__ == "__main__":
    main()
