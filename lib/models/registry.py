"""The model registry (`lib/registry/models.csv`): paper label -> library, name, weights, quirks.

`exists_offline` checks a row against the installed timm / open_clip / torchvision registries
without any download. `load_pretrained` builds a model with its pretrained weights from the hub
cache (timm, open_clip, torchvision rows) or from the checkpoint file in the local weights folder
(`url` rows, converted by the row's key recipe, see `lib.models.conversion`), and raises one clear
WeightsMissingError when they are not there.

Checkpoint files are never unpickled freely: `read_checkpoint` reads them with
`torch.load(weights_only=True)`, allow-listing only what the self-supervised files hold besides
tensors (`allowed_globals`); the hub libraries' own loads run under the same rule. It checks the
file's sha256 against the row's `sha256` when the row has one (`record_sha256` fills it in once a
file has been read safely). A checkpoint file holding any other pickled object, or whose hash
differs, is refused with one UnsafeCheckpointError before its model is built (a hub file: when the
library loads it).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pandas as pd
import torch

from ..atomic import atomic_write
from ..paths import REGISTRY_DIR, WEIGHTS_ROOT_ENV, weights_root
from .conversion import convert, empty_backbone, recipe as conversion_recipe

LIBRARIES = ("timm", "open_clip", "torchvision", "url")
FEATURES = ("pooled", "cls", "mean_tokens")
OPEN_CLIP_FILE = "open_clip_file"  # the url-row recipe whose file open_clip reads itself
FORCE_WEIGHTS_ONLY = "TORCH_FORCE_WEIGHTS_ONLY_LOAD"  # torch.load reads it on every call


class WeightsMissingError(FileNotFoundError):
    """Pretrained weights that are neither in a local cache nor reachable."""


class UnsafeCheckpointError(ValueError):
    """A checkpoint file holding a pickled object outside the allow-list, or whose sha256 is not the registry's."""


class InertRecord:
    """A training-log object of a checkpoint's writer (MMEngine's HistoryBuffer in MMSelfSup files), read back as
    plain attributes: the library that wrote it is never imported and none of its code runs."""


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
    return read_checkpoint(_existing_checkpoint(spec(key), root))


def allowed_globals() -> list:
    """What `torch.load(weights_only=True)` may build besides tensors and containers: numpy arrays, dtypes
    and scalars under numpy 1.x and 2.x names (VISSL's numpy-converted models, MMEngine's logs),
    argparse.Namespace (training arguments saved beside the weights, MAE-style) and MMEngine's
    HistoryBuffer as an InertRecord (MMSelfSup's `message_hub`)."""
    import argparse

    import numpy as np

    multiarray = np._core.multiarray if hasattr(np, "_core") else np.core.multiarray
    numpy_functions = [(getattr(multiarray, name), f"{module}.{name}")
                       for module in ("numpy.core.multiarray", "numpy._core.multiarray") for name in ("_reconstruct", "scalar")]
    dtype_classes = sorted({type(np.dtype(code)) for code in "?bBhHiIlLqQefdgFDGUS"}, key=str)
    return [np.ndarray, np.dtype, *dtype_classes, *numpy_functions, argparse.Namespace,
            (InertRecord, "mmengine.logging.history_buffer.HistoryBuffer")]


@contextmanager
def _refusing_unsafe_objects(source: str | Path) -> Iterator[None]:
    """Every `torch.load` inside runs with weights_only=True, forced even where a library asks for less
    (torchvision's hub loader does), and with the allow-list; an object outside it is one
    UnsafeCheckpointError naming `source`."""
    previous = os.environ.get(FORCE_WEIGHTS_ONLY)
    os.environ[FORCE_WEIGHTS_ONLY] = "1"
    try:
        with torch.serialization.safe_globals(allowed_globals()):
            yield
    except pickle.UnpicklingError as error:
        found = re.search(r"Unsupported global: GLOBAL (\S+)|(Can only .*?got [^\n]+|Trying to call [^\n]+)", str(error))
        what = "a pickled object of another kind" if found is None else (
            f"the pickled global {found.group(1)}" if found.group(1) else found.group(2))
        raise UnsafeCheckpointError(
            f"refused checkpoint {source}: it holds {what}, which is not allow-listed "
            f"(lib.models.registry.allowed_globals); the file was not unpickled. Use a file from the row's source."
        ) from None
    finally:
        if previous is None:
            os.environ.pop(FORCE_WEIGHTS_ONLY)
        else:
            os.environ[FORCE_WEIGHTS_ONLY] = previous


def read_checkpoint(path: str | Path) -> dict:
    """A checkpoint file's contents, read with weights_only=True and the allow-list (UnsafeCheckpointError otherwise)."""
    path = Path(path)
    with _refusing_unsafe_objects(path):
        return torch.load(path, map_location="cpu", weights_only=True)


def file_sha256(path: str | Path) -> str:
    """The sha256 of a file, read in chunks."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _existing_checkpoint(s: ModelSpec, root: str | Path | None) -> Path:
    """The row's checkpoint file, its sha256 checked against the row's when the row has one."""
    path = checkpoint_path(s, root)
    if not path.is_file():
        raise WeightsMissingError(
            f"checkpoint of {s.key} not found at {path}. Download {s.pretrained} and save it as "
            f"{s.checkpoint_file} in the weights folder (${WEIGHTS_ROOT_ENV} or <repo>/weights)."
        )
    if s.sha256 and (digest := file_sha256(path)) != s.sha256:
        raise UnsafeCheckpointError(
            f"refused checkpoint {path}: its sha256 {digest} is not {s.sha256}, the one recorded for {s.key} in "
            f"lib/registry/models.csv (a swapped or truncated file): download {s.pretrained} again."
        )
    return path


def record_sha256(key: str, root: str | Path | None = None) -> str:
    """Verify a `url` row's checkpoint (it reads safely; its hash matches the row's if recorded) and record
    its sha256 in models.csv when the row has none yet; returns the hash."""
    s = spec(key)
    path = _existing_checkpoint(s, root)
    read_checkpoint(path)
    digest = s.sha256 or file_sha256(path)
    if not s.sha256:
        csv = REGISTRY_DIR / "models.csv"
        frame = pd.read_csv(csv, dtype=str, keep_default_na=False)  # read right before writing: others append rows
        frame.loc[frame["key"] == key, "sha256"] = digest
        atomic_write(csv, lambda tmp: frame.to_csv(tmp, index=False))
        registry.cache_clear()
    return digest


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
    with _refusing_unsafe_objects(f"the {s.library} weights of {s.key} in the hub cache"):
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
            from .weight_files import missing_weights  # (it imports this module)

            where = missing_weights(s)
            if where is None:  # the files are here: the error is another one
                raise
            raise WeightsMissingError(
                f"pretrained weights of {s.key} could not be loaded ({type(error).__name__}: {str(error)[:200]}): "
                f"{where}"
            ) from error


def load_checkpoint_model(s: ModelSpec, root: str | Path | None = None, recipe: str | None = None) -> torch.nn.Module:
    """Build a `url` row's network and load its local checkpoint file (see `load_pretrained`)."""
    path = _existing_checkpoint(s, root)
    if s.key_recipe == OPEN_CLIP_FILE:
        import open_clip

        with _refusing_unsafe_objects(path):  # open_clip reads the file itself
            return open_clip.create_model(s.architecture, pretrained=str(path))
    name = recipe or s.key_recipe
    architectures = conversion_recipe(name).architectures
    if s.architecture not in architectures:
        raise ValueError(f"key recipe {name} maps onto {architectures}, not {s.key}'s architecture {s.architecture}")
    checkpoint = read_checkpoint(path)  # refused here, before the backbone is built
    model = empty_backbone(s.architecture, s.feature)
    model.load_state_dict(convert(checkpoint, name, model.state_dict()), strict=True)
    return model
