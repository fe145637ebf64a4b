import numpy as np
import pandas as pd
import pytest
from scipy import special

from lib.counteranimal.effective_robustness import above_line, fitted_lines, points, residuals, without_reference


def _frame(common, counter):
    return pd.DataFrame({"common": common, "counter": counter})


def test_points_on_a_line_have_zero_residual_and_a_shift_is_recovered():
    x = np.linspace(50, 90, 12)
    reference = np.column_stack([x, 0.8 * x - 10])
    others = np.column_stack([x[::3], 0.8 * x[::3] - 10 + 5])
    assert residuals(reference, reference, "linear") == pytest.approx(np.zeros(len(x)), abs=1e-9)
    assert residuals(reference, others, "linear") == pytest.approx(np.full(4, 5.0))


def test_logit_axis_recovers_a_logit_shift():
    x = np.linspace(40, 90, 10)
    counter = 100 * special.expit(1.2 * special.logit(x / 100) - 0.5)
    shifted = 100 * special.expit(1.2 * special.logit(x / 100) - 0.5 + 0.3)
    res = residuals(np.column_stack([x, counter]), np.column_stack([x, shifted]), "logit")
    assert (res > 0).all()
    assert residuals(np.column_stack([x, counter]), np.column_stack([x, counter]), "logit") == pytest.approx(0, abs=1e-6)


@pytest.mark.parametrize("shift, verdict", [(5.0, "supported"), (-5.0, "contradicted")])
def test_above_line_verdicts(shift, verdict):
    rng = np.random.default_rng(0)
    x = np.linspace(50, 90, 20)
    reference = _frame(x, 0.8 * x - 10 + rng.normal(0, 0.5, len(x)))
    others = _frame(x[::2], 0.8 * x[::2] - 10 + shift)
    finding = above_line(reference, others, "linear", "others above", resamples=300)
    assert finding.estimate == pytest.approx(shift, abs=0.5)
    assert finding.verdict == verdict


def test_imagenet_models_sit_above_the_clip_line_in_table03_04():
    frame = points(("table03", "table04"))
    finding = above_line(frame[frame["family"] != "ImageNet"], frame[frame["family"] == "ImageNet"], "linear",
                         "claim", resamples=300)
    assert finding.estimate == pytest.approx(2.18, abs=0.01)


def test_without_reference_drops_laion400m_and_vitb32_clips_only():
    frame = without_reference(points(("table03", "table04")))
    clips = frame[frame["family"] != "ImageNet"]
    assert not (clips["pretrain_dataset"] == "LAION400M").any() and not (clips["backbone"] == "ViT/B/32").any()
    assert (frame["family"] == "ImageNet").sum() == 15 and len(clips) == 21


def test_fitted_lines_band_contains_the_fit():
    frame = points(("table03",))
    lines = fitted_lines(frame, {"CLIP": frame["family"].notna()}, resamples=100)
    assert ((lines["low"] <= lines["fit"] + 1e-9) & (lines["fit"] <= lines["high"] + 1e-9)).all()
