"""The model registry (`lib/registry/models.csv`): paper label -> library, name, weights, quirks.

`exists_offline` checks a row against the installed timm / open_clip / torchvision registries
without any download. `load_pretrained` builds a model with its pretrained weights from the hub
cache (timm, open_clip, torchvision rows) or from the checkpoint file in the local weights folder
(`url` rows, converted by the row's key recipe, see `lib.models.conversion`), and raises one clear
WeightsMissingError when they are not there.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pandas as pd
import torch

from ..paths import REGISTRY_DIR, WEIGHTS_ROOT_ENV, weights_root
from .conversion import convert, empty_backbone, recipe as conversion_recipe

LIBRARIES = ("timm", "open_clip", "torchvision", "url")
FEATURES = ("pooled", "cls", "mean_tokens")
OPEN_CLIP_FILE = "open_clip_file"  # the url-row recipe whose file open_clip reads itself


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
    checkpoint_file: str
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
    """Where a `url` row's checkpoint file is expected: <weights root>/<checkpoint_file>."""
    if not s.checkpoint_file:
        raise ValueError(f"model {s.key} is a {s.library} hub model, not a checkpoint file")
    return weights_root(root) / s.checkpoint_file


def checkpoint_state_dict(key: str, root: str | Path | None = None) -> dict:
    """The raw contents of a `url` row's checkpoint file from the weights folder (no download)."""
    return _read_checkpoint(_existing_checkpoint(spec(key), root))


def _read_checkpoint(path: Path) -> dict:
    """A checkpoint file as saved (VISSL and MMSelfSup files hold more than tensors: not weights_only)."""
    return torch.load(path, map_location="cpu", weights_only=False)


def _existing_checkpoint(s: ModelSpec, root: str | Path | None) -> Path:
    path = checkpoint_path(s, root)
    if not path.is_file():
        raise WeightsMissingError(
            f"checkpoint of {s.key} not found at {path}. Download {s.pretrained} and save it as "
            f"{s.checkpoint_file} in the weights folder (${WEIGHTS_ROOT_ENV} or <repo>/weights)."
        )
    return path


def load_pretrained(key: str, root: str | Path | None = None, recipe: str | None = None) -> torch.nn.Module:
    """A registered model with its pretrained weights.

    Hub rows (timm, open_clip, torchvision) come from the local hub cache or a download; `url` rows
    from their checkpoint file under the weights root `root`, converted with the row's `key_recipe`
    (or `recipe`, e.g. `mocov3_base` instead of the paper's `mocov3_momentum`) into a headless
    backbone whose forward pass returns the row's `feature`. An `open_clip_file` row gives the full
    open_clip model. Raises WeightsMissingError when the weights are neither cached nor reachable.
    """
    s = spec(key)
    if s.library == "url":
        return load_checkpoint_model(s, root, recipe)
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


def load_checkpoint_model(s: ModelSpec, root: str | Path | None = None, recipe: str | None = None) -> torch.nn.Module:
    """Build a `url` row's network and load its local checkpoint file (see `load_pretrained`)."""
    path = _existing_checkpoint(s, root)
    if s.key_recipe == OPEN_CLIP_FILE:
        import open_clip

        return open_clip.create_model(s.architecture, pretrained=str(path))
    name = recipe or s.key_recipe
    architectures = conversion_recipe(name).architectures
    if s.architecture not in architectures:
        raise ValueError(f"key recipe {name} maps onto {architectures}, not {s.key}'s architecture {s.architecture}")
    model = empty_backbone(s.architecture, s.feature)
    model.load_state_dict(convert(_read_checkpoint(path), name, model.state_dict()), strict=True)
    return model
