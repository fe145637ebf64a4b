"""CKA shift, dataset distances and the accuracy-distance correlation of imagenet_rib's analyses."""

import copy

import numpy as np
import pandas as pd
import pytest
import torch

from lib.imagenet_rib.representations import accuracy_distance_correlation, cka_shift, distances_from
from lib.models.standins import build_standin


def test_cka_of_a_model_with_itself_is_one_and_drops_after_a_change():
    model = build_standin("tiny_vit", num_classes=4, image_size=16, in_chans=1)
    images = torch.rand(24, 1, 16, 16, generator=torch.Generator().manual_seed(0))
    same = cka_shift(model, copy.deepcopy(model), images)
    assert np.allclose(same["cka"], 1.0, atol=1e-5)
    changed = copy.deepcopy(model)
    with torch.no_grad():
        changed.blocks[1].mlp.fc1.weight.add_(torch.randn_like(changed.blocks[1].mlp.fc1.weight))
    shifted = cka_shift(model, changed, images)
    block1 = shifted[(shifted["block"] == 1) & (shifted["component"] == "mlp.fc1")]["cka"].item()
    block0 = shifted[(shifted["block"] == 0) & (shifted["component"] == "mlp.fc1")]["cka"].item()
    assert block0 == pytest.approx(1.0, abs=1e-5) and block1 < 0.99


def test_distance_of_a_copy_is_zero_and_grows_with_a_shift():
    g = torch.Generator().manual_seed(0)
    images, labels = torch.rand(40, 1, 4, 4, generator=g), torch.arange(40) % 2
    datasets = {"ref": (images, labels), "copy": (images.clone(), labels.clone()), "shifted": (images + 1.0, labels)}
    d = distances_from("ref", datasets)
    assert d["copy"] == pytest.approx(0.0, abs=1e-6)
    assert d["shifted"] > 1.0


def test_accuracy_distance_correlation_known_answer():
    distance = pd.Series({"a": 1.0, "b": 2.0, "c": 3.0})
    after = pd.DataFrame({"method": ["FT"] * 3 + ["LP"] * 3, "finetune_dataset": ["a", "b", "c"] * 2,
                          "accuracy": [90.0, 80.0, 70.0, 50.0, 50.0, 50.0]})
    out = accuracy_distance_correlation(after, distance).set_index("method")
    assert out.loc["FT", "pearson r"] == pytest.approx(-1.0)
    assert np.isnan(out.loc["LP", "pearson r"])
