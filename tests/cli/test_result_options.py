"""``results`` commands take one thing at a time and say so: a hand, the sheet's tallies or
a forfeit; one correction; a signature with the entry that decides the match. Their
refusals name what is wrong in the organiser's words (docs/tournaments.md)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.cli.helpers import create_cup, state, stored
from tests.cli.test_typed_input import eight_players, refused

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("args", "clash"),
    [
        (("--winner", "6", "--points", "2", "--tally", "7 5 4 1 0 / 7 6 3"),
         "--tally with --winner, --points: give either --tally, --winner/--points or "
         "--forfeit, not several"),
        (("--tally", "7 5 3 0 / 7 6", "--dealer", "1", "--reason", "claim",
          "--card-points", "66:20"), "--tally with --dealer, --reason, --card-points"),
        (("--tally", "7 5 3 0 / 7 6", "--closed"), "--tally with --closed"),
        (("--winner", "5", "--points", "2", "--forfeit", "1"),
         "--forfeit with --winner, --points: give either"),
        (("--forfeit", "1", "--tally", "7 5 3 0 / 7 6"), "--forfeit with --tally"),
        (("--forfeit", "both", "--dealer", "1"), "--forfeit with --dealer"),
        (("--forfeit", "1", "--first-dealer", "1"), "--forfeit with --first-dealer"),
        (("--forfeit", "1", "--scorer", "1"), "--forfeit with --scorer"),
        (("--forfeit", "1", "--reason", "claim"), "--forfeit with --reason"),
        (("--forfeit", "5", "--signed"), "--forfeit with --signed"),  # the absent one signs?
    ],
)  # fmt: skip
def test_conflicting_result_options_are_refused_and_store_nothing(
    cli, args: tuple[str, ...], clash: str
) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    line = refused(cli, "results", "enter", "1.1", *args)
    assert clash in line and line.endswith("; nothing stored (T-result)")
    assert not state().matches["1.1"].entries


def test_a_hand_needs_both_its_winner_and_its_points(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    assert "(--points is missing)" in refused(cli, "results", "enter", "1.1", "--winner", "1")
    assert "(--winner is missing)" in refused(cli, "results", "enter", "1.1", "--points", "1")
    line = refused(cli, "results", "enter", "1.1", "--dealer", "1")
    assert "a hand needs --winner and --points" in line


def test_several_tallies_are_the_sheets_bummerl_in_order_stored_as_one_action(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    before = len(stored())
    out = cli("results", "enter", "1.1", "--tally", "7 5 4 1 0 / 7 6 3",
              "--tally", "7 4 2 0 / 7 5 3 1").output  # fmt: skip
    assert out.startswith("recorded 2 Bummerl (") and "decided: Anna (1) wins 2:0" in out
    new = stored()[before:]
    assert [e.type for e in new] == ["result.bummerl_tally_recorded"] * 2
    assert len({e.metadata["correlation_id"] for e in new}) == 1  # one action
    assert len({e.recorded_at for e in new}) == 1  # one append
    entries = state().matches["1.1"].entries
    assert [e.payload["tally"] for e in entries] == [
        {"columns": [[7, 5, 4, 1, 0], [7, 6, 3]]},
        {"columns": [[7, 4, 2, 0], [7, 5, 3, 1]]},
    ]


def test_a_bad_tally_among_several_refuses_them_all_naming_its_bummerl(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    line = refused(cli, "results", "enter", "1.1", "--tally", "7 5 4 1 0 / 7 6 3",
                   "--tally", "7 4 2 0 / 7 5 3 5")  # fmt: skip
    assert line.startswith("Error: tally: tally 2 of 2: match 1.1, Bummerl 2: hand 3:")
    assert line.endswith("(R17)")
    line = refused(cli, "results", "enter", "1.1", *["--tally", "7 4 1 0 / 7 6"] * 3)
    assert "tally 3 of 3: match 1.1 is decided" in line and line.endswith("(R20)")
    assert not state().matches["1.1"].entries


def test_signed_goes_only_with_the_entry_that_decides_the_match(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    line = refused(cli, "results", "enter", "1.1", "--tally", "7 5 4 1 0 / 7 6 3", "--signed")
    assert "match 1.1 is not decided yet (Bummerl 1:0, Bummerl 2 hand 1 next)" in line
    assert "--signed goes only with the entry that decides the match" in line
    cli("results", "enter", "1.1", "--tally", "7 5 4 1 0 / 7 6 3", "--tally",
        "7 4 2 0 / 7 5 3 1", "--signed")  # fmt: skip
    assert state().matches["1.1"].signed_by == {1, 5}


def test_the_readme_example_works_as_typed(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Running a tournament from the command line", 1)[1]
    block = block.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [shlex.split(line, comments=True) for line in block.splitlines()]
    assert any("--signed" in c for c in commands)
    monkeypatch.chdir(tmp_path)
    names = ["Anna", "Berti", "Carla", "Doris", "Emil", "Franz", "Gerd", "Hanna"]
    Path("players.csv").write_text("name\n" + "\n".join(names) + "\n", encoding="utf-8")
    for command in commands:
        assert command[0] == "tournament"
        cli(*command[1:])
    match = state("freitagsturnier-2026-11-27").matches["1.3"]
    assert match.decided and len(match.signed_by) == 2


def test_a_correction_takes_one_change_at_a_time(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    cli("results", "enter", "1.1", "--winner", "1", "--points", "2")
    rid = state().matches["1.1"].entries[0].result_id
    who = ("--by", "Schiri", "--why", "misread")
    clashes = [
        (("--void", "--points", "3"), "--void with --points"),
        (("--undo", "--void"), "--void with --undo"),
        (("--undo", "--winner", "5"), "--undo with --winner"),
        (("--tally", "7 0 / 7", "--points", "3"), "--tally with --points"),
    ]
    for extra, clash in clashes:
        line = refused(cli, "results", "correct", rid, *extra, *who, "--yes")
        assert clash in line and "(T-correction)" in line
    line = refused(cli, "results", "correct", rid, "--points", "3", *who, "--yes", "--preview")
    assert line == "Error: --yes: --preview only shows and --yes stores: give one of them"
    line = refused(cli, "results", "strike", rid, *who, "--yes", "--preview")
    assert line == "Error: --yes: --preview only shows and --yes stores: give one of them"


def test_signing_twice_and_clearing_no_flag_say_so(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    cli("results", "enter", "1.2", "--forfeit", "2")
    assert cli("results", "sign", "1.2", "2").output == "signed by Berti (2) (match 1.2)\n"
    before = len(stored())
    again = cli("results", "sign", "1.2", "2").output
    assert again == "Berti (2) has signed match 1.2 already; nothing stored\n"
    out = cli("results", "clear-flag", "1.2").output
    assert out == "match 1.2 has no flag (cleared already, or never flagged); nothing stored\n"
    assert len(stored()) == before


def test_a_forfeit_that_is_not_a_start_number_says_so(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    assert refused(cli, "results", "enter", "1.1", "--forfeit", "34x") == (
        "Error: forfeit: '34x' is not a start number or 'both' (T-input)"
    )
    line = refused(cli, "results", "enter", "1.1", "--forfeit", "34")
    assert "player 34 does not play here" in line


def test_a_match_that_is_not_there_says_why_in_the_organisers_words(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    hand = ("--winner", "1", "--points", "2")
    assert refused(cli, "results", "enter", "2.3", *hand) == (
        "Error: match: round 2 is not drawn yet (T-match)"
    )
    assert refused(cli, "results", "enter", "1,2", *hand) == (
        "Error: match: there is no match '1,2'; did you mean 1.2? (T-match)"
    )
    assert refused(cli, "results", "enter", "1.9", *hand) == (
        "Error: match: round 1 has tables 1 to 4, not table 9 (T-match)"
    )
    assert refused(cli, "results", "show", "x") == (
        "Error: match: there is no match 'x' (round.table as printed, e.g. 1.1) (T-match)"
    )


def test_a_bracket_match_not_drawn_yet_says_what_it_waits_for(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "double_elimination")
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    cli("round", "start")
    assert refused(cli, "results", "enter", "W2-1", "--forfeit", "1") == (
        "Error: match: W2-1 is not drawn yet: it waits for the winners of W1-1 and W1-2 (T-match)"
    )
    assert "L1-1 is not drawn yet: it waits for the losers of W1-1 and W1-2" in refused(
        cli, "results", "show", "l1-1"
    )
    assert "GF2 is not drawn yet: the grand final reset is played only if the losers-bracket " \
        "player wins GF1" in refused(cli, "results", "show", "GF2")  # fmt: skip
    cli("results", "enter", "w1-1", "--forfeit", "1")  # bracket ids in any case
    assert "it waits for the winner of W1-2 (Anna (1) is through)" in refused(
        cli, "results", "show", "W2-1"
    )
    line = refused(cli, "results", "show", "R9")
    assert line == "Error: match: there is no match 'R9' (a bracket id such as W1-1, or " \
        "round.table as printed) (T-match)"  # fmt: skip


def test_a_life_is_not_bought_back_after_the_final(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "lives", "buy_backs=1")
    for name in ("Anna", "Berti", "Carla"):
        cli("players", "add", name)
    for _ in range(12):
        if cli("round", "start", ok=False).exit_code:
            break
        t = state()
        for mid in t.rounds[-1].matches:
            cli("results", "enter", mid, "--forfeit", str(min(t.matches[mid].players)))
    assert "finished: champion" in cli("show").output
    assert refused(cli, "players", "buy-life", "3") == (
        "Error: player: the tournament is finished: the final has been played (T-lives)"
    )


def test_a_forfeit_for_somebody_not_at_the_table_names_the_forfeit(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    line = refused(cli, "results", "enter", "1.1", "--forfeit", "3")
    assert line.startswith("Error: forfeit: match 1.1: player 3 does not play here")


def test_results_missing_of_round_0_is_refused_not_the_current_round(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    line = refused(cli, "results", "missing", "--round", "0")
    assert line == "Error: round: rounds 1 to 1 are drawn, not 0 (T-round)"


def test_a_withdrawal_takes_why_like_every_other_command(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    cli("players", "withdraw", "8", "--why", "went home ill")
    withdrawn = next(e for e in stored() if e.type == "player.withdrawn")
    assert withdrawn.payload["reason"] == "went home ill"
