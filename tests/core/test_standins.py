import pytest
import torch

from lib.models.standins import STANDINS, build_standin


@pytest.mark.parametrize("name", ["tiny_vit", "tiny_resnet"])
def test_classifier_standins_forward_and_are_seeded(name):
    model = build_standin(name, num_classes=7, image_size=32, seed=3).eval()
    same = build_standin(name, num_classes=7, image_size=32, seed=3)
    other = build_standin(name, num_classes=7, image_size=32, seed=4)
    first = next(iter(model.state_dict().values()))
    assert torch.equal(first, next(iter(same.state_dict().values())))
    assert not torch.equal(first, next(iter(other.state_dict().values())))
    with torch.no_grad():
        assert model(torch.rand(2, 3, 32, 32)).shape == (2, 7)


def test_tiny_vit_has_the_fused_qkv_of_timm_vits():
    model = build_standin("tiny_vit")
    assert any(name.endswith("attn.qkv.weight") for name, _ in model.named_parameters())


@pytest.mark.parametrize("name", ["tiny_clip_small", "tiny_clip", "tiny_clip_large"])
def test_clip_standins_encode_images_and_text(name):
    model = build_standin(name, image_size=32).eval()
    with torch.no_grad():
        image = model.encode_image(torch.rand(2, 3, 32, 32))
        text = model.encode_text(torch.randint(0, 100, (3, 16)))
    assert image.shape == (2, 32) and text.shape == (3, 32)


def test_the_clip_ladder_grows_the_image_tower_alone():
    sizes = {name: (sum(p.numel() for p in model.visual.parameters()), sum(p.numel() for p in model.transformer.parameters()))
             for name in ("tiny_clip_small", "tiny_clip", "tiny_clip_large")
             for model in [build_standin(name, image_size=16)]}
    towers, texts = zip(*sizes.values())
    assert towers[0] < towers[1] < towers[2] and len(set(texts)) == 1


def test_unknown_standin_and_global_rng_untouched():
    with pytest.raises(KeyError, match="available"):
        build_standin("resnet50")
    torch.manual_seed(0)
    expected = torch.rand(1)
    torch.manual_seed(0)
    build_standin("tiny_resnet", seed=9)
    assert torch.equal(torch.rand(1), expected)
    assert set(STANDINS) == {"tiny_vit", "tiny_resnet", "tiny_clip", "tiny_clip_small", "tiny_clip_large"}
