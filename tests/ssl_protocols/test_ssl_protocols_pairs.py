"""The paper beside our run: every reproduced artefact's pair is one tidy frame (both sources, the
results schema) drawn by one function on shared colour scales or axes; no artefact-name branches."""

import re
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest

from lib.results import COLUMNS
from lib.ssl_protocols.ours import PANELS, our_panel, run_study
from lib.ssl_protocols.tables import TABLES, draw_table, table_view

matplotlib.use("Agg")
LIB = Path(__file__).parents[2] / "lib"


@pytest.fixture(scope="module")
def study():
    """The tiny study, computed into build/tiny/results on first use and read back after."""
    return run_study("params/tiny/ssl_protocols/study.yaml", "build/tiny/results")


@pytest.mark.parametrize("artefact", sorted(PANELS))
def test_pair_holds_paper_and_ours_in_the_schema(study, artefact):
    settings, frame = study
    data, fig, findings = our_panel(artefact, settings, frame)
    try:
        assert tuple(data.columns) == COLUMNS
        assert set(data["source"]) == {"paper", "ours"}
        assert (data["artefact"] == artefact).all() and data["value"].notna().any()
        assert set(data.loc[data["source"] == "paper", "tier"]) == {"published"}
        assert set(data.loc[data["source"] == "ours", "tier"]) == {"tiny"}
        # two panels titled by source, or (grids of panels) two sub-figures titled by source
        blocks = [(f.get_suptitle(), f.axes) for f in fig.subfigs] or [(ax.get_title(), [ax]) for ax in fig.axes if ax.get_title()]
        assert [title.split(":")[0] for title, _ in blocks] == ["paper", "ours (tiny, 4 models)"]
        axes = [ax for _, block in blocks for ax in block]
        images = [ax.collections[0] for ax in axes if ax.collections and hasattr(ax.collections[0], "get_clim")
                  and ax.collections[0].get_array() is not None and ax.get_xlim() != (0.0, 100.0)]
        if len(images) >= 2:  # heatmaps: one colour scale over all
            assert len({image.get_clim() for image in images}) == 1
        elif any(ax.patches for ax in axes):  # bars: one accuracy axis
            assert len({ax.get_ylim() for ax in axes}) == 1
        else:  # scatters: the same accuracy axes
            assert {ax.get_xlim() for ax in axes} == {ax.get_ylim() for ax in axes} == {(0.0, 100.0)}
        assert len(findings) >= 1
    finally:
        plt.close(fig)


def test_unknown_artefacts_name_the_valid_ones(study):
    settings, frame = study
    with pytest.raises(KeyError, match=r"panels exist for \['figure02'"):
        our_panel("figure99", settings, frame)
    with pytest.raises(ValueError, match=r"expected one of \('table_s1'"):
        table_view("table_s9")
    with pytest.raises(ValueError, match="unknown table"):
        draw_table("figure02")
    assert TABLES == tuple(f"table_s{i}" for i in range(1, 9))


def test_table_s2_pair_draws_every_block_on_one_scale(study):
    settings, frame = study
    data, fig, _ = our_panel("table_s2", settings, frame)
    plt.close(fig)
    ours = data[data["source"] == "ours"]
    assert set(ours["eval_dataset"]) == set(frame["dataset"])  # every dataset in the CSV
    assert np.allclose(sorted(ours["value"]), sorted(frame.loc[frame["metric"] == "top1", "value"]))


@pytest.mark.parametrize("path", ["ssl_protocols/ours.py", "ssl_protocols/tables.py", "ssl_protocols/scatter.py",
                                  "imagenet_rib/representations.py"])
def test_no_artefact_name_branches(path):
    source = (LIB / path).read_text()
    assert not re.search(r"artefact (==|!=) |artefact (not )?in \(", source)
