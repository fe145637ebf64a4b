import math

import open_clip.zero_shot_metadata
import pytest
import torch
import torch.nn.functional as F
from open_clip.tokenizer import SimpleTokenizer

from lib.finetune.templates import IMAGENET_RIB_TEMPLATE, OPENAI_IMAGENET_TEMPLATES, SINGLE_TEMPLATE
from lib.finetune.zeroshot import (
    ZeroShotClassifier,
    clamp_logit_scale_,
    classifier_flyp_loss,
    class_embeddings,
    clip_contrastive_loss,
    flyp_loss,
    tokenize_prompts,
)
from lib.models.standins import build_standin

CLASSES = ["dog", "cat", "golden retriever"]


@pytest.fixture(scope="module")
def tokenizer():
    # open_clip's BPE tokenizer ships its vocabulary with the package: it works offline.
    return SimpleTokenizer(context_length=16)


@pytest.fixture
def clip():
    return build_standin("tiny_clip", image_size=32, seed=0).eval()


def test_template_sets():
    assert len(OPENAI_IMAGENET_TEMPLATES) == 80 == len(set(OPENAI_IMAGENET_TEMPLATES))
    assert all(t.count("{}") == 1 for t in OPENAI_IMAGENET_TEMPLATES)
    # the same 80 prompts, in the same order, as open_clip's own copy of CLIP's ImageNet templates
    assert list(OPENAI_IMAGENET_TEMPLATES) == [f("{}") for f in open_clip.zero_shot_metadata.OPENAI_IMAGENET_TEMPLATES]
    assert SINGLE_TEMPLATE == ("a photo of a {}.",) and IMAGENET_RIB_TEMPLATE == ("This is a photo of a {}",)


def test_tokens_are_grouped_by_class_then_template(tokenizer):
    tokens = tokenize_prompts(tokenizer, CLASSES, OPENAI_IMAGENET_TEMPLATES[:4])
    assert tokens.shape == (3, 4, 16)
    assert torch.equal(tokens[2, 1], tokenizer([OPENAI_IMAGENET_TEMPLATES[1].format("golden retriever")])[0])


def test_class_embeddings_average_normalised_prompts_and_renormalise(clip, tokenizer):
    tokens = tokenize_prompts(tokenizer, CLASSES, OPENAI_IMAGENET_TEMPLATES[:5])
    with torch.no_grad():
        embeddings = class_embeddings(clip, tokens)
        prompts = F.normalize(clip.encode_text(tokens[1]), dim=-1)
    expected = prompts.mean(dim=0) / prompts.mean(dim=0).norm()
    torch.testing.assert_close(embeddings[1], expected)
    torch.testing.assert_close(embeddings.norm(dim=-1), torch.ones(3))
    with torch.no_grad():
        single = class_embeddings(clip, tokenize_prompts(tokenizer, CLASSES, SINGLE_TEMPLATE))
        direct = F.normalize(clip.encode_text(tokenizer([SINGLE_TEMPLATE[0].format(c) for c in CLASSES])), dim=-1)
    torch.testing.assert_close(single, direct)


def test_class_embeddings_do_not_depend_on_the_prompt_chunk(clip, tokenizer, monkeypatch):
    import lib.finetune.zeroshot as zeroshot

    tokens = tokenize_prompts(tokenizer, CLASSES, OPENAI_IMAGENET_TEMPLATES[:5])
    with torch.no_grad():
        whole = class_embeddings(clip, tokens)
        monkeypatch.setattr(zeroshot, "PROMPT_CHUNK", 4)  # 15 prompts in chunks of 4
        torch.testing.assert_close(class_embeddings(clip, tokens), whole, atol=1e-6, rtol=1e-5)


def test_classifier_logits_use_the_model_logit_scale(clip, tokenizer):
    tokens = tokenize_prompts(tokenizer, CLASSES, SINGLE_TEMPLATE)
    head = ZeroShotClassifier(clip, tokens)
    images = torch.rand(2, 3, 32, 32)
    with torch.no_grad():
        logits = head(images)
        image = F.normalize(clip.encode_image(images), dim=-1)
        expected = clip.logit_scale.exp() * image @ class_embeddings(clip, tokens).T
    assert logits.shape == (2, 3)
    torch.testing.assert_close(logits, expected)
    assert set(head.state_dict()) == {f"model.{k}" for k in clip.state_dict()}  # tokens are not persisted


def test_trainable_text_tower_gets_gradients_and_frozen_one_does_not(tokenizer):
    tokens = tokenize_prompts(tokenizer, CLASSES, SINGLE_TEMPLATE)
    images, labels = torch.rand(2, 3, 32, 32), torch.tensor([0, 2])
    for mode, text_grads in (("trainable", True), ("frozen", False)):
        clip = build_standin("tiny_clip", image_size=32, seed=0)
        head = ZeroShotClassifier(clip, tokens, text_tower=mode)
        F.cross_entropy(head(images), labels).backward()
        assert clip.visual.conv1.weight.grad is not None and clip.logit_scale.grad is not None
        assert (clip.token_embedding.weight.grad is not None) == text_grads
    assert "frozen_class_embeddings" in head.state_dict()
    with pytest.raises(ValueError, match="text_tower"):
        ZeroShotClassifier(clip, tokens, text_tower="cached")


def test_clip_loss_known_value():
    features = torch.eye(2)
    scale = torch.tensor(3.0)
    # logits = 3 I: each row's cross-entropy is log(1 + e^-3), in both directions
    assert clip_contrastive_loss(features, features, scale).item() == pytest.approx(math.log(1 + math.exp(-3)), rel=1e-6)
    swapped = clip_contrastive_loss(features, features.flip(0), scale).item()
    assert swapped == pytest.approx(math.log(1 + math.exp(3)), rel=1e-6)


def test_flyp_loss_contrasts_images_with_their_label_prompts(clip, tokenizer):
    tokens = tokenize_prompts(tokenizer, CLASSES, SINGLE_TEMPLATE)[:, 0]
    images, labels = torch.rand(3, 3, 32, 32), torch.tensor([2, 0, 2])
    clip.train()
    loss = flyp_loss(clip, images, labels, tokens)
    expected = clip_contrastive_loss(clip.encode_image(images), clip.encode_text(tokens[labels]), clip.logit_scale.exp())
    torch.testing.assert_close(loss, expected)
    loss.backward()
    assert clip.visual.conv1.weight.grad is not None and clip.token_embedding.weight.grad is not None
    assert clip.logit_scale.grad is not None


def test_logit_scale_clamp(clip):
    with torch.no_grad():
        clip.logit_scale.fill_(10.0)
    clamp_logit_scale_(clip)
    assert clip.logit_scale.item() == pytest.approx(math.log(100))


def test_head_over_other_classes_shares_the_towers(clip, tokenizer):
    head = ZeroShotClassifier(clip, tokenize_prompts(tokenizer, CLASSES, SINGLE_TEMPLATE))
    other = head.with_class_tokens(tokenize_prompts(tokenizer, ["car", "truck"], OPENAI_IMAGENET_TEMPLATES[:2]))
    assert other.model is head.model and other.text_tower == "trainable" and other.class_tokens.shape == (2, 2, 16)
    images = torch.rand(2, 3, 32, 32)
    before = other(images).detach()
    with torch.no_grad():
        head.model.visual.proj.mul_(-1.0)  # a change made through one head shows in the other
    torch.testing.assert_close(other(images).detach(), -before)
    assert set(other.state_dict()) == set(head.state_dict())  # fine-tuned weights load into either head


def test_flyp_through_a_classifier_uses_its_first_template_prompts(clip, tokenizer):
    tokens = tokenize_prompts(tokenizer, CLASSES, OPENAI_IMAGENET_TEMPLATES[:3])
    images, labels = torch.rand(3, 3, 32, 32), torch.tensor([2, 0, 2])
    loss = classifier_flyp_loss(ZeroShotClassifier(clip, tokens), images, labels)
    torch.testing.assert_close(loss, flyp_loss(clip, images, labels, tokens[:, 0]))
    with pytest.raises(ValueError, match="text tower"):
        classifier_flyp_loss(ZeroShotClassifier(clip, tokens, text_tower="frozen"), images, labels)
