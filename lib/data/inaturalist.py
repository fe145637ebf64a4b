"""iNaturalist 2021 mini: the species folders of `train_mini/` and `val/`, labelled at family, genus or species level.

Each of the 10,000 category folders is named `<id>_<kingdom>_<phylum>_<class>_<order>_<family>_<genus>_<epithet>`
(e.g. `00000_Animalia_Annelida_Clitellata_Haplotaxida_Lumbricidae_Lumbricus_terrestris`); the
targets are read from these names. Families and genera are keyed by their bare name, as torchvision's
INaturalist (which the paper used) keys them; species by the binomial `<genus> <epithet>`.

ssl_protocols (App. D) uses all categories for the family target (1,103 families) and two subsets
of 1,103 classes for the genus and species targets. `subset` selects them:
- `all`: every category.
- `ssl_protocols_code`: the rule as released (datasets/inat_subset_creation/inat_create_target_subsets.py
  in manuelknott/ssl_eval_protocols): the 265 Chordata families with the most species; for `genus`,
  ONE species per genus of those families (the loader keeps only the images of the selected category
  ids); for `species`, the 277 genera of those families with the most species, then one category per
  species epithet (the epithet alone, so species of different genera that share an epithet collapse).
- `ssl_protocols_text`: the rule as the paper's text states it: the 256 Chordata families with the
  most species and all species of their genera; for `species`, all species of the 277 genera with
  the most species.
Ties in the rankings are broken by name and "first" means the lowest category id; the released
script broke ties in pandas' sort order and took the first row of its own folder listing, so the
exact subsets (and their class counts) may differ from the paper's: see lib/registry/DATASETS.md.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .folders import FolderImages, is_image
from .labelled import DatasetMissingError

LEVELS = ("kingdom", "phylum", "class", "order", "family", "genus", "epithet")
TARGETS = ("family", "genus", "species")
SUBSETS = ("all", "ssl_protocols_code", "ssl_protocols_text")
SPLIT_FOLDERS = {"train": "train_mini", "val": "val"}
SUBSET_KINGDOM, SUBSET_PHYLUM = "Animalia", "Chordata"
SUBSET_FAMILIES = {"ssl_protocols_code": 265, "ssl_protocols_text": 256}
SUBSET_GENERA = 277


@dataclass(frozen=True)
class Category:
    """One species folder and its taxonomy."""

    id: int
    folder: str
    taxonomy: tuple[str, ...]  # the seven names of LEVELS

    def taxon(self, level: str) -> str:
        """The name at `level` ('species' gives the binomial)."""
        if level == "species":
            return f"{self.taxon('genus')} {self.taxon('epithet')}"
        return self.taxonomy[LEVELS.index(level)]


def parse_category(folder: str) -> Category:
    """A category from its folder name (a clear error for names outside the 2021 layout)."""
    pieces = folder.split("_")
    if len(pieces) != len(LEVELS) + 1 or not pieces[0].isdigit():
        raise ValueError(f"{folder!r} is not an iNaturalist 2021 category folder (<id>_<kingdom>_..._<genus>_<epithet>)")
    return Category(int(pieces[0]), folder, tuple(pieces[1:]))


def _most_common(names: Iterable[str], count: int) -> set[str]:
    """The `count` names that occur most often; ties broken by name."""
    ranked = sorted(Counter(names).items(), key=lambda item: (-item[1], item[0]))
    return {name for name, _ in ranked[:count]}


def _first_per(categories: list[Category], level: str) -> list[Category]:
    """The lowest-id category of each distinct name at `level`."""
    first: dict[str, Category] = {}
    for c in sorted(categories, key=lambda c: c.id):
        first.setdefault(c.taxon(level), c)
    return sorted(first.values(), key=lambda c: c.id)


def ssl_protocols_subset(categories: list[Category], target: str, subset: str) -> list[Category]:
    """The categories of ssl_protocols' genus or species dataset (module docstring: the two readings)."""
    if target not in ("genus", "species") or subset not in SUBSET_FAMILIES:
        raise ValueError(f"the ssl_protocols subsets are defined for genus and species, not {target!r} / {subset!r}")
    chordata = [c for c in categories if (c.taxon("kingdom"), c.taxon("phylum")) == (SUBSET_KINGDOM, SUBSET_PHYLUM)]
    families = _most_common((c.taxon("family") for c in chordata), SUBSET_FAMILIES[subset])
    selected = [c for c in chordata if c.taxon("family") in families]
    as_released = subset == "ssl_protocols_code"
    if target == "genus":
        return _first_per(selected, "genus") if as_released else selected
    genera = _most_common((c.taxon("genus") for c in selected), SUBSET_GENERA)
    selected = [c for c in selected if c.taxon("genus") in genera]
    return _first_per(selected, "epithet") if as_released else selected


def inat2021(
    root: Path, split: str, transform: Callable | None = None, target: str = "family", subset: str = "all"
) -> FolderImages:
    """The `train` (train_mini/) or `val` (val/) images labelled at `target` level, over `subset`."""
    if target not in TARGETS or subset not in SUBSETS:
        raise ValueError(f"target must be one of {TARGETS} and subset one of {SUBSETS}, not {target!r} / {subset!r}")
    folder = root / SPLIT_FOLDERS[split]
    if not folder.is_dir():
        raise DatasetMissingError(
            f"iNaturalist 2021 split folder not found at {folder} (torchvision names it "
            f"2021_{'train_mini' if split == 'train' else 'valid'}: rename it)"
        )
    categories = sorted((parse_category(e.name) for e in os.scandir(folder) if e.is_dir()), key=lambda c: c.id)
    if subset != "all":
        categories = ssl_protocols_subset(categories, target, subset)
    class_names = sorted({c.taxon(target) for c in categories})
    index = {name: i for i, name in enumerate(class_names)}
    samples = [
        (folder / c.folder / name, index[c.taxon(target)])
        for c in categories
        for name in sorted(os.listdir(folder / c.folder))
        if is_image(name) and not name.startswith(".")
    ]
    return FolderImages(samples, class_names, list(range(len(class_names))), "own", transform)
