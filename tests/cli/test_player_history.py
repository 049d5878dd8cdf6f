"""What a club prints besides the standings: each player's evening (`players show`), the
progress table (`standings --crosstable`) and the list for the wall that finds a
player's table by name (`round show --by-name`)."""

from __future__ import annotations

from tests.cli.helpers import state

NAMES = ("Anna Huber", "Berti Gruber", "Carla Maier", "Doris Wimmer", "Emil Pichler")


def two_rounds_of_five(cli) -> None:  # type: ignore[no-untyped-def]
    """Five players, best of 1: round 1 played (the first-named wins every match, one of
    them by forfeit), round 2 drawn and open."""
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "3")
    for name in NAMES:
        cli("players", "add", name)
    cli("round", "start")
    t = state()
    first, *rest = t.rounds[0].matches
    cli("results", "enter", first, "--forfeit", str(t.matches[first].players[0]))
    for mid in rest:
        cli("results", "enter", mid, "--tally", "7 4 1 0 / 7 6")
    cli("round", "start")


def test_players_show_tells_a_players_evening_round_by_round(cli) -> None:  # type: ignore[no-untyped-def]
    two_rounds_of_five(cli)
    t = state()
    bye = t.rounds[0].byes[0]
    lines = cli("players", "show", str(bye)).output.splitlines()
    assert lines[0].startswith(t.label(bye))
    assert lines[1] == "  round  1  bye"
    m = next(t.matches[mid] for mid in t.rounds[1].matches if bye in t.matches[mid].players)
    opponent = m.labels[1 - m.seat_of(bye)]
    assert lines[2].startswith(f"  round  2  table {m.table}, {m.match_id}: v {opponent}")
    assert lines[2].endswith("open, 0:0 Bummerl, game points 0:0")
    assert lines[3].startswith("  standings: rank ") and ", 1 pts, W-L 0-0," in lines[3]


def test_players_show_names_a_forfeit_and_a_win_at_the_table(cli) -> None:  # type: ignore[no-untyped-def]
    two_rounds_of_five(cli)
    t = state()
    forfeited, played = (t.matches[mid] for mid in t.rounds[0].matches)
    winner = forfeited.players[0]
    assert "won 1:0 Bummerl by forfeit" in cli("players", "show", str(winner)).output
    loser = played.players[1]
    assert "lost 0:1 Bummerl, game points 1:7" in cli("players", "show", str(loser)).output


def test_players_show_refuses_an_unknown_player(cli) -> None:  # type: ignore[no-untyped-def]
    two_rounds_of_five(cli)
    out = cli("players", "show", "9", ok=False)
    assert out.exit_code == 1 and out.output == "Error: player: there is no player 9 (T-player)\n"


def test_the_crosstable_gives_each_round_as_opponent_and_result(cli) -> None:  # type: ignore[no-untyped-def]
    two_rounds_of_five(cli)
    t = state()
    out = cli("standings", "--crosstable").output.splitlines()
    header = next(line for line in out if line.lstrip().startswith("#"))
    assert header.split()[-3:] == ["R1", "R2", "pts"]
    forfeited = t.matches[t.rounds[0].matches[0]]
    a, b = forfeited.players
    row_a = next(line for line in out if f"({a})" in line)
    row_b = next(line for line in out if f"({b})" in line)
    assert f"{b}+k" in row_a.split() and f"{a}-k" in row_b.split()  # kampflos both ways
    bye = t.rounds[0].byes[0]
    assert next(line for line in out if f"({bye})" in line).split()[-3] == "bye"
    assert any("?" in cell for line in out for cell in line.split())  # round 2 is open
    assert all(len(line) <= 100 for line in out)
    assert "k not played (forfeit, walkover)" in "\n".join(out)


def test_the_crosstable_is_a_printout_not_a_data_format(cli) -> None:  # type: ignore[no-untyped-def]
    two_rounds_of_five(cli)
    out = cli("standings", "--crosstable", "--csv", ok=False)
    assert out.exit_code == 1 and "crosstable: it is a printout" in out.output


def test_find_your_table_lists_every_player_by_name(cli) -> None:  # type: ignore[no-untyped-def]
    two_rounds_of_five(cli)
    t = state()
    lines = cli("round", "show", "--by-name").output.splitlines()
    assert lines[0] == "Round 2: find your table"
    names = [line.split(" (")[0].strip() for line in lines[1:]]
    assert names == sorted(NAMES, key=str.casefold)
    bye = t.rounds[1].byes[0]
    assert next(line for line in lines if f"({bye})" in line).endswith("bye")
    m = t.matches[t.rounds[1].matches[0]]
    a_line = next(line for line in lines if line.strip().startswith(m.labels[0]))
    assert f"table {m.table:>3}  {m.match_id}  v {m.labels[1]}" in a_line
