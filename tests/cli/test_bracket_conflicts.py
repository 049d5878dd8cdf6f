"""A knockout match played in part that a correction upstream takes out of the bracket is
a CONFLICT wherever it is shown, takes no more results, and every view says what to do:
void what it has, and `round start` draws the slot again (docs/tournaments.md)."""

from __future__ import annotations

from tests.cli.test_bracket_never_played import final_drawn


def conflict(cli) -> str:  # type: ignore[no-untyped-def]
    """The final A v B with one hand entered, then C, not B, made the winner of R1-2; the
    id of the final's hand."""
    rid = final_drawn(cli)
    hand = cli("results", "enter", "R2-1", "--winner", "1", "--points", "2").output.split()[1]
    cli("results", "correct", rid, "--tally", "7 5 / 7 4 1 0", "--by", "S", "--why", "w",
        "--yes")  # fmt: skip
    return hand


def test_a_match_in_conflict_takes_no_more_results(cli) -> None:  # type: ignore[no-untyped-def]
    hand = conflict(cli)
    out = cli("results", "enter", "R2-1", "--winner", "1", "--points", "3", ok=False)
    assert out.exit_code == 1
    assert (
        "match R2-1 (A (1) v B (2)) takes no more results: it no longer fits the bracket "
        "after a correction (it now gives A (1) v C (3) there): void what it has "
        f"(`tournament results correct {hand} --void --by NAME --why TEXT`), then "
        "`tournament round start` draws the slot again (T-correction)"
    ) in out.output


def test_results_missing_and_round_start_say_what_to_do_with_a_conflict(cli) -> None:  # type: ignore[no-untyped-def]
    hand = conflict(cli)
    missing = cli("results", "missing").output
    assert "  CONFLICT R2-1 no longer fits the bracket after a correction" in missing
    refused = cli("round", "start", ok=False).output
    assert "match R2-1 no longer fits the bracket after a correction" in refused
    assert f"results correct {hand} --void" in refused
    shown = cli("round", "show").output
    assert "-> CONFLICT (open" in shown and "deals first" not in shown
    # As advised: void it, and the slot is drawn again with the bracket's players.
    cli("results", "correct", hand, "--void", "--by", "S", "--why", "w", "--yes")
    assert "R2-1b" in cli("round", "start").output


def test_results_missing_says_when_the_tournament_is_finished(cli) -> None:  # type: ignore[no-untyped-def]
    final_drawn(cli)
    cli("results", "enter", "R2-1", "--tally", "7 4 1 0 / 7 5")
    out = cli("results", "missing").output
    assert out.endswith("nothing is missing: the tournament is finished (`tournament standings`)\n")
