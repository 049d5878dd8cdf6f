"""`tournament live show`: the cards of a live hand as a seat or a spectator may see them
(engine.views), on a real SQLite file (no mocks)."""

from __future__ import annotations

import re

import pytest

from tests.cli.helpers import friday_match


@pytest.fixture
def cli(cli):  # type: ignore[no-untyped-def]
    friday_match(cli)  # Bernd (1) v Franz (2), Bernd deals first
    return cli


def deal(cli) -> str:  # type: ignore[no-untyped-def]
    return cli("live", "deal", "1.1", "--seed", "3").output.split()[0]


def hand(stream: str):  # type: ignore[no-untyped-def]
    from tournament.config import database_url
    from tournament.domain.model.hands import fold_hand
    from tournament.eventstore import SQLEventStore

    return fold_hand(SQLEventStore(database_url()).read_stream(stream))


def cards_in(text: str) -> set[str]:
    """Card codes (``TD``, ``KS``) in ``text``; hand ids are lower-case hex, never a match."""
    return set(re.findall(r"\b[ATKQJ][CDHS]\b", text))


def test_a_spectator_sees_no_hidden_card(cli) -> None:  # type: ignore[no-untyped-def]
    stream = deal(cli)
    cli("live", "play", stream, "1:TD")  # Franz leads TD
    state = hand(stream)
    out = cli("live", "show", stream).output
    held = {c.code for seat in (0, 1) for c in state.cards_of(seat)}
    assert not cards_in(out) & held
    assert cards_in(out) == {"KC", "TD"}  # the turn-up and the card on the table
    assert "on the table: TD, led by seat 1 Franz (2)" in out
    assert "to act: seat 0 Bernd (1), to answer TD" in out
    assert "you may" not in out


def test_a_seat_sees_its_hand_and_its_legal_actions(cli) -> None:  # type: ignore[no-untyped-def]
    stream = deal(cli)
    state = hand(stream)
    out = cli("live", "show", stream, "--seat", "1").output
    own = {c.code for c in state.cards_of(1)}
    assert own <= cards_in(out)
    assert not cards_in(out) & {c.code for c in state.cards_of(0)}
    assert "seat 1 Franz (2) sees:" in out and "turn-up KC" in out
    legal = next(x for x in out.splitlines() if "you may:" in x).split(": ", 1)[1].split()
    assert sorted(legal) == sorted(str(a) for a in state.legal_actions() if a.seat == 1)
    cli("live", "play", stream, *legal[:1])  # the notation shown is what `live play` takes


def test_after_the_first_trick_a_seat_sees_the_last_trick_and_its_tricks(cli) -> None:  # type: ignore[no-untyped-def]
    stream = deal(cli)
    cli("live", "play", stream, "1:TD", "0:AD")
    out = cli("live", "show", stream, "--seat", "0").output
    assert "last trick: TD led by seat 1 Franz (2), AD in reply; won by seat 0 Bernd (1)" in out
    assert "your tricks you may look at: TD+AD (21 points)" in out
    assert "talon: 8 cards" in out and "tricks won: 1:0" in out


def test_live_play_prints_whose_turn_and_where_to_look(cli) -> None:  # type: ignore[no-untyped-def]
    stream = deal(cli)
    out = cli("live", "play", stream, "1:TD").output.splitlines()
    assert out == [
        "to act: seat 0 Bernd (1), to answer TD",
        f"  their cards and options: tournament live show {stream} --seat 0",
    ]


def test_results_show_mentions_the_live_hand_in_progress(cli) -> None:  # type: ignore[no-untyped-def]
    stream = deal(cli)
    out = cli("results", "show", "1.1").output
    assert f"live hand {stream} in progress (Bummerl 1 hand 1)" in out


def test_showing_an_unknown_hand_is_one_line(cli) -> None:  # type: ignore[no-untyped-def]
    out = cli("live", "show", "hand-nonexistent", ok=False)
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 1
    assert "there is no live hand 'hand-nonexistent'" in out.output
