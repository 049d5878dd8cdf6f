"""A correction as a front end gives it -- what changes, or void, or undo -- and the one
command it makes. ``tournament results correct`` and ``POST .../results/{rid}/corrections``
both build a :class:`Correction` and run :func:`correction_command`.

    >>> Correction("a1b2", {"game_points": 3}, void=True).refuse_mixed(CORRECT_OPTIONS)
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: options: --void with --points: give either ...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from tournament.domain import commands as c
from tournament.domain.commands.entry import HAND_PARTS, OPTIONS, Command, Spelling
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.eventstore.api import NewEvent

#: ``results correct`` spells the talon's state as a pair of options.
CORRECT_OPTIONS = dataclasses.replace(
    OPTIONS, names={**OPTIONS.names, "closed": "--closed/--not-closed"}
)


@dataclasses.dataclass(frozen=True)
class Correction:
    """A correction of result ``result_id``: ``changes`` (a hand's parts, or ``tally``:
    the whole Bummerl as the sheet really tallies it), or ``void`` (it should not be there
    at all), or ``undo`` (reverse its latest correction) -- one of them."""

    result_id: str
    changes: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    void: bool = False
    undo: bool = False

    def refuse_mixed(self, spelling: Spelling) -> None:
        """One correction at a time (:func:`refuse_correction_mix`)."""
        hand = [spelling(part) for part in HAND_PARTS if part in self.changes]
        refuse_correction_mix(
            hand, "tally" in self.changes, void=self.void, undo=self.undo, spelling=spelling
        )


def refuse_correction_mix(
    hand: Sequence[str], tally: bool, *, void: bool, undo: bool, spelling: Spelling = OPTIONS
) -> None:
    """One correction per command: new hand parts (``hand``, spelled), a new tally, void
    or undo. Anything else would be dropped without a word (T-correction)."""
    n = spelling
    given = [*hand, *([n("tally")] if tally else [])]
    alone = [n(o) for o, on in (("void", void), ("undo", undo)) if on]
    if alone and (given or len(alone) > 1):
        others = [*alone[1:], *given]
        raise DomainError(
            n.field,
            "T-correction",
            code="correcting.mixed_with_void_or_undo",
            params={
                "alone": alone[0],
                "others": ", ".join(others),
                "void": n("void"),
                "undo": n("undo"),
            },
        )
    if tally and hand:
        raise DomainError(
            n.field,
            "T-correction",
            code="correcting.tally_with_hand_fields",
            params={"tally": n("tally"), "fields": ", ".join(hand)},
        )


def correction_command(
    correction: Correction, *, by: str, why: str, actor: str | None, spelling: Spelling
) -> Command:
    """The command that stores ``correction`` (its mix checked now): a correction event
    naming who (``by``) and why, decided on the newest state (T-correction)."""
    correction.refuse_mixed(spelling)
    n = spelling
    rid = correction.result_id

    def command(t: Tournament) -> list[NewEvent]:
        if correction.undo:
            return c.reversal(t, rid, by=by, reason=why, actor=actor)
        if correction.void:
            return c.correct_result(t, rid, None, by=by, reason=why, actor=actor)
        if not correction.changes:
            raise DomainError(
                "result",
                "T-correction",
                code="correcting.nothing_to_change",
                params={
                    "winner": n("winner"),
                    "game_points": n("game_points"),
                    "tally": n("tally"),
                    "void": n("void"),
                    "undo": n("undo"),
                },
            )
        return c.correct_result(t, rid, correction.changes, by=by, reason=why, actor=actor)

    return command
