"""Known answers of CounterAnimal's metrics on hand-made prediction frames."""

from __future__ import annotations

import pandas as pd
import pytest

from lib.counteranimal.metrics import (
    background_accuracy, classwise_accuracy, classwise_drops, printed_drop_consistent, summary,
)


def frame(rows: list[tuple[str, str, str, bool]]) -> pd.DataFrame:
    """Items from (class, group, background, correct); targets 0 and predictions 0 (hit) or 1 (miss)."""
    return pd.DataFrame({
        "item": range(len(rows)), "target": 0, "pred_1": [0 if hit else 1 for *_, hit in rows],
        "pred_2": 5, "class": [r[0] for r in rows], "group": [r[1] for r in rows], "background": [r[2] for r in rows],
    })


# A: common 3/4 = 75, counter 1/2 = 50; B: common 1/1 = 100, counter 0/3 = 0.
ITEMS = frame(
    [("A", "common", "grass", hit) for hit in (True, True, True, False)]
    + [("A", "counter", "water", hit) for hit in (True, False)]
    + [("B", "common", "snow", True)]
    + [("B", "counter", "rock", False)] * 3
)


def values(table: pd.DataFrame) -> dict[tuple[str, str], float]:
    return {(a, m): v for a, m, v in table.itertuples(index=False)}


def test_classwise_accuracy_per_group():
    table = classwise_accuracy(ITEMS)
    assert table[["class", "group", "images", "hits", "accuracy"]].values.tolist() == [
        ["A", "common", 4, 3, 75.0], ["A", "counter", 2, 1, 50.0],
        ["B", "common", 1, 1, 100.0], ["B", "counter", 3, 0, 0.0],
    ]


def test_class_drops_are_common_minus_counter():
    drops = classwise_drops(ITEMS)
    assert drops["drop"].tolist() == [25.0, 100.0]
    assert (drops["drop"] == drops["common"] - drops["counter"]).all()
    assert drops[["common_images", "counter_images"]].values.tolist() == [[4, 2], [1, 3]]


def test_balanced_and_micro_accuracy_and_drops():
    got = values(summary(ITEMS))
    assert got == pytest.approx({
        ("balanced", "common"): 87.5, ("balanced", "counter"): 25.0, ("balanced", "drop"): 62.5,
        ("micro", "common"): 80.0, ("micro", "counter"): 20.0, ("micro", "drop"): 60.0,
    })


def test_balanced_drop_is_the_mean_of_class_drops_over_classes_with_both_groups():
    only_common = frame([("C", "common", "sand", False)] * 2)
    got = values(summary(pd.concat([ITEMS, only_common], ignore_index=True)))
    assert got[("balanced", "common")] == pytest.approx((75 + 100 + 0) / 3)
    assert got[("balanced", "drop")] == pytest.approx(62.5)  # C has no counter group: no class drop


def test_drop_is_computed_before_rounding_within_the_printed_tolerance():
    # common 2/3, counter 1/3: printed 66.67 and 33.33, but the drop 33.333... prints as 33.33, not 33.34.
    items = frame([("A", "common", "g", h) for h in (True, True, False)] + [("A", "counter", "w", h) for h in (True, False, False)])
    got = values(summary(items))
    common, counter, drop = (round(got[("balanced", m)], 2) for m in ("common", "counter", "drop"))
    assert (common, counter, drop) == (66.67, 33.33, 33.33) and round(common - counter, 2) == 33.34
    assert printed_drop_consistent(common, counter, drop)
    assert not printed_drop_consistent(66.67, 33.33, 33.32)


def test_per_background_breakdown():
    table = background_accuracy(ITEMS)
    assert table[["class", "group", "background", "accuracy"]].values.tolist() == [
        ["A", "common", "grass", 75.0], ["A", "counter", "water", 50.0],
        ["B", "common", "snow", 100.0], ["B", "counter", "rock", 0.0],
    ]


def test_only_the_first_prediction_counts():
    items = ITEMS.assign(pred_1=1, pred_2=0)
    assert values(summary(items))[("micro", "common")] == 0.0


def test_bad_frames_are_named():
    with pytest.raises(ValueError, match="lacks columns"):
        summary(ITEMS.drop(columns="group"))
    with pytest.raises(ValueError, match="unknown groups"):
        summary(ITEMS.assign(group="easy"))
