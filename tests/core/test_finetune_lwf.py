import math

import pytest
import torch
from torch import nn

from lib.finetune.lwf import frozen_teacher, lwf_loss


def test_kl_form_is_zero_when_student_equals_teacher():
    logits = torch.randn(4, 7, generator=torch.Generator().manual_seed(0))
    assert lwf_loss(logits, logits.clone()).item() == pytest.approx(0.0, abs=1e-7)


def test_known_values_on_hand_built_logits():
    # T = 2: teacher [2 ln 3, 0] / 2 -> q = (3/4, 1/4); student [0, 0] -> p = (1/2, 1/2).
    student = torch.zeros(1, 2)
    teacher = torch.tensor([[2 * math.log(3), 0.0]])
    kl = 0.75 * math.log(0.75 / 0.5) + 0.25 * math.log(0.25 / 0.5)
    assert lwf_loss(student, teacher, temperature=2.0).item() == pytest.approx(kl, rel=1e-6)
    assert lwf_loss(student, teacher, temperature=2.0, form="cross_entropy").item() == pytest.approx(math.log(2), rel=1e-6)
    # batch mean: a second, identical pair leaves the value unchanged
    assert lwf_loss(student.repeat(2, 1), teacher.repeat(2, 1)).item() == pytest.approx(kl, rel=1e-6)


def test_temperature_softens_both_outputs():
    student, teacher = torch.zeros(1, 2), torch.tensor([[math.log(3), 0.0]])
    kl_t1 = 0.75 * math.log(1.5) + 0.25 * math.log(0.5)
    assert lwf_loss(student, teacher, temperature=1.0).item() == pytest.approx(kl_t1, rel=1e-6)


def test_masked_classes_are_ignored_in_student_and_teacher():
    generator = torch.Generator().manual_seed(1)
    student, teacher = torch.randn(3, 6, generator=generator), torch.randn(3, 6, generator=generator)
    mask = torch.tensor([0, 2, 5])
    reference = lwf_loss(student, teacher, logit_mask=mask)
    student2, teacher2 = student.clone(), teacher.clone()
    student2[:, [1, 3, 4]] += 10.0
    teacher2[:, [1, 3, 4]] -= 10.0
    assert lwf_loss(student2, teacher2, logit_mask=mask).item() == pytest.approx(reference.item(), rel=1e-6)
    boolean = torch.zeros(6, dtype=torch.bool)
    boolean[mask] = True
    assert lwf_loss(student, teacher, logit_mask=boolean).item() == pytest.approx(reference.item(), rel=1e-6)
    assert lwf_loss(student, teacher).item() != pytest.approx(reference.item(), rel=1e-3)


def test_gradient_flows_to_the_student_only():
    student = torch.randn(2, 3, requires_grad=True)
    teacher = torch.randn(2, 3, requires_grad=True)
    lwf_loss(student, teacher).backward()
    assert student.grad is not None and teacher.grad is None
    with pytest.raises(ValueError, match="form"):
        lwf_loss(student, teacher, form="mse")


def test_frozen_teacher_is_an_eval_copy_without_gradients():
    model = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5)).train()
    teacher = frozen_teacher(model)
    assert not teacher.training and model.training
    assert not any(p.requires_grad for p in teacher.parameters())
    with torch.no_grad():
        model[0].weight.add_(1.0)
    assert not torch.equal(model[0].weight, teacher[0].weight)
