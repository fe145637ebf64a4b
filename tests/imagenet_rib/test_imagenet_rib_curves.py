"""Our Figs. 5, 12 and 13 on the axes of the paper's redraws."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from lib.imagenet_rib.curves import REFERENCE_COLOURS, Y_RANGES, on_paper_axes  # noqa: E402
from lib.imagenet_rib.figures import PANEL_YLABELS as Y_LABELS, draw  # noqa: E402
from lib.imagenet_rib.ours import FT_SET  # noqa: E402


def curves(titles, xlabel):
    fig, axes = plt.subplots(1, len(titles))
    for ax, title in zip(axes, titles):
        ax.plot([1, 2], [20.0, 30.0])
        ax.set(title=title, xlabel=xlabel, ylabel=title)
    return fig


def test_accuracy_panels_get_the_redraws_0_100_axes_and_named_axes():
    fig = curves([FT_SET, "OOD accuracy"], "images_per_class")
    on_paper_axes(fig, "figure12")
    assert [ax.get_ylim() for ax in fig.axes] == [(0.0, 100.0), (0.0, 100.0)]
    assert [ax.get_ylabel() for ax in fig.axes] == [Y_LABELS[FT_SET], Y_LABELS["OOD accuracy"]]
    assert all("(%)" in ax.get_ylabel() for ax in fig.axes)
    assert {ax.get_xlabel() for ax in fig.axes} == {"images per class"}
    plt.close(fig)


def test_figure13_mri_panel_gets_the_redraws_range_and_our_main_run_as_dashed_references():
    fig = curves(["mRI", FT_SET], "epoch")
    references = pd.DataFrame({"label": ["main run, augmented", "main run, clean"], "mRI": [-10.8, -11.4]},
                              index=["augmented", "clean"])
    on_paper_axes(fig, "figure13", references)
    mri = fig.axes[0]
    assert mri.get_ylim() == Y_RANGES["figure13"]["mRI"]
    dashed = [line for line in mri.get_lines() if line.get_linestyle() == "--"]
    assert [line.get_ydata()[0] for line in dashed] == [-10.8, -11.4]
    assert [line.get_color() for line in dashed] == [REFERENCE_COLOURS["augmented"], REFERENCE_COLOURS["clean"]]
    assert [t.get_text() for t in mri.get_legend().get_texts()][-2:] == ["main run, augmented: -10.8",
                                                                          "main run, clean: -11.4"]
    assert not [line for line in fig.axes[1].get_lines() if line.get_linestyle() == "--"]
    plt.close(fig)


def test_figure13_redraw_has_our_panels_order_and_titles():
    fig, data = draw("figure13")
    assert [ax.get_title() for ax in fig.axes] == ["mRI", FT_SET]
    assert [ax.get_ylabel() for ax in fig.axes] == [Y_LABELS["mRI"], Y_LABELS[FT_SET]]
    plt.close(fig)
