"""Table 8's MultiColored digits study: the colouring, InfoNCE, zero-shot, settings, MNIST loader, a tiny run."""

from __future__ import annotations

import dataclasses
import gzip
import math

import numpy as np
import pytest

from lib.counteranimal.figures import draw_table08, table08_frame
from lib.counteranimal.multicolored import (
    COLOURS, METRICS, MulticoloredSettings, MulticoloredStudy, accuracies, cell_gaps, cell_means, colourise, coloured_sets,
    findings, info_nce, noisy_labels, precompute, random_colours, reversed_colours, run_study, spurious_findings,
    training_colours, zero_shot_predict,
)
from lib.params import ParamsError

TINY = "params/tiny/counteranimal/multicolored.yaml"


def tiny_settings(**changes) -> MulticoloredSettings:
    return dataclasses.replace(MulticoloredSettings.load(TINY), **changes)


def test_training_colours_carry_the_class_colour_for_exactly_p_spu_of_classes_0_and_1():
    rng = np.random.default_rng(0)
    labels = np.repeat(np.arange(5), [40, 30, 25, 25, 25])
    colours = training_colours(labels, 5, 0.75, rng)
    for label, n in ((0, 40), (1, 30)):
        own = colours[labels == label] == label
        assert own.sum() == round(0.75 * n)  # exact, not a draw around it
    assert set(np.unique(colours)) <= set(range(5))
    assert len(np.unique(colours[labels >= 2])) > 1  # the other classes' colours are not tied to them


def test_reversed_test_swaps_the_colours_of_classes_0_and_1():
    labels = np.repeat(np.arange(3), 50)
    colours = reversed_colours(labels, 3, 0.1, np.random.default_rng(1))
    for label in (0, 1):
        part = colours[labels == label]
        assert (part == label).sum() == 5 and (part == 1 - label).sum() == 45
    rand = random_colours(labels, 3, np.random.default_rng(2))
    assert set(np.unique(rand)) == {0, 1, 2}


def test_label_noise_keeps_exactly_p_inv_of_each_digit():
    digits = np.repeat(np.arange(4), 20)
    labels = noisy_labels(digits, 4, 0.75, np.random.default_rng(3))
    for digit in range(4):
        assert (labels[digits == digit] == digit).sum() == 15
    assert labels.min() >= 0 and labels.max() < 4


def test_colourise_paints_the_strokes_or_the_background():
    grey = np.array([[[0.0, 0.5], [1.0, 0.25]]])
    front = colourise(grey, np.array([0]), "foreground")
    assert front.shape == (1, 3, 2, 2)
    np.testing.assert_allclose(front[0, :, 0, 1], 0.5 * COLOURS[0])
    back = colourise(grey, np.array([1]), "background")
    np.testing.assert_allclose(back[0, :, 0, 0], COLOURS[1])  # no ink: the colour
    np.testing.assert_allclose(back[0, :, 1, 0], 1.0)  # full ink: white


def test_the_two_test_sets_share_images_and_labels():
    sets = coloured_sets(tiny_settings(), 3, 0.9, 0.9, 0)
    np.testing.assert_array_equal(sets["rand"].labels, sets["rev"].labels)
    assert set(np.unique(sets["train"].digits)) == {0, 1, 2}
    assert sets["train"].images.shape[1:] == (3, 8, 8)


def test_info_nce_on_a_hand_case():
    torch = pytest.importorskip("torch")
    eye = torch.eye(2)
    # similarities [[1, 0], [0, 1]] at temperature 1: each row's loss is log(1 + e^-1), both directions alike
    assert info_nce(eye, eye, 1.0).item() == pytest.approx(math.log(1 + math.exp(-1)))
    # captions swapped: the positive is the dissimilar one, log(1 + e)
    assert info_nce(eye, eye.flip(0), 1.0).item() == pytest.approx(math.log(1 + math.e))
    # a lower temperature sharpens the correct match
    assert info_nce(eye, eye, 0.1).item() < info_nce(eye, eye, 1.0).item()


def test_zero_shot_picks_the_most_similar_prompt_by_cosine():
    prompts = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    images = np.array([[5.0, 1.0], [0.1, 0.2], [-3.0, -2.5], [0.0, -0.1]])
    np.testing.assert_array_equal(zero_shot_predict(images, prompts), [0, 1, 2, 2])
    assert zero_shot_predict(np.array([[2.0, 1.0]]), np.array([[100.0, 0.0], [1.0, 1.0]]))[0] == 1  # cosine, not dot


@pytest.mark.parametrize(("text", "message"), [
    ("source: imagenet", "source must be one of"),
    ("colour_on: sideways", "colour_on must be one of"),
    ("classes: [1, 2]", r"classes must lie in \[2, 10\]"),
    ("dataset: mnist", "digits source reads no registry dataset"),
    ("unknown_key: 1", "unknown_key"),
])
def test_settings_are_read_strictly(tmp_path, text, message):
    lines = open(TINY).read().splitlines()
    key = text.split(":")[0]
    lines = [line for line in lines if not line.startswith(f"{key}:")] + [text]
    path = tmp_path / "multicolored.yaml"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ParamsError, match=message) as error:
        MulticoloredSettings.load(path)
    assert "\n" not in str(error.value)


def test_every_tier_validates_offline():
    for tier in ("tiny", "mini", "full"):
        MulticoloredSettings.load(f"params/{tier}/counteranimal/multicolored.yaml")


def write_idx(path, array: np.ndarray, zipped: bool) -> None:
    header = bytes([0, 0, 8, array.ndim]) + b"".join(int(d).to_bytes(4, "big") for d in array.shape)
    raw = header + array.astype(np.uint8).tobytes()
    path.parent.mkdir(parents=True, exist_ok=True)
    if zipped:
        path.with_name(path.name + ".gz").write_bytes(gzip.compress(raw))
    else:
        path.write_bytes(raw)


def test_mnist_loader_reads_a_fake_idx_tree_and_names_what_is_missing(tmp_path, monkeypatch):
    from lib.data.registry import DatasetMissingError, open_dataset, spec

    with pytest.raises(DatasetMissingError) as error:
        open_dataset("mnist", root=tmp_path, split="train")
    assert str(tmp_path / "MNIST" / "raw") in str(error.value) and spec("mnist").source in str(error.value)
    raw = tmp_path / "MNIST" / "raw"
    rng = np.random.default_rng(0)
    images, labels = rng.integers(0, 256, (6, 28, 28)), np.array([0, 1, 2, 3, 4, 5])
    write_idx(raw / "train-images-idx3-ubyte", images, zipped=True)
    write_idx(raw / "train-labels-idx1-ubyte", labels, zipped=False)
    write_idx(raw / "t10k-images-idx3-ubyte", images[:4], zipped=False)
    write_idx(raw / "t10k-labels-idx1-ubyte", labels[:4], zipped=True)
    train = open_dataset("mnist", root=tmp_path, split="train")
    image, target = train[2]
    assert (len(train), target, image.size) == (6, 2, (28, 28))
    assert np.asarray(image)[3, 4].tolist() == [images[2, 3, 4]] * 3
    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(tmp_path))
    settings = tiny_settings(source="mnist", dataset="mnist", train_images=5)
    from lib.counteranimal.multicolored import grey_digits

    train_x, train_d, test_x, test_d = grey_digits(settings, 0)
    assert train_x.shape == (5, 28, 28) and test_d.tolist() == [0, 1, 2, 3]
    np.testing.assert_allclose(train_x[1], images[1] / 255.0)


def test_a_missing_mnist_stops_the_study_before_any_compute(tmp_path, monkeypatch):
    from lib.data.registry import DatasetMissingError

    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(tmp_path))
    study = MulticoloredStudy(tiny_settings(source="mnist", dataset="mnist"), tmp_path / "results")
    with pytest.raises(DatasetMissingError, match="mnist"):
        study.jobs()


def test_tiny_run_end_to_end(tmp_path):
    pytest.importorskip("torch")
    settings, frame = run_study(TINY, str(tmp_path))
    assert set(frame["train_method"]) == {"Contrastive", "Supervised"} and set(frame["metric"]) == set(METRICS)
    runs = len(settings.classes) * len(settings.p_inv) * len(settings.p_spu) * len(settings.seeds)
    assert len(frame) == runs * 2 * len(METRICS)
    rest = frame[frame["metric"] == "rest class"]
    assert rest[rest["classes"] == 2]["value"].isna().all() and rest[rest["classes"] == 3]["value"].notna().all()
    assert frame["value"].dropna().between(0, 100).all()
    again = run_study(TINY, str(tmp_path))[1]  # read back from the store, identical
    assert again.equals(frame)
    cells = cell_means(frame)
    assert (cells["seeds"] == len(settings.seeds)).all()
    assert len(findings(frame, settings.margin)) == 2 and len(spurious_findings(frame)) == 2
    fig, data = draw_table08({"paper": table08_frame(), "ours": cells})
    assert len(fig.axes) == 8 and set(data["source"]) == {"paper", "ours"}


def test_accuracies_of_hand_made_predictions():
    import pandas as pd

    run = pd.DataFrame({"method": "supervised", "test_set": ["rand"] * 4 + ["rev"] * 2,
                        "label": [0, 1, 2, 2, 0, 1], "prediction": [0, 0, 2, 1, 1, 1],
                        "train_size": 10, "classes": 3, "p_inv": 0.9, "p_spu": 0.9, "seed": 0})
    values = accuracies(run).set_index("metric")["value"]
    assert values.to_dict() == {METRICS[0]: 50.0, METRICS[1]: 50.0, METRICS[2]: 50.0}


def test_precompute_only_for_the_notebooks_that_read_the_study(tmp_path):
    params = {"multicolored_params": TINY, "results_dir": str(tmp_path)}
    assert precompute(params, ["table07"]) == 0
    assert precompute({"results_dir": str(tmp_path)}, ["table07"]) == 0  # nor needs its settings
    assert not (tmp_path / "counteranimal").exists()


def test_cell_gaps_are_paired_differences_with_an_interval_over_seeds():
    import pandas as pd

    rows = [{"classes": 2, "p_inv": 0.9, "p_spu": 0.9, "seed": seed, "metric": METRICS[1], "train_method": method,
             "value": value} for seed, (c, s) in enumerate([(50.0, 40.0), (54.0, 40.0), (52.0, 44.0)])
            for method, value in (("Contrastive", c), ("Supervised", s))]
    gaps = cell_gaps(pd.DataFrame(rows))
    assert len(gaps) == 1 and gaps["gap"].iloc[0] == pytest.approx(32 / 3)
    assert gaps["low"].iloc[0] < 32 / 3 < gaps["high"].iloc[0]
