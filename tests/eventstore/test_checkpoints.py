"""Projection checkpoints move in the projection's own transaction: no double apply."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from tournament.eventstore import CheckpointConflictError, NewEvent, SQLEventStore
from tournament.eventstore.checkpoints import (
    get_checkpoint,
    reset_checkpoint,
    run_projection,
    save_checkpoint,
)


class Boom(Exception):
    pass


def close(seat: int) -> NewEvent:
    return NewEvent("sample.moved", {"seat": seat, "action": "close"})


@pytest.fixture
def counts(store: SQLEventStore) -> sa.Table:
    """The projection's own table (created by the test, in the store's database)."""
    table = sa.Table(
        "test_seat_counts",
        sa.MetaData(),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
    )
    table.create(store.engine)
    with store.engine.begin() as conn:
        conn.execute(sa.insert(table), [{"seat": 0, "n": 0}, {"seat": 1, "n": 0}])
    return table


def totals(store: SQLEventStore, table: sa.Table) -> dict[int, int]:
    with store.engine.connect() as conn:
        return dict(conn.execute(sa.select(table.c.seat, table.c.n)).all())  # type: ignore[arg-type]


def test_rerun_after_a_crash_applies_each_event_once(
    store: SQLEventStore, counts: sa.Table
) -> None:
    for i in range(25):
        store.append(f"h{i % 3}", [close(i % 2)], None)
    applied: list[int] = []

    def project(conn: sa.Connection, event) -> None:
        if event.position == 17 and not applied.count(-1):
            applied.append(-1)
            raise Boom  # the worker dies halfway through the second batch
        conn.execute(
            sa.update(counts).where(counts.c.seat == event.payload["seat"]).values(n=counts.c.n + 1)
        )
        applied.append(event.position)

    with pytest.raises(Boom):
        run_projection(store, "seat-counts", project, batch_size=10)
    with store.engine.connect() as conn:
        assert get_checkpoint(conn, "seat-counts") == 10  # the failed batch rolled back
    assert totals(store, counts) == {0: 5, 1: 5}
    assert run_projection(store, "seat-counts", project, batch_size=10) == 15
    assert totals(store, counts) == {0: 13, 1: 12}
    assert run_projection(store, "seat-counts", project) == 0  # nothing new
    store.append("h9", [close(1)], None)
    assert run_projection(store, "seat-counts", project) == 1
    assert totals(store, counts) == {0: 13, 1: 13}
    reset_checkpoint(store.engine, "seat-counts")
    with store.engine.connect() as conn:
        assert get_checkpoint(conn, "seat-counts") == 0


def test_checkpoint_compare_and_set(store: SQLEventStore) -> None:
    with store.engine.begin() as conn:
        save_checkpoint(conn, "p", 0, 5)
    with pytest.raises(CheckpointConflictError), store.engine.begin() as conn:
        save_checkpoint(conn, "p", 0, 7)  # another runner already moved it to 5
    with pytest.raises(CheckpointConflictError), store.engine.begin() as conn:
        save_checkpoint(conn, "p", 3, 7)
    with pytest.raises(ValueError, match="back"), store.engine.begin() as conn:
        save_checkpoint(conn, "p", 5, 4)
    with store.engine.begin() as conn:
        save_checkpoint(conn, "p", 5, 9)
    with store.engine.connect() as conn:
        assert get_checkpoint(conn, "p") == 9
