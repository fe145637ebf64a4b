"""The fine-tuning methods by name, importable without torch: what each reads and how it runs.

A `Method` is trained (`lib.finetune.methods.train_method` runs the trainer of its name on a copy of
the pretrained classifier) or post-hoc (`lib.finetune.methods.post_hoc` combines the weights of its
`ingredients` with the pretrained ones, as its `combination` says); it names the `MethodSettings`
fields it reads (a post-hoc method: with those of its ingredients, so that a run's store key can hold
only those) and whether it needs a CLIP model with a zero-shot head. `REGISTRY` holds the trained
methods and WiSE-FT; `uniform_soup_method` makes a soup of named ingredients (a paper names its own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

AlphaConvention = Literal["wise_ft", "imagenet_rib"]  # WiSE-FT's α (`lib.finetune.interpolation`)
Combination = Literal["", "wise_ft", "uniform_soup"]  # "": a trained method


@dataclass(frozen=True)
class MethodSettings:
    """Hyper-parameters of the methods (e.g. the `method_settings` block of a benchmark file)."""

    prompt_lr: float
    prompt_pad: int
    lora_rank: int
    lora_alpha: float
    ewc_coefficient: float
    ewc_fisher_labels: str
    ewc_fisher_images: int  # reference images the Fisher is estimated from (a seeded subset)
    l2_coefficient: float
    lwf_temperature: float
    lwf_weight: float
    lp_epochs: int
    wise_alpha: float
    wise_alpha_convention: str  # "imagenet_rib" (alpha weights the pretrained model) or "wise_ft"


@dataclass(frozen=True)
class Method:
    """A fine-tuning method: trained, or post-hoc (`combination` of its `ingredients`' weights with the
    pretrained ones), the `MethodSettings` fields it reads, and whether it needs a zero-shot head."""

    name: str
    settings: tuple[str, ...] = ()
    combination: Combination = ""
    ingredients: tuple[str, ...] = ()
    zero_shot: bool = False

    @property
    def post_hoc(self) -> bool:
        return self.combination != ""


def _registry(*methods: Method) -> dict[str, Method]:
    return {m.name: m for m in methods}


REGISTRY: dict[str, Method] = _registry(
    Method("FT"),
    Method("Linear Probing"),
    Method("LP-FT", ("lp_epochs",)),
    Method("Visual Prompt", ("prompt_lr", "prompt_pad")),
    Method("LoRA", ("lora_rank", "lora_alpha")),
    Method("EWC", ("ewc_coefficient", "ewc_fisher_labels", "ewc_fisher_images")),
    Method("EWC (L2, released code)", ("l2_coefficient",)),
    Method("LwF", ("lwf_temperature", "lwf_weight")),
    Method("FLYP", zero_shot=True),
    Method("WiSE-FT", ("wise_alpha", "wise_alpha_convention"), combination="wise_ft", ingredients=("FT",)),
)


def uniform_soup_method(name: str, ingredients: tuple[str, ...]) -> Method:
    """The uniform soup of the pretrained weights and those of the trained methods `ingredients`;
    it reads the settings its ingredients read."""
    unknown = [i for i in ingredients if i not in REGISTRY or REGISTRY[i].post_hoc]
    if unknown:
        raise ValueError(f"soup ingredients must be trained methods of REGISTRY; not: {unknown}")
    settings = tuple(dict.fromkeys(s for i in ingredients for s in REGISTRY[i].settings))
    return Method(name, settings, combination="uniform_soup", ingredients=ingredients)
