"""Audit rows for imagenet_rib: every number the paper derives, re-derived from the numbers it prints.

Inputs of the re-derivations:

- RI (Eq. 1) of ViT-B/16 IN-1K + AugReg (Tables 2 and 22): fine-tuned accuracies from Table 30,
  pretrained accuracies from Table 17 (ObjectNet 33.0). Table 30's own `Pretrained` row prints
  ObjectNet 25.7 (as does Table 1); a count row says how many RIs that baseline reproduces.
- mRI: the mean of the eight printed RIs of its row (Tables 2, 22-28).
- Backward transfer (Table 18, ViT-B/16 IN-1K + AugReg only): Table 30's ImageNet-1K column minus
  Table 17's 79.2, averaged over the eight fine-tuning sets.
- Averages: Table 9 and Table 12 `Avg OOD` from their eight OOD columns; Table 31's `Avg` from its 15
  corruptions; Table 30's ImageNet-C column is Table 31's `Avg`.
- Numbers printed twice (Tables 1/17, 2/22, 3/22-28, 4/9, 5/8, 12/9, 14/3, 16/3/23/26, 30/17, 30/31)
  and numbers quoted in the prose.

Tolerances: half a unit of the printed number, plus the rounding its inputs carry, as each note says:
a mean of one-decimal numbers carries 0.05, a difference of two one-decimal numbers 0.1, a mean of
integers 0.5. Numbers printed twice must be equal. Rows marked "boolean" compare a statement of the
text (printed 1) with whether the tables bear it out (1 or 0). Numbers computed from accuracies the
text does not print (the supplementary Tables S1-S35, OTDD distances, eRI baselines, seed runs) get
one `not_checkable` row per printed block, saying what is missing.
"""

from __future__ import annotations

import math

import pandas as pd

from ..audit import AuditRow, check, not_checkable, rounding_tolerance
from ..published import load as load_published
from .tables import (
    AVG_OOD,
    IMAGENET,
    PAPER,
    RI_TABLES,
    SUITE,
    average_ood,
    backward_transfer_table30,
    is_printed,
    load_table,
    model_label,
    mri_from_printed_ris,
    pretrained_baseline,
    recompute_ri,
    select,
    table31_corruption_means,
)

ONE_DECIMAL = 0.05          # rounding of a number printed with one decimal
MEAN_OF_ONE_DECIMAL = 0.05  # largest error of a mean of one-decimal numbers from their rounding
DIFF_OF_ONE_DECIMAL = 0.1   # largest error of a difference of two one-decimal numbers
MEAN_OF_INTEGERS = 0.5      # largest error of a mean of integers
EXACT = 1e-9

TOL_RI = ONE_DECIMAL + DIFF_OF_ONE_DECIMAL
TOL_MEAN = ONE_DECIMAL + MEAN_OF_ONE_DECIMAL
TOL_DIFF = ONE_DECIMAL + DIFF_OF_ONE_DECIMAL
NOTE_RI = "tolerance 0.15 = 0.05 (printed RI) + 0.1 (each term is a difference of two one-decimal accuracies)"
NOTE_MEAN = "tolerance 0.1 = 0.05 (printed value) + 0.05 (rounding of its one-decimal inputs)"
NOTE_DIFF = "tolerance 0.15 = 0.05 (printed value) + 0.1 (difference of two one-decimal numbers)"
NOTE_REPEAT = "the same number printed in two tables must be equal"
NOTE_BOOLEAN = "boolean row: printed 1 = the text's statement, recomputed 1 if the tables bear it out"

SUPPLEMENT_NOTE = "the per-dataset accuracies behind it are in the supplementary Tables S1-S35, not in the text"


def _f(x: float, digits: int = 2) -> str:
    return f"{x:.{digits}f}"


def _cell(artefact: str, **labels: str) -> pd.Series:
    rows = select(load_table(artefact), **labels)
    if len(rows) != 1:
        raise KeyError(f"{artefact}: {len(rows)} rows match {labels}")
    return rows.iloc[0]


def _repeat(artefact: str, quantity: str, printed: str, other_value: float, note: str = NOTE_REPEAT) -> AuditRow:
    return check(PAPER, artefact, quantity, printed, other_value, tolerance=EXACT, note=note)


def _boolean(artefact: str, quantity: str, holds: bool, note: str, what: str = NOTE_BOOLEAN) -> AuditRow:
    return check(PAPER, artefact, quantity, "1", float(holds), tolerance=0, note=f"{note}; {what}")


# ---------------------------------------------------------------------------------------------
# Eq. 1: RI and mRI of ViT-B/16 IN-1K + AugReg from Table 30's accuracies.

def ri_audits() -> list[AuditRow]:
    """Table 2: each RI and mRI recomputed by Eq. 1 from Table 30 (fine-tuned) and Table 17 (pretrained)."""
    table02 = load_table("table02")
    table30 = load_table("table30")
    base17 = pretrained_baseline("table17")
    base30 = pretrained_baseline("table30")
    ours = recompute_ri(table30, base17)
    with_30 = recompute_ri(table30, base30)
    rows, reproduced_with_30 = [], 0
    for r in ours.itertuples():
        printed_cell = select(table02, method=r.method, metric=r.metric, finetune_dataset=r.finetune_dataset).iloc[0]
        alt = with_30[(with_30["method"] == r.method) & (with_30["metric"] == r.metric)
                      & (with_30["finetune_dataset"] == r.finetune_dataset)]["recomputed"].item()
        what = f"RI after {r.method} on {r.finetune_dataset}" if r.metric == "RI" else f"mRI of {r.method} (from accuracies)"
        note = (f"Eq. 1 from Table 30 (fine-tuned) minus Table 17 (pretrained, ObjectNet 33.0); "
                f"with Table 30's printed Pretrained row (ObjectNet 25.7) it would be {_f(alt, 3)}; {NOTE_RI}")
        rows.append(check(PAPER, "table02", what, printed_cell["printed"], r.recomputed, tolerance=TOL_RI, note=note))
        if r.metric == "RI":
            reproduced_with_30 += abs(alt - printed_cell["value"]) <= TOL_RI
    n_ri = int((ours["metric"] == "RI").sum())
    rows.append(check(
        PAPER, "table02", "RIs reproduced by Eq. 1 with Table 30's own Pretrained row (ObjectNet 25.7)",
        str(n_ri), float(reproduced_with_30), tolerance=0,
        note=(f"count row: {reproduced_with_30} of {n_ri} RIs within {TOL_RI:.2f} when the baseline is Table 30's "
              "Pretrained row; only the RIs after fine-tuning on ObjectNet (whose mean skips ObjectNet) survive. "
              "The printed RIs need Table 17's ObjectNet 33.0, so Table 30's (and Table 1's) 25.7 is not the "
              "baseline the paper used"),
    ))
    return rows


def mri_audits() -> list[AuditRow]:
    """Every printed mRI of Tables 2 and 22-28 against the mean of the eight RIs printed beside it."""
    artefacts = ["table02", *[t for t in RI_TABLES if is_printed(t)]]
    frame = pd.concat([load_table(a) for a in artefacts], ignore_index=True)
    rows = []
    for r in mri_from_printed_ris(frame).itertuples():
        what = f"mRI of {model_label(r.architecture, r.pretraining)}, {r.method} (mean of its RIs)"
        if r.n_ri != len(SUITE):
            implied = len(SUITE) * float(r.printed) - r.mean_ri * r.n_ri
            rows.append(not_checkable(
                PAPER, r.artefact, what, r.printed,
                f"only {r.n_ri} of {len(SUITE)} RIs are printed (missing: {r.missing}; the row is garbled in the "
                f"text); the {r.n_ri} printed RIs average {_f(r.mean_ri, 3)}; if the printed mRI is the mean of "
                f"eight, the missing RI is {_f(implied, 1)} (range ±0.4 from rounding)"))
            continue
        rows.append(check(PAPER, r.artefact, what, r.printed, r.mean_ri, tolerance=TOL_MEAN, note=NOTE_MEAN))
    return rows


def ri_block_audits() -> list[AuditRow]:
    """RIs of every model other than ViT-B/16 IN-1K + AugReg: their accuracies are not printed."""
    rows = []
    for artefact in RI_TABLES:
        if not is_printed(artefact):
            rows.append(not_checkable(
                PAPER, artefact, "RI and mRI of ImageNet-21K + AugReg models", "",
                "the table's body is not in the text (caption only); its mRIs survive in Table 3 "
                "(IN-21K + AugReg columns) and Table 16 (WiSE-FT), which are checked there"))
            continue
        frame = load_table(artefact)
        for (arch, pre), block in frame.groupby(["architecture", "pretraining"], sort=False):
            if (artefact, arch, pre) == ("table22", "ViT-B/16", "IN-1K + AugReg"):
                continue  # re-derived from Table 30 under table02, and equal to it (checked below)
            n = int((block["metric"] == "RI").sum())
            rows.append(not_checkable(PAPER, artefact, f"the {n} RIs of {model_label(arch, pre)}", f"{n} cells",
                                      f"Eq. 1 needs per-dataset accuracies after fine-tuning; {SUPPLEMENT_NOTE}"))
    return rows


# ---------------------------------------------------------------------------------------------
# Numbers printed in two places.

def table02_vs_table22() -> list[AuditRow]:
    """Table 2 is Table 22's ViT-B/16 block."""
    t22 = select(load_table("table22"), architecture="ViT-B/16")
    rows = []
    for r in load_table("table02").itertuples():
        other = select(t22, method=r.method, metric=r.metric, finetune_dataset=r.finetune_dataset)["value"].item()
        what = f"{r.metric} of {r.method}" + (f" on {r.finetune_dataset}" if r.finetune_dataset else "") + " equals Table 22"
        rows.append(_repeat("table02", what, r.printed, other))
    return rows


# Table 3 column -> the RI table that prints the same mRIs.
_TABLE3_SOURCES = {
    "IN-1K + AugReg": "table22", "IN-1K": "table22", "IN-21K": "table24", "IN-21K + AugReg": "table25",
    "OpenAI": "table28", "LAION-2B": "table27",
}


def table03_audits() -> list[AuditRow]:
    """Table 3's mRIs against the RI tables that print them again (Table 25's body is missing)."""
    t03 = load_table("table03")
    rows = []
    for (arch, pre), block in t03.groupby(["architecture", "pretraining"], sort=False):
        source = _TABLE3_SOURCES[pre]
        label = model_label(arch, pre)
        if not is_printed(source):
            rows.append(not_checkable(PAPER, "table03", f"the 9 mRIs of {label}", "9 cells",
                                      f"{source} would print them again, but its body is not in the text; "
                                      f"{SUPPLEMENT_NOTE}"))
            continue
        other = select(load_table(source), architecture=arch, pretraining=pre, metric="mRI")
        for r in block.itertuples():
            match = other[other["method"] == r.method]
            if r.printed == "-" and match.empty:
                continue  # LoRA is not run on ResNets: a dash in both tables
            rows.append(_repeat("table03", f"mRI of {label}, {r.method} equals {source}", r.printed,
                                match["value"].item() if len(match) else math.nan))
    ft_b16 = select(t03, architecture="ViT-B/16", pretraining="IN-21K + AugReg", method="FT").iloc[0]
    rows.append(_repeat("table03", "App. I.1 quotes the ViT-B/16 IN-21K + AugReg FT baseline mRI as -5.5",
                        "-5.5", ft_b16["value"], note=f"Table 3 prints {ft_b16['printed']}"))
    return rows


def table01_audits() -> list[AuditRow]:
    """Table 1 reprints Table 17's ViT-B/16 rows."""
    t17 = load_table("table17")
    rows = []
    for r in load_table("table01").itertuples():
        other = select(t17, architecture=r.architecture, pretraining=r.pretraining, eval_dataset=r.eval_dataset)
        value = other["value"].item()
        note = NOTE_REPEAT
        if r.eval_dataset == "ObjectNet" and abs(value - r.value) > EXACT:
            note += (f"; Table 17 prints {other['printed'].item()}. Table 6's differences and Table 2's RIs "
                     "reproduce Table 17's value, so Table 1's ObjectNet column is the odd one")
        rows.append(_repeat("table01", f"{r.pretraining} on {r.eval_dataset} equals Table 17", r.printed, value, note))
    return rows


def table30_audits() -> list[AuditRow]:
    """Table 30's Pretrained row is Table 17's; its ImageNet-C column is Table 31's average."""
    t30 = load_table("table30")
    t17 = load_table("table17")
    t31 = load_table("table31")
    rows = []
    for r in select(t30, method="Pretrained").itertuples():
        other = select(t17, architecture="ViT-B/16", pretraining="IN-1K + AugReg", eval_dataset=r.eval_dataset)
        note = NOTE_REPEAT
        if abs(other["value"].item() - r.value) > EXACT:
            note += (f"; Table 17 prints {other['printed'].item()}; the RIs of Table 2 need Table 17's value "
                     "(see the table02 count row)")
        rows.append(_repeat("table30", f"Pretrained accuracy on {r.eval_dataset} equals Table 17", r.printed,
                            other["value"].item(), note))
    averages = select(t31, setting="mean over corruptions")
    for r in t30[t30["eval_dataset"] == "ImageNet-C"].itertuples():
        if r.printed == "-":
            continue  # fine-tuned on ImageNet-C itself
        other = select(averages, method=r.method, finetune_dataset=r.finetune_dataset)
        what = f"ImageNet-C accuracy of {r.method}" + (f" after {r.finetune_dataset}" if r.finetune_dataset else "")
        rows.append(_repeat("table30", f"{what} equals Table 31's Avg", r.printed, other["value"].item()))
    return rows


def table31_audits() -> list[AuditRow]:
    """Table 31's `Avg` column is the mean of its 15 corruptions (printed as integers)."""
    rows = []
    for r in table31_corruption_means(load_table("table31")).itertuples():
        what = f"ImageNet-C mean over 15 corruptions, {r.method}" + (f" after {r.finetune_dataset}" if r.finetune_dataset else "")
        rows.append(check(PAPER, "table31", what, r.printed, r.mean, tolerance=ONE_DECIMAL + MEAN_OF_INTEGERS,
                          note="tolerance 0.55 = 0.05 (printed Avg) + 0.5 (the 15 inputs are printed as integers)"))
    return rows


def average_audits() -> list[AuditRow]:
    """Table 9's and Table 12's `Avg OOD` against the mean of their eight OOD columns."""
    rows = []
    for artefact in ("table09", "table12"):
        for r in average_ood(load_table(artefact)).itertuples():
            stage = "" if r.method == "Pretrained" else f" after {r.method} on {r.finetune_dataset}"
            note = NOTE_MEAN
            if abs(r.mean - float(r.printed)) > rounding_tolerance(r.printed):
                note += (f"; the eight printed inputs average {_f(r.mean, 4)}, outside the printed value's own "
                         "rounding: consistent only once the inputs' rounding is allowed for")
            rows.append(check(PAPER, artefact, f"Avg OOD of {model_label(r.architecture, r.pretraining)}{stage}",
                              r.printed, r.mean, tolerance=TOL_MEAN, note=note))
    return rows


def zero_shot_audits() -> list[AuditRow]:
    """Tables 4, 5, 9, 12 and 8 (CLIP with a zero-shot head) against each other, and the prose of App. C."""
    t04, t08, t09, t12 = (load_table(a) for a in ("table04", "table08", "table09", "table12"))
    rows = []
    for r in select(t04, method="Pretrained").itertuples():
        other = select(t09, architecture=r.architecture, pretraining=r.pretraining, eval_dataset=AVG_OOD)
        rows.append(_repeat("table04", f"{r.pretraining} before fine-tuning equals Table 9's Avg OOD", r.printed,
                            other["value"].item()))
    for r in select(t04, method="FT").itertuples():
        before = select(t04, pretraining=r.pretraining, method="Pretrained")["value"].item()
        mri = select(t08, architecture=r.architecture, pretraining=r.pretraining, method="FT").iloc[0]
        note = (f"Fig. 8's identity (after - before = mRI) applied to Table 4: {r.printed} - {_f(before, 1)} = "
                f"{_f(r.value - before, 1)}; {NOTE_DIFF}")
        if abs(r.value - before - mri["value"]) > TOL_DIFF:
            note += ("; Table 8 prints -31.2 for OpenAI and -32.5 for LAION-400M, Table 4 gives -32.5 and -31.2: "
                     "the two values are swapped between the tables, and the text cannot tell which table is wrong")
        rows.append(check(PAPER, "table04", f"ViT-B/16 {r.pretraining}: after - before equals Table 8's FT mRI",
                          mri["printed"], r.value - before, tolerance=TOL_DIFF, note=note))
    after_400m = select(t04, pretraining="LAION-400M", method="FT").iloc[0]
    after_2b = select(t04, pretraining="LAION-2B", method="FT").iloc[0]
    rows.append(_repeat("table04", "App. C quotes LAION-400M after FT as 19.0", "19.0", after_400m["value"]))
    rows.append(_repeat("table04", "App. C quotes LAION-2B after FT as 16.1", "16.1", after_2b["value"]))
    rows.append(check(PAPER, "table04", "App. C: LAION-400M is 2.9 points above LAION-2B after FT", "2.9",
                      after_400m["value"] - after_2b["value"], note="difference of the two quoted numbers"))
    for r in load_table("table05").itertuples():
        other = select(t08, architecture=r.architecture, pretraining=r.pretraining, method=r.method)
        rows.append(_repeat("table05", f"ViT-B/32 {r.pretraining} FT mRI equals Table 8", r.printed, other["value"].item()))
    for r in select(t12, method="Pretrained").itertuples():
        other = select(t09, architecture=r.architecture, pretraining=r.pretraining, eval_dataset=r.eval_dataset)
        note = NOTE_REPEAT
        if abs(other["value"].item() - r.value) > EXACT:
            note += ("; Table 9 prints 60.2 for LAION-400M and 59.6 for OpenAI on ImageNet-1K, Table 12 the other "
                     "way round: a swap; every other pretrained cell of Table 12 equals Table 9")
        rows.append(_repeat("table12", f"ViT-B/32 {r.pretraining} pretrained on {r.eval_dataset} equals Table 9",
                            r.printed, other["value"].item(), note))
    for (arch, pre), _ in t08.groupby(["architecture", "pretraining"], sort=False):
        rows.append(not_checkable(PAPER, "table08", f"the mRIs of {model_label(arch, pre)} (zero-shot head)", "8 cells",
                                  "per-dataset accuracies after fine-tuning the zero-shot models are not printed"))
    return rows


def table06_audits() -> list[AuditRow]:
    """Table 6's parenthesised differences: accuracy after fine-tuning on ImageNet-1K val minus Table 17."""
    t06, t17, t01 = load_table("table06"), load_table("table17"), load_table("table01")
    rows = []
    accuracy = select(t06, metric="accuracy")
    for r in select(t06, metric="difference").itertuples():
        after = select(accuracy, pretraining=r.pretraining, eval_dataset=r.eval_dataset)["value"].item()
        before = select(t17, architecture="ViT-B/16", pretraining=r.pretraining, eval_dataset=r.eval_dataset)["value"].item()
        note = f"Table 6 accuracy {_f(after, 1)} minus Table 17 {_f(before, 1)}; {NOTE_DIFF}"
        t1 = select(t01, pretraining=r.pretraining, eval_dataset=r.eval_dataset)
        if len(t1) and abs(t1["value"].item() - before) > EXACT:
            note += f"; with Table 1's {t1['printed'].item()} it would be {_f(after - t1['value'].item(), 1)}"
        rows.append(check(PAPER, "table06", f"{r.pretraining}: change on {r.eval_dataset}", r.printed, after - before,
                          tolerance=TOL_DIFF, note=note))
    return rows


def table10_audits() -> list[AuditRow]:
    """Table 10's parentheses: train/val-split mRI minus Table 3's mRI (the caption says 'accuracy difference')."""
    t10, t03 = load_table("table10"), load_table("table03")
    rows = []
    for r in select(t10, metric="mRI difference").itertuples():
        split = select(t10, pretraining=r.pretraining, method=r.method, metric="mRI")["value"].item()
        full = select(t03, architecture="ViT-B/16", pretraining=r.pretraining, method=r.method)["value"].item()
        rows.append(check(PAPER, "table10", f"{r.pretraining}, {r.method}: split mRI - Table 3 mRI", r.printed,
                          split - full, tolerance=TOL_DIFF,
                          note=f"{_f(split, 1)} - {_f(full, 1)}; the caption's 'accuracy difference' is an mRI difference; {NOTE_DIFF}"))
    for pre in dict.fromkeys(t10["pretraining"]):
        rows.append(not_checkable(PAPER, "table10", f"split mRIs and best epochs of ViT-B/16 {pre}", "18 cells",
                                  "the train/validation-split runs' accuracies are not printed"))
    return rows


def table11_audits() -> list[AuditRow]:
    """Table 11 (mean eRI): the baselines beta_j and the split accuracies are not printed."""
    return [not_checkable(PAPER, "table11", f"mean eRIs of ViT-B/16 {pre}", "9 cells",
                          "Eq. 2 needs the baseline fits beta_j (how they were fit is not stated) and the per-dataset "
                          "accuracies of the train/validation-split runs; neither is printed")
            for pre in dict.fromkeys(load_table("table11")["pretraining"])]


def table14_15_16_audits() -> list[AuditRow]:
    """Ablations: Table 14's wd=0 and Table 16's alpha=0.5 are Table 3's (or 23/26's) runs again."""
    t03, t14, t15, t16 = (load_table(a) for a in ("table03", "table14", "table15", "table16"))
    rows = []
    wd0 = select(t14, setting="weight decay 0").iloc[0]
    rows.append(_repeat("table14", "weight decay 0 equals Table 3's ViT-B/16 LAION-2B FT", wd0["printed"],
                        select(t03, architecture="ViT-B/16", pretraining="LAION-2B", method="FT")["value"].item(),
                        note=f"{NOTE_REPEAT}; the default run uses no weight decay"))
    rows.append(not_checkable(PAPER, "table14", "mRIs at the six non-zero weight decays", "6 cells",
                              "those runs' accuracies are not printed"))
    for pre in dict.fromkeys(t15["pretraining"]):
        rows.append(not_checkable(PAPER, "table15", f"3-seed mean and standard error of ViT-B/16 {pre}", "14 cells",
                                  "the three runs are not printed; the means differ from Table 3's single run by "
                                  "up to 0.4, which is not an identity"))
    sources = {"IN-1K + SAM": "table23", "IN-21K-P": "table26"}
    for pre in dict.fromkeys(t16["pretraining"]):
        half = select(t16, pretraining=pre, setting="alpha = 0.5").iloc[0]
        best = select(t16, pretraining=pre, metric="mRI", setting="best alpha").iloc[0]
        alpha = select(t16, pretraining=pre, metric="best alpha").iloc[0]
        source = sources.get(pre, "table03")
        ref = select(load_table(source), architecture="ViT-B/16", pretraining=pre, method="WiSE-FT")
        if source != "table03":
            ref = ref[ref["metric"] == "mRI"]
        rows.append(_repeat("table16", f"{pre}: WiSE-FT mRI at alpha 0.5 equals {source}", half["printed"], ref["value"].item()))
        rows.append(check(PAPER, "table16", f"{pre}: best-alpha mRI is at least the alpha-0.5 mRI",
                          best["printed"], max(best["value"], half["value"]), tolerance=EXACT,
                          note="0.5 is on the 0.1-0.9 grid, so the best ratio cannot do worse; recomputed = "
                               "max(best, alpha-0.5 value)"))
        if alpha["value"] == 0.5:
            rows.append(_repeat("table16", f"{pre}: best alpha is 0.5, so best-alpha mRI equals the alpha-0.5 mRI",
                                best["printed"], half["value"]))
    return rows


def table07_audits() -> list[AuditRow]:
    """Table 7: Pearson r between ImageNet-1K accuracy after fine-tuning and OTDD; the distances are not printed."""
    return [not_checkable(PAPER, "table07", f"Pearson r of the 9 methods, {pre}", "9 cells",
                          "needs the OTDD between ImageNet-1K and each fine-tuning set (Fig. 10/11, not printed) and the "
                          "post-fine-tuning ImageNet-1K accuracies (printed in Table 30 for IN-1K + AugReg only)")
            for pre in dict.fromkeys(load_table("table07")["pretraining"])]


def table17_audits() -> list[AuditRow]:
    """Table 17 lists the pretrained models; Table 18 (same order) lists one more ViT-B/32."""
    t17, t18, t03 = load_table("table17"), load_table("table18"), load_table("table03")
    b32_17 = list(dict.fromkeys(select(t17, architecture="ViT-B/32")["pretraining"]))
    b32_18 = list(dict.fromkeys(select(t18, architecture="ViT-B/32")["pretraining"]))
    missing = [p for p in b32_18 if p not in b32_17]
    in_table3 = [p for p in missing if len(select(t03, architecture="ViT-B/32", pretraining=p))]
    return [check(PAPER, "table17", "number of ViT-B/32 pretrained models (Table 18 prints 5)", "5",
                  float(len(b32_17)), tolerance=0,
                  note=(f"count row: Table 17 lists {', '.join(b32_17)}; Table 18 also has {', '.join(missing)}"
                        + (f", which Table 3 uses too, so Fig. 8's before bar for ViT-B/32 {', '.join(in_table3)} "
                           "cannot be drawn from the text" if in_table3 else "")))]


def backward_transfer_audits() -> list[AuditRow]:
    """Table 18: the ViT-B/16 IN-1K + AugReg column from Table 30; the others need supplementary tables."""
    t18 = load_table("table18")
    base = pretrained_baseline("table17")
    rows = []
    for r in backward_transfer_table30(load_table("table30"), base).itertuples():
        cell = select(t18, architecture="ViT-B/16", pretraining="IN-1K + AugReg", method=r.method).iloc[0]
        rows.append(check(PAPER, "table18", f"backward transfer of ViT-B/16 IN-1K + AugReg, {r.method}", cell["printed"],
                          r.recomputed, tolerance=TOL_DIFF,
                          note=f"mean over 8 D_FT of Table 30's ImageNet-1K accuracy minus {_f(base[IMAGENET], 1)} "
                               f"(Tables 17/30); {NOTE_DIFF}"))
    for (arch, pre), block in t18.groupby(["architecture", "pretraining"], sort=False):
        if (arch, pre) == ("ViT-B/16", "IN-1K + AugReg"):
            continue
        rows.append(not_checkable(PAPER, "table18", f"backward transfers of {model_label(arch, pre)}",
                                  f"{int(block['value'].notna().sum())} cells", SUPPLEMENT_NOTE))
    return rows


def finetune_accuracy_audits() -> list[AuditRow]:
    """App. H.3: 'the average accuracy on fine-tuning datasets for each pretrained ViT-B/16 model achieves
    more than 90% with vanilla fine-tuning' (Table 19's FT rows)."""
    ft = select(load_table("table19"), method="FT")
    means = ft.groupby("pretraining", sort=False)["value"].mean()
    below = means[means <= 90]
    detail = ", ".join(f"{p} {_f(v, 2)}" for p, v in means.items())
    return [_boolean("table19", "H.3: every ViT-B/16 FT row of Table 19 averages more than 90%", below.empty,
                     f"FT averages over the 8 fine-tuning sets (Table 19 block labels as read in "
                     f"lib/published/imagenet_rib/README.md; any block below 90 contradicts the statement): {detail}"
                     + (f"; below 90: {', '.join(below.index)}" if len(below) else ""))]


def table29_audits() -> list[AuditRow]:
    """Table 29 points to supplementary tables; two of its references disagree with each other or the prose."""
    t29 = load_published(PAPER, "table29", numeric=False)
    s2 = t29[t29["printed"].str.contains(r"\bS2\)?$|\(Table S2\)", regex=True)]
    imagenet_c = t29[(t29["column"] == "Accuracy on ImageNet-C") & ~t29["printed"].str.startswith("Table 31")]["printed"]
    numbers = sorted(int(n) for n in imagenet_c.str.extract(r"S(\d+)")[0].dropna())
    return [
        _boolean("table29", "each supplementary table is cited for one model and one kind of accuracy", len(s2) == 1,
                 f"Table S2 is cited {len(s2)} times: " + "; ".join(f"{r.architecture} {r.pretraining} ({r.column})"
                                                                   for r in s2.itertuples()),
                 what="boolean row: printed 1 = what a consistent index needs, recomputed 1 if Table 29 has it"),
        _boolean("table29", "App. J.5's 'Table S18-Table S35' matches the ImageNet-C references",
                 numbers[0] == 18 and numbers[-1] == 35,
                 f"Table 29 cites S{numbers[0]}-S{numbers[-1]} (plus S2 for ViT-B/16 IN-1K + AugReg); S18 and S19 are "
                 "never assigned; 18 tables for 17 models"),
    ]


def audits() -> list[AuditRow]:
    """Every audit row of the paper, grouped by the table a number is printed in."""
    return [
        *ri_audits(),
        *table02_vs_table22(),
        *mri_audits(),
        *ri_block_audits(),
        *table01_audits(),
        *table03_audits(),
        *zero_shot_audits(),
        *table06_audits(),
        *table07_audits(),
        *average_audits(),
        *table10_audits(),
        *table11_audits(),
        *table14_15_16_audits(),
        *table17_audits(),
        *backward_transfer_audits(),
        *finetune_accuracy_audits(),
        *table29_audits(),
        *table30_audits(),
        *table31_audits(),
    ]
