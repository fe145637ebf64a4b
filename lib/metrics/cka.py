"""Centered kernel alignment (CKA) between representations, and ViT feature collection for it.

Linear CKA (Kornblith et al., 2019) of X (n × p) and Y (n × q), rows = the same n examples:

    CKA(K, L) = HSIC(K, L) / sqrt(HSIC(K, K) · HSIC(L, L)),  K = X Xᵀ, L = Y Yᵀ.

`debiased=False` uses the biased HSIC estimator tr(K H L H) / (n - 1)² (H = centering matrix),
which gives Kornblith's ||Yᵀ X||²_F / (||Xᵀ X||_F ||Yᵀ Y||_F) on centred features.
`debiased=True` uses the unbiased estimator of Song et al. (2012), as in Nguyen et al. (2021) and
Kornblith's `debiased=True` option:

    HSIC_u(K, L) = [tr(K̃ L̃) + 1ᵀK̃1 · 1ᵀL̃1 / ((n-1)(n-2)) - 2/(n-2) · 1ᵀ K̃ L̃ 1] / (n (n-3)),

with K̃, L̃ the Gram matrices with zeroed diagonals (n ≥ 4). `MinibatchCKA` accumulates unbiased HSIC
over batches (Nguyen et al., 2021), so features never need to be held for the whole dataset.

The ImageNet-RIB paper (Sec. 4.5, Fig. 7, Fig. 9) compares pretrained and fine-tuned ViT-B/16
per block and component (norm1, attn.qkv, attn.proj, norm2, mlp.fc1, mlp.fc2) without saying how
tokens are reduced or which estimator it uses; both are named parameters here.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Literal, Mapping, Sequence

import pandas as pd
import torch
from torch import nn

TokenReduction = Literal["flatten", "cls", "mean"]

BLOCK_OUTPUTS = ("attn", "mlp", "block")
FIGURE9_COMPONENTS = ("norm1", "attn.qkv", "attn.proj", "norm2", "mlp.fc1", "mlp.fc2")


def linear_gram(features: torch.Tensor) -> torch.Tensor:
    """X Xᵀ in float64 for features of shape (n, ...) (trailing dimensions flattened)."""
    x = features.reshape(len(features), -1).to(torch.float64)
    return x @ x.T


def hsic(gram_x: torch.Tensor, gram_y: torch.Tensor, debiased: bool) -> torch.Tensor:
    """HSIC of two n × n Gram matrices: biased (centred, / (n-1)²) or the unbiased estimator."""
    n = len(gram_x)
    if not debiased:
        centering = torch.eye(n, dtype=gram_x.dtype, device=gram_x.device) - 1.0 / n
        return torch.trace(gram_x @ centering @ gram_y @ centering) / (n - 1) ** 2
    if n < 4:
        raise ValueError(f"the unbiased HSIC estimator needs n >= 4 examples, got {n}")
    k = gram_x - torch.diag(torch.diag(gram_x))
    l = gram_y - torch.diag(torch.diag(gram_y))
    ones_k = k.sum(dim=0)
    ones_l = l.sum(dim=0)
    value = (k * l).sum() + ones_k.sum() * ones_l.sum() / ((n - 1) * (n - 2)) - 2.0 / (n - 2) * (ones_k @ ones_l)
    return value / (n * (n - 3))


def cka(x: torch.Tensor, y: torch.Tensor, debiased: bool = False) -> float:
    """Linear CKA between features x (n, ...) and y (n, ...) of the same n examples."""
    if len(x) != len(y):
        raise ValueError(f"x and y must describe the same examples, got {len(x)} and {len(y)} rows")
    k, l = linear_gram(x), linear_gram(y)
    return float(hsic(k, l, debiased) / torch.sqrt(hsic(k, k, debiased) * hsic(l, l, debiased)))


class MinibatchCKA:
    """CKA accumulated over minibatches with the unbiased HSIC (Nguyen et al., 2021)."""

    def __init__(self) -> None:
        self.xy = self.xx = self.yy = 0.0
        self.batches = 0

    def update(self, x: torch.Tensor, y: torch.Tensor) -> None:
        k, l = linear_gram(x), linear_gram(y)
        self.xy += float(hsic(k, l, debiased=True))
        self.xx += float(hsic(k, k, debiased=True))
        self.yy += float(hsic(l, l, debiased=True))
        self.batches += 1

    def value(self) -> float:
        if not self.batches:
            raise ValueError("no batch accumulated")
        return self.xy / (self.xx * self.yy) ** 0.5


def _reduce_tokens(output: torch.Tensor | tuple, tokens: TokenReduction) -> torch.Tensor:
    out = output[0] if isinstance(output, tuple) else output
    out = out.detach()
    if out.dim() == 2:
        return out.cpu()
    if tokens == "cls":
        return out[:, 0].cpu()
    if tokens == "mean":
        return out.mean(dim=1).cpu()
    return out.flatten(1).cpu()


@contextmanager
def record_block_features(
    model: nn.Module,
    components: Sequence[str] = BLOCK_OUTPUTS,
    tokens: TokenReduction = "flatten",
    blocks: Sequence[nn.Module] | None = None,
) -> Iterator[dict[tuple[int, str], list[torch.Tensor]]]:
    """Record, per transformer block and component, the outputs of every forward inside the block.

    Yields a dict (block index, component) -> list of per-call outputs (detached, on the CPU, tokens
    reduced as `tokens` says: "flatten" all token features, the "cls" token, or their "mean").
    Components are sub-module paths inside a block ("attn", "mlp.fc2", ...) or "block" for the
    block's own output. `blocks` defaults to `model.blocks` (timm ViT); pass e.g.
    `clip.visual.transformer.resblocks` for open_clip (whose "attn" returns a tuple; its first
    element is kept).
    """
    blocks = list(model.blocks if blocks is None else blocks)
    store: dict[tuple[int, str], list[torch.Tensor]] = {}
    handles = []
    for index, block in enumerate(blocks):
        for component in components:
            module = block if component == "block" else block.get_submodule(component)
            store[(index, component)] = []

            def hook(_module: nn.Module, _inputs: tuple, output: torch.Tensor, key=(index, component)) -> None:
                store[key].append(_reduce_tokens(output, tokens))

            handles.append(module.register_forward_hook(hook))
    try:
        yield store
    finally:
        for handle in handles:
            handle.remove()


def layerwise_cka(
    features_a: Mapping[tuple[int, str], Sequence[torch.Tensor]],
    features_b: Mapping[tuple[int, str], Sequence[torch.Tensor]],
    debiased: bool = False,
) -> pd.DataFrame:
    """CKA per (block, component) between two recordings of the same inputs; columns block, component, cka."""
    rows = []
    for key in features_a:
        if key not in features_b:
            raise KeyError(f"{key} recorded for the first model only")
        x, y = torch.cat(list(features_a[key])), torch.cat(list(features_b[key]))
        rows.append({"block": key[0], "component": key[1], "cka": cka(x, y, debiased=debiased)})
    return pd.DataFrame(rows, columns=["block", "component", "cka"])
