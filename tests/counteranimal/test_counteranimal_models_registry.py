"""The counteranimal rows of lib/registry/models.csv, checked offline against open_clip, torchvision and timm."""

from __future__ import annotations

import re

import open_clip
import pytest
import timm

from lib.counteranimal.published import OPENCLIP_CHECKPOINTS, raw
from lib.models.registry import exists_offline, registry
from lib.paths import REGISTRY_DIR

ROWS = [s for s in registry().values() if s.paper == "counteranimal"]
CLIP_ROWS = [s for s in ROWS if s.library == "open_clip"]
IMAGENET_ROWS = [s for s in ROWS if s.library == "torchvision"]
GELU_LOAD = "gelu_on_quickgelu_weights"  # the deliberate alternative reading of the reference model


def parse_label(label: str) -> tuple[str, str, str]:
    """'CLIP-<data>-<backbone>[ <checkpoint>]' -> (data, backbone, checkpoint)."""
    _, data, rest = label.split("-", 2)
    backbone, _, checkpoint = rest.partition(" ")
    return data, backbone, checkpoint


LABELS = {parse_label(s.paper_label): s for s in CLIP_ROWS}


def test_rows_are_clip_or_torchvision_models():
    assert len(ROWS) == len(CLIP_ROWS) + len(IMAGENET_ROWS) == 52


@pytest.mark.parametrize("spec", CLIP_ROWS, ids=[s.key for s in CLIP_ROWS])
def test_clip_rows_exist_in_open_clip_with_their_activation_explicit(spec):
    assert (spec.name, spec.pretrained) in set(open_clip.list_pretrained()) and spec.architecture == spec.name
    trained_quick = (open_clip.get_pretrained_cfg(spec.name, spec.pretrained) or {}).get("quick_gelu", False)
    if spec.quirks == GELU_LOAD:
        assert trained_quick and not spec.name.endswith("-quickgelu")
    else:
        assert spec.name.endswith("-quickgelu") == trained_quick == (spec.quirks == "quick_gelu"), spec.key
    assert spec.preprocess == "open_clip" and spec.source_url.startswith("https://")


@pytest.mark.parametrize("spec", IMAGENET_ROWS, ids=[s.key for s in IMAGENET_ROWS])
def test_imagenet_rows_exist_in_torchvision(spec):
    assert exists_offline(spec) and spec.pretrained.endswith(".IMAGENET1K_V1")
    same = re.search(r"timm (\S+) holds the same weights", spec.notes)
    if same:  # the timm twin the notes name is a pretrained timm model
        assert same[1] in timm.list_models(pretrained=True)


def test_every_clip_model_of_the_paper_has_a_row():
    models = set(zip(raw("table03")["backbone"], raw("table03")["pretrain_dataset"]))
    assert models <= {(b, d) for d, b, _ in LABELS}
    versions = raw("table09")[["backbone", "pretrain_dataset", "checkpoint"]].drop_duplicates()
    for backbone, data, checkpoint in versions.itertuples(index=False):
        assert (data, backbone, checkpoint) in LABELS, (data, backbone, checkpoint)


def test_table06_checkpoints_read_as_in_the_published_module():
    for backbone, data, checkpoint in raw("table06")[["backbone", "pretrain_dataset", "printed"]].itertuples(index=False):
        spec = LABELS[data, backbone, checkpoint]
        name, tag, printed_exists = OPENCLIP_CHECKPOINTS[backbone, data]
        assert (spec.name, spec.pretrained) == (name, tag)
        assert printed_exists or "does not exist in open_clip" in spec.notes


def test_every_imagenet_model_of_table04_has_a_row():
    assert set(raw("table04")["backbone"]) == {s.paper_label for s in IMAGENET_ROWS}


def test_readings_of_missing_tags_are_recorded_in_models_md():
    text = (REGISTRY_DIR / "MODELS.md").read_text()
    section = text[text.index("## counteranimal"):]
    for printed, reading in (("S34B B160K", "laion2b_s39b_b160k"), ("XL S32B B82K", "datacomp_xl_s13b_b90k")):
        assert printed in section and reading in section
