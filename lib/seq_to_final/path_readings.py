"""The text's statements about the interpolation paths (Figs 1, 10-14) and the SVCCA trajectories (Fig. 17),
judged on the quantity each statement is about; torch-free (the runs are `lib.seq_to_final.geometry`'s).

Per path (`path_profiles`), beside `geometry.path_shapes`' start, end, rise, dip, last jump and barrier:
- `max_change`: the largest |acc(s) − acc(0)| along the path (a flat path keeps it small everywhere, not
  only at its end);
- `jump_share`: the last jump over the rise (undefined where the path rises less than .05, i.e. is flat
  by the rise: a share of a near-zero rise is no reading): a steady increase earns most of its rise before
  the last step;
- `unchanged`: the path has one accuracy at every s, which is what happens when the final update returned
  its start model (w_T = w_(T−1), e.g. fine-tuning whose best epoch is epoch 0): flat because nothing moved.

The thresholds are our readings of the text's words: "flat" = `max_change` < .05; "good initialization"
= |end − start| < .05 (the start within .05 of the end); "steady increase" = dip < .02 (.02 is the margin the
paper's captions use) and `jump_share` < .5 (the last step a minority of the rise).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..findings import Finding, Findings, mean_interval
from .geometry import PATH_KEYS, judged_paths, path_shapes

PROFILE_COLUMNS = ["start", "end", "rise", "dip", "max_change", "last_jump", "jump_share", "barrier"]
FLAT, STEADY_DIP, MINORITY, GOOD_START = 0.05, 0.02, 0.5, 0.05


def path_profiles(frame: pd.DataFrame) -> pd.DataFrame:
    """`geometry.path_shapes` with `max_change`, `jump_share` and `unchanged`, one row per path."""
    paths = judged_paths(frame).sort_values("alpha")
    along = paths.groupby(PATH_KEYS, sort=False)["accuracy"].agg(
        max_change=lambda a: float(np.max(np.abs(a.to_numpy() - a.iloc[0]))), unchanged=lambda a: a.nunique() == 1)
    shapes = path_shapes(frame).merge(along.reset_index(), on=PATH_KEYS)
    return shapes.assign(jump_share=(shapes["last_jump"] / shapes["rise"]).where(shapes["rise"] >= GOOD_START))


def _on_panels(profiles: pd.DataFrame, panels: list[str]) -> pd.DataFrame:
    return profiles[(profiles["sequence"] + " " + profiles["architecture"]).isin(panels)]


def profile_table(frame: pd.DataFrame, panels: list[str]) -> pd.DataFrame:
    """`path_profiles` on `panels` ("<sequence> <architecture>"): mean and standard deviation over the seeds
    per (sequence, architecture, method), and how many seeds' paths are unchanged along s."""
    chosen = _on_panels(path_profiles(frame), panels)
    keys = ["sequence", "architecture", "method"]
    table = chosen.groupby(keys, sort=False)[PROFILE_COLUMNS].agg(["mean", "std"]).round(3)
    counts = chosen.groupby(keys, sort=False)["unchanged"].agg(lambda u: f"{int(u.sum())} of {len(u)}")
    table[("unchanged", "seeds")] = counts
    return table


@dataclass(frozen=True)
class PathClaim:
    """A statement of the text judged on `quantity` (a column of `path_profiles`, or "|rise|") of `method`'s
    paths: `direction` `threshold`."""

    method: str
    quantity: str
    direction: str
    threshold: float
    text: str


GOOD_THEN_STEADY = "Good initialization followed by steady increase for joint model variants (Sec. 4.1)"
JOINT_VARIANTS = ("JM", "JST-1")  # the joint model and the joint model with 1-layer side modules
JOINT_CLAIMS = tuple(claim for m in JOINT_VARIANTS for claim in (
    PathClaim(m, "|rise|", "<", GOOD_START, GOOD_THEN_STEADY + ": good initialization, the start within .05 of the end"),
    PathClaim(m, "dip", "<", STEADY_DIP, GOOD_THEN_STEADY + ": increase, the path never falls .02 below its start"),
    PathClaim(m, "jump_share", "<", MINORITY, GOOD_THEN_STEADY + ": steady, the last step less than half the rise"),
))
FLAT_TEXT = ("Flat loss from initialization to final for sequences with little shift: flat paths for many methods "
             "(App. G.1), i.e. |acc(s) − acc(0)| below .05 at every s")
FLAT_CLAIMS = tuple(PathClaim(m, "max_change", "<", FLAT, FLAT_TEXT)
                    for m in ("FT", "LP-FT", "ST-1", "SFT", "JM", "JST-1"))
SIDE_CLAIM = PathClaim("ST-1", "rise", ">", 0.0,
                       "Side-tuning encourages a smooth linear interpolation path: for almost all sequences and "
                       "architectures ERM then side-tuning gives a path that, in general, increases (App. G.1); read "
                       "as: it ends above its start (the text allows sharp drops and jumps near either end, so its "
                       "smoothness is not judged)")
# The statements each path figure's text makes (Sec. 4.1 for Figs 1 and 10, on the label-flip sequences' joint
# models; App. G.1 for Figs 10-15: side-tuning's paths on Figs 10-11, both "preserved" on Fig. 14's 8-step
# sequence; on Figs 12-13 the text calls many methods' paths flat instead; it says nothing of the joint models
# on Fig. 11's rrr).
PORTRAITS_CLAIMS = (
    PathClaim("JM", "dip", ">", STEADY_DIP, "On Portraits the joint model often does not exhibit the same smooth trend "
              "(App. G.1): its path falls more than .02 below its start"),
    PathClaim("SFT", "max_change", "<", FLAT, "a couple variants of sequential fine-tuning have paths that stay flat "
              "at a relatively high accuracy (App. G.1), i.e. |acc(s) − acc(0)| below .05 at every s"),
    PathClaim("LP-FT", "max_change", "<", FLAT, "ERM followed by linear probing then fine-tuning on the final step has "
              "a completely flat path (App. G.1), i.e. |acc(s) − acc(0)| below .05 at every s"),
)
PATHS_CLAIM = "interpolation-figures"  # the ledger claim every path finding bears on
PATH_CLAIMS: dict[str, tuple[PathClaim, ...]] = {
    "figure01": JOINT_CLAIMS, "figure10": (*JOINT_CLAIMS, SIDE_CLAIM), "figure11": (SIDE_CLAIM,),
    "figure12": FLAT_CLAIMS, "figure13": FLAT_CLAIMS, "figure14": (*JOINT_CLAIMS, SIDE_CLAIM),
    "figure15": PORTRAITS_CLAIMS,
}


def _values(chosen: pd.DataFrame, quantity: str) -> np.ndarray:
    values = chosen["rise"].abs() if quantity == "|rise|" else chosen[quantity]
    return values.dropna().to_numpy(float)


def path_findings(frame: pd.DataFrame, artefact: str, panels: list[str]) -> Findings:
    """The artefact's `PATH_CLAIMS` on every panel, a t-interval over the seeds whose path moved and where the
    quantity is defined (a path unchanged along s is flat because its final update returned its start model,
    which says nothing of the landscape: those seeds are left out, and the label says how many)."""
    profiles = path_profiles(frame)
    findings = []
    for panel in panels:
        on_panel = _on_panels(profiles, [panel])
        for claim in PATH_CLAIMS[artefact]:
            chosen = on_panel[on_panel["method"] == claim.method]
            values = _values(chosen[~chosen["unchanged"]], claim.quantity)
            label = (f"{claim.method} {claim.quantity}, {panel} "
                     f"({int(chosen['unchanged'].sum())} of {len(chosen)} seeds' paths unchanged, left out; "
                     f"{len(values)} defined)")
            findings.append(Finding(label, float(np.mean(values)) if len(values) else float("nan"),
                                    mean_interval(values), claim.text, claim.direction, claim.threshold,
                                    claim_id=PATHS_CLAIM))
    return Findings(findings)


def layer_order(layers: "pd.Series | list[str]") -> list[str]:
    """The layers in model order, as the paper's panels run: stem (input conv), blocks, head (output fc),
    then the entire model."""
    def rank(layer: str) -> tuple[int, int]:
        if layer.startswith("blocks."):
            return 1, int(layer.split(".")[1])
        return {"stem": (0, 0), "head": (2, 0)}.get(layer, (3, 0))
    return sorted(dict.fromkeys(layers), key=rank)


def svcca_progress_findings(frame: pd.DataFrame, methods: tuple[str, ...] = ("SFT", "JM")) -> Findings:
    """App. G.2 on Fig. 17, per layer and for the entire model: "some progression towards the oracle at
    (1, 1), particularly for the fully connected layer", as the change of the distance to (1, 1) from the
    first step's model to the last's (< 0: closer), per seed, then over the seeds."""
    rows = frame[frame["analysis"] == "svcca"].assign(distance=lambda f: np.hypot(1 - f["x"], 1 - f["y"]))
    findings = []
    for layer in layer_order(rows["layer"]):
        for method in methods:
            by_step = rows[(rows["layer"] == layer) & (rows["method"] == method)].pivot(
                index="seed", columns="step", values="distance")
            first, last = min(by_step.columns), max(by_step.columns)
            change = (by_step[last] - by_step[first]).to_numpy(float)
            findings.append(Finding(f"{method}, {layer}: distance to (1, 1) at step {last} − at step {first}",
                                    float(change.mean()), mean_interval(change),
                                    "the trajectories show some progression towards the oracle at (1, 1)", "<", 0.0))
    return Findings(findings)
