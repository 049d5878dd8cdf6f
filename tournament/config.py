"""Where the service keeps its data: ``DATABASE_URL``, else SQLite in the instance folder.

>>> database_url({"DATABASE_URL": "postgresql://app@db/schnapsen"})
'postgresql+psycopg://app@db/schnapsen'
>>> database_url({"SCHNAPSEN_INSTANCE": "/srv/club"})
'sqlite:////srv/club/tournament.sqlite3'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

#: The instance folder (Flask's convention): ``instance/`` beside the ``tournament`` package.
DEFAULT_INSTANCE = Path(__file__).resolve().parent.parent / "instance"
SQLITE_FILE = "tournament.sqlite3"


def instance_path(environ: Mapping[str, str] | None = None) -> Path:
    """The instance folder: ``SCHNAPSEN_INSTANCE`` or ``instance/`` in the checkout."""
    env = os.environ if environ is None else environ
    return Path(env.get("SCHNAPSEN_INSTANCE") or DEFAULT_INSTANCE)


def database_url(environ: Mapping[str, str] | None = None) -> str:
    """The SQLAlchemy URL of the event store.

    ``postgres://`` and ``postgresql://`` (as hosting providers spell them) are read as
    psycopg 3 URLs, the only PostgreSQL driver installed.
    """
    env = os.environ if environ is None else environ
    url = env.get("DATABASE_URL", "").strip()
    if not url:
        return f"sqlite:///{instance_path(env) / SQLITE_FILE}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url
