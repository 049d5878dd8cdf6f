"""The correction preview says, in names, exactly what would change."""

from __future__ import annotations

import random

from tournament.domain import commands as c
from tournament.domain.testing import Builder, registered
from tournament.domain.views.preview import preview


def swiss_round_one() -> tuple[Builder, dict[str, str]]:
    """Four players, best of 1; in each match of round 1 seat a wins 7:2 by tally.
    Returns the builder and each match's result id."""
    b = Builder(registered(players=4, seed=5))
    b.add(c.start_round(b.state))
    results = {}
    for mid in b.state.rounds[0].matches:
        new = b.add(c.record_tally(b.state, mid, "7 4 1 0 / 7 5"))
        results[mid] = new[-1].payload["result_id"]
    return b, results


def test_a_game_point_change_shows_in_the_match_and_for_both_players() -> None:
    b, results = swiss_round_one()
    m = b.state.matches["1.1"]
    a, z = m.labels
    fix = c.correct_result(b.state, results["1.1"], {"tally": "7 4 1 0 / 7 4"}, by="r", reason="x")
    lines = preview(b.events, fix).lines()
    assert lines[0] == (
        f"match 1.1 ({a} v {z}): {a} wins, Bummerl 1:0, game points 7:2 "
        f"-> {a} wins, Bummerl 1:0, game points 7:3"
    )
    # The winner's own game points did not change, only those lost: still shown.
    assert f"standings: {a}: game points 7:2 -> 7:3, game point diff 5 -> 4" in lines
    assert any(line.startswith(f"standings: {z}: ") and "game points 2:7 -> 3:7" in line
               for line in lines)  # fmt: skip


def test_a_changed_winner_names_the_players_in_every_line() -> None:
    b, results = swiss_round_one()
    b.add(c.start_round(b.state))  # round 2 drawn: its matches would be flagged
    m = b.state.matches["1.1"]
    a, z = m.labels
    fix = c.correct_result(
        b.state, results["1.1"], {"tally": "7 5 / 7 4 1 0"}, by="referee", reason="columns swapped"
    )
    p = preview(b.events, fix)
    lines = p.lines()
    assert lines[0].endswith(f"-> {z} wins, Bummerl 0:1, game points 2:7")
    assert p.flagged and all(" would be flagged: result of match 1.1" in f for f in p.flagged)
    assert all(f"match {x.match_id} ({' v '.join(x.labels)})" in " ".join(p.flagged)
               for x in b.state.matches.values() if x.round == 2)  # fmt: skip
    moved = {s["name"]: s for s in p.standings}
    assert "points 1 -> 0" in moved[a.rsplit(" (", 1)[0]]["changes"]
    assert "points 0 -> 1" in moved[z.rsplit(" (", 1)[0]]["changes"]
    assert not any(ch.isdigit() and f" {ch} wins" in line for line in lines for ch in "1234")


def test_a_correction_the_result_survives_says_the_match_is_unchanged() -> None:
    b = Builder(registered(players=2, seed=5))
    b.add(c.start_round(b.state))
    m = b.state.matches["1.1"]
    winner = m.players[0]
    hand = c.record_hand(b.state, "1.1", winner=winner, game_points=1, card_points=[66, 40])
    rid = b.add(hand)[-1].payload["result_id"]
    fix = c.correct_result(b.state, rid, {"card_points": [70, 40]}, by="r", reason="x")
    assert preview(b.events, fix).lines() == [
        f"match 1.1 ({' v '.join(m.labels)}): unchanged, open, Bummerl 0:0, game points 1:0"
    ]


def test_the_next_draw_is_previewed_as_old_and_new_pairing_per_table() -> None:
    b, results = swiss_round_one()
    m = b.state.matches["1.1"]
    fix = c.correct_result(b.state, results["1.1"], {"tally": "7 5 / 7 4 1 0"}, by="r", reason="x")
    head, *tables = preview(b.events, fix).next_round
    assert head == (
        "round 2 would be drawn differently at 2 of 2 tables (old pairing -> new pairing):"
    )
    assert [t.split()[:2] for t in tables] == [["table", "1"], ["table", "2"]]
    # Each table: the old pairing, then the new one, in columns that line up.
    assert len({t.index("  ->  ") for t in tables}) == 1
    old, new = tables[0].split("  ->  ")
    assert " v " in old and " v " in new and m.labels[1] in " ".join(tables)


def test_a_knockout_correction_names_the_bracket_slots_that_change() -> None:
    b = Builder(registered(players=4, seed=5, format="single_elimination"))
    b.add(c.start_round(b.state))
    first = b.state.rounds[0].matches[0]
    rid = b.add(c.record_tally(b.state, first, "7 4 1 0 / 7 5"))[-1].payload["result_id"]
    m = b.state.matches[first]
    fix = c.correct_result(b.state, rid, {"tally": "7 5 / 7 4 1 0"}, by="r", reason="x")
    [slot] = preview(b.events, fix).bracket
    assert slot.startswith("R2-1: ") and m.labels[0] in slot.split(" -> ")[0]
    assert m.labels[1] in slot.split(" -> ")[1]


def test_a_big_field_preview_names_the_places_that_matter_and_sums_up_the_rest() -> None:
    from tournament.domain.testing import random_match
    from tournament.domain.views.preview import TOP

    b = Builder(registered(players=40, seed=9, best_of=3))
    rng = random.Random(9)
    for _ in range(3):
        b.add(c.start_round(b.state))
        for mid in b.state.rounds[-1].matches:
            random_match(b, b.state.matches[mid], rng)
    m = b.state.matches["1.20"]  # the bottom table of round 1
    rid = m.entries[-1].result_id
    fix = c.correct_result(b.state, rid, None, by="ref", reason="wrong table")
    p = preview(b.events, fix)
    lines = [x for x in p.lines() if x.startswith("standings: ")]
    named = {s["player_id"] for s in p.standings if f"({s['player_id']}): " in " ".join(lines)}
    must = {s["player_id"] for s in p.standings
            if s["player_id"] in m.players or s["points_before"] != s["points_after"]
            or min(s["rank_before"], s["rank_after"]) <= TOP}  # fmt: skip
    assert named == must and set(m.players) <= named
    rest = [s for s in p.standings if s["player_id"] not in must]
    assert rest and len(lines) < len(p.standings)  # the rest in a sentence or two
    moved = [s for s in rest if s["rank_before"] != s["rank_after"]]
    if moved:
        most = max(abs(s["rank_after"] - s["rank_before"]) for s in moved)
        by = "by one or two places" if most <= 2 else f"by up to {most} places"
        assert f"standings: {len(moved)} other players move {by}" in lines or len(moved) == 1
