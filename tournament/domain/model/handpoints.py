"""What a paper hand's card points say about its game points (R11, R13-R16).

A scoresheet may note both players' *card points* at the end of the hand. They are R11
points: the card points of the tricks taken plus the marriages that count (R10) -- the
``points`` of a record's outcome. So they are bounded by the pack and the marriages:

* the cards hold 120 (R1); the marriages at most 100 (40 in trumps, 20 in each of the three
  other suits, each declared once at most since there is one king and one queen per suit);
  both players together have at most 220, each 0-220;
* every trick holds at least 4 card points (two jacks) and a marriage counts only once its
  player has a trick (R10), so 1, 2 or 3 points are impossible and **0 points means no
  trick** -- which is what R13-R15 ask;
* after the tenth trick (R16) all 20 cards are in tricks: together 120 plus the marriages,
  i.e. 120, 140, ... 220.

With the reason and both players' points the game points follow, exactly or within a
range where the sheet does not show the state when the talon was closed (R14)::

    >>> allowed("claim", False, won=66, lost=20)
    Allowed(points=(2,), rule='R13', why='the opponent has fewer than 33')
    >>> allowed("claim", True, won=66, lost=20).points
    (2, 3)
    >>> allowed("false_claim", False, won=0, lost=50)
    Allowed(points=(3,), rule='R15', why='the winner has no trick: 0 points')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from tournament.domain.model.errors import DomainError

CARDS = 120  # R1
MARRIAGES = 40 + 3 * 20  # one marriage per suit at most (R10)
MOST = CARDS + MARRIAGES
SMALLEST_TRICK = 4  # two jacks
CLAIM = 66  # R13

#: Reasons of the record format (R13-R16), and ``closed``, an older paper spelling of a
#: correct claim by the closer: read as ``claim`` with the talon closed.
REASONS = ("claim", "false_claim", "last_trick", "closer_failed")
PAPER_REASONS = (*REASONS, "closed")


class Allowed(NamedTuple):
    """The game points a hand may give (ascending), the rule that says so and why."""

    points: tuple[int, ...]
    rule: str
    why: str


def reason_and_closed(reason: str | None, closed: bool | None) -> tuple[str | None, bool | None]:
    """``closed`` as a reason is a correct claim with the talon closed (R14); a failed
    close had a closed talon by definition."""
    if reason == "closed":
        return "claim", True
    if reason == "closer_failed":
        return reason, True
    return reason, closed


def check_card_points(points: Sequence[object]) -> list[int]:
    """Both players' R11 points as whole numbers within what the pack allows."""
    if len(points) != 2 or not all(type(x) is int for x in points):
        raise DomainError(
            "card_points",
            "R11",
            code="handpoints.card_points_two_whole",
            params={"points": repr(list(points))},
        )
    a, b = (int(x) for x in points)  # type: ignore[call-overload]
    for x in (a, b):
        if not 0 <= x <= MOST:
            raise DomainError(
                "card_points",
                "R11",
                code="handpoints.player_s_points_cards",
                params={"x": x, "most": MOST},
            )
        if 0 < x < SMALLEST_TRICK:
            raise DomainError(
                "card_points",
                "R11",
                code="handpoints.points_impossible_trick_holds",
                params={"x": x, "smallest_trick": SMALLEST_TRICK},
            )
    if a + b > MOST:
        raise DomainError(
            "card_points",
            "R11",
            code="handpoints.adds_up_both_players",
            params={
                "a": a,
                "b": b,
                "a2": a + b,
                "most": MOST,
                "cards": CARDS,
                "marriages": MARRIAGES,
            },
        )
    return [a, b]


def _r13(lost: int) -> Allowed:
    if lost == 0:
        return Allowed((3,), "R13", "the opponent has no trick: 0 points")
    if lost < 33:
        return Allowed((2,), "R13", "the opponent has fewer than 33")
    return Allowed((1,), "R13", "the opponent has 33 or more")


def _closer_fails(won: int) -> Allowed:
    if won == 0:
        return Allowed((3,), "R14", "the closer's opponent has no trick, so had none at closing")
    return Allowed((2, 3), "R14", "3 if the closer's opponent had no trick at closing, else 2")


def _claim(closed: bool | None, won: int, lost: int) -> Allowed:
    if won < CLAIM:
        raise DomainError(
            "card_points",
            "R13",
            code="handpoints.correct_claim_needs_points",
            params={"claim": CLAIM, "won": won},
        )
    now = _r13(lost)
    if closed is False:
        return now
    # R14: the closer is judged on the opponent at closing (no more than now: as many
    # game points as now or more), or the closer's opponent claimed first (2 or 3).
    if lost == 0:
        return Allowed((3,), "R14", "the opponent has no trick, so had none at closing")
    points = tuple(range(min(now.points[0], 2), 4))
    return Allowed(points, "R14", "judged on the opponent's tricks and points at closing")


def _false_claim(closed: bool | None, won: int, lost: int, mirror: bool) -> Allowed:
    if lost >= CLAIM:
        raise DomainError(
            "card_points", "R15", code="handpoints.claim_points_false_claim", params={"lost": lost}
        )
    if mirror:
        # The variant: what a correct claim would have given the claimer, judged on the winner.
        r13 = _r13(won)
        now = Allowed(r13.points, "R15", f"false-claim-mirror, as R13: {r13.why}")
    elif won == 0:
        now = Allowed((3,), "R15", "the winner has no trick: 0 points")
    else:
        now = Allowed((2,), "R15", "the winner has a trick")
    if closed is False:
        return now
    # The claimer may have been the closer: scored by R14 instead.
    fails = _closer_fails(won)
    points = tuple(sorted(set(now.points) | set(fails.points)))
    return Allowed(points, "R14", f"{now.why} (R15), or the closer claimed falsely (R14)")


def _last_trick(closed: bool | None, won: int, lost: int) -> Allowed:
    if closed:
        raise DomainError("closed", "R16", code="handpoints.hand_won_last_trick")
    extra = won + lost - CARDS
    if won < SMALLEST_TRICK or extra < 0 or extra % 20:
        raise DomainError(
            "card_points",
            "R16",
            code="handpoints.after_tenth_trick_all",
            params={"cards": CARDS, "won": won, "lost": lost},
        )
    return Allowed((1,), "R16", "the last trick wins 1, whatever the points")


def allowed(
    reason: str, closed: bool | None, *, won: int, lost: int, mirror: bool = False
) -> Allowed:
    """The game points ``reason`` gives with the winner's and the loser's R11 points;
    ``closed`` None when the sheet does not say whether the talon was closed."""
    if reason == "claim":
        return _claim(closed, won, lost)
    if reason == "false_claim":
        return _false_claim(closed, won, lost, mirror)
    if reason == "closer_failed":
        return _closer_fails(won)
    return _last_trick(closed, won, lost)


def without_points(reason: str, closed: bool | None, mirror: bool) -> Allowed:
    """The game points ``reason`` allows when the sheet has no card points."""
    if reason == "last_trick":
        return _last_trick(closed, SMALLEST_TRICK, CARDS - SMALLEST_TRICK)
    if reason == "closer_failed":
        return Allowed((2, 3), "R14", "3 if the closer's opponent had no trick at closing, else 2")
    if reason == "false_claim" and not mirror:
        return Allowed((2, 3), "R15", "3 if the winner has no trick, else 2")
    return Allowed((1, 2, 3), "R13", "")


def words(points: Sequence[int]) -> str:
    """``(2, 3)`` -> ``2 or 3``."""
    return " or ".join(map(str, points)) if len(points) < 3 else "1, 2 or 3"
