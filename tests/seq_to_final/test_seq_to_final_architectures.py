"""The 12 architectures of Table 7: shapes, the official layout, and Table 7's parameter counts."""

import subprocess
import sys

import pytest
import torch
from torch import nn

from lib.seq_to_final import architectures as arch

# Table 7's convention (conv/linear weights and biases, no BatchNorm, no ResNet downsample), per the official code.
TABLE7_COUNTS = {
    "Conv-1": 309_450, "Conv-2": 678_090, "Conv-3": 1_562_826, "Conv-4": 1_599_690,
    "Dense-1": 1_227_594, "Dense-2": 1_723_850, "Dense-3": 3_027_658, "Dense-4": 6_880_458,
    "Res-1": 7_387_338, "Res-2": 8_198_346, "Res-3": 10_852_554, "Res-4": 11_000_010,
}


def test_table7_counts_of_every_architecture():
    counts = {r["model"]: r["table7_convention"] for r in arch.parameter_counts()}
    assert counts == TABLE7_COUNTS


def test_four_block_models_are_resnet18_and_densenet121():
    # every parameter of torchvision's resnet18 / densenet121 with a 10-class head
    assert arch.all_parameters(arch.build("Res-4")) == 11_181_642
    assert arch.all_parameters(arch.build("Dense-4")) == 6_964_106


def test_block_plan_follows_the_official_schedule():
    assert arch.block_plan(1) == arch.BlockPlan((64,), (512,), (2,))
    assert arch.block_plan(3) == arch.BlockPlan((64, 128, 256), (128, 256, 512), (2, 2, 2))
    assert arch.block_plan(4) == arch.BlockPlan((64, 64, 128, 256), (64, 128, 256, 512), (1, 2, 2, 2))
    with pytest.raises(ValueError):
        arch.block_plan(0)


@pytest.mark.parametrize("name", arch.ARCHITECTURES)
def test_forward_on_32px_images(name):
    torch.manual_seed(0)
    model = arch.build(name, num_classes=7).eval()
    assert model(torch.zeros(2, 3, 32, 32)).shape == (2, 7)


def test_convnet_blocks_have_no_relu_and_dropout_acts_only_in_training():
    model = arch.build("Conv-4")
    assert not any(isinstance(m, nn.ReLU) for m in model.blocks.modules())
    x = torch.randn(4, 3, 32, 32)
    model.eval()
    assert torch.equal(model(x, dropout=0.5), model(x, dropout=0.5))
    model.train()
    torch.manual_seed(1)
    a = model(x, dropout=0.5)
    torch.manual_seed(2)
    assert not torch.equal(a, model(x, dropout=0.5))


def test_downsample_is_left_out_of_table7_count():
    model = arch.build("Res-2")
    downsample = sum(p.numel() for n, p in model.named_parameters() if ".downsample.0." in n)
    batchnorm = sum(p.numel() for m in model.modules() if isinstance(m, nn.BatchNorm2d) for p in m.parameters())
    assert arch.table7_parameters(model) + downsample + batchnorm == arch.all_parameters(model)


def test_unknown_architecture_is_named():
    with pytest.raises(ValueError, match="Conv-1"):
        arch.build("VGG-16")


def test_importing_the_paper_package_does_not_import_torch():
    code = ("import sys, lib.seq_to_final, lib.seq_to_final.figures, lib.seq_to_final.claims; "
            "from lib.seq_to_final.figures import audit_rows; audit_rows('table02'); "
            "assert 'torch' not in sys.modules, 'torch imported'")
    subprocess.run([sys.executable, "-c", code], check=True)
