"""The ColoredCOCO-style study (Table 7): the colouring rules exactly, Table 7's cells from predictions, the
settings' one-line errors, the findings on known differences, and one tiny run of every approach."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

from lib.counteranimal import coloredcoco
from lib.params import ParamsError

TINY = "params/tiny/counteranimal/coloredcoco.yaml"


@pytest.fixture(scope="module")
def settings() -> coloredcoco.ColoredCocoSettings:
    return coloredcoco.ColoredCocoSettings.load(TINY)


@pytest.fixture(scope="module")
def data(settings) -> dict:
    return coloredcoco.parts(settings, seed=0)


def test_the_fine_tuning_set_puts_exactly_p_spu_of_each_class_on_its_own_colour(settings, data):
    for name in ("train", "id"):
        part = data[name]
        for label in range(settings.classes):
            colours = part.colours[part.labels == label]
            assert (colours == label).sum() == round(settings.p_spu * len(colours))
            others = colours[colours != label]
            assert (others >= len(coloredcoco.BIASED)).all()  # the rest: one of the ten other colours
    assert set(np.unique(data["train"].colours)) - set(range(settings.classes)) <= set(range(9, 19))


def test_the_shifted_test_puts_every_image_on_another_class_s_biased_colour(settings, data):
    ood, in_dist = data["ood"], data["id"]
    assert (ood.colours != ood.labels).all() and (ood.colours < settings.classes).all()
    assert np.array_equal(ood.labels, in_dist.labels)  # the same images, other backgrounds
    strokes = in_dist.images.min(axis=1) > 0.999  # full ink is white on any background, in both tests
    assert strokes.any() and (ood.images.min(axis=1)[strokes] > 0.999).all()
    assert len(set(data["pretrain"].colours)) > settings.classes  # pretraining: colours drawn from all of them


def test_the_parts_split_each_class_in_the_given_shares(settings, data):
    sizes = {name: np.bincount(data[name].labels, minlength=settings.classes) for name in ("pretrain", "train", "id")}
    total = sum(sizes.values())
    for name, share in zip(("pretrain", "train", "id"), settings.fractions):
        assert np.all(np.abs(sizes[name] - share * total) <= 1)


def test_accuracies_are_table07s_cells():
    run = pd.DataFrame({"seed": 0, "approach": ["obj"] * 4, "test_set": ["id", "id", "ood", "ood"],
                        "label": [1, 2, 1, 2], "prediction": [1, 2, 1, 0]})
    cells = coloredcoco.accuracies(run).set_index("metric")["value"]
    assert cells.to_dict() == {"in-distribution": 100.0, "out-of-distribution": 50.0, "drop": 50.0}


@pytest.mark.parametrize("change, message", [
    ({"fractions": [0.5, 0.5]}, "fractions must be three positive shares"),
    ({"classes": 12}, "classes must lie in [2, 9]"),
    ({"p_spu": 1.5}, "p_spu must lie in [0, 1]"),
])
def test_settings_errors_are_one_line(settings, change, message, tmp_path):
    import yaml

    path = tmp_path / "params" / "tiny" / "counteranimal" / "coloredcoco.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(yaml.safe_dump({**dataclasses.asdict(settings), **change}))
    with pytest.raises(ParamsError) as error:
        coloredcoco.ColoredCocoSettings.load(path)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_findings_judge_the_ood_gain_over_supervised_and_each_drop():
    rows = [{"seed": seed, "approach": approach, "metric": metric, "value": value + seed}
            for seed in range(4)
            for approach, ood in (("obj", 12.0), ("objbkg", 6.0), ("supervised", 10.0), ("zero shot", 70.0))
            for metric, value in (("out-of-distribution", ood), ("drop", 90.0 - ood))]
    claim = coloredcoco.findings(pd.DataFrame(rows), margin=5.0)
    assert [f.estimate for f in claim] == pytest.approx([2.0, -4.0])  # paired by seed: no spread at all
    assert {f.verdict for f in claim} == {"supported"}
    premise = coloredcoco.drop_findings(pd.DataFrame(rows))
    assert [f.estimate for f in premise] == pytest.approx([78.0 + 1.5, 84.0 + 1.5, 80.0 + 1.5])  # mean of seeds 0-3


def test_one_tiny_run_predicts_with_every_approach_on_both_test_sets(settings, tmp_path):
    study = coloredcoco.ColoredCocoStudy(settings, tmp_path)
    rows = study._run(0)
    assert set(rows["approach"]) == set(coloredcoco.APPROACHES) and set(rows["test_set"]) == {"id", "ood"}
    assert rows["prediction"].between(0, settings.classes - 1).all()
    cells = coloredcoco.accuracies(rows)
    assert len(cells) == len(coloredcoco.APPROACHES) * len(coloredcoco.METRICS)
