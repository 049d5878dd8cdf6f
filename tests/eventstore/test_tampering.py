"""Trial 2's twenty tampering cases (F2) against the sealed log, on SQLite and PostgreSQL.

The club and the attacker are in tests/eventstore/tampering.py: the log has 17 events in
two streams, sealed at positions 10, 12 and 17, and the attacker leaves the append-only
guards looking untouched (SQLite: triggers dropped and put back; PostgreSQL:
``session_replication_role = replica``), so that only the chains and the seals can tell.
Every case that touches a sealed event is found, and the first broken link names the
event (or the position of the one that is gone). The cases that touch nothing sealed, and
the idempotency keys, which are no evidence, are in test_tampering_unsealed.py.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable

import pytest

from tests.eventstore.tampering import (  # noqa: F401  (the fixtures club and _seal_key)
    FZ,
    Club,
    Tamper,
    backdate,
    club_fixture,
    delete_from,
    edit_points,
    recomputed,
    seal_key_fixture,
)


@dataclasses.dataclass(frozen=True)
class Found:
    """What verify reports first: the stream and version of the event ('' and 0: an event
    that is gone), its position, words of the problem, and whether the seal covering that
    position finds it (else the stream's own chain finds it first); and where the chain
    finds it first, the position and words of the seal's own link (None: no seal sees it,
    since the stored hash, which the seal covers, was left as it was)."""

    stream: str
    version: int
    position: int
    words: str
    by_seal: bool = False
    seal_link: tuple[int, str] | None = None


def edit_actor(t: Tamper) -> None:
    t.run("UPDATE es_events SET metadata = replace(metadata, 'organiser', 'Berti') "
          "WHERE position = 11")  # fmt: skip


def edit_type(t: Tamper) -> None:
    t.run("UPDATE es_events SET type = 'result.forfeit_recorded' WHERE position = 11")


def delete_middle(t: Tamper) -> None:
    t.run("DELETE FROM es_events WHERE position = 7")


def swap_hands(t: Tamper) -> None:
    """The two hands of 1.3 (positions 15, 16; versions 13, 14) change places."""
    t.move(15, -1, -1)
    t.move(16, 15, 13)
    t.move(-1, 16, 14)


def swap_streams(t: Tamper) -> None:
    """Spring's player (14) and 1.3's first hand (15) change positions: each stream keeps
    its order, and no event's hash covers its position."""
    t.move(14, -1)
    t.move(15, 14)
    t.move(-1, 15)


def delete_renumber(t: Tamper) -> None:
    """The hand of 1.1 (11) goes; every later event moves up one; ``fz``'s versions too."""
    t.run("DELETE FROM es_events WHERE position = 11")
    t.renumber(after=11, by=-1, stream_id=FZ)


def forge_among_sealed(t: Tamper) -> None:
    """A hand of 1.3 slipped in at 16, the later events moved down one."""
    t.renumber(after=15, by=1, stream_id=FZ)
    t.forge_hand(16, version=14, winner=3, points=3)


CHANGED = "changed after seal #"
CONTENT = "hash does not match the event's content"
#: Trial 2's rows (F2) whose rewrite the attacker hides from the guards.
CASES = [
    pytest.param(edit_points, Found(FZ, 11, 11, CONTENT),
                 id="edit a hand's game points, hash left"),
    pytest.param(edit_actor, Found(FZ, 11, 11, CONTENT), id="edit actor, hash left"),
    pytest.param(backdate, Found(FZ, 11, 11, CONTENT), id="edit recorded_at, hash left"),
    pytest.param(edit_type, Found(FZ, 11, 11, CONTENT), id="edit type, hash left"),
    pytest.param(delete_middle, Found(FZ, 8, 8, "follows version 6",
                                      seal_link=(7, "sealed at position 7 is missing")),
                 id="delete a middle event"),
    pytest.param(swap_hands, Found(FZ, 13, 15, "prev_hash is not the hash of version 12",
                                   seal_link=(15, CHANGED)),
                 id="swap two hands of one stream"),
    pytest.param(recomputed(edit_points), Found(FZ, 11, 11, CHANGED, by_seal=True),
                 id="edit game points + recompute the stream's hashes"),
    pytest.param(recomputed(backdate), Found(FZ, 11, 11, CHANGED, by_seal=True),
                 id="backdate recorded_at + recompute"),
    pytest.param(recomputed(swap_hands), Found(FZ, 13, 15, CHANGED, by_seal=True),
                 id="swap two hands of one stream + recompute"),
    pytest.param(swap_streams, Found(FZ, 13, 14, CHANGED, by_seal=True),
                 id="swap global positions of two events of different streams"),
    pytest.param(recomputed(delete_renumber), Found(FZ, 11, 11, CHANGED, by_seal=True),
                 id="delete a middle result, renumber, recompute"),
    pytest.param(delete_from(17), Found("", 0, 17, "sealed at position 17 is missing", True),
                 id="delete the last 1 event of the log"),
    pytest.param(delete_from(15), Found("", 0, 15, "sealed at position 15 is missing", True),
                 id="delete the last 3 events of the log"),
    pytest.param(recomputed(forge_among_sealed), Found(FZ, 14, 16, CHANGED, by_seal=True),
                 id="INSERT a forged result among sealed ones, renumber, recompute"),
    pytest.param(delete_from(1), Found("", 0, 1, "sealed at position 1 is missing", True),
                 id="delete everything (the seals left)"),
]  # fmt: skip


@pytest.mark.parametrize(("tamper", "found"), CASES)
def test_a_rewrite_of_sealed_events_is_found_and_named(
    club: Club, tamper: Callable[[Tamper], None], found: Found
) -> None:
    """Each rewrite is reported with the guards looking in place, and the first broken
    link names the event. A seal covers the stored hashes, the chain ties each hash to its
    event's content: a content edit with its hash left is the chain's to find; where the
    chains cannot see it (hashes recomputed, positions moved, events gone from the end),
    the seal covering the event names it."""
    with club.tamper() as t:
        tamper(t)
    report = club.verify()
    assert not report.ok
    assert report.missing_guards == []
    first = report.broken[0]
    assert (first.stream_id, first.version, first.position) == (
        found.stream, found.version, found.position,
    ), report.broken  # fmt: skip
    assert found.words in first.problem
    if found.by_seal:
        assert f"seal #{club.seal_covering(found.position).seq} (" in first.problem
    elif found.seal_link is None:
        assert report.broken == [first]
    else:
        position, words = found.seal_link
        [link, *_] = [b for b in report.broken if "seal #" in b.problem]
        assert (link.position, words in link.problem) == (position, True), link


def test_a_rewrite_past_guards_that_stay_in_place_is_found_by_the_seals(club: Club) -> None:
    """Trial 2's root cause 3: on PostgreSQL ``session_replication_role = replica`` lets
    the superuser (and a role with SET on it) rewrite while every trigger stays enabled;
    on SQLite whoever can write the file drops the triggers and puts them back. The guards
    look in place; the seal over the hand finds the rewrite, and on PostgreSQL verify says
    why this connection could get past the guards (on SQLite: file permissions only)."""
    with club.tamper() as t:
        recomputed(edit_points)(t)
    report = club.verify()
    assert report.missing_guards == []
    first = report.broken[0]
    assert (first.stream_id, first.version, first.position) == (FZ, 11, 11)
    if club.kind == "postgresql":
        assert any("superuser" in reason for reason in report.bypass), report.bypass
    else:
        assert report.bypass == []


def _sqlite_guards(club: Club, *statements: str) -> None:
    conn = sqlite3.connect(club.db.url.removeprefix("sqlite:///"))
    with conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()


def _pg_guards(club: Club, *statements: str) -> None:
    engine = club.db.engine()
    with engine.begin() as conn:
        for statement in statements:
            conn.exec_driver_sql(statement)
    engine.dispose()


def test_dropped_triggers_are_missing_guards(club: Club) -> None:
    """Trial 2: triggers dropped. Nothing is rewritten yet, and the store is not ok: the
    database would no longer refuse a rewrite."""
    if club.kind == "sqlite":
        _sqlite_guards(club, "DROP TRIGGER es_events_no_update",
                       "DROP TRIGGER es_events_no_delete")  # fmt: skip
        expected = {"trigger es_events_no_update on es_events is missing",
                    "trigger es_events_no_delete on es_events is missing"}  # fmt: skip
    else:
        _pg_guards(club, "DROP TRIGGER es_events_no_update_delete ON es_events")
        expected = {"trigger es_events_no_update_delete on es_events is missing"}
    report = club.verify()
    assert not report.ok and report.broken == []
    assert {str(guard) for guard in report.missing_guards} == expected


def test_disabled_triggers_are_missing_guards(club: Club) -> None:
    """Trial 2: ``ALTER TABLE … DISABLE TRIGGER`` on PostgreSQL. SQLite cannot disable a
    trigger; its nearest is a trigger that never fires (``WHEN 0``), found as changed."""
    if club.kind == "sqlite":
        _sqlite_guards(
            club,
            "DROP TRIGGER es_seals_no_delete",
            "CREATE TRIGGER es_seals_no_delete BEFORE DELETE ON es_seals WHEN 0 "
            "BEGIN SELECT RAISE(ABORT, 'es_seals is append-only: DELETE is not allowed'); END",
        )
        expected = {"trigger es_seals_no_delete on es_seals is changed"}
    else:
        _pg_guards(club, "ALTER TABLE es_events DISABLE TRIGGER es_events_no_update_delete",
                   "ALTER TABLE es_seals DISABLE TRIGGER es_seals_no_truncate")  # fmt: skip
        expected = {"trigger es_events_no_update_delete on es_events is disabled",
                    "trigger es_seals_no_truncate on es_seals is disabled"}  # fmt: skip
    report = club.verify()
    assert not report.ok and report.broken == []
    assert {str(guard) for guard in report.missing_guards} == expected


def test_tournament_verify_fails_on_a_rewritten_sealed_event(club: Club) -> None:
    """The command an organiser runs: exit 1 and the event named, where the chains alone
    (hashes recomputed) said "all chains verify" in trial 2."""
    assert club.cli("verify").exit_code == 0
    with club.tamper() as t:
        recomputed(edit_points)(t)
    result = club.cli("verify", ok=False)
    assert result.exit_code == 1
    assert "BROKEN stream 'tournament-fz' version 11 (position 11)" in result.output
