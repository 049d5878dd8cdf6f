"""What every public page shares: the tournament's heading facts, the tabs between the
pages, numbers in the reader's locale, the page for a tournament that is not there, and
where a player sits next. No blueprint here: the pages' modules use it."""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any

from flask import g, render_template
from flask_babel import format_decimal, get_locale

from tournament.app.services import services
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.domain.views.matchview import MatchLine, match_lines
from tournament.i18n.words import FORMATS
from tournament.web.i18n import local_date

#: The formats whose page shows a bracket (groups: the group tables, then the knockout).
BRACKET_FORMATS = ("single_elimination", "double_elimination", "groups_knockout")
#: The formats whose page shows a crosstable (a matrix, or the Swiss progress table).
CROSSTABLE_FORMATS = ("round_robin", "swiss", "groups_knockout", "lives")


@dataclasses.dataclass(frozen=True)
class Header:
    """The tournament as every public page names it, and which tabs it has."""

    tid: str
    name: str
    format: str
    format_name: str
    best_of: int
    held_on: str | None
    rounds: int  # rounds drawn so far

    @property
    def has_bracket(self) -> bool:
        return self.format in BRACKET_FORMATS

    @property
    def has_crosstable(self) -> bool:
        return self.format in CROSSTABLE_FORMATS


def header(tid: str, t: Tournament) -> Header:
    assert t.settings is not None
    s = t.settings
    return Header(
        tid,
        s.name,
        s.format,
        str(FORMATS.get(s.format, s.format)),
        s.best_of,
        held_on(s.date),
        len(t.rounds),
    )


@contextmanager
def reading(tid: str) -> Iterator[Tournament | None]:
    """The tournament now, held still while a page works its view out (None: there is
    no such tournament)."""
    g.localized = True
    service = services().tournaments
    with service.reading():
        try:
            t = service.state(tid)
        except DomainError:
            yield None
            return
        yield t


def not_found(tid: str) -> tuple[str, int]:
    return render_template("errors/404.html", tid=tid), 404


#: Numbers as written in each locale: a table of 200 players writes some thousand
#: numbers, mostly the same few dozen, and Babel's formatting was 40 % of the public
#: standings page's CPU (trial 9, section 7).
_WRITTEN: dict[tuple[str, type, int | float], str] = {}


def number(value: Any) -> str:
    """A count or a tie-break value in the reader's locale (a Buchholz of 4,5 in German);
    nothing for a tie-break that decided nothing yet."""
    if value is None or value == "":
        return ""
    if isinstance(value, int | float):
        key = (str(get_locale()), type(value), value)
        written = _WRITTEN.get(key)
        if written is None:
            written = str(format_decimal(value))
            if len(_WRITTEN) > 20_000:
                _WRITTEN.clear()
            _WRITTEN[key] = written
        return written
    return str(value)


def held_on(text: str) -> str | None:
    try:
        return local_date(date.fromisoformat(text), "long") if text else None
    except ValueError:
        return text


def alphabetical(name: str) -> str:
    """The sort key of a name as a printed list has it: Öller beside Oberhofer, not
    after Zach (accents aside, case aside)."""
    plain = unicodedata.normalize("NFKD", name)
    return "".join(c for c in plain if not unicodedata.combining(c)).casefold()


def next_matches(t: Tournament) -> dict[int, MatchLine]:
    """Per player with an open match, the first (where they sit next), as the
    projection's player summary finds it (``proj_players.next_match``)."""
    found: dict[int, MatchLine] = {}
    for line in match_lines(t, "open"):
        for ref in line.players:
            if ref is not None:
                found.setdefault(ref.id, line)
    return found


def next_match(t: Tournament, player_id: int) -> MatchLine | None:
    return next_matches(t).get(player_id)


def opponent_of(line: MatchLine, player_id: int) -> str | None:
    a, b = line.players
    if b is None:
        return None
    return b.name if a.id == player_id else a.name
