"""Tampering with the seals themselves (tournament/eventstore/seals.py), and verify
without the seal key. The club is tests/eventstore/tampering.py's: sealed at 10, 12, 17.
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.eventstore.tampering import (  # noqa: F401  (the fixtures club and _seal_key)
    FZ,
    Club,
    club_fixture,
    edit_points,
    recomputed,
    seal_key_fixture,
)
from tournament.eventstore.chain import GENESIS
from tournament.eventstore.seals import Seal, SealKey, fold

ANOTHER_KEY = SealKey(bytes(32))


@pytest.mark.parametrize("key", [None, ANOTHER_KEY], ids=["no key", "another key"])
def test_without_the_seal_key_seals_are_not_authenticated_but_still_checked(
    club: Club, key: SealKey | None
) -> None:
    """On a machine without the key (or with another one) every seal is listed as not
    authenticated, and the log is still checked against each seal's head and digests:
    a rewrite with recomputed hashes is found and the event named. What such a machine
    cannot tell is a seal forged to match (test below)."""
    seals = club.seals()
    report = club.verify(key)
    assert report.ok and report.seals == len(seals)
    assert len(report.unchecked) == len(seals)
    assert all("not authenticated" in line for line in report.unchecked)
    with club.tamper() as t:
        recomputed(edit_points)(t)
    report = club.verify(key)
    assert not report.ok
    first = report.broken[0]
    assert (first.stream_id, first.version, first.position) == (FZ, 11, 11)
    assert "changed after seal #" in first.problem


def test_a_seal_whose_head_was_edited_does_not_authenticate(club: Club) -> None:
    """A seal row edited (its head), its MAC left: it no longer authenticates with the
    key, and the log no longer matches its head."""
    seal = club.seal_at(12)
    with club.tamper() as t:
        t.run("UPDATE es_seals SET head = :h WHERE seq = :s", h="0" * 64, s=seal.seq)
    report = club.verify()
    assert not report.ok
    [forged, mismatch] = report.broken
    assert forged.position == 12
    assert f"seal #{seal.seq} " in forged.problem
    assert "does not authenticate with the seal key" in forged.problem
    assert "head or count differ" in mismatch.problem


def _remade(seal: Seal, rows: list[tuple[int, str]], previous: Seal | None) -> Seal:
    """``seal`` with head, count and digests recomputed over ``rows`` (its span)."""
    head, count, digests = fold(previous.head if previous else GENESIS, rows)
    events = (previous.events if previous else 0) + count
    return dataclasses.replace(seal, head=head, events=events, digests=digests)


def _reseal(club: Club, key: SealKey | None) -> list[Seal]:
    """What an attacker does after rewriting the log: every seal's head and digests made
    to match it, the MAC recomputed with ``key`` (None: left as it was)."""
    with club.tamper() as t:
        rows = t.rows("SELECT position, hash FROM es_events ORDER BY position")
        previous: Seal | None = None
        out = []
        for seal in club.seals():
            span = [(p, h) for p, h in rows if (previous.position if previous else 0) < p]
            span = [(p, h) for p, h in span if p <= seal.position]
            new = _remade(seal, span, previous)
            if key is not None:
                new = dataclasses.replace(new, key_id=key.key_id)
                new = dataclasses.replace(new, mac=key.mac(new.message()))
            t.run(
                "UPDATE es_seals SET head = :h, events = :n, digests = :d, key_id = :k, "
                "mac = :m WHERE seq = :s",
                h=new.head, n=new.events, d=new.digests, k=new.key_id, m=new.mac, s=seal.seq,
            )  # fmt: skip
            out.append(new)
            previous = new
    return out


def test_a_rewrite_resealed_without_the_key_does_not_authenticate(club: Club) -> None:
    """The attacker rewrites a hand, recomputes the chain, and makes every seal from it on
    match the new log (head, digests), without the key: each such seal fails to
    authenticate; the seal before the rewrite still holds."""
    with club.tamper() as t:
        recomputed(edit_points)(t)
    _reseal(club, None)
    report = club.verify()
    assert not report.ok
    assert [b.position for b in report.broken] == [12, 17]
    assert all("does not authenticate with the seal key" in b.problem for b in report.broken)


def test_a_rewrite_resealed_with_another_key_lists_every_seal_as_not_authenticated(
    club: Club,
) -> None:
    """The attacker re-seals the rewritten log with a key of their own. To verify (with
    the club's key) those seals were made with another key: it lists every one of them
    as not authenticated, as on a machine that has another key, and has nothing to hold
    the log against, so nothing is broken. Whoever reads the report must take seals that
    are not authenticated as no evidence; a seal's short form kept elsewhere, checked
    with the club's key, shows the rewrite."""
    printed = club.seal_at(17).short
    with club.tamper() as t:
        recomputed(edit_points)(t)
    resealed = _reseal(club, ANOTHER_KEY)
    report = club.verify()
    assert report.ok
    assert len(report.unchecked) == len(resealed)
    assert all(ANOTHER_KEY.key_id in line for line in report.unchecked)
    assert printed not in {seal.short for seal in club.seals()}


def test_a_seal_deleted_from_the_middle_is_missing(club: Club) -> None:
    """Seals are numbered 1, 2, 3 …: one removed from between two others is a hole."""
    seal = club.seal_at(12)
    with club.tamper() as t:
        t.run("DELETE FROM es_seals WHERE seq = :s", s=seal.seq)
    report = club.verify()
    assert not report.ok
    # The hole first; the next seal then covers more events than its own digests list.
    link = report.broken[0]
    assert f"seal #{seal.seq} is missing (the seals go on with #{seal.seq + 1})" in link.problem
