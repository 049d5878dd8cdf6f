"""Ties settled by chance or the draw (``lot``, ``seed``) are marked as such: the
``decided_by`` field, the terminal marker and legend; `tournament show` names matches
with a PROBLEM (end to end on a real SQLite file)."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest

from tests.cli.helpers import state
from tournament.domain.standings import standings
from tournament.domain.testing import played


def four_after_one_round(cli, tiebreaks: str) -> None:  # type: ignore[no-untyped-def]
    """Swiss, one round, four players: 1 and 2 win by forfeit; all Bummerl and game
    points equal, so the winners and the losers are tied up to ``tiebreaks``."""
    cli("create", "Cup", "--id", "cup", "--option", "rounds=1", "--best-of", "1", "--seed", "3",
        "--tiebreaks", tiebreaks)  # fmt: skip
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    cli("round", "start")
    for mid in state().rounds[0].matches:
        cli("results", "enter", mid, "--forfeit", str(min(state().matches[mid].players)))


@pytest.mark.parametrize("tb", ["seed", "lot"])
def test_a_tie_settled_by_lot_or_seed_is_marked_with_a_legend(cli, tb: str) -> None:  # type: ignore[no-untyped-def]
    four_after_one_round(cli, f"bummerl_diff,{tb}")
    lines = cli("standings").output.splitlines()
    rows = [x for x in lines if x[:3].strip().isdigit()]
    assert [x[3] for x in rows] == ["*"] * 4
    assert f"* tie settled by lot or seed, not by play: 1-2 by {tb}, 3-4 by {tb} " in (
        "\n".join(lines) + " "
    )
    csv_lines = cli("standings", "--csv").output.splitlines()
    column = csv_lines[0].split(",").index("decided_by")
    assert [x.split(",")[column] for x in csv_lines[1:]] == ["", tb, "points", tb]
    doc = json.loads(cli("standings", "--json").output)
    assert [r["decided_by"] for r in doc["rows"]] == [None, tb, "points", tb]


def test_ties_settled_by_play_are_not_marked(cli) -> None:  # type: ignore[no-untyped-def]
    four_after_one_round(cli, "bummerl_diff")  # nothing settles the ties: shared ranks
    out = cli("standings").output
    assert "*" not in out
    doc = json.loads(cli("standings", "--json").output)
    assert [(r["rank"], r["decided_by"]) for r in doc["rows"]] == [
        (1, None), (1, None), (3, "points"), (3, None)
    ]  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
def test_decided_by_is_blank_exactly_where_the_rank_is_shared(seed: int) -> None:
    t = played(players=9, rounds=3, seed=seed, tiebreaks=["direct_encounter", "buchholz"])
    rows = standings(t)
    assert rows[0].decided_by is None
    for above, r in pairwise(rows):
        assert (r.decided_by is None) == (r.rank == above.rank)
        if r.decided_by == "points":
            assert r.points < above.points


def test_show_names_matches_with_a_problem(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--best-of", "3", "--seed", "1", "--first-dealer", "higher_seed")
    cli("players", "add", "Bernd", "--rating", "1600")
    cli("players", "add", "Franz", "--rating", "1500")
    cli("players", "seed", "--by", "rating")
    cli("round", "start")
    cli("results", "enter", "1.1", "--winner", "1", "--points", "1", "--dealer", "1")
    cli("results", "enter", "1.1", "--winner", "1", "--points", "1", "--dealer", "2")
    assert "PROBLEM" not in cli("show").output
    first = state().matches["1.1"].entries[0].result_id
    # The sheet said Franz dealt the first hand: the second is now out of turn (R18).
    cli("results", "correct", first, "--dealer", "2", "--by", "organiser", "--why", "sheet",
        "--yes")  # fmt: skip
    assert "matches with a PROBLEM (see `results show`): 1.1" in cli("show").output
