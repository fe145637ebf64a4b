"""Which parameters train, and whether BatchNorm running statistics update.

Linear probing trains the classifier head only. By default the frozen backbone's BatchNorm layers
stay in eval mode (running statistics used, never updated) even when the loop calls
`model.train()`: `set_batchnorm_frozen` installs forward pre-hooks that put them back in eval mode
on every call (`batchnorm_unfrozen` lifts them for a block, e.g. to re-estimate the statistics).

The released ImageNet-RIB code (FieteLab/ImageNet-RIB, main.py, `HeadOnly`) differs in two ways,
both available here as options:
- ViT: it freezes only `patch_embed` and `blocks`, so `cls_token`, `pos_embed`, the final `norm`
  (and `norm_pre`/`fc_norm` where a model has them) train with the head
  (`extra_trainable=released_code_vit_extras`).
- ResNet: it trains `fc` only but calls `model.train()`, so BatchNorm running statistics keep
  updating on the fine-tuning data (`update_bn_stats=True`).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from torch import nn

NamePredicate = Callable[[str], bool]

def released_code_vit_extras(name: str) -> bool:
    """Parameters the released code leaves trainable besides the head (LP) or the LoRA factors (LoRA).

    Everything outside `patch_embed`, `blocks` and `head`: cls_token, pos_embed, norm_pre, norm, fc_norm.
    """
    return not name.startswith(("patch_embed.", "blocks.", "head."))


def head_module_name(model: nn.Module) -> str:
    """Qualified name of the classifier head (timm's `get_classifier()`, else torchvision's `fc`)."""
    if hasattr(model, "get_classifier"):
        head = model.get_classifier()
    elif isinstance(getattr(model, "fc", None), nn.Module):
        head = model.fc
    else:
        raise ValueError(f"cannot find the classifier head of {type(model).__name__}; pass head= explicitly")
    for name, module in model.named_modules():
        if module is head:
            return name
    raise ValueError("the classifier head is not a sub-module of the model")


def set_trainable(model: nn.Module, trainable: NamePredicate) -> list[str]:
    """Set `requires_grad` of every parameter from its qualified name; returns the trainable names."""
    names = []
    for name, parameter in model.named_parameters():
        parameter.requires_grad_(trainable(name))
        if parameter.requires_grad:
            names.append(name)
    return names


def _keep_in_eval(module: nn.Module, _inputs: tuple) -> None:
    if module.statistics_frozen:
        module.train(False)


def batchnorm_layers(model: nn.Module) -> list[nn.Module]:
    """Every BatchNorm layer of `model` (1-d, 2-d and 3-d), in module order."""
    return [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]


def set_batchnorm_frozen(model: nn.Module, frozen: bool) -> None:
    """Keep every BatchNorm layer of `model` in eval mode (frozen=True) or undo it (frozen=False).

    Idempotent. A frozen BatchNorm carries a forward pre-hook that puts it back in eval mode on every call,
    so `model.train()` in the loop neither switches it to batch statistics nor updates its running
    statistics. The hook reads the layer's `statistics_frozen` flag, which this sets: `copy.deepcopy` copies
    hook and flag together, so a copy of a frozen model is frozen and unfreezes like the original.
    """
    for module in batchnorm_layers(model):
        if not hasattr(module, "statistics_frozen"):
            if not frozen:
                continue
            module.register_forward_pre_hook(_keep_in_eval)
        module.statistics_frozen = frozen


@contextmanager
def batchnorm_unfrozen(model: nn.Module) -> Iterator[None]:
    """Within the block every BatchNorm of `model` follows `model.train()`; after it, the frozen ones are
    frozen again."""
    frozen = [m for m in batchnorm_layers(model) if getattr(m, "statistics_frozen", False)]
    for module in frozen:
        module.statistics_frozen = False
    try:
        yield
    finally:
        for module in frozen:
            module.statistics_frozen = True


def configure_training(model: nn.Module, trainable: NamePredicate, freeze_bn_statistics: bool) -> list[str]:
    """Apply one training configuration: which parameters train and whether BatchNorm statistics stay."""
    set_batchnorm_frozen(model, freeze_bn_statistics)
    return set_trainable(model, trainable)


def head_only(model: nn.Module, head: str | None = None, extra_trainable: NamePredicate | None = None) -> NamePredicate:
    """Predicate true for the head's parameters and for names `extra_trainable` accepts.

    `head` is the head's qualified module name (default: found by `head_module_name`).
    """
    prefix = (head if head is not None else head_module_name(model)) + "."

    def trainable(name: str) -> bool:
        return name.startswith(prefix) or (extra_trainable is not None and extra_trainable(name))

    return trainable


def linear_probe(
    model: nn.Module,
    head: str | None = None,
    extra_trainable: NamePredicate | None = None,
    update_bn_stats: bool = False,
) -> list[str]:
    """Freeze everything but the head (and `extra_trainable` names); returns the trainable names.

    `update_bn_stats=False` (default) keeps BatchNorm running statistics fixed.
    """
    return configure_training(model, head_only(model, head, extra_trainable), freeze_bn_statistics=not update_bn_stats)
