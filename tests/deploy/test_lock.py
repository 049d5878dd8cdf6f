"""The lock (operator F7): exact versions with hashes for every dependency pyproject
declares, used by ./dev, CI (through ./dev) and the image, valid for Python 3.11-3.13."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version as installed

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.deploy.files import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
_PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^ ;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def pins(name: str) -> list[tuple[str, str, Marker | None, int]]:
    """(name, version, marker, number of hashes) of each pin in requirements/NAME.txt."""
    found = []
    lines = (REPO / "requirements" / name).read_text().splitlines()
    for number, line in enumerate(lines):
        match = _PIN.match(line)
        if match:
            hashes = 0
            for after in lines[number + 1 :]:
                if not after.strip().startswith("--hash=sha256:"):
                    break
                hashes += 1
            marker = Marker(match[3]) if match[3] else None
            found.append((canonicalize_name(match[1]), match[2], marker, hashes))
    return found


def here(lock: str) -> dict[str, str]:
    """The lock's pins that apply to this interpreter: name -> version."""
    return {
        name: version
        for name, version, marker, _ in pins(lock)
        if marker is None or marker.evaluate()
    }


def test_every_pin_is_exact_and_carries_its_hashes() -> None:
    for lock in ("run.txt", "dev.txt"):
        found = pins(lock)
        assert len(found) > 50, lock
        for name, _, _, hashes in found:
            assert hashes >= 1, f"{lock}: {name} has no --hash"


def test_each_declared_dependency_is_pinned_within_pyprojects_range() -> None:
    declared = {"run.txt": PROJECT["dependencies"]}
    declared["dev.txt"] = PROJECT["dependencies"] + PROJECT["optional-dependencies"]["dev"]
    for lock, requirements in declared.items():
        pinned = here(lock)
        for text in requirements:
            requirement = Requirement(text)
            name = canonicalize_name(requirement.name)
            assert name in pinned, f"{name} is not in requirements/{lock}: ./dev lock"
            assert requirement.specifier.contains(pinned[name], prereleases=True), (
                f"requirements/{lock} pins {name}=={pinned[name]}, outside {text!r}: ./dev lock"
            )


def test_the_run_lock_is_the_dev_locks_service_part() -> None:
    # The image runs the versions the tests ran against.
    dev = here("dev.txt")
    for name, version in here("run.txt").items():
        assert dev.get(name) == version, name


def test_this_checkout_runs_the_locked_versions() -> None:
    # ./dev installs from requirements/dev.txt: what runs here is what is locked.
    for name, version in here("dev.txt").items():
        assert installed(name) == version, name


def test_zero_x_dependencies_have_an_upper_bound() -> None:
    for text in PROJECT["dependencies"] + PROJECT["optional-dependencies"]["dev"]:
        requirement = Requirement(text)
        lower = [spec for spec in requirement.specifier if spec.operator == ">="]
        if lower and lower[0].version.startswith("0."):
            assert any(spec.operator == "<" for spec in requirement.specifier), text


def test_one_universal_lock_for_the_supported_pythons() -> None:
    assert PROJECT["requires-python"] == ">=3.11"
    for minor in ("3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {minor}" in PROJECT["classifiers"]
    for lock in ("run.txt", "dev.txt"):
        header = (REPO / "requirements" / lock).read_text().splitlines()[1]
        assert "--universal --python-version 3.11 --generate-hashes" in header, lock


def test_dev_and_the_image_install_from_the_lock_and_the_project_without_deps() -> None:
    dev = (REPO / "dev").read_text()
    assert "pip install --quiet --require-hashes -r requirements/dev.txt" in dev
    assert "pip install --quiet --no-deps --no-build-isolation -e ." in dev
    # a changed lock reinstalls: the stamp covers it
    assert "cat pyproject.toml requirements/dev.txt | sha256sum" in dev
    # CI installs through ./dev too: the README's test command, then the slow set in the
    # .venv that command set up from the lock.
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert "./dev test" in ci
    assert "exec .venv/bin/python -m pytest -n auto -m slow" in ci


def test_the_licence_is_stated_and_shipped() -> None:
    assert PROJECT["license"] == "Apache-2.0"
    assert PROJECT["license-files"] == ["LICENSE"]
    assert "Apache License" in (REPO / "LICENSE").read_text()
    assert "## Licence" in (REPO / "README.md").read_text()
