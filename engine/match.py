"""Bummerl and match: R17-R20.

A Bummerl counts each seat down from 7; a hand's winner strikes off its game points
(never below 0) and the first at 0 wins it. A match is the best of N Bummerl.

    >>> from engine.match import Match, HandResult
    >>> m = Match(best_of=3, first_dealer=0)
    >>> m = m.apply(HandResult(winner=1, game_points=3))
    >>> m.current.scores, m.next_dealer
    ((7, 4), 1)
    >>> for _ in range(2):
    ...     m = m.apply(HandResult(winner=1, game_points=3))
    >>> m.bummerl_wins          # a Schneiderbummerl counts 2 (R19) ...
    (0, 2)
    >>> m.is_decided, m.winner  # ... which decides a best of 3 (R20)
    (True, 1)
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from engine.cards import is_seat
from engine.errors import IllegalResultError

START: Final = 7


@dataclasses.dataclass(frozen=True, slots=True)
class HandResult:
    """The result of one hand as a Bummerl sees it: who won and how many game points.

    ``dealer`` (optional) is checked against the alternation of R18; ``reason`` is kept
    for the record (``claim``, ``false_claim``, ``last_trick``, ``closer_failed``).
    """

    winner: int
    game_points: int
    dealer: int | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        if not is_seat(self.winner):
            raise IllegalResultError("R17", f"the winner must be seat 0 or 1, not {self.winner!r}")
        if type(self.game_points) is not int or self.game_points not in (1, 2, 3):
            raise IllegalResultError(
                "R13",
                f"a hand is worth 1, 2 or 3 game points (R13-R16), not {self.game_points!r}",
            )
        if self.dealer is not None and not is_seat(self.dealer):
            raise IllegalResultError("R18", f"the dealer must be seat 0 or 1, not {self.dealer!r}")


class Bummerl:
    """One Bummerl (R17): both seats start at 7; the first to strike off to 0 wins."""

    __slots__ = ("_hands", "_scores", "first_dealer", "schneiderbummerl")

    first_dealer: int
    schneiderbummerl: bool
    _scores: list[int]
    _hands: list[HandResult]

    def __init__(self, first_dealer: int = 0, schneiderbummerl: bool = True) -> None:
        if not is_seat(first_dealer):
            raise IllegalResultError(
                "R18", f"the first dealer must be seat 0 or 1, not {first_dealer!r}"
            )
        self.first_dealer = first_dealer
        self.schneiderbummerl = schneiderbummerl
        self._scores = [START, START]
        self._hands = []

    def copy(self) -> Bummerl:
        new = Bummerl(self.first_dealer, self.schneiderbummerl)
        new._scores = self._scores[:]
        new._hands = self._hands[:]
        return new

    @property
    def scores(self) -> tuple[int, int]:
        """What each seat still has to strike off (7 at the start)."""
        return (self._scores[0], self._scores[1])

    @property
    def hands(self) -> tuple[HandResult, ...]:
        return tuple(self._hands)

    @property
    def next_dealer(self) -> int:
        """R18: the deal alternates every hand."""
        return self.first_dealer ^ (len(self._hands) & 1)

    @property
    def is_over(self) -> bool:
        return 0 in self._scores

    @property
    def winner(self) -> int | None:
        if self._scores[0] == 0:
            return 0
        if self._scores[1] == 0:
            return 1
        return None

    @property
    def is_schneider(self) -> bool:
        """R19: won while the loser is still at 7."""
        return self.is_over and START in self._scores

    @property
    def value(self) -> int:
        """Bummerl this one counts for its winner: 2 for a Schneiderbummerl (R19), else 1."""
        if not self.is_over:
            return 0
        return 2 if self.schneiderbummerl and self.is_schneider else 1

    def record(self, result: HandResult) -> None:
        """Strike off a hand's game points in place (R17, R18)."""
        if self.is_over:
            raise IllegalResultError(
                "R17", f"the Bummerl is over: seat {self.winner} is at 0; no further hand"
            )
        expected = self.next_dealer
        if result.dealer is not None and result.dealer != expected:
            raise IllegalResultError(
                "R18",
                f"hand {len(self._hands) + 1} of this Bummerl is dealt by seat {expected}, "
                f"not seat {result.dealer} (the deal alternates every hand)",
            )
        self._scores[result.winner] = max(0, self._scores[result.winner] - result.game_points)
        self._hands.append(result)

    def apply(self, result: HandResult) -> Bummerl:
        new = self.copy()
        new.record(result)
        return new

    def to_json(self) -> dict[str, Any]:
        return {
            "first_dealer": self.first_dealer,
            "scores": list(self.scores),
            "hands": [dataclasses.asdict(h) for h in self._hands],
            "winner": self.winner,
            "schneider": self.is_schneider,
            "value": self.value,
        }


class Match:
    """A best-of-N Bummerl match (R18-R20) between seat 0 and seat 1."""

    __slots__ = ("_bummerls", "_wins", "best_of", "first_dealer", "schneiderbummerl")

    best_of: int
    first_dealer: int
    schneiderbummerl: bool
    _bummerls: list[Bummerl]
    _wins: list[int]

    def __init__(self, best_of: int = 1, first_dealer: int = 0, schneiderbummerl: bool = True):
        if type(best_of) is not int or best_of < 1 or best_of % 2 == 0:
            raise IllegalResultError(
                "R20", f"a match is best of an odd number of Bummerl, not {best_of!r}"
            )
        if not is_seat(first_dealer):
            raise IllegalResultError(
                "R18", f"the first dealer must be seat 0 or 1, not {first_dealer!r}"
            )
        self.best_of = best_of
        self.first_dealer = first_dealer
        self.schneiderbummerl = schneiderbummerl
        self._bummerls = [Bummerl(first_dealer, schneiderbummerl)]
        self._wins = [0, 0]

    def copy(self) -> Match:
        new = Match(self.best_of, self.first_dealer, self.schneiderbummerl)
        new._bummerls = [*self._bummerls[:-1], self._bummerls[-1].copy()]
        new._wins = self._wins[:]
        return new

    @property
    def target(self) -> int:
        """Bummerl needed to win: (N+1)/2 (R20)."""
        return (self.best_of + 1) // 2

    @property
    def bummerl_wins(self) -> tuple[int, int]:
        """Bummerl won by each seat, a Schneiderbummerl counting 2 (R19, R20)."""
        return (self._wins[0], self._wins[1])

    @property
    def bummerls(self) -> tuple[Bummerl, ...]:
        """Finished Bummerl and the one in play (the last), if the match is not decided."""
        return tuple(self._bummerls)

    @property
    def current(self) -> Bummerl:
        return self._bummerls[-1]

    @property
    def is_decided(self) -> bool:
        return max(self._wins) >= self.target

    @property
    def winner(self) -> int | None:
        if self._wins[0] >= self.target:
            return 0
        if self._wins[1] >= self.target:
            return 1
        return None

    @property
    def next_dealer(self) -> int | None:
        """Who deals the next hand (R18), or None once the match is decided."""
        return None if self.is_decided else self.current.next_dealer

    @property
    def hand_count(self) -> int:
        return sum(len(b._hands) for b in self._bummerls)

    def sheet_totals(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Per seat, the game points struck off over every Bummerl (R17) and the
        Schneider Bummerl won (R19): a scoresheet's totals, in one pass.

        >>> m = Match(best_of=3)
        >>> for winner, points in [(1, 3), (0, 2), (1, 3), (1, 1), (0, 3), (0, 3), (0, 1)]:
        ...     m.record(HandResult(winner, points))
        >>> m.sheet_totals(), m.bummerl_wins  # Bummerl 2 a Schneider: counts 2 (R19)
        (((9, 7), (1, 0)), (2, 1))
        """
        struck = [0, 0]
        schneider = [0, 0]
        for bummerl in self._bummerls:
            first, second = bummerl._scores
            struck[0] += START - first
            struck[1] += START - second
            if first == 0 and second == START:
                schneider[0] += 1
            elif second == 0 and first == START:
                schneider[1] += 1
        return (struck[0], struck[1]), (schneider[0], schneider[1])

    def record(self, result: HandResult) -> None:
        """Record a hand in place; refused once the match is decided (R20)."""
        if self.is_decided:
            raise IllegalResultError(
                "R20",
                f"the match is decided ({self._wins[0]}:{self._wins[1]} Bummerl, seat "
                f"{self.winner} won); no hand is played or entered after that",
            )
        bummerl = self._bummerls[-1]
        bummerl.record(result)
        if bummerl.is_over:
            assert bummerl.winner is not None
            self._wins[bummerl.winner] += bummerl.value
            if not self.is_decided:
                # R18: the first dealer alternates from Bummerl to Bummerl.
                next_first = self.first_dealer ^ (len(self._bummerls) & 1)
                self._bummerls.append(Bummerl(next_first, self.schneiderbummerl))

    def apply(self, result: HandResult) -> Match:
        new = self.copy()
        new.record(result)
        return new

    def to_json(self) -> dict[str, Any]:
        return {
            "best_of": self.best_of,
            "first_dealer": self.first_dealer,
            "schneiderbummerl": self.schneiderbummerl,
            "bummerl_wins": list(self.bummerl_wins),
            "decided": self.is_decided,
            "winner": self.winner,
            "next_dealer": self.next_dealer,
            "bummerls": [b.to_json() for b in self._bummerls],
        }
