"""Names stored before names were checked (a control character, a terminal escape, a bidi
override, 60 KB of text) are kept in the log as typed, and every printout shows them
escaped and short: no stored text can clear the screen or fake a line (trial 2, F11)."""

from __future__ import annotations

from tests.cli.helpers import stored
from tournament.config import database_url
from tournament.domain.model import events as ev
from tournament.eventstore import SQLEventStore

HOSTILE = "Evil\x1b]0;PWNED\x07\x1b[2J\x1b[31mX"
FAKE_LINE = "A\nFake line: 1. Champion"


def test_names_stored_before_the_checks_are_printed_escaped(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "3")
    cli("players", "add", "Anna")
    # As an older version stored them, before `players add` refused such names.
    old = [
        ev.make_event(ev.PLAYER_REGISTERED, {"player_id": 2, "name": HOSTILE, "club": FAKE_LINE}),
        ev.make_event(ev.PLAYER_REGISTERED, {"player_id": 3, "name": "\u202eCarla" + "x" * 60_000}),
    ]
    SQLEventStore(database_url()).append("tournament-cup", old, expected_version=len(stored()))
    cli("round", "start")
    for command in (
        ("players", "list"), ("standings",), ("round", "show"), ("round", "show", "--by-name"),
        ("players", "show", "2"), ("standings", "--csv"), ("log",),
    ):  # fmt: skip
        out = cli(*command).output
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out, command
        assert not any(line.startswith("Fake line") for line in out.splitlines()), command
        assert max(map(len, out.splitlines())) < 1_000, command
    assert "Evil\\x1b]0;PWNED" in cli("players", "list").output
    # The log keeps what was typed: the events themselves are never changed.
    assert stored()[2].payload["name"] == HOSTILE
