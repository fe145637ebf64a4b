"""Tables 15–16 (class-wise accuracies of five CLIPs): class means against the model-level tables, and
the group sizes the printed percentages imply.

A class's group holds n images, so every accuracy printed for it is 100·k/n for some whole k, rounded
to two decimals. `smallest_count` finds the smallest n for which every printed percentage of a group
(five models; the LAION400M ViT/B/32 column is printed in both tables) has such a k. The real group can
be larger (any multiple of a consistent n is consistent too), so summed over classes this is a lower
bound on the totals the text states (7,174 common and 5,926 counter photos).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .published import CLASSWISE_TABLES, GROUPS, classwise

HALF_UNIT = 0.005 + 1e-9  # half a unit of the printed second decimal
MAX_COUNT = 5000


def classwise_frame() -> pd.DataFrame:
    """Tables 15 and 16 stacked: `artefact, class_id, model, metric, printed, value`."""
    return pd.concat([classwise(a) for a in CLASSWISE_TABLES], ignore_index=True)


def consistent(percentages: np.ndarray, n: int) -> bool:
    """Whether each percentage is 100·k/n for a whole k, to the printed two decimals."""
    k = np.rint(percentages * n / 100.0)
    return bool(np.all(np.abs(100.0 * k / n - percentages) <= HALF_UNIT) and np.all((k >= 0) & (k <= n)))


def smallest_count(percentages: np.ndarray | list[float], limit: int = MAX_COUNT) -> int | None:
    """The smallest group size consistent with every printed percentage (None up to `limit`)."""
    values = np.unique(np.asarray(percentages, dtype=float))
    return next((n for n in range(1, limit + 1) if consistent(values, n)), None)


def implied_group_sizes(frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per class: `class_id`, `common`, `counter` (the smallest consistent counts) and the number
    of distinct printed percentages each rests on (`common_values`, `counter_values`)."""
    frame = classwise_frame() if frame is None else frame
    rows = []
    for class_id, block in frame.groupby("class_id", sort=True):
        row: dict[str, float] = {"class_id": class_id}
        for group in GROUPS:
            values = block.loc[block["metric"] == group, "value"].to_numpy()
            row[group] = smallest_count(values)
            row[f"{group}_values"] = len(np.unique(values))
        rows.append(row)
    return pd.DataFrame(rows)


def class_means(frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """The mean over the 45 classes of each model's common, counter and drop (the balanced average)."""
    frame = classwise_frame() if frame is None else frame
    out = frame.groupby(["artefact", "model", "metric"], sort=False)["value"].agg(["mean", "count"]).reset_index()
    return out.rename(columns={"mean": "value", "count": "classes"})


def micro_accuracies(sizes: pd.DataFrame, frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """Unbalanced (image-weighted) accuracy of each model per group, from class accuracies and `sizes`:
    Σ_c acc_c·n_c / Σ_c n_c, and the micro drop."""
    frame = classwise_frame() if frame is None else frame
    models = frame.drop_duplicates("model")["model"]
    rows = []
    for model in models:
        part = frame[frame["model"] == model].drop_duplicates(["class_id", "metric"])
        row = {"model": model}
        for group in GROUPS:
            acc = part[part["metric"] == group].set_index("class_id")["value"]
            n = sizes.set_index("class_id")[group].reindex(acc.index).astype(float)
            row[group] = float((acc * n).sum() / n.sum())
        row["drop"] = row["common"] - row["counter"]
        rows.append(row)
    return pd.DataFrame(rows)


MAX_PER_CLASS = 800  # Sec. 2: "the latest 300-800 photos per class" were retrieved before curation


def leave_one_out_count(percentages: np.ndarray | list[float], limit: int = MAX_COUNT) -> tuple[int | None, float]:
    """The smallest count consistent with all but one of the distinct percentages, and the one left out
    (the first of the smallest): where a single printed value forces an implausible count, this names it."""
    values = np.unique(np.asarray(percentages, dtype=float))
    best: tuple[int | None, float] = (None, float("nan"))
    for i in range(len(values)):
        n = smallest_count(np.delete(values, i), limit)
        if n is not None and (best[0] is None or n < best[0]):
            best = (n, float(values[i]))
    return best


def plausible_group_sizes(frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """`implied_group_sizes`, except that a class whose two groups together exceed `MAX_PER_CLASS` has the
    larger group's count replaced by its leave-one-out count; `replaced` names the percentage left out."""
    frame = classwise_frame() if frame is None else frame
    sizes = implied_group_sizes(frame)
    sizes["replaced"] = ""
    for i, row in sizes.iterrows():
        if row["common"] + row["counter"] <= MAX_PER_CLASS:
            continue
        group = "common" if row["common"] >= row["counter"] else "counter"
        values = frame.loc[(frame["class_id"] == row["class_id"]) & (frame["metric"] == group), "value"]
        n, left_out = leave_one_out_count(values.to_numpy())
        sizes.loc[i, group] = n
        sizes.loc[i, "replaced"] = f"{group}: {left_out:.2f} left out"
    return sizes
