"""The downstream heads on cached grid embeddings: the zero-shot head equal to the shared open_clip head,
known answers for predictions, per-image ACC_p and the Tables 2-3 frame, and a tiny end-to-end run."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import torch
from open_clip.tokenizer import SimpleTokenizer

from lib.evaluate.frames import prediction_columns
from lib.finetune.templates import SINGLE_TEMPLATE
from lib.fm_perturbations.accuracies import accuracies
from lib.fm_perturbations.grid import CLEAN, Grid, embed_grid, grid_parameters, torch_embedder
from lib.fm_perturbations.heads import EmbeddingZeroShot, grid_predictions
from lib.fm_perturbations.tables import LINEAR_PROBE, ZERO_SHOT, accuracy_table, image_accuracies
from lib.models.clip import zero_shot_classifier
from lib.models.standins import build_standin
from lib.store import FeatureCache
from lib.train.config import TrainConfig
from lib.train.probe import fit_linear_probe

from test_fm_perturbations_grid import SIZE, photos

NOISE, JPEG = "imagenet_c_gaussian_noise", "jpeg_compression"


def test_zero_shot_head_on_hand_made_embeddings():
    head = EmbeddingZeroShot(2.0 * torch.eye(3), logit_scale=10.0)
    logits = head(torch.tensor([[3.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 5.0, 0.1]]))
    assert logits.argmax(dim=1).tolist() == [0, 2, 1]
    torch.testing.assert_close(logits[0], torch.tensor([10.0, 0.0, 0.0]))


def test_zero_shot_head_on_embeddings_equals_the_shared_head_on_images():
    model = build_standin("tiny_clip", image_size=16, seed=1)
    classifier = zero_shot_classifier(model, SimpleTokenizer(context_length=model.context_length),
                                      ["cat", "dog", "car"], SINGLE_TEMPLATE, text_tower="frozen").eval()
    images = torch.rand(4, 3, 16, 16, generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        expected = classifier(images)
        got = EmbeddingZeroShot.from_classifier(classifier)(model.encode_image(images))
    torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4)


def hand_grid() -> Grid:
    """Four images of two classes in the plane (class 0 along +x, class 1 along +y). Clean: all right.
    Noise at 0.1: all right; at 0.2: images 0 and 1 swapped to the other axis. JPEG: all swapped."""
    clean = np.array([[1.0, 0.1], [0.1, 1.0], [2.0, 0.0], [0.0, 2.0]])
    swapped = clean[:, ::-1].copy()
    half = np.vstack([swapped[:2], clean[2:]])
    return Grid("plane", np.array([0, 1, 0, 1]), {NOISE: np.array([0.1, 0.2]), JPEG: np.array([7.0, 25.0])},
                {("m", CLEAN, CLEAN): clean, ("m", NOISE, 0.1): clean, ("m", NOISE, 0.2): half,
                 ("m", JPEG, 7.0): swapped, ("m", JPEG, 25.0): swapped})


def test_predictions_per_image_accuracy_and_table_known_answers():
    predictions = grid_predictions(EmbeddingZeroShot(torch.eye(2), 1.0), hand_grid(), "m", ZERO_SHOT)
    assert len(predictions) == 4 * 5 and prediction_columns(predictions) == ["pred_1", "pred_2"]
    assert predictions.loc[predictions["perturbation"] == CLEAN, "parameter"].isna().all()
    per_image = image_accuracies(predictions).set_index(["perturbation", "item"])["accuracy"]
    assert per_image[NOISE].tolist() == [0.5, 0.5, 1.0, 1.0] and per_image[JPEG].tolist() == [0.0] * 4
    table = accuracy_table(predictions)
    assert list(table.columns) == ["dataset", "head", "model", "perturbation", "quantity", "value", "n_images"]
    assert set(table.columns) >= set(accuracies().columns) - {"printed", "artefact"}
    value = table.set_index(["perturbation", "quantity"])["value"]
    assert value[("", "ACC")] == 100.0
    assert value[("Gaussian noise", "ACC_p")] == 75.0 and value[("Gaussian noise", "drop")] == 25.0
    assert value[("JPEG compression", "ACC_p")] == 0.0 and value[("JPEG compression", "drop")] == 100.0


def test_linear_probe_trained_on_clean_embeddings_reads_the_perturbed_cells():
    rng = np.random.default_rng(0)
    labels = np.repeat([0, 1], 32)
    train = np.where(labels[:, None] == 0, [3.0, 0.0], [0.0, 3.0]) + 0.3 * rng.normal(size=(64, 2))
    probe = fit_linear_probe(train, labels, 2, TrainConfig(epochs=20, batch_size=16, base_lr=0.5), batchnorm=False)
    table = accuracy_table(grid_predictions(probe, hand_grid(), "m", LINEAR_PROBE)).set_index(["perturbation", "quantity"])
    assert table.loc[("", "ACC"), "value"] == 100.0 and table.loc[("Gaussian noise", "drop"), "value"] == 25.0
    assert (table["head"] == LINEAR_PROBE).all()


def test_tiny_end_to_end_grid_heads_and_table(tmp_path):
    data = photos(4)
    model = build_standin("tiny_clip", image_size=SIZE, seed=0)
    embedder = torch_embedder("tiny_clip-0", model, (0.5,) * 3, (0.5,) * 3)
    grid = embed_grid(data, [embedder], grid_parameters([NOISE, JPEG], m=2), seed=0, cache=FeatureCache(tmp_path))
    classifier = zero_shot_classifier(model, SimpleTokenizer(context_length=model.context_length),
                                      ["person", "cup"], SINGLE_TEMPLATE, text_tower="frozen")
    zero_shot = grid_predictions(EmbeddingZeroShot.from_classifier(classifier), grid, embedder.name, ZERO_SHOT)
    probe = fit_linear_probe(grid.clean(embedder.name), grid.targets, 2,
                             TrainConfig(epochs=5, batch_size=4, base_lr=0.1), batchnorm=False)
    linear = grid_predictions(probe, grid, embedder.name, LINEAR_PROBE)
    table = accuracy_table(pd.concat([zero_shot, linear], ignore_index=True))
    assert len(table) == 2 * (1 + 2 * 2) and table["value"].between(-100, 100).all()
    wide = table.pivot_table(index=["head", "perturbation"], columns="quantity", values="value")
    clean = table[table["quantity"] == "ACC"].set_index("head")["value"]
    for (head, perturbation), row in wide.dropna(subset=["ACC_p"]).iterrows():
        assert row["drop"] == pytest.approx(clean[head] - row["ACC_p"])
