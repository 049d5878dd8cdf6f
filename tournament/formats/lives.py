"""Preisschnapsen "lives" knockout.

Every player starts with `rules.lives` lives (2 or 3). Each round is a fresh seeded random
draw among the players with lives left, avoiding players who have met before whenever
possible; the loser of a game loses a life, and a player with no lives left is out. With
an odd number of players the bye goes to a player with the fewest byes so far (the draw
decides among them; a win by forfeit counts as a bye). A double no-show (a game with no
winner, `Game(winner=None, forfeit=True)`) costs both players a life. Where the rules
allow it, a player may buy back a life before a round (up to `max_buy_backs` times, not
after `last_buy_back_round`), which also lets an eliminated player back in. When
`final_size` (default 2) or fewer players are left, no more draws are made: those players
are the finalists, fixed for good, and play the final (`lives_final_round`): one game for
two, a round robin for more, played out in full; lives no longer count in it, the final's
own table (`final_places`) decides.

>>> rules = LivesRules(lives=2)
>>> r1 = lives_round(1, ["a", "b", "c", "d"], rules, seed=42)
>>> r1 == lives_round(1, ["a", "b", "c", "d"], rules, seed=42)
True
>>> games = [Game(1, p.player_a, p.player_b, winner=p.player_a) for p in r1.pairings]
>>> state = lives_state(["a", "b", "c", "d"], rules, games, before_round=2)
>>> sorted(state.lives.values()), state.final
([1, 1, 2, 2], False)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from . import _matching
from .model import Bye, FormatError, Game, RoundPairing, bye_counts, check_unique, meetings
from .round_robin import WithdrawalPolicy, round_count, round_robin_round
from .tables import assign_tables, draw_first_dealer


@dataclass(frozen=True)
class LivesRules:
    """How a lives knockout is set up."""

    lives: int = 3
    final_size: int = 2
    max_buy_backs: int = 0  # per player; 0: no buy-back
    last_buy_back_round: int | None = None  # None: buy-back before any round

    def check(self) -> None:
        if not 1 <= self.lives <= 9:
            raise FormatError(
                "rules.lives", code="formats.lives.lives_must_got", params={"lives": self.lives}
            )
        if self.final_size < 2:
            raise FormatError(
                "rules.final_size",
                code="formats.lives.must_more_got",
                params={"final_size": self.final_size},
            )
        if self.max_buy_backs < 0:
            raise FormatError(
                "rules.max_buy_backs",
                code="formats.lives.must_more_got_2",
                params={"max_buy_backs": self.max_buy_backs},
            )


@dataclass(frozen=True)
class BuyBack:
    """Player `player` bought back one life before round `before_round`."""

    player: str
    before_round: int


@dataclass(frozen=True)
class LivesState:
    """Lives left per player before a round; `alive` in entry order; `final` once at most
    rules.final_size players are left, who are then the finalists."""

    lives: Mapping[str, int]
    alive: tuple[str, ...]
    final: bool


def lives_state(
    players: Sequence[str],
    rules: LivesRules,
    games: Sequence[Game] = (),
    buy_backs: Sequence[BuyBack] = (),
    withdrawn: Collection[str] = (),
    *,
    before_round: int | None = None,
) -> LivesState:
    """Lives before round `before_round` (default: after every game given).

    A game without a winner counts only as a double no-show (`forfeit=True`): both players
    lose a life. Checks the history as it replays it: unknown players, a missing winner or
    a buy-back the rules do not allow raise FormatError. A game of a player with no lives
    left (paired by hand) leaves them out: a win brings no life back, only a buy-back
    does. Pass only the games before the final: lives do not count in it.
    """
    rules.check()
    check_unique(players, "players")
    known = set(players)
    upto = before_round
    if upto is None:
        upto = max([g.round_no + 1 for g in games] + [b.before_round for b in buy_backs] + [1])
    lives = dict.fromkeys(players, rules.lives)
    bought: Counter[str] = Counter()
    by_round: dict[int, list[tuple[int, Game]]] = {}
    for i, g in enumerate(games):
        for p in g.players:
            if p not in known:
                raise FormatError(
                    f"games[{i}]", code="formats.lives.player_tournament", params={"p": repr(p)}
                )
        if g.winner not in g.players and not (g.winner is None and g.forfeit):
            raise FormatError(
                f"games[{i}].winner",
                code="formats.lives.missing_player",
                params={"winner": repr(g.winner)},
            )
        by_round.setdefault(g.round_no, []).append((i, g))
    backs: dict[int, list[tuple[int, BuyBack]]] = {}
    for i, b in enumerate(buy_backs):
        _check_buy_back(i, b, rules, known)
        backs.setdefault(b.before_round, []).append((i, b))
    for r in range(1, upto + 1):
        for i, b in backs.get(r, []):
            bought[b.player] += 1
            if bought[b.player] > rules.max_buy_backs:
                raise FormatError(
                    f"buy_backs[{i}]",
                    code="formats.lives.exceeds_buy_back_s",
                    params={"player": b.player, "max_buy_backs": rules.max_buy_backs},
                )
            if lives[b.player] >= rules.lives:
                raise FormatError(
                    f"buy_backs[{i}]",
                    code="formats.lives.all_lives_already",
                    params={"player": b.player},
                )
            lives[b.player] += 1
        for _, g in by_round.get(r, []) if r < upto else []:
            # A player out of lives can only have played by a manual pairing (recorded with
            # the warning eliminated_paired) or by an older rule: they stay out at 0.
            for loser in g.players if g.winner is None else (_loser(g),):
                lives[loser] = max(0, lives[loser] - 1)
    gone = set(withdrawn)
    for p in gone & known:
        lives[p] = 0
    alive = tuple(p for p in players if lives[p] > 0)
    return LivesState(lives, alive, len(alive) <= rules.final_size)


def _loser(g: Game) -> str:
    return g.player_b if g.winner == g.player_a else g.player_a


def _check_buy_back(i: int, b: BuyBack, rules: LivesRules, known: set[str]) -> None:
    if rules.max_buy_backs == 0:
        raise FormatError(f"buy_backs[{i}]", code="formats.lives.these_rules_allow_buy")
    if b.player not in known:
        raise FormatError(
            f"buy_backs[{i}].player", code="formats.lives.player", params={"player": repr(b.player)}
        )
    if b.before_round < 2:
        raise FormatError(
            f"buy_backs[{i}].before_round", code="formats.lives.buy_back_comes_before"
        )
    if rules.last_buy_back_round is not None and b.before_round > rules.last_buy_back_round:
        raise FormatError(
            f"buy_backs[{i}].before_round",
            code="formats.lives.buy_back_closes_before",
            params={
                "last_buy_back_round": rules.last_buy_back_round,
                "before_round": b.before_round,
            },
        )


def lives_round(
    round_no: int,
    players: Sequence[str],
    rules: LivesRules,
    games: Sequence[Game] = (),
    byes: Sequence[Bye] = (),
    buy_backs: Sequence[BuyBack] = (),
    *,
    seed: int | str,
    withdrawn: Collection[str] = (),
    fixed_tables: Mapping[str, int] | None = None,
) -> RoundPairing:
    """The seeded draw of round `round_no` among the players with lives left.

    `players` is the entry list (its order is part of what the seed reproduces). Raises
    FormatError("round_no") once the final is reached.
    """
    state = lives_state(
        players,
        rules,
        [g for g in games if g.round_no < round_no],
        [b for b in buy_backs if b.before_round <= round_no],
        withdrawn,
        before_round=round_no,
    )
    if state.final:
        raise FormatError(
            "round_no",
            code="formats.lives.only_player_s_left",
            params={"alive_count": len(state.alive)},
        )
    rng = random.Random(f"lives-draw:{seed}:{round_no}")
    drawn = list(state.alive)
    rng.shuffle(drawn)
    position = {p: i for i, p in enumerate(drawn)}
    had = bye_counts(byes, games)
    fewest = min(had[p] for p in drawn)
    pairs, bye = _matching.solve(
        _matching.Problem(
            players=drawn,
            ideal_order=lambda out: [p for p in drawn if p != out],
            cost=lambda u, v: (position[u] - position[v]) ** 2,
            max_cost=len(drawn) ** 2,
            played=meetings(games),
            bye_preference=[p for p in drawn if had[p] == fewest],
        )
    )
    pairs.sort(key=lambda g: min(position[g[0]], position[g[1]]))
    table_games = [(a, b, draw_first_dealer(a, b, seed, f"lives:{round_no}")) for a, b in pairs]
    return RoundPairing(
        round_no=round_no,
        pairings=assign_tables(table_games, fixed_tables),
        byes=(bye,) if bye is not None else (),
    )


def final_round_count(finalists: Sequence[str]) -> int:
    """Rounds of the final: one game for two finalists, a whole round robin for more."""
    return 1 if len(finalists) == 2 else round_count([finalists])


def lives_final_round(
    finalists: Sequence[str],
    round_no: int,
    *,
    seed: int | str,
    final_round: int = 1,
    withdrawn: Collection[str] = (),
    withdrawal: WithdrawalPolicy = "forfeit",
    policies: Mapping[str, WithdrawalPolicy] | None = None,
    fixed_tables: Mapping[str, int] | None = None,
) -> RoundPairing:
    """Round `final_round` of the final among `finalists` (fixed when the final is drawn):
    one game for two (first dealer drawn), otherwise that round of a round robin among
    them (Berger tables, first-named deals first). A finalist who has withdrawn loses the
    remaining final games by walkover, or they are dropped (`withdrawal` and `policies`, as
    in `round_robin_round`); nobody else leaves the final.

    >>> lives_final_round(["c", "e", "f"], 4, seed=1).pairings[0].players
    ('e', 'f')
    """
    check_unique(finalists, "finalists")
    if len(finalists) < 2:
        raise FormatError("finalists", code="formats.lives.final_needs_two_players")
    total = final_round_count(finalists)
    if not 1 <= final_round <= total:
        raise FormatError(
            "final_round",
            code="formats.lives.final_round_s_round",
            params={"total": total, "final_round": final_round},
        )
    gone = set(withdrawn) & set(finalists)
    if len(finalists) == 2 and not gone:
        a, b = finalists
        game = (a, b, draw_first_dealer(a, b, seed, f"lives-final:{round_no}"))
        return RoundPairing(round_no=round_no, pairings=assign_tables([game], fixed_tables))
    rr = round_robin_round(
        [finalists],
        final_round,
        withdrawn=gone,
        withdrawal=withdrawal,
        policies=policies,
        fixed_tables=fixed_tables,
    )
    return RoundPairing(round_no, rr.pairings, rr.byes, rr.walkovers, rr.idle)


def final_places(
    finalists: Sequence[str], games: Sequence[Game] = (), byes: Sequence[Bye] = ()
) -> tuple[tuple[str, ...], ...]:
    """The final's table so far, best first: finalists by points in the final (a game won,
    at the table or by walkover, and a bye of the final's round robin: 1 each); finalists
    level on points share a place (the standings' usual order ranks them). Only games and
    byes among the finalists count, so pass the final's rounds.

    >>> final_places(["a", "b"], [Game(5, "a", "b", winner="b")])
    (('b',), ('a',))
    """
    points = final_points(finalists, games, byes)
    levels = sorted(set(points.values()), reverse=True)
    return tuple(tuple(p for p in finalists if points[p] == level) for level in levels)


def final_points(
    finalists: Sequence[str], games: Sequence[Game] = (), byes: Sequence[Bye] = ()
) -> dict[str, int]:
    """Each finalist's points in the final, which order the finalists (:func:`final_places`).

    >>> final_points(["a", "b"], [Game(5, "a", "b", winner="b")])
    {'a': 0, 'b': 1}
    """
    check_unique(finalists, "finalists")
    points: Counter[str] = Counter(dict.fromkeys(finalists, 0))
    for g in games:
        if g.winner is not None and set(g.players) <= points.keys():
            points[g.winner] += 1
    for b in byes:
        if b.player in points:
            points[b.player] += 1
    return dict(points)
