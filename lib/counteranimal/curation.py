"""CounterAnimal's curation procedure (Sec. 2, "Spurious Discovery") on any labelled image set. No torch.

Input: the reference model's per-item prediction frame (`target`, `pred_1`; the paper's reference is
CLIP-LAION400M-ViT/B/32, 1 vs 1000, "A photo of <label>.") with a class column and a `background`
annotation per item (the paper labels backgrounds by hand from 14 names: ground, water, earth, sand,
snow, grass, human, sky, road, rock, shrub, indoor, tree, outdoor).

1. Per (class, background) zero-shot accuracy (`background_ranking`, which also ranks each class's
   backgrounds by their accuracy drop from the class's best background).
2. Keep the classes whose accuracy "varies by more than 5%" across backgrounds (`spurious_classes`).
   Whether 5 % is absolute (percentage points) or relative (of the best background's accuracy) is not
   stated: `threshold_kind` names the choice, `absolute` by default. Backgrounds with fewer than
   `min_images` images of the class are not compared (no minimum is stated; default 1).
3. The best background becomes the class's `common` group, the worst its `counter` group, one
   background each as Table 2 shows (`assign_groups`); the class's other images are left out.
Ties in accuracy are broken by name: the common background is the tied one whose name sorts first, the
counter background the tied one whose name sorts last (the paper states no rule).

The groups are thereby chosen to maximise the reference model's drop (notes P7): its drop on the
result is at least the threshold by construction, a selection effect other models do not share.
"""

from __future__ import annotations

import pandas as pd

from .metrics import accuracy_by

THRESHOLD_KINDS = ("absolute", "relative")
SELECTION_COLUMNS = ["common_background", "counter_background", "common_accuracy", "counter_accuracy", "common_images",
                     "counter_images", "spread", "relative_spread", "kept"]  # after the class column (`select_groups`)


def background_ranking(frame: pd.DataFrame, by: str = "class", min_images: int = 1) -> pd.DataFrame:
    """One row per (class, background) with at least `min_images` images: images, hits, accuracy (%),
    rank (1 = best background of the class) and drop (points below the class's best background)."""
    return rank_backgrounds(accuracy_by(frame.dropna(subset=["background"]), [by, "background"]), by, min_images)


def rank_backgrounds(table: pd.DataFrame, by: str = "class", min_images: int = 1) -> pd.DataFrame:
    """`background_ranking` from an accuracy table (one row per (class, background): images, accuracy)."""
    table = table[table["images"] >= min_images]
    table = table.sort_values([by, "accuracy", "background"], ascending=[True, False, True], ignore_index=True)
    best = table.groupby(by)["accuracy"].transform("max")
    return table.assign(rank=table.groupby(by).cumcount() + 1, drop=best - table["accuracy"])


def spurious_classes(frame: pd.DataFrame, threshold: float = 5.0, threshold_kind: str = "absolute",
                     by: str = "class", min_images: int = 1) -> pd.DataFrame:
    """One row per class with two or more compared backgrounds: its common (best) and counter (worst)
    background, their accuracies, the spread (common − counter, points), the relative spread (% of the
    common accuracy) and `kept` (spread above `threshold` in the `threshold_kind` sense)."""
    return select_groups(background_ranking(frame, by, min_images), threshold, threshold_kind, by)


def select_groups(ranking: pd.DataFrame, threshold: float = 5.0, threshold_kind: str = "absolute",
                  by: str = "class") -> pd.DataFrame:
    """`spurious_classes` from a `background_ranking`."""
    if threshold_kind not in THRESHOLD_KINDS:
        raise ValueError(f"threshold_kind must be one of {THRESHOLD_KINDS}, not {threshold_kind!r}")
    rows = []
    for name, table in ranking.groupby(by, sort=True):
        if len(table) < 2:
            continue
        common, counter = table.iloc[0], table.iloc[-1]
        spread = common["accuracy"] - counter["accuracy"]
        relative = 100.0 * spread / common["accuracy"] if common["accuracy"] > 0 else 0.0
        rows.append({by: name, "common_background": common["background"], "counter_background": counter["background"],
                     "common_accuracy": common["accuracy"], "counter_accuracy": counter["accuracy"],
                     "common_images": common["images"], "counter_images": counter["images"],
                     "spread": spread, "relative_spread": relative,
                     "kept": (spread if threshold_kind == "absolute" else relative) > threshold})
    return pd.DataFrame(rows, columns=[by, *SELECTION_COLUMNS])


def assign_groups(frame: pd.DataFrame, selection: pd.DataFrame, by: str = "class") -> pd.DataFrame:
    """The items of the kept classes on their common or counter background, with a `group` column."""
    kept = selection[selection["kept"]]
    group_of = {**{(c, b): "common" for c, b in zip(kept[by], kept["common_background"])},
                **{(c, b): "counter" for c, b in zip(kept[by], kept["counter_background"])}}
    groups = [group_of.get(key) for key in zip(frame[by], frame["background"])]
    return frame.assign(group=groups).dropna(subset=["group"]).reset_index(drop=True)
