"""Appendix Table 8 (absent from our text) drawn from our perturbation registry: per perturbation, the
free parameter, its domain K, the fixed parameters and a maximally distorted example, as
`lib.perturb.corruptions` defines them (our choice of domains: ImageNet-C's severity 1..5 range of the
free parameter, the others fixed at severity 1; see that module). Imports no torch.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from PIL import Image

from ..data.embedded import skimage_photo
from ..perturb.corruptions import CORRUPTIONS
from ..perturb.perturbations import PERTURBATIONS


def table08_frame() -> pd.DataFrame:
    """One row per perturbation (the paper's order): its names, free parameter, domain K, severe end,
    fixed parameters and what it does."""
    rows = [{"perturbation": c.paper_name, "registry name": c.name, "ImageNet-C": c.imagenet_c_name,
             "parameter": c.parameter, "K low": c.domain[0], "K high": c.domain[1], "severe end": c.severe_end,
             "fixed": ", ".join(f"{k} = {v:g}" for k, v in c.fixed.items()) or "-",
             "description": PERTURBATIONS[c.name].description} for c in CORRUPTIONS.values()]
    return pd.DataFrame(rows)


def embedded_photo(name: str, size: int) -> np.ndarray:
    """A bundled scikit-image photo, centre-cropped to a square and resized to `size`, as uint8 RGB."""
    image = np.rint(255 * skimage_photo(name)).astype(np.uint8)
    height, width = image.shape[:2]
    side = min(height, width)
    top, left = (height - side) // 2, (width - side) // 2
    square = Image.fromarray(image[top:top + side, left:left + side])
    return np.asarray(square.resize((size, size), Image.Resampling.BILINEAR))


def severe_examples(image: np.ndarray, seed: int) -> dict[str, np.ndarray]:
    """The image under each perturbation at the severe end of its domain (one generator per perturbation,
    seeded by `seed`)."""
    return {name: PERTURBATIONS[name].function(image, c.severe_end, np.random.default_rng(seed))
            for name, c in CORRUPTIONS.items()}


def draw_table08(image: np.ndarray, seed: int) -> tuple[plt.Figure, pd.DataFrame]:
    """The clean image and its nine maximally distorted versions, each titled with its parameter, domain
    and severe end; the table's rows as data."""
    frame, examples = table08_frame(), severe_examples(image, seed)
    fig, axes = plt.subplots(2, 5, figsize=(13.0, 6.2))
    panels = [("clean", image)] + [(row, examples[row["registry name"]]) for _, row in frame.iterrows()]
    for ax, (row, picture) in zip(axes.ravel(), panels):
        ax.imshow(picture)
        ax.set_axis_off()
        ax.set_title("clean" if isinstance(row, str) else
                     f"{row['perturbation']}\n{row['parameter']} ∈ [{row['K low']:g}, {row['K high']:g}]; "
                     f"shown: {row['severe end']:g}", fontsize=8)
    fig.suptitle("Table 8 (ours): the nine perturbations at the severe end of their domains K", fontsize=10)
    fig.tight_layout()
    return fig, frame
