"""The projections hold what a fold of the log gives, whatever way they got there: run
after every few events, repeated, interrupted, raced (issue 10: "A repeated or
redelivered run changes nothing")."""

from __future__ import annotations

import random
import threading

import pytest
import sqlalchemy as sa

from tournament.app.service import TournamentService
from tournament.domain.model import events as ev
from tournament.domain.model.state import fold
from tournament.domain.testing import Builder, play_round, registered
from tournament.domain.views.standings_view import standings_view
from tournament.eventstore.checkpoints import get_checkpoint
from tournament.eventstore.store import SQLEventStore
from tournament.live.change import Change
from tournament.projections import tables
from tournament.projections.documents import STANDINGS, project_documents
from tournament.projections.runner import Projector, checkpoint_name, stored
from tournament.projections.upkeep import behind, reconcile


def played_in_chunks(players: int, rounds: int, seed: int, **settings: object) -> list[list]:
    """A tournament's events, cut into random chunks (what commits one at a time give)."""
    b = Builder(registered(players, seed=seed, **settings))
    rng = random.Random(seed)
    for _ in range(rounds):
        play_round(b, rng)
    chunks, at = [], 0
    while at < len(b.events):
        size = rng.choice((1, 1, 2, 5, 17))
        chunks.append(b.events[at : at + size])
        at += size
    return chunks


def append(store: SQLEventStore, tid: str, chunk: list) -> None:
    stream = ev.stream_id(tid)
    store.append(stream, chunk, expected_version=store.stream_version(stream))


def rows_equal_a_rebuild(store: SQLEventStore, projector: Projector, tid: str) -> None:
    with store.engine.connect() as conn:
        have = stored(conn, tid)
        version = get_checkpoint(conn, checkpoint_name(tid))
    rebuilt = projector.rebuild(tid, version=version)
    assert rebuilt is not None
    assert have == rebuilt.comparable()


@pytest.mark.parametrize(
    ("settings", "players", "rounds"),
    [({"format": "swiss", "best_of": 3}, 12, 3), ({"format": "single_elimination"}, 8, 3)],
)
def test_runs_after_every_few_commits_hold_what_a_fold_of_the_log_gives(
    store: SQLEventStore, settings: dict, players: int, rounds: int
) -> None:
    announced: list[Change] = []
    projector = Projector(store, TournamentService(store), publish=announced.append)
    for chunk in played_in_chunks(players, rounds, seed=7, **settings):
        append(store, "test", chunk)
        projector.project("test")
        rows_equal_a_rebuild(store, projector, "test")
    events = store.read_stream(ev.stream_id("test"))
    t = fold(events)
    view = standings_view(t, lambda: events)
    with store.engine.connect() as conn:
        points = conn.execute(
            sa.select(tables.standings.c.player_id, tables.standings.c.points).order_by(
                tables.standings.c.place
            )
        ).all()
    assert [tuple(p) for p in points] == [(r.player_id, r.points) for r in view.rows]
    assert announced[-1].version == t.version == len(events)
    assert [c.version for c in announced] == sorted({c.version for c in announced})


def test_a_repeated_run_changes_nothing(store: SQLEventStore) -> None:
    projector = Projector(store)
    for chunk in played_in_chunks(6, 1, seed=3):
        append(store, "test", chunk)
    first = projector.project("test")
    assert first is not None
    with store.engine.connect() as conn:
        before = conn.execute(sa.select(tables.tournaments)).mappings().all()
    assert projector.project("test") is None
    assert Projector(store).project("test") is None  # another process, another cache
    with store.engine.connect() as conn:
        after = conn.execute(sa.select(tables.tournaments)).mappings().all()
    assert before == after  # not even projected_at moved


def test_a_run_that_fails_before_its_commit_leaves_rows_and_checkpoint_as_they_were(
    store: SQLEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    projector = Projector(store)
    chunks = played_in_chunks(6, 1, seed=5)
    append(store, "test", chunks[0])
    projector.project("test")
    with store.engine.connect() as conn:
        before = stored(conn, "test")
    for chunk in chunks[1:]:
        append(store, "test", chunk)

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the worker died here")

    import tournament.projections.runner as runner

    monkeypatch.setattr(runner, "save_checkpoint", crash)  # after the rows were written
    with pytest.raises(RuntimeError):
        projector.project("test")
    with store.engine.connect() as conn:
        assert stored(conn, "test") == before
    monkeypatch.undo()
    assert projector.project("test") is not None
    rows_equal_a_rebuild(store, projector, "test")


def test_an_announcement_that_fails_loses_no_row(store: SQLEventStore) -> None:
    def redis_is_down(change: Change) -> None:
        raise ConnectionError("Redis is away")

    projector = Projector(store, publish=redis_is_down)
    for chunk in played_in_chunks(4, 1, seed=2):
        append(store, "test", chunk)
    change = projector.project("test")
    assert change is not None and change.version == store.stream_version(ev.stream_id("test"))
    rows_equal_a_rebuild(store, projector, "test")


@pytest.mark.postgres
def test_racing_runners_of_one_tournament_take_turns(pg_db) -> None:  # type: ignore[no-untyped-def]
    engine = pg_db.engine()
    store = SQLEventStore(engine)
    try:
        chunks = played_in_chunks(16, 2, seed=11, best_of=3)
        projectors = [Projector(store, TournamentService(store)) for _ in range(4)]
        errors: list[BaseException] = []

        def run(p: Projector) -> None:
            try:
                for _ in range(20):
                    p.project("test")
            except BaseException as error:  # reported below
                errors.append(error)

        for chunk in chunks:
            append(store, "test", chunk)
            if random.random() < 0.2:
                threads = [threading.Thread(target=run, args=(p,)) for p in projectors]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
        projectors[0].project("test")
        assert not errors
        rows_equal_a_rebuild(store, projectors[0], "test")
        with engine.connect() as conn:
            total = sum(len(chunk) for chunk in chunks)
            assert get_checkpoint(conn, checkpoint_name("test")) == total
    finally:
        engine.dispose()


def test_the_sweep_finds_every_tournament_behind_its_log(store: SQLEventStore) -> None:
    projector = Projector(store)
    for tid in ("a", "b", "c"):
        chunk = [e for chunk in played_in_chunks(4, 0, seed=1) for e in chunk]
        created = ev.NewEvent(chunk[0].type, {**chunk[0].payload, "tournament_id": tid})
        append(store, tid, [created, *chunk[1:]])
    assert behind(store.engine) == ["a", "b", "c"]
    projector.project("b")
    assert behind(store.engine) == ["a", "c"]


def test_reconciling_an_untouched_projection_finds_no_difference(store: SQLEventStore) -> None:
    projector = Projector(store)
    for chunk in played_in_chunks(8, 2, seed=4):
        append(store, "test", chunk)
    projector.project("test")
    found = reconcile(projector, "test")
    assert found is not None and found.matched and found.differences == []


def test_the_standings_document_is_the_apis_table(store: SQLEventStore) -> None:
    for chunk in played_in_chunks(6, 2, seed=9):
        append(store, "test", chunk)
    events = store.read_stream(ev.stream_id("test"))
    projected = project_documents("test", fold(events), lambda: events)
    import json

    body = json.loads(projected.documents[STANDINGS])
    assert body["tournament"] == "test" and body["version"] == len(events)
    assert [r["player_id"] for r in body["rows"]] == [r["player_id"] for r in projected.standings]


def test_the_open_matches_document_is_the_apis_list(store: SQLEventStore) -> None:
    import json

    from tournament.domain.views.matchview import match_lines
    from tournament.projections.documents import OPEN_MATCHES
    from tournament.web.api.matches import line_json

    chunks = played_in_chunks(10, 2, seed=6, best_of=3)
    for chunk in chunks[: len(chunks) * 3 // 4]:  # stop in the middle of round 2
        append(store, "test", chunk)
    events = store.read_stream(ev.stream_id("test"))
    t = fold(events)
    body = json.loads(project_documents("test", t, lambda: events).documents[OPEN_MATCHES])
    lines = [line_json(line) for line in match_lines(t, "open")]
    assert lines and body == {
        "status": "open",
        "round": None,
        "count": len(lines),
        "matches": lines,
    }


def test_the_sweeper_reads_only_what_is_new_and_finds_what_falls_behind(
    store: SQLEventStore,
) -> None:
    from tournament.projections.upkeep import Sweeper

    projector = Projector(store)
    chunks = played_in_chunks(6, 1, seed=8)
    append(store, "test", chunks[0])
    sweeper = Sweeper(store.engine, full_every=3600)
    assert sweeper.behind() == ["test"]
    projector.project("test")
    assert sweeper.behind() == [] and sweeper.after == store.stream_version(ev.stream_id("test"))
    append(store, "test", chunks[1])  # a result whose nudge was lost
    assert sweeper.behind() == ["test"]
    projector.project("test")
    assert sweeper.behind() == []
