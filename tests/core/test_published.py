import math

import pytest

from lib.published import load, parse_number, printed_decimals
from lib.ssl_protocols.accuracies import published_accuracies, score_table


@pytest.mark.parametrize("text, value", [("12.0", 12.0), ("−3.5", -3.5), ("+1.2", 1.2), (".5", 0.5), ("72", 72.0)])
def test_parse_number(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["-", "—", "–", ""])
def test_dashes_are_missing(text):
    assert math.isnan(parse_number(text))


def test_parse_number_rejects_words():
    with pytest.raises(ValueError):
        parse_number("VISSL model zoo")


def test_printed_decimals():
    assert [printed_decimals(t) for t in ("0.90", "72", "12.5", "3.125%")] == [2, 0, 1, 3]


def test_table_s2_imagenet_block_is_complete():
    acc = published_accuracies("top1")
    imagenet = acc[acc["dataset"] == "Imagenet"]
    assert imagenet["model"].nunique() == 26
    assert sorted(imagenet["protocol"].unique()) == sorted(
        ["kNN", "kNN_N", "LP", "LP_BN", "FT", "FT10%", "FT10%_BN", "FT1%", "FT1%_BN"]
    )
    assert not imagenet.duplicated(["model", "protocol"]).any()
    assert imagenet["value"].notna().all()


@pytest.mark.parametrize(
    "model, dataset, protocol, run1",
    [  # Table S.7 run 1 against the single run printed in Table S.2
        ("SimCLR (RN-50)", "Imagenet", "LP", 66.87),
        ("DINO (RN-50)", "Imagenet", "FT", 76.00),
        ("MILAN (ViT-B/16)", "Imagenet", "FT10%", 78.92),
        ("EVA (ViT-B/16)", "Imagenet", "FT1%", 41.10),
        ("Jigsaw (RN-50)", "PascalVOC", "FT", 64.62),
        ("MoCo v3 (RN-50)", "Caltech-256", "FT", 88.52),
    ],
)
def test_table_s2_agrees_with_seed_study(model, dataset, protocol, run1):
    scores = score_table(published_accuracies("top1"), dataset, {protocol: protocol})
    assert scores.loc[model, protocol] == pytest.approx(run1, abs=0.05)


def test_load_keeps_printed_text():
    frame = load("ssl_protocols", "table_s2")
    assert "printed" in frame.columns and frame["printed"].iloc[0] == "12.0"


def test_unknown_artefact_is_a_clear_error():
    with pytest.raises(FileNotFoundError, match="no published numbers"):
        load("ssl_protocols", "table_s99")
