"""One figure style for the project, and saving a figure with the data behind it.

Every figure is written as `<stem>.png`, `<stem>.pdf` and `<stem>.csv` (the tidy data drawn), each
atomically and without timestamps, so re-running a notebook gives identical files.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402

from .atomic import atomic_write  # noqa: E402


def set_style() -> None:
    """The project's plotting style: seaborn's paper context, white grid, 150 dpi."""
    sns.set_theme(context="paper", style="whitegrid", font_scale=1.1)
    plt.rcParams.update({"figure.dpi": 110, "savefig.dpi": 150, "savefig.bbox": "tight", "svg.hashsalt": "0"})


def save_figure(fig: plt.Figure, data: pd.DataFrame, out_dir: str | Path, stem: str) -> list[Path]:
    """Write `fig` as PNG and PDF and `data` as CSV under `out_dir`; return the three paths."""
    out_dir = Path(out_dir)
    written = []
    for suffix, metadata in ((".png", {"Software": None}), (".pdf", {"CreationDate": None, "Producer": None})):
        path = out_dir / f"{stem}{suffix}"
        atomic_write(path, lambda tmp, s=suffix, m=metadata: fig.savefig(tmp, format=s[1:], metadata=m))
        written.append(path)
    csv_path = out_dir / f"{stem}.csv"
    atomic_write(csv_path, lambda tmp: data.to_csv(tmp, index=False))
    written.append(csv_path)
    return written
