"""Run the usage examples in the domain's docstrings (pytest's testpaths skip tournament/)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tournament.domain

#: Every module of the domain's rooms (model/, standings/, commands/, views/, words/) too.
MODULES = sorted(
    m.name for m in pkgutil.walk_packages(tournament.domain.__path__, "tournament.domain.")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
