"""Where a registry model's pretrained weights sit on this machine, checked without loading or downloading them.

Each library keeps its downloads in its own cache. timm and open_clip read the Hugging Face hub cache
(`HF_HOME`) when the model's pretrained config names a hub repository, where they take a safetensors file
before the pickled one; otherwise they, like torchvision, keep the download URL's file under torch's hub
folder (`TORCH_HOME`), or open_clip's `~/.cache/clip`. A `url` row's checkpoint is a file in the weights
folder. A SigLIP-style CLIP also needs its Hugging Face tokenizer (the `transformers` package and the
tokenizer's repository in the hub cache).

`require_weights` is the studies' check before any compute: one WeightsMissingError listing every model
whose weights are found in none of their places, and where each was looked for, instead of a failure at
the first run of each such model.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..paths import WEIGHTS_ROOT_ENV
from .registry import ModelSpec, WeightsMissingError, checkpoint_path, spec

# The safetensors file that timm and open_clip try before a hub repository's pickled weights file.
SAFE_ALTERNATIVES = {"pytorch_model.bin": "model.safetensors",
                     "open_clip_pytorch_model.bin": "open_clip_model.safetensors"}
OPEN_CLIP_HUB_FILE = "open_clip_pytorch_model.bin"  # open_clip's file when its hub entry names none
TIMM_HUB_FILE = "pytorch_model.bin"  # timm's file when its config names none


@dataclass(frozen=True)
class HubFile:
    """A file in a Hugging Face hub repository: present when any of `names` is in the local hub cache."""

    repo: str
    names: tuple[str, ...]
    revision: str | None = None

    def present(self) -> bool:
        from huggingface_hub import try_to_load_from_cache

        return any(isinstance(try_to_load_from_cache(self.repo, name, revision=self.revision), str)
                   for name in self.names)

    def __str__(self) -> str:
        from huggingface_hub import constants

        return f"{' or '.join(self.names)} of hub repository {self.repo} in {constants.HF_HUB_CACHE}"


@dataclass(frozen=True)
class HubRepository:
    """A Hugging Face repository read whole by `transformers` (a tokenizer): present when the hub cache holds
    a snapshot of it and `transformers` is installed."""

    repo: str

    def present(self) -> bool:
        from huggingface_hub import constants

        snapshots = Path(constants.HF_HUB_CACHE) / f"models--{self.repo.replace('/', '--')}" / "snapshots"
        return importlib.util.find_spec("transformers") is not None and snapshots.is_dir() and any(snapshots.iterdir())

    def __str__(self) -> str:
        from huggingface_hub import constants

        installed = "" if importlib.util.find_spec("transformers") else " (not installed: pip install -e '.[full]')"
        return f"the tokenizer repository {self.repo} in {constants.HF_HUB_CACHE}, read by `transformers`{installed}"


@dataclass(frozen=True)
class LocalFile:
    """A file at a fixed path."""

    path: Path

    def present(self) -> bool:
        return self.path.is_file()

    def __str__(self) -> str:
        return str(self.path)


Location = HubFile | HubRepository | LocalFile


def hub_file(entry: str, default: str) -> HubFile:
    """A hub entry `org/repo[@revision][/file]` as the files a library reads: the named file (or `default`) and
    its safetensors alternative, tried first."""
    org, name, *path = entry.split("/")
    name, _, revision = name.partition("@")
    filename = "/".join(path) or default
    safe = SAFE_ALTERNATIVES.get(filename) or (filename[:-4] + ".safetensors" if filename.endswith((".bin", ".pth"))
                                               else None)
    return HubFile(f"{org}/{name}", (safe, filename) if safe else (filename,), revision or None)


def torch_hub_file(url: str) -> LocalFile:
    """Where torch.hub keeps a downloaded URL's file (torchvision's and timm's URL weights)."""
    import torch

    return LocalFile(Path(torch.hub.get_dir()) / "checkpoints" / os.path.basename(url))


def weight_locations(s: ModelSpec, root: str | Path | None = None) -> list[list[Location]]:
    """What a model needs, as groups of places: each group must have one place present (the weights in any
    of the places its library reads them from; a Hugging Face tokenizer, where the model has one)."""
    if s.library == "url":
        return [[LocalFile(checkpoint_path(s, root))]]
    if s.library == "torchvision":
        import torchvision

        return [[torch_hub_file(torchvision.models.get_weight(s.pretrained).url)]]
    if s.library == "timm":
        import timm

        cfg = timm.models.get_pretrained_cfg(s.name)
        places: list[Location] = []
        if cfg.hf_hub_id:
            places.append(hub_file(cfg.hf_hub_id + ("/" + cfg.hf_hub_filename if cfg.hf_hub_filename else ""),
                                   TIMM_HUB_FILE))
        if cfg.url:
            places.append(torch_hub_file(cfg.url))
        return [places]
    import open_clip

    cfg = open_clip.get_pretrained_cfg(s.name, s.pretrained)
    places = [LocalFile(Path(cfg["file"]))] if cfg.get("file") else []
    if cfg.get("hf_hub"):
        places.append(hub_file(cfg["hf_hub"], OPEN_CLIP_HUB_FILE))
    if cfg.get("url"):
        places.append(LocalFile(Path("~/.cache/clip").expanduser() / os.path.basename(cfg["url"])))
    needs = [places]
    tokenizer = (open_clip.get_model_config(s.name) or {}).get("text_cfg", {}).get("hf_tokenizer_name")
    if tokenizer:
        needs.append([HubRepository(tokenizer)])
    return needs


def missing_weights(s: ModelSpec, root: str | Path | None = None) -> str | None:
    """None when every part of a model is on this machine, else one line: what is missing, where it was looked
    for, where to get it."""
    absent = [group for group in weight_locations(s, root) if not any(place.present() for place in group)]
    if not absent:
        return None
    looked = "; ".join(" or ".join(str(place) for place in group) for group in absent)
    source = (f"download {s.pretrained} and save it as {s.checkpoint_file} in the weights folder "
              f"(${WEIGHTS_ROOT_ENV} or <repo>/weights)" if s.library == "url" else
              f"on a machine with internet, load it once with lib.models.registry.load_pretrained('{s.key}') and "
              f"copy its caches (HF_HOME, TORCH_HOME) here")
    what = f"{s.architecture} checkpoint" if s.library == "url" else f"{s.library} {s.name} {s.pretrained}"
    return f"{s.key} ({what}): looked for {looked}; {source}"


def require_weights(keys: Iterable[str], root: str | Path | None = None) -> None:
    """WeightsMissingError listing every registry model of `keys` with weights (or tokenizer) missing here."""
    missing = [line for key in dict.fromkeys(keys) if (line := missing_weights(spec(key), root))]
    if missing:
        raise WeightsMissingError(f"{len(missing)} model(s) have no pretrained weights on this machine:\n- "
                                  + "\n- ".join(missing))
