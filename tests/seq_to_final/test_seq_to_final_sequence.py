"""Known answers for lib.seq_to_final.sequence: split sizes, groupings, labels, the oracle's shared test set."""

import numpy as np
import pytest

from lib.seq_to_final.sampler import digits_pool, digits_subpopulation_pool
from lib.seq_to_final.sequence import (SequenceSpec, as_inputs, build, combine, synthetic_spec,
                                       variable_length_spec)

SIZES = (100, 50, 100, 50)


@pytest.fixture(scope="module")
def clr():
    return build(synthetic_spec("CLR", "digits", SIZES, 50, image_size=8))


def test_split_sizes_per_step(clr):
    # int(n/10) per class, int(.8 x class) of it to training; the test split only at the final step
    assert [len(clr.step(t, "train")) for t in range(4)] == [80, 40, 80, 40]
    assert [len(clr.step(t, "valid")) for t in range(4)] == [20, 10, 20, 10]
    assert len(clr.final("test")) == 50
    assert np.bincount(clr.final("test").labels, minlength=10).tolist() == [5] * 10
    with pytest.raises(KeyError, match="only the final step"):
        clr.step(0, "test")


def test_groupings_concatenate_steps_in_order(clr):
    historical, everything = clr.historical("train"), clr.all_steps("valid")
    assert len(historical) == 80 + 40 + 80 and len(everything) == 20 + 10 + 20 + 10
    np.testing.assert_array_equal(historical.labels[120:], clr.step(2, "train").labels)
    assert len(combine(clr.steps_of("train", 1))) == 120


def test_labels_follow_the_flip_and_images_the_shifts(clr):
    pool = digits_pool(size=8)
    original = {t: pool.train_labels[clr.step(t, "train").pool_indices] for t in range(4)}
    np.testing.assert_array_equal(clr.step(0, "train").labels, original[0])
    np.testing.assert_array_equal(clr.step(1, "train").labels, original[1])  # corruption keeps labels
    for t in (2, 3):  # the label flip of step 2 persists: 9 - Y
        np.testing.assert_array_equal(clr.step(t, "train").labels, 9 - original[t])
    np.testing.assert_array_equal(clr.step(0, "train").images, pool.train_images[clr.step(0, "train").pool_indices])
    noise = clr.step(1, "train").images.astype(int) - pool.train_images[clr.step(1, "train").pool_indices]
    assert noise.min() >= -3 and noise.max() <= 2 and np.any(noise != 0)


def test_same_seed_same_sequence_other_seed_other_draw():
    spec = synthetic_spec("RCL", "digits", SIZES, 50, image_size=8)
    first, second = build(spec), build(spec)
    for a, b in zip(first.steps, second.steps):
        for split in a:
            np.testing.assert_array_equal(a[split].images, b[split].images)
            np.testing.assert_array_equal(a[split].labels, b[split].labels)
    other = build(synthetic_spec("RCL", "digits", SIZES, 50, image_size=8, seed=3))
    assert not np.array_equal(other.step(0, "train").pool_indices, first.step(0, "train").pool_indices)


def test_oracle_has_the_total_at_the_final_step_and_the_same_test_images():
    spec = synthetic_spec("TTT", "digits", SIZES, 50, image_size=8)
    baseline, oracle = build(spec), build(spec.oracle())
    assert spec.oracle().sizes == (100, 50, 100, 300)
    assert len(oracle.final("train")) + len(oracle.final("valid")) == 300
    assert sorted(oracle.test_pool_indices()) == sorted(baseline.test_pool_indices())
    # tints are deterministic, so the same pool image is the same test image in both
    order_b, order_o = np.argsort(baseline.test_pool_indices()), np.argsort(oracle.test_pool_indices())
    np.testing.assert_array_equal(baseline.final("test").images[order_b], oracle.final("test").images[order_o])
    # the historical steps are drawn identically
    np.testing.assert_array_equal(baseline.historical("train").pool_indices, oracle.historical("train").pool_indices)


def test_subpopulation_sequence_final_step_holds_only_new_fine_classes_under_paper_reading():
    spec = synthetic_spec("sss", "digits_subpopulations", (40, 40, 40, 40), 20, image_size=8,
                          subpopulation_reading="paper")
    sequence = build(spec)
    pool = digits_subpopulation_pool(size=8)
    fine = {t: set(pool.train_labels[sequence.step(t, "train").pool_indices].tolist()) for t in range(4)}
    assert fine[0] == {0, 1, 5, 6} and fine[3] == {2, 3, 4, 7, 8, 9}
    assert set(sequence.final("test").labels.tolist()) == {0, 1}  # super-class labels


def test_variable_length_spec_uses_table3_sizes():
    spec = variable_length_spec(8, "digits", test_size=20, scale=0.01)
    assert spec.sizes == (40, 20, 20, 20, 20, 20, 20, 40) and spec.entries == ("rotation",) * 7


def test_unknown_pool_and_wrong_sizes_fail_with_one_line():
    with pytest.raises(ValueError, match="unknown pool 'cifar11'; known pools"):
        SequenceSpec("cifar11", ("rotation",), (10, 10), 5)
    with pytest.raises(ValueError, match="need 2 sizes"):
        SequenceSpec("digits", ("rotation",), (10,), 5)
    with pytest.raises(ValueError, match="unknown sequence"):
        synthetic_spec("XYZ", "digits", SIZES, 5)


def test_inputs_are_raw_channel_first_floats(clr):
    images = clr.final("test").images
    inputs = as_inputs(images)
    assert inputs.shape == (50, 3, 8, 8) and inputs.dtype == np.float32
    np.testing.assert_array_equal(inputs[3, 0], images[3, :, :, 0])


def test_portraits_scaling_is_the_official_totensor_then_normalize_with_255_times_imagenet_statistics():
    from torchvision import transforms

    from lib.data.normalisation import IMAGENET_MEAN, IMAGENET_STD

    images = np.random.RandomState(0).randint(0, 256, (2, 6, 5, 3), dtype=np.uint8)
    official = transforms.Compose([transforms.ToTensor(), transforms.Normalize([255 * m for m in IMAGENET_MEAN],
                                                                               [255 * s for s in IMAGENET_STD])])
    expected = np.stack([official(image).numpy() for image in images])
    inputs = as_inputs(images, "imagenet_255")
    np.testing.assert_allclose(inputs, expected, rtol=0, atol=1e-6)
    mean, std = np.array(IMAGENET_MEAN), np.array(IMAGENET_STD)
    per_channel = inputs.transpose(1, 0, 2, 3).reshape(3, -1)  # the quirk: within 1 / (255 std) of -mean / std
    assert (per_channel.min(1) >= -mean / std - 1e-6).all()
    assert (per_channel.max(1) <= (1 / 255 - mean) / std + 1e-6).all()
    with pytest.raises(KeyError):
        as_inputs(images, "imagenet")
