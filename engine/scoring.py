"""How a hand is scored: game points for claims (R13-R15) and for play to the end (R14, R16).

Pure functions of the few numbers that matter, so each rule reads as written::

    >>> r13_game_points(opponent_tricks=0, opponent_points=0)
    3
    >>> score_claim(ClaimFacts(claimer=1, claimer_points=70, opponent_tricks=2,
    ...                        opponent_points=40))
    (1, 1, 'claim')
"""

from __future__ import annotations

import dataclasses

#: (winner seat, game points, reason)
Result = tuple[int, int, str]


def r13_game_points(opponent_tricks: int, opponent_points: int) -> int:
    """R13: 3 if the opponent has no trick, 2 if it has fewer than 33 points, else 1."""
    if opponent_tricks == 0:
        return 3
    return 2 if opponent_points < 33 else 1


def closer_fails(frozen_tricks: int) -> int:
    """R14: the closer's opponent wins 3 if it had no trick when the talon was closed, else 2."""
    return 3 if frozen_tricks == 0 else 2


@dataclasses.dataclass(frozen=True, slots=True)
class ClaimFacts:
    """What a claim is judged on: R11 points now, and the state frozen at closing (R9)."""

    claimer: int
    claimer_points: int
    opponent_tricks: int
    opponent_points: int
    closed_by: int | None = None
    frozen_tricks: int = 0  # the closer's opponent's tricks and points when closing
    frozen_points: int = 0
    false_claim_mirror: bool = False


def score_claim(facts: ClaimFacts) -> Result:
    """The result of a claim (R13, R14, R15 or the false-claim-mirror variant)."""
    seat, opponent = facts.claimer, 1 - facts.claimer
    correct = facts.claimer_points >= 66
    if facts.closed_by == seat:
        # R14: the closer is judged on the opponent's state at the moment of closing.
        if correct:
            return seat, r13_game_points(facts.frozen_tricks, facts.frozen_points), "claim"
        return opponent, closer_fails(facts.frozen_tricks), "false_claim"
    if correct:
        if facts.closed_by is not None:
            # R14: the closer's opponent claims correctly first, so the closer fails.
            return seat, closer_fails(facts.frozen_tricks), "claim"
        return seat, r13_game_points(facts.opponent_tricks, facts.opponent_points), "claim"
    if facts.false_claim_mirror:
        # The opponent gets what a correct claim would have given the claimer.
        return (
            opponent,
            r13_game_points(facts.opponent_tricks, facts.opponent_points),
            "false_claim",
        )
    # R15: the opponent wins 2, or 3 if it has no trick yet.
    return opponent, 3 if facts.opponent_tricks == 0 else 2, "false_claim"


def score_all_played(closed_by: int | None, frozen_tricks: int, last_trick_winner: int) -> Result:
    """All cards played and no claim: R14 if the talon was closed, else R16."""
    if closed_by is not None:
        return 1 - closed_by, closer_fails(frozen_tricks), "closer_failed"
    return last_trick_winner, 1, "last_trick"
