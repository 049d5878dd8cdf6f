"""Trial 2's tampering cases (F2) that touch nothing sealed, and what verify then sees.

A seal covers the log up to its position; the events after the last one are covered by
their streams' chains only, which anyone who can write rows can recompute. So a rewrite
of unsealed events that keeps each chain whole is not noticed, nor is removing them, and
removing a seal from the end makes the events it covered unsealed. These tests assert
exactly that, so that docs/event-store.md ("Tampering: what verify detects, and what it
cannot") says no more than the store does. Idempotency keys are no evidence: they are not
hashed and not sealed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest

from tests.eventstore.tampering import (  # noqa: F401  (the fixtures club and _seal_key)
    FZ,
    Club,
    Tamper,
    club_fixture,
    delete_from,
    edit_points,
    recomputed,
    seal_key_fixture,
)


def test_an_unsealed_event_edited_with_its_hash_left_is_found_by_its_chain(club: Club) -> None:
    """Hash left: the stream's chain finds it, sealed or not."""
    club.unsealed_tail()
    with club.tamper() as t:
        edit_points(t, 19)
    report = club.verify()
    assert not report.ok
    [link] = report.broken
    assert (link.stream_id, link.version, link.position) == (FZ, 17, 19)


def delete_after_seal_with_it(t: Tamper) -> None:
    """The events after seal @12 and the seals after it: the log as it was at @12."""
    t.run("DELETE FROM es_events WHERE position > 12")
    t.run("DELETE FROM es_seals WHERE position > 12")


def delete_last_seal_then_rewrite(t: Tamper) -> None:
    """Seal @17 removed; then 1.3's first hand (15), which only it covered, rewritten."""
    t.run("DELETE FROM es_seals WHERE position = 17")
    recomputed(functools.partial(edit_points, position=15))(t)


#: (how, head position, the last seal's position, events after it, the seal removed).
UNNOTICED = [
    pytest.param(recomputed(functools.partial(edit_points, position=19)), 20, 17, 3, None,
                 id="edit an unsealed hand's game points + recompute"),
    pytest.param(delete_from(20), 19, 17, 2, None, id="delete the last 1 event, unsealed"),
    pytest.param(delete_from(18), 17, 17, 0, None, id="delete the last 3 events, unsealed"),
    pytest.param(delete_after_seal_with_it, 12, 12, 0, 17,
                 id="delete the events after a seal along with the later seals"),
    pytest.param(delete_last_seal_then_rewrite, 20, 12, 8, 17,
                 id="delete the last seal, rewrite an event it covered + recompute"),
]  # fmt: skip


@pytest.mark.parametrize(("tamper", "head", "sealed_to", "unsealed", "removed"), UNNOTICED)
def test_a_rewrite_after_the_last_seal_that_keeps_each_chain_is_not_noticed(
    club: Club,
    tamper: Callable[[Tamper], None],
    head: int,
    sealed_to: int,
    unsealed: int,
    removed: int | None,
) -> None:
    """Hands 18-20 are entered after seal @17. What follows the last seal left standing is
    covered by the chains alone, and the attacker recomputes them: verify sees a whole
    log that ends at ``head``, sealed to ``sealed_to``. Events never sealed leave no trace
    but in a backup or another copy; a removed seal's short form kept elsewhere (a printed
    sheet carries it) is no longer among the store's seals."""
    club.unsealed_tail()
    printed = club.seal_at(removed).short if removed else None
    with club.tamper() as t:
        tamper(t)
    report = club.verify()
    assert report.ok and report.broken == [] and report.missing_guards == []
    assert report.head_position == head
    assert report.last_seal is not None and report.last_seal.position == sealed_to
    assert report.unsealed == unsealed
    if printed is not None:
        assert printed not in {seal.short for seal in club.seals()}


def test_a_forged_result_inserted_after_the_last_seal_looks_like_normal_growth(
    club: Club,
) -> None:
    """Trial 2: INSERT a forged result with a correct hash. No trigger refuses an INSERT
    (on PostgreSQL the application's role is confined to es_append() by
    deploy/postgres-roles.sql; these tests connect as the superuser, and verify says it may
    INSERT). The forged hand follows the last seal: nothing sealed is touched, so nothing
    shows, and the next seal takes it in like any other event."""
    with club.tamper(guards_down=False) as t:
        t.forge_hand(18, version=16, winner=7, points=3)
        if club.kind == "postgresql":  # the next append's position: 19
            t.run("SELECT setval('es_events_position_seq', 18)")
    report = club.verify()
    assert report.ok and (report.head_position, report.unsealed) == (18, 1)
    assert [e.payload["winner"] for e in club.events() if e.payload.get("match_id") == "1.3"] == [
        3, 7, 7,
    ]  # fmt: skip
    if club.kind == "postgresql":
        assert any("may INSERT into es_events" in r for r in report.bypass)
    club.cli("results", "enter", "1.4", "-t", "fz", "--winner", "8", "--points", "1")
    club.seal("interval")
    report = club.verify()
    assert report.ok and (report.head_position, report.unsealed) == (19, 0)


def test_a_forged_result_below_position_1_is_found(club: Club) -> None:
    """The forged INSERT at position -1: the log's readers (verify's pass, the seals) read
    from position 1 on and would never meet it, while the tournament, which reads its
    stream, shows the hand. verify asks the table for such rows."""
    with club.tamper(guards_down=False) as t:
        t.forge_hand(-1, version=16, winner=7, points=3)
    assert [e.payload["winner"] for e in club.events() if e.payload.get("match_id") == "1.3"] == [
        3, 7, 7,
    ]  # fmt: skip
    report = club.verify()
    assert not report.ok and report.events == 17
    [link] = report.broken
    assert (link.stream_id, link.version, link.position) == (FZ, 16, -1)
    assert "hidden from the log: position -1, which the store never gives" in link.problem


def test_a_forged_result_with_a_transaction_id_from_the_future(club: Club) -> None:
    """The forged INSERT after the last seal, its ``tx_id`` one PostgreSQL has not given
    out. Readers of the log on PostgreSQL stop before an event of a transaction that may
    still be running (postgres_backend): before this one for ever, so that no later event
    would be verified or sealed either; verify finds it. SQLite's readers ignore
    ``tx_id``: there it is the plain forged INSERT after the last seal, not noticed."""
    with club.tamper(guards_down=False) as t:
        t.forge_hand(18, version=16, winner=7, points=3)
    with club.tamper() as t:
        t.run("UPDATE es_events SET tx_id = :x WHERE position = 18", x=2**62)
    report = club.verify()
    if club.kind == "sqlite":
        assert report.ok and (report.head_position, report.unsealed) == (18, 1)
        return
    assert not report.ok and report.head_position == 17
    [link] = report.broken
    assert (link.stream_id, link.version, link.position) == (FZ, 16, 18)
    assert "a transaction id PostgreSQL has not given out yet" in link.problem


def test_deleting_every_event_and_every_seal_leaves_an_empty_store_that_verifies(
    club: Club,
) -> None:
    """Nothing in the store is left to compare with: an empty log with no seals is what a
    new store looks like. Only a seal kept elsewhere (a printed sheet, an export) shows
    that there was a log. With the seals left, verify finds it (test_tampering.py)."""
    printed = club.seal_at(17).short
    with club.tamper() as t:
        t.run("DELETE FROM es_events")
        t.run("DELETE FROM es_seals")
    report = club.verify()
    assert report.ok and (report.events, report.seals, report.head_hash) == (0, 0, None)
    assert printed not in {seal.short for seal in club.seals()}


@pytest.mark.parametrize(
    "statement",
    [
        pytest.param("UPDATE es_idempotency SET key = key || '-changed'",
                     id="change an es_idempotency row"),
        pytest.param("DELETE FROM es_idempotency", id="delete an es_idempotency row"),
    ],
)  # fmt: skip
def test_an_idempotency_key_is_no_evidence(club: Club, statement: str) -> None:
    """An idempotency key remembers that ``sheet.csv`` was imported (the SHA-256 of its
    content), so that importing it again stores nothing (F1). It is not hashed, not
    sealed, and may expire after a day (the store's ``expire_keys``): changed or deleted,
    verify has nothing to find. Nor is anything stored twice: the same sheet imported
    again is then refused by its content, each row being a hand already stored (T-repeat)."""
    sheet = str(club.home / "sheet.csv")
    again = club.cli("results", "import", "-t", "fz", sheet, ok=False)
    assert again.exit_code == 1 and "this file was imported at" in again.output
    with club.tamper() as t:
        t.run(statement)
    assert club.verify().ok
    again = club.cli("results", "import", "-t", "fz", sheet, ok=False)
    assert again.exit_code == 1 and "every row is stored already" in again.output
    assert "(T-repeat); nothing imported" in again.output
    assert len(club.events()) == 15
