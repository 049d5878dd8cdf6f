"""The words of the public pages for what the domain names in English: a bracket's
sections and slot statuses, a player's round and its outcome. The domain's words stay
what the command line prints; a page says them in the reader's language."""

from __future__ import annotations

import re
from typing import Final

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

from tournament.domain.words.messages import N_

#: A bracket match's section as :func:`tournament.domain.views.roundview.bracket_heading` names it.
HEADINGS: Final[dict[str, LazyString]] = {
    "Final": _l("Final"),
    "Semi-finals": _l("Semi-finals"),
    "Quarter-finals": _l("Quarter-finals"),
    "Third-place match": _l("Third-place match"),
    "Grand final": _l("Grand final"),
    "Grand final (reset)": _l("Grand final (reset)"),
    "Winners' final": _l("Winners' final"),
    "Winners' semi-finals": _l("Winners' semi-finals"),
    "Losers' final": _l("Losers' final"),
}

#: The sections of a bracket, in the order the page shows them.
SECTIONS: Final[dict[str, LazyString]] = {
    "R": _l("Knockout"),
    "W": _l("Winners bracket"),
    "L": _l("Losers bracket"),
    "GF": _l("Grand final"),
    "3P": _l("Third-place match"),
}

#: A bracket slot's status (tournament.formats.bracket).
SLOT_STATUSES: Final[dict[str, LazyString]] = {
    "waiting": _l("waiting"),
    "ready": _l("ready"),
    "done": _l("done"),
    "bye": _l("bye"),
    "void": _l("void"),
    "walkover": _l("walkover"),
    "not_needed": _l("not needed"),
}

#: A player's round (tournament.domain.views.history.RoundLine): its outcome or why it gave nothing.
OUTCOMES: Final[dict[str, LazyString]] = {
    "won": _l("won"),
    "lost": _l("lost"),
    "open": _l("open"),
    "dropped": _l("dropped (withdrawal)"),
    "both absent": _l("both absent, a loss for each"),
    "void": _l("void: taken out of the bracket by a correction"),
    "bye": _l("bye"),
    "missed": _l("missed (late entry)"),
    "withdrawn": _l("withdrawn"),
    "not checked in": _l("not checked in"),
    "no game": _l("no game"),
    "no game (nothing to play in this round)": _l("no game (nothing to play in this round)"),
}


#: Bracket sections the bracket document names with a number, and their words.
NUMBERED_HEADINGS: Final = (
    (re.compile(r"Round of (\d+)"), N_("Round of %(n)s")),
    (re.compile(r"Winners bracket, round (\d+)"), N_("Winners bracket, round %(n)s")),
    (re.compile(r"Losers bracket, round (\d+)"), N_("Losers bracket, round %(n)s")),
)


def numbered_heading(heading: str) -> tuple[str, str] | None:
    """(msgid, number) of a numbered bracket section, for the pages and the print packs
    to say in their own language; None for any other heading."""
    for pattern, message in NUMBERED_HEADINGS:
        if found := pattern.fullmatch(heading):
            return message, found.group(1)
    return None


def heading_words(heading: str) -> str:
    """A bracket section's name in the reader's language: ``Round of 16``, ``Winners
    bracket, round 2`` and the named ones."""
    if heading in HEADINGS:
        return str(HEADINGS[heading])
    if (numbered := numbered_heading(heading)) is not None:
        return str(gettext(numbered[0], n=numbered[1]))
    return heading


def outcome_words(outcome: str) -> str:
    found = OUTCOMES.get(outcome)
    return str(found) if found is not None else outcome


def status_words(status: str, conflict: bool = False) -> str:
    if conflict:
        return str(gettext("in conflict after a correction"))
    found = SLOT_STATUSES.get(status)
    return str(found) if found is not None else status.replace("_", " ")
