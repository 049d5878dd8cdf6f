"""Standings say what they are: before round 1 (seed order), a round drawn, during and
after it; `--round N` is the end of round N; `--as-of` says the same."""

from __future__ import annotations

import json

from tests.cli.helpers import state, stored, unsealed


def heading(cli, *args: str) -> str:  # type: ignore[no-untyped-def]
    return str(cli("standings", *args).output.splitlines()[0])


def five_players(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "4")
    for name, rating in (("Emil", "1100"), ("Anna", "1500"), ("Doris", "1200"),
                         ("Berti", "1400"), ("Carla", "1300")):  # fmt: skip
        cli("players", "add", name, "--rating", rating)


def finish(cli, number: int) -> None:  # type: ignore[no-untyped-def]
    for mid in state().rounds[number - 1].matches:
        if not state().matches[mid].decided:
            cli("results", "enter", mid, "--forfeit", str(min(state().matches[mid].players)))


def test_before_round_one_the_players_are_listed_in_seed_order(cli) -> None:  # type: ignore[no-untyped-def]
    five_players(cli)
    out = unsealed(cli("standings").output).splitlines()
    assert out[0] == "Cup: standings before round 1 (in seed order) (event 6)"
    assert out[1].split() == ["seed", "player", "club", "category", "rating"]
    assert [line.split()[1] for line in out[2:]] == ["Anna", "Berti", "Carla", "Doris", "Emil"]
    rows = json.loads(cli("standings", "--json").output)["rows"]
    assert [r["name"] for r in rows] == ["Anna", "Berti", "Carla", "Doris", "Emil"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    cli("players", "checkin", "1-4")  # Carla (5) has not come (yet): the draw leaves her out
    carla = next(x for x in cli("standings").output.splitlines() if "Carla" in x)
    assert carla.split()[:4] == ["3", "Carla", "(5)", "[not"]


def test_the_heading_says_drawn_during_and_after(cli) -> None:  # type: ignore[no-untyped-def]
    five_players(cli)
    cli("round", "start")
    assert heading(cli).startswith(
        "Cup: standings before any result (round 1 drawn: 0 of 2 matches decided, the bye counted)"
    )
    cli("results", "enter", "1.1", "--forfeit", str(min(state().matches["1.1"].players)))
    assert heading(cli).startswith("Cup: standings during round 1: 1 of 2 matches decided")
    finish(cli, 1)
    assert heading(cli).startswith("Cup: standings after round 1 (event")
    cli("round", "start")
    drawn = len(stored())
    assert heading(cli).startswith(
        "Cup: standings after round 1 (round 2 drawn: 0 of 2 matches decided, the bye counted)"
    )
    # --as-of says the same of the past: the event before round 2 was drawn.
    assert heading(cli, "--as-of", str(drawn - 1)) == (
        f"Cup: standings after round 1 (event {drawn - 1})"
    )


def test_standings_of_a_round_are_its_end_before_the_next_draw(cli) -> None:  # type: ignore[no-untyped-def]
    five_players(cli)
    cli("round", "start")
    finish(cli, 1)
    end_of_one = len(stored())
    cli("round", "start")
    cli("results", "enter", "2.1", "--forfeit", str(min(state().matches["2.1"].players)))
    out = cli("standings", "--round", "1").output.splitlines()
    assert out[0] == f"Cup: standings after round 1 (event {end_of_one})"
    assert out[1] == "  (as it stood when round 2 was drawn)"
    now = cli("standings", "--round", "2").output.splitlines()[0]
    assert now.startswith("Cup: standings during round 2: 1 of 2 matches decided")
    rid = state().matches["1.1"].entries[0].result_id
    cli("results", "correct", rid, "--void", "--by", "ref", "--why", "wrong table", "--yes")
    note = cli("standings", "--round", "1").output.splitlines()[1]
    assert note == (
        "  (as it stood when round 2 was drawn; 1 result of round 1 was entered or corrected "
        "since: `tournament standings` counts it)"
    )
    refusals = [
        (("--round", "3"), "has rounds 1 to 2 drawn, not round 3"),
        (("--round", "1", "--as-of", "3"), "give --round or --as-of, not both"),
    ]
    for bad, says in refusals:
        refused = cli("standings", *bad, ok=False)
        assert refused.exit_code == 1 and says in refused.output
