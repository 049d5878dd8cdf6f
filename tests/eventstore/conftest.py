"""The store's own tests: on SQLite and PostgreSQL (fixtures in tests/conftest.py), with
event types of their own (``sample``), since the store knows no game."""

from __future__ import annotations

from tests.eventstore import sample  # noqa: F401  (registers the sample event types)

#: A script the tests run in processes of its own (it imports ``sample`` beside it).
collect_ignore = ["_worker.py"]
