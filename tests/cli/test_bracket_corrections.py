"""A correction after a later knockout round was played: the recorded matches stay as
played, are flagged and shown as conflicts; the slot is drawn again (under a new match id)
only after the organiser voids the match that holds it."""

from __future__ import annotations

from tests.cli.helpers import create_cup, play_round, state


def finished_cup(cli) -> str:  # type: ignore[no-untyped-def]
    """Four players, single elimination with a third-place match, played to the end
    (the lower start number wins: Anna beat Doris in R1-1); the result id of R1-1."""
    create_cup(cli, "single_elimination", "third_place=true")
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    play_round(cli)
    play_round(cli)
    return state().matches["R1-1"].entries[0].result_id


def test_the_correction_preview_says_which_played_matches_no_longer_fit(cli) -> None:  # type: ignore[no-untyped-def]
    rid = finished_cup(cli)
    out = cli("results", "correct", rid, "--winner", "4", "--by", "ref", "--why", "misread",
              "--preview").output  # fmt: skip
    assert "recorded match R2-1 (Anna (1) v Berti (2), Anna (1) wins by forfeit" in out
    assert "no longer fits: the bracket now gives Doris (4) v Berti (2)" in out
    assert "as R2-1b" in out and "--void" in out


def test_played_matches_keep_their_players_until_voided_then_the_slot_is_redrawn(cli) -> None:  # type: ignore[no-untyped-def]
    rid = finished_cup(cli)
    cli("results", "correct", rid, "--winner", "4", "--by", "ref", "--why", "misread", "--yes")
    bracket = cli("bracket").output
    assert "R2-1   [4] Doris (4)  v  [2] Berti (2)  CONFLICT" in bracket
    assert (
        "CONFLICT R2-1: recorded match R2-1 (round 2): Anna (1) v Berti (2), "
        "Anna (1) won 1:0 by forfeit; it no longer fits the bracket (flagged)"
    ) in bracket
    assert "Champion" not in bracket
    assert "R2-1" in cli("show").output  # flagged
    refused = cli("round", "start", ok=False)
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert "bracket slot R2-1 holds recorded match R2-1" in refused.output
    for mid in ("R2-1", "3P"):
        void = state().matches[mid].entries[0].result_id
        cli("results", "correct", void, "--void", "--by", "ref", "--why", "replay", "--yes")
    cli("round", "start")
    t = state()
    assert sorted(t.rounds[-1].matches) == ["3Pb", "R2-1b"]
    assert t.matches["R2-1b"].players in ((4, 2), (2, 4))
    assert "Anna (1)" in cli("round", "show", "2").output  # the final as it was played
    assert "CONFLICT" not in cli("bracket").output
