"""Which database errors are an outage (503 + Retry-After) and which a bug (500): the
drivers' own exception classes, as they raise them (attack F7, F10)."""

from __future__ import annotations

import sqlite3

import psycopg
import pytest
import sqlalchemy as sa

from tournament.eventstore.failures import outage


@pytest.mark.parametrize(
    ("error", "cause"),
    [
        (psycopg.errors.DiskFull('could not extend file "base/5/16384"'), "disk full"),
        (psycopg.errors.AdminShutdown("terminating connection"), "unreachable"),
        (psycopg.errors.CannotConnectNow("the database system is starting up"), "unreachable"),
        (psycopg.errors.TooManyConnections("too many clients"), "no connection free"),
        (psycopg.OperationalError("FATAL:  sorry, too many clients already"), "no connection free"),
        (psycopg.OperationalError("the connection is lost"), "unreachable"),
        (psycopg.errors.ReadOnlySqlTransaction("read-only transaction"), "read-only"),
        (sqlite3.OperationalError("database or disk is full"), "disk full"),
        (sqlite3.OperationalError("disk I/O error"), "disk error"),
        (sa.exc.TimeoutError("QueuePool limit reached"), "no connection free"),
    ],
)
def test_an_outage_is_named_by_its_cause(error: BaseException, cause: str) -> None:
    assert outage(error) == cause
    wrapped = sa.exc.OperationalError("SELECT 1", {}, error)
    if not isinstance(error, sa.exc.SQLAlchemyError):
        assert outage(wrapped) == cause  # as SQLAlchemy raises it


@pytest.mark.parametrize(
    "error",
    [
        psycopg.errors.UndefinedTable('relation "es_events" does not exist'),
        psycopg.errors.SyntaxError("syntax error"),
        sqlite3.OperationalError("no such table: es_events"),
        ValueError("not a database error"),
    ],
)
def test_a_bug_is_no_outage(error: BaseException) -> None:
    assert outage(error) is None
