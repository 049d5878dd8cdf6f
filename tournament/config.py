"""Where the service keeps its data: ``DATABASE_URL``, else SQLite in the instance folder.

>>> database_url({"DATABASE_URL": "postgresql://app@db/schnapsen"})
'postgresql+psycopg://app@db/schnapsen'
>>> database_url({"SCHNAPSEN_INSTANCE": "/srv/club"})
'sqlite:////srv/club/tournament.sqlite3'

A plain file path is the most natural thing to type, so it is read as a SQLite file
(relative to the current folder), never as a URL SQLAlchemy cannot parse:

>>> database_url({"DATABASE_URL": "/srv/club/club.sqlite3"})
'sqlite:////srv/club/club.sqlite3'
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
#: The instance folder (Flask's convention): ``instance/`` in the checkout beside the
#: ``tournament`` package; for an installed wheel, ``<prefix>/var/schnapsen-instance``
#: (the environment's, not site-packages).
DEFAULT_INSTANCE = (
    _ROOT / "instance"
    if (_ROOT / "pyproject.toml").is_file()
    else Path(sys.prefix) / "var" / "schnapsen-instance"
)
SQLITE_FILE = "tournament.sqlite3"


def instance_path(environ: Mapping[str, str] | None = None) -> Path:
    """The instance folder: ``SCHNAPSEN_INSTANCE`` or ``instance/`` in the checkout."""
    env = os.environ if environ is None else environ
    return Path(env.get("SCHNAPSEN_INSTANCE") or DEFAULT_INSTANCE)


def database_url(environ: Mapping[str, str] | None = None) -> str:
    """The SQLAlchemy URL of the event store.

    ``postgres://`` and ``postgresql://`` (as hosting providers spell them) are read as
    psycopg 3 URLs, the only PostgreSQL driver installed. Anything without ``://`` is a
    path to a SQLite file (``club.sqlite3``, ``~/turniere/club.sqlite3``), made absolute
    so that the same store is meant whichever folder a later command runs in.
    """
    env = os.environ if environ is None else environ
    url = env.get("DATABASE_URL", "").strip()
    if not url:
        return f"sqlite:///{instance_path(env) / SQLITE_FILE}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    if "://" not in url and not url.startswith("sqlite:"):
        return f"sqlite:///{Path(url).expanduser().absolute()}"
    return url
