"""The numbered scatters (Figs. 13-14) place their point numbers the same way on every run."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from lib.counteranimal.figures import draw_scatter  # noqa: E402


def _label_positions(figure: str) -> list[tuple[float, float]]:
    fig, _ = draw_scatter(figure)
    positions = [text.get_position() for ax in fig.axes for text in ax.texts]
    plt.close(fig)
    return positions


def test_the_point_numbers_land_in_the_same_places_on_every_draw():
    # adjustText's default stops after one second, wherever the machine's speed has got to; a fixed
    # count of moves gives one layout
    first, second = _label_positions("figure14"), _label_positions("figure14")
    assert len(first) > 40
    assert first == second
