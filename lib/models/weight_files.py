"""Where a registry model's pretrained weights sit on this machine, checked without loading or downloading them.

Each library keeps its downloads in its own cache, and the places listed here are those it reads, with the
installed versions' rules. timm and open_clip read the Hugging Face hub cache (`HF_HOME`) when the model's
pretrained config names a hub repository (a safetensors file before the pickled one, by each library's own
rule); only a config without one is read from its download URL's file, under torch's hub folder (`TORCH_HOME`;
timm, and torchvision always) or open_clip's `~/.cache/clip` (timm also reads that file first under
`TIMM_USE_OLD_CACHE`). A `url` row's checkpoint is a file in the weights folder. A SigLIP-style CLIP also needs
its Hugging Face tokenizer: the `transformers` package and, in the hub cache, the repository's
`tokenizer_config.json` and one of the files a tokenizer builds its vocabulary from (`VOCAB_FILES`).

`require_weights` is the studies' check before any compute: one WeightsMissingError listing every model whose
weights are found in none of their places, and where each was looked for, instead of a failure at the first run
of each such model. A checkpoint file is always required; hub weights only where no hub can be reached
(`HF_HUB_OFFLINE` set, or huggingface.co not answering), since elsewhere the library downloads them at the first
run.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import socket
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from ..paths import WEIGHTS_ROOT_ENV
from .registry import ModelSpec, WeightsMissingError, checkpoint_path, spec

OPEN_CLIP_HUB_FILE = "open_clip_pytorch_model.bin"  # open_clip's file when its hub entry names none
TIMM_HUB_FILE = "pytorch_model.bin"  # timm's file when its config names none
TOKENIZER_FILE = "tokenizer_config.json"  # the first file transformers' AutoTokenizer reads
VOCAB_FILES = ("tokenizer.json", "spiece.model", "sentencepiece.bpe.model", "vocab.json", "vocab.txt")  # fast, slow
HUB_PROBE_TIMEOUT_S = 3.0


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
class HubTokenizer:
    """A Hugging Face tokenizer read by `transformers`: present when the package is installed and the hub cache
    holds the repository's `TOKENIZER_FILE` and one of its `VOCAB_FILES`."""

    repo: str

    def present(self) -> bool:
        return importlib.util.find_spec("transformers") is not None and HubFile(self.repo, (TOKENIZER_FILE,)).present() \
            and HubFile(self.repo, VOCAB_FILES).present()

    def __str__(self) -> str:
        from huggingface_hub import constants

        installed = "" if importlib.util.find_spec("transformers") else " (not installed: pip install -e '.[full]')"
        return (f"the tokenizer of hub repository {self.repo} ({TOKENIZER_FILE} and one of {', '.join(VOCAB_FILES)}) "
                f"in {constants.HF_HUB_CACHE}, read by `transformers`{installed}")


@dataclass(frozen=True)
class LocalFile:
    """A file at a fixed path."""

    path: Path

    def present(self) -> bool:
        return self.path.is_file()

    def __str__(self) -> str:
        return str(self.path)


Location = HubFile | HubTokenizer | LocalFile


def timm_hub_file(hub_id: str, filename: str | None) -> HubFile:
    """What timm reads of hub model `hub_id` (`org/name[@revision]`): `filename` (default `TIMM_HUB_FILE`) after
    the safetensors alternatives of timm's own rule."""
    from timm.models._hub import _get_safe_alternatives

    repo, _, revision = hub_id.partition("@")
    filename = filename or TIMM_HUB_FILE
    return HubFile(repo, (*_get_safe_alternatives(filename), filename), revision or None)


def open_clip_hub_file(entry: str) -> HubFile:
    """What open_clip reads of a hub entry (`org/name/` or `org/name/file`): the file (default
    `OPEN_CLIP_HUB_FILE`) after the safetensors alternatives of open_clip's own rule."""
    from open_clip.pretrained import _get_safe_alternatives

    repo, filename = os.path.split(entry)
    filename = filename or OPEN_CLIP_HUB_FILE
    return HubFile(repo, (*_get_safe_alternatives(filename), filename))


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
        if cfg.file and cfg.source != "hf-hub":
            return [[LocalFile(Path(cfg.file))]]
        places: list[Location] = []
        if cfg.url and (not cfg.hf_hub_id or os.environ.get("TIMM_USE_OLD_CACHE")):
            places.append(torch_hub_file(cfg.url))
        if cfg.hf_hub_id:
            places.append(timm_hub_file(cfg.hf_hub_id, cfg.hf_hub_filename))
        return [places]
    import open_clip

    cfg = open_clip.get_pretrained_cfg(s.name, s.pretrained)
    if cfg.get("file"):
        places = [LocalFile(Path(cfg["file"]))]
    elif cfg.get("hf_hub"):
        places = [open_clip_hub_file(cfg["hf_hub"])]
    else:
        places = [LocalFile(Path("~/.cache/clip").expanduser() / os.path.basename(cfg["url"]))]
    tokenizer = (open_clip.get_model_config(s.name) or {}).get("text_cfg", {}).get("hf_tokenizer_name")
    return [places, [HubTokenizer(tokenizer)]] if tokenizer else [places]


def missing_weights(s: ModelSpec, root: str | Path | None = None) -> str | None:
    """None when every part of a model is on this machine, else one line: what is missing, where it was looked
    for, where to get it."""
    needs = weight_locations(s, root)
    absent = [group for group in needs if not any(place.present() for place in group)]
    if not absent:
        return None
    looked = "; ".join(" or ".join(str(place) for place in group) for group in absent)
    tokenizer = f" and lib.models.clip.tokenizer_for('{s.key}')" if len(needs) > 1 else ""
    source = (f"download {s.pretrained} and save it as {s.checkpoint_file} in the weights folder "
              f"(${WEIGHTS_ROOT_ENV} or <repo>/weights)" if s.library == "url" else
              f"on a machine with internet, load it once with lib.models.registry.load_pretrained('{s.key}')"
              f"{tokenizer} and copy its caches (HF_HOME, TORCH_HOME) here")
    what = f"{s.architecture} checkpoint" if s.library == "url" else f"{s.library} {s.name} {s.pretrained}"
    return f"{s.key} ({what}): looked for {looked}; {source}"


@functools.cache
def hubs_reachable() -> bool:
    """Whether the model hubs can be reached from here (once per process): not with `HF_HUB_OFFLINE` set, else
    whether the Hugging Face endpoint's name resolves and it accepts a connection, both within
    `HUB_PROBE_TIMEOUT_S` (the probe runs in a daemon thread, as a name lookup obeys no socket timeout)."""
    from huggingface_hub import constants

    if constants.HF_HUB_OFFLINE:
        return False
    answered: list[bool] = []

    def probe() -> None:
        try:
            socket.create_connection((urlparse(constants.ENDPOINT).hostname, 443), HUB_PROBE_TIMEOUT_S).close()
            answered.append(True)
        except OSError:
            pass

    thread = threading.Thread(target=probe, name="hub probe", daemon=True)
    thread.start()
    thread.join(HUB_PROBE_TIMEOUT_S)
    return bool(answered)


def require_weights(keys: Iterable[str], root: str | Path | None = None) -> None:
    """WeightsMissingError listing every registry model of `keys` whose weights (or tokenizer) are missing here
    and cannot be downloaded at its first run: a checkpoint file always, hub weights where no hub is reachable."""
    specs = [spec(key) for key in dict.fromkeys(keys)]
    missing = [(s, line) for s in specs if (line := missing_weights(s, root))]
    if any(s.library != "url" for s, _ in missing) and hubs_reachable():
        missing = [(s, line) for s, line in missing if s.library == "url"]
    if missing:
        raise WeightsMissingError(f"{len(missing)} model(s) have no pretrained weights on this machine:\n- "
                                  + "\n- ".join(line for _, line in missing))
