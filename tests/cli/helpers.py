"""Tournaments the CLI tests set up, and their state read straight from the store."""

from __future__ import annotations

from typing import Any

from tournament.domain.model.state import Tournament


def stored(stream: str = "tournament-cup") -> list[Any]:
    """The stream's events as stored in the configured store (``DATABASE_URL``)."""
    from tournament.config import database_url
    from tournament.eventstore import SQLEventStore

    return SQLEventStore(database_url()).read_stream(stream)


def state(tournament_id: str = "cup") -> Tournament:
    """The tournament as the service folds it from the configured store."""
    from tournament.app.service import TournamentService
    from tournament.config import database_url
    from tournament.eventstore import SQLEventStore

    return TournamentService(SQLEventStore(database_url())).state(tournament_id)


def create_cup(cli, fmt: str, *options: str) -> None:  # type: ignore[no-untyped-def]
    """Tournament ``cup`` in format ``fmt``, best of 1, seed 3, with format options."""
    cli("create", "Cup", "--id", "cup", "--format", fmt, "--best-of", "1", "--seed", "3",
        *(x for o in options for x in ("--option", o)))  # fmt: skip


def play_round(cli) -> None:  # type: ignore[no-untyped-def]
    """The lower start number wins every match of the next round."""
    cli("round", "start")
    t = state()
    for mid in t.rounds[-1].matches:
        if not t.matches[mid].decided:
            cli("results", "enter", mid, "--forfeit", str(min(t.matches[mid].players)))


def friday_match(cli, best_of: str = "3") -> None:  # type: ignore[no-untyped-def]
    """Bernd (1) v Franz (2), Bernd deals first."""
    cli("create", "Cup", "--best-of", best_of, "--seed", "1", "--first-dealer", "higher_seed")
    cli("players", "add", "Bernd", "--rating", "1600")
    cli("players", "add", "Franz", "--rating", "1500")
    cli("players", "seed", "--by", "rating")
    cli("round", "start")


def lettered_cup(cli, fmt: str, players: str, *args: str) -> None:  # type: ignore[no-untyped-def]
    """Tournament ``cup`` in format ``fmt``, best of 1, with ``args`` for `create` (seed,
    options, ...), and one player per letter of ``players`` (A, B, C: start numbers 1-3)."""
    cli("create", "Cup", "--id", "cup", "--format", fmt, "--best-of", "1", *args)
    for name in players:
        cli("players", "add", name)


def unsealed(output: str) -> str:
    """A printout without its seal line at the end (every sheet ends with one: checked in
    tests/cli/test_printed_seals.py), for the tests that look at the sheet's own lines."""
    lines = output.splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if line.startswith(("Seal #", "Not sealed")))
    assert all(line.startswith("  ") for line in lines[last + 1 :]), output  # wrapped: indented
    return "".join(lines[:last])
