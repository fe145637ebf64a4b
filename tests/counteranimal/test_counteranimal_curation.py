"""Sec. 2's spurious-background discovery on a hand-made reference-model frame."""

from __future__ import annotations

import pandas as pd
import pytest

from lib.counteranimal.curation import assign_groups, background_ranking, spurious_classes
from lib.counteranimal.metrics import classwise_drops


def items(cls: str, background: str | None, images: int, hits: int) -> list[dict]:
    return [{"class": cls, "background": background, "target": 1, "pred_1": 1 if i < hits else 0} for i in range(images)]


# ostrich: ground 100 %, sand 100 % (2 images), water 50 %: spread 50 points.
# heron: grass 10 %, water 5 %: spread 5 points (not above 5), relative 50 %.
# goldfish: water 96 %, indoor 92 %: spread 4 points, relative 4.2 %. owl: one background only.
FRAME = pd.DataFrame(
    items("ostrich", "ground", 4, 4) + items("ostrich", "water", 4, 2) + items("ostrich", "sand", 2, 2)
    + items("ostrich", None, 3, 0)
    + items("heron", "grass", 20, 2) + items("heron", "water", 20, 1)
    + items("goldfish", "water", 25, 24) + items("goldfish", "indoor", 25, 23)
    + items("owl", "tree", 5, 1)
)


def test_background_ranking_by_accuracy_drop():
    ostrich = background_ranking(FRAME).query("`class` == 'ostrich'")
    assert ostrich[["background", "images", "accuracy", "rank", "drop"]].values.tolist() == [
        ["ground", 4, 100.0, 1, 0.0], ["sand", 2, 100.0, 2, 0.0], ["water", 4, 50.0, 3, 50.0],
    ]  # the unannotated items are left out; ties go to the name that sorts first


def test_absolute_threshold_keeps_classes_varying_by_more_than_5_points():
    table = spurious_classes(FRAME).set_index("class")
    assert sorted(table.index) == ["goldfish", "heron", "ostrich"]  # owl has one background
    assert table.loc["ostrich", ["common_background", "counter_background", "spread"]].tolist() == ["ground", "water", 50.0]
    assert table.loc["heron", "spread"] == pytest.approx(5.0) and table.loc["heron", "relative_spread"] == pytest.approx(50.0)
    assert table["kept"].to_dict() == {"goldfish": False, "heron": False, "ostrich": True}


def test_relative_threshold_is_a_named_option():
    table = spurious_classes(FRAME, threshold_kind="relative").set_index("class")
    assert table["kept"].to_dict() == {"goldfish": False, "heron": True, "ostrich": True}
    assert table.loc["heron", ["common_background", "counter_background"]].tolist() == ["grass", "water"]
    with pytest.raises(ValueError, match="threshold_kind"):
        spurious_classes(FRAME, threshold_kind="percent")


def test_min_images_drops_small_backgrounds():
    ranking = background_ranking(FRAME, min_images=3).query("`class` == 'ostrich'")
    assert ranking["background"].tolist() == ["ground", "water"]


def test_groups_of_the_kept_classes_give_the_reference_model_its_drop():
    selection = spurious_classes(FRAME, threshold_kind="relative")
    curated = assign_groups(FRAME, selection)
    assert curated.groupby(["class", "group"]).size().to_dict() == {
        ("heron", "common"): 20, ("heron", "counter"): 20, ("ostrich", "common"): 4, ("ostrich", "counter"): 4,
    }
    drops = classwise_drops(curated).set_index("class")["drop"]
    assert drops.to_dict() == pytest.approx({"heron": 5.0, "ostrich": 50.0})
