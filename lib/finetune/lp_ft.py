"""LP-FT (Kumar et al., 2022) as a two-stage schedule a training loop applies stage by stage.

Stage 1 trains the head only (linear probing, `linear_probe.linear_probe` semantics); stage 2 starts
from the stage-1 weights and trains every parameter. The released ImageNet-RIB code runs them as two
separate 10-epoch runs with the same optimiser settings (`LPFT` loads the finished `HeadOnly`
checkpoint and fine-tunes everything), i.e. a fresh optimiser and learning-rate schedule per stage:
the loop should rebuild both when it starts a stage.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch import nn

from .linear_probe import NamePredicate, configure_training, head_only


@dataclass(frozen=True)
class Stage:
    """One stage: its name, length, which parameters train and whether BatchNorm statistics stay fixed."""

    name: str
    epochs: int
    trainable: NamePredicate
    freeze_bn_statistics: bool

    def apply(self, model: nn.Module) -> list[str]:
        """Configure `model` for this stage; returns the trainable parameter names."""
        return configure_training(model, self.trainable, self.freeze_bn_statistics)


def _everything(_name: str) -> bool:
    return True


def lp_ft_stages(
    model: nn.Module,
    lp_epochs: int = 10,
    ft_epochs: int = 10,
    head: str | None = None,
    extra_trainable: NamePredicate | None = None,
    lp_update_bn_stats: bool = False,
) -> tuple[Stage, Stage]:
    """The two LP-FT stages for `model` (defaults: 10 + 10 epochs, as in the released code)."""
    return (
        Stage("linear_probe", lp_epochs, head_only(model, head, extra_trainable), not lp_update_bn_stats),
        Stage("fine_tune", ft_epochs, _everything, freeze_bn_statistics=False),
    )
