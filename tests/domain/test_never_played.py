"""A no-show who never played (registered, never checked in, so never drawn) is listed in
the standings after everybody, unranked -- not ranked last as if they had lost every game
(O-L8, docs/standings.md "Order")."""

from __future__ import annotations

from tournament.domain import commands as c
from tournament.domain.standings import standings
from tournament.domain.testing import Builder, registered, won_by


def evening(players: int = 5, absent: tuple[int, ...] = (3,)) -> Builder:
    """``players`` registered, all but ``absent`` checked in, round 1 played (the lower
    start number of each match wins 7:0)."""
    b = Builder(registered(players=players, best_of=1))
    for pid in sorted(b.state.players):
        if pid not in absent:
            b.add(c.check_in(b.state, pid))
    b.add(c.start_round(b.state))
    for mid in b.state.rounds[0].matches:
        winner = min(b.state.matches[mid].players)
        b.add(c.record_tally(b.state, mid, won_by(b, mid, winner)))
    return b


def test_a_no_show_is_listed_last_without_a_rank() -> None:
    rows = standings(evening().state)
    assert [r.player_id for r in rows][-1] == 3
    assert (rows[-1].rank, rows[-1].status, rows[-1].decided_by) == (None, "absent", None)
    assert rows[-1].tiebreaks["bummerl_diff"] is None


def test_the_players_who_played_are_ranked_among_themselves() -> None:
    """Independently of the ranking code: the four who played take ranks 1-4, by points
    then Bummerl difference (the default tie-breaks) -- the losers, at -1 Bummerl, below
    nobody who did not play."""
    t = evening().state
    rows = [r for r in standings(t) if r.rank is not None]
    assert sorted(r.player_id for r in rows) == [1, 2, 4, 5]
    assert max(r.rank or 0 for r in rows) <= 4
    by_hand = sorted(rows, key=lambda r: (-r.points, -(r.bummerl_won - r.bummerl_lost)))
    assert [(r.points, r.bummerl_won - r.bummerl_lost) for r in rows] == [
        (r.points, r.bummerl_won - r.bummerl_lost) for r in by_hand
    ]


def test_several_no_shows_follow_in_start_number_order() -> None:
    rows = standings(evening(players=7, absent=(6, 2)).state)
    assert [(r.player_id, r.rank) for r in rows[-2:]] == [(2, None), (6, None)]


def test_before_round_1_everybody_keeps_a_seed_place() -> None:
    b = Builder(registered(players=3))
    b.add(c.check_in(b.state, 1))
    assert all(r.rank is not None for r in standings(b.state))


def test_a_player_who_checked_in_and_lost_by_no_show_is_ranked() -> None:
    """Drawn and forfeited is a match played (a loss), not "never played"."""
    b = Builder(registered(players=4, best_of=1))
    for pid in range(1, 5):
        b.add(c.check_in(b.state, pid))
    b.add(c.start_round(b.state))
    for mid in b.state.rounds[0].matches:
        b.add(c.record_forfeit(b.state, mid, winner=min(b.state.matches[mid].players)))
    assert all(r.rank is not None for r in standings(b.state))
