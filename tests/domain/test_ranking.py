"""The standings kept up to date result by result equal a ranking from scratch.

``standings(t)`` keeps the last ranking on the tournament and re-ranks only the players
the new events touched (tournament.domain.standings.ranking). After every event of random
tournaments -- hands, tallies, forfeits, byes, withdrawals, corrections, voids, strikes,
late entries, check-ins, a cancelled round -- its rows must equal, field by field, those of
the ranking docs/standings.md describes, done step by step from scratch by
``standings.rank``: place and points, then each tie-break in turn on the groups still
tied, head-to-head among the players still tied at that point, shared ranks for whoever is
tied after the last.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament.domain import commands as c
from tournament.domain.model.errors import DomainError
from tournament.domain.model.settings import TIEBREAKS
from tournament.domain.model.state import Tournament, fold
from tournament.domain.standings import Row, pairing, rank, standings
from tournament.domain.standings.field import seed_order
from tournament.domain.standings.lives import lives_final_points
from tournament.domain.standings.tiebreaks import Context
from tournament.domain.testing import Builder, random_hands, random_tally, registered

# --- the ranking from scratch, step by step as docs/standings.md says -----------------------


def from_scratch(
    t: Tournament,
    *,
    category: str | None = None,
    places: Mapping[int, int] | None = None,
    lives: Mapping[int, int] | None = None,
) -> list[Row]:
    """The rows of :func:`rank` (the ranking step by step as docs/standings.md has it),
    each player's rank the position of the first of the players tied with it."""
    s = t.settings
    assert s is not None
    places = places or {}
    chosen = [p for p in t.players if category is None or t.players[p].category == category]
    ctx = Context(t.stats, t.records, {p: i for i, p in enumerate(seed_order(t))}, s.seed)
    checking_in = any(p.checked_in for p in t.players.values())
    # docs/standings.md, "Order": once a round is drawn, a player who never checked in
    # (check-in in use) and has no result at all is listed after everybody, unranked,
    # by start number; the others are ranked among themselves.
    unranked = [
        p
        for p in sorted(chosen)
        if t.rounds
        and checking_in
        and t.players[p].active
        and not t.players[p].checked_in
        and t.stats[p].played == t.stats[p].points == t.stats[p].byes == 0
    ]
    ranked = [p for p in chosen if p not in unranked]
    order, shown = rank(ctx, ranked, s.tiebreaks, places)
    rows: list[Row] = []
    for position, (pid, decided) in enumerate(order, 1):
        decided = decided if rows else None
        number = rows[-1].rank if rows and decided is None else position
        rows.append(row(t, pid, number, decided, ctx, shown, places, lives, checking_in))
    for pid in unranked:
        rows.append(row(t, pid, None, None, ctx, shown, places, lives, checking_in))
    return rows


def row(
    t: Tournament,
    pid: int,
    rank: int | None,
    decided: str | None,
    ctx: Context,
    shown: dict[str, dict[int, float]],
    places: Mapping[int, int],
    lives: Mapping[int, int] | None,
    checking_in: bool,
) -> Row:
    p, s = t.players[pid], t.stats[pid]
    assert t.settings is not None
    values: dict[str, float | None] = {}
    for tb in t.settings.tiebreaks:
        if tb == "seed":
            values[tb] = ctx.seed_rank[pid] + 1
        elif tb != "lot":
            values[tb] = shown[tb].get(pid)
    status = "withdrawn" if not p.active else "active"
    if status == "active" and checking_in and not p.checked_in and s.played == 0:
        status = "absent"
    return Row(
        rank, pid, p.name, p.club, p.category, status, s.points, s.played, s.wins,
        s.forfeit_wins, s.losses, s.byes, s.bummerl_won, s.bummerl_lost, s.gp_won, s.gp_lost,
        s.schneider, values, decided, places.get(pid),
        None if lives is None else lives.get(pid, 0),
        None if lives is None else p.lives_bought, lives_final_points(t).get(pid),
    )  # fmt: skip


# --- random tournaments, checked after every event ------------------------------------------


class Checked(Builder):
    """A builder that compares the kept-up-to-date standings with the from-scratch ones
    after every single event (in the whole field, and per category now and then)."""

    def __init__(self, events: list[Any], rng: random.Random) -> None:
        super().__init__(events)
        self.rng = rng
        self.checks = 0

    def add(self, new: list[Any]) -> list[Any]:
        for event in new:
            super().add([event])
            self.check()
        return new

    def check(self) -> None:
        """As the standings command asks (places and lives of the format, if any), against
        a ranking from scratch of the events folded afresh."""
        t = self.state
        category = "W" if self.rng.random() < 0.1 else None
        if t.settings is None:
            return
        extra = {"places": pairing.places(t), "lives": pairing.lives_left(t)}
        kept = standings(t, category=category, **extra)
        fresh = fold(self.events)
        assert kept == from_scratch(fresh, category=category, **extra), t.version
        self.checks += 1


def tiebreak_lists() -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(TIEBREAKS), min_size=1, max_size=6, unique=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 13),
    best_of=st.sampled_from([1, 3]),
    tiebreaks=tiebreak_lists(),
    lives=st.booleans(),
)
def test_standings_after_every_event_equal_a_ranking_from_scratch(
    seed: int, players: int, best_of: int, tiebreaks: list[str], lives: bool
) -> None:
    rng = random.Random(seed)
    config: dict[str, Any] = {"name": "Cup", "best_of": best_of, "seed": seed}
    if lives:
        config |= {"format": "lives", "options": {"lives": 2, "buy_backs": 1}}
    else:
        config |= {"format": "swiss", "options": {"rounds": 4}}
    b = Checked(c.create_tournament("cup", {**config, "tiebreaks": tiebreaks}), rng)
    for i in range(players):
        category = "W" if rng.random() < 0.3 else ""
        b.add(
            c.register_player(b.state, f"P{i}", category=category, rating=rng.choice((None, 1500)))
        )
    if rng.random() < 0.3:
        for pid in rng.sample(sorted(b.state.players), k=max(2, players - 1)):
            b.add(c.check_in(b.state, pid))
    for number in range(1, 5):
        try:
            b.add(c.start_round(b.state))
        except DomainError:
            break  # nobody left to pair
        if number == 2 and rng.random() < 0.2:
            b.add(c.cancel_round(b.state, why="wrong table list", by="referee"))
            b.add(c.start_round(b.state))
        for mid in b.state.rounds[-1].matches:
            play(b, mid, rng)
        shake(b, rng)
        for mid in list(b.state.matches):  # results voided by the shake: entered again
            play(b, mid, rng)
    assert b.checks > players


def play(b: Builder, mid: str, rng: random.Random) -> None:
    match = b.state.matches[mid]
    roll = rng.random()
    if match.decided or match.dropped:
        return
    if roll < 0.1:
        winner = rng.choice([*match.players, None])
        b.add(c.record_forfeit(b.state, mid, winner=winner))
    elif roll < 0.3 and not match.entries:  # a tally is a whole Bummerl
        while not match.decided:
            first, second, _ = random_tally(rng)
            b.add(c.record_tally(b.state, mid, {"columns": [first, second]}))
    else:
        random_hands(b, match, rng)


def shake(b: Builder, rng: random.Random) -> None:
    """Between rounds: corrections, voids and their undoing, a strike, a withdrawal, a
    late entry -- each changing results that other players' tie-breaks read."""
    t = b.state
    assert t.settings is not None
    if t.settings.format == "lives":
        # A changed past result can leave the lives history impossible (a player out who
        # played on); the lives format then refuses to count lives: not a ranking matter.
        return lives_shake(b, rng)
    results = [(m, e) for m in t.matches.values() for e in m.entries if e.kind == "hand"]
    for match, entry in rng.sample(results, k=min(3, len(results))):
        if entry.payload is None:
            continue
        loser = match.players[1 - match.seat_of(entry.payload["winner"])]
        change = rng.choice([None, {"winner": loser, "game_points": rng.choice((1, 2, 3))}])
        try:
            b.add(c.correct_result(t, entry.result_id, change, by="referee", reason="sheet"))
            if rng.random() < 0.5:
                b.add(c.reversal(t, entry.result_id, by="referee", reason="undo"))
        except DomainError:
            continue  # the change would leave later hands inconsistent
    tallies = [e for m in t.matches.values() for e in m.entries if e.kind == "tally"]
    with_hands = [e for e in tallies if e.payload is not None]
    if with_hands and rng.random() < 0.5:
        with contextlib.suppress(DomainError):  # a strike that would leave the match unsound
            b.add(c.strike_hand(t, rng.choice(with_hands).result_id, 1, by="ref", reason="x"))
    active = [p for p in t.players if t.players[p].active]
    if len(active) > 3 and rng.random() < 0.3 and not pairing.finished(t):
        b.add(c.withdraw(t, rng.choice(active)))  # refused once finished (T-withdrawal)
    if rng.random() < 0.2:
        b.add(c.register_player(t, f"Late {t.version}"))  # a late entry (Swiss)


def lives_shake(b: Builder, rng: random.Random) -> None:
    """Between rounds of the lives format: lives bought back, a withdrawal."""
    t = b.state
    for pid in rng.sample(sorted(t.players), k=min(2, len(t.players))):
        with contextlib.suppress(DomainError):  # only a player out of lives buys one
            b.add(c.buy_life(t, pid))
    active = [p for p in t.players if t.players[p].active]
    if len(active) > 3 and rng.random() < 0.3 and not pairing.finished(t):
        b.add(c.withdraw(t, rng.choice(active)))


def big(players: int, seed: int) -> Builder:
    b = Builder(registered(players, seed=seed, best_of=1, options={"rounds": 3}))
    rng = random.Random(seed)
    for _ in range(2):
        b.add(c.start_round(b.state))
        for mid in b.state.rounds[-1].matches:
            random_hands(b, b.state.matches[mid], rng)
    b.add(c.start_round(b.state))
    return b


def test_one_result_reranks_the_kept_ranking_instead_of_ranking_afresh() -> None:
    b = big(64, seed=4)
    standings(b.state)
    kept = b.state.ranking
    match = b.state.matches[b.state.rounds[-1].matches[0]]
    random_hands(b, match, random.Random(1))
    assert standings(b.state) == from_scratch(b.state)
    assert b.state.ranking is kept  # updated in place, not built again


def test_rows_are_the_callers_own_and_change_nothing_kept() -> None:
    """Each call hands out rows of its own: a caller may renumber or rename them (as a
    start list or an export does) without changing the next standings."""
    b = big(40, seed=9)
    rows = standings(b.state)
    for row in rows:
        row.rank, row.name, row.decided_by = 99, "changed", "seed"
        row.tiebreaks["buchholz"] = -1.0  # type: ignore[index]
    assert standings(b.state) == from_scratch(b.state)
    for mid in b.state.rounds[-1].matches:
        random_hands(b, b.state.matches[mid], random.Random(2))
        assert standings(b.state) == from_scratch(b.state)


def test_the_standings_for_other_places_or_a_category_are_ranked_for_them() -> None:
    b = big(24, seed=3)
    places = {pid: (1 if pid % 3 else 2) for pid in b.state.players}
    assert standings(b.state, places=places) == from_scratch(b.state, places=places)
    assert standings(b.state) == from_scratch(b.state)
    lives = dict.fromkeys(b.state.players, 2)
    assert standings(b.state, lives=lives) == from_scratch(b.state, lives=lives)
