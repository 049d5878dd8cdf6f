"""A round of 4,096 players is stored and read back whole, within the store's 64 KB
payload limit; round events stored before the compact rows still read as they did."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from tournament.app.service import TournamentService
from tournament.domain.commands.registration import register_player
from tournament.domain.commands.rounds import start_round
from tournament.domain.model import events as ev
from tournament.domain.model.state import fold
from tournament.domain.testing import Builder
from tournament.domain.views.roundview import draw_record
from tournament.eventstore import NewEvent, SQLEventStore, migrate

PLAYERS = 4096


@functools.cache
def field(fmt: str) -> tuple[NewEvent, ...]:
    """A tournament of ``fmt`` with 4,096 registered players (built once per format)."""
    config = {"name": "Landesmeisterschaft", "format": fmt, "best_of": 3, "seed": 9}
    b = Builder()
    b.add([ev.make_event(ev.TOURNAMENT_CREATED, {"tournament_id": "big", "settings": config})])
    for i in range(1, PLAYERS + 1):
        b.add(register_player(b.state, f"Spieler {i}", rating=3000 - i % 2000))
    return tuple(b.events)


@pytest.fixture
def service(tmp_path: Path) -> TournamentService:
    url = f"sqlite:///{tmp_path / 'big.sqlite3'}"
    migrate.upgrade(url)
    return TournamentService(SQLEventStore(url))


@pytest.mark.parametrize(
    "fmt",
    # One format in every run; the other two (a bracket's layout rows, lives) in the
    # slow set (each ~10-40 s here), which CI runs too (.ci/run).
    ["swiss", pytest.param("single_elimination", marks=pytest.mark.slow),
     pytest.param("lives", marks=pytest.mark.slow)],
)  # fmt: skip
def test_a_first_round_of_4096_players_is_stored_and_read_back_whole(
    service: TournamentService, fmt: str
) -> None:
    service.store.append("tournament-big", list(field(fmt)), expected_version=0)
    drawn = service.execute("big", start_round)
    assert all(len(json.dumps(dict(e.payload))) < 48 * 1024 for e in drawn)
    started, *listed = (e for e in drawn if e.type.startswith("round."))
    assert started.type == "round.started"
    assert {e.type for e in listed} == {"round.tables_listed"}
    t = service.state("big")
    assert len(t.rounds[0].matches) == drawn[0].payload["match_count"] == PLAYERS // 2
    seated = {p for mid in t.rounds[0].matches for p in t.matches[mid].players}
    assert seated == set(range(1, PLAYERS + 1))
    assert fold(service.events("big")).matches.keys() == t.matches.keys()


def test_a_round_started_of_schema_version_1_still_reads(service: TournamentService) -> None:
    # As the store held it before the rows: every match an object in the one event.
    config = {"name": "Alt", "format": "single_elimination", "best_of": 1, "seed": 2}
    old = [
        NewEvent(ev.TOURNAMENT_CREATED, {"tournament_id": "old", "settings": config}),
        *(NewEvent(ev.PLAYER_REGISTERED, {"player_id": i, "name": f"P{i}"}) for i in (1, 2, 3)),
        NewEvent(
            ev.ROUND_STARTED,
            {
                "round": 1, "seed": 5, "stage": "knockout round 1", "byes": [1],
                "info": {"seeds": ["1", "2", "3"]},
                "matches": [{"match_id": "R1-2", "table": 1, "players": [2, 3],
                             "first_dealer": 3, "bracket": {"id": "R1-2"}}],
            },
            schema_version=1,
        ),
    ]  # fmt: skip
    service.store.append("tournament-old", old, expected_version=0)
    stored = service.events("old")[-1]
    assert stored.schema_version == 2
    assert stored.payload["matches"] == [["R1-2", 1, 2, 3, 3, True]]
    assert stored.payload["match_count"] == 1
    m = service.state("old").matches["R1-2"]
    assert (m.players, m.table, m.first_dealer, m.bracket) == ((2, 3), 1, 1, {"id": "R1-2"})


def test_the_record_of_a_draw_split_over_several_events_lists_every_table() -> None:
    """What POST /rounds answers (made from the events alone): all 2,048 tables, not
    only those of the first event."""
    b = Builder(list(field("swiss")))
    drawn = b.add(start_round(b.state))
    assert sum(e.type == ev.ROUND_TABLES for e in drawn) >= 1
    record = draw_record(drawn)
    assert [x.match_id for x in record.tables] == b.state.rounds[0].matches
    assert len(record.tables) == PLAYERS // 2 and record.byes == ()
