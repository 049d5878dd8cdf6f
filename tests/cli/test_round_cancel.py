"""`tournament round cancel`: the latest round, before anything is recorded in it, is
drawn again (docs/tournaments.md, T-round)."""

from __future__ import annotations

from tests.cli.helpers import create_cup, play_round, state, stored


def points(cli, *extra: str) -> dict[int, int]:  # type: ignore[no-untyped-def]
    rows = cli("standings", "--csv", *extra).output.splitlines()[1:]
    return {int(r.split(",")[1]): int(r.split(",")[6]) for r in rows}


def test_cancel_then_start_draws_the_late_arrival_in(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "swiss")
    for name in ("A", "B", "C", "D", "E"):
        cli("players", "add", name)
    cli("round", "start")
    first_seed = state().rounds[0].seed
    assert points(cli)[5] == 1  # the bye
    drawn = len(stored())
    out = cli("round", "cancel", "--by", "anna", "--why", "Franz was late").output
    assert "round 1 cancelled" in out
    assert state().current_round == 0 and not state().matches
    assert points(cli)[5] == 0
    assert points(cli, "--as-of", str(drawn))[5] == 1  # what stood before the cancellation
    cli("players", "add", "Franz")
    cli("round", "start")
    t = state()
    assert t.current_round == 1 and t.rounds[0].seed != first_seed
    drawn_players = sorted(p for mid in t.rounds[0].matches for p in t.matches[mid].players)
    assert drawn_players == [1, 2, 3, 4, 5, 6] and t.rounds[0].byes == []
    assert not t.players[6].late
    cancelled = [e for e in stored() if e.type == "round.cancelled"]
    assert [dict(e.payload) for e in cancelled] == [
        {"round": 1, "by": "anna", "why": "Franz was late", "cancellation": 1}
    ]
    assert "round.cancelled" in cli("log").output
    assert "Franz (6)" in cli("round", "show").output


def test_cancel_is_refused_once_a_result_is_in(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "swiss")
    for name in ("A", "B", "C", "D"):
        cli("players", "add", name)
    play_round(cli)
    cli("round", "start")
    mid = state().rounds[-1].matches[1]
    cli("results", "enter", mid, "--forfeit", str(min(state().matches[mid].players)))
    before = len(stored())
    result = cli("round", "cancel", "--why", "oops", ok=False)
    assert result.exit_code != 0
    message = result.output.strip().splitlines()[-1]
    assert "T-round" in message and f"match {mid}" in message
    assert len(stored()) == before and state().current_round == 2


def test_only_after_a_draw_and_with_a_reason(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "swiss")
    for name in ("A", "B"):
        cli("players", "add", name)
    assert "T-round" in cli("round", "cancel", "--why", "x", ok=False).output
    cli("round", "start")
    assert "T-round" in cli("round", "cancel", "--why", " ", ok=False).output
    assert state().current_round == 1


def test_later_round_cancel_keeps_earlier_standings(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "swiss")
    for name in ("A", "B", "C", "D", "E"):
        cli("players", "add", name)
    play_round(cli)
    after_round_1 = points(cli)
    cli("round", "start")
    cli("players", "withdraw", "4", "--policy", "drop")
    cli("round", "cancel", "--why", "D left before playing")
    assert points(cli) == after_round_1
    assert state().players[4].withdrawn == 1
    cli("round", "start")
    t = state()
    assert t.current_round == 2
    assert all(4 not in t.matches[mid].players for mid in t.rounds[1].matches)


def test_knockout_round_1_is_drawn_again_with_a_new_bracket(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "single_elimination")
    for name in ("A", "B", "C", "D"):
        cli("players", "add", name)
    cli("round", "start")
    old = state().rounds[0].info["bracket"]
    cli("round", "cancel", "--why", "Erna checked in late")
    cli("players", "add", "Erna")
    cli("round", "start")
    t = state()
    new = t.rounds[0].info["bracket"]
    assert new != old
    in_bracket = {p for mid in t.rounds[0].matches for p in t.matches[mid].players}
    assert 5 in in_bracket | set(t.rounds[0].byes)
    assert "Erna" in cli("bracket").output
    for mid in t.rounds[0].matches:
        if not state().matches[mid].decided:
            cli("results", "enter", mid, "--forfeit", str(min(t.matches[mid].players)))
    assert state().round_complete()
    play_round(cli)
    assert state().current_round == 2
