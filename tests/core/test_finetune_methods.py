import pytest
import torch
from torch import nn

from lib.finetune.method_table import uniform_soup_method
from lib.finetune.methods import REGISTRY, TRAINERS, MethodSettings, post_hoc, train_method

SETTINGS = MethodSettings(prompt_lr=1.0, prompt_pad=1, lora_rank=2, lora_alpha=2.0, ewc_coefficient=1.0,
                          ewc_fisher_labels="sampled", ewc_fisher_images=4, l2_coefficient=1.0, lwf_temperature=2.0,
                          lwf_weight=1.0, lp_epochs=1, wise_alpha=0.5, wise_alpha_convention="wise_ft")


def test_every_method_is_trained_or_post_hoc_and_reads_known_settings():
    known = set(MethodSettings.__dataclass_fields__)
    for name, method in REGISTRY.items():
        assert method.name == name and (name not in TRAINERS) == method.post_hoc
        assert set(method.settings) <= known
        assert all(not REGISTRY[i].post_hoc for i in method.ingredients)
    assert [n for n, m in REGISTRY.items() if m.zero_shot] == ["FLYP"]


def test_a_soup_reads_its_ingredients_settings_and_averages_their_weights():
    soup = uniform_soup_method("soup", ("FT", "EWC", "LwF"))
    assert soup.post_hoc and soup.ingredients == ("FT", "EWC", "LwF")
    assert soup.settings == REGISTRY["EWC"].settings + REGISTRY["LwF"].settings
    pretrained = nn.Linear(2, 2)
    weights = {m: {k: torch.full_like(v, float(i + 1)) for k, v in pretrained.state_dict().items()}
               for i, m in enumerate(soup.ingredients)}
    with torch.no_grad():
        pretrained.weight.zero_(), pretrained.bias.zero_()
    model = post_hoc(soup, pretrained, weights, SETTINGS)
    assert torch.allclose(model.weight, torch.full((2, 2), 1.5))  # (0 + 1 + 2 + 3) / 4
    with pytest.raises(ValueError, match="must be trained methods"):
        uniform_soup_method("bad", ("WiSE-FT",))


def test_dispatch_rejects_the_wrong_kind_and_unknown_names():
    with pytest.raises(ValueError, match="not a trained method"):
        train_method("WiSE-FT", nn.Linear(2, 2), [], None, SETTINGS, None)
    with pytest.raises(ValueError, match="not a post-hoc method"):
        post_hoc("FT", nn.Linear(2, 2), {}, SETTINGS)
    with pytest.raises(KeyError, match="unknown fine-tuning method"):
        post_hoc("SGD", nn.Linear(2, 2), {}, SETTINGS)


def test_lwf_runs_the_student_once_per_step():
    """Cross-entropy and distillation share one student forward pass (the teacher runs in eval mode)."""
    from lib.train.config import TrainConfig
    from lib.train.loop import tensor_batches

    student_calls = []
    pretrained = nn.Linear(3, 4)
    pretrained.register_forward_hook(lambda module, args, out: student_calls.append(1) if module.training else None)
    inputs, targets = torch.randn(8, 3, generator=torch.Generator().manual_seed(0)), torch.arange(8) % 4
    config = TrainConfig(epochs=1, batch_size=4, base_lr=0.1, reference_batch=4)
    train_method("LwF", pretrained, tensor_batches(inputs, targets, 4, 0), config, SETTINGS, None)
    assert len(student_calls) == 2  # two steps, one forward each
