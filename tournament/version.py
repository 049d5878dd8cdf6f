"""Which release runs: one place for ``tournament --version``, ``/healthz``, ``/readyz`` and
the pages' footer (operator F12), so that an operator upgrading host after host can tell
each host's release.

>>> version() == describe().split(" ")[0]
True

The version is the installed distribution's (``pyproject.toml``, read through
:mod:`importlib.metadata`); run from a git checkout, the commit is added, read from the
files under ``.git`` (no ``git`` process: the service's user may not run git on a
checkout that is root's, and an image may have no git at all).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

DISTRIBUTION = "schnapsen-tournament"
#: When the package runs without its metadata (copied, not installed).
UNKNOWN = "0+unknown"

_PACKAGE_ROOT = Path(__file__).resolve().parent.parent
_SHA = re.compile(r"^[0-9a-f]{40}$")


@functools.cache
def version() -> str:
    """The installed version, e.g. ``0.1.0``."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(DISTRIBUTION)
    except PackageNotFoundError:
        return UNKNOWN


@functools.cache
def commit(root: Path = _PACKAGE_ROOT) -> str | None:
    """The checkout's commit (12 hex digits) when the package runs from a git checkout
    at ``root``; None for an installed wheel or anything unreadable."""
    try:
        git = root / ".git"
        if git.is_file():  # a worktree: "gitdir: /path/to/main/.git/worktrees/name"
            git = Path(git.read_text().split(":", 1)[1].strip())
        head = (git / "HEAD").read_text().strip()
        if not head.startswith("ref:"):
            return head[:12] if _SHA.match(head) else None
        ref = head[4:].strip()
        common = git / "commondir"
        shared = (git / common.read_text().strip()).resolve() if common.is_file() else git
        for folder in (git, shared):
            loose = folder / ref
            if loose.is_file():
                sha = loose.read_text().strip()
                return sha[:12] if _SHA.match(sha) else None
        for line in (shared / "packed-refs").read_text().splitlines():
            sha, _, name = line.partition(" ")
            if name == ref and _SHA.match(sha):
                return sha[:12]
    except (OSError, IndexError, UnicodeDecodeError):
        return None
    return None


def describe() -> str:
    """``0.1.0`` from an installed wheel, ``0.1.0 (commit 1a2b3c4d5e6f)`` from a checkout."""
    found = commit()
    return f"{version()} (commit {found})" if found else version()
