"""Known-answer tests of the shared protocols: kNN probing, ranking, linear probing, the training loop, subsets."""

import numpy as np
import pytest
import torch
from sklearn.neighbors import KNeighborsClassifier

from lib.data.subsets import class_balanced_indices, per_class_count
from lib.evaluate.features import extract_features
from lib.evaluate.knn import ZScore, knn_votes
from lib.evaluate.ranking import rank_classes, topk_accuracy
from lib.models.standins import build_standin
from lib.train.heads import Classifier, layer_decay_groups, set_drop_path
from lib.train.config import TrainConfig
from lib.train.loop import tensor_batches, train
from lib.train.probe import fit_linear_probe, probe_scores
from lib.train.schedule import scaled_lr, warmup_cosine

# 1-D training points: class 0 at 0, 1, 2; class 1 at 10, 11; class 2 at 4.
TRAIN_X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [4.0]])
TRAIN_Y = np.array([0, 0, 0, 1, 1, 2])


def test_knn_uniform_vote_known_answer():
    votes = knn_votes(TRAIN_X, TRAIN_Y, np.array([[3.0]]), num_classes=3, k=3)
    # nearest to 3: 2 (d=1), 4 (d=1), 1 (d=2) -> class 0 twice, class 2 once
    np.testing.assert_array_equal(votes, [[2.0, 0.0, 1.0]])


def test_knn_distance_vote_known_answer():
    votes = knn_votes(TRAIN_X, TRAIN_Y, np.array([[3.5]]), num_classes=3, k=3, weighting="distance")
    # neighbours 4 (d=0.5, class 2), 2 (d=1.5, class 0), 1 (d=2.5, class 0)
    np.testing.assert_allclose(votes, [[1 / 1.5 + 1 / 2.5, 0.0, 2.0]])


def test_knn_exact_match_takes_the_whole_distance_vote():
    votes = knn_votes(TRAIN_X, TRAIN_Y, np.array([[4.0]]), num_classes=3, k=3, weighting="distance")
    np.testing.assert_array_equal(votes, [[0.0, 0.0, 1.0]])


def test_ties_go_to_the_lower_class_index():
    scores = np.array([[1.0, 2.0, 2.0, 0.5]])
    np.testing.assert_array_equal(rank_classes(scores, 4), [[1, 2, 0, 3]])


@pytest.mark.parametrize("weighting", ["uniform", "distance"])
def test_knn_agrees_with_scikit_learn(weighting):
    rng = np.random.default_rng(0)
    train_x, test_x = rng.normal(size=(120, 5)), rng.normal(size=(40, 5))
    train_y = rng.integers(0, 4, size=120)
    ours = rank_classes(knn_votes(train_x, train_y, test_x, 4, k=20, weighting=weighting), 1)[:, 0]
    reference = KNeighborsClassifier(n_neighbors=20, weights=weighting, algorithm="brute").fit(train_x, train_y)
    np.testing.assert_array_equal(ours, reference.predict(test_x))


def test_normalisation_uses_training_statistics_only():
    rng = np.random.default_rng(1)
    train_x = rng.normal(5.0, 3.0, size=(50, 2))
    scaler = ZScore.fit(train_x)
    np.testing.assert_allclose(scaler.mean, train_x.mean(axis=0))
    query = np.array([[5.0, 5.0]])
    other_test = rng.normal(100.0, 50.0, size=(30, 2))  # a far-off test set must not move the statistics
    train_y = rng.integers(0, 3, size=50)
    alone = knn_votes(train_x, train_y, query, 3, k=5, normalize=True)
    together = knn_votes(train_x, train_y, np.vstack([query, other_test]), 3, k=5, normalize=True)[:1]
    np.testing.assert_array_equal(alone, together)


def test_topk_accuracy_known_answer():
    ranked = np.array([[0, 1], [1, 0], [2, 0]])
    assert topk_accuracy(ranked, np.array([0, 0, 1]), 1) == pytest.approx(1 / 3)
    assert topk_accuracy(ranked, np.array([0, 0, 1]), 2) == pytest.approx(2 / 3)
    with pytest.raises(ValueError):
        topk_accuracy(ranked, np.array([0, 0, 1]), 3)


def test_schedule_and_lr_scaling():
    assert scaled_lr(0.1, 1024) == pytest.approx(0.4)
    assert [warmup_cosine(s, 10, 2) for s in (0, 1)] == [0.5, 1.0]
    assert warmup_cosine(2, 10, 2) == pytest.approx(1.0)
    assert warmup_cosine(6, 10, 2) == pytest.approx(0.5)


def _images(n=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(n, 3, 32, 32, generator=g), torch.randint(0, 4, (n,), generator=g)


def test_frozen_backbone_keeps_parameters_and_batchnorm_statistics():
    model = Classifier(build_standin("tiny_resnet", num_classes=0, seed=0), 4, batchnorm_head=True, frozen_backbone=True)
    before = {k: v.clone() for k, v in model.backbone.state_dict().items()}
    head_before = model.head[1].weight.clone()
    x, y = _images()
    train(model, tensor_batches(x, y, 8, seed=0), TrainConfig(epochs=2, batch_size=8, base_lr=0.5))
    for name, value in model.backbone.state_dict().items():
        assert torch.equal(value, before[name]), name
    assert not torch.equal(model.head[1].weight, head_before)


def test_unfrozen_backbone_updates_batchnorm_statistics():
    model = Classifier(build_standin("tiny_resnet", num_classes=0, seed=0), 4)
    before = model.backbone.bn1.running_mean.clone()
    x, y = _images()
    train(model, tensor_batches(x, y, 8, seed=0), TrainConfig(epochs=1, batch_size=8, base_lr=0.1))
    assert not torch.equal(model.backbone.bn1.running_mean, before)


def test_training_is_deterministic_and_learns():
    x, y = _images(32)
    runs = []
    for _ in range(2):
        model = Classifier(build_standin("tiny_vit", num_classes=0, seed=3), 4)
        losses = train(model, tensor_batches(x, y, 8, seed=1), TrainConfig(epochs=6, batch_size=8, base_lr=0.5, warmup_epochs=1))
        runs.append((losses, model.head.weight.detach().clone()))
    assert runs[0][0] == runs[1][0] and torch.equal(runs[0][1], runs[1][1])
    assert runs[0][0][-1] < runs[0][0][0]


def test_layer_decay_scales_blocks_geometrically_and_head_fully():
    model = Classifier(build_standin("tiny_vit", num_classes=0), 4)
    groups = layer_decay_groups(model, layer_decay=0.5, weight_decay=0.05)
    scales = sorted({g["lr_scale"] for g in groups})
    assert scales == [0.125, 0.25, 0.5, 1.0]  # embeddings, block 0, block 1, final norm + head
    head_ids = {id(p) for p in model.head.parameters()}
    assert all(g["lr_scale"] == 1.0 for g in groups if {id(p) for p in g["params"]} <= head_ids)


def test_drop_path_rates_increase_linearly_with_depth():
    vit = build_standin("tiny_vit")
    set_drop_path(vit, 0.2)
    assert isinstance(vit.blocks[0].drop_path1, torch.nn.Identity)
    assert vit.blocks[1].drop_path1.drop_prob == pytest.approx(0.2)


def test_linear_probe_on_separable_features():
    rng = np.random.default_rng(0)
    labels = np.repeat(np.arange(3), 30)
    features = rng.normal(size=(90, 4)) + 4 * np.eye(3, 4)[labels]
    config = TrainConfig(epochs=30, batch_size=16, base_lr=1.0)
    for batchnorm in (False, True):
        head = fit_linear_probe(features, labels, 3, config, batchnorm)
        assert topk_accuracy(rank_classes(probe_scores(head, features), 1), labels, 1) > 0.95


def test_extract_features_restores_mode_and_changes_nothing():
    backbone = build_standin("tiny_resnet", num_classes=0).train()
    before = {k: v.clone() for k, v in backbone.state_dict().items()}
    x, y = _images(8)
    features, targets = extract_features(backbone, tensor_batches(x, y, 4, seed=0, shuffle=False))
    assert features.shape == (8, backbone.num_features) and backbone.training
    assert all(torch.equal(v, before[k]) for k, v in backbone.state_dict().items())
    np.testing.assert_array_equal(targets, y.numpy())


def test_class_balanced_subset_has_exactly_the_requested_count():
    labels = np.repeat(np.arange(5), [10, 12, 30, 11, 50])
    chosen = class_balanced_indices(labels, 7, seed=0)
    assert np.bincount(labels[chosen]).tolist() == [7] * 5
    np.testing.assert_array_equal(chosen, class_balanced_indices(labels, 7, seed=0))
    assert per_class_count(labels, 0.1) == round(0.1 * 113 / 5)
    with pytest.raises(ValueError, match="fewer than"):
        class_balanced_indices(labels, 11, seed=0)


def test_full_study_without_data_names_every_missing_dataset(tmp_path, monkeypatch):
    from lib.data.registry import DatasetMissingError
    from lib.ssl_protocols.study import Study, StudySettings

    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(tmp_path / "data"))
    settings = StudySettings.load("params/full/ssl_protocols/study.yaml")
    assert len(settings.models) == 26
    with pytest.raises(DatasetMissingError, match="15 dataset") as error:  # 14 entries; ImageNet's train and val folders
        Study(settings, tmp_path / "results").run()
    assert "imagenet/train" in str(error.value) and "cifar" in str(error.value)
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize("tier", ["tiny", "mini", "full"])
def test_study_settings_validate(tier):
    from lib.ssl_protocols.study import StudySettings

    StudySettings.load(f"params/{tier}/ssl_protocols/study.yaml")


def test_study_settings_reject_unknown_keys_and_members(tmp_path):
    import yaml

    from lib.params import ParamsError
    from lib.ssl_protocols.study import StudySettings

    good = yaml.safe_load(open("params/tiny/ssl_protocols/study.yaml"))
    for change, message in (({"epochs": 3}, "unknown parameter"), ({"models": ["byol:tiny_vit:1"]}, "zoo member"),
                            ({"out_of_domain": ["mnist"]}, "unknown mini domains")):
        path = tmp_path / "study.yaml"
        path.write_text(yaml.safe_dump({**good, **change}))
        with pytest.raises(ParamsError, match=message):
            StudySettings.load(path)


def test_a_diverging_run_stops_with_a_clear_error():
    x, y = _images(16)
    model = Classifier(build_standin("tiny_resnet", num_classes=0, seed=0), 4)
    with pytest.raises(FloatingPointError, match="training diverged"):
        train(model, tensor_batches(x, y, 8, seed=0), TrainConfig(epochs=1, batch_size=8, base_lr=1.0),
              loss=lambda m, inputs, targets: m(inputs).sum() * float("inf"))


def test_full_study_without_weights_names_every_missing_model(tmp_path, monkeypatch, make_tree, empty_caches):
    from dataclasses import replace

    from lib.models.registry import WeightsMissingError
    from lib.ssl_protocols.study import Study, StudySettings

    for split in ("train", "test"):
        make_tree(tmp_path / "data" / "food-101" / split, {"apple_pie": 1})
    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(tmp_path / "data"))
    settings = replace(StudySettings.load("params/full/ssl_protocols/study.yaml"),
                       in_domain="Food101=food101_train/food101_test", out_of_domain=[])
    with pytest.raises(WeightsMissingError, match="26 model") as error:
        Study(settings, tmp_path / "results").jobs()
    assert "ssl_dino_rn50" in str(error.value) and str(tmp_path / "weights") in str(error.value)
