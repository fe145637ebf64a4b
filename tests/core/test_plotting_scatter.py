import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from lib.plotting import scatter_with_fit  # noqa: E402


def test_scatter_with_fit_draws_points_lines_bands_and_identity():
    points = pd.DataFrame({"x": [10.0, 20, 30, 40], "y": [8.0, 15, 25, 33], "family": ["a", "a", "b", "b"],
                           "params": [1.0, 10, 100, 1000], "data": [1.0, 1, 10, 10]})
    lines = pd.DataFrame({"line": "a", "x": [10.0, 20], "fit": [8.0, 15], "low": [7.0, 14], "high": [9.0, 16]})
    fig, ax = plt.subplots()
    scatter_with_fit(ax, points, "x", "y", hue="family", lines=lines, size="params", shade="data",
                     palette={"a": "tab:blue", "b": "tab:red"}, annotate="family")
    scatters = [c for c in ax.collections if c.get_offsets().shape[0] and c.get_label() in ("a", "b")]
    assert [c.get_label() for c in scatters] == ["a", "b"]
    areas = np.concatenate([c.get_sizes() for c in scatters])
    assert np.all(np.diff(areas) > 0)  # larger `size`, larger marker
    assert len(ax.collections) == 3  # two scatters and one band
    assert [line.get_label() for line in ax.lines][-1] == "y = x"
    assert len(ax.texts) == 4
    plt.close(fig)
