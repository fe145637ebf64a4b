"""CounterAnimal evaluation with random-init stand-ins on a generated tree (no weights, no data)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import open_clip
import pytest
import torch
from PIL import Image
from open_clip.tokenizer import SimpleTokenizer
from torch import nn
from torchvision import transforms

from lib.counteranimal import evaluation
from lib.counteranimal.evaluation import (
    PAPER_TEMPLATE, RestrictedRanker, candidate_frame, candidate_sets, imagenet_synset_names, label_names,
    ordered_batches, predictions, reference_candidate_sets, registered_classifier, sets_from_frame, summed_scores,
    templates, zero_shot_head,
)
from lib.counteranimal.metrics import summary
from lib.data.counteranimal import counteranimal
from lib.evaluate.predictions import top_k
from lib.models.registry import WeightsMissingError
from lib.models.standins import build_standin
from tests.conftest import write_images

SIZE = 8


@pytest.fixture(scope="module")
def clip():
    model = build_standin("tiny_clip", image_size=SIZE, seed=0).eval()
    return model, SimpleTokenizer(context_length=model.context_length)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("counteranimal")
    tree = {"9 ostrich": {"common-ground": 3, "counter-water": 2}, "296 ice bear": {"common-snow": 2, "counter-grass": 3}}
    for i, (name, groups) in enumerate(tree.items()):
        for j, (group, count) in enumerate(groups.items()):
            write_images(Path(root) / name / group, count, seed=10 * i + j)
    return counteranimal(root, transform=transforms.Compose([transforms.Resize((SIZE, SIZE)), transforms.ToTensor()]))


def test_default_labels_are_the_full_synset_strings():
    names = label_names("imagenet_synsets")
    assert len(names) == 1000 and names == imagenet_synset_names()
    assert names[296] == "ice bear, polar bear, Ursus Maritimus, Thalarctos maritimus"
    assert label_names("openai_curated")[296] == "polar bear"
    with pytest.raises(ValueError, match="unknown label set"):
        label_names("wordnet")


def test_table_2s_classes_are_45_imagenet_classes_each_reading_needed(monkeypatch):
    from lib.counteranimal.published import TABLE02_READINGS, class_names

    indices = evaluation.table02_imagenet_indices()
    assert len(indices) == 45 and len(set(indices.values())) == 45
    assert (indices[1], indices[14], indices[35]) == (9, 56, 279)  # ostrich; king snake, Arctic fox (garbled in print)
    synsets = {name.lower() for name in imagenet_synset_names()}
    printed = class_names().set_index("class_id")["object_label"].str.lower()
    assert not any(printed[class_id] in synsets for class_id in TABLE02_READINGS)  # no reading where print matches
    monkeypatch.setattr(evaluation, "TABLE02_READINGS", {})
    with pytest.raises(ValueError, match="no ImageNet-1K synset string; add their reading"):
        evaluation.table02_imagenet_indices()


def test_prompt_is_a_parameter_with_the_paper_default(clip):
    model, tokenizer = clip
    head = zero_shot_head(model, tokenizer, labels=["ice bear", "ostrich"])
    assert PAPER_TEMPLATE == "A photo of {}."
    assert torch.equal(head.class_tokens[:, 0], tokenizer(["A photo of ice bear.", "A photo of ostrich."]))
    assert templates("a {}") == ("a {}",) and len(templates("openai_80")) == 80
    with pytest.raises(ValueError, match="neither a template set"):
        templates("A photo of a dog.")


def test_prompt_ensemble_equals_open_clips_classifier_builder(clip):
    model, tokenizer = clip
    names = ["ice bear", "ostrich", "goldfish"]
    ours = zero_shot_head(model, tokenizer, labels=names, prompt="openai_80").text_embeddings()
    with torch.no_grad():
        theirs = open_clip.build_zero_shot_classifier(model, tokenizer, names, templates("openai_80"))
    torch.testing.assert_close(ours, theirs.T, atol=1e-5, rtol=1e-5)


def test_candidate_sets_known_answer_and_forced_target():
    scores = np.array([[0.1, 0.9, 0.5, 0.5, 0.0], [0.3, 0.2, 0.1, 0.0, 0.4]])
    sets = candidate_sets(scores, classes=[2, 0], k=2)
    assert {t: s.tolist() for t, s in sets.items()} == {2: [1, 2], 0: [4, 0]}  # tie 2 vs 3: lower index first
    forced = candidate_sets(scores, classes=[3, 0], k=2, force_target=True)
    assert forced[3].tolist() == [1, 3]
    assert {t: s.tolist() for t, s in sets_from_frame(candidate_frame(sets)).items()} == {0: [4, 0], 2: [1, 2]}


def test_summed_scores_add_each_class_items():
    classes, sums = summed_scores(np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 1.0]]), np.array([7, 5, 7]))
    assert classes.tolist() == [5, 7] and sums.tolist() == [[0.0, 2.0], [4.0, 1.0]]


def test_restricted_ranker_ranks_among_the_class_candidates_only():
    logits = torch.tensor([[9.0, 1.0, 2.0, 3.0], [0.0, 5.0, 4.0, 9.0]])
    ranker = RestrictedRanker([1, 2], {1: np.array([1, 2]), 2: np.array([2, 1, 0])}, k=2)
    assert ranker(logits).tolist() == [[2, 1], [1, 2]]
    with pytest.raises(ValueError, match="more items"):
        ranker(logits)
    tied = RestrictedRanker([0], {0: np.array([3, 1])})  # equal logits: the lower ImageNet index wins
    assert tied(torch.tensor([[0.0, 2.0, 0.0, 2.0]])).tolist() == [[1]]
    with pytest.raises(ValueError, match="no candidate set"):
        RestrictedRanker([1, 3], {1: np.array([1])})


def test_one_vs_1000_and_one_vs_20_frames_of_clip_and_imagenet_models(clip, data):
    model, tokenizer = clip
    head = zero_shot_head(model, tokenizer)  # 1000 synset strings, the paper's prompt
    batches = ordered_batches(data, batch_size=4)
    sets = reference_candidate_sets(head, batches)
    assert sorted(sets) == [9, 296] and all(len(s) == 20 for s in sets.values())
    forced = reference_candidate_sets(head, batches, force_target=True)
    assert all(t in s and len(s) == 20 for t, s in forced.items())
    sets = sets_from_frame(candidate_frame(sets))  # built once, saved, reused by every model
    imagenet_model = nn.Sequential(nn.Flatten(), nn.Linear(3 * SIZE * SIZE, 1000))
    frames = {}
    for name, m in (("clip", head), ("imagenet", imagenet_model)):
        frames[name, "1 vs 1000"] = predictions(m, data, batches, top_k(5), model=name)
        frames[name, "1 vs 20"] = predictions(m, data, batches, RestrictedRanker(data.targets, sets, k=5), model=name)
    for (name, setup), frame in frames.items():
        assert list(frame.columns[:8]) == ["model", "item", "target", "pred_1", "pred_2", "pred_3", "pred_4", "pred_5"]
        assert frame[["class", "group", "background"]].equals(data.items()[["class", "group", "background"]])
        assert set(summary(frame)["metric"]) == {"common", "counter", "drop"}
        if setup == "1 vs 20":  # every model ranks among the same reference sets
            for row in frame.itertuples():
                assert {row.pred_1, row.pred_5} <= set(sets[row.target].tolist())


def test_batches_out_of_item_order_are_refused(clip, data):
    model, tokenizer = clip
    head = zero_shot_head(model, tokenizer, labels=[str(i) for i in range(1000)])
    shuffled = torch.utils.data.DataLoader(data, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(1))
    with pytest.raises(ValueError, match="in order"):
        predictions(head, data, shuffled, top_k(1))


def test_registered_models_become_1000_class_classifiers_with_their_transforms(clip, monkeypatch):
    model, tokenizer = clip
    monkeypatch.setattr(evaluation, "load_pretrained", lambda key, root=None: model)
    monkeypatch.setattr(evaluation, "tokenizer_for", lambda key: tokenizer)
    head, transform = registered_classifier("ca_clip_vit_b_32_laion400m_e31")
    image = transform(Image.new("RGB", (20, 12)))
    assert image.shape == (3, SIZE, SIZE) and head(image[None]).shape == (1, 1000)
    resnet = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(3, 1000))
    monkeypatch.setattr(evaluation, "load_pretrained", lambda key, root=None: resnet)
    classifier, transform = registered_classifier("ca_resnet50_in1k")
    assert classifier is resnet and transform(Image.new("RGB", (300, 260))).shape == (3, 224, 224)


def test_missing_weights_fail_before_any_compute(monkeypatch):
    def missing(key, root=None):  # what load_pretrained raises offline (tests/core/test_models.py)
        raise WeightsMissingError(f"pretrained weights of {key} are not in the local cache")

    def never(key):
        raise AssertionError("the text tower must not run without weights")

    monkeypatch.setattr(evaluation, "load_pretrained", missing)
    monkeypatch.setattr(evaluation, "tokenizer_for", never)
    with pytest.raises(WeightsMissingError, match="ca_clip_vit_b_32_laion400m_e31"):
        registered_classifier("ca_clip_vit_b_32_laion400m_e31")
