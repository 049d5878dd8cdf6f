"""A knockout bracket is recorded whole by the round that draws it and read back from the
events, never rebuilt by the current bracket code: a later change to seeding or bracket
building cannot change the bracket of a tournament already in its knockout stage."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tournament.app.service import TournamentService
from tournament.domain.commands.registration import register_player
from tournament.domain.commands.rounds import start_round
from tournament.domain.model import events as ev
from tournament.domain.model.state import fold
from tournament.domain.standings import knockout, standings
from tournament.domain.standings.pairing import bracket_of, places
from tournament.domain.testing import Builder, random_match, registered
from tournament.eventstore import NewEvent, SQLEventStore, migrate
from tournament.formats.bracket import Bracket
from tournament.formats.double_elim import double_elimination
from tournament.formats.groups import knockout_from_groups
from tournament.formats.single_elim import single_elimination

FORMATS: dict[str, dict[str, Any]] = {
    "single_elimination": {"third_place": True},
    "double_elimination": {"grand_final_reset": True},
    "groups_knockout": {"groups": 2, "advance": 4, "third_place": True},
}
BUILDERS = {
    "single_elimination": "single_elimination",
    "double_elimination": "double_elimination",
    "groups_knockout": "knockout_from_groups",
}


def stored(events: list[NewEvent]) -> list[NewEvent]:
    """The events as read back from the store: payloads through JSON."""
    return [dataclasses.replace(e, payload=json.loads(json.dumps(e.payload))) for e in events]


def play_round(b: Builder, rng: random.Random) -> None:
    b.add(start_round(b.state))
    for mid in b.state.rounds[-1].matches:
        random_match(b, b.state.matches[mid], rng)


def knockout_rounds(b: Builder) -> int:
    first = next((r.number for r in b.state.rounds if "seeds" in r.info), None)
    return 0 if first is None else b.state.current_round - first + 1


def into_knockout(fmt: str, players: int = 11, ko_rounds: int = 2) -> tuple[Builder, Bracket]:
    """A tournament ``ko_rounds`` rounds into its knockout, and the bracket as drawn (the
    bracket builder's own return value, caught as the first knockout round is drawn)."""
    b = Builder(registered(players, format=fmt, seed=4, options=FORMATS[fmt]))
    rng = random.Random(players)
    drawn: list[Bracket] = []
    real = getattr(knockout, BUILDERS[fmt])

    def spy(*args: Any, **kwargs: Any) -> Bracket:
        drawn.append(real(*args, **kwargs))
        return drawn[-1]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(knockout, BUILDERS[fmt], spy)
        while knockout_rounds(b) < ko_rounds:
            play_round(b, rng)
    assert drawn, "the knockout was never drawn"
    return b, drawn[0]


def other_layout(*args: Any, **kwargs: Any) -> Bracket:
    """Today's bracket code 'changed': the seeds reversed, so every pairing differs."""
    if args and isinstance(args[0], list) and args[0] and isinstance(args[0][0], list):
        groups = [list(reversed(g)) for g in reversed(args[0])]
        return knockout_from_groups(groups, *args[1:], **{**kwargs, "records": None})
    seeds = list(reversed(args[0]))
    if "grand_final_reset" in kwargs:
        return double_elimination(seeds, **kwargs)
    return single_elimination(seeds, **kwargs)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_the_bracket_read_back_from_the_events_is_the_one_drawn(fmt: str) -> None:
    b, drawn = into_knockout(fmt)
    assert bracket_of(b.state) == drawn
    assert bracket_of(fold(stored(b.events))) == drawn
    first_ko = next(r for r in b.state.rounds if "bracket" in r.info)
    assert first_ko.info["bracket"]["count"] == len(drawn.matches)


def snapshot(events: list[NewEvent]) -> tuple[Any, ...]:
    t = fold(stored(events))
    nxt = start_round(t)
    return (
        bracket_of(t),
        [(r.player_id, r.points) for r in standings(t)],
        places(t),
        [(e.type, e.payload) for e in nxt],
    )


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_changed_bracket_code_does_not_change_a_drawn_bracket_on_replay(
    fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    b, drawn = into_knockout(fmt)
    before = snapshot(b.events)
    assert before[0] == drawn
    monkeypatch.setattr(knockout, BUILDERS[fmt], other_layout)
    # The patched builder does give another bracket: rebuilt from code, it would change.
    seeds = drawn.seeds if fmt != "groups_knockout" else None
    if seeds is not None:
        assert other_layout(list(seeds), **_options(fmt)) != drawn
    assert snapshot(b.events) == before


def _options(fmt: str) -> dict[str, Any]:
    if fmt == "double_elimination":
        return {"grand_final_reset": True}
    return {"third_place": True}


def strip_layout(events: list[NewEvent]) -> list[NewEvent]:
    """The events as written before brackets were recorded: no ``bracket`` in any info."""
    out = []
    for e in stored(events):
        info = e.payload.get("info")
        if e.type == ev.ROUND_STARTED and info and "bracket" in info:
            info = {k: v for k, v in info.items() if k != "bracket"}
            e = dataclasses.replace(e, payload={**e.payload, "info": info})
        out.append(e)
    return out


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_an_old_round_without_a_layout_is_rebuilt_from_its_seeds(
    fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    b, drawn = into_knockout(fmt)
    old = strip_layout(b.events)
    assert not any("bracket" in (e.payload.get("info") or {}) for e in old)
    t = fold(old)
    assert bracket_of(t) == drawn
    assert snapshot(old)[1:3] == snapshot(b.events)[1:3]
    # ... by the bracket code, as before (so there, and only there, a change shows).
    monkeypatch.setattr(knockout, BUILDERS[fmt], other_layout)
    assert bracket_of(fold(old)) != drawn


@pytest.fixture
def service(tmp_path: Path) -> TournamentService:
    url = f"sqlite:///{tmp_path / 'ko.sqlite3'}"
    migrate.upgrade(url)
    return TournamentService(SQLEventStore(url))


@pytest.mark.parametrize(
    ("fmt", "players", "max_events"),
    [
        ("double_elimination", 128, 1),
        ("double_elimination", 1024, 4),
        pytest.param("single_elimination", 4096, 8, marks=pytest.mark.slow),  # ~25 s
    ],
)
def test_a_big_bracket_fits_the_store_and_reads_back_whole(
    service: TournamentService, fmt: str, players: int, max_events: int
) -> None:
    config = {"name": "Groß", "format": fmt, "best_of": 1, "seed": 9, "options": FORMATS[fmt]}
    b = Builder([ev.make_event(ev.TOURNAMENT_CREATED, {"tournament_id": "ko", "settings": config})])
    for i in range(1, players + 1):
        b.add(register_player(b.state, f"Spieler {i}"))
    service.store.append("tournament-ko", b.events, expected_version=0)
    drawn = service.execute("ko", start_round)  # the store refuses a payload over 64 KB
    rounds = [e for e in drawn if e.type.startswith("round.")]
    sizes = [len(json.dumps(dict(e.payload), separators=(",", ":"))) for e in rounds]
    assert max(sizes) < 48 * 1024 and len(rounds) <= max_events, sizes
    t = service.state("ko")
    seeds = t.rounds[0].info["seeds"]
    assert sorted(seeds, key=int) == [str(p) for p in range(1, players + 1)]
    build = double_elimination if fmt == "double_elimination" else single_elimination
    assert bracket_of(t) == build(seeds, **_options(fmt))
