"""A double no-show is a loss for each, and nothing withdraws the players: the organiser
is warned, after the entry and when the next round pairs them again."""

from __future__ import annotations

from tests.cli.helpers import create_cup, state


def test_a_double_no_show_warns_that_both_are_paired_again(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "swiss", "rounds=2")
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    cli("round", "start")
    t = state()
    empty, other = t.rounds[-1].matches
    entered = cli("results", "enter", empty, "--forfeit", "both")
    a, b = (t.label(p) for p in t.matches[empty].players)
    assert (
        f"warning: match {empty}: both players were absent; {a} and {b} are both in the next "
        "draw again (each on their own" in entered.output
    )
    assert "tournament players withdraw" in entered.output
    assert all(p.active for p in state().players.values())  # nobody withdrawn by itself
    cli("results", "enter", other, "--forfeit", str(min(t.matches[other].players)))
    started = cli("round", "start")
    now = state()
    where = [next(m for m in now.rounds[1].matches if p in now.matches[m].players)
             for p in now.matches[empty].players]  # fmt: skip
    # Four players, all forfeits: the two absent players are paired together again.
    assert where[0] == where[1]
    assert (
        f"{a} and {b} are paired with each other again in round 2 ({where[0]}): a double "
        "no-show is no game played" in started.output
    )


def test_round_start_names_the_new_match_of_each_absent_player(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "swiss", "rounds=3")
    for n in range(1, 9):
        cli("players", "add", f"Spieler {n}")
    cli("round", "start")
    t = state()
    empty, *others = t.rounds[-1].matches
    cli("results", "enter", empty, "--forfeit", "both")
    for mid in others:  # played at the table: those pairs are not drawn again
        cli("results", "enter", mid, "--tally", "7 4 1 0 / 7 5")
    started = cli("round", "start")
    now = state()
    a, b = now.matches[empty].players
    where = [next(m for m in now.rounds[1].matches if p in now.matches[m].players) for p in (a, b)]
    assert where[0] != where[1]  # each against someone else: not "paired again" together
    assert (
        f"{now.label(a)} and {now.label(b)} are both drawn again in round 2 ({where[0]} and "
        f"{where[1]}), each against a new opponent" in started.output
    )


def test_the_knockout_warns_only_of_the_absent_player_it_draws_again(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "groups_knockout", "groups=2", "advance=1")
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    cli("round", "start")  # group 1: Anna v Doris, group 2: Berti v Carla
    entered = cli("results", "enter", "1.1", "--forfeit", "both").output
    # The last group round: the knockout takes only those the groups send on.
    assert "are both in the next draw again if the groups send them on" in entered
    cli("results", "enter", "1.2", "--forfeit", "2")
    started = cli("round", "start").output  # the final: Berti v Doris; Anna is out
    assert "R1-1  Berti (2)  v  Doris (4)" in started
    assert "match 1.1: both players were absent; Doris (4) is drawn again in round 2 (R1-1)" in (
        started
    )
    assert "not drawn" not in started and "Anna (1) and" not in started


def test_a_lives_player_out_of_lives_is_not_said_to_be_drawn_again(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "lives", "lives=2")
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    cli("round", "start", "--pair", "1-4,2-3", "--yes")
    first = cli("results", "enter", "1.1", "--forfeit", "both").output  # a life each
    assert "Anna (1) and Doris (4) are both in the next draw again" in first
    cli("results", "enter", "1.2", "--forfeit", "2")
    cli("round", "start", "--pair", "1-4,2-3", "--yes")
    second = cli("results", "enter", "2.1", "--forfeit", "both").output  # the last life
    assert "next draw" not in second  # both are out of lives (T-lives)
