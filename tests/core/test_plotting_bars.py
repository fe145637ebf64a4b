import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from lib.plotting import paper_and_ours_bars  # noqa: E402
from lib.results import paper_and_ours  # noqa: E402


def test_paper_and_ours_bars_share_the_y_axis_colours_and_bar_order():
    paper = pd.DataFrame({"model": ["m1", "m1", "m2", "m2"], "method": ["Pretrained", "FT"] * 2,
                          "value": [60.0, 40.0, 70.0, 30.0]})
    ours = pd.DataFrame({"model": ["r"] * 4, "method": ["Pretrained", "FT"] * 2, "seed": [0, 0, 1, 1],
                         "value": [10.0, 12.0, 10.0, 14.0]})
    frame = paper_and_ours(paper, ours, paper="p", artefact="a", tier="tiny", metric="accuracy")
    fig = paper_and_ours_bars(frame, "model", "method", palette={"Pretrained": "tab:blue", "FT": "tab:red"},
                              titles=("paper: x", "ours: x"))
    left, right = fig.axes
    assert left.get_ylim() == right.get_ylim()  # one y axis
    heights = [[p.get_height() for p in ax.patches] for ax in (left, right)]
    assert heights == [[60.0, 70.0, 40.0, 30.0], [10.0, 13.0]]  # per bar colour, the paper's order; seeds averaged
    colours = [[p.get_facecolor() for p in ax.patches] for ax in (left, right)]
    assert colours[0][0] == colours[1][0] and colours[0][2] == colours[1][1]
    assert [t.get_text() for t in left.get_xticklabels()] == ["m1", "m2"]
    assert len(right.collections) == 2 and len(left.collections) == 0  # our seeds' range, none for the paper
    assert left.get_title() == "paper: x"
    plt.close(fig)


def test_paper_and_ours_heatmaps_can_keep_every_paper_row_in_ours():
    from lib.plotting import paper_and_ours_heatmaps

    paper = pd.DataFrame({"method": ["a", "b", "c"], "model": "m", "value": [1.0, 2.0, 3.0]})
    ours = pd.DataFrame({"method": ["c", "d"], "model": "r", "seed": 0, "value": [4.0, 5.0]})
    frame = paper_and_ours(paper, ours, paper="p", artefact="a", tier="tiny", metric="x")
    rows = [[t.get_text() for t in ax.get_yticklabels()]
            for ax in paper_and_ours_heatmaps(frame, "method", "model", paper_rows=True).axes[:2]]
    assert rows == [["a", "b", "c"], ["a", "b", "c", "d"]]
    rows = [t.get_text() for t in paper_and_ours_heatmaps(frame, "method", "model").axes[1].get_yticklabels()]
    assert rows == ["c", "d"]
    plt.close("all")


def test_paper_and_ours_hbars_label_every_bar_share_the_x_axis_and_colours():
    from lib.plotting import paper_and_ours_hbars

    paper = pd.DataFrame({"method": ["a", "a", "b", "b"], "model": ["x", "y", "x", "y"], "value": [0.5, 0.6, 0.7, 0.8]})
    ours = pd.DataFrame({"method": ["a", "b"], "model": "x", "value": [0.55, 0.65], "spread": [0.05, 0.1]})
    frame = paper_and_ours(paper, ours, paper="p", artefact="a", tier="tiny", metric="accuracy")
    fig = paper_and_ours_hbars(frame, "method", "model", note="rows y not run", decimals=2)
    left, right = fig.axes
    assert left.get_xlim() == right.get_xlim()
    assert [p.get_width() for p in left.patches] == [0.5, 0.7, 0.6, 0.8]  # per block, the paper's group order
    assert [p.get_width() for p in right.patches] == [0.55, 0.65]
    assert left.patches[0].get_facecolor() == right.patches[0].get_facecolor()  # block x: one colour
    labels = {t.get_text().strip() for t in right.texts}
    assert {".55 ± .05", ".65 ± .10", "rows y not run"} <= labels
    assert {".50", ".60", ".70", ".80"} <= {t.get_text().strip() for t in left.texts}
    assert [t.get_text() for t in left.get_yticklabels()] == ["a", "b"]
    plt.close(fig)
