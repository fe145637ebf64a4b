"""Structural checks of imagenet_rib Tables 19-31 as transcribed in lib/published/imagenet_rib/.

Cheap and offline: every CSV loads, every value parses, the counts of models, methods and datasets
match the printed tables, a few cells equal the printed text, and the within-table and cross-table
identities that must hold exactly or to rounding do hold (see the README's table19+ sections).
"""

import math

import pytest

from lib.published import load

PAPER = "imagenet_rib"
FT_DATASETS = [
    "ImageNet-V2", "ImageNet-A", "ImageNet-R", "ImageNet-Sketch",
    "ObjectNet", "ImageNet-Cartoon", "ImageNet-Drawing", "ImageNet-C",
]
EVAL_DATASETS = ["ImageNet-1K", *FT_DATASETS]
METHODS = [
    "FT", "Linear Probing", "Visual Prompt", "LoRA", "EWC", "LwF", "LP-FT", "WiSE-FT", "MS:PRE-FT-EWC-LwF",
]
RESNET_METHODS = [m for m in METHODS if m != "LoRA"]
NUMERIC_TABLES = {  # artefact -> rows
    "table19": 504, "table20": 648, "table21": 128,
    "table22": 386, "table23": 162, "table24": 81, "table26": 81, "table27": 162, "table28": 162,
    "table30": 657, "table31": 1024,
}
RI_TABLES = {  # artefact -> (pretraining of the ViTs, architectures)
    "table22": ("IN-1K + AugReg", ["ViT-B/16", "ViT-B/32", "ViT-S/16", "ResNet-18", "ResNet-50"]),
    "table23": ("IN-1K + SAM", ["ViT-B/16", "ViT-B/32"]),
    "table24": ("IN-21K", ["ViT-B/16"]),
    "table26": ("IN-21K-P", ["ViT-B/16"]),
    "table27": ("LAION-2B", ["ViT-B/16", "ViT-B/32"]),
    "table28": ("OpenAI", ["ViT-B/16", "ViT-B/32"]),
}


def _labels(frame):
    return [c for c in frame.columns if c not in ("printed", "value", "block")]


@pytest.mark.parametrize("artefact, rows", sorted(NUMERIC_TABLES.items()))
def test_loads_parses_and_has_unique_cells(artefact, rows):
    frame = load(PAPER, artefact)
    assert len(frame) == rows
    assert not frame.duplicated(_labels(frame)).any()
    dashes = frame["printed"] == "-"
    assert frame.loc[~dashes, "value"].notna().all()
    assert frame.loc[dashes, "value"].isna().all()


@pytest.mark.parametrize(
    "artefact, models, methods",
    [
        ("table19", [("ViT-B/16", p) for p in
                     ["IN-1K + AugReg", "IN-1K + SAM", "IN-21K", "IN-21K-P", "IN-21K + AugReg", "OpenAI", "LAION-2B"]],
         METHODS),
        ("table20", [("ViT-B/32", "IN-1K + AugReg"), ("ViT-B/32", "IN-1K + SAM"), ("ViT-B/32", "IN-21K + AugReg"),
                     ("ViT-B/32", "OpenAI"), ("ViT-B/32", "LAION-2B"), ("ViT-S/16", "IN-1K + AugReg"),
                     ("ViT-S/16", "IN-21K + AugReg"), ("ViT-S/32", "IN-21K + AugReg"), ("ViT-L/16", "IN-21K + AugReg")],
         METHODS),
        ("table21", [("ResNet-18", "IN-1K"), ("ResNet-50", "IN-1K")], RESNET_METHODS),
    ],
)
def test_finetune_accuracy_tables_are_complete_grids(artefact, models, methods):
    frame = load(PAPER, artefact)
    blocks = frame.drop_duplicates("printed_block")
    assert list(zip(blocks["architecture"], blocks["pretraining"])) == models
    assert list(blocks["printed_block"]) == [str(i) for i in range(1, len(models) + 1)]
    for _, block in frame.groupby("printed_block"):
        assert list(block["method"].drop_duplicates()) == methods
        assert block.groupby("method")["finetune_dataset"].apply(list).map(lambda d: d == FT_DATASETS).all()
    assert frame["value"].between(0, 100).all()


@pytest.mark.parametrize("artefact", sorted(RI_TABLES))
def test_ri_tables_have_mri_and_eight_ris(artefact):
    pretraining, architectures = RI_TABLES[artefact]
    frame = load(PAPER, artefact)
    assert list(frame["architecture"].drop_duplicates()) == architectures
    vits = frame[frame["architecture"].str.startswith("ViT")]
    assert set(vits["pretraining"]) == {pretraining}
    assert set(frame.loc[frame["architecture"].str.startswith("ResNet"), "pretraining"]) <= {"IN-1K"}
    for (architecture, method), cells in frame.groupby(["architecture", "method"], sort=False):
        mri = cells[cells["metric"] == "mRI"]
        ri = cells[cells["metric"] == "RI"]
        assert len(mri) == 1 and (mri["finetune_dataset"] == "").all()
        expected = FT_DATASETS
        if (artefact, architecture, method) == ("table22", "ResNet-50", "FT"):
            expected = FT_DATASETS[:7]  # the printed row has one number too few: ImageNet-C RI absent (README)
        assert list(ri["finetune_dataset"]) == expected
        if len(ri) == 8:  # mRI is the mean of the eight RIs, to the rounding of nine printed numbers
            assert ri["value"].mean() == pytest.approx(mri["value"].iloc[0], abs=0.1 + 1e-9)
    for architecture, cells in frame.groupby("architecture", sort=False):
        methods = RESNET_METHODS if architecture.startswith("ResNet") else METHODS
        assert list(cells["method"].drop_duplicates()) == methods


def test_table25_body_is_not_in_the_text():
    with pytest.raises(FileNotFoundError):
        load(PAPER, "table25")


def test_table29_is_an_index_of_supplementary_tables():
    frame = load(PAPER, "table29", numeric=False)
    assert len(frame) == 34
    assert frame.groupby(["architecture", "pretraining"], sort=False).ngroups == 17
    cell = frame.set_index(["architecture", "pretraining", "column"])["printed"]
    assert cell[("ViT-B/16", "IN-1K + AugReg", "Accuracy on OOD datasets")] == "Table 30 (Table S1)"
    assert cell[("ViT-B/16", "IN-1K + AugReg", "Accuracy on ImageNet-C")] == "Table 31 (Table S2)"
    assert cell[("ViT-B/16", "IN-1K + SAM", "Accuracy on OOD datasets")] == "Table S2"
    assert cell[("ResNet-50", "IN-1K", "Accuracy on ImageNet-C")] == "Table S35"


def test_table30_dashes_are_exactly_the_diagonal():
    frame = load(PAPER, "table30")
    fine_tuned = frame[frame["method"] != "Pretrained"]
    assert list(fine_tuned["method"].drop_duplicates()) == METHODS
    assert list(frame["eval_dataset"].drop_duplicates()) == EVAL_DATASETS
    dashes = fine_tuned["printed"] == "-"
    assert (fine_tuned.loc[dashes, "eval_dataset"] == fine_tuned.loc[dashes, "finetune_dataset"]).all()
    assert dashes.sum() == len(METHODS) * len(FT_DATASETS)


def test_table31_average_is_table30_imagenet_c():
    t30 = load(PAPER, "table30")
    t31 = load(PAPER, "table31")
    assert t31["corruption"].nunique() == 16
    assert set(t31["finetune_dataset"]) == {"", *FT_DATASETS[:7]}
    avg = t31[t31["corruption"] == "Avg"].set_index(["method", "finetune_dataset"])["printed"]
    imagenet_c = t30[t30["eval_dataset"] == "ImageNet-C"].set_index(["method", "finetune_dataset"])["printed"]
    assert avg.to_dict() == imagenet_c[imagenet_c != "-"].to_dict()
    corruptions = t31[t31["corruption"] != "Avg"].groupby(["method", "finetune_dataset"])["value"].mean()
    averages = t31[t31["corruption"] == "Avg"].set_index(["method", "finetune_dataset"])["value"]
    assert (corruptions - averages).abs().max() <= 0.5  # 15 integers, each rounded to 0.5


@pytest.mark.parametrize(
    "artefact, where, printed",
    [
        ("table19", {"printed_block": "1", "method": "FT", "finetune_dataset": "ImageNet-V2"}, "96.3"),
        ("table19", {"printed_block": "7", "method": "MS:PRE-FT-EWC-LwF", "finetune_dataset": "ImageNet-C"}, "94.3"),
        ("table19", {"printed_block": "2", "method": "FT", "finetune_dataset": "ImageNet-V2"}, "77.9"),
        ("table20", {"architecture": "ViT-L/16", "method": "MS:PRE-FT-EWC-LwF", "finetune_dataset": "ImageNet-C"},
         "97.1"),
        ("table21", {"architecture": "ResNet-50", "method": "MS:PRE-FT-EWC-LwF", "finetune_dataset": "ImageNet-C"},
         "84.8"),
        ("table22", {"architecture": "ViT-B/16", "method": "LwF", "metric": "RI", "finetune_dataset": "ImageNet-A"},
         "-0.0"),
        ("table22", {"architecture": "ResNet-50", "method": "FT", "metric": "mRI"}, "-5.2"),
        ("table22", {"architecture": "ResNet-50", "method": "FT", "metric": "RI",
                     "finetune_dataset": "ImageNet-Drawing"}, "-22.4"),
        ("table23", {"architecture": "ViT-B/32", "method": "Visual Prompt", "metric": "RI",
                     "finetune_dataset": "ImageNet-A"}, "-17.1"),
        ("table26", {"method": "WiSE-FT", "metric": "mRI"}, "3.0"),
        ("table27", {"architecture": "ViT-B/16", "method": "FT", "metric": "mRI"}, "-38.1"),
        ("table28", {"architecture": "ViT-B/32", "method": "MS:PRE-FT-EWC-LwF", "metric": "RI",
                     "finetune_dataset": "ImageNet-C"}, "0.5"),
        ("table30", {"method": "Pretrained", "eval_dataset": "ObjectNet"}, "25.7"),
        ("table30", {"method": "FT", "finetune_dataset": "ImageNet-C", "eval_dataset": "ImageNet-1K"}, "99.8"),
        ("table31", {"method": "Pretrained", "corruption": "gaussian_noise"}, "57"),
        ("table31", {"method": "MS:PRE-FT-EWC-LwF", "finetune_dataset": "ImageNet-Drawing",
                     "corruption": "jpeg_compression"}, "67"),
    ],
)
def test_spot_checked_cells_equal_the_printed_text(artefact, where, printed):
    frame = load(PAPER, artefact)
    for column, label in where.items():
        frame = frame[frame[column] == label]
    assert list(frame["printed"]) == [printed]


def test_negative_zero_is_kept_as_printed():
    frame = load(PAPER, "table22")
    zeros = frame[frame["printed"] == "-0.0"]
    assert len(zeros) > 0 and all(math.copysign(1, v) == -1 for v in zeros["value"])
