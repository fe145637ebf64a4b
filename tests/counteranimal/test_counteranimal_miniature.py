"""The miniature CounterAnimal: groups, backgrounds, the spurious correlation, determinism."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lib.counteranimal.miniature import (
    BACKGROUNDS, DIGIT_CLASS_NAMES, OTHER, MiniatureSpec, as_tensors, background_table, counteranimal_set,
    pretraining_backgrounds, pretraining_set, render,
)

SPEC = MiniatureSpec(image_size=8, object_size=6, spurious_correlation=0.8, test_fraction=0.1)
NAMES = list(BACKGROUNDS)


def test_common_and_counter_backgrounds_are_distinct_and_each_common_to_one_class():
    table = background_table(SPEC)
    assert list(table["class"]) == list(DIGIT_CLASS_NAMES)
    assert (table["common"] != table["counter"]).all()
    assert table["common"].is_unique and table["counter"].is_unique
    assert set(table["counter"]) == set(table["common"])  # a counter background is another class's common one


def test_the_test_set_holds_every_held_out_digit_on_every_background_in_its_group():
    data = counteranimal_set(SPEC, seed=0)
    items = data.items()
    assert list(items.columns) == ["item", "target", "class", "group", "background"]
    digits = len(data) // 10
    rounds = [items[k * digits:(k + 1) * digits] for k in range(10)]  # round k: each digit on background common + k
    assert all(np.array_equal(data.targets[:digits], part["target"]) for part in rounds)
    assert (rounds[0]["group"] == "common").all() and (rounds[SPEC.counter_offset]["group"] == "counter").all()
    assert set(items["group"]) == {"common", "counter", OTHER} and (items["group"] == OTHER).sum() == 8 * digits
    assert list(rounds[0]["background"]) == [NAMES[SPEC.common(t)] for t in data.targets[:digits]]
    assert list(rounds[SPEC.counter_offset]["background"]) == [NAMES[SPEC.counter(t)] for t in data.targets[:digits]]
    per_digit = pd.DataFrame({"digit": np.tile(np.arange(digits), 10), "background": items["background"]})
    assert (per_digit.groupby("digit")["background"].nunique() == 10).all()  # all ten backgrounds per digit
    assert data.images.dtype == np.uint8 and data.images.shape == (len(data), 8, 8, 3)
    assert abs(digits - 0.1 * 1797) < 2


def test_pretraining_backgrounds_follow_the_named_correlation():
    rng = np.random.default_rng(0)
    targets = rng.integers(0, 10, size=20000)
    for correlation in (0.0, 0.5, 0.9, 1.0):
        backgrounds = pretraining_backgrounds(SPEC, targets, correlation, np.random.default_rng(1))
        common = np.array([SPEC.common(t) for t in targets])
        assert abs((backgrounds == common).mean() - correlation) < 0.01
        others = backgrounds[backgrounds != common]  # the rest spread evenly over the other nine
        if len(others) > 1000:
            counts = np.bincount(others, minlength=10)
            assert counts.min() > 0.8 * counts.max()


def test_pretraining_set_is_seeded_deterministic_and_uses_the_kept_digits_only():
    a, b = pretraining_set(SPEC, 200, seed=3), pretraining_set(SPEC, 200, seed=3)
    assert np.array_equal(a.images, b.images) and np.array_equal(a.targets, b.targets)
    assert not np.array_equal(a.images, pretraining_set(SPEC, 200, seed=4).images)
    assert a.images.dtype == np.uint8 and len(a) == 200
    weaker = pretraining_set(SPEC, 2000, seed=3, correlation=0.2)
    common = np.array([NAMES[SPEC.common(t)] for t in weaker.targets])
    assert abs((weaker.backgrounds == common).mean() - 0.2) < 0.04
    assert np.array_equal(counteranimal_set(SPEC, 3).images, counteranimal_set(SPEC, 3).images)


def test_render_draws_black_ink_on_the_background_colour():
    spec = MiniatureSpec(image_size=8, object_size=8)
    image = render(spec, np.array([0]), np.array([NAMES.index("grass")]), np.random.default_rng(0))[0] / 255.0
    colour = np.asarray(BACKGROUNDS["grass"][0])
    background = image.reshape(-1, 3)[image.reshape(-1, 3).sum(axis=1) > 0.5 * colour.sum()]
    ratio = background / colour  # the texture only scales the colour
    assert np.allclose(ratio, ratio[:, :1], atol=0.03)
    assert image.min() < 0.1  # the ink
    tensors = as_tensors(render(spec, np.array([0, 1]), np.array([0, 1]), np.random.default_rng(0)))
    assert tuple(tensors.shape) == (2, 3, 8, 8) and float(tensors.max()) <= 1.0


def test_bad_specs_fail_with_one_line():
    with pytest.raises(ValueError, match="object_size"):
        MiniatureSpec(image_size=8, object_size=9)
    with pytest.raises(ValueError, match="spurious_correlation"):
        MiniatureSpec(spurious_correlation=1.5)
    with pytest.raises(ValueError, match="counter = common"):
        MiniatureSpec(counter_offset=10)
    with pytest.raises(ValueError, match="unknown miniature keys"):
        MiniatureSpec.from_dict({"image_size": 8, "colour": 1})
