"""The fine-tuning methods ImageNet-RIB compares: `lib.finetune.methods`' registry and the paper's soup.

Trained methods fine-tune a copy of the pretrained classifier on one dataset; post-hoc methods combine
stored weights: WiSE-FT interpolates pretrained and FT weights, the uniform soup averages PRE, FT, EWC
and LwF (MS:PRE-FT-EWC-LwF). "EWC (L2, released code)" is the released code's plain L2 pull.
"""

from __future__ import annotations

from ..finetune.method_table import REGISTRY, Method, uniform_soup_method

SOUP = uniform_soup_method("MS:PRE-FT-EWC-LwF", ("FT", "EWC", "LwF"))
METHODS: dict[str, Method] = {  # the paper's methods, in its order
    **{name: REGISTRY[name] for name in ("FT", "Linear Probing", "LP-FT", "Visual Prompt", "LoRA", "EWC",
                                         "EWC (L2, released code)", "LwF", "FLYP", "WiSE-FT")},
    SOUP.name: SOUP,
}
TRAINED = tuple(name for name, method in METHODS.items() if not method.post_hoc)
POST_HOC = tuple(name for name, method in METHODS.items() if method.post_hoc)
ZERO_SHOT_METHODS = tuple(name for name, method in METHODS.items() if method.zero_shot)  # need a zero-shot CLIP head (App. C)
