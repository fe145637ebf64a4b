"""The imagenet_rib wiring is data: every drawn artefact is looked up in one table, never branched on by name."""

import re
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

matplotlib.use("Agg")

from lib.imagenet_rib.figures import WIRING, draw  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NAME_BRANCH = re.compile(r"\b(if|elif|match)\b[^\n]*\bartefact\b\s*(==|!=|in\s*\(|not in\s*\()|\bartefact\s*(==|!=)\s*['\"]")
NO_PAPER_FIGURE = {"figure07", "figure10", "figure14"}  # representation panels: the paper prints no numbers


def test_wiring_draws_every_runnable_artefact_with_a_paper_figure():
    manifest = pd.read_csv(ROOT / "notebooks/manifest.csv")
    rows = manifest[(manifest["paper"] == "imagenet_rib") & manifest["notebook"].notna()]
    expected = set(rows["artefact"]) - NO_PAPER_FIGURE - {"claims"}
    drawable = {a for a, w in WIRING.items() if w.draw is not None}
    assert expected <= drawable, sorted(expected - drawable)


def test_unknown_artefact_names_the_valid_ones():
    with pytest.raises(KeyError, match="table03"):
        draw("table99")
    with pytest.raises(KeyError, match="no drawing"):
        draw("table25")  # a question, but no printed body to draw


@pytest.mark.parametrize("module", ["imagenet_rib/figures.py", "imagenet_rib/ours_experiments.py", "imagenet_rib/ours.py",
                                    "imagenet_rib/pairs.py", "seq_to_final/figures.py", "counteranimal/published.py",
                                    "counteranimal/figures.py", "fm_perturbations/figures.py"])
def test_no_branch_on_an_artefact_name(module):
    path = ROOT / "lib" / module
    if not path.exists():
        pytest.skip(f"{module} not present")
    assert not NAME_BRANCH.findall(path.read_text()), module
