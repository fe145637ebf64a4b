import numpy as np
import pandas as pd
import pytest

from lib.counteranimal.classwise import (
    class_means,
    consistent,
    implied_group_sizes,
    leave_one_out_count,
    micro_accuracies,
    smallest_count,
)


@pytest.mark.parametrize("percentages, n", [([50.0], 2), ([33.33, 66.67], 3), ([0.0, 100.0], 1), ([12.5, 37.5], 8),
                                            ([97.62, 99.21, 96.03, 100.0], 126)])
def test_smallest_count_known_answers(percentages, n):
    assert smallest_count(percentages) == n
    assert consistent(np.array(percentages), n)


def test_a_single_odd_value_is_named_by_leave_one_out():
    n, left_out = leave_one_out_count([25.0, 50.0, 75.0, 33.33])
    assert (n, left_out) == (4, 33.33)


def test_class_39_common_group_is_126_photos():
    sizes = implied_group_sizes().set_index("class_id")
    assert sizes.loc[39, "common"] == 126


def test_class_means_reproduce_table03_for_laion400m_vitl14():
    means = class_means().set_index(["model", "metric"])["value"]
    assert means[("CLIP-LAION400M-ViT/L/14", "common")] == pytest.approx(80.90, abs=0.01)
    assert means[("CLIP-LAION400M-ViT/L/14", "counter")] == pytest.approx(63.31, abs=0.01)


def test_micro_accuracy_weights_classes_by_size():
    frame = pd.DataFrame({"class_id": [1, 1, 2, 2], "model": "m", "metric": ["common", "counter"] * 2,
                          "value": [100.0, 50.0, 0.0, 50.0]})
    sizes = pd.DataFrame({"class_id": [1, 2], "common": [3, 1], "counter": [1, 1]})
    out = micro_accuracies(sizes, frame).iloc[0]
    assert out["common"] == pytest.approx(75.0) and out["counter"] == pytest.approx(50.0)
    assert out["drop"] == pytest.approx(25.0)
