import pytest
import torch
from torch import nn

from lib.finetune.interpolation import (
    PAPER_ALPHA_GRID,
    average_state_dicts,
    interpolate,
    uniform_soup,
    wise_ft_sweep,
)


def _small_bn_net() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 5))


def _trained_copy(seed: int) -> dict[str, torch.Tensor]:
    """Weights, BN statistics and num_batches_tracked all moved away from the initial model's."""
    model = _small_bn_net()
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn(p.shape, generator=generator) * 0.1)
    model.train()
    for _ in range(seed):
        model(torch.randn(4, 3, 8, 8, generator=generator) + seed)
    return model.state_dict()


@pytest.fixture(scope="module")
def states():
    return _small_bn_net().state_dict(), _trained_copy(2), _trained_copy(3)


def _equal(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(a[k].dtype == b[k].dtype and torch.equal(a[k], b[k]) for k in a)


def test_endpoints_are_the_endpoint_models_exactly(states):
    pre, ft, _ = states
    assert _equal(interpolate(pre, ft, 0.0), pre)
    assert _equal(interpolate(pre, ft, 1.0), ft)
    # the paper's Eq. 3 weights the pretrained model by alpha
    assert _equal(interpolate(pre, ft, 1.0, convention="imagenet_rib"), pre)
    assert _equal(interpolate(pre, ft, 0.0, convention="imagenet_rib"), ft)


def test_alpha_weights_the_finetuned_model_under_the_wise_ft_convention(states):
    pre, ft, _ = states
    key = "4.weight"
    torch.testing.assert_close(interpolate(pre, ft, 0.3)[key], 0.7 * pre[key] + 0.3 * ft[key])
    rib = interpolate(pre, ft, 0.7, convention="imagenet_rib")
    for name, value in interpolate(pre, ft, 0.3).items():
        torch.testing.assert_close(value, rib[name])
    assert interpolate(pre, ft, 0.5)["1.running_var"].dtype == torch.float32


def test_integer_buffers_are_rounded_weighted_means(states):
    pre, ft, other = states
    assert (int(pre["1.num_batches_tracked"]), int(ft["1.num_batches_tracked"])) == (0, 2)
    assert int(interpolate(pre, ft, 0.5)["1.num_batches_tracked"]) == 1
    assert int(interpolate(pre, ft, 0.8)["1.num_batches_tracked"]) == 2
    assert uniform_soup([pre, ft, other])["1.num_batches_tracked"].dtype == torch.int64


def test_soups(states):
    pre, ft, other = states
    assert _equal(uniform_soup([ft, ft, ft]), ft)
    assert _equal(uniform_soup([pre, ft]), interpolate(pre, ft, 0.5))
    soup = uniform_soup([pre, ft, other])
    torch.testing.assert_close(soup["0.weight"], (pre["0.weight"] + ft["0.weight"] + other["0.weight"]) / 3)
    torch.testing.assert_close(soup["1.running_mean"], (pre["1.running_mean"] + ft["1.running_mean"] + other["1.running_mean"]) / 3)
    _small_bn_net().load_state_dict(soup)


def test_sweep_uses_the_paper_grid_by_default(states):
    pre, ft, _ = states
    sweep = list(wise_ft_sweep(pre, ft))
    assert [alpha for alpha, _ in sweep] == list(PAPER_ALPHA_GRID) == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    assert _equal(sweep[4][1], interpolate(pre, ft, 0.5))


def test_errors():
    a, b = nn.Linear(2, 2).state_dict(), nn.Linear(2, 3).state_dict()
    with pytest.raises(ValueError, match="sum to 1"):
        average_state_dicts([a, a], [0.5, 0.6])
    with pytest.raises(ValueError, match="different keys"):
        average_state_dicts([a, {"weight": a["weight"]}], [0.5, 0.5])
    with pytest.raises(RuntimeError):
        uniform_soup([a, b])
    with pytest.raises(ValueError, match="alpha"):
        interpolate(a, a, 1.5)
    with pytest.raises(ValueError, match="convention"):
        interpolate(a, a, 0.5, convention="reversed")
