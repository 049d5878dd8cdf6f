"""Live hands from the command line, on a real SQLite file (no mocks)."""

from __future__ import annotations

import pytest

from tests.cli.helpers import friday_match, stored


@pytest.fixture
def cli(cli):  # type: ignore[no-untyped-def]
    friday_match(cli)
    return cli


def test_playing_an_unknown_hand_says_so_in_one_line(cli) -> None:  # type: ignore[no-untyped-def]
    out = cli("live", "play", "hand-nonexistent", "1:AH", ok=False)
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert out.output.strip().splitlines() == [
        "Error: hand_stream: there is no live hand 'hand-nonexistent' in tournament cup; "
        "`tournament live deal MATCH` deals one and prints its id (hand-...) (T-live)"
    ]


def deal(cli) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """Deal 1.1's next hand: its stream and the dealer's name."""
    out = cli("live", "deal", "1.1", "--seed", "3").output
    return out.split()[0], out.split("dealer: ")[1].split(" (")[0]


def play_out(cli, stream: str) -> None:  # type: ignore[no-untyped-def]
    """Play the hand to its end, the first legal action each time (no claim before the end)."""
    from engine import Kind
    from tournament.config import database_url
    from tournament.domain.model.hands import fold_hand
    from tournament.eventstore import SQLEventStore

    store = SQLEventStore(database_url())
    while not (state := fold_hand(store.read_stream(stream))).outcome().complete:
        legal = state.legal_actions()
        action = next((a for a in legal if a.kind != Kind.CLAIM), legal[0])
        cli("live", "play", stream, str(action))


def test_one_live_hand_at_a_time_per_match(cli) -> None:  # type: ignore[no-untyped-def]
    stream, dealer = deal(cli)
    assert dealer == "Bernd"  # Bernd deals first (higher seed)
    before = len(stored())
    out = cli("live", "deal", "1.1", ok=False)
    assert out.exit_code == 1 and "Traceback" not in out.output
    line = out.output.strip()
    assert line.startswith(f"Error: match: match 1.1, Bummerl 1 hand 1: live hand {stream}")
    assert f"tournament live play {stream}" in line and f"tournament live abandon {stream}" in line
    assert "(R18: one hand at a time, the deal alternates)" in line
    # A paper hand would take the live hand's place and dealer: refused too.
    out = cli("results", "enter", "1.1", "--winner", "1", "--points", "1", ok=False)
    assert out.exit_code == 1 and f"live hand {stream}" in out.output
    assert len(stored()) == before
    assert [e.type for e in stored()].count("match.live_hand_started") == 1


def test_the_deal_alternates_across_live_and_paper_hands(cli) -> None:  # type: ignore[no-untyped-def]
    first, dealer = deal(cli)
    play_out(cli, first)
    second, dealer2 = deal(cli)  # R18: the deal alternates every hand
    assert (dealer, dealer2) == ("Bernd", "Franz")
    play_out(cli, second)
    out = cli("results", "enter", "1.1", "--winner", "1", "--points", "1", "--dealer", "2",
              ok=False)  # fmt: skip
    assert out.exit_code == 1 and "R18" in out.output  # hand 3 is Bernd's deal
    cli("results", "enter", "1.1", "--winner", "1", "--points", "1", "--dealer", "1")
    assert deal(cli)[1] == "Franz"  # hand 4


def test_an_abandoned_hand_never_counts_and_the_same_dealer_deals_again(cli) -> None:  # type: ignore[no-untyped-def]
    stream, dealer = deal(cli)
    out = cli("live", "abandon", stream, "--by", "referee", "--why", "misdeal").output
    assert f"abandoned {stream} (match 1.1)" in out
    out = cli("live", "play", stream, "1:AH", ok=False)
    assert out.exit_code == 1 and "was abandoned" in out.output
    assert cli("live", "abandon", stream, "--by", "r", "--why", "x", ok=False).exit_code == 1
    again, dealer2 = deal(cli)
    assert again != stream and dealer2 == dealer == "Bernd"
    assert "Bummerl 0:0" in cli("results", "show", "1.1").output
