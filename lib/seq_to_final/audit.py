"""Audit rows for seq_to_final: every number the paper derives, re-derived from what it is derived from.

* Tables 8-14: every Mean and Std dev cell from its rows (`summaries`; the note names the readings of
  rows and standard deviation that reproduce it).
* Table 2: every cell against the Mean row of its appendix table.
* Bold/italic sets by the captions' rules (`formatting`): `not_checkable`, the text lost the formatting.
* Tables 3 and 4: their sums and the sizes the text quotes; Table 15's replication rows; Table 7
  against Appendix C's description and our 12 architecture builders (`parameter_audits`, the only
  rows that import torch); counts and quoted numbers of the text.

Rows marked "boolean" compare a statement of the text (printed 1) with whether the tables bear it
out (1 or 0).
"""

from __future__ import annotations

import pandas as pd

from ..audit import AuditRow, check, not_checkable
from . import formatting, summaries
from .tables import (
    ACCURACY_TABLES,
    ARCHITECTURES,
    METHOD_CLASS,
    PAPER,
    SEQUENCE_TABLES,
    accuracies,
    methods_table,
    model_sizes,
    portraits_sizes,
    printed_summary,
    sample_sizes,
    shift_metrics,
    table02,
    table15,
)

LOST = "formatting lost in the text"
BOOLEAN = "boolean row: printed 1 = the text's statement"


def summary_audits(artefact: str) -> list[AuditRow]:
    """Every Mean and Std dev cell of one of Tables 8-14 from its rows, under the official reading."""
    frame = summaries.recomputed(artefact)
    found = summaries.reproducing(frame).set_index(["method", "statistic"])
    rows = []
    for r in summaries.primary(frame).itertuples():
        reading = r.rows + (f", {r.std} std" if r.std else "")
        how = found.loc[(r.method, r.statistic), "readings"]
        note = (f"official reading: {reading}, n = {r.n}. All readings (= rounds to the printed text, "
                f"✓ within ±{summaries.TOLERANCE}, ✗ outside): {how}")
        rows.append(check(PAPER, artefact, f"{r.statistic} of {r.method}", r.printed, r.value,
                          tolerance=summaries.TOLERANCE, note=note))
    return rows


def _primary_means(artefact: str) -> pd.Series:
    """The Mean cells of one accuracy table recomputed under the official reading, by method."""
    frame = summaries.primary(summaries.recomputed(artefact))
    return frame[frame["statistic"] == "Mean"].set_index("method")["value"]


def table02_audits() -> list[AuditRow]:
    """Each Table 2 cell equals the Mean row printed in its appendix table (Tables 8-13)."""
    rows = []
    by_sequence = {sequence: artefact for artefact, sequence in SEQUENCE_TABLES.items()}
    for r in table02().itertuples():
        artefact = by_sequence[r.sequence]
        means = printed_summary(artefact, "Mean")
        quantity = f"{r.sequence}: {r.method} equals {artefact}'s Mean"
        if r.method not in means.index:
            rows.append(not_checkable(PAPER, "table02", quantity, r.printed,
                                      f"{artefact} prints no {r.method} column (Table 2 prints {r.printed!r})"))
            continue
        from_rows = _primary_means(artefact)[r.method]
        rows.append(check(PAPER, "table02", quantity, r.printed, float(means[r.method].replace("—", "nan")),
                          tolerance=1e-9, note=f"{artefact} prints {means[r.method]}; its rows give {from_rows:.4f}"))
    return rows


def _names(methods: list[str]) -> str:
    return ", ".join(methods) or "none"


def formatting_audits() -> list[AuditRow]:
    """The bold and italic sets by the captions' rules, shown as not_checkable rows."""
    rows = [
        not_checkable(PAPER, "table02", f"{r.sequence}: bold / italic means", LOST,
                      f"bold: {_names(r.bold)}; italic: {_names(r.italic)} (caption: within .02 of the best / oracle)")
        for r in formatting.table02_sets().itertuples()
    ]
    for artefact in ACCURACY_TABLES:
        means = formatting.mean_sets(artefact)
        rows.append(not_checkable(
            PAPER, artefact, "Mean row: bold / italic methods", LOST,
            f"bold: {_names(list(means.loc[means['bold'], 'method']))}; "
            f"italic: {_names(list(means.loc[means['italic'], 'method']))} "
            "(appendix rule: mean(d) − std(d) < 0, d = best − acc or oracle − acc, population std)"))
        for r in formatting.cell_sets(artefact).itertuples():
            rows.append(not_checkable(PAPER, artefact, f"{r.row}: bold / italic cells", LOST,
                                      f"bold: {_names(r.bold)}; italic: {_names(r.italic)}"))
    return rows


# Sec. 2.3: the four-step sequences have 6k, 4k, 6k, 4k samples; App. A: 4k at the final step, 16k before.
FOUR_STEP_SIZES = (6, 4, 6, 4)


def table03_audits() -> list[AuditRow]:
    """Table 3: each sequence has n steps, 4k at the final step and 16k before it (caption, Sec. 2.3)."""
    rows = []
    for n, block in sample_sizes().groupby("n_steps"):
        sizes = block.sort_values("step")["thousands"].tolist()
        rows += [
            check(PAPER, "table03", f"{n} steps: number of printed sizes", str(n), float(len(sizes)), tolerance=0),
            check(PAPER, "table03", f"{n} steps: final-step size (caption: 4k)", "4", sizes[-1], tolerance=0),
            check(PAPER, "table03", f"{n} steps: sum before the final step (caption: 16k)", "16", sum(sizes[:-1]),
                  tolerance=0),
        ]
    four = sample_sizes().query("n_steps == 4").sort_values("step")["thousands"].tolist()
    rows.append(check(PAPER, "table03", "4 steps equal Sec. 2.3's 6k/4k/6k/4k sequences (1 = yes)", "1",
                      float(tuple(four) == FOUR_STEP_SIZES), tolerance=0, note=BOOLEAN))
    lengths = sorted(int(r) for r in accuracies("table14").query("kind == 'unit'")["row"].unique())
    rows.append(check(PAPER, "table03", "Table 14 reports the same lengths as Table 3 (1 = yes)", "1",
                      float(lengths == sorted(sample_sizes()["n_steps"].unique())), tolerance=0,
                      note=f"{BOOLEAN}; Table 14 lengths {lengths}"))
    rows.append(check(PAPER, "table03", "Sec. 1: 7 sequences of different lengths", "7",
                      float(sample_sizes()["n_steps"].nunique()), tolerance=0))
    return rows


PORTRAITS_RANGE = (2500, 5500)  # Sec. 2.4: "8 time periods each with 2500 to 5500 samples"


def table04_audits() -> list[AuditRow]:
    """Table 4 against Sec. 2.4: eight decades, 2500-5500 samples each; its total."""
    sizes = portraits_sizes()
    low, high = PORTRAITS_RANGE
    outside = sizes[(sizes < low) | (sizes > high)]
    return [
        check(PAPER, "table04", "Sec. 2.4: 8 time periods", "8", float(len(sizes)), tolerance=0),
        check(PAPER, "table04", "Sec. 2.4: each period has 2500 to 5500 samples (1 = yes)", "1",
              float(outside.empty), tolerance=0,
              note=f"{BOOLEAN}; outside: " + (", ".join(f"{k} {v:.0f}" for k, v in outside.items()) or "none")
              + f"; range {sizes.min():.0f}-{sizes.max():.0f}"),
        not_checkable(PAPER, "table04", "total samples (not printed)", "", f"sum of the 8 periods: {sizes.sum():.0f}"),
    ]


# Sec. B.2 on Table 5: for RCL "there is no difference between W_X^{1,3} and W_X^{2,3} as well as
# between W_{X|Y}^{1,3} and W_{X|Y}^{2,3}".
def table05_audits() -> list[AuditRow]:
    """The equalities Sec. B.2 reads off Table 5; the metrics themselves need the images."""
    frame = shift_metrics("table05")
    rcl = frame[frame["sequence"] == "Rotation, corruption, label"].set_index(["metric", "step"])["value"]
    rows = [
        check(PAPER, "table05", f"RCL: no difference between {m}^(1,3) and {m}^(2,3)", "0",
              rcl[(m, "2")] - rcl[(m, "1")], tolerance=1e-9,
              note=f"Sec. B.2; printed {rcl[(m, '1')]:.2f} (step 1) and {rcl[(m, '2')]:.2f} (step 2)")
        for m in ("W_X", "W_XgivenY")
    ]
    for artefact in ("table05", "table06"):
        rows.append(not_checkable(PAPER, artefact, "every W2 ratio", "",
                                  "needs the CIFAR/Portraits images of each step (our run computes them)"))
    return rows


# Appendix C's words for each architecture's size sequence (channels or dense layers per block).
APPENDIX_C_SIZES = {
    "Conv-1": (512,), "Conv-2": (128, 512), "Conv-3": (128, 256, 512), "Conv-4": (64, 128, 256, 512),
    "Dense-1": (16,), "Dense-2": (6, 16), "Dense-3": (6, 12, 16), "Dense-4": (6, 12, 24, 16),
    "Res-1": (512,), "Res-2": (128, 512), "Res-3": (128, 256, 512), "Res-4": (64, 128, 256, 512),
}


def table07_audits() -> list[AuditRow]:
    """Table 7's size sequences against Appendix C's text (its parameter counts: `parameter_audits`)."""
    frame = model_sizes().set_index("model")
    rows = [check(PAPER, "table07", "Sec. 1 / App. C: 12 architectures", "12", float(len(frame)), tolerance=0)]
    for model in ARCHITECTURES:
        same = frame.loc[model, "sizes"] == APPENDIX_C_SIZES[model]
        rows.append(check(PAPER, "table07", f"{model}: size sequence as App. C describes it (1 = yes)", "1",
                          float(same), tolerance=0, note=f"{BOOLEAN}; printed {frame.loc[model, 'size_sequence']}"))
    return rows


def parameter_audits() -> list[AuditRow]:
    """Table 7's parameter counts from our 12 builders (imports torch: `lib.seq_to_final.architectures`)."""
    from .architectures import parameter_counts

    printed = model_sizes().set_index("model")["n_parameters"]
    rows = []
    for count in parameter_counts():
        model, table7, every = count["model"], count["table7_convention"], count["all_parameters"]
        text = printed[model].removesuffix("M")
        every_ok = round(every / 1e6, 1) == round(float(text), 1)
        rows.append(check(
            PAPER, "table07", f"{model}: parameters in millions (conv/linear weights and biases)", text, table7 / 1e6,
            note=f"printed {printed[model]}; {table7:,} without BatchNorm and ResNet downsample convs (official "
                 f"get_param_vec); every parameter: {every:,} = {every / 1e6:.2f}M, which "
                 + ("also rounds to the printed value" if every_ok else "would not round to the printed value")))
    return rows


TEST_IMAGES = 5000  # the final-step test set of the synthetic sequences (Sec. 2.3)
REPLICATION_TOLERANCE = 0.005  # rows that agree once rounded like Tables 8-14 (two decimals)


def table15_audits() -> list[AuditRow]:
    """Table 15: each frozen-joint row i + 4 replicates fine-tuning row i (caption); rows 0 and 1 are the
    RCL Res-4 baseline and FT of Table 9."""
    frame = table15().set_index("i")
    rows = []
    for i in range(4):
        a, b = frame.loc[i], frame.loc[i + 4]
        images = round((b["value"] - a["value"]) * TEST_IMAGES)
        rows.append(check(PAPER, "table15", f"row {i + 4} ({b['method']}) replicates row {i} ({a['method']})",
                          a["printed"], b["value"], tolerance=REPLICATION_TOLERANCE,
                          note=f"{images:+d} of {TEST_IMAGES} test images; tolerance: equal at two decimals "
                               "(±0.005), the precision of Tables 8-14"))
    res4 = accuracies("table09").query("row == 'Res-4'").set_index("method")
    for i, method in ((0, "Baseline"), (1, "FT")):
        rows.append(check(PAPER, "table15", f"Table 9 Res-4 {method} equals row {i} ({frame.loc[i, 'method']})",
                          res4.loc[method, "printed"], frame.loc[i, "value"],
                          note="same sequence (RCL) and architecture (Res-4); "
                               f"Table 15 prints {frame.loc[i, 'printed']}"))
    return rows


# Appendix A.2: ~5,000 training samples per step out of CIFAR-10's 50,000 (drawn independently per step).
CIFAR10_TRAIN = 50_000
SAMPLES_PER_STEP = 5_000


def text_audits() -> list[AuditRow]:
    """Counts and quoted numbers of the text against Tables 1-2 and their own arithmetic."""
    methods = methods_table()
    t2 = table02()
    p = SAMPLES_PER_STEP / CIFAR10_TRAIN
    class_of_panel = t2.groupby("panel")["method"].apply(lambda m: sorted({METHOD_CLASS[x] for x in m}))
    table1_class = dict(zip(methods["method"], methods["class"]))
    agree = all(str(table1_class[m]).lower() == METHOD_CLASS[m] for m in methods["method"])
    return [
        check(PAPER, "table01", "Sec. 1: 16 methods (Table 1 rows besides oracle and baseline)", "16",
              float((~methods["class"].isin(["Oracle", "Baseline"])).sum()), tolerance=0),
        check(PAPER, "table01", "Sec. 3: 3 classes of methods", "3",
              float(methods.loc[~methods["class"].isin(["Oracle", "Baseline"]), "class"].nunique()), tolerance=0),
        check(PAPER, "table01", "Table 1's class of each method is the class lib uses for Table 2 (1 = yes)", "1",
              float(agree), tolerance=0, note=BOOLEAN),
        check(PAPER, "table02", "Table 2 panels hold oracle + baseline + class 1, class 2, class 3 (1 = yes)", "1",
              float(class_of_panel.tolist() == [["1", "baseline", "oracle"], ["2"], ["3"]]), tolerance=0,
              note=f"{BOOLEAN}; panels: {dict(class_of_panel)}"),
        check(PAPER, "table02", "Sec. 2.3: 5 four-step synthetic sequences", "5",
              float(t2.loc[t2["sequence"] != "Portraits", "sequence"].nunique()), tolerance=0),
        check(PAPER, "table02", "Sec. 2.2: 6 building blocks (C, R, T, L, r, s)", "6", float(len("CRTLrs")),
              tolerance=0,
              note="the six blocks Sec. 2.2 names; the sequences use all six"),
        check(PAPER, "table03", "App. A.2: each sample is drawn with probability .1 at each step", ".1", p,
              note="~5,000 training samples per step out of 50,000"),
        check(PAPER, "table03", "App. A.2: a sample is drawn at both of two steps with probability .01", ".01", p * p),
        check(PAPER, "table03", "App. A.2: two steps share 500 images in expectation", "500", p * p * CIFAR10_TRAIN),
    ]


def printed_number_audits() -> list[AuditRow]:
    """Every audit row that needs only the printed numbers (no torch)."""
    rows = []
    for artefact in ACCURACY_TABLES:
        rows += summary_audits(artefact)
    return (rows + table02_audits() + formatting_audits() + table03_audits() + table04_audits()
            + table05_audits() + table07_audits() + table15_audits() + text_audits())


def audits() -> list[AuditRow]:
    """All audit rows of the paper, Table 7's parameter counts from our builders included."""
    return printed_number_audits() + parameter_audits()
