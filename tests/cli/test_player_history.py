"""What a club prints besides the standings: each player's evening (`players show`), the
progress table (`standings --crosstable`) and the list for the wall that finds a
player's table by name (`round show --by-name`)."""

from __future__ import annotations

from tests.cli.helpers import state, unsealed

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
    assert lines[3].startswith("  standings: rank ") and ", 1 pt, W-L 0-0," in lines[3]


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
    lines = unsealed(cli("round", "show", "--by-name").output).splitlines()
    assert lines[0] == "Round 2: find your table"
    names = [line.split(" (")[0].strip() for line in lines[1:]]
    assert names == sorted(NAMES, key=str.casefold)
    bye = t.rounds[1].byes[0]
    assert next(line for line in lines if f"({bye})" in line).endswith("bye")
    m = t.matches[t.rounds[1].matches[0]]
    a_line = next(line for line in lines if line.strip().startswith(m.labels[0]))
    assert f"table {m.table:>3}  {m.match_id}  v {m.labels[1]}" in a_line


def late_entry_scored_as_byes(cli) -> None:  # type: ignore[no-untyped-def]
    """Round 1 of four played; Emil (5) enters late, his missed round scored as a bye."""
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "1")
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    cli("round", "start")
    t = state()
    for mid in t.rounds[0].matches:
        cli("results", "enter", mid, "--forfeit", str(min(t.matches[mid].players)))
    cli("players", "add", "Emil", "--missed-rounds-score", "bye")
    cli("round", "start")


def test_a_missed_round_scored_as_a_bye_says_so_where_its_point_is_counted(cli) -> None:  # type: ignore[no-untyped-def]
    late_entry_scored_as_byes(cli)
    out = cli("standings", "--crosstable").output.splitlines()
    emil = next(line for line in out if "Emil (5)" in line)
    assert emil.split()[-3::2] == ["bye*", "1"]  # round 1, and the point it accounts for
    assert "bye*: a round missed by a late entry, scored as a bye (T-late-entry)" in out
    shown = cli("players", "show", "5").output.splitlines()
    assert shown[1] == "  round  1  missed (late entry), scored as a bye"


def test_a_missed_round_that_scores_nothing_stays_no_game(cli) -> None:  # type: ignore[no-untyped-def]
    late_entry_scored_as_byes(cli)
    cli("players", "add", "Franz", "--missed-rounds-score", "0")
    franz = next(line for line in cli("standings", "--crosstable").output.splitlines()
                 if "Franz (6)" in line)  # fmt: skip
    assert franz.split()[-3:] == ["..", "..", "0"]
    assert cli("players", "show", "6").output.splitlines()[1] == "  round  1  missed (late entry)"


def test_the_crosstable_marks_a_withdrawn_player_as_the_standings_do(cli) -> None:  # type: ignore[no-untyped-def]
    two_rounds_of_five(cli)
    cli("players", "withdraw", "2")
    assert "Berti Gruber (2) [withdrawn]" in cli("standings").output
    assert "Berti Gruber (2) [withdrawn]" in cli("standings", "--crosstable").output


def test_players_show_names_who_dealt_first(cli) -> None:  # type: ignore[no-untyped-def]
    # ", dealt first" right after the opponent's name read as the opponent's deal.
    two_rounds_of_five(cli)
    m = state().matches[state().rounds[1].matches[0]]
    dealer = m.labels[m.first_dealer]
    for pid in m.players:
        line = next(x for x in cli("players", "show", str(pid)).output.splitlines()
                    if m.match_id in x)  # fmt: skip
        assert f"v {m.labels[1 - m.seat_of(pid)]}, {dealer} dealt first: open" in line


def test_players_show_says_why_a_round_gave_a_player_nothing(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "3")
    for name in ("Anna", "Berti", "Carla", "Doris", "Emil", "Fritz"):
        cli("players", "add", name)
    cli("players", "checkin", "1-4")
    cli("round", "start")  # Emil (5) and Fritz (6) are not here yet
    assert "  round  1  not checked in" in cli("players", "show", "5").output
    cli("players", "withdraw", "6", "--why", "not coming")
    for mid in ("1.1", "1.2"):
        cli("results", "enter", mid, "--forfeit", "both")
    cli("round", "start")
    assert "  round  2  withdrawn" in cli("players", "show", "6").output
