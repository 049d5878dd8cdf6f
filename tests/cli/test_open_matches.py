"""The organiser's evening around open matches (T-round): `round start` names every open
match, one a correction reopened included; `results missing` lists them."""

from __future__ import annotations

from tests.cli.helpers import state, stored


def six_players_round_two(cli) -> str:  # type: ignore[no-untyped-def]
    """The trial's reproduction: 6 players, best of 3, round 1 played 2:0 by tallies,
    round 2 drawn. Returns the result id of 1.1's second Bummerl."""
    cli("create", "Cup", "--id", "cup", "--best-of", "3", "--seed", "5", "--option", "rounds=4")
    for n in range(1, 7):
        cli("players", "add", f"Spieler {'ABCDEF'[n - 1]}")
    cli("round", "start")
    for mid in state().rounds[0].matches:
        cli("results", "enter", mid, "--tally", "7 4 1 0 / 7 5")
        cli("results", "enter", mid, "--tally", "7 4 1 0 / 7 6")
    cli("round", "start")
    return state().matches["1.1"].entries[1].result_id


def test_round_start_names_the_match_a_correction_reopened(cli) -> None:  # type: ignore[no-untyped-def]
    rid = six_players_round_two(cli)
    preview = cli("results", "correct", rid, "--tally", "7 6 / 7 5 3 0", "--by", "Schiri",
                  "--why", "Spalten vertauscht", "--yes").output  # fmt: skip
    assert "match 1.1 is open again: enter its deciding Bummerl" in preview
    for mid in state().rounds[1].matches:
        cli("results", "enter", mid, "--forfeit", str(min(state().matches[mid].players)))
    assert "open again after a correction (round start waits for them): 1.1" in cli("show").output
    before = len(stored())
    refused = cli("round", "start", ok=False)
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    assert refused.output.startswith(
        "Error: round: round 3 cannot be drawn: match 1.1 (round 1, Spieler A (1) v "
    )
    assert "is open again after a correction: enter its deciding Bummerl first" in refused.output
    assert len(stored()) == before
    missing = cli("results", "missing").output
    assert "round 2: all 3 matches decided" in missing
    assert "earlier rounds:" in missing and " 1.1 " in missing and "Bummerl 1:1" in missing
    # The deciding Bummerl flags the later matches of both players, as a correction does.
    entered = cli("results", "enter", "1.1", "--tally", "7 5 3 0 / 7 6").output
    assert "warning: match 1.1 (round 1) changed after later rounds were drawn: flagged 2." in (
        entered
    )
    flagged = cli("show").output.splitlines()[-1]
    assert flagged.startswith("flagged matches (see `results show`): ")
    m = state().matches["1.1"]
    later = [x for p in m.players for x in state().player_matches[p] if x.startswith("2.")]
    assert all(x in flagged for x in later)
    assert "entered after this match was drawn" in cli("results", "show", later[0]).output
    cli("round", "start")


def test_results_missing_lists_every_open_match_with_table_and_players(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "2")
    for n in range(1, 21):
        cli("players", "add", f"Spielerin {n}")
    cli("round", "start")
    cli("results", "enter", "1.4", "--forfeit", "4")
    out = cli("results", "missing").output.splitlines()
    assert out[0] == "round 1: 9 of 10 matches still open"
    t = state()
    rows = out[1:]
    assert len(rows) == 9 and not any(" 1.4 " in r for r in rows)
    for row, mid in zip(rows, [m for m in t.rounds[0].matches if m != "1.4"], strict=True):
        m = t.matches[mid]
        assert row.split()[:3] == ["table", str(m.table), mid]
        assert m.labels[0] in row and m.labels[1] in row and row.endswith("nothing entered")
    refused = cli("round", "start", ok=False).output
    open_ids = ", ".join(m for m in t.rounds[0].matches if m != "1.4")
    assert f"no result yet for {open_ids} (" in refused
    assert "round 1: 10 of 10" not in cli("results", "missing", "--round", "1").output
    bad = cli("results", "missing", "--round", "2", ok=False)
    assert bad.exit_code == 1 and "rounds 1 to 1 are drawn, not 2" in bad.output


def test_one_match_is_counted_in_the_singular(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "2")
    for name in ("Anna", "Berti"):
        cli("players", "add", name)
    cli("round", "start")
    assert cli("results", "missing").output.startswith("round 1: 1 of 1 match still open\n")
    cli("results", "enter", "1.1", "--forfeit", "1")
    assert cli("results", "missing").output.startswith("round 1: its 1 match decided")
    assert "0/1 match decided" not in cli("show").output and "1/1 match decided" in (
        cli("show").output
    )


def test_the_refusal_says_a_half_entered_match_is_not_decided_yet(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "3", "--seed", "5", "--option", "rounds=2")
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    cli("round", "start")
    cli("results", "enter", "1.1", "--tally", "7 4 1 0 / 7 5")  # one Bummerl of two
    refused = cli("round", "start", ok=False).output
    assert (
        "round 1 is not complete: no result yet for 1.2; 1.1 not decided yet "
        "(`tournament results missing` lists them with tables and players)"
    ) in refused
    assert "no result yet for 1.1" not in refused
