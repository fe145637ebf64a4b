"""Audit rows for counteranimal: every number the paper derives, re-derived from the numbers it prints.

- Drops: every printed drop (Tables 1, 3–5, 7, 9–16) against common − counter (Table 7: in- minus
  out-of-distribution). Tolerance: the rounding of the three printed cells added (0.015 for
  two-decimal cells; the paper computes drops before rounding).
- Class means: the mean over the 45 classes of Tables 15–16 against the model's row in Table 3 (the
  dataset-level accuracy is the class-balanced mean, App. C.2); tolerance 0.01 (printed value plus the
  mean rounding of its inputs).
- Repeated numbers: Table 15's LAION400M ViT/B/32 column against Table 16's; Table 1 against Table 15
  (accuracies) and Table 2 (backgrounds); Fig. 1's quoted accuracies; Table 9's adopted checkpoints
  (Table 6) against Table 3; Table 5's CLIP rows against Table 13 (same 1 vs 20 setup) and Table 3;
  Table 10's rows identical to Table 3's. Must be equal.
- Text: 45 classes; the background label space of Sec. 2 against Tables 1–2; the quoted "above 17
  points", "more than 5%" and "1 to 3 points"; the photo totals
  (7,174 common, 5,926 counter) and "300-800 photos per class" against the group sizes the class-wise
  percentages imply (`classwise`), and Table 11's unbalanced accuracies recomputed with those sizes.
Rows marked "boolean" compare a statement (printed 1) with whether the tables bear it out (1 or 0).
"""

from __future__ import annotations

import pandas as pd

from ..audit import AuditRow, check, not_checkable, rounding_tolerance
from ..published import printed_decimals
from .classwise import MAX_PER_CLASS, class_means, classwise_frame, implied_group_sizes, micro_accuracies, plausible_group_sizes
from .published import PAPER, class_names, clip_model, model_table, raw

DROP_TABLES = ("table03", "table04", "table05", "table09", "table10", "table11", "table12", "table13", "table14")
NOTE_DROP = "tolerance: rounding of common, counter and drop added (drops are computed before rounding)"
NOTE_MEAN = "tolerance 0.01 = 0.005 (printed) + 0.005 (mean rounding of the 45 class values)"
BACKGROUND_SPACE = ("ground", "water", "earth", "sand", "snow", "grass", "human", "sky", "road", "rock", "shrub",
                    "indoor", "tree", "outdoor")  # Sec. 2 (printed with "road" twice)
STATED_TOTALS = {"common": "7,174", "counter": "5,926"}  # Sec. 1
STATED_CLASSES = "45"
FIGURE01 = {"common": "97.62", "counter": "70.91"}  # Fig. 1's caption, ice bear (class 39)
TABLE01_CLASS = {"ice bear": 39, "black swan": 25, "flamingo": 28, "vulture": 5, "dung beetle": 40}
CLASSWISE_IN_TABLE03 = {  # Tables 15-16 column -> Table 3 row (backbone, pre-train dataset)
    "CLIP-LAION400M-ViT/B/16": ("ViT/B/16", "LAION400M"), "CLIP-LAION400M-ViT/B/32": ("ViT/B/32", "LAION400M"),
    "CLIP-LAION400M-ViT/L/14": ("ViT/L/14", "LAION400M"), "CLIP-LAION2B-ViT/B/32": ("ViT/B/32", "LAION2B"),
    "CLIP-OpenAI-ViT/B/32": ("ViT/B/32", "OpenAI"),
}


def boolean(artefact: str, quantity: str, holds: bool, note: str) -> AuditRow:
    """A statement of the text (printed 1) against whether the tables bear it out."""
    return check(PAPER, artefact, quantity, "1", float(holds), tolerance=0.0, note=f"boolean: {note}")


def _drop_tolerance(*printed: str) -> float:
    return sum(rounding_tolerance(p) for p in printed)


def _drop_rows(artefact: str, frame: pd.DataFrame, keys: list[str], first: str, second: str) -> list[AuditRow]:
    rows = []
    for key, block in frame.groupby(keys, sort=False):
        cell = block.set_index("metric")["printed"]
        if "n/a" in set(cell) or "drop" not in cell:
            continue
        a, b, d = cell[first], cell[second], cell["drop"]
        label = " ".join(str(k) for k in (key if isinstance(key, tuple) else (key,)) if str(k))
        rows.append(check(PAPER, artefact, f"drop {label}", d, float(a) - float(b),
                          tolerance=_drop_tolerance(a, b, d), note=NOTE_DROP))
    return rows


def drop_rows() -> list[AuditRow]:
    """Every printed drop against its common − counter."""
    rows = []
    for artefact in DROP_TABLES:
        frame = model_table(artefact)
        rows += _drop_rows(artefact, frame, ["model", "checkpoint"], "common", "counter")
    table01 = raw("table01")
    table01 = table01[table01["quantity"].isin(["accu", "drop"])].assign(
        metric=lambda f: f["group"].where(f["quantity"] == "accu", "drop"))
    rows += _drop_rows("table01", table01, ["object_label"], "common", "counter")
    rows += _drop_rows("table07", raw("table07"), ["backbone", "approach"], "in-distribution", "out-of-distribution")
    classwise = classwise_frame()
    for artefact in ("table15", "table16"):
        part = classwise[classwise["artefact"] == artefact]
        rows += _drop_rows(artefact, part, ["model", "class_id"], "common", "counter")
    return rows


def class_mean_rows() -> list[AuditRow]:
    """Tables 15–16 class means against Table 3."""
    table03 = model_table("table03").set_index(["model", "metric"])["printed"]
    rows = []
    for r in class_means().itertuples():
        backbone, data = CLASSWISE_IN_TABLE03[r.model]
        printed = table03[(clip_model(backbone, data), r.metric)]
        rows.append(check(PAPER, r.artefact, f"mean over {r.classes} classes of {r.model} {r.metric} vs Table 3",
                          printed, r.value, tolerance=0.01, note=NOTE_MEAN))
    return rows


def _equal(artefact: str, quantity: str, printed: str, other: str, where: str) -> AuditRow:
    tol = rounding_tolerance(printed) if printed_decimals(printed) != printed_decimals(other) else 1e-9
    return check(PAPER, artefact, quantity, printed, float(other), tolerance=tol, note=f"printed again in {where}")


def repeated_rows() -> list[AuditRow]:
    """Numbers printed in two places."""
    rows = []
    classwise = classwise_frame()
    b32 = "CLIP-LAION400M-ViT/B/32"
    t15 = classwise[(classwise["artefact"] == "table15") & (classwise["model"] == b32)].set_index(["class_id", "metric"])
    t16 = classwise[(classwise["artefact"] == "table16") & (classwise["model"] == b32)].set_index(["class_id", "metric"])
    for key, printed in t16["printed"].items():
        rows.append(_equal("table16", f"{b32} class {key[0]} {key[1]}", printed, t15.loc[key, "printed"], "Table 15"))
    table01 = raw("table01")
    names = class_names().set_index("class_id")
    for r in table01.itertuples():
        class_id = TABLE01_CLASS[r.object_label]
        if r.quantity == "bkg":
            in_table02 = names.loc[class_id, r.group]
            rows.append(boolean("table01", f"{r.object_label} {r.group} background '{r.printed}' equals Table 2's",
                                r.printed == in_table02, f"Table 2 class {class_id} prints '{in_table02}'"))
        else:
            metric = r.group if r.quantity == "accu" else "drop"
            rows.append(_equal("table01", f"{r.object_label} {metric}", r.printed,
                               t15.loc[(class_id, metric), "printed"], f"Table 15 (class {class_id}, {b32})"))
    for group, printed in FIGURE01.items():
        rows.append(_equal("figure01", f"ice bear {group} accuracy in the caption", printed,
                           t15.loc[(39, group), "printed"], "Table 15 (class 39)"))
    rows += _checkpoint_rows() + _table05_rows() + _unchanged_rows()
    return rows


def _checkpoint_rows() -> list[AuditRow]:
    """Table 9's rows for the checkpoints Table 6 lists as adopted, against Table 3."""
    adopted = raw("table06")
    adopted = {(r.backbone, r.pretrain_dataset): r.printed for r in adopted.itertuples()}
    table09 = model_table("table09")
    table03 = model_table("table03").set_index(["model", "metric"])["printed"]
    rows = []
    for r in table09.itertuples():
        if adopted.get((r.backbone, r.pretrain_dataset)) != r.checkpoint:
            continue
        rows.append(_equal("table09", f"{r.model} {r.checkpoint} {r.metric}", r.printed, table03[(r.model, r.metric)],
                           "Table 3 (Table 6 lists this checkpoint as the adopted one)"))
    return rows


def _table05_rows() -> list[AuditRow]:
    """Table 5's CLIP rows are captioned 1 vs 20: against Table 13 (1 vs 20) and Table 3 (1 vs 1000)."""
    table05 = model_table("table05")
    rows = []
    for other, setup in (("table13", "1 vs 20"), ("table03", "1 vs 1000")):
        printed = model_table(other).set_index(["model", "metric"])["printed"]
        for r in table05[table05["family"] != "LVLM"].itertuples():
            rows.append(_equal("table05", f"{r.model} {r.metric} vs {other} ({setup})", r.printed,
                               printed[(r.model, r.metric)], f"Table {other[-2:]} ({setup})"))
    return rows


def _unchanged_rows() -> list[AuditRow]:
    """Table 10 (80 prompts) rows that repeat Table 3 (one prompt) exactly, cell for cell."""
    t10 = model_table("table10").pivot(index="model", columns="metric", values="printed")
    t03 = model_table("table03").pivot(index="model", columns="metric", values="printed").reindex(t10.index)
    same = (t10 == t03).all(axis=1)
    return [boolean("table10", "every 80-prompt row differs from its one-prompt row in Table 3", not same.any(),
                    f"identical to Table 3 in all three cells: {', '.join(same[same].index) or 'none'} "
                    f"({int(same.sum())} of {len(same)} rows)")]


def _bound(artefact: str, quantity: str, printed: str, recomputed: float, note: str) -> AuditRow:
    """A stated total against a lower bound: ok when the bound does not exceed it."""
    stated = float(printed.replace(",", ""))
    status = "ok" if recomputed <= stated else "mismatch"
    return AuditRow(PAPER, artefact, quantity, printed, float(recomputed), float(recomputed) - stated, 0.0, status, note)


def text_rows() -> list[AuditRow]:
    """Numbers and statements of the text against the tables."""
    names = class_names()
    rows = [check(PAPER, "table02", "number of classes (Sec. 1: 45)", STATED_CLASSES, float(len(names)), tolerance=0)]
    for artefact, frame, column in (("table02", raw("table02"), "printed"),
                                    ("table01", raw("table01").query("quantity == 'bkg'"), "printed")):
        outside = sorted(set(frame[column]) - set(BACKGROUND_SPACE))
        rows.append(boolean(artefact, "every background is in Sec. 2's label space", not outside,
                            f"labels outside the space: {', '.join(outside) or 'none'}"))
    rows += quoted_rows() + group_size_rows()
    return rows


def quoted_rows() -> list[AuditRow]:
    """Statements of the text with a number in them, against the tables they describe."""
    table03 = model_table("table03").set_index(["model", "metric"])["value"]
    above = {m: table03[(m, "drop")] for m in ("CLIP-LAION400M-ViT/B/16", "CLIP-LAION400M-ViT/L/14")}
    reference = classwise_frame().query("artefact == 'table15' and model == 'CLIP-LAION400M-ViT/B/32' "
                                        "and metric == 'drop'")["value"]
    change = model_table("table10").set_index(["model", "metric"])["value"] - table03
    cells = change[change.index.get_level_values("metric") != "drop"]
    in_range = int(((cells >= 1) & (cells <= 3)).sum())
    return [
        boolean("table03", "Sec. 5.1: a drop above 17 points for LAION400M ViT/B/16 and ViT/L/14",
                min(above.values()) > 17, ", ".join(f"{m} {v:.2f}" for m, v in above.items())),
        boolean("table15", "Sec. 2: every kept class varies by more than 5% for the curation CLIP",
                bool((reference > 5).all()), f"smallest class drop of CLIP-LAION400M-ViT/B/32: {reference.min():.2f}"),
        boolean("table10", "App. E: the 80 prompts raise common and counter accuracy by 1 to 3 points",
                in_range > len(cells) / 2, f"{in_range} of {len(cells)} (CLIP, group) cells gain 1-3 points; mean "
                f"gain common {cells.xs('common', level='metric').mean():.2f}, counter "
                f"{cells.xs('counter', level='metric').mean():.2f}"),
    ]


def group_size_rows() -> list[AuditRow]:
    """The group sizes Tables 15–16 imply, against the totals and per-class range the text states."""
    sizes = implied_group_sizes()
    plausible = plausible_group_sizes()
    rows = []
    for group, stated in STATED_TOTALS.items():
        rows.append(_bound("table15", f"{group} photos: sum of the smallest counts the class-wise percentages allow",
                           stated, float(sizes[group].sum()),
                           "a lower bound on the total (each class's smallest count consistent with all five "
                           "models' printed percentages); mismatch: it exceeds the total of Sec. 1"))
        replaced = "; ".join(f"class {r.class_id} {r.replaced}" for r in plausible.itertuples() if r.replaced)
        rows.append(_bound("table15", f"{group} photos: same, a single implausible percentage left out",
                           stated, float(plausible[group].sum()),
                           f"where a class's two smallest counts exceed {MAX_PER_CLASS} (Sec. 2), the larger is "
                           f"recounted leaving one percentage out ({replaced})"))
    over = sizes[sizes["common"] + sizes["counter"] > MAX_PER_CLASS]
    rows.append(boolean("table15", f"every class's smallest common + counter count is at most {MAX_PER_CLASS}",
                        over.empty, "over: " + (", ".join(f"class {r.class_id} ({r.common} + {r.counter})"
                                                          for r in over.itertuples()) or "none")))
    table11 = model_table("table11").set_index(["model", "metric"])["printed"]
    for r in micro_accuracies(plausible).itertuples():
        for metric in ("common", "counter", "drop"):
            rows.append(check(PAPER, "table11", f"{r.model} unbalanced {metric} from Tables 15-16 and implied sizes",
                              table11[(r.model, metric)], getattr(r, metric), tolerance=0.015,
                              note="Σ acc·n / Σ n with the plausible smallest counts; they are lower bounds, so a "
                                   "mismatch says the real counts differ from them (or the tables disagree)"))
    return rows


def unprinted_rows() -> list[AuditRow]:
    """Derived quantities whose inputs the text does not print."""
    return [
        not_checkable(PAPER, "table08", "means ± sd over runs", "all cells", "the per-run accuracies and the number "
                      "of runs are not printed"),
        not_checkable(PAPER, "table13", "1 vs 20 accuracies", "all cells", "the top-20 candidate sets are not printed"),
        not_checkable(PAPER, "figure03", "per-class photo counts", "all bars", "Fig. 3's counts are not printed; "
                      "`classwise.implied_group_sizes` gives lower bounds"),
    ]


def audits() -> list[AuditRow]:
    """Every audit row of the paper."""
    return drop_rows() + class_mean_rows() + repeated_rows() + text_rows() + unprinted_rows()
