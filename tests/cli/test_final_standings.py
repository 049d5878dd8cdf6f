"""Lives left and bought in the lives format's standings; a finished tournament names its
champion in `tournament show` (end to end on a real SQLite file)."""

from __future__ import annotations

import pytest

from tests.cli.helpers import create_cup, play_round, state
from tests.domain.test_formats_end_to_end import run
from tournament.domain.pairing import finished, lives_left
from tournament.domain.settings import FORMATS
from tournament.domain.state import fold


def four_players(cli, fmt: str, *options: str) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, fmt, *options)
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)


def test_lives_standings_show_lives_left_and_lives_bought(cli) -> None:  # type: ignore[no-untyped-def]
    four_players(cli, "lives", "lives=2", "buy_back=true")
    while not (out := [p for p, left in lives_left(state()).items() if left == 0]):
        play_round(cli)  # Anna never loses; the others lose lives
    cli("players", "buy-life", str(out[0]))
    table = cli("standings").output.splitlines()
    assert "  W-L  lives  bought  Bummerl" in table[1]
    line = {pid: next(x for x in table if f"({pid})" in x) for pid in range(1, 5)}
    assert "      2       0  " in line[1]
    assert "      1       1  " in line[out[0]]  # bought back: one life again
    assert all("    out       0  " in line[p] for p in out[1:])
    csv_header = cli("standings", "--csv").output.splitlines()[0]
    assert ",schneider,lives,lives_bought,tb_" in csv_header


def test_other_formats_have_no_lives_columns(cli) -> None:  # type: ignore[no-untyped-def]
    four_players(cli, "swiss", "rounds=2")
    assert "lives" not in cli("standings").output
    assert "lives" not in cli("standings", "--csv").output


def test_show_names_the_champion_of_a_finished_knockout(cli) -> None:  # type: ignore[no-untyped-def]
    four_players(cli, "single_elimination", "third_place=true")
    play_round(cli)
    assert "finished" not in cli("show").output
    play_round(cli)
    out = cli("show").output
    assert "finished: champion Anna (1)\n  2. " in out
    assert "  3. " in out


def test_show_names_the_champion_of_a_finished_swiss(cli) -> None:  # type: ignore[no-untyped-def]
    four_players(cli, "swiss", "rounds=2")
    play_round(cli)
    play_round(cli)
    assert "finished: champion Anna (1)" in cli("show").output


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_tournament_is_finished_only_when_no_round_is_left(fmt: str) -> None:
    b = run(fmt, 6, seed=4, withdrawals=0)
    assert finished(b.state)
    second = next(i for i, e in enumerate(b.events) if e.payload.get("round") == 2)
    after_round_one = fold(b.events[:second])
    assert after_round_one.round_complete() and not finished(after_round_one)
