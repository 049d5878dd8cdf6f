"""A projection run writes only the rows that changed, and what it leaves stored is what
a rebuild from scratch gives (trial 9, P4: a hand at 1,024 players rewrote the whole
tournament). Generated sequences of hands, tallies, corrections, voids and reversals,
projected after random chunks, now and then by a second projector (another process,
whose rows the first must not take for its own) and reconciled, on SQLite and
PostgreSQL."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa

from tests.projections.test_projections import append, rows_equal_a_rebuild
from tournament.app.service import TournamentService
from tournament.domain.commands import corrections as c
from tournament.domain.commands.registration import register_player
from tournament.domain.commands.results import record_hand, record_tally
from tournament.domain.commands.rounds import start_round
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.domain.standings import standings
from tournament.domain.testing import Builder, played, random_tally, registered, won_by
from tournament.domain.views.matchview import match_lines
from tournament.domain.views.standings_view import standings_view
from tournament.eventstore import NewEvent
from tournament.eventstore.store import SQLEventStore
from tournament.projections.documents import (
    STANDINGS,
    dumps,
    match_line_json,
    project_documents,
    standings_body,
)
from tournament.projections.runner import Projector
from tournament.projections.upkeep import reconcile


class _NothingToDo(Exception):
    """The step drawn has nothing to act on (no result entered yet)."""


def _step(b: Builder, rng: random.Random) -> list[NewEvent]:
    """One desk action at random: a hand or a whole Bummerl (by the match: paper tables
    enter one or the other), a correction (another winner), a void, a reversal, or the
    next round when this one is done."""
    t = b.state
    open_ = [m for m in t.rounds[-1].matches if not t.matches[m].decided] if t.rounds else []
    if not open_ and len(t.rounds) < 4:
        return start_round(t)
    if rng.random() < 0.2 or not open_:
        entries = [(mid, e) for mid, m in t.matches.items() for e in m.entries]
        if not entries:
            raise _NothingToDo
        mid, entry = rng.choice(entries)
        way = rng.random()
        if way < 0.35:
            return c.correct_result(t, entry.result_id, None, by="ref", reason="void")
        if way < 0.6:
            return c.reversal(t, entry.result_id, by="ref", reason="undo")
        winner = rng.choice(t.matches[mid].players)
        change = {"tally": won_by(b, mid, winner)} if entry.kind == "tally" else {"winner": winner}
        return c.correct_result(t, entry.result_id, change, by="ref", reason="fix")
    mid = rng.choice(open_)
    match = t.matches[mid]
    if sum(map(ord, mid)) % 2:
        first, second, _ = random_tally(rng)
        return record_tally(t, mid, {"columns": [first, second]})
    dealer = match.engine.next_dealer
    return record_hand(
        t, mid, winner=rng.choice(match.players), game_points=rng.choice((1, 2, 3)),
        dealer=None if dealer is None or match.first_dealer is None else match.players[dealer],
    )  # fmt: skip


def _chunks(seed: int, players: int, steps: int) -> list[list[NewEvent]]:
    rng = random.Random(seed)
    b = Builder(registered(players, seed=seed, best_of=3))
    for number in range(1, 3):  # two categories: their documents are projected too
        b.add(register_player(b.state, f"Extra {number}", category="W"))
    chunks: list[list[NewEvent]] = [list(b.events)]
    for _ in range(steps):
        try:
            new = _step(b, rng)
        except (DomainError, _NothingToDo):  # refused by the rules, or nothing to do
            continue
        b.add(new)
        if rng.random() < 0.5 and len(chunks) > 1:
            chunks[-1].extend(new)  # committed with the one before: one run for both
        else:
            chunks.append(list(new))
    return chunks


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_incremental_runs_equal_a_rebuild_after_every_commit_incl_corrections(
    store: SQLEventStore, seed: int
) -> None:
    """P4: runs that write only what changed leave what a rebuild from scratch gives,
    whatever the order of results, corrections and draws, and whoever ran last."""
    ours = Projector(store, TournamentService(store))
    other = Projector(store, TournamentService(store))  # another worker process
    rng = random.Random(seed)
    for chunk in _chunks(seed, players=9, steps=150):
        append(store, "test", chunk)
        way = rng.random()
        if way < 0.15:
            other.project("test")
        elif way < 0.2:
            reconcile(ours, "test")
        ours.project("test")
        rows_equal_a_rebuild(store, ours, "test")
    found = reconcile(ours, "test")
    assert found is not None and found.matched, found


def test_a_stale_memory_of_the_rows_is_not_trusted_after_a_repair(store: SQLEventStore) -> None:
    """The rows a run compares with are its own only while the stored header says so:
    a reconciliation's repair in between makes the next run write every row again."""
    projector = Projector(store)
    chunks = _chunks(5, players=6, steps=20)
    append(store, "test", chunks[0])
    projector.project("test")
    with store.engine.begin() as conn:  # rows gone wrong behind the projector's back
        conn.execute(sa.text("DELETE FROM proj_players WHERE tournament_id = 'test'"))
    assert reconcile(projector, "test").matched is False  # type: ignore[union-attr]
    for chunk in chunks[1:]:
        append(store, "test", chunk)
        projector.project("test")
        rows_equal_a_rebuild(store, projector, "test")


def test_a_projector_keeps_the_rows_of_its_latest_tournaments_only(
    store: SQLEventStore,
) -> None:
    """A worker projects every tournament of a federation for months: what it keeps to
    write only the changes is bounded (Projector.KEEP tournaments), and a tournament it
    forgot is written whole again, equal to a rebuild."""
    projector = Projector(store)
    projector.KEEP = 2
    names = ("one", "two", "three")
    fields = {tid: Builder(registered(4, seed=seed)) for seed, tid in enumerate(names, start=1)}
    for tid, b in fields.items():
        append(store, tid, list(b.events))
        projector.project(tid)
    assert list(projector._written) == ["two", "three"]
    assert list(projector._memos) == ["two", "three"]
    one = fields["one"]
    append(store, "one", one.add(register_player(one.state, "Late", category="W")))
    projector.project("one")  # forgotten: written whole
    rows_equal_a_rebuild(store, projector, "one")
    assert list(projector._written) == ["three", "one"]


def _writes(engine: sa.Engine) -> tuple[list[tuple[str, int]], Callable[[], None]]:
    """(statement's first words, rows) of every write on ``engine`` until stopped."""
    seen: list[tuple[str, int]] = []

    def note(conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool
             ) -> None:  # fmt: skip
        words = " ".join(statement.split()[:3])
        if words.split()[0] in ("INSERT", "UPDATE", "DELETE"):
            seen.append((words, len(params) if many else 1))

    sa.event.listen(engine, "before_cursor_execute", note)
    return seen, lambda: sa.event.remove(engine, "before_cursor_execute", note)


def test_one_hand_writes_a_few_rows_not_the_whole_field(store: SQLEventStore) -> None:
    """P4: a hand of an undecided match changes its open match and the documents; the
    standings and players' rows stay as they are and are not written."""
    service = TournamentService(store)
    b = Builder(registered(40, seed=2, best_of=3))
    b.add(start_round(b.state))
    append(store, "test", list(b.events))
    projector = Projector(store, service)
    projector.project("test")
    mid = next(m for m in b.state.rounds[-1].matches if not b.state.matches[m].decided)
    match = b.state.matches[mid]
    append(store, "test", b.add(record_hand(b.state, mid, winner=match.players[0],
                                            game_points=1)))  # fmt: skip
    seen, stop = _writes(store.engine)
    try:
        projector.project("test")
    finally:
        stop()
    tables = {words.split()[-1].strip('"') for words, _ in seen}
    assert "proj_standings" not in tables and "proj_players" not in tables, seen
    assert sum(n for words, n in seen if "proj_outstanding" in words) == 2, seen  # out, in
    rows_equal_a_rebuild(store, projector, "test")


def _as_before(t: Tournament) -> dict[str, Any]:
    """The standings document as it was built before: dataclasses.asdict per row, the
    whole body encoded at once."""
    view = standings_view(t, lambda: [], per_group=True)
    body = standings_body("test", view, t.version)
    rows = []
    for row in view.rows:
        data = dataclasses.asdict(row)
        data["tiebreaks"] = dict(row.tiebreaks)
        rows.append(data)
    assert [r.to_json() for r in view.rows] == rows
    return body


def test_the_documents_encoded_row_by_row_are_the_whole_body_encoded_at_once() -> None:
    """Encoding each row once and joining the texts gives the same bytes as encoding the
    whole document (what the API sends, what the reconciliation compares)."""
    t = played(12, 3, seed=4, best_of=3)
    documents = project_documents("test", t, lambda: []).documents
    assert documents[STANDINGS] == dumps(_as_before(t))
    assert documents[STANDINGS] == dumps(json.loads(documents[STANDINGS]))
    for line in match_lines(t, "decided"):
        assert json.loads(dumps(match_line_json(line))) == json.loads(
            dumps(dataclasses.asdict(line))
        )
    assert len(standings(t)) == 12


def _hands_mostly(b: Builder, rng: random.Random) -> list[NewEvent]:
    """Mostly single hands of open matches (what a run re-encodes alone), now and then a
    tally, a correction, a void, a reversal or a struck hand, and the next round."""
    t = b.state
    entries = [e for m in t.matches.values() for e in m.entries]
    if entries and rng.random() < 0.12:
        entry = rng.choice(entries)
        if entry.payload is not None and entry.kind != "forfeit" and rng.random() < 0.4:
            hands = len(entry.payload.get("hands") or [None])
            return c.strike_hand(t, entry.result_id, rng.randint(1, hands) if hands > 1 else None,
                                 by="ref", reason="unreadable")  # fmt: skip
        return _step(b, rng)
    return _step(b, rng)


@pytest.mark.parametrize(
    ("seed", "settings"),
    [(1, {"best_of": 5}), (2, {"best_of": 3}), (3, {"format": "single_elimination", "best_of": 3})],
)
def test_runs_that_reencode_only_the_results_matches_equal_a_rebuild(
    store: SQLEventStore, seed: int, settings: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run after results that decide nothing works out only those matches' lines (the
    standings and the other lines are the last run's); whatever came between -- results
    that decide, corrections, voids, reversals, struck hands, a round drawn -- its rows
    are a rebuild's, and the runs that did so were many."""
    from tournament.projections import documents

    partial = []
    real = documents._open_results
    monkeypatch.setattr(documents, "_open_results", lambda *a: partial.append(1) or real(*a))
    rng = random.Random(seed)
    b = Builder(registered(10, seed=seed, **settings))
    b.add(register_player(b.state, "Extra", category="W"))
    append(store, "test", list(b.events))
    projector = Projector(store, TournamentService(store))
    projector.project("test")
    for _ in range(120):
        try:
            new = _hands_mostly(b, rng)
        except (DomainError, _NothingToDo):
            continue
        append(store, "test", b.add(new))
        if rng.random() < 0.7:  # else: projected with the next one, in one run
            projector.project("test")
            rows_equal_a_rebuild(store, projector, "test")
    projector.project("test")
    rows_equal_a_rebuild(store, projector, "test")
    assert len(partial) >= 20, len(partial)
