"""The organiser's corrections at the desk: what a strike needs, and a declined prompt."""

from __future__ import annotations

from tests.cli.helpers import friday_match, state


def tally_result(cli) -> str:  # type: ignore[no-untyped-def]
    friday_match(cli)
    cli("results", "enter", "1.1", "--tally", "7 5 4 1 0 / 7 6 3")
    return state().matches["1.1"].entries[0].result_id


def test_striking_from_a_tally_needs_the_hand(cli) -> None:  # type: ignore[no-untyped-def]
    rid = tally_result(cli)
    refused = cli("results", "strike", rid, "--by", "ref", "--why", "illegible", "--yes", ok=False)
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert "hand: result" in refused.output and "holds 6 hands" in refused.output
    assert not state().matches["1.1"].entries[0].struck
    cli("results", "strike", rid, "--hand", "2", "--by", "ref", "--why", "illegible", "--yes")
    assert state().matches["1.1"].entries[0].struck == {2}


def test_a_declined_correction_says_nothing_was_stored_and_fails(cli) -> None:  # type: ignore[no-untyped-def]
    rid = tally_result(cli)
    before = state().version
    declined = cli("results", "correct", rid, "--tally", "7 6 / 7 4 1 0", "--by", "ref",
                   "--why", "misread", input="n\n", ok=False)  # fmt: skip
    assert declined.exit_code == 1
    assert declined.output.rstrip().endswith("nothing stored")
    assert state().version == before
