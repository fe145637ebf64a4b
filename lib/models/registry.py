"""The model registry (`lib/registry/models.csv`): paper label -> library, name, weights, quirks.

`exists_offline` checks a row against the installed timm / open_clip / torchvision registries
without any download. `load_pretrained` builds a model with its pretrained weights from the hub
cache or the local weights folder and raises one clear WeightsMissingError otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pandas as pd
import torch

from ..paths import REGISTRY_DIR, WEIGHTS_ROOT_ENV, weights_root

LIBRARIES = ("timm", "open_clip", "torchvision", "url")
FEATURES = ("pooled", "cls", "mean_tokens")


class WeightsMissingError(FileNotFoundError):
    """Pretrained weights that are neither in a local cache nor reachable."""


@dataclass(frozen=True)
class ModelSpec:
    """One registry row (see lib/registry/MODELS.md for the columns and every choice made)."""

    key: str
    paper: str
    paper_label: str
    architecture: str
    library: str
    name: str
    pretrained: str
    source_url: str
    sha256: str
    key_recipe: str
    feature: str
    preprocess: str
    quirks: str
    notes: str


@lru_cache(maxsize=1)
def registry() -> dict[str, ModelSpec]:
    """All registered models by key."""
    frame = pd.read_csv(REGISTRY_DIR / "models.csv", dtype=str, keep_default_na=False)
    specs = {}
    for row in frame.to_dict("records"):
        spec = ModelSpec(**row)
        if spec.library not in LIBRARIES:
            raise ValueError(f"models.csv: {spec.key} has unknown library {spec.library!r}")
        if spec.key in specs:
            raise ValueError(f"models.csv: duplicate key {spec.key}")
        specs[spec.key] = spec
    return specs


def spec(key: str) -> ModelSpec:
    specs = registry()
    if key not in specs:
        raise KeyError(f"unknown model {key!r}; registered: {sorted(specs)}")
    return specs[key]


def exists_offline(s: ModelSpec) -> bool:
    """Whether the installed library knows this model and weights (no download)."""
    if s.library == "timm":
        import timm

        return s.name in timm.list_pretrained()
    if s.library == "open_clip":
        import open_clip

        return (s.name, s.pretrained) in set(open_clip.list_pretrained())
    if s.library == "torchvision":
        import torchvision

        enum_name, _, member = s.pretrained.partition(".")
        weights = torchvision.models.get_model_weights(s.name)
        return weights.__name__ == enum_name and hasattr(weights, member)
    import open_clip
    import timm
    import torchvision

    return (
        s.architecture in timm.list_models()
        or s.architecture in torchvision.models.list_models()
        or s.architecture in open_clip.list_models()
    )


def checkpoint_path(s: ModelSpec, root: str | Path | None = None) -> Path:
    """Where a `url` row's checkpoint file is expected: <weights root>/<file name of the URL>."""
    if not s.source_url and not s.pretrained:
        raise WeightsMissingError(f"model {s.key}: the registry has no checkpoint URL (see notes: {s.notes})")
    return weights_root(root) / Path(s.pretrained or s.source_url).name


def load_pretrained(key: str) -> torch.nn.Module:
    """Build a hub model (timm, open_clip, torchvision row) with its pretrained weights.

    Uses the local hub cache when present; raises WeightsMissingError when the weights are neither
    cached nor downloadable. `url` rows are read with `checkpoint_state_dict` instead.
    """
    s = spec(key)
    if s.library == "url":
        raise ValueError(f"{key} is a checkpoint file, not a hub model: read it with checkpoint_state_dict")
    try:
        if s.library == "timm":
            import timm

            return timm.create_model(s.name, pretrained=True)
        if s.library == "open_clip":
            import open_clip

            return open_clip.create_model(s.name, pretrained=s.pretrained)
        import torchvision

        return torchvision.models.get_model(s.name, weights=s.pretrained.split(".", 1)[1])
    except (OSError, RuntimeError, ValueError) as error:
        raise WeightsMissingError(
            f"pretrained weights of {s.key} ({s.library} {s.name} {s.pretrained}) are not in the local cache "
            f"and could not be downloaded: {type(error).__name__}: {str(error)[:200]}. Download them on a "
            f"machine with internet into the hub cache (HF_HOME / TORCH_HOME) first."
        ) from error


def checkpoint_state_dict(key: str, root: str | Path | None = None) -> dict:
    """The raw contents of a `url` row's checkpoint file from the weights folder (no download)."""
    s = spec(key)
    path = checkpoint_path(s, root)
    if not path.is_file():
        raise WeightsMissingError(
            f"checkpoint of {s.key} not found at {path}. Download {s.pretrained or s.source_url} "
            f"into the weights folder (${WEIGHTS_ROOT_ENV} or <repo>/weights)."
        )
    return torch.load(path, map_location="cpu", weights_only=False)
