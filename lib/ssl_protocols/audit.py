"""Audit rows for ssl_protocols: each number the text derives or quotes, re-derived from the tables.

Correlations quoted for figures whose inputs are partly unprinted (Fig. 2 right, Fig. 3) are
`not_checkable`; their notes give the estimate from the printed part under every reading and the
95 % interval of the quoted value at n = 26. Rows marked "boolean" compare a statement of the text
(printed 1) with whether the table bears it out (1 or 0).
"""

from __future__ import annotations

import dataclasses

from .. import published
from ..audit import AuditRow, check, not_checkable, rounding_tolerance
from ..metrics.correlation import spearman_confidence_interval
from ..published import parse_number
from .accuracies import published_accuracies
from .figure02 import PAPER_READING, in_domain_matrix, quoted_comparison
from .seed_study import batch_sizes, s2_cell_for, seed_runs
from .survey import EXCLUDED_AS_RARE, citation_checks, protocol_counts, rarest_in_domain
from .shift_groups import (
    PAPER_MODEL_COUNT,
    QUOTED_FIGURE02_RIGHT,
    figure02_right_estimates,
    figure03_estimates,
    shift_groups,
)

PAPER = "ssl_protocols"
RUN_ROUNDING = 0.005  # Table S.7 prints each run to two decimals


def figure02_audits() -> list[AuditRow]:
    """Fig. 2: the quoted in-domain correlations (left) and the ID-vs-OOD averages (right)."""
    matrix = in_domain_matrix(published_accuracies("top1"), PAPER_READING)
    comparison = quoted_comparison(matrix, PAPER_READING.include_diagonal)
    note = f"Table S.2 top-1, 26 models; reading: {PAPER_READING.describe()}"
    rows = [
        check(PAPER, "figure02", f"left: {q}", p, r, note=note)
        for q, p, r in zip(comparison["quantity"], comparison["printed"], comparison["recomputed"])
    ]
    missing = (
        "right panel averages over eleven OOD datasets including iNaturalist family/genus/species, "
        "whose accuracies are not printed in Tables S.2/S.3 (and ImageNet-D only for 10 of 26 models)"
    )
    estimates = figure02_right_estimates("top1")
    for protocol, printed in QUOTED_FIGURE02_RIGHT.items():
        of = estimates[estimates["id_protocol"] == protocol]
        rows.append(not_checkable(
            PAPER, "figure02", f"right: {protocol} as OOD predictor, mean over metrics and datasets", printed,
            f"{missing}; {_estimates_note(of)}; {_interval_note(printed)}",
        ))
    return rows


def table_s7_audits() -> list[AuditRow]:
    """Table S.7: each mean and std from its three runs, and the S.2 cell each experiment repeats."""
    rows = []
    top1 = published_accuracies("top1")
    for _, run in seed_runs().iterrows():
        label = f"{run['protocol']}, {run['dataset']}, {run['method']} {run['backbone']}"
        # The runs are printed to 2 decimals; the mean and the population std move by at most
        # that rounding (0.005) when the runs do, so it is added to the tolerance.
        inputs = f"tolerance adds the ±{RUN_ROUNDING} rounding of the printed runs"
        rows.append(check(PAPER, "table_s7", f"mean of 3 runs: {label}", run["printed_mean"], run["mean"],
                          tolerance=rounding_tolerance(run["printed_mean"]) + RUN_ROUNDING, note=inputs))
        rows.append(check(
            PAPER, "table_s7", f"std of 3 runs: {label}", run["printed_std"], run["std_population"],
            tolerance=rounding_tolerance(run["printed_std"]) + RUN_ROUNDING,
            note=f"population std (ddof=0); the sample std (ddof=1) would be {run['std_sample']:.3f}; {inputs}",
        ))
        cell = s2_cell_for(run)
        quantity = f"Table S.2 prints run 1: {label}"
        if cell is None:
            rows.append(not_checkable(PAPER, "table_s7", quantity, f"{run['run1']:.2f}",
                                      "iNaturalist accuracies are not printed in Table S.2"))
            continue
        model, dataset, protocol = cell
        s2 = top1[(top1["model"] == model) & (top1["dataset"] == dataset) & (top1["protocol"] == protocol)]
        printed, value = s2["printed"].item(), s2["value"].item()
        tolerance = rounding_tolerance(printed) + RUN_ROUNDING
        note = "" if abs(value - run["run1"]) <= tolerance else (
            f"Table S.2 prints {printed}, which is the 3-run mean ({run['mean']:.2f}), not run 1"
            if abs(value - run["mean"]) <= tolerance else f"Table S.2 prints {printed}, neither run 1 nor the mean")
        rows.append(check(PAPER, "table_s7", quantity, printed, run["run1"], tolerance=tolerance, note=note))
    return rows


def batch_size_audits() -> list[AuditRow]:
    """Table S.8 repeats the ImageNet batch sizes of Table S.4; the two must agree."""
    return [
        check(PAPER, "table_s8", f"batch size of {r.protocol} equals Table S.4's", r.s8, float(r.s4), tolerance=0,
              note="" if r.s8 == r.s4 else f"Table S.4 gives {r.s4} for the same protocol on ImageNet-1k")
        for r in batch_sizes().itertuples()
    ]


def _estimates_note(estimates) -> str:
    """'printed-subset estimates: <reading> 0.959, ...' from rows with `reading` and `estimate`."""
    first = estimates.iloc[0]
    n = f", n = {first['n_models']} models" if "n_models" in estimates else ""
    values = "; ".join(f"{r} {e:.3f}" for r, e in zip(estimates["reading"], estimates["estimate"]))
    return f"estimates from the printed datasets only ({first['datasets used']}{n}): {values}"


def _interval_note(printed: str, n: int = PAPER_MODEL_COUNT) -> str:
    low, high = spearman_confidence_interval(parse_number(printed), n)
    return f"95% CI of the printed value at n = {n}: [{low:.2f}, {high:.2f}]"


def figure03_audits() -> list[AuditRow]:
    """Fig. 3: the five correlations Sec. 4.2 quotes. Each group includes unprinted data, so each is
    `not_checkable`; the note gives its estimate from the group's printed datasets under every reading."""
    estimates = figure03_estimates("top1")
    groups = shift_groups()
    rows = []
    for (group, ood, id_), of in estimates.groupby(["group", "ood_protocol", "id_protocol"], sort=False):
        printed = of["printed"].iloc[0]
        if groups[group].missing:
            reason = f"the {group} group includes {', '.join(groups[group].missing)}, not printed in S.2/S.3"
        else:
            reason = f"the {group} group's ImageNet-D block is printed for 10 of the 26 models only"
            if group == "Style" and of["n_models"].min() < 10:
                reason += " (SimCLR lacks Sketch FT)"
        rows.append(not_checkable(PAPER, "figure03", f"{group} shift: ID {id_} vs OOD {ood}", printed,
                                  f"{reason}; {_estimates_note(of)}; {_interval_note(printed)}"))
    return rows


def count_audits() -> list[AuditRow]:
    """How many models, methods and OOD datasets the text says the study has, against the tables."""
    top1 = published_accuracies("top1")
    models = top1.drop_duplicates("model")
    s4 = published.load(PAPER, "table_s4")
    ood_variants = [d for d in dict.fromkeys(s4["dataset"]) if not d.startswith("ImageNet-1k")]
    ood_datasets = sorted({"iNaturalist mini" if d.startswith("iNaturalist") else d for d in ood_variants})
    printed_ood = [d for d in dict.fromkeys(top1["dataset"]) if d != "Imagenet"]
    imagenet_d = [d for d in ood_variants if d.startswith("ImageNet-D")]
    return [
        check(PAPER, "table_s2", "number of models (abstract, Sec. 3, Sec. 5: 26)", "26", float(len(models)), tolerance=0,
              note="rows of Tables S.2/S.3/S.5 (method × backbone)"),
        check(PAPER, "table_s2", "Sec. 3: 'across 26 different SSL methods'", "26", float(models["method"].nunique()),
              tolerance=0, note="26 models but 24 distinct methods: DINO and MoCo v3 appear with both backbones "
                                "(the abstract's '26 models ... different SSL methods or ... backbones' is exact)"),
        check(PAPER, "table_s4", "number of OOD datasets (abstract, Sec. 1, 2.3, 4.5, 5: eleven)", "11",
              float(len(ood_datasets)), tolerance=0,
              note=f"Table S.4's non-ImageNet datasets with iNaturalist counted once ({len(ood_variants)} if its three "
                   f"targets count separately); S.2/S.3 print {len(printed_ood)} of them; S.6 lists 11 rows but a "
                   "different set (three iNat targets, no Cifar100, no ImageNet-D Real)"),
        check(PAPER, "table_s4", "Fig. 6 caption: ImageNet-D averaged across 'the six' datasets", "6",
              float(len(imagenet_d)), tolerance=0, note="ImageNet-D domains in Table S.4 (and S.2/S.3); S.6 lists five"),
    ]


# Sec. 3's definitions of the domain-shift groups, by the names Table S.6 uses.
SEC3_GROUPS = {
    "Coarse": {"Caltech256", "Pascal VOC", "iNat mini Family"},
    "Fine": {"CUB", "iNat mini Genus", "iNat mini Species"},
    # "all previously mentioned datasets, excluding Pascal VOC"
    "Category": {"Caltech256", "iNat mini Family", "CUB", "iNat mini Genus", "iNat mini Species"},
}


def table_s6_audits() -> list[AuditRow]:
    """Sec. 3 defines the Coarse, Fine and Category groups in words; Table S.6 ticks them."""
    rows = []
    for name, text in SEC3_GROUPS.items():
        table = set(shift_groups()[name].datasets)
        row = check(PAPER, "table_s6", f"Sec. 3 {name} group: datasets (size the text's definition implies)",
                    str(len(text)), float(len(table)), tolerance=0)
        differ = text ^ table
        note = "same datasets" if not differ else (
            f"in Sec. 3 only: {', '.join(sorted(text - table)) or '-'}; in S.6 only: {', '.join(sorted(table - text)) or '-'}")
        rows.append(dataclasses.replace(row, status="mismatch" if differ else row.status, note=note))
    return rows


def table_s1_audits() -> list[AuditRow]:
    """Sec. 2.2 cites example papers for each protocol; Table S.1 should tick that protocol for them."""
    rows = []
    for r in citation_checks().to_dict("records"):
        notes = [f"cited in Sec. 2.2 but not ticked: {r['not ticked']}" if r["not ticked"] else "",
                 f"cited but not in the survey: {r['not surveyed']}" if r["not surveyed"] else "",
                 "printed = the cited papers that S.1 surveys"]
        rows.append(check(PAPER, "table_s1", f"Sec. 2.2 papers cited for {r['protocol']} that S.1 ticks (in domain)",
                          str(r["cited and surveyed"]), float(r["ticked in S.1"]), tolerance=0,
                          note="; ".join(filter(None, notes))))
    rare = rarest_in_domain(2)
    counts = protocol_counts().set_index(["domain", "protocol"])["papers"]
    rows.append(check(
        PAPER, "table_s1", "App. A: partial FT and SVM are the rarest in-domain protocols (1 = yes)", "1",
        float(set(rare) == set(EXCLUDED_AS_RARE)), tolerance=0,
        note=", ".join(f"{p} {counts[('in_domain', p)]}" for p in ("knn", "LP", "FT", "FSFT", "PFT", "SVM"))
             + " papers of 23; boolean row: printed 1 = the text's statement",
    ))
    return rows


# Appendix E: "100 total epochs" for fine-tuning and linear probing, "30 epochs" for few-shot fine-tuning.
APPENDIX_E_EPOCHS = {"LP": 100, "FT": 100, "10%-FT": 30, "1%-FT": 30}
# Orderings of Table S.8's GPU hours the text states: (cheaper, dearer, where).
COST_ORDERINGS = (
    ("kNN", "LP", "Sec. 2.2: kNN is 'fast and computationally light' compared to linear probing"),
    ("kNN", "FT", "Sec. 4.2: probing and few-shot protocols are 'significantly cheaper' than full fine-tuning"),
    ("LP", "FT", "Sec. 4.2: probing and few-shot protocols are 'significantly cheaper' than full fine-tuning"),
    ("10%-FT", "FT", "Sec. 2.2/4.2: few-shot fine-tuning is 'significantly more efficient' / cheaper"),
    ("1%-FT", "FT", "Sec. 2.2/4.2: few-shot fine-tuning is 'significantly more efficient' / cheaper"),
)


def table_s8_audits() -> list[AuditRow]:
    """Table S.8 against the text: its epochs (App. E) and the cost orderings Sec. 2.2 / 4.2 state."""
    s8 = published.load(PAPER, "table_s8").set_index(["protocol", "quantity"])
    rows = [
        check(PAPER, "table_s8", f"epochs of {protocol} equal App. E's", s8.loc[(protocol, "epochs"), "printed"],
              float(epochs), tolerance=0, note="App. E: 100 epochs for FT and LP, 30 for few-shot fine-tuning")
        for protocol, epochs in APPENDIX_E_EPOCHS.items()
    ]
    for cheap, dear, where in COST_ORDERINGS:
        hours = {b: (s8.loc[(cheap, q), "value"], s8.loc[(dear, q), "value"])
                 for b, q in (("ResNet-50", "gpu_hours_resnet50"), ("ViT-B/16", "gpu_hours_vitb16"))}
        holds = all(c < d for c, d in hours.values())
        detail = "; ".join(f"{b}: {c:g} h vs {d:g} h ({d / c:.0f}×)" for b, (c, d) in hours.items())
        rows.append(check(PAPER, "table_s8", f"{cheap} cheaper than {dear} in GPU hours, both backbones (1 = yes)",
                          "1", float(holds), tolerance=0, note=f"{where}; {detail}; boolean row: printed 1 = the text's statement"))
    return rows


def audits() -> list[AuditRow]:
    """All audit rows of the paper."""
    return (figure02_audits() + figure03_audits() + count_audits() + table_s1_audits() + table_s6_audits()
            + table_s7_audits() + batch_size_audits() + table_s8_audits())
