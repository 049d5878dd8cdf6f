"""Plain values shared by every format: errors, pairings, results so far.

Everything here is a frozen dataclass or a tuple, so a value can be hashed, compared and
stored in an event as it is. Players are identified by their string id.

>>> p = Pairing(table=1, player_a="anna", player_b="bert", first_dealer="bert")
>>> p.players
('anna', 'bert')
>>> RoundPairing(round_no=1, pairings=(p,), byes=("carl",)).players_in_round()
('anna', 'bert', 'carl')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from tournament.formats.messages import english, param


class FormatError(ValueError):
    """A wrong input to a format function; `field` names the input that is wrong.

    >>> str(FormatError("standings[3].player_id", "'x' appears twice"))
    "standings[3].player_id: 'x' appears twice"
    """

    def __init__(
        self,
        field: str,
        message: str | None = None,
        *,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        # A code of tournament/formats/messages.py and its params: the English message is
        # the code's template filled, and a page renders the same code in German.
        self.code = code
        self.params = {k: param(v) for k, v in (params or {}).items()}
        if message is None:
            if code is None:
                raise TypeError("FormatError needs a message or a code")
            message = english(code, self.params)
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Pairing:
    """One game of a round: who sits at which table and who deals first.

    `match_id` is set for bracket matches ("W1-3") and None in round-based formats.
    `first_dealer_fixed`: a rule of the format fixes the first dealer whatever the
    tournament's first-dealer policy (a grand-final reset: the other player than in GF1).
    """

    table: int
    player_a: str
    player_b: str
    first_dealer: str
    match_id: str | None = None
    first_dealer_fixed: bool = False

    @property
    def players(self) -> tuple[str, str]:
        return (self.player_a, self.player_b)


@dataclass(frozen=True)
class Walkover:
    """A scheduled game that is not played because `forfeited_by` has withdrawn;
    `match_id` names the bracket match (None in round-based formats)."""

    winner: str
    forfeited_by: str
    match_id: str | None = None


@dataclass(frozen=True)
class RoundPairing:
    """Everything one round asks of the players.

    - `pairings`: the games, table 1 first (top boards first).
    - `byes`: players who get the format's bye this round (Swiss / lives bye, the round
      robin "dummy"); how a bye scores is the domain's rule.
    - `walkovers`: games a withdrawn player forfeits (policy "forfeit").
    - `idle`: active players with nothing to do and no bye (their round-robin group has
      finished, or their opponent withdrew under policy "drop").
    """

    round_no: int
    pairings: tuple[Pairing, ...]
    byes: tuple[str, ...] = ()
    walkovers: tuple[Walkover, ...] = ()
    idle: tuple[str, ...] = ()

    def players_in_round(self) -> tuple[str, ...]:
        """Players who play or get the bye, in table order."""
        out: list[str] = []
        for p in self.pairings:
            out.extend(p.players)
        out.extend(self.byes)
        return tuple(out)


@dataclass(frozen=True)
class Game:
    """A game of an earlier round, as the domain recorded it.

    `winner` is needed by lives knockout only; `first_dealer` feeds the dealing balance.
    `forfeit=True` means it was decided by forfeit (a no-show, a walkover after a
    withdrawal, a double no-show), `dropped=True` that it was voided because a player
    withdrew. Either way it was not decided at the table (`at_table` is False): it is not a
    meeting for the no-repeat rule and not part of anybody's dealing history, even if some
    hands had been dealt before. A forfeit winner may not get a Swiss bye later (FIDE C.04.1).
    """

    round_no: int
    player_a: str
    player_b: str
    first_dealer: str | None = None
    winner: str | None = None
    forfeit: bool = False
    dropped: bool = False

    @property
    def players(self) -> tuple[str, str]:
        return (self.player_a, self.player_b)

    @property
    def at_table(self) -> bool:
        """Decided by playing it out: neither forfeited nor dropped."""
        return not (self.forfeit or self.dropped)


@dataclass(frozen=True)
class Bye:
    """Player `player` had the bye in round `round_no`."""

    round_no: int
    player: str


@dataclass(frozen=True)
class Standing:
    """One line of the standings the domain computed (best first): id and score."""

    player_id: str
    score: float


WarningCode = Literal[
    "repeat_pairing",
    "withdrawn_paired",
    "eliminated_paired",
    "player_missing",
    "repeat_bye",
    "bye_not_needed",
    "bye_not_lowest",
]


@dataclass(frozen=True)
class RuleWarning:
    """A format rule a manual override breaks; the override stands, with this warning."""

    code: WarningCode
    message: str
    players: tuple[str, ...] = ()


Pair = frozenset[str]


def meetings(games: Iterable[Game]) -> set[Pair]:
    """Pairs of players who played each other at the table (forfeits and dropped games do
    not count)."""
    return {frozenset(g.players) for g in games if g.at_table}


def bye_counts(byes: Iterable[Bye], games: Iterable[Game] = ()) -> Counter[str]:
    """Byes per player; a walkover win counts as a bye (you do not get both)."""
    counts: Counter[str] = Counter(b.player for b in byes)
    for g in games:
        if g.forfeit and g.winner is not None:
            counts[g.winner] += 1
    return counts


def first_deal_balance(games: Iterable[Game]) -> tuple[Counter[str], dict[str, str]]:
    """Per player, the dealing balance: games in which they dealt first minus games in which
    they dealt second; and for each player, who dealt first in their latest game.

    Only games decided at the table count (`Game.at_table`), and only once their first
    dealer is known: a forfeit, a double no-show, a walkover or a game dropped after a
    withdrawal is left out for both players, whatever was dealt before it ended.

    >>> balance, latest = first_deal_balance(
    ...     [Game(1, "a", "b", "a"), Game(2, "a", "c", "a"), Game(3, "a", "d", "d", forfeit=True)]
    ... )
    >>> balance["a"], balance["b"], balance["d"], latest["a"]
    (2, -1, 0, 'a')
    """
    counts: Counter[str] = Counter()
    latest: dict[str, tuple[int, str]] = {}
    for g in games:
        if not g.at_table or g.first_dealer is None:
            continue
        for p in g.players:
            counts[p] += 1 if p == g.first_dealer else -1
            if p not in latest or latest[p][0] <= g.round_no:
                latest[p] = (g.round_no, g.first_dealer)
    return counts, {p: dealer for p, (_, dealer) in latest.items()}


def check_unique(ids: Iterable[str], field: str) -> None:
    """Raise FormatError naming `field[i]` for the first id that is empty or repeated."""
    seen: set[str] = set()
    for i, pid in enumerate(ids):
        if not isinstance(pid, str) or not pid:
            raise FormatError(
                f"{field}[{i}]", code="formats.model.player_id_must_non", params={"pid": repr(pid)}
            )
        if pid in seen:
            raise FormatError(
                f"{field}[{i}]",
                code="formats.model.player_appears_twice",
                params={"pid": repr(pid)},
            )
        seen.add(pid)
