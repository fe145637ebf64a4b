"""Table S.1, the protocol survey, and the Sec. 2.2 citations it should agree with."""

from __future__ import annotations

import pandas as pd

from .. import published

PAPER = "ssl_protocols"
IN_DOMAIN_PROTOCOLS = ("knn", "LP", "FT", "FSFT", "PFT", "SVM")
OUT_OF_DOMAIN_PROTOCOLS = ("knn", "LP", "FT")
# The reference number Table S.1 prints beside each surveyed method (the CSV drops the brackets).
CITATION_TO_METHOD = {
    48: "Jigsaw", 37: "npid", 15: "PIRL", 16: "BYOL", 14: "SimCLR", 39: "MoCo v2", 40: "ImageGPT",
    28: "SwAV", 74: "SimSiam", 22: "DINO", 9: "MAE", 10: "BEiT", 47: "MoCo v3", 42: "SimMIM",
    17: "iBOT", 32: "MaskFeat", 43: "SEER", 75: "Barlow Twins", 76: "data2vec", 35: "MILAN",
    41: "PeCo", 36: "PixMIM", 77: "CAE",
}
# Sec. 2.2: the papers cited as examples of each protocol ("see, e.g., [...]"), ranges expanded.
SEC22_CITATIONS = {
    "knn": (17, 22, 28, 37),
    "LP": (9, 10, 14, 15, 16, 17, 22, 39, 40, 41, 42, 43),
    "SVM": (28, 37, 44, 45, 46),
    "FT": (9, 10, 14, 15, 17, 32, 35, 40, 47),
    "PFT": (9, 48, 49),
    "FSFT": (14, 16, 17, 28, 43),
}
# App. A: "we decided ... to exclude very rarely used ones, i.e., partial fine-tuning and ... SVM".
EXCLUDED_AS_RARE = ("PFT", "SVM")


def survey_ticks() -> pd.DataFrame:
    """Methods (table order, with year) × (domain, protocol) booleans: True where S.1 prints a tick."""
    # The method list has no `value` column (it is the table's row labels), so it is read directly.
    methods = pd.read_csv(published.paths(PAPER, "table_s1_methods")[0], dtype=str, keep_default_na=False)
    ticks = published.load(PAPER, "table_s1", numeric=False)
    columns = [("in_domain", p) for p in IN_DOMAIN_PROTOCOLS] + [("out_of_domain", p) for p in OUT_OF_DOMAIN_PROTOCOLS]
    frame = pd.DataFrame(False, index=pd.Index(methods["method"], name="method"),
                         columns=pd.MultiIndex.from_tuples(columns, names=["domain", "protocol"]))
    for row in ticks.itertuples():
        frame.loc[row.method, (row.domain, row.protocol)] = True
    frame.insert(0, ("", "year"), methods.set_index("method")["year"].astype(int))
    return frame


def protocol_counts() -> pd.DataFrame:
    """How many surveyed papers use each protocol, in and out of domain."""
    ticks = survey_ticks().drop(columns=[("", "year")])
    return ticks.sum().rename("papers").reset_index()


def citation_checks() -> pd.DataFrame:
    """For each protocol of Sec. 2.2: the cited papers that S.1 surveys, and which of them S.1 ticks."""
    ticks = survey_ticks()
    rows = []
    for protocol, cited in SEC22_CITATIONS.items():
        surveyed = [c for c in cited if c in CITATION_TO_METHOD]
        ticked = [c for c in surveyed if ticks.loc[CITATION_TO_METHOD[c], ("in_domain", protocol)]]
        rows.append({
            "protocol": protocol,
            "cited": " ".join(map(str, cited)),
            "cited and surveyed": len(surveyed),
            "ticked in S.1": len(ticked),
            "not ticked": " ".join(f"{CITATION_TO_METHOD[c]} [{c}]" for c in surveyed if c not in ticked),
            "not surveyed": " ".join(f"[{c}]" for c in cited if c not in CITATION_TO_METHOD),
        })
    return pd.DataFrame(rows)


def rarest_in_domain(k: int = 2) -> tuple[str, ...]:
    """The `k` in-domain protocols the fewest surveyed papers use."""
    counts = protocol_counts()
    in_domain = counts[counts["domain"] == "in_domain"].sort_values("papers", kind="stable")
    return tuple(in_domain["protocol"].head(k))
