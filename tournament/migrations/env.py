"""Alembic environment: the event store's and the accounts' tables, on DATABASE_URL or a
given connection.

``tournament.eventstore.migrate`` passes a live connection in
``config.attributes["connection"]`` (tests, ``tournament db upgrade``); the ``alembic``
command line connects to ``tournament.config.database_url()``.
"""

from __future__ import annotations

from typing import Any

from alembic import context

from tournament.accounts.tables import metadata as accounts_metadata
from tournament.db import make_engine
from tournament.eventstore.schema import metadata
from tournament.projections.tables import metadata as projections_metadata

config = context.config


def include_object(
    obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any
) -> bool:
    # Other parts of the service may keep their own tables in the same database: only
    # the tables of ``metadata`` are this history's business (``alembic check`` too).
    return not (type_ == "table" and reflected and compare_to is None)


def run(connection: Any) -> None:
    context.configure(
        connection=connection,
        # The event store's tables, the accounts' (tournament/accounts/tables.py) and the
        # projections' (tournament/projections/tables.py).
        target_metadata=[metadata, accounts_metadata, projections_metadata],
        include_object=include_object,
        # SQLite cannot ALTER most things; batch mode recreates the table instead, which
        # drops its triggers: every migration that batch-alters an append-only table
        # must call schema.install_append_only_guards afterwards.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported; run against a database")
if connection is not None:
    run(connection)
else:
    engine = make_engine(config.get_main_option("sqlalchemy.url") or None, kind="migrate")
    with engine.connect() as conn:
        run(conn)
        conn.commit()
    engine.dispose()
