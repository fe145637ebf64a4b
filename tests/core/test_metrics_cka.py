import numpy as np
import pytest
import torch

from lib.metrics.cka import (
    FIGURE9_COMPONENTS,
    MinibatchCKA,
    cka,
    hsic,
    layerwise_cka,
    linear_gram,
    record_block_features,
)
from lib.models.standins import build_standin


def _features(seed: int, n: int = 40, p: int = 12) -> torch.Tensor:
    return torch.randn(n, p, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


def _debiased_feature_space(x: np.ndarray, y: np.ndarray) -> float:
    """Kornblith et al.'s feature-space debiased linear CKA (a different route to the same number)."""
    x, y = x - x.mean(0), y - y.mean(0)
    n = len(x)

    def similarity(a: np.ndarray, b: np.ndarray) -> float:
        dot = np.linalg.norm(a.T @ b) ** 2
        rows_a, rows_b = (a * a).sum(1), (b * b).sum(1)
        return dot - n / (n - 2) * rows_a @ rows_b + rows_a.sum() * rows_b.sum() / ((n - 1) * (n - 2))

    return similarity(x, y) / np.sqrt(similarity(x, x) * similarity(y, y))


@pytest.mark.parametrize("debiased", [False, True])
def test_self_similarity_and_invariances(debiased):
    x, y = _features(0), _features(1, p=7) + 0.5 * _features(0)[:, :7]
    assert cka(x, x, debiased) == pytest.approx(1.0)
    rotation, _ = torch.linalg.qr(_features(2, n=12, p=12))
    reference = cka(x, y, debiased)
    assert cka(x @ rotation, y, debiased) == pytest.approx(reference, rel=1e-9)
    assert cka(3.7 * x, 0.2 * y, debiased) == pytest.approx(reference, rel=1e-9)
    assert cka(x + 5.0, y, debiased) == pytest.approx(reference, rel=1e-9)  # centring


def test_known_value_is_squared_pearson_correlation_for_vectors():
    x = torch.tensor([[1.0], [2.0], [3.0], [4.0]])
    y = torch.tensor([[1.0], [3.0], [2.0], [4.0]])
    # centred x = (-1.5, -0.5, 0.5, 1.5), y = (-1.5, 0.5, -0.5, 1.5): r = 4 / 5, CKA = r² = 0.64
    assert cka(x, y) == pytest.approx(0.64)


def test_debiased_matches_the_feature_space_formula():
    x, y = _features(3, n=25, p=6), _features(4, n=25, p=9)
    assert cka(x, y, debiased=True) == pytest.approx(_debiased_feature_space(x.numpy(), y.numpy()), rel=1e-9)
    assert cka(x, y, debiased=True) != pytest.approx(cka(x, y), rel=1e-2)


def test_unbiased_hsic_averages_to_zero_for_independent_features():
    biased, unbiased = [], []
    for seed in range(200):
        k, l = linear_gram(_features(seed, n=12, p=3)), linear_gram(_features(1000 + seed, n=12, p=3))
        biased.append(float(hsic(k, l, debiased=False)))
        unbiased.append(float(hsic(k, l, debiased=True)))
    assert np.mean(biased) > 5 * np.std(biased) / np.sqrt(200)  # the biased estimator is positive on average
    assert abs(np.mean(unbiased)) < 3 * np.std(unbiased) / np.sqrt(200)


def test_minibatch_cka_of_one_batch_is_debiased_cka():
    x, y = _features(5), _features(6)
    accumulator = MinibatchCKA()
    accumulator.update(x, y)
    assert accumulator.value() == pytest.approx(cka(x, y, debiased=True))
    accumulator.update(x, x)
    assert 0 < accumulator.value() < 1


def test_block_features_of_a_timm_vit():
    model = build_standin("tiny_vit", seed=0).eval()
    images = torch.rand(4, 3, 32, 32)
    with torch.no_grad(), record_block_features(model, components=("attn", "mlp", "block") + FIGURE9_COMPONENTS) as features:
        model(images[:2])
        model(images[2:])
        tokens = model.forward_features(images)
    assert set(features) == {(b, c) for b in (0, 1) for c in ("attn", "mlp", "block") + FIGURE9_COMPONENTS}
    assert len(features[(1, "block")]) == 3  # one entry per forward while recording
    last = torch.cat(features[(1, "block")][:2])
    torch.testing.assert_close(model.norm(last.view(4, -1, 48)), tokens)
    assert features[(0, "mlp.fc1")][0].shape == (2, tokens.shape[1] * 96)
    model(images)  # hooks are removed after the context
    assert len(features[(1, "block")]) == 3


def test_layerwise_cka_of_a_model_with_itself_and_a_perturbed_copy():
    images = torch.rand(8, 3, 32, 32, generator=torch.Generator().manual_seed(0))
    recordings = []
    for noise in (0.0, 0.0, 0.3):
        model = build_standin("tiny_vit", seed=0).eval()
        with torch.no_grad():
            for p in model.blocks[1].parameters():
                p.add_(noise * torch.randn(p.shape, generator=torch.Generator().manual_seed(1)))
        with torch.no_grad(), record_block_features(model, tokens="cls") as features:
            model(images)
        recordings.append(features)
    same = layerwise_cka(recordings[0], recordings[1])
    assert list(same.columns) == ["block", "component", "cka"] and len(same) == 6
    np.testing.assert_allclose(same["cka"], 1.0)
    changed = layerwise_cka(recordings[0], recordings[2]).set_index(["block", "component"])["cka"]
    assert changed[(0, "block")] == pytest.approx(1.0) and changed[(1, "block")] < 0.999


def test_open_clip_blocks_whose_attention_returns_a_tuple():
    clip = build_standin("tiny_clip", image_size=32, seed=0).eval()
    blocks = clip.visual.transformer.resblocks
    assert clip.visual.transformer.batch_first  # (batch, tokens, width): "cls" takes token 0 of each image
    with torch.no_grad(), record_block_features(clip.visual, blocks=blocks, tokens="cls") as features:
        clip.encode_image(torch.rand(3, 3, 32, 32))
    assert {key: value[0].shape for key, value in features.items()} == {
        (b, c): (3, 48) for b in (0, 1) for c in ("attn", "mlp", "block")
    }
