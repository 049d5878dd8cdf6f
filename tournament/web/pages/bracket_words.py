"""A bracket round's heading in the reader's language.

The bracket document carries each slot's heading as the domain names it, in English
(:func:`tournament.domain.roundview.bracket_heading`: "Round of 16", "Semi-finals",
"Losers bracket, round 3"). The pages say it in the reader's language: the fixed names
by this table, the numbered ones by their number; a heading not known here is shown as
it came (never a gap in the bracket).
"""

from __future__ import annotations

import re
from typing import Final

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

NAMED: Final[dict[str, LazyString]] = {
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

ROUND_OF = re.compile(r"Round of (\d+)")
WINNERS_ROUND = re.compile(r"Winners bracket, round (\d+)")
LOSERS_ROUND = re.compile(r"Losers bracket, round (\d+)")


def heading_words(heading: str) -> str:
    """``heading`` (as the bracket document has it) in the reader's language."""
    if heading in NAMED:
        return str(NAMED[heading])
    if found := ROUND_OF.fullmatch(heading):
        return str(gettext("Round of %(n)s", n=int(found[1])))
    if found := WINNERS_ROUND.fullmatch(heading):
        return str(gettext("Winners bracket, round %(n)s", n=int(found[1])))
    if found := LOSERS_ROUND.fullmatch(heading):
        return str(gettext("Losers bracket, round %(n)s", n=int(found[1])))
    return heading
