"""The organiser's CLI end to end on a real SQLite file (no mocks): a Friday evening."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from tests.cli.helpers import friday_match


def events(cli) -> int:  # type: ignore[no-untyped-def]
    out = cli("show").output
    return int(out.rsplit(",", 1)[1].split()[0])


def write(tmp: Path, name: str, text: str) -> str:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_swiss_evening(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = cli("create", "Freitagsturnier", "--date", "2025-10-03", "--best-of", "3", "--seed", "4")
    assert "freitagsturnier-2025-10-03" in out.output
    players = write(
        tmp_path,
        "players.csv",
        "name,club,category,rating\nAnna,SC Ried,W,1500\nBerti,SC Ried,,1400\n"
        "Carla,ASK,W,1600\nDoris,ASK,W,\nEmil,,,1300\n",
    )
    assert "imported 5 players" in cli("players", "import", players).output
    out = cli("round", "start").output
    assert "table   1" in out and "bye" in out and "deals first" in out
    t = cli("round", "show").output
    assert " 1.1 " in t and " 1.2 " in t
    # Table 1 by tally, table 2 by hands, forfeit-free.
    one = cli("results", "enter", "1.1", "--tally", "7 5 4 1 0 / 7 6 3").output
    assert "Bummerl 1:0" in one
    cli("results", "enter", "1.1", "--tally", "7 4 2 0 / 7 6 5")
    assert "decided" in cli("results", "show", "1.1").output
    results = write(
        tmp_path, "results.csv", "match,tally\n1.2,7 4 1 0 / 7 6\n1.2,7 6 / 7 5 3 1 0\n"
    )
    cli("results", "import", results)
    out = cli("results", "enter", "1.2", "--tally", "7 5 0 / 7", ok=False)
    assert out.exit_code == 1
    cli("results", "enter", "1.2", "--tally", "7 5 2 0 / 7 6", "--signed")
    out = cli("results", "enter", "1.2", "--tally", "7 5 2 0 / 7", ok=False)
    assert out.exit_code == 1 and "R20" in out.output
    assert "Traceback" not in out.output
    text = cli("standings").output
    assert "Freitagsturnier" in text and "Buchholz" in text
    rows = list(csv.DictReader(io.StringIO(cli("standings", "--csv").output)))
    assert len(rows) == 5 and rows[0]["rank"] == "1"
    data = json.loads(cli("standings", "--json").output)
    assert data["tournament"] == "freitagsturnier-2025-10-03" and len(data["rows"]) == 5
    women = json.loads(cli("standings", "--json", "--category", "W").output)
    assert {r["category"] for r in women["rows"]} == {"W"}
    past = json.loads(cli("standings", "--json", "--as-of", "7").output)
    assert sum(r["played"] for r in past["rows"]) == 0
    # A correction: preview first, then stored; then its reversal.
    show = cli("results", "show", "1.1").output
    rid = show.split("\n")[2].split()[0]
    preview = cli("results", "correct", rid, "--void", "--by", "ref", "--why", "x", "--preview")
    assert "would change" in preview.output and "nothing stored" in preview.output
    before = events(cli)
    cli("results", "correct", rid, "--void", "--by", "ref", "--why", "wrong table", "--yes")
    assert events(cli) == before + 1
    assert f"{rid}  VOID" in cli("results", "show", "1.1").output
    cli("results", "correct", rid, "--undo", "--by", "ref", "--why", "it was right", "--yes")
    shown = cli("results", "show", "1.1").output
    assert f"{rid}  tally 7 5 4 1 0 / 7 6 3" in shown
    assert "'wrong table': tally 7 5 4 1 0 / 7 6 3 (Carla (3) / Berti (2)) -> VOID" in shown
    out = cli("round", "start").output
    assert "Round 2" in out
    assert "bracket" in cli("bracket", ok=False).output


def test_errors_name_the_rule_and_store_nothing(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--best-of", "1", "--seed", "1")
    cli("players", "add", "Anna")
    cli("players", "add", "Berti")
    dup = cli("players", "add", "anna", ok=False)
    assert dup.exit_code == 1 and "already registered" in dup.output
    cli("round", "start")
    before = events(cli)
    for args, words in [
        (("--winner", "1", "--points", "4"), "R13"),
        (("--winner", "7", "--points", "1"), "does not play"),
        (("--tally", "7 5 1 0 / 7"), "step of 4"),
        (("--winner", "1", "--points", "2", "--reason", "last_trick"), "R16"),
        ((), "--winner"),
    ]:
        out = cli("results", "enter", "1.1", *args, ok=False)
        assert out.exit_code != 0 and words in out.output, out.output
        assert "Traceback" not in out.output
    out = cli("results", "enter", "9.9", "--winner", "1", "--points", "1", ok=False)
    assert out.exit_code == 1 and "round 9 is not drawn yet (T-match)" in out.output
    bad = write(tmp_path, "bad.csv", "match,winner,game_points\n1.1,1,2\n1.1,3,1\n1.1,1,7\n")
    out = cli("results", "import", bad, ok=False)
    assert out.exit_code == 1 and "line 3" in out.output and "line 4" in out.output
    assert "line 2" not in out.output
    assert events(cli) == before
    out = cli("create", "Cup", ok=False)
    assert out.exit_code == 1 and "exists already" in out.output


def test_knockout_bracket_and_withdrawal(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "KO", "--format", "single_elimination", "--best-of", "1", "--seed", "2")
    for name in "ABCDE":
        cli("players", "add", name, "--rating", str(1000 + ord(name)))
    cli("players", "seed", "--by", "rating")
    cli("round", "start")
    out = cli("bracket").output
    assert "R1-1" in out and "bye" in out
    withdrawn = cli("players", "withdraw", "1", "--reason", "ill").output
    assert "withdrawn" in withdrawn
    assert "withdrawn" in cli("players", "list").output


def test_live_hand_through_the_engine(cli) -> None:  # type: ignore[no-untyped-def]
    from engine import HandState
    from tournament.config import database_url
    from tournament.domain.model.hands import fold_hand
    from tournament.eventstore import SQLEventStore

    cli("create", "Live", "--best-of", "1", "--seed", "3", "--first-dealer", "higher_seed")
    cli("players", "add", "Anna", "--rating", "1500")
    cli("players", "add", "Berti", "--rating", "1400")
    cli("round", "start")
    stream = cli("live", "deal", "1.1", "--seed", "5").output.split()[0]
    state: HandState = fold_hand(SQLEventStore(database_url()).read_stream(stream))
    actions = []
    while not state.is_over:
        action = state.legal_actions()[0]
        actions.append(str(action))
        state = state.apply(action)
    out = cli("live", "play", stream, *actions).output
    assert "hand over" in out
    shown = cli("results", "show", "1.1").output
    assert "(live)" in shown and "live by" in shown
    bad = cli("live", "play", stream, "0:AH", ok=False)
    assert bad.exit_code == 1 and "nothing stored" in bad.output


def test_a_dealer_out_of_turn_is_named_with_bummerl_and_rule(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    assert "deals first: Bernd (1)" in cli("round", "show").output
    cli("results", "enter", "1.1", "--tally", "7 4 1 0 / 7 6")
    before = events(cli)
    out = cli(
        "results", "enter", "1.1", "--winner", "1", "--points", "1", "--dealer", "1", ok=False
    )
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert out.output.strip() == (
        "Error: dealer: match 1.1: hand 1 of Bummerl 2 is dealt by Franz (2), not Bernd (1) "
        "(R18: the deal alternates every hand)"
    )
    assert events(cli) == before


def test_the_match_line_says_who_leads_and_what_each_has_to_go(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    cli("results", "enter", "1.1", "--tally", "7 4 1 0 / 7 6")
    out = cli("results", "enter", "1.1", "--winner", "1", "--points", "3").output
    assert (
        "Bummerl 1:0 (Bernd (1) leads); Bummerl 2 in play: Bernd (1) 4 to go, Franz (2) 7 to go; "
        "next hand dealt by Bernd (1)" in out
    )
    forfeit = cli("results", "enter", "1.1", "--forfeit", "2", ok=False)
    assert forfeit.exit_code == 0 or "decided" in forfeit.output


def test_a_forfeit_names_the_winner(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    out = cli("results", "enter", "1.1", "--forfeit", "2").output
    assert "decided: Franz (2) wins 2:0 Bummerl by forfeit" in out
    assert "Franz (2) won 2:0 by forfeit" in cli("round", "show").output


def test_a_column_of_repeated_sevens_is_read_and_a_real_ambiguity_explained(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    cli("results", "enter", "1.1", "--tally", "7 7 7 7 / 7 4 1 0")
    out = cli("results", "enter", "1.1", "--tally", "7 5 5 0 / 7 6", ok=False)
    assert out.exit_code == 1
    assert "hand 2: Bernd (1)'s column '7 5 5 0' repeats 5" in out.output
    assert "e.g. '7 4 1 0 / 7'" in out.output and "(R17)" in out.output


def test_results_show_the_history_of_a_match(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    cli("results", "enter", "1.1", "--winner", "1", "--points", "2", "--dealer", "1")
    cli("results", "enter", "1.1", "--tally", "7 5 / 7 6 4 1", ok=False)  # not a fresh Bummerl
    cli("results", "enter", "1.1", "--winner", "2", "--points", "1")
    shown = cli("results", "show", "1.1").output
    first, second = [line.split()[0] for line in shown.splitlines() if "wins" in line][:2]
    cli("results", "correct", second, "--points", "3", "--by", "Referee Huber", "--why",
        "sheet says 3", "--yes")  # fmt: skip
    cli("results", "strike", first, "--by", "Referee Huber", "--why", "illegible", "--yes")
    shown = cli("results", "show", "1.1").output
    assert "Bummerl 1 hand 1: Franz (2) wins 3" in shown
    assert "CORRECTED by Referee Huber" in shown and "'sheet says 3'" in shown
    assert "Franz (2) wins 1 -> Franz (2) wins 3" in shown
    assert "hand 1 STRUCK by Referee Huber" in shown and "'illegible'" in shown
    assert "struck: Bernd (1) wins 2" in shown
    log = cli("log").output
    assert "result.corrected" in log and "hand.struck" in log


def test_a_late_entry_is_checked_in_when_check_in_is_used(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--best-of", "1", "--seed", "1")
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    assert "checked in: 1-3" in cli("players", "checkin", "1-3").output
    cli("round", "start")
    out = cli("players", "add", "Emil").output
    assert "late entry, checked in" in out
    assert "checked in" in cli("players", "list").output.splitlines()[-1]


def test_standings_headers_say_what_the_tie_breaks_are(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--seed", "1", "--tiebreaks", "buchholz,bummerl_diff,game_point_diff,lot")
    cli("players", "add", "Theresia Wieser-Obermüllner")
    cli("players", "add", "Bo")
    cli("round", "start")
    lines = cli("standings").output.splitlines()
    assert "Buchholz" in lines[1] and "Bummerl+/-" in lines[1] and "game pts+/-" in lines[1]
    assert any("Theresia Wieser-Obermüllner (1) " in line for line in lines)
    # Every row is as wide as the header: the columns line up.
    assert len({len(line) for line in lines[1:4]}) == 1


def test_paper_game_points_must_be_what_the_reason_and_card_points_give(
    cli, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)  # Bernd (1) v Franz (2): card points are written Bernd:Franz
    before = events(cli)
    for args, says in [
        (
            ("--winner", "2", "--points", "1", "--reason", "claim", "--card-points", "20:66"),
            "match 1.1, Bummerl 1 hand 1: a correct claim against 20 points is worth 2 game "
            "points (R13: the opponent has fewer than 33), not 1",
        ),
        (
            ("--winner", "2", "--points", "2", "--reason", "claim", "--card-points", "0:66"),
            "is worth 3 game points (R13: the opponent has no trick: 0 points), not 2",
        ),
        (
            ("--winner", "1", "--points", "2", "--reason", "false_claim", "--card-points", "0:50"),
            "is worth 3 game points (R15: the winner has no trick: 0 points), not 2",
        ),
        (
            ("--winner", "1", "--points", "1", "--reason", "claim", "--card-points", "70:160"),
            "70:160 adds up to 230; both players together have at most 220",
        ),
    ]:
        out = cli("results", "enter", "1.1", *args, ok=False)
        assert out.exit_code == 1 and says in out.output, out.output
    bad = write(
        tmp_path, "r.csv", "match,winner,game_points,reason,card_points\n1.1,2,1,claim,20:66\n"
    )
    out = cli("results", "import", bad, ok=False)
    assert "line 2: game_points: match 1.1, Bummerl 1 hand 1: a correct claim" in out.output
    assert events(cli) == before
    cli("results", "enter", "1.1", "--winner", "2", "--points", "2", "--reason", "claim",
        "--card-points", "20:66")  # fmt: skip
    cli("results", "enter", "1.1", "--winner", "1", "--points", "3", "--reason", "closed",
        "--card-points", "66:20")  # fmt: skip
    assert "claim, talon closed, card points 66:20" in cli("results", "show", "1.1").output


def test_card_points_that_are_not_two_numbers_are_explained_with_their_range(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    before = events(cli)
    out = cli("results", "enter", "1.1", "--winner", "1", "--points", "1", "--card-points",
              "70:abc", ok=False)  # fmt: skip
    assert out.exit_code == 1 and "Traceback" not in out.output  # a refused value: exit 1
    assert "'70:abc' is not card points like 66:40" in out.output and "0-220" in out.output
    assert "score like 2:0" not in out.output
    help_text = cli("results", "enter", "--help").output
    assert "0 or 4-220" in help_text
    assert events(cli) == before


def test_players_sign_the_finished_sheet_and_a_later_change_voids_it(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli, best_of="1")
    before = events(cli)
    for pid in ("1", "2"):
        out = cli("results", "sign", "1.1", pid, ok=False)
        assert out.exit_code == 1 and "not decided yet" in out.output and "T-sheet" in out.output
    assert events(cli) == before
    out = cli("results", "enter", "1.1", "--tally", "7 4 1 0 / 7 6", "--signed", "--scorer", "1")
    rid = out.output.split()[1]
    shown = cli("results", "show", "1.1").output
    assert "signed by Bernd (1)" in shown and "signed by Franz (2)" in shown
    cli("results", "correct", rid, "--tally", "7 4 1 0 / 7 5", "--by", "referee", "--why",
        "misread", "--yes")  # fmt: skip
    shown = cli("results", "show", "1.1").output
    assert "signed by" not in shown
    assert "signature of Bernd (1) VOID: corrected by referee: misread after signing" in shown
    cli("results", "sign", "1.1", "1")
    assert "signed by Bernd (1)" in cli("results", "show", "1.1").output


def test_both_players_as_scorer_of_one_match_is_a_warning(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    cli("results", "enter", "1.1", "--winner", "1", "--points", "1", "--scorer", "1")
    out = cli("results", "enter", "1.1", "--winner", "1", "--points", "1", "--scorer", "2")
    assert "warning: match 1.1: both Bernd (1) and Franz (2) are recorded as scorer" in out.output
    assert "WARNING match 1.1: both" in cli("results", "show", "1.1").output


def test_standings_as_of_an_event_outside_the_log_names_the_range(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    latest = events(cli)
    for bad in ("99999", "-3", "0", str(latest + 1)):
        out = cli("standings", "--as-of", bad, ok=False)
        assert out.exit_code == 1 and "Traceback" not in out.output
        assert out.output.strip() == (
            f"Error: as-of: tournament cup has events 1 to {latest} (see `tournament log`), "
            f"not {bad}"
        )
    assert (
        "standings before round 1 (in seed order) (event 1)"
        in cli("standings", "--as-of", "1").output
    )
    assert f"(event {latest})" in cli("standings", "--as-of", str(latest)).output


def test_a_walkover_line_names_no_first_dealer(cli) -> None:  # type: ignore[no-untyped-def]
    from tests.cli.helpers import create_cup

    create_cup(cli, "round_robin")
    for name in ("Anna", "Bernd", "Carl", "Dora", "Emil"):
        cli("players", "add", name)
    cli("round", "start")
    cli("players", "withdraw", "5")  # Emil's later games become walkovers
    cli("results", "enter", "1.2", "--forfeit", "3")
    lines = cli("round", "start").output.splitlines()
    walkover = next(x for x in lines if x.lstrip().startswith("walkover"))
    assert "deals first" not in walkover and walkover.endswith("won 1:0 by forfeit")
    table = next(x for x in lines if x.lstrip().startswith("table"))
    assert "deals first: Anna (1)" in table
