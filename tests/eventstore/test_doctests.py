"""Run the usage examples in the event store's docstrings (pytest's testpaths skip
tournament/)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tournament.eventstore

MODULES = [
    "tournament.config",
    "tournament.db",
    *sorted(
        m.name
        for m in pkgutil.iter_modules(tournament.eventstore.__path__, "tournament.eventstore.")
    ),
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
