"""``tournament.formats`` loads each format when one of its names is first used (PEP 562):
every public name is there, and is the very object its module defines, but importing the
package, or one module of it, loads no other format (entering a result draws nothing)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import tournament.formats

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", tournament.formats.__all__)
def test_every_public_name_is_its_modules_own(name: str) -> None:
    module = importlib.import_module(f"tournament.formats.{tournament.formats._LAZY[name]}")
    assert getattr(tournament.formats, name) is getattr(module, name)
    assert name in dir(tournament.formats)


def test_the_lazy_names_are_exactly_the_public_ones() -> None:
    assert sorted(tournament.formats._LAZY) == sorted(tournament.formats.__all__)


def test_a_name_the_package_does_not_have_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'swiss_rounds'"):
        tournament.formats.swiss_rounds  # noqa: B018


def _formats_loaded(code: str) -> list[str]:
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, check=True
    )
    return [m for m in json.loads(done.stdout) if m.startswith("tournament.formats.")]


def test_importing_the_package_loads_no_format() -> None:
    assert _formats_loaded("import tournament.formats") == []


def test_one_name_loads_its_module_and_what_that_needs_only() -> None:
    # FormatError's messages come from the formats' catalog of codes (issue 11).
    assert _formats_loaded("from tournament.formats import FormatError") == [
        "tournament.formats.messages",
        "tournament.formats.model",
    ]
