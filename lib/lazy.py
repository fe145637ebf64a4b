"""A paper package's hooks for the runner, imported only when called.

`SETTINGS` (notebook parameter naming a settings file -> the strict loader that validates it) and
`precompute(params, artefacts)` live in modules that import torch; `import lib.<paper>` must not
(published-number notebooks import no torch), so a package names them through `lazy`.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any


def lazy(module: str, name: str) -> Callable[..., Any]:
    """`module.name` (a dotted name reaches into a class, e.g. `StudySettings.load`), imported at the first call."""
    def call(*args: Any, **kwargs: Any) -> Any:
        target = functools.reduce(getattr, name.split("."), importlib.import_module(module))
        return target(*args, **kwargs)

    call.__doc__ = f"`{module}.{name}` (imported when called)."
    return call
