"""Tables 2 and 3 as one tidy frame, and the paper's quoted numbers.

`accuracies()`: one row per printed cell of Tables 2 (ImageNet) and 3 (Food101), columns `dataset`,
`head` (zero-shot: CLIP ViT-L/14; linear probe: DINO v2 ViT-g/14), `perturbation` (blank for the
clean ACC), `quantity` (`ACC`, `ACC_p`, `drop`), `printed` and `value` (percent; a drop is in
percentage points, printed with a down arrow that the CSV leaves out).
"""

from __future__ import annotations

import functools

import pandas as pd

from .. import published

PAPER = "fm_perturbations"
TABLES = {"table02": "ImageNet", "table03": "Food101"}
HEADS = {"Zero-shot Classification": "CLIP ViT-L/14", "Linear-probe Classification": "DINO v2 ViT-g/14"}
PERTURBATIONS = ("JPEG compression", "Brightness adjustment", "Contrast adjustment", "Defocus blurring",
                 "Elastic blurring", "Fog blurring", "Frost blurring", "Gaussian noise", "Glass blurring")


@functools.cache
def _accuracies() -> pd.DataFrame:
    return pd.concat([published.load(PAPER, t).assign(artefact=t) for t in TABLES], ignore_index=True)


def accuracies() -> pd.DataFrame:
    """Every printed cell of Tables 2 and 3 (a fresh copy)."""
    return _accuracies().copy()


def drops() -> pd.DataFrame:
    """One row per dataset, head and perturbation: ACC, ACC_p, the printed drop and ACC - ACC_p."""
    frame = accuracies()
    clean = frame[frame["quantity"] == "ACC"].set_index(["dataset", "head"])["value"].rename("ACC")
    wide = frame[frame["quantity"] != "ACC"].pivot_table(
        index=["artefact", "dataset", "head", "perturbation"], columns="quantity", values="value", sort=False)
    printed = frame[frame["quantity"] == "drop"].set_index(["artefact", "dataset", "head", "perturbation"])["printed"]
    out = wide.join(printed.rename("printed_drop")).reset_index().join(clean, on=["dataset", "head"])
    out["recomputed_drop"] = out["ACC"] - out["ACC_p"]
    return out[["artefact", "dataset", "head", "perturbation", "ACC", "ACC_p", "drop", "printed_drop",
                "recomputed_drop"]]


def largest_drop(dataset: str, head: str) -> tuple[str, float]:
    """The perturbation with the largest printed drop for one dataset and head, and that drop."""
    frame = drops()
    rows = frame[(frame["dataset"] == dataset) & (frame["head"] == head)].set_index("perturbation")["drop"]
    return str(rows.idxmax()), float(rows.max())


def quoted() -> pd.DataFrame:
    """The numbers the text quotes for figures and tables (`lib/published/fm_perturbations/quoted.csv`)."""
    return published.load(PAPER, "quoted")


def quoted_radii() -> pd.DataFrame:
    """Fig. 4's four quoted average DivergenceRadius values (ImageNet): `model`, `perturbation`, `value`."""
    frame = quoted()
    return frame[frame["artefact"] == "figure04"].reset_index(drop=True)
