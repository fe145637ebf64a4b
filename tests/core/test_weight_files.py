"""Where each library keeps a registry model's weights, and the studies' check before any compute, on fake caches
(`empty_caches`: tests/conftest.py)."""

import pandas as pd
import pytest

import lib.models.weight_files as weight_files
from lib.models.registry import WeightsMissingError, registry, spec
from lib.models.weight_files import (
    hubs_reachable, missing_weights, open_clip_hub_file, require_weights, timm_hub_file, weight_locations,
)
from lib.store import Store, weights_checked

TIMM = "rib_vit_b16_augreg_in1k"  # timm/vit_base_patch16_224.augreg_in1k on the hub (its config also has a URL)
TORCHVISION = "ca_resnet50_in1k"  # ResNet50_Weights.IMAGENET1K_V1, from its URL
OPEN_CLIP = "ca_clip_rn50_openai"  # timm/resnet50_clip.openai on the hub (its config also has a URL)
SIGLIP = "rib_siglip_vit_b16_webli"  # hub weights and a Hugging Face tokenizer
URL = "ssl_dino_rn50"  # a checkpoint file in the weights folder


def put_in_hub(root, repo: str, filename: str) -> None:
    """A file of `repo` at revision main in the hub cache under `root`, as huggingface_hub lays it out."""
    folder = root / "hf" / f"models--{repo.replace('/', '--')}"
    (folder / "refs").mkdir(parents=True, exist_ok=True)
    (folder / "refs" / "main").write_text("abc123")
    (folder / "snapshots" / "abc123").mkdir(parents=True, exist_ok=True)
    (folder / "snapshots" / "abc123" / filename).write_bytes(b"weights")


def put_file(path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"weights")


def test_hub_entries_read_as_each_library_reads_them():
    clip = open_clip_hub_file("timm/vit_base_patch16_clip_224.openai/")
    assert (clip.repo, clip.names) == ("timm/vit_base_patch16_clip_224.openai",
                                       ("open_clip_model.safetensors", "open_clip_pytorch_model.bin"))
    assert open_clip_hub_file("org/model/epoch_32.pth").names == ("epoch_32.safetensors", "epoch_32.pth")
    pinned = timm_hub_file("org/model@v2", None)
    assert (pinned.repo, pinned.names, pinned.revision) == ("org/model", ("model.safetensors", "pytorch_model.bin"), "v2")
    assert timm_hub_file("org/model", "weights.pth").names == ("weights.pth",)  # timm offers no alternative to .pth
    assert timm_hub_file("org/model", "model.safetensors").names == ("model.safetensors",)


def test_every_registry_row_has_somewhere_to_look_offline():
    for s in registry().values():
        assert all(group for group in weight_locations(s)), s.key


@pytest.mark.parametrize("key, place", [
    (TIMM, lambda root: put_in_hub(root, "timm/vit_base_patch16_224.augreg_in1k", "model.safetensors")),
    (TIMM, lambda root: put_in_hub(root, "timm/vit_base_patch16_224.augreg_in1k", "pytorch_model.bin")),
    (TORCHVISION, lambda root: put_file(root / "torch" / "hub" / "checkpoints" / "resnet50-0676ba61.pth")),
    (OPEN_CLIP, lambda root: put_in_hub(root, "timm/resnet50_clip.openai", "open_clip_pytorch_model.bin")),
    (URL, lambda root: put_file(root / "weights" / "dino_resnet50_pretrain.pth")),
], ids=["timm-safetensors", "timm-pickle", "torchvision", "open_clip", "weights-folder"])
def test_weights_are_found_where_their_library_reads_them(empty_caches, key, place):
    assert key in missing_weights(spec(key))
    place(empty_caches)
    assert missing_weights(spec(key)) is None


def test_a_url_download_the_library_would_not_read_does_not_count(empty_caches, monkeypatch):
    npz = "B_16-i1k-300ep-lr_0.001-aug_strong2-wd_0.1-do_0.1-sd_0.1--imagenet2012-steps_20k-lr_0.01-res_224.npz"
    put_file(empty_caches / "torch" / "hub" / "checkpoints" / npz)  # timm reads the hub when its config names one
    put_file(empty_caches / "home" / ".cache" / "clip" / "RN50.pt")  # so does open_clip
    assert missing_weights(spec(TIMM)) is not None and missing_weights(spec(OPEN_CLIP)) is not None
    monkeypatch.setenv("TIMM_USE_OLD_CACHE", "1")  # then timm reads the URL's file first
    assert missing_weights(spec(TIMM)) is None


def test_a_missing_model_says_where_it_was_looked_for_and_how_to_get_it(empty_caches):
    line = missing_weights(spec(TIMM))
    assert f"looked for model.safetensors or pytorch_model.bin of hub repository timm/vit_base_patch16_224.augreg_in1k " \
           f"in {empty_caches / 'hf'}; " in line
    assert f"load_pretrained('{TIMM}')" in line and "tokenizer_for" not in line
    url = missing_weights(spec(URL))
    assert str(empty_caches / "weights" / "dino_resnet50_pretrain.pth") in url and spec(URL).pretrained in url


def test_a_hugging_face_tokenizer_is_needed_besides_the_weights(empty_caches, monkeypatch):
    put_in_hub(empty_caches, "timm/ViT-B-16-SigLIP", "open_clip_model.safetensors")
    monkeypatch.setattr("importlib.util.find_spec", lambda name: object())  # as if `transformers` were installed
    line = missing_weights(spec(SIGLIP))
    assert "the tokenizer of hub repository timm/ViT-B-16-SigLIP (tokenizer_config.json and one of tokenizer.json, " \
           "spiece.model," in line
    assert f"tokenizer_for('{SIGLIP}')" in line
    put_in_hub(empty_caches, "timm/ViT-B-16-SigLIP", "tokenizer_config.json")
    assert "the tokenizer" in missing_weights(spec(SIGLIP))  # a configuration without its vocabulary
    put_in_hub(empty_caches, "timm/ViT-B-16-SigLIP", "spiece.model")
    assert missing_weights(spec(SIGLIP)) is None


def test_one_error_lists_every_missing_model(empty_caches):
    assert not hubs_reachable()  # HF_HUB_OFFLINE
    put_file(empty_caches / "torch" / "hub" / "checkpoints" / "resnet50-0676ba61.pth")
    with pytest.raises(WeightsMissingError, match="2 model") as error:
        require_weights([TIMM, TORCHVISION, URL, TIMM])
    assert TIMM in str(error.value) and URL in str(error.value) and TORCHVISION not in str(error.value)
    require_weights([TORCHVISION])


def test_the_hub_probe_gives_up_on_a_hanging_name_lookup_within_its_timeout(monkeypatch):
    import socket
    import threading
    import time

    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(weight_files, "HUB_PROBE_TIMEOUT_S", 0.2)
    release = threading.Event()

    def hanging(*args):  # a name lookup that answers only when released, with no address
        release.wait(30)
        raise socket.gaierror("no address")

    monkeypatch.setattr(socket, "create_connection", hanging)
    hubs_reachable.cache_clear()
    started = time.monotonic()
    assert not hubs_reachable() and time.monotonic() - started < 2
    release.set()
    hubs_reachable.cache_clear()

    class Connection:
        def close(self) -> None:
            pass

    monkeypatch.setattr(socket, "create_connection", lambda address, timeout: Connection())
    assert hubs_reachable()
    hubs_reachable.cache_clear()


def test_where_a_hub_is_reachable_only_checkpoint_files_are_required(empty_caches, monkeypatch):
    monkeypatch.setattr(weight_files, "hubs_reachable", lambda: True)  # the library downloads the rest
    require_weights([TIMM, OPEN_CLIP, TORCHVISION])
    with pytest.raises(WeightsMissingError, match=f"(?s)1 model.*{URL}"):
        require_weights([TIMM, URL])


def test_a_study_checks_the_weights_of_the_runs_left_to_compute_only(empty_caches, tmp_path):
    store = Store(tmp_path / "results", "paper")
    stored, todo = {"model": TIMM}, {"model": URL}
    store.run(stored, lambda: pd.DataFrame({"x": [1]}))

    def never() -> pd.DataFrame:
        raise AssertionError("no run may compute before the weights are found")

    needs = lambda config: (config["model"],)  # noqa: E731
    assert weights_checked(store, [(stored, never)], needs) == [(stored, never)]
    with pytest.raises(WeightsMissingError, match=f"(?s)1 model.*{URL}"):
        weights_checked(store, [(stored, never), (todo, never)], needs)
    assert weights_checked(store, [(todo, never)], lambda config: ()) == [(todo, never)]


def test_check_weights_lists_every_model_of_a_paper(empty_caches, capsys):
    from lib.cli import main

    put_file(empty_caches / "weights" / "dino_resnet50_pretrain.pth")
    assert main(["check-weights", "--paper", "ssl_protocols"]) == 0
    out = capsys.readouterr().out
    assert "present  ssl_dino_rn50\n" in out and "missing  ssl_mocov3_vitb16 (" in out
    assert "present: 1, missing: 25\nno hub is reachable from here" in out
