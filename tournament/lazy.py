"""Names a package offers but imports only when first used (PEP 562): the CLI starts
without loading what a command does not need (tests/cli/test_startup.py, bench/cli.py)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(module: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of module ``module``: a name of ``homes`` (name -> the module
    that defines it) is imported when first asked for, then kept as the module's own."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(sys.modules[module], name, value)  # looked up once
        return value

    return __getattr__
