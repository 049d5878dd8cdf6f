"""Lives left and bought in the lives format's standings; a finished tournament names its
champion (a winner per group in a round robin in groups) in
`tournament show` (end to end on a real SQLite file)."""

from __future__ import annotations

import pytest

from tests.cli.helpers import create_cup, play_round, state
from tests.domain.test_formats_end_to_end import run
from tournament.domain.model.settings import FORMATS
from tournament.domain.model.state import fold
from tournament.domain.standings.pairing import finished, lives_left


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
    assert ",schneider,decided_by,lives,lives_bought,final_points,tb_" in csv_header


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


def nine_in_two_groups(cli, fmt: str, *options: str) -> None:  # type: ignore[no-untyped-def]
    """Nine players in two groups: group 1 has five (a bye a round), group 2 four."""
    create_cup(cli, fmt, "groups=2", *options)
    for n in range(1, 10):
        cli("players", "add", f"Spieler {n}")


def test_a_round_robin_in_groups_has_a_winner_per_group_and_no_champion(cli) -> None:  # type: ignore[no-untyped-def]
    nine_in_two_groups(cli, "round_robin")
    while not finished(state()):
        play_round(cli)
    out = cli("show").output
    assert "champion" not in out
    final = out[out.index("finished") :].splitlines()
    groups = state().rounds[0].info["groups"]
    assert final[1].startswith(f"  Group 1: winner Spieler {groups[0][0]} ({groups[0][0]})")
    assert final[2].startswith("    2. ") and final[3].startswith("    3. ")
    assert final[4].startswith(f"  Group 2: winner Spieler {groups[1][0]} ({groups[1][0]})")
    # Nobody from group 2 is placed under group 1's winner, or the other way round.
    in_group = {1: final[1:4], 2: final[4:7]}
    for number, lines in in_group.items():
        for line in lines:
            pid = line.rsplit("(", 1)[1].split(")")[0]
            assert pid in groups[number - 1]


def test_group_rounds_label_each_table_and_bye_with_its_group(cli) -> None:  # type: ignore[no-untyped-def]
    nine_in_two_groups(cli, "round_robin")
    out = cli("round", "start").output
    group_of = {p: n for n, g in enumerate(state().rounds[0].info["groups"], 1) for p in g}
    t = state()
    for mid in t.rounds[0].matches:
        m = t.matches[mid]
        line = next(x for x in out.splitlines() if f"  {mid}  " in x)
        assert f"  group {group_of[str(m.players[0])]}  {mid}  " in line
    (bye,) = t.rounds[0].byes
    assert f"  bye        group {group_of[str(bye)]}  Spieler {bye} ({bye})" in out
    assert cli("round", "show", "1").output == out


def test_groups_then_knockout_crowns_the_knockout_winner(cli) -> None:  # type: ignore[no-untyped-def]
    nine_in_two_groups(cli, "groups_knockout", "advance=2")
    while not any("seeds" in r.info for r in state().rounds):
        play_round(cli)  # the lower start number wins: Spieler 1 tops the group points
    while not finished(state()):  # in the knockout the higher start number wins
        cli("round", "start")
        t = state()
        for mid in t.rounds[-1].matches:
            if not t.matches[mid].decided:
                cli("results", "enter", mid, "--forfeit", str(max(t.matches[mid].players)))
    out = cli("show").output
    assert "Group 1: winner" not in out
    line = next(x for x in out.splitlines() if x.startswith("finished: champion"))
    champion = int(line.rsplit("(", 1)[1].rstrip(")"))
    assert champion != 1
    assert f"Champion: Spieler {champion} ({champion})" in cli("bracket").output
    labels = cli("round", "show").output
    assert "group" not in labels  # a knockout round: no group labels
