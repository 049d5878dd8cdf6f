"""Knockouts from the organiser's chair: a drawn match nobody played that a correction
takes out of the bracket is void by itself (said by the preview, `bracket`, `results
missing`, refused by `results enter`); a match with something in it is still a CONFLICT
to void; and a knockout match needs a winner, so a double no-show is refused."""

from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import create_cup, lettered_cup, stored


def final_drawn(cli) -> str:  # type: ignore[no-untyped-def]
    """A v D and B v C entered with tallies (A and B win), the final A v B drawn and
    nothing entered in it; the result id of B's win over C."""
    lettered_cup(cli, "single_elimination", "ABCD", "--seed", "3")
    cli("round", "start")
    cli("results", "enter", "R1-1", "--tally", "7 4 1 0 / 7 5")
    out = cli("results", "enter", "R1-2", "--tally", "7 4 1 0 / 7 5").output
    cli("round", "start")
    return out.split()[1]  # "recorded <id> in match R1-2: ..."


def test_a_correction_says_the_unplayed_final_is_void_by_itself(cli) -> None:  # type: ignore[no-untyped-def]
    rid = final_drawn(cli)
    out = cli("results", "correct", rid, "--tally", "7 5 / 7 4 1 0", "--by", "S", "--why", "w",
              "--yes").output  # fmt: skip
    assert (
        "bracket: R2-1: recorded match R2-1 (A (1) v B (2)) was never played and no longer "
        "fits: the bracket now gives A (1) v C (3) there; `tournament round start` draws the "
        "slot again (as R2-1b)"
    ) in out
    assert "RESULT" not in out and "stays as played" not in out and "--void" not in out
    assert "stored" in out


def test_the_void_match_keeps_no_round_open_and_is_drawn_again(cli) -> None:  # type: ignore[no-untyped-def]
    rid = final_drawn(cli)
    cli("results", "correct", rid, "--tally", "7 5 / 7 4 1 0", "--by", "S", "--why", "w", "--yes")
    missing = cli("results", "missing").output
    assert "nothing entered" not in missing and "void after a correction: R2-1" in missing
    bracket = cli("bracket").output
    assert "R2-1   [1] A (1)  v  [3] C (3)  ready" in bracket
    assert "VOID R2-1: recorded match R2-1 (round 2): A (1) v B (2), never played" in bracket
    assert ", ;" not in bracket and "CONFLICT" not in bracket
    assert "flagged" not in cli("show").output
    drawn = cli("round", "start").output
    assert "R2-1b  A (1)  v  C (3)" in drawn


def test_entering_a_result_in_the_void_match_is_refused_in_one_line(cli) -> None:  # type: ignore[no-untyped-def]
    rid = final_drawn(cli)
    cli("results", "correct", rid, "--tally", "7 5 / 7 4 1 0", "--by", "S", "--why", "w", "--yes")
    before = len(stored())
    for args in (("results", "enter", "R2-1", "--winner", "1", "--points", "3"),
                 ("live", "deal", "R2-1")):  # fmt: skip
        refused = cli(*args, ok=False)
        assert refused.exit_code == 1 and "Traceback" not in refused.output
        assert refused.output.count("\n") == 1
        assert "match R2-1 (A (1) v B (2)) takes no result: it was never played" in refused.output
        assert "the bracket now gives A (1) v C (3) there" in refused.output
        assert "(as R2-1b) (T-correction)" in refused.output
    assert len(stored()) == before


def test_undoing_the_correction_before_the_redraw_makes_the_final_live_again(cli) -> None:  # type: ignore[no-untyped-def]
    rid = final_drawn(cli)
    cli("results", "correct", rid, "--tally", "7 5 / 7 4 1 0", "--by", "S", "--why", "w", "--yes")
    out = cli("results", "correct", rid, "--undo", "--by", "S", "--why", "back", "--yes").output
    assert "R2-1 (A (1) v B (2)) fits the bracket again: it is played as drawn" in out
    assert "R2-1  A (1)  v  B (2)  nothing entered" in cli("results", "missing").output
    cli("results", "enter", "R2-1", "--tally", "7 4 1 0 / 7 5")
    assert "Champion: A (1)" in cli("bracket").output


def test_a_conflict_with_part_of_a_result_says_how_far_it_got(cli) -> None:  # type: ignore[no-untyped-def]
    rid = final_drawn(cli)
    cli("results", "enter", "R2-1", "--winner", "1", "--points", "1")
    cli("results", "correct", rid, "--tally", "7 5 / 7 4 1 0", "--by", "S", "--why", "w", "--yes")
    bracket = cli("bracket").output
    assert (
        "CONFLICT R2-1: recorded match R2-1 (round 2): A (1) v B (2), open, 1 hand entered "
        "(Bummerl 0:0); it no longer fits"
    ) in bracket
    assert ", ;" not in bracket and "RESULT" not in bracket


def third_place_final(cli) -> None:  # type: ignore[no-untyped-def]
    """Six players, single elimination with a third-place match, played to round 3 (the
    lower start number wins): R3-1 A v B, 3P D v C."""
    create_cup(cli, "single_elimination", "third_place=true")
    for name in "ABCDEF":
        cli("players", "add", name)
    for _ in range(2):
        cli("round", "start")
        for line in cli("results", "missing").output.splitlines()[1:]:
            mid, a = line.split()[2], line.split()[4]
            cli("results", "enter", mid, "--forfeit", a.strip("()"))
    cli("round", "start")


def test_a_knockout_match_refuses_a_double_no_show(cli) -> None:  # type: ignore[no-untyped-def]
    third_place_final(cli)
    before = len(stored())
    for mid in ("3P", "R3-1"):
        refused = cli("results", "enter", mid, "--forfeit", "both", ok=False)
        assert refused.exit_code == 1 and refused.output.count("\n") == 1
        assert f"match {mid} (" in refused.output
        assert "is a knockout match and needs a winner" in refused.output
        assert "`--forfeit P`" in refused.output and "players withdraw P" in refused.output
        assert "(T-match)" in refused.output and "next draw" not in refused.output
    assert len(stored()) == before


def test_a_csv_row_with_both_absent_in_a_knockout_is_refused_too(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    third_place_final(cli)
    sheet = tmp_path / "results.csv"
    sheet.write_text("match,forfeit\nR3-1,1\n3P,both\n", encoding="utf-8")
    before = len(stored())
    refused = cli("results", "import", str(sheet), ok=False)
    assert refused.exit_code == 1
    assert "line 3: forfeit: match 3P (D (4) v C (3)) is a knockout match" in refused.output
    assert "nothing imported" in refused.output
    assert len(stored()) == before


def test_both_players_of_a_knockout_match_can_still_withdraw(cli) -> None:  # type: ignore[no-untyped-def]
    third_place_final(cli)
    cli("players", "withdraw", "4")
    cli("players", "withdraw", "3")
    assert "3P     [4] D (4)  v  [3] C (3)  done  -> C (3) 1:0 by forfeit" in cli("bracket").output
    cli("results", "enter", "R3-1", "--forfeit", "1")
    assert "Champion: A (1)" in cli("bracket").output
