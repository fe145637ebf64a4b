"""Robustness metrics of ImageNet-RIB: RI, mRI, backward transfer, effective-robustness improvement.

All accuracies are in percent, keyed by dataset name. `suite` is the benchmark set 𝔻 (in the paper:
IN-V2, IN-A, IN-R, IN-Sketch, ObjectNet, IN-Cartoon, IN-Drawing, IN-C; ImageNet-1K is not in 𝔻).

- RI (Eq. 1): after fine-tuning on D_i, RI_i = 1/(n-1) Σ_{j≠i} (A_i^(j) - A_pre^(j)), the mean
  accuracy change over the other datasets of the suite. The printed formula lacks brackets; the
  difference sits inside the sum (A_pre^(j) depends on j), which is what reproduces Table 2.
- mRI: the mean of RI_i over the fine-tuning datasets D_i (Table 2: FT's eight RIs average to 1.3).
  Equivalently (Fig. 8's caption) mRI = mean_i mean_{j≠i} A_i^(j) - mean_j A_pre^(j) when every
  dataset of the suite is used once for fine-tuning.
- Backward transfer (App. J.2, Table 18): mean over fine-tuning datasets of the accuracy change on
  the pretraining dataset (ImageNet-1K validation).
- Effective-robustness improvement (App. F, Eq. 2): eRI_i = 1/(n-1) Σ_{j≠i} (A_i^(j) - β_j(A_i^(i))),
  where β_j maps accuracy on D_i to the baseline accuracy on D_j. As printed, Eq. 2 does not
  subtract the pretrained model's own effective robustness. The paper does not say how β_j is fit;
  here it is fit on reference models' accuracies with a pluggable `BaselineFit`, by default a linear
  fit in logit space as in Taori et al. (2020) (`scale="probit"` gives Miller et al.'s 2021 variant).
"""

from __future__ import annotations

from statistics import fmean
from typing import Callable, Literal, Mapping, Sequence

import numpy as np
from scipy import special

Accuracies = Mapping[str, float]
Baseline = Callable[[float | np.ndarray], float | np.ndarray]  # one accuracy, or an array element by element
BaselineFit = Callable[[Sequence[float], Sequence[float]], Baseline]

_SCALES: dict[str, tuple[Callable[[np.ndarray], np.ndarray], Callable[[np.ndarray], np.ndarray]]] = {
    "logit": (special.logit, special.expit),
    "probit": (special.ndtri, special.ndtr),  # the standard normal quantile and CDF
    "linear": (lambda p: p, lambda z: z),
}


def _others(finetune_dataset: str, suite: Sequence[str]) -> list[str]:
    if finetune_dataset not in suite:
        raise ValueError(f"fine-tuning dataset {finetune_dataset!r} is not in the suite {list(suite)}")
    return [name for name in suite if name != finetune_dataset]


def _lookup(accuracies: Accuracies, name: str, what: str) -> float:
    if name not in accuracies:
        raise KeyError(f"no accuracy on {name!r} for the {what}")
    return float(accuracies[name])


def robustness_improvement(
    finetuned: Accuracies, pretrained: Accuracies, finetune_dataset: str, suite: Sequence[str]
) -> float:
    """RI (Eq. 1) of a model fine-tuned on `finetune_dataset`: mean accuracy change over the other suite datasets."""
    return fmean(
        _lookup(finetuned, j, "fine-tuned model") - _lookup(pretrained, j, "pretrained model")
        for j in _others(finetune_dataset, suite)
    )


def mean_robustness_improvement(
    finetuned_by_dataset: Mapping[str, Accuracies], pretrained: Accuracies, suite: Sequence[str]
) -> float:
    """mRI: mean of RI_i over the fine-tuning datasets i (the keys of `finetuned_by_dataset`)."""
    return fmean(robustness_improvement(after, pretrained, i, suite) for i, after in finetuned_by_dataset.items())


def backward_transfer(
    finetuned_by_dataset: Mapping[str, Accuracies], pretrained: Accuracies, reference: str
) -> float:
    """Mean accuracy change on the pretraining dataset `reference` over the fine-tuning datasets."""
    before = _lookup(pretrained, reference, "pretrained model")
    return fmean(
        _lookup(after, reference, f"model fine-tuned on {i}") - before for i, after in finetuned_by_dataset.items()
    )


def fit_linear_baseline(
    x: Sequence[float], y: Sequence[float], scale: Literal["logit", "probit", "linear"] = "logit"
) -> Baseline:
    """β with β(x) = y along a least-squares line through (scale(x), scale(y)); accuracies in percent.

    Accuracies are clipped to [0.01, 99.99] % before the logit/probit transform. β takes one accuracy
    (a float back) or an array of them (an array back, element by element).
    """
    forward, inverse = _SCALES[scale]

    def transform(values: Sequence[float] | float) -> np.ndarray:
        fraction = np.clip(np.asarray(values, dtype=float) / 100, 1e-4, 1 - 1e-4)
        return forward(fraction)

    slope, intercept = np.polyfit(transform(x), transform(y), deg=1)

    def baseline(accuracy: float | np.ndarray) -> float | np.ndarray:
        value = inverse(slope * transform(accuracy) + intercept) * 100
        return float(value) if np.ndim(value) == 0 else value

    return baseline


def effective_robustness(id_accuracy: float, ood_accuracy: float, baseline: Baseline) -> float:
    """Taori et al.'s effective robustness: OOD accuracy above the baseline's prediction from ID accuracy."""
    return ood_accuracy - baseline(id_accuracy)


def effective_robustness_improvement(
    finetuned: Accuracies,
    finetune_dataset: str,
    suite: Sequence[str],
    reference: Mapping[str, Sequence[float]],
    fit: BaselineFit = fit_linear_baseline,
) -> float:
    """eRI (Eq. 2) of a model fine-tuned on D_i = `finetune_dataset`.

    `reference[name]` lists the accuracies of the same reference models on each dataset (aligned
    lists); β_j = fit(reference[D_i], reference[D_j]).
    """
    x = _lookup(finetuned, finetune_dataset, "fine-tuned model")
    return fmean(
        effective_robustness(x, _lookup(finetuned, j, "fine-tuned model"), fit(reference[finetune_dataset], reference[j]))
        for j in _others(finetune_dataset, suite)
    )


def mean_effective_robustness_improvement(
    finetuned_by_dataset: Mapping[str, Accuracies],
    suite: Sequence[str],
    reference: Mapping[str, Sequence[float]],
    fit: BaselineFit = fit_linear_baseline,
) -> float:
    """Mean eRI over the fine-tuning datasets (Table 11's "mean effective robustness improvement")."""
    return fmean(
        effective_robustness_improvement(after, i, suite, reference, fit) for i, after in finetuned_by_dataset.items()
    )
