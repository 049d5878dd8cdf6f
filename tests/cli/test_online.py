"""Online tables from the command line (T-online, T-clock), on a real SQLite file: start a
match online, see every table without a card, and the organiser's three decisions when a
clock runs out. Refusals are one line naming the rule, and store nothing.

A time-up is made with the PlayService's own clock (``tournament.cli.online.now``, the
service's ``now``): nothing else is replaced."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

import tournament.cli.online as online_cli
from tests.cli.helpers import friday_match, state, stored
from tournament.domain.model import events as ev


@pytest.fixture
def cli(cli):  # type: ignore[no-untyped-def]
    friday_match(cli)  # Bernd (1) v Franz (2), best of 3, Bernd deals first: match 1.1
    return cli


def join_both() -> None:
    """Both players open their seats on their phones (T-online): the clock starts."""
    from tournament.cli.common import tournament_id_of

    service = online_cli.play()
    for seat in (0, 1):
        service.join(tournament_id_of(None), "1.1", seat, None)


def hand_events(stream: str) -> list:  # type: ignore[type-arg]
    from tournament.config import database_url
    from tournament.eventstore import SQLEventStore

    return SQLEventStore(database_url()).read_stream(stream)


def no_card_of(output: str, stream: str) -> bool:
    """No card of the hand's deck stands alone in ``output``."""
    deck = hand_events(stream)[0].payload["deck"]
    return not [c for c in deck if re.search(rf"(?<![A-Za-z0-9]){c}(?![A-Za-z0-9])", output)]


def refused(cli, *args: str) -> str:  # type: ignore[no-untyped-def]
    """The one-line refusal of ``tournament ARGS``, having checked nothing was stored."""
    before = len(stored())
    out = cli(*args, ok=False)
    assert out.exit_code == 1 and "Traceback" not in out.output, out.output
    assert len(stored()) == before
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), out.output
    line: str = lines[0]
    return line


def test_start_deals_the_first_hand_and_status_shows_it_without_cards(cli) -> None:  # type: ignore[no-untyped-def]
    out = cli("online", "start", "1.1", "--move-seconds", "60").output
    assert "match 1.1 is played online (60 s per move (T-clock)); hand 1 is dealt" in out
    t = state()
    assert t.online["1.1"].move_seconds == 60 and len(t.online["1.1"].hands) == 1
    waiting = cli("online", "status").output
    assert "Bernd (1) not joined yet, Franz (2) not joined yet" in waiting
    assert "clock 60 s per move" in waiting  # T-clock: not before both joined
    assert "waiting for the players to open their seats" in waiting
    join_both()
    status = cli("online", "status").output
    assert "Bernd (1) joined, Franz (2) joined" in status
    assert status.startswith("match 1.1 (round 1, table 1): Bernd (1) v Franz (2); hand 1;")
    assert "Bummerl 0:0" in status and "Franz (2) to play" in status  # the dealer's opponent
    assert re.search(r"clock: \d+ s left of 60", status) and "in play" in status
    assert no_card_of(status, t.online["1.1"].hands[0])
    assert cli("online", "status", "1.1").output == status


def test_without_move_seconds_there_is_no_clock(cli) -> None:  # type: ignore[no-untyped-def]
    assert "(no clock)" in cli("online", "start", "1.1").output
    assert "no clock" in cli("online", "status", "1.1").output
    line = refused(cli, "online", "clock", "1.1", "--by", "Eva")
    assert line == "Error: clock: match 1.1 has no clock running (T-clock)"


def test_a_time_per_move_out_of_range_is_refused(cli) -> None:  # type: ignore[no-untyped-def]
    line = refused(cli, "online", "start", "1.1", "--move-seconds", "5")
    assert line == "Error: move_seconds: the time per move is 10 to 3600 seconds, not 5 (T-clock)"
    assert "1.1" not in state().online


def test_a_match_online_already_or_unknown_is_refused(cli) -> None:  # type: ignore[no-untyped-def]
    cli("online", "start", "1.1")
    assert "match 1.1 is played online already (T-online)" in refused(cli, "online", "start", "1.1")
    assert "(T-match)" in refused(cli, "online", "start", "9.9")


def test_status_without_online_tables_says_how_to_start_one(cli) -> None:  # type: ignore[no-untyped-def]
    assert "no match is played online" in cli("online", "status").output
    assert "match 1.1 is not played online (T-online)" in refused(cli, "online", "status", "1.1")


def test_time_up_shows_and_restarting_the_clock_lets_play_go_on(  # type: ignore[no-untyped-def]
    cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli("online", "start", "1.1", "--move-seconds", "30")
    join_both()
    monkeypatch.setattr(online_cli, "now", lambda: datetime.now(UTC) + timedelta(seconds=31))
    status = cli("online", "status", "1.1").output
    assert "time is up since" in status and "the organiser decides (T-clock)" in status
    out = cli("online", "clock", "1.1", "--by", "Referee Eva").output
    assert "the clock of match 1.1 runs again (restarted by Referee Eva)" in out
    last = stored()[-1]
    assert last.type == ev.ONLINE_CLOCK_RESTARTED and last.payload["by"] == "Referee Eva"
    status = cli("online", "status", "1.1").output
    assert "time is up" not in status and "clock: 30 s left of 30" in status


def test_abandon_never_counts_the_hand_and_the_same_dealer_deals_again(cli) -> None:  # type: ignore[no-untyped-def]
    cli("online", "start", "1.1", "--move-seconds", "30")
    first = state().online["1.1"].hands[0]
    assert "(T-live)" in refused(cli, "online", "abandon", "1.1", "--by", "Eva", "--why", " ")
    out = cli("online", "abandon", "1.1", "--by", "Eva", "--why", "a phone died").output
    assert "the hand of match 1.1 is abandoned; hand 2 is dealt by the same dealer (R18)" in out
    t = state()
    second = t.online["1.1"].hands[1]
    assert first in t.live_abandoned
    assert hand_events(second)[0].payload["dealer"] == hand_events(first)[0].payload["dealer"]
    assert no_card_of(cli("online", "status").output, second)


def test_stop_leaves_the_rest_to_paper(cli) -> None:  # type: ignore[no-untyped-def]
    cli("online", "start", "1.1", "--move-seconds", "30")
    assert "--why" in cli("online", "stop", "1.1", "--by", "Eva", ok=False).output  # required
    out = cli("online", "stop", "1.1", "--by", "Eva", "--why", "the screens failed").output
    assert "online play of match 1.1 is stopped" in out
    t = state()
    assert t.online["1.1"].stopped and t.online["1.1"].hands[0] in t.live_abandoned
    assert "stopped: the rest on paper" in cli("online", "status", "1.1").output
    line = refused(cli, "online", "stop", "1.1", "--by", "Eva", "--why", "again")
    assert line == "Error: match: match 1.1 is not played online (T-online)"
    cli("results", "enter", "1.1", "--winner", "1", "--points", "1")  # the rest on paper
    line = refused(cli, "online", "abandon", "1.1", "--by", "Eva", "--why", "late")
    assert line == "Error: match: match 1.1 is not played online (T-online)"  # paper now


def test_release_frees_a_seat_for_the_next_phone(cli) -> None:  # type: ignore[no-untyped-def]
    cli("online", "start", "1.1", "--move-seconds", "30")
    line = refused(cli, "online", "release", "1.1", "--seat", "1", "--by", "Eva")
    assert line == "Error: seat: seat 1 of match 1.1 is not taken (T-online)"
    join_both()
    out = cli("online", "release", "1.1", "--seat", "1", "--by", "Referee Eva").output
    assert "seat 1 of match 1.1 is free: the next phone that opens its code takes it" in out
    last = stored()[-1]
    assert last.type == ev.ONLINE_SEAT_RELEASED
    assert (last.payload["seat"], last.payload["by"]) == (1, "Referee Eva")
    assert "Bernd (1) joined, Franz (2) not joined yet" in cli("online", "status").output
    assert state().online["1.1"].joined_at is not None  # the clock goes on (T-clock)
