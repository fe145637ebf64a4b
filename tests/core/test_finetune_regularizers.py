import numpy as np
import pytest
import torch
from torch import nn

from lib.finetune.regularizers import diagonal_fisher, ewc_anchor, l2_anchor
from lib.models.standins import build_standin

X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, -2.0]])
Y = np.array([0, 1, 1])
W = np.array([[0.5, -0.2], [0.1, 0.3]])
B = np.array([0.1, -0.4])


def _logistic_model() -> nn.Linear:
    """Two-class softmax regression (a logistic model) with fixed weights."""
    model = nn.Linear(2, 2).double()
    with torch.no_grad():
        model.weight.copy_(torch.from_numpy(W))
        model.bias.copy_(torch.from_numpy(B))
    return model


def _score(x: np.ndarray, label: int) -> tuple[np.ndarray, np.ndarray]:
    """Hand gradient of log softmax(Wx + b)[label]: d/dW[c] = (1[c = label] - p_c) x, d/db[c] = 1[c = label] - p_c."""
    logits = W @ x + B
    p = np.exp(logits - logits.max())
    p /= p.sum()
    residual = np.eye(2)[label] - p
    return np.outer(residual, x), residual


def _batches():
    return [(torch.from_numpy(X[:2]), torch.from_numpy(Y[:2])), (torch.from_numpy(X[2:]), torch.from_numpy(Y[2:]))]


def test_empirical_fisher_matches_hand_computation():
    fisher = diagonal_fisher(_logistic_model(), _batches(), labels="empirical")
    scores = [_score(x, y) for x, y in zip(X, Y)]
    np.testing.assert_allclose(fisher["weight"].numpy(), np.mean([gw**2 for gw, _ in scores], axis=0), rtol=1e-12)
    np.testing.assert_allclose(fisher["bias"].numpy(), np.mean([gb**2 for _, gb in scores], axis=0), rtol=1e-12)


def test_sampled_fisher_converges_to_the_expected_fisher():
    x = X[0]
    logits = W @ x + B
    p = np.exp(logits) / np.exp(logits).sum()
    expected = sum(p[label] * _score(x, label)[0] ** 2 for label in (0, 1))
    repeated = [(torch.from_numpy(np.tile(x, (200, 1))), torch.zeros(200, dtype=torch.long))] * 20
    fisher = diagonal_fisher(_logistic_model(), repeated, labels="sampled", generator=torch.Generator().manual_seed(0))
    np.testing.assert_allclose(fisher["weight"].numpy(), expected, rtol=0.08)
    empirical = diagonal_fisher(_logistic_model(), repeated, labels="empirical")["weight"].numpy()
    assert not np.allclose(empirical, expected, rtol=0.08)  # the two label choices really differ


def test_fisher_restores_mode_and_leaves_batchnorm_statistics():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.Flatten(), nn.Linear(4 * 6 * 6, 3)).train()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    batch = [(torch.randn(2, 3, 8, 8), torch.tensor([0, 1]))]
    fisher = diagonal_fisher(model, batch, generator=torch.Generator().manual_seed(0))
    assert model.training
    assert all(torch.equal(v, model.state_dict()[k]) for k, v in before.items())
    assert set(fisher) == {n for n, _ in model.named_parameters()}
    with pytest.raises(ValueError, match="labels"):
        diagonal_fisher(model, batch, labels="true")


def test_penalties_are_zero_at_the_anchor_and_follow_the_documented_convention():
    model = build_standin("tiny_vit", seed=0)
    l2 = l2_anchor(model, coefficient=0.3)
    fisher = {n: torch.rand(p.shape, generator=torch.Generator().manual_seed(1)) for n, p in model.named_parameters()}
    ewc = ewc_anchor(model, fisher, coefficient=5.0)
    assert l2.penalty(model).item() == 0.0 and ewc.penalty(model).item() == 0.0
    anchor = {n: p.detach().clone() for n, p in model.named_parameters()}
    generator = torch.Generator().manual_seed(2)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn(p.shape, generator=generator) * 0.1)
    squared = {n: (p.detach() - anchor[n]) ** 2 for n, p in model.named_parameters()}
    expected_l2 = 0.3 * sum(float(s.sum()) for s in squared.values())
    expected_ewc = 5.0 * sum(float((fisher[n] * s).sum()) for n, s in squared.items())
    assert l2.penalty(model).item() == pytest.approx(expected_l2, rel=1e-5)
    assert ewc.penalty(model).item() == pytest.approx(expected_ewc, rel=1e-5)


def test_penalty_gradient_pulls_towards_the_anchor():
    model = _logistic_model()
    anchor = l2_anchor(model)
    with torch.no_grad():
        model.weight.add_(1.0)
    anchor.penalty(model).backward()
    torch.testing.assert_close(model.weight.grad, torch.full((2, 2), 2.0, dtype=torch.float64))
    with pytest.raises(KeyError, match="not in the model"):
        anchor.penalty(nn.Sequential(nn.Linear(2, 2)))
