"""Where each library keeps a registry model's weights, and the studies' check before any compute, on fake caches
(`empty_caches`: tests/conftest.py)."""

import pandas as pd
import pytest

from lib.models.registry import WeightsMissingError, registry, spec
from lib.models.weight_files import hub_file, missing_weights, require_weights, weight_locations
from lib.store import Store, weights_checked

TIMM = "rib_vit_b16_augreg_in1k"  # timm/vit_base_patch16_224.augreg_in1k on the hub, or its .npz URL
TORCHVISION = "ca_resnet50_in1k"  # ResNet50_Weights.IMAGENET1K_V1
OPEN_CLIP = "ca_clip_rn50_openai"  # timm/resnet50_clip.openai on the hub, or open_clip's RN50.pt URL
SIGLIP = "rib_siglip_vit_b16_webli"  # hub weights and a Hugging Face tokenizer
URL = "ssl_dino_rn50"  # a checkpoint file in the weights folder


def put_in_hub(root, repo: str, filename: str) -> None:
    """A file of `repo` at revision main in the hub cache under `root`, as huggingface_hub lays it out."""
    folder = root / "hf" / f"models--{repo.replace('/', '--')}"
    (folder / "refs").mkdir(parents=True)
    (folder / "refs" / "main").write_text("abc123")
    (folder / "snapshots" / "abc123").mkdir(parents=True)
    (folder / "snapshots" / "abc123" / filename).write_bytes(b"weights")


def put_file(path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"weights")


def test_hub_entries_read_as_the_libraries_read_them():
    clip = hub_file("timm/vit_base_patch16_clip_224.openai/", "open_clip_pytorch_model.bin")
    assert (clip.repo, clip.names, clip.revision) == ("timm/vit_base_patch16_clip_224.openai",
                                                      ("open_clip_model.safetensors", "open_clip_pytorch_model.bin"), None)
    pinned = hub_file("org/model@v2", "pytorch_model.bin")
    assert (pinned.repo, pinned.names, pinned.revision) == ("org/model", ("model.safetensors", "pytorch_model.bin"), "v2")
    named = hub_file("org/model/weights/epoch_32.pth", "pytorch_model.bin")
    assert named.names == ("weights/epoch_32.safetensors", "weights/epoch_32.pth")
    assert hub_file("org/model/weights.npz", "x").names == ("weights.npz",)


def test_every_registry_row_has_somewhere_to_look_offline():
    for s in registry().values():
        assert all(group for group in weight_locations(s)), s.key


@pytest.mark.parametrize("key, place", [
    (TIMM, lambda root: put_in_hub(root, "timm/vit_base_patch16_224.augreg_in1k", "model.safetensors")),
    (TIMM, lambda root: put_file(root / "torch" / "hub" / "checkpoints" / "B_16-i1k-300ep-lr_0.001-aug_strong2-wd_0.1"
                                 "-do_0.1-sd_0.1--imagenet2012-steps_20k-lr_0.01-res_224.npz")),
    (TORCHVISION, lambda root: put_file(root / "torch" / "hub" / "checkpoints" / "resnet50-0676ba61.pth")),
    (OPEN_CLIP, lambda root: put_in_hub(root, "timm/resnet50_clip.openai", "open_clip_pytorch_model.bin")),
    (OPEN_CLIP, lambda root: put_file(root / "home" / ".cache" / "clip" / "RN50.pt")),
    (URL, lambda root: put_file(root / "weights" / "dino_resnet50_pretrain.pth")),
], ids=["timm-hub", "timm-url", "torchvision", "open_clip-hub", "open_clip-url", "weights-folder"])
def test_weights_are_found_in_any_place_their_library_reads(empty_caches, key, place):
    assert key in missing_weights(spec(key))
    place(empty_caches)
    assert missing_weights(spec(key)) is None


def test_a_missing_model_says_where_it_was_looked_for_and_how_to_get_it(empty_caches):
    line = missing_weights(spec(TIMM))
    assert f"looked for model.safetensors or pytorch_model.bin of hub repository timm/vit_base_patch16_224.augreg_in1k " \
           f"in {empty_caches / 'hf'} or {empty_caches / 'torch' / 'hub' / 'checkpoints'}" in line
    assert f"load_pretrained('{TIMM}')" in line
    url = missing_weights(spec(URL))
    assert str(empty_caches / "weights" / "dino_resnet50_pretrain.pth") in url and spec(URL).pretrained in url


def test_a_hugging_face_tokenizer_is_needed_besides_the_weights(empty_caches, monkeypatch):
    put_in_hub(empty_caches, "timm/ViT-B-16-SigLIP", "open_clip_model.safetensors")
    assert "the tokenizer repository timm/ViT-B-16-SigLIP" in missing_weights(spec(SIGLIP))
    monkeypatch.setattr("importlib.util.find_spec", lambda name: object())  # as if `transformers` were installed
    assert missing_weights(spec(SIGLIP)) is None  # the same repository holds the tokenizer


def test_one_error_lists_every_missing_model(empty_caches):
    put_file(empty_caches / "torch" / "hub" / "checkpoints" / "resnet50-0676ba61.pth")
    with pytest.raises(WeightsMissingError, match="2 model") as error:
        require_weights([TIMM, TORCHVISION, URL, TIMM])
    assert TIMM in str(error.value) and URL in str(error.value) and TORCHVISION not in str(error.value)
    require_weights([TORCHVISION])


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
    assert out.rstrip().endswith("present: 1, missing: 25")
