"""Checkpoint files are read with weights_only=True and an allow-list, and checked against the registry's sha256."""

from __future__ import annotations

import argparse
import os
import sys
import types
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch
import torchvision

from lib.cli import main
from lib.models import registry as models

KEY = "test_tiny_checkpoint"
CALLS: list[str] = []


def _side_effect() -> str:
    CALLS.append("ran")
    return "ran"


class Payload:
    """An object whose unpickling would run code (`_side_effect`)."""

    def __reduce__(self):
        return (_side_effect, ())


@pytest.fixture
def registry_dir(tmp_path, monkeypatch):
    """A copy of models.csv with one `url` row for `KEY`, and the weights root holding its file."""
    frame = pd.read_csv(models.REGISTRY_DIR / "models.csv", dtype=str, keep_default_na=False)
    row = {column: "" for column in frame.columns} | {
        "key": KEY, "paper": "ssl_protocols", "paper_label": "tiny", "architecture": "resnet50", "library": "url",
        "name": "resnet50", "pretrained": "https://example.org/tiny.pth", "checkpoint_file": "tiny.pth",
        "key_recipe": "state_dict_key", "feature": "pooled"}
    directory = tmp_path / "registry"
    directory.mkdir()
    pd.concat([frame, pd.DataFrame([row])], ignore_index=True).to_csv(directory / "models.csv", index=False)
    monkeypatch.setattr(models, "REGISTRY_DIR", directory)
    models.registry.cache_clear()
    yield directory
    models.registry.cache_clear()


def _save(tmp_path, contents) -> None:
    (tmp_path / "weights").mkdir(exist_ok=True)
    torch.save(contents, tmp_path / "weights" / "tiny.pth")


def test_an_unexpected_pickled_object_is_refused_before_anything_runs(tmp_path, registry_dir, monkeypatch):
    _save(tmp_path, {"state_dict": {"conv1.weight": torch.zeros(2)}, "extra": Payload()})
    monkeypatch.setattr(models, "empty_backbone", lambda *a: pytest.fail("a backbone was built"))
    CALLS.clear()
    with pytest.raises(models.UnsafeCheckpointError) as error:
        models.load_checkpoint_model(models.spec(KEY), tmp_path / "weights")
    message = str(error.value)
    assert "\n" not in message and "_side_effect" in message and "not allow-listed" in message
    assert CALLS == []
    assert main(["verify-weights", "--key", KEY, "--weights-root", str(tmp_path / "weights")]) == 1
    assert models.spec(KEY).sha256 == ""  # nothing recorded for a refused file


def test_a_file_whose_hash_differs_from_the_registry_is_refused(tmp_path, registry_dir):
    _save(tmp_path, {"state_dict": {"conv1.weight": torch.zeros(2)}})
    frame = pd.read_csv(registry_dir / "models.csv", dtype=str, keep_default_na=False)
    frame.loc[frame["key"] == KEY, "sha256"] = "0" * 64
    frame.to_csv(registry_dir / "models.csv", index=False)
    models.registry.cache_clear()
    with pytest.raises(models.UnsafeCheckpointError, match="sha256 .* is not 0{64}") as error:
        models.checkpoint_state_dict(KEY, tmp_path / "weights")
    assert "\n" not in str(error.value)


def test_a_good_file_loads_and_its_hash_is_recorded_once_then_checked(tmp_path, registry_dir, capsys):
    _save(tmp_path, {"state_dict": {"conv1.weight": torch.ones(2)}, "epoch": 3})
    before = (registry_dir / "models.csv").read_text().splitlines()
    assert main(["verify-weights", "--key", KEY, "--weights-root", str(tmp_path / "weights")]) == 0
    digest = models.file_sha256(tmp_path / "weights" / "tiny.pth")
    assert f"recorded {KEY} {digest}" in capsys.readouterr().out
    after = (registry_dir / "models.csv").read_text().splitlines()
    assert after[:-1] == before[:-1] and after[-1] == before[-1].replace(",tiny.pth,,", f",tiny.pth,{digest},")
    assert torch.equal(models.checkpoint_state_dict(KEY, tmp_path / "weights")["state_dict"]["conv1.weight"], torch.ones(2))
    _save(tmp_path, {"state_dict": {"conv1.weight": torch.zeros(2)}, "epoch": 3})  # swapped afterwards
    with pytest.raises(models.UnsafeCheckpointError, match="swapped or truncated"):
        models.checkpoint_state_dict(KEY, tmp_path / "weights")


def test_the_allow_list_reads_what_vissl_and_mmselfsup_files_hold(tmp_path, monkeypatch):
    """numpy arrays and scalars, argparse.Namespace and MMEngine's HistoryBuffer (as an inert record)."""
    module = types.ModuleType("mmengine.logging.history_buffer")

    class HistoryBuffer:
        def __init__(self) -> None:
            self.max_length = 2
            self._log_history = np.arange(2.0)

    HistoryBuffer.__module__, HistoryBuffer.__qualname__ = module.__name__, "HistoryBuffer"
    module.HistoryBuffer = HistoryBuffer
    for name in ("mmengine", "mmengine.logging", module.__name__):
        monkeypatch.setitem(sys.modules, name, module)
    contents = {"model_state_dict": {"w": np.ones((2, 2), np.float32)}, "seed": np.int64(3),
                "args": argparse.Namespace(lr=0.1), "message_hub": {"log_scalars": {"loss": HistoryBuffer()}}}
    torch.save(contents, tmp_path / "f.pth")
    for name in ("mmengine", "mmengine.logging", module.__name__):
        monkeypatch.delitem(sys.modules, name)
    loaded = models.read_checkpoint(tmp_path / "f.pth")
    assert np.array_equal(loaded["model_state_dict"]["w"], np.ones((2, 2))) and loaded["seed"] == 3
    assert loaded["args"].lr == 0.1
    record = loaded["message_hub"]["log_scalars"]["loss"]
    assert isinstance(record, models.InertRecord) and np.array_equal(record._log_history, [0.0, 1.0])


def test_a_hub_library_file_is_read_weights_only_too(tmp_path, monkeypatch):
    """torchvision's hub loader asks torch.load for weights_only=False; the registry forces it back on."""
    monkeypatch.setenv("TORCH_HOME", str(tmp_path))
    s = models.spec("rib_resnet18_in1k")
    url = torch.hub.urlparse(torchvision.models.get_weight(s.pretrained).url)
    cached = tmp_path / "hub" / "checkpoints" / Path(url.path).name
    cached.parent.mkdir(parents=True)
    torch.save({"fc.bias": torch.zeros(1000), "extra": Payload()}, cached)
    CALLS.clear()
    with pytest.raises(models.UnsafeCheckpointError, match="torchvision weights of rib_resnet18_in1k"):
        models.load_pretrained("rib_resnet18_in1k")
    assert CALLS == [] and models.FORCE_WEIGHTS_ONLY not in os.environ
