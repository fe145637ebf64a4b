"""Portraits (Ginosar et al. 2015): the yearbook faces of the archive
faces_aligned_small_mirrored_co_aligned_cropped_cleaned, folders `M/` and `F/` whose file names start with the
year, opened one decade at a time (split `1930s` .. `1990s`, and `2000s` for 2000-2013) as seq_to_final's
`create_yearbook_folders.sh` groups them (files `193*` -> time0, ..., `199*` -> time6, `2*` -> time7).
Labels M = 0, F = 1 (the script's `time<i>/0` and `time<i>/1`); items come in `ImageFolder`'s order over
those folders: the men's files sorted by name, then the women's."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from .folders import FolderImages, is_image
from .labelled import DatasetMissingError

PORTRAITS_DECADES: dict[str, str] = {  # split -> file-name prefix
    **{f"19{d}0s": f"19{d}" for d in range(3, 10)},
    "2000s": "2",
}
PORTRAITS_CLASSES = ("M", "F")  # label = position


def portraits(root: Path, split: str, transform: Callable | None = None) -> FolderImages:
    """One decade of the archive's faces, labelled M = 0, F = 1."""
    samples = []
    for label, name in enumerate(PORTRAITS_CLASSES):
        folder = root / name
        if not folder.is_dir():
            raise DatasetMissingError(f"Portraits folder {folder} not found (the archive unpacks to M/ and F/)")
        files = sorted((p for p in folder.iterdir() if p.name.startswith(PORTRAITS_DECADES[split]) and is_image(p.name)),
                       key=lambda p: p.name)
        samples += [(path, label) for path in files]
    return FolderImages(samples, list(PORTRAITS_CLASSES), [0, 1], "own", transform)
