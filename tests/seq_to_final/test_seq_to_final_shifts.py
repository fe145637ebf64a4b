"""Seq-to-Final's shift building blocks and sampler, with exact known answers (`lib.seq_to_final.shifts`,
`lib.seq_to_final.sampler`)."""

import subprocess
import sys

import numpy as np
import pytest

from lib.seq_to_final import sampler as S
from lib.seq_to_final import shifts as H


def _images(n=6, size=32, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (n, size, size, 3), dtype=np.uint8)


def _pool(per_class_train=40, per_class_test=20, num_classes=10, seed=0):
    rng = np.random.default_rng(seed)
    train_labels = rng.permutation(np.repeat(np.arange(num_classes), per_class_train))
    test_labels = rng.permutation(np.repeat(np.arange(num_classes), per_class_test))
    return S.ImagePool(_images(len(train_labels), 8, 1), train_labels, _images(len(test_labels), 8, 2), test_labels,
                       num_classes)


def test_modules_import_without_torch():
    code = ("import sys, lib.seq_to_final.shifts, lib.seq_to_final.sampler; "
            "assert 'torch' not in sys.modules, 'torch imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


# ------------------------------------------------------------------------------------------ corruption

def test_noise_is_minus_three_to_plus_two_and_clipped():
    grey = np.full((64, 64, 3), 128, np.uint8)
    noise = H.discrete_noise(grey, np.random.default_rng(0)).astype(int) - 128
    assert noise.min() == -3 and noise.max() == 2 and set(np.unique(noise)) == set(range(-3, 3))
    assert H.discrete_noise(np.zeros((64, 64, 3), np.uint8), np.random.default_rng(0)).min() == 0
    assert H.discrete_noise(np.full((64, 64, 3), 255, np.uint8), np.random.default_rng(0)).max() == 255


def test_noise_draws_in_the_codes_channel_first_order():
    images = np.full((2, 4, 5, 3), 100, np.uint8)
    expected = np.random.RandomState(7).randint(-3, 3, size=(2, 3, 4, 5)).transpose(0, 2, 3, 1) + 100
    assert np.array_equal(H.discrete_noise(images, np.random.RandomState(7)), expected)


def test_corruption_severity_counts_independent_draws():
    image = np.full((16, 16, 3), 128, np.uint8)
    twice = H.corruption(image, 2, np.random.default_rng(3))
    rng = np.random.default_rng(3)
    assert np.array_equal(twice, H.discrete_noise(H.discrete_noise(image, rng), rng))
    assert np.array_equal(H.corruption(image, 0, rng), image)
    with pytest.raises(ValueError):
        H.corruption(image, 1.5, rng)


def test_figure_two_reading_adds_the_same_draw_again():
    image = np.full((8, 8, 3), 128, np.uint8)
    same = H.repeated_corruption(image, 3, np.random.default_rng(0), draw="same")
    step = same[1].astype(int) - 128
    assert np.array_equal(same[3].astype(int) - 128, 3 * step)


# -------------------------------------------------------------------------------------------- rotation

def test_rotation_30_then_30_is_one_rotation_by_60_with_black_corners():
    images = _images()
    steps = H.accumulate_shifts(["rotation", "rotation"], 10)
    assert steps[2].rotation_degrees == (60.0,) * 10
    labels = np.arange(6)
    out = H.apply_step({"train": (images, labels)}, steps[2], np.random.default_rng(0))["train"][0]
    assert np.array_equal(out, H.rotate_image(images, 60))
    assert np.array_equal(H.rotation(images[0], 2), H.rotate_image(images[0], 60))
    assert (out[:, 0, 0] == 0).all() and (out[:, -1, -1] == 0).all()  # corners filled black
    # a 90-degree rotation is exact and counter-clockwise: the top-right corner goes to the top-left
    assert np.array_equal(H.rotation(images[0], 3), np.rot90(images[0], 1, axes=(0, 1)))


@pytest.mark.parametrize("degrees", [30, 60, 90, -30, -60, 45, 7.5])
def test_numpy_rotation_equals_torchvision(degrees):
    pytest.importorskip("torchvision")
    images = _images(4, 32, seed=5)
    assert np.array_equal(H.rotate_image(images, degrees), H.rotate_image(images, degrees, backend="torchvision"))
    odd = _images(2, 17, seed=6)[:, :, :13]
    assert np.array_equal(H.rotate_image(odd, degrees), H.rotate_image(odd, degrees, backend="torchvision"))


# ---------------------------------------------------------------------------------------------- tint

def test_tint_adds_30_per_step_to_red_clipped_at_255():
    image = np.zeros((2, 2, 3), np.uint8)
    image[..., 0] = [[0, 100], [200, 250]]
    image[..., 1:] = 77
    for steps, expected in [(1, [[30, 130], [230, 255]]), (3, [[90, 190], [255, 255]])]:
        out = H.red_tint(image, steps)
        assert out[..., 0].tolist() == expected
        assert (out[..., 1:] == 77).all()
    tinted = H.accumulate_shifts(["recolor"] * 3, 10)
    assert [s.recolouring[0] if s.recolouring else () for s in tinted] == [(), (30, 0, 0), (60, 0, 0), (90, 0, 0)]


# ------------------------------------------------------------------------------------------ label flips

def test_first_flip_is_nine_minus_y_and_second_plus_two():
    y = np.arange(10)
    assert H.flip_labels(y, 1, 10).tolist() == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert H.flip_labels_once(y, 2, 10).tolist() == [2, 3, 4, 5, 6, 7, 8, 9, 0, 1]
    assert H.flip_schedule(4) == (1, 2, 1, 2)
    # planes (0) are labelled truck (9) after the first flip and car (1) after the second (the code);
    # App. A's example says horse (7): its reading is Y - 2
    assert H.flip_labels(np.array([0]), 2, 10).tolist() == [1]
    assert H.flip_labels(np.array([0]), 2, 10, second_flip="minus_two").tolist() == [7]


@pytest.mark.parametrize("second_flip", ["plus_two", "minus_two"])
@pytest.mark.parametrize("num_classes", [10, 20])
def test_labels_never_revert_over_three_flips(num_classes, second_flip):
    y = np.arange(num_classes)
    history = [H.flip_labels(y, n, num_classes, second_flip) for n in range(4)]
    for later in range(1, 4):
        for earlier in range(later):
            assert (history[later] != history[earlier]).all(), (earlier, later)
    assert all(sorted(h.tolist()) == list(range(num_classes)) for h in history)  # still a permutation


def test_flips_apply_after_the_image_blocks_of_the_step():
    steps = H.accumulate_shifts(["corruption", "label_flip", "rotation"], 10)
    assert [s.flips for s in steps] == [(), (), (1,), (1,)]
    rcl = H.accumulate_shifts(["rotation", "corruption", "label_flip"], 10)
    assert rcl[-1] == H.StepShift(10, 1, (30.0,) * 10, (), (1,), entries=rcl[-1].entries)
    assert steps[-1].n_noise == rcl[-1].n_noise and steps[-1].rotation_degrees == rcl[-1].rotation_degrees


# ------------------------------------------------------------------------------ conditional rotation

def test_conditional_rotation_uses_the_original_labels_parity():
    steps = H.accumulate_shifts(["rotation_cond", "rotation_cond,label_flip"], 10)
    assert steps[1].rotation_degrees == tuple(30.0 if c % 2 == 0 else -30.0 for c in range(10))
    assert steps[2].rotation_degrees == tuple(60.0 if c % 2 == 0 else -60.0 for c in range(10))
    images, labels = _images(4), np.array([0, 1, 2, 3])
    out_images, out_labels = H.apply_step({"train": (images, labels)}, steps[2], np.random.default_rng(0))["train"]
    assert out_labels.tolist() == [9, 8, 7, 6]  # the flip changed the parity ...
    for k, degrees in enumerate([60, -60, 60, -60]):  # ... but the angle follows the original label
        assert np.array_equal(out_images[k], H.rotate_image(images[k], degrees))
    assert np.array_equal(H.conditional_rotation(images, labels, 1, 10)[1], H.rotate_image(images[1], -30))
    assert H.conditional_rotation_angles(4, 1, "clockwise").tolist() == [-30, 30, -30, 30]


# --------------------------------------------------------------------------------------- sub-populations

def test_fixed_fine_class_order():
    assert len(H.SUBPOPULATION_ORDER) == 20 and all(len(names) == 5 for names in H.SUBPOPULATION_ORDER)
    assert len(H.CIFAR100_FINE_NAMES) == len(set(H.CIFAR100_FINE_NAMES)) == 100
    assert (H.CIFAR100_FINE_NAMES.index("apple"), H.CIFAR100_FINE_NAMES.index("otter"),
            H.CIFAR100_FINE_NAMES.index("worm")) == (0, 55, 99)
    # the appendix's examples: vehicles and small mammals
    assert H.SUBPOPULATION_ORDER[18] == ("bicycle", "motorcycle", "pickup truck", "bus", "train")
    assert H.SUBPOPULATION_ORDER[16] == ("mouse", "shrew", "hamster", "rabbit", "squirrel")
    table = H.subpopulation_table()
    assert [row["entry_step"] for row in table[:5]] == [0, 0, 1, 2, 3]


def test_subpopulation_proportions_per_step():
    steps = H.accumulate_shifts(["subpop"] * 3, 20)
    assert [s.subpopulations for s in steps] == list(H.SUBPOPULATION_PROPORTIONS)
    assert [H.subpopulation_counts(300, p, "paper") for p in H.SUBPOPULATION_PROPORTIONS] == [
        [150, 150, 0, 0, 0], [100, 100, 100, 0, 0], [0, 100, 100, 100, 0], [0, 0, 100, 100, 100]]
    # the official loop: every fine class from the last non-zero one on gets the remainder
    assert [H.subpopulation_counts(300, p, "code") for p in H.SUBPOPULATION_PROPORTIONS] == [
        [150, 150, 150, 150, 150], [100, 100, 100, 100, 100], [0, 100, 100, 100, 100], [0, 0, 100, 100, 100]]
    assert H.subpopulation_counts(200, H.SUBPOPULATION_PROPORTIONS[3], "code") == [0, 0, 66, 66, 68]
    with pytest.raises(ValueError):
        H.accumulate_shifts(["subpop"] * 4, 20)


# ------------------------------------------------------------------------------------------- sampler

def test_sampler_counts_per_class_and_step_are_exact():
    pool = _pool()
    steps = S.build_sequence(pool, ("corruption", "label_flip", "rotation"), (200, 100, 150, 100), 50, seed=3)
    for step, size in zip(steps, (200, 100, 150, 100)):
        train, valid = step.splits["train"][1], step.splits["valid"][1]
        assert len(train) + len(valid) == size
        assert np.bincount(train, minlength=10).tolist() == [int(0.8 * size / 10)] * 10
        assert np.bincount(valid, minlength=10).tolist() == [size // 10 - int(0.8 * size / 10)] * 10
        assert ("test" in step.splits) == (step.index == 3)
    assert np.bincount(steps[-1].splits["test"][1], minlength=10).tolist() == [5] * 10
    # the last class takes the remainder, 80 % of each class to training
    assert S.class_counts(103, np.ones(10) / 10) == [10] * 9 + [13]
    assert S.train_count(13) == 10


def test_splits_do_not_overlap_and_test_comes_from_the_test_pool():
    pool = _pool()
    steps = S.synthetic_sequence(pool, "TTT", sizes=(200, 100, 150, 100), test_size=50, seed=4)
    for step in steps:
        train, valid = step.pool_indices["train"], step.pool_indices["valid"]
        assert not set(train) & set(valid)
        assert (pool.train_labels[train] == np.asarray(step.splits["train"][1])).all()  # no flips in TTT
    final = steps[-1]
    assert np.array_equal(final.splits["test"][0], H.red_tint(pool.test_images[final.pool_indices["test"]], 3))


def test_seeds_follow_the_code_and_the_test_set_is_shared_by_baseline_and_oracle():
    assert S.step_seeds(1007, 3) == np.random.RandomState(1007).randint(10000, size=3).tolist()
    pool = _pool(per_class_train=60)
    baseline = S.build_sequence(pool, ("rotation",) * 3, (200, 100, 150, 100), 50, seed=9)
    oracle = S.build_sequence(pool, ("rotation",) * 3, (200, 100, 150, 400), 50, seed=9)
    assert sorted(baseline[-1].pool_indices["test"]) == sorted(oracle[-1].pool_indices["test"])
    assert np.array_equal(baseline[1].pool_indices["train"], oracle[1].pool_indices["train"])


def test_subpopulation_sampler_on_the_digits_stand_in():
    pool = S.digits_subpopulation_pool()
    sizes = (300, 300, 300, 300)
    for reading, expected in [
        ("paper", [[60, 60, 0, 0, 0], [40, 40, 40, 0, 0], [0, 40, 40, 40, 0], [0, 0, 40, 40, 40]]),
        ("code", [[60, 60, 60, 60, 60], [40, 40, 40, 40, 40], [0, 40, 40, 40, 40], [0, 0, 40, 40, 40]]),
    ]:
        steps = S.synthetic_sequence(pool, "sss", sizes=sizes, test_size=150, seed=2, subpopulation_reading=reading)
        for step, counts in zip(steps, expected):
            fine = pool.train_labels[step.pool_indices["train"]]
            assert np.bincount(fine, minlength=10)[:5].tolist() == counts, (reading, step.index)
            assert set(step.splits["train"][1]) == {0, 1}
        assert np.bincount(pool.test_labels[steps[-1].pool_indices["test"]], minlength=10)[:5].tolist() == [0, 0, 25, 25, 25]


def test_variable_length_sequences_follow_table_three():
    sizes = S.variable_length_sizes()
    assert sorted(sizes) == list(range(2, 9))
    assert all(len(s) == n and s[-1] == 4000 and sum(s[:-1]) == 16000 for n, s in sizes.items())
    assert sizes[8] == (4000,) + (2000,) * 6 + (4000,)
    assert S.variable_length_entries(8) == ("rotation",) * 7
    assert S.variable_length_entries(3, "rotation_cond") == ("rotation_cond",) * 2
    steps = S.variable_length_sequence(S.digits_pool(), 4, scale=0.05, test_size=100)
    assert [len(s.splits["train"][1]) + len(s.splits["valid"][1]) for s in steps] == [300, 200, 300, 200]
    assert steps[-1].shift.rotation_degrees == (90.0,) * 10


def test_sss_needs_a_subpopulation_pool():
    with pytest.raises(ValueError, match="sub-population pool"):
        S.synthetic_sequence(_pool(), "sss", sizes=(100, 100, 100, 100), test_size=20)


def test_augmentation_readings():
    image = _images(1)[0]
    assert H.augment(image, np.random.default_rng(0), "none") is image
    a = H.augment(image, np.random.default_rng(1), "paper")
    assert a.shape == image.shape and a.dtype == np.uint8
    assert np.array_equal(a, H.augment(image, np.random.default_rng(1), "paper"))


def test_illustrations_show_what_the_blocks_do():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from lib.seq_to_final import illustrations

    fig, data = illustrations.draw_figure02()
    plt.close(fig)
    rotation = data[data["block"] == "Rotation"].set_index(["example", "applications"])["black_pixel_share"]
    assert rotation.xs(3, level="applications").eq(0).all() and rotation.xs(1, level="applications").gt(0.1).all()
    tint = data[(data["block"] == "Recolouring") & (data["applications"] == 1)]
    assert (tint["max_abs_change"] == 30).all()
    fig, data = illustrations.draw_sequence_examples("CLR")
    plt.close(fig)
    flipped = data[data["step"] >= 2]
    assert (flipped["pool_label"] == 9 - flipped["label"]).all()
    assert (data[data["step"] < 2]["pool_label"] == data[data["step"] < 2]["label"]).all()
    fig, data = illustrations.draw_subpopulation_order(range(10, 20))
    plt.close(fig)
    code = data[(data["reading"] == "code") & (data["step"] == 0)]
    assert (code["train_valid_images"] == 150).all()
