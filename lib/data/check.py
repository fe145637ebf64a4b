"""`python -m lib check-data`: which registered datasets are present, missing or malformed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .registry import FOLDER_LAYOUTS, DatasetMissingError, DatasetSpec, open_spec, registry


@dataclass(frozen=True)
class DataCheck:
    """The state of one dataset under the data root."""

    name: str
    status: str  # present | missing | malformed
    path: str
    images: int | None
    classes: int | None
    detail: str
    source: str
    licence: str


def check_dataset(spec: DatasetSpec, root: str | Path | None = None) -> DataCheck:
    """Open every split of one dataset with its loader; compare image and class counts with the registry."""
    path = spec.path(root)

    def result(status: str, images: int | None, classes: int | None, detail: str) -> DataCheck:
        return DataCheck(spec.name, status, str(path), images, classes, detail, spec.source, spec.licence)

    if not path.is_dir():
        return result("missing", None, None, f"get it from {spec.source} and place it in <data root>/{spec.subdir}")
    unit = "class folders" if spec.layout in FOLDER_LAYOUTS else "classes"
    problems, images, class_counts = [], 0, set()
    for part in spec.parts():
        where = "/".join([spec.subdir, *map(str, part.values())])
        try:
            data = open_spec(spec, root, **part)
        except (DatasetMissingError, ValueError) as error:
            problems.append(f"{where}: {error}")
            continue
        images += len(data)
        class_counts.add(len(data.class_names))
        if len(data.class_names) != spec.n_classes:
            problems.append(f"{where} has {len(data.class_names)} {unit}, expected {spec.n_classes}")
    if spec.n_images is not None and images != spec.n_images:
        problems.append(f"{images} images, expected {spec.n_images}")
    classes = max(class_counts) if class_counts else 0
    if problems:
        shown = "; ".join(problems[:3]) + (f"; and {len(problems) - 3} more" if len(problems) > 3 else "")
        return result("malformed", images, classes, shown)
    return result("present", images, classes, "")


def check_all(paper: str | None = None, root: str | Path | None = None) -> pd.DataFrame:
    """One row per registered dataset (of `paper`, if given)."""
    specs = [s for s in registry().values() if paper is None or paper in s.papers]
    return pd.DataFrame([check_dataset(s, root).__dict__ for s in specs])
