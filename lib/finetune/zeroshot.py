"""open_clip zero-shot classifier head and the FLYP contrastive fine-tuning loss.

Zero-shot head (Radford et al., 2021): every prompt "template.format(class name)" is encoded by the
text tower and L2-normalised; a class's embedding is the mean over its templates, re-normalised.
logits = exp(logit_scale) · normalise(image embedding) · class embeddingsᵀ, with the model's own
learnable `logit_scale`.

`ZeroShotClassifier(text_tower=...)` names the choice of what fine-tuning trains:
- "trainable" (default): class embeddings are recomputed from the text tower on every forward, so
  fine-tuning updates both towers and the logit scale. This is the released ImageNet-RIB code for
  CLIP with a zero-shot classifier (lib/experiment.py: `model(images, tokenizer(texts))` each step,
  single template "This is a photo of a {}", logit scale clamped to [0, ln 100] after each step:
  `clamp_logit_scale_`).
- "frozen": class embeddings are computed once and kept as a buffer; only the image tower (and the
  logit scale) can train.

Template sets (`lib.finetune.templates`): `SINGLE_TEMPLATE` ("a photo of a {}."), `IMAGENET_RIB_TEMPLATE` (the released code's
string, no full stop) and `OPENAI_IMAGENET_TEMPLATES` (CLIP's 80 ImageNet prompts, in CLIP's order).

FLYP (Goyal et al., 2023): fine-tune with the CLIP loss itself, contrasting each image with the
class prompt of its label. As in FLYP's code (ClipLoss over image-caption pairs), other examples of
the same class in the batch count as negatives. `classifier_flyp_loss` is the same loss through a
ZeroShotClassifier (its own class prompts, first template), with the `(model, inputs, targets)`
signature of `lib.train.loop.train`'s losses.
"""

from __future__ import annotations

import math
from typing import Callable, Literal, Sequence

import torch
import torch.nn.functional as F
from torch import nn


Tokenizer = Callable[[list[str]], torch.Tensor]


def tokenize_prompts(tokenizer: Tokenizer, class_names: Sequence[str], templates: Sequence[str]) -> torch.Tensor:
    """Token ids of every (class, template) prompt: shape (classes, templates, context length)."""
    prompts = [template.format(name) for name in class_names for template in templates]
    tokens = tokenizer(prompts)
    return tokens.reshape(len(class_names), len(templates), -1)


PROMPT_CHUNK = 1024  # prompts encoded at once: 80 templates x 1000 classes do not fit one batch


def class_embeddings(model: nn.Module, class_tokens: torch.Tensor) -> torch.Tensor:
    """Unit-norm class embeddings (classes, dim), float32: mean of the unit-norm prompt embeddings, re-normalised
    (the prompts encoded `PROMPT_CHUNK` at a time, in whatever precision autocast gives)."""
    classes, templates, length = class_tokens.shape
    flat = class_tokens.reshape(classes * templates, length)
    prompts = F.normalize(torch.cat([model.encode_text(chunk).float() for chunk in flat.split(PROMPT_CHUNK)]), dim=-1)
    return F.normalize(prompts.view(classes, templates, -1).mean(dim=1), dim=-1)


class ZeroShotClassifier(nn.Module):
    """A CLIP model used as a classifier over fixed class prompts (see the module docstring)."""

    def __init__(
        self, model: nn.Module, class_tokens: torch.Tensor, text_tower: Literal["trainable", "frozen"] = "trainable"
    ) -> None:
        super().__init__()
        self.model = model
        self.text_tower = text_tower
        self.register_buffer("class_tokens", class_tokens, persistent=False)
        if text_tower == "frozen":
            with torch.no_grad():
                self.register_buffer("frozen_class_embeddings", class_embeddings(model, class_tokens))
        elif text_tower != "trainable":
            raise ValueError(f"text_tower must be 'trainable' or 'frozen', got {text_tower!r}")

    def with_class_tokens(self, class_tokens: torch.Tensor) -> "ZeroShotClassifier":
        """A head over other classes on the same CLIP model (shared towers and logit scale, not a copy).

        E.g. App. G: fine-tune through a head over StanfordCars' names, evaluate through the ImageNet one.
        """
        return ZeroShotClassifier(self.model, class_tokens.to(self.class_tokens.device), self.text_tower)

    def text_embeddings(self) -> torch.Tensor:
        if self.text_tower == "frozen":
            return self.frozen_class_embeddings
        return class_embeddings(self.model, self.class_tokens)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        """Logits in float32: under bf16 autocast the towers run in bf16, the cosine similarities do not (bf16
        would round logits near 25 in steps of .125 and break near-ties towards the lower class)."""
        image = F.normalize(self.model.encode_image(images).float(), dim=-1)
        with torch.autocast(images.device.type, enabled=False):
            return self.model.logit_scale.float().exp() * image @ self.text_embeddings().float().T


@torch.no_grad()
def clamp_logit_scale_(model: nn.Module, maximum: float = math.log(100)) -> None:
    """Clamp the CLIP logit scale to [0, ln 100] in place, as CLIP and the released code do after each step."""
    model.logit_scale.clamp_(0, maximum)


def clip_contrastive_loss(
    image_features: torch.Tensor, text_features: torch.Tensor, logit_scale: torch.Tensor
) -> torch.Tensor:
    """Symmetric CLIP loss: mean of image->text and text->image cross-entropies, pair i matching i.

    Features are L2-normalised here; `logit_scale` is the multiplier itself (exp of the parameter).
    """
    image = F.normalize(image_features, dim=-1)
    text = F.normalize(text_features, dim=-1)
    logits = logit_scale * image @ text.T
    targets = torch.arange(len(logits), device=logits.device)
    return (F.cross_entropy(logits, targets) + F.cross_entropy(logits.T, targets)) / 2


def flyp_loss(model: nn.Module, images: torch.Tensor, labels: torch.Tensor, class_tokens: torch.Tensor) -> torch.Tensor:
    """FLYP loss of a batch: CLIP loss between the images and the prompts of their labels.

    `class_tokens` holds one prompt per class, shape (classes, context length) (e.g. one template's
    slice `tokenize_prompts(...)[:, t]`). Both towers and the logit scale receive gradients.
    """
    image_features = model.encode_image(images)
    text_features = model.encode_text(class_tokens[labels])
    return clip_contrastive_loss(image_features, text_features, model.logit_scale.exp())


def classifier_flyp_loss(classifier: ZeroShotClassifier, images: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """`flyp_loss` of the classifier's CLIP model against its own class prompts of the first template.

    Needs a trainable text tower: FLYP trains it, which a "frozen" head's cached embeddings would not follow.
    The logit-scale clamp (`clamp_logit_scale_`) is left to the caller.
    """
    if classifier.text_tower != "trainable":
        raise ValueError(f"FLYP trains the text tower; this head's text tower is {classifier.text_tower!r}")
    return flyp_loss(classifier.model, images, labels, classifier.class_tokens[:, 0])
