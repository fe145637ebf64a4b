"""k-nearest-neighbour probing of frozen features (ssl_protocols, App. E).

The paper runs scikit-learn's `KNeighborsClassifier` (Euclidean distance, brute force, k = 20,
whose default vote is uniform); the "N" variant z-scores the embeddings with statistics of the
training split only. Votes are summed per class: uniform (1 per neighbour) or distance-weighted
(1 / distance, a neighbour at distance 0 takes the whole vote, as in scikit-learn). Classes are
then ranked by their vote with ties to the lower class index (`lib.evaluate.ranking`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

WEIGHTINGS = ("uniform", "distance")


@dataclass(frozen=True)
class ZScore:
    """Per-dimension standardisation fitted on the training features."""

    mean: np.ndarray
    std: np.ndarray

    @classmethod
    def fit(cls, train: np.ndarray, eps: float = 1e-8) -> "ZScore":
        return cls(train.mean(axis=0), train.std(axis=0) + eps)

    def __call__(self, features: np.ndarray) -> np.ndarray:
        return (features - self.mean) / self.std


def knn_votes(
    train_features: np.ndarray,
    train_labels: np.ndarray,
    test_features: np.ndarray,
    num_classes: int,
    k: int = 20,
    weighting: str = "uniform",
    normalize: bool = False,
    chunk: int = 1024,
    device: str = "cpu",
) -> np.ndarray:
    """Summed neighbour votes per class (test items × classes) from the `k` nearest training items."""
    if weighting not in WEIGHTINGS:
        raise ValueError(f"weighting must be one of {WEIGHTINGS}, got {weighting!r}")
    if k > len(train_features):
        raise ValueError(f"k={k} exceeds the {len(train_features)} training items")
    if normalize:
        scaler = ZScore.fit(train_features)
        train_features, test_features = scaler(train_features), scaler(test_features)
    train = torch.as_tensor(train_features, dtype=torch.float64, device=device)
    labels = torch.as_tensor(train_labels, dtype=torch.int64, device=device)
    votes = []
    for start in range(0, len(test_features), chunk):
        test = torch.as_tensor(test_features[start:start + chunk], dtype=torch.float64, device=device)
        distances = torch.cdist(test, train)
        # stable sort: among equidistant training items the earlier one is the nearer neighbour
        nearest_d, nearest_i = torch.sort(distances, dim=1, stable=True)
        nearest_d, nearest_i = nearest_d[:, :k], nearest_i[:, :k]
        weights = torch.ones_like(nearest_d) if weighting == "uniform" else _inverse_distance(nearest_d)
        block = torch.zeros(len(test), num_classes, dtype=torch.float64, device=device)
        block.scatter_add_(1, labels[nearest_i], weights)
        votes.append(block.cpu())
    return torch.cat(votes).numpy()


def _inverse_distance(distances: torch.Tensor) -> torch.Tensor:
    """1/d weights; where a neighbour coincides with the query (d = 0), exact matches take all the vote."""
    exact = distances == 0
    weights = 1.0 / distances.clamp_min(torch.finfo(distances.dtype).tiny)
    has_exact = exact.any(dim=1, keepdim=True)
    return torch.where(has_exact, exact.to(distances.dtype), weights)
