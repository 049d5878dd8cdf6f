"""``tournament results correct-sheet`` (O-M4): the whole sheet in one correction, after
the same preview as ``results correct``; thin over the domain's ``correct_sheet``."""

from __future__ import annotations

from tests.cli.helpers import state, stored


def four_players(cli) -> None:  # type: ignore[no-untyped-def]
    """Best of 3, four players; round 1's table 1 typed 2:0 for its first column, table 2
    entered, round 2 drawn."""
    cli("create", "Cup", "--id", "cup", "--best-of", "3", "--seed", "1")
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    cli("round", "start")
    for mid in state().rounds[0].matches:
        for tally in ("7 4 1 0 / 7 5", "7 4 2 0 / 7 6"):
            cli("results", "enter", mid, "--tally", tally)
    cli("round", "start")


def test_correct_sheet_swaps_the_columns_as_one_correction(cli) -> None:  # type: ignore[no-untyped-def]
    four_players(cli)
    t = state()
    mid = t.rounds[0].matches[0]
    first, second = t.matches[mid].players
    out = cli("results", "correct-sheet", mid, "--swap", "--by", "desk", "--why", "swapped",
              "--yes").output  # fmt: skip
    assert f"correcting the whole sheet of match {mid} would change:" in out and "stored" in out
    assert "open again" not in out
    after = state()
    match = after.matches[mid]
    assert match.players[match.summary.winner or 0] == second != first
    flags = [len(m.flags) for m in after.matches.values() if m.round == 2]
    assert sorted(flags) == [1, 1]
    sheets = {e.payload["sheet"]["id"] for e in stored() if e.type == "result.corrected"}
    assert len(sheets) == 1


def test_correct_sheet_replaces_every_bummerl_with_the_typed_ones(cli) -> None:  # type: ignore[no-untyped-def]
    four_players(cli)
    mid = state().rounds[0].matches[0]
    cli("results", "correct-sheet", mid, "--tally", "7 5 / 7 4 1 0", "--tally",
        "7 4 1 0 / 7 5", "--tally", "7 6 3 / 7 5 2 0", "--by", "desk", "--why", "x",
        "--yes")  # fmt: skip
    assert state().matches[mid].summary.bummerl == (1, 2)


def test_correct_sheet_wants_swap_or_the_bummerl_and_stores_nothing_else(cli) -> None:  # type: ignore[no-untyped-def]
    four_players(cli)
    mid = state().rounds[0].matches[0]
    before = len(stored())
    out = cli("results", "correct-sheet", mid, "--by", "desk", "--why", "x", "--yes", ok=False)
    assert out.exit_code == 1 and "give --swap or" in out.output and "Traceback" not in out.output
    both = cli("results", "correct-sheet", mid, "--swap", "--tally", "7 5 / 7 4 1 0", "--by",
               "desk", "--why", "x", "--yes", ok=False)  # fmt: skip
    assert both.exit_code == 1
    bad = cli("results", "correct-sheet", mid, "--tally", "7 3 0 / 7", "--by", "desk", "--why",
              "x", "--yes", ok=False)  # fmt: skip
    assert bad.exit_code == 1 and "bummerl 1: Bummerl 1:" in bad.output
    assert len(stored()) == before
