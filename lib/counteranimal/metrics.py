"""CounterAnimal's metrics (App. C.2) on per-item prediction frames, in percent. No torch.

A frame has one row per image with `target` and `pred_1` (the shared prediction format of
`lib.evaluate.frames`), `group` (`common` / `counter`), a class column (`class` by default) and,
for the breakdown, `background`. A frame holds one model under one setup: split a longer frame by its
run columns (model, setup, ...) first.

- Class-wise accuracy per group: ACC_g(c) = hits / images of class c in group g.
- Class-balanced accuracy (the paper's default, Tables 3-5, 9, 10, 13, 14): the mean over classes of
  ACC_g(c). Micro accuracy (Tables 11-12, "without class balancing"): all hits / all images of g.
- Drop: ACC_common − ACC_counter, per class and overall. The balanced drop is the mean of the class
  drops (over the classes present in both groups), which equals balanced common − balanced counter
  when every class has both groups; the micro drop is the difference of the micro accuracies.

Rounding: the paper prints two decimals and computed its drops before rounding, so a printed drop
can differ from printed common − printed counter by 0.01 (the three rounding errors add up to less
than 0.015, and the difference of two-decimal numbers is a multiple of 0.01): `printed_drop_consistent`.
Our drops are kept unrounded, as the paper's were.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

GROUPS = ("common", "counter")
PRINTED_DROP_TOLERANCE = 0.01 + 1e-9  # printed drop vs printed common − printed counter


def correct(frame: pd.DataFrame) -> pd.Series:
    """Whether each item's top-1 prediction is its target."""
    return frame["pred_1"] == frame["target"]


def accuracy_by(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """One row per combination of `keys` (sorted; a missing background is its own key): images, hits, accuracy (%)."""
    missing = [c for c in ("target", "pred_1", *keys) if c not in frame.columns]
    if missing:
        raise ValueError(f"prediction frame lacks columns {missing}; it has {list(frame.columns)}")
    if "group" in keys and not set(frame["group"]) <= set(GROUPS):
        raise ValueError(f"unknown groups {sorted(set(frame['group']) - set(GROUPS))}; expected {GROUPS}")
    rows = frame.assign(hit=correct(frame)).groupby(keys, sort=True, dropna=False)["hit"].agg(images="size", hits="sum")
    return rows.assign(accuracy=100.0 * rows["hits"] / rows["images"]).reset_index()


def classwise_accuracy(frame: pd.DataFrame, by: str = "class") -> pd.DataFrame:
    """One row per (class, group): images, hits and accuracy (%)."""
    return accuracy_by(frame, [by, "group"])


def classwise_drops(frame: pd.DataFrame, by: str = "class") -> pd.DataFrame:
    """One row per class with both groups: common, counter and drop (%), and the images of each group."""
    table = classwise_accuracy(frame, by).pivot(index=by, columns="group")
    both = table["accuracy"].reindex(columns=list(GROUPS)).dropna()
    images = table["images"].reindex(columns=list(GROUPS)).loc[both.index]
    return pd.DataFrame({
        "common": both["common"], "counter": both["counter"], "drop": both["common"] - both["counter"],
        "common_images": images["common"].astype(int), "counter_images": images["counter"].astype(int),
    }).reset_index()


def summary(frame: pd.DataFrame, by: str = "class") -> pd.DataFrame:
    """Tidy rows (averaging, metric, value): balanced and micro common, counter and drop (%)."""
    per_class = classwise_accuracy(frame, by)
    balanced = per_class.groupby("group")["accuracy"].mean()
    micro = per_class.groupby("group")[["hits", "images"]].sum()
    micro = 100.0 * micro["hits"] / micro["images"]
    drops = classwise_drops(frame, by)["drop"]
    rows = [("balanced", g, balanced.get(g, np.nan)) for g in GROUPS]
    rows.append(("balanced", "drop", drops.mean() if len(drops) else np.nan))
    rows += [("micro", g, micro.get(g, np.nan)) for g in GROUPS]
    rows.append(("micro", "drop", micro.get("common", np.nan) - micro.get("counter", np.nan)))
    return pd.DataFrame(rows, columns=["averaging", "metric", "value"])


def background_accuracy(frame: pd.DataFrame, by: str = "class") -> pd.DataFrame:
    """One row per (class, group, background): images, hits and accuracy (%)."""
    return accuracy_by(frame, [by, "group", "background"])


def printed_drop_consistent(common: float, counter: float, drop: float) -> bool:
    """Whether two-decimal common, counter and drop values agree up to the rounding of a drop computed
    before rounding (see the module docstring)."""
    return abs(drop - (common - counter)) <= PRINTED_DROP_TOLERANCE
