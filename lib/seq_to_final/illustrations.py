"""Drawings of the shift building blocks for the illustration figures (Figs 2-6), made by our own shift code
(`lib.seq_to_final.shifts`, `lib.seq_to_final.sampler`) on embedded images; no torch.

- `draw_figure02`: corruption, rotation and recolouring applied 0-4 times to two photos (scikit-image's
  bundled cat and rocket, centre-cropped and resized to 32x32 as CIFAR-like images), laid out as the
  official `create_same_image_visual.py` (6 rows x 5 columns);
- `draw_subpopulation_order`: Figs 3-4, which CIFAR-100 fine class enters at which step, from
  `shifts.SUBPOPULATION_ORDER`, beside the images per fine class that each step holds under the text's
  proportions and under the official code's counting;
- `draw_sequence_examples`: Figs 5-6, one image per label class and step of a sequence (the first training
  image with that label, as the official `visualize_images`), on the digits stand-in for CIFAR-10;
- `draw_faces_decades`: the Portraits stand-in of Table 13 and Fig. 15 (`lib.seq_to_final.faces`), laid out
  as Fig. 7 (one row per decade, faces left, non-faces right).
Each returns `(figure, tidy data frame)` for `lib.plotting.save_figure`.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from . import sampler, shifts

FIGURE02_PHOTOS = ("chelsea", "rocket")  # scikit-image's bundled photos standing in for CIFAR-10's cat and plane
APPLICATIONS = 4  # the official figure: the original and 4 applications


def photo32(name: str, size: int = 32) -> np.ndarray:
    """A scikit-image bundled photo, centre-cropped to a square and resized (anti-aliased) to size x size uint8 RGB."""
    from skimage import data, transform

    photo = getattr(data, name)()
    height, width = photo.shape[:2]
    side = min(height, width)
    top, left = (height - side) // 2, (width - side) // 2
    square = photo[top:top + side, left:left + side, :3]
    small = transform.resize(square, (size, size), anti_aliasing=True, preserve_range=True)
    return np.clip(np.rint(small), 0, 255).astype(np.uint8)


def _image_axes(ax: plt.Axes, image: np.ndarray) -> None:
    ax.imshow(image, interpolation="nearest")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)


def draw_figure02(seed: int = 1007, corruption_draw: str = "same") -> tuple[plt.Figure, pd.DataFrame]:
    """Fig. 2: rows corruption / rotation / recolouring x two photos, columns the original and 1-4 applications.
    `corruption_draw`: "same" (the official figure script adds one noise draw again and again) or
    "independent" (a new draw per application, as the sequences do). The data give, per cell, the mean
    absolute change from the original, the share of black pixels and the mean of each channel."""
    originals = [photo32(name) for name in FIGURE02_PHOTOS]
    rng = np.random.RandomState(seed)
    rows: list[tuple[str, int, list[np.ndarray]]] = []
    corrupted = [shifts.repeated_corruption(image, APPLICATIONS, rng, corruption_draw) for image in originals]
    for example, images in enumerate(corrupted):
        rows.append(("Corruption", example, images))
    for example, image in enumerate(originals):
        rows.append(("Rotation", example, [shifts.rotation(image, k) for k in range(APPLICATIONS + 1)]))
    for example, image in enumerate(originals):
        rows.append(("Recolouring", example, [shifts.red_tint(image, k) for k in range(APPLICATIONS + 1)]))
    fig, axes = plt.subplots(len(rows), APPLICATIONS + 1, figsize=(5.2, 6.4))
    records = []
    for r, (block, example, images) in enumerate(rows):
        for k, image in enumerate(images):
            _image_axes(axes[r, k], image)
            change = np.abs(image.astype(int) - images[0].astype(int))
            records.append({"block": block, "example": FIGURE02_PHOTOS[example], "applications": k,
                            "mean_abs_change": change.mean(), "max_abs_change": int(change.max()),
                            "black_pixel_share": float((image.sum(axis=2) == 0).mean()),
                            "mean_red": image[..., 0].mean(), "mean_green": image[..., 1].mean(),
                            "mean_blue": image[..., 2].mean()})
        axes[r, 0].set_ylabel(f"{block}\nex. {example + 1}", fontsize=8)
    for k in range(APPLICATIONS + 1):
        axes[0, k].set_title("original" if k == 0 else f"x{k}", fontsize=8)
    fig.suptitle(f"Fig. 2 by our shift code (corruption: {corruption_draw} draw)", fontsize=9)
    fig.tight_layout()
    return fig, pd.DataFrame(records)


def _subpopulation_counts_frame(superclasses: Sequence[int]) -> pd.DataFrame:
    """Images per fine class at each step of the sss sequence (Sec. 2.3's sizes, 20 super-classes) under
    the text's proportions and under the code's counting."""
    per_class = [size // len(shifts.SUBPOPULATION_ORDER) for size in sampler.SYNTHETIC_SIZES]
    records = []
    for reading in ("paper", "code"):
        for step, (class_size, proportions) in enumerate(zip(per_class, shifts.SUBPOPULATION_PROPORTIONS)):
            counts = shifts.subpopulation_counts(class_size, proportions, reading)
            for position, count in enumerate(counts):
                for superclass in superclasses:
                    records.append({"reading": reading, "step": step, "superclass": superclass,
                                    "superclass_name": shifts.SUPERCLASS_NAMES[superclass], "position": position,
                                    "fine_class": shifts.SUBPOPULATION_ORDER[superclass][position],
                                    "entry_step": shifts.entry_step(position),
                                    "proportion": proportions[position], "train_valid_images": count,
                                    "step_class_size": class_size})
    return pd.DataFrame(records)


def draw_subpopulation_order(superclasses: Sequence[int]) -> tuple[plt.Figure, pd.DataFrame]:
    """Figs 3-4: for each super-class, the two fine classes of step 0 and the one entering at steps 1, 2, 3;
    right, the train+validation images per fine class (position 1-5) at each step, the same for every
    super-class, under the text's proportions and under the official code's counting."""
    superclasses = list(superclasses)
    fig = plt.figure(figsize=(14, 0.42 * len(superclasses) + 1.8))
    grid = fig.add_gridspec(1, 3, width_ratios=[5.2, 1, 1], wspace=0.35, left=0.01, right=0.97)
    table_ax = fig.add_subplot(grid[0])
    table_ax.axis("off")
    colours = ["#dbe9f6", "#fde0c5", "#fbc4ab", "#f4978e"]
    header = ["super-class", "step 0", "step 1", "step 2", "step 3"]
    cells, cell_colours = [], []
    for superclass in superclasses:
        names = shifts.SUBPOPULATION_ORDER[superclass]
        cells.append([f"{superclass}: {shifts.SUPERCLASS_NAMES[superclass]}", f"{names[0]}, {names[1]}", *names[2:]])
        cell_colours.append(["white", *colours])
    table = table_ax.table(cellText=cells, colLabels=header, cellColours=cell_colours, loc="center", cellLoc="left")
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    table.scale(1, 1.35)
    for (row, col), cell in table.get_celld().items():
        cell.set_width([0.34, 0.2, 0.15, 0.15, 0.15][col])
        if row == 0:
            cell.set_text_props(weight="bold")
    table_ax.set_title("Order in which fine classes enter (ours: shifts.SUBPOPULATION_ORDER)", fontsize=9)
    data = _subpopulation_counts_frame(superclasses)
    for index, reading in enumerate(("paper", "code")):
        ax = fig.add_subplot(grid[index + 1])
        first = data[(data["reading"] == reading) & (data["superclass"] == superclasses[0])]
        matrix = first.pivot(index="position", columns="step", values="train_valid_images")
        ax.imshow(matrix.to_numpy(), cmap="Blues", vmin=0, vmax=160, aspect="auto")
        for (position, step), value in np.ndenumerate(matrix.to_numpy()):
            ax.text(step, position, str(value), ha="center", va="center", fontsize=8,
                    color="white" if value > 110 else "black")
        ax.set_xticks(range(4), [f"step {s}" for s in range(4)], fontsize=7)
        ax.set_yticks(range(5), ["1st", "2nd", "3rd", "4th", "5th"], fontsize=7)
        ax.set_ylabel("fine class, in order of entry", fontsize=7)
        ax.set_title(f"images per fine class\n({'text proportions' if reading == 'paper' else 'official code'})",
                     fontsize=8)
        ax.grid(False)
    first, last = superclasses[0], superclasses[-1]
    fig.suptitle(f"Sub-population order, CIFAR-100 super-classes {first}-{last} (sss sizes 6k/4k/6k/4k)", fontsize=10)
    return fig, data


def sequence_examples(steps: Sequence[sampler.Step], pool: sampler.ImagePool,
                      labels: Sequence[int]) -> tuple[list[list[np.ndarray]], pd.DataFrame]:
    """Per step, the first training image carrying each of `labels` (its label after the step's flips), as
    the official `visualize_images`; with the pool label (the digit drawn) and the step's shift."""
    grid, records = [], []
    for step in steps:
        images, step_labels = step.splits["train"]
        row = []
        for label in labels:
            where = int(np.flatnonzero(np.asarray(step_labels) == label)[0])
            row.append(images[where])
            records.append({"step": step.index, "shift": " + ".join(step.shift.entries) or "source",
                            "label": label, "pool_index": int(step.pool_indices["train"][where]),
                            "pool_label": int(pool.train_labels[step.pool_indices["train"][where]]),
                            "noise_draws": step.shift.n_noise,
                            "rotation_degrees": step.shift.rotation_degrees[label] if step.shift.rotation_degrees else 0.0,
                            "red_tint": step.shift.recolouring[label][0] if step.shift.recolouring else 0,
                            "flips": len(step.shift.flips), "mean_red": float(images[where][..., 0].mean()),
                            "black_pixel_share": float((images[where].sum(axis=2) == 0).mean())})
        grid.append(row)
    return grid, pd.DataFrame(records)


def draw_sequence_examples(name: str, seed: int = 1007, sizes: Sequence[int] = (300, 200, 300, 200),
                           test_size: int = 100) -> tuple[plt.Figure, pd.DataFrame]:
    """Figs 5-6: sequence `name` (e.g. "CLR", "TTT") built on the digits stand-in for CIFAR-10 (32x32 RGB),
    one image per label (columns) and step (rows); the label above each image is the step's label, the
    small number the digit actually drawn."""
    pool = sampler.digits_pool()
    steps = sampler.synthetic_sequence(pool, name, sizes=sizes, test_size=test_size, seed=seed)
    labels = list(range(pool.num_classes))
    grid, data = sequence_examples(steps, pool, labels)
    fig, axes = plt.subplots(len(steps), len(labels), figsize=(0.78 * len(labels) + 1.2, 0.9 * len(steps) + 0.6))
    for r, (step, row) in enumerate(zip(steps, grid)):
        for c, image in enumerate(row):
            _image_axes(axes[r, c], image)
            digit = data[(data["step"] == step.index) & (data["label"] == labels[c])]["pool_label"].iloc[0]
            axes[r, c].text(1, 30, str(digit), color="yellow", fontsize=6, va="bottom")
        entries = step.shift.entries
        axes[r, 0].set_ylabel(f"step {step.index}\n{entries[-1].replace('_', ' ') if entries else 'source'}",
                              fontsize=7)
    for c, label in enumerate(labels):
        axes[0, c].set_title(f"label {label}", fontsize=7)
    fig.suptitle(f"{name} sequence by our shift code on the digits (yellow: the digit drawn)", fontsize=9)
    fig.tight_layout()
    return fig, data


def draw_faces_decades(image_size: int = 16, per_class: int = 3) -> tuple[plt.Figure, pd.DataFrame]:
    """The Portraits stand-in (`lib.seq_to_final.faces`) laid out as Fig. 7: one row per "decade", the same
    `per_class` faces (left) and non-faces (right) of the pool in each decade's style, so that only the drift
    changes down a column; with each step's style and the shown images' mean and standard deviation."""
    from .. import published
    from .faces import FACES_CLASSES, faces_pool, style_at

    pool = faces_pool(image_size)
    decades = list(published.load("seq_to_final", "table04")["time_period"])
    chosen = [int(i) for label in (1, 0) for i in np.flatnonzero(pool.train_labels == label)[:per_class]]
    final = len(decades) - 1
    fig, axes = plt.subplots(len(decades), len(chosen), figsize=(0.8 * len(chosen) + 1.4, 0.8 * len(decades) + 0.6))
    records = []
    for step, decade in enumerate(decades):
        style = style_at(step, final)
        images = style.apply(pool.train_images[chosen])
        for column, (index, image) in enumerate(zip(chosen, images)):
            _image_axes(axes[step, column], image)
            records.append({"step": step, "decade": decade, "column": column, "pool_index": index,
                            "label": FACES_CLASSES[pool.train_labels[index]], "tone": style.tone,
                            "contrast": style.contrast, "blur": style.blur, "mean": float(image.mean()),
                            "std": float(image.std())})
        axes[step, 0].set_ylabel(f"step {step}\n{decade.split(' ')[0]}", fontsize=7)
    for column, index in enumerate(chosen):
        axes[0, column].set_title(FACES_CLASSES[pool.train_labels[index]], fontsize=7)
    fig.suptitle(f"Portraits stand-in: lfw_subset at {image_size} px, one style per decade", fontsize=9)
    fig.tight_layout()
    return fig, pd.DataFrame(records)
