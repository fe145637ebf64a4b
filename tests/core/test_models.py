import os

import pytest

from lib.models.registry import (
    FEATURES, WeightsMissingError, checkpoint_state_dict, exists_offline, load_pretrained, registry,
)

SPECS = list(registry().values())


@pytest.mark.parametrize("spec", SPECS, ids=[s.key for s in SPECS])
def test_every_model_exists_in_the_installed_registries(spec):
    assert exists_offline(spec), f"{spec.key}: {spec.library} {spec.name} {spec.pretrained} not found offline"
    assert spec.feature in FEATURES


def test_registry_covers_the_two_first_papers():
    papers = {s.paper for s in SPECS}
    assert {"imagenet_rib", "ssl_protocols"} <= papers
    assert sum(s.paper == "ssl_protocols" for s in SPECS) == 26


def test_url_rows_have_a_source_and_recipe():
    for s in SPECS:
        if s.library == "url":
            assert (s.pretrained or s.source_url) and s.key_recipe, s.key


def test_quick_gelu_rows_use_quickgelu_models():
    for s in SPECS:
        if "quick_gelu" in s.quirks and s.library == "open_clip":
            assert "quickgelu" in s.name.lower(), s.key


def test_missing_checkpoint_is_a_clear_error(tmp_path):
    key = next(s.key for s in SPECS if s.library == "url")
    with pytest.raises(WeightsMissingError, match="not found at"):
        checkpoint_state_dict(key, root=tmp_path)


def test_hub_weights_offline_give_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    key = next(s.key for s in SPECS if s.library == "timm")
    with pytest.raises(WeightsMissingError, match=f"could not be loaded .*{key} .*looked for .*of hub repository"):
        load_pretrained(key)
