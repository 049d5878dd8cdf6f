"""The usage examples in the format modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tournament.formats

MODULES = [m.name for m in pkgutil.iter_modules(tournament.formats.__path__)]


@pytest.mark.parametrize("name", ["__init__", *MODULES])
def test_docstring_examples(name: str) -> None:
    full = "tournament.formats" + ("" if name == "__init__" else f".{name}")
    result = doctest.testmod(importlib.import_module(full))
    assert result.failed == 0
