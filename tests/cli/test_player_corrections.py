"""Correcting players at the desk (T-player, T-seeding, T-late-entry): every correction
is an event shown in words in `tournament log`."""

from __future__ import annotations

import json

from tests.cli.helpers import state, stored


def club_evening(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "1")
    for name, rating in (("Anna Huber", "1500"), ("Bert Gruber", "1400"), ("Carla Wöss", "1300")):
        cli("players", "add", name, "--rating", rating, "--club", "SC Ried")
    cli("players", "seed", "--by", "rating")


def test_a_player_is_corrected_and_the_log_says_so_in_words(cli) -> None:  # type: ignore[no-untyped-def]
    club_evening(cli)
    out = cli("players", "edit", "2", "--name", "Berti Gruber", "--rating", "1600").output
    assert (
        "corrected Berti Gruber (2): name 'Bert Gruber' -> 'Berti Gruber', rating 1400 -> 1600"
        in out
    )
    assert "seeded again by rating: 2, 1, 3" in out
    assert state().players[2].seed == 1
    assert "has these details already" in cli("players", "edit", "2", "--rating", "1600").output
    dup = cli("players", "edit", "3", "--name", "anna huber", ok=False)
    assert dup.exit_code == 1 and "already registered as player 1" in dup.output
    log = cli("log").output.splitlines()
    assert log[0].split() == ["event", "recorded", "action", "actor", "source", "type", "what"]
    edited = next(line for line in log if "player.edited" in line)
    assert edited.endswith(
        "Berti Gruber (2): name 'Bert Gruber' -> 'Berti Gruber', rating 1400 -> 1600"
    )
    assert "{" not in "".join(log)  # words, not JSON payloads
    raw = [json.loads(line) for line in cli("log", "--json").output.splitlines()]
    assert raw[-2]["type"] == "player.edited" and raw[-2]["payload"]["changes"]["rating"] == 1600


def test_the_rating_is_refused_after_round_one_and_the_name_is_not(cli) -> None:  # type: ignore[no-untyped-def]
    club_evening(cli)
    cli("round", "start")
    before = len(stored())
    out = cli("players", "edit", "1", "--rating", "1700", ok=False)
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert out.output.strip() == (
        "Error: rating: the rating of Anna Huber (1) is fixed once round 1 is drawn (it decided "
        "the seeding and the round-1 pairings); name, club and category can still be corrected "
        "(T-seeding)"
    )
    assert len(stored()) == before
    cli("players", "edit", "1", "--name", "Anna Maria Huber", "--club", "", "--category", "W")
    assert "Anna Maria Huber (1)" in cli("round", "show").output
    row = next(x for x in cli("players", "list").output.splitlines() if x.split()[0] == "1")
    assert "SC Ried" not in row and " W " in row


def test_a_check_in_is_undone_before_the_draw(cli) -> None:  # type: ignore[no-untyped-def]
    club_evening(cli)
    cli("players", "checkin", "1-3")
    assert "check-in undone: Carla Wöss (3) is not drawn" in cli("players", "checkout", "3").output
    assert "Carla Wöss (3)" not in cli("round", "start").output
    refused = cli("players", "checkout", "1", ok=False)
    assert refused.exit_code == 1 and "was drawn in round 1" in refused.output
    assert "player.checked_out" in cli("log").output


def test_manual_seeding_leaves_out_a_withdrawn_duplicate(cli) -> None:  # type: ignore[no-untyped-def]
    club_evening(cli)
    cli("players", "add", "Anna Hubr", "--club", "ASK")
    cli("players", "withdraw", "4", "--reason", "duplicate registration")
    out = cli("players", "seed", "--by", "manual", "--order", "3,1,2").output
    assert "seeded: 3, 1, 2" in out
    assert "not seeded (withdrawn, never drawn): Anna Hubr (4)" in out


def test_players_list_has_a_header_row(cli) -> None:  # type: ignore[no-untyped-def]
    club_evening(cli)
    header, first, *_ = cli("players", "list").output.splitlines()
    assert header.split() == ["#", "name", "club", "cat.", "rating", "seed", "status"]
    assert first.split()[:5] == ["1", "Anna", "Huber", "SC", "Ried"]


def test_a_late_entry_scores_what_the_organiser_chose_for_missed_rounds(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "1",
        "--late-entry-score", "bye")  # fmt: skip
    assert "late entries: each round missed scores a bye each" in cli("show").output
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    cli("round", "start")
    out = cli("players", "add", "Emil").output
    assert "late entry; 1 missed round scores a bye)" in out
    out = cli("players", "add", "Franz", "--missed-rounds-score", "0").output
    assert "late entry; 1 missed round scores 0 points" in out
    points = {r["name"]: r["points"] for r in json.loads(cli("standings", "--json").output)["rows"]}
    assert points["Emil"] == 1 and points["Franz"] == 0
    early = cli("create", "Early", "--id", "early")
    assert early.exit_code == 0
    refused = cli("players", "add", "X", "--missed-rounds-score", "bye", "-t", "early", ok=False)
    assert refused.exit_code == 1 and "X is not a late entry" in refused.output


def test_every_event_type_is_told_in_words_in_the_log() -> None:
    from tournament.cli.eventwords import WORDS
    from tournament.domain.model.events import SCHEMA_VERSIONS

    assert set(SCHEMA_VERSIONS) <= set(WORDS)


def test_manual_seeding_names_everyone_it_leaves_out_and_the_list_says_where_they_go(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--format", "single_elimination", "--seed", "1")
    for name in ("Anna", "Berti", "Cilli", "Dora", "Emil"):
        cli("players", "add", name)
    cli("players", "checkin", "1-4")
    cli("players", "checkout", "4")
    cli("players", "withdraw", "3", "--reason", "dup")
    out = cli("players", "seed", "--by", "manual", "--order", "2,1,5").output.splitlines()
    assert out == [
        "seeded: 2, 1, 5",
        "not seeded (withdrawn, never drawn): Cilli (3)",
        "not seeded (not checked in; if they check in, drawn after the seeded players, "
        "by rating): Dora (4)",
    ]
    dora = next(x for x in cli("players", "list").output.splitlines() if " Dora " in x)
    assert dora.endswith("not seeded: if checked in, drawn after the seeded players, by rating")
    cli("players", "checkin", "4")
    dora = next(x for x in cli("players", "list").output.splitlines() if " Dora " in x)
    assert dora.split()[2] == "-"  # no seed of her own ...
    assert dora.endswith("checked in, not seeded: drawn after the seeded players, by rating")
    assert "   4  Dora (4)" in cli("standings").output  # ... and fourth in the draw's order
    assert "Dora (4)" in cli("round", "start").output
