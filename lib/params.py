"""Notebook parameters: read the typed `parameters` cell, validate a params file against it.

Every notebook declares its parameters with type annotations in the cell tagged `parameters`:

    tier: str = "tiny"
    seeds: list[int] = [0, 1]

A params file (`params/<tier>/<paper>/<artefact>.yaml`) holds only what differs from the tier's
defaults for that paper (`params/<tier>/<paper>/defaults.yaml`: output folder, results store,
settings files). Together they must give every declared name, no other name, each with a value of
the declared type. Anything else stops the run before any compute, with the file, the key and what
was expected.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import yaml

from .paths import resolve


DEFAULTS_FILE = "defaults.yaml"


class ParamsError(ValueError):
    """A params file that does not match its notebook's declared parameters."""


@dataclass(frozen=True)
class Parameter:
    """One declared notebook parameter: its name, annotation text and default value."""

    name: str
    annotation: str
    default: Any


_SCALARS: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "float": (float, int),
    "str": (str,),
    "bool": (bool,),
}


def declared_parameters(notebook: str | Path) -> dict[str, Parameter]:
    """The annotated assignments of the notebook's `parameters` cell, in order."""
    import jupytext  # here, not at the top: notebooks import this module, and jupytext takes a second to import

    nb = jupytext.read(notebook)
    cells = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(cells) != 1:
        raise ParamsError(f"{notebook}: expected exactly one cell tagged 'parameters', found {len(cells)}")
    declared: dict[str, Parameter] = {}
    for node in ast.parse(cells[0].source).body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value):
            raise ParamsError(
                f"{notebook}: the parameters cell may only hold typed assignments like `seed: int = 0`, "
                f"found: {ast.unparse(node)}"
            )
        annotation = ast.unparse(node.annotation)
        _check_supported(notebook, node.target.id, annotation)
        declared[node.target.id] = Parameter(node.target.id, annotation, ast.literal_eval(node.value))
    return declared


def _check_supported(source: str | Path, name: str, annotation: str) -> None:
    inner = annotation[5:-1] if annotation.startswith("list[") else annotation
    if inner not in _SCALARS and annotation != "dict":
        raise ParamsError(
            f"{source}: parameter '{name}' has annotation '{annotation}'; supported are "
            f"{sorted(_SCALARS)}, list[<one of those>] and dict"
        )


def matches(value: Any, annotation: str) -> bool:
    """Whether `value` is of the type an annotation text names (an int passes as a float, a bool as nothing else)."""
    if annotation == "dict":
        return isinstance(value, dict)
    if annotation.startswith("list["):
        return isinstance(value, list) and all(matches(v, annotation[5:-1]) for v in value)
    if isinstance(value, bool) and annotation != "bool":
        return False  # YAML `yes`/`true` must not pass as an int or a float
    return isinstance(value, _SCALARS[annotation])


def read_params_file(path: str | Path) -> dict[str, Any]:
    """The mapping in a YAML params file (an empty file is an empty mapping); a relative path is
    read from the repository root, whatever the working directory."""
    path = resolve(path)
    if not path.is_file():
        raise ParamsError(f"params file not found: {path}")
    content = yaml.safe_load(path.read_text()) or {}
    if not isinstance(content, dict):
        raise ParamsError(f"{path}: expected a mapping of parameter names to values, got {type(content).__name__}")
    return content


def validate(values: dict[str, Any], declared: dict[str, Parameter], source: str | Path, declarer: str = "the notebook",
             complete: bool = True) -> dict[str, Any]:
    """Check names and types of `values` against `declared` (and, if `complete`, that every declared
    name is set); return the values unchanged.

    Raises ParamsError naming `source`, the offending key and what was expected.
    """
    unknown = sorted(set(values) - set(declared))
    if unknown:
        raise ParamsError(
            f"{source}: unknown parameter(s) {unknown}; {declarer} declares {sorted(declared)}"
        )
    missing = [name for name in declared if name not in values]
    if missing and complete:
        raise ParamsError(f"{source}: missing parameter(s) {missing}; every declared parameter must be set")
    for name, param in declared.items():
        if name in values and not matches(values[name], param.annotation):
            raise ParamsError(
                f"{source}: parameter '{name}' must be {param.annotation}, "
                f"got {values[name]!r} ({type(values[name]).__name__})"
            )
    return values


def read_settings(path: str | Path, annotations: dict[str, str]) -> dict[str, Any]:
    """An experiment's settings file (`params/<tier>/<paper>/<experiment>.yaml`), checked like a
    params file: exactly the names of `annotations` (name -> annotation text), each of its type."""
    declared = {name: Parameter(name, annotation, None) for name, annotation in annotations.items()}
    return validate(read_params_file(path), declared, path, declarer="the settings schema")


class SettingsFile:
    """Base of a settings dataclass read strictly from a YAML file: `load(path)` takes exactly the
    dataclass's fields, each of its annotated type, then runs the subclass's `validate(path)`."""

    @classmethod
    def load(cls, path: str | Path):
        """Read and validate a settings file: unknown, missing or mistyped keys and unknown names stop here."""
        path = resolve(path)
        settings = cls(**read_settings(path, {f.name: f.type for f in fields(cls)}))
        settings.validate(path)
        return settings

    def validate(self, path: Path) -> None:
        """Checks beyond the types (names against the registries ...); none by default."""


def tier_of(params_file: str | Path) -> str:
    """The tier of a params or settings file `params/<tier>/<paper>/<name>.yaml`."""
    return resolve(params_file).parent.parent.name


def tier_defaults(params_file: str | Path) -> dict[str, Any]:
    """The defaults beside a params file (`params/<tier>/<paper>/defaults.yaml`), empty if there are none."""
    path = resolve(params_file).parent / DEFAULTS_FILE
    return read_params_file(path) if path.is_file() else {}


def load_for_notebook(params_file: str | Path, notebook: str | Path) -> dict[str, Any]:
    """The values a notebook runs with: the tier's defaults for the names it declares, overridden
    by `params_file` (which holds only what differs), validated against its `parameters` cell."""
    declared = declared_parameters(notebook)
    own = read_params_file(params_file)
    validate(own, declared, params_file, complete=False)
    values = {k: v for k, v in tier_defaults(params_file).items() if k in declared} | own
    return validate(values, declared, f"{params_file} (with {DEFAULTS_FILE} beside it)")


def check_defaults(params_dir: str | Path, notebooks: list[str | Path]) -> None:
    """Every key of `<params_dir>/defaults.yaml` is declared by at least one of `notebooks` (a typo
    would otherwise never reach a notebook)."""
    path = resolve(params_dir) / DEFAULTS_FILE
    if not path.is_file():
        return
    declared = set().union(*(declared_parameters(n) for n in notebooks)) if notebooks else set()
    unknown = sorted(set(read_params_file(path)) - declared)
    if unknown:
        raise ParamsError(f"{path}: unknown parameter(s) {unknown}; the notebooks of this folder declare {sorted(declared)}")
