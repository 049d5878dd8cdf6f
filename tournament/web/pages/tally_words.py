"""The domain's refusals of a typed Bummerl tally (:mod:`tournament.domain.tally`, R13,
R17) in the reader's language, for the scoresheet desk.

The domain says them in English with the Bummerl and the hand in front (``match 3.1,
Bummerl 1: hand 2: Anna Huber (1)'s count goes from 5 to 1, a step of 4; ...``). Each
known shape is read back into its parts (who, counts, hand) and said again from the
catalog; a message of another shape is shown as the domain says it, never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from flask_babel import gettext

from tournament.domain.errors import DomainError
from tournament.web.pages.desk import refusal

Say = Callable[[dict[str, str]], str]

_PLACE = re.compile(r"^(?:tally \d+ of \d+: )?match [^,]+, Bummerl (?P<bummerl>\d+): ")
_HAND = re.compile(r"^hand (?P<hand>\d+): ")

#: Each shape of a tally refusal (after its place), and how the catalog says it.
SHAPES: Final[list[tuple[re.Pattern[str], Say]]] = [
    (
        re.compile(
            r"(?P<who>.+)'s count goes from (?P<a>\d+) to (?P<b>\d+), a step of (?P<step>\d+);"
            r" a hand gives 1, 2 or 3 game points"
        ),
        lambda p: gettext(
            "%(who)s's count goes from %(a)s to %(b)s, a step of %(step)s: a hand gives "
            "1, 2 or 3 game points",
            **p,
        ),
    ),
    (
        re.compile(r"(?P<who>.+)'s count goes from (?P<a>\d+) to (?P<b>\d+); it only goes down"),
        lambda p: gettext("%(who)s's count goes from %(a)s to %(b)s: it only goes down", **p),
    ),
    (
        re.compile(r"(?P<who>.+)'s count stays at (?P<b>\d+);.*"),
        lambda p: gettext(
            "%(who)s's count stays at %(b)s: a column lists a count only when it changes", **p
        ),
    ),
    (
        re.compile(r"(?P<who>.+)'s column '(?P<column>[^']*)' repeats (?P<n>\d+);.*"),
        lambda p: gettext(
            "%(who)s's column “%(column)s” repeats %(n)s: a column lists a count only when "
            "it changes",
            **p,
        ),
    ),
    (
        re.compile(r"a count runs from 7 to 0, not (?P<n>-?\d+)"),
        lambda p: gettext("a count runs from 7 to 0, not %(n)s", **p),
    ),
    (
        re.compile(r"no count ends at 0: the Bummerl is not finished.*"),
        lambda p: gettext(
            "no count ends at 0: the Bummerl is not finished (the winner strikes to 0)"
        ),
    ),
    (
        re.compile(r"both counts end at 0; .*"),
        lambda p: gettext("both counts end at 0: only the first to 0 wins the Bummerl"),
    ),
    (
        re.compile(
            r"(?P<who>.+)'s count reached 0 at their hand (?P<n>\d+); a hand after the "
            r"Bummerl ended cannot be entered"
        ),
        lambda p: gettext(
            "%(who)s's count reached 0 at their hand %(n)s: no hand comes after the end of "
            "the Bummerl",
            **p,
        ),
    ),
    (
        re.compile(r"(?P<text>.+) is not a tally like .*"),
        lambda p: gettext("%(text)s is not a tally like “7 5 4 1 0 / 7 6 3”", **p),
    ),
    (
        re.compile(r"a tally has two columns separated by '/', not (?P<n>\d+)"),
        lambda p: gettext("a tally has two columns separated by “/”, not %(n)s", **p),
    ),
]


def tally_refusal(error: DomainError) -> str:
    """``error`` in the reader's language when it is a tally's refusal of a known shape:
    the Bummerl, the hand, what is wrong, and the rule."""
    text = error.message
    parts = []
    if place := _PLACE.match(text):
        parts.append(gettext("Bummerl %(n)s", n=place["bummerl"]))
        text = text[place.end() :]
    if hand := _HAND.match(text):
        parts.append(gettext("hand %(n)s", n=hand["hand"]))
        text = text[hand.end() :]
    for shape, say in SHAPES:
        if found := shape.fullmatch(text):
            where = ", ".join(parts)
            said = say(found.groupdict())
            return f"{where}: {said} ({error.rule})" if where else f"{said} ({error.rule})"
    return refusal(error)
