# ruff: noqa: E501  (a template stays one string, as the catalog shows it)
"""The domain's refusals in the reader's language.

A :class:`~tournament.domain.model.errors.DomainError` names its ``field`` and ``rule`` and says
what is wrong in English. :func:`describe` gives the line a page shows; where the error
carries a ``code`` with ``params`` it is rendered from the German or English catalog, so
one refusal reads the same from the API (English) and from a page (either language).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from flask_babel import gettext

from tournament.domain.commands.csvread import CsvImportError
from tournament.domain.model.errors import DomainError
from tournament.domain.words.messages import ALL_TEMPLATES, EVERY_TEMPLATE, WORDS, Param, Phrase
from tournament.domain.words.readback import read_back
from tournament.domain.words.wording import FIELD_WORDS


def N_(name: str) -> str:
    """Marks a field's name for the catalog (extracted by babel's default keywords)."""
    return name


#: The fields a refusal names that an organiser or a player meets on the pages. The msgid
#: is the field's own name, so English reads as the API does ("tally: ...") and German
#: says what the field is ("Spielbericht: ...").
FIELD_NAMES: frozenset[str] = frozenset(
    {
        N_("tally"),
        N_("round"),
        N_("match"),
        N_("player"),
        N_("players"),
        N_("code"),
        N_("name"),
        N_("club"),
        N_("category"),
        N_("reason"),
        N_("result"),
        N_("winner"),
        N_("date"),
        N_("game_points"),
        N_("card_points"),
        N_("seat"),
        N_("table"),
        N_("best_of"),
        N_("group"),
        N_("groups"),
        N_("seeding"),
        N_("order"),
        N_("forfeit"),
        N_("signed"),
        N_("tiebreaks"),
        N_("pairings"),
        N_("options"),
        N_("first_dealer"),
        N_("variants"),
        # Online tables at the desk (T-online, T-clock).
        N_("move_seconds"),
        N_("by"),
        N_("clock"),
        # What the desk's own pages check (PAGE_TEMPLATES).
        N_("strike"),
        N_("version"),
    }
)


#: Refusals of the desk's own pages (not of the domain), by code, in English; raised with
#: :func:`page_error` so :func:`describe` renders them in the reader's language like the
#: domain's (O-L6: they were English on German pages).
PAGE_TEMPLATES: Final[dict[str, str]] = {
    "page.strike_or_correct": N_(
        "strike a hand, or give the corrected Bummerl or void, not several; nothing stored"
    ),
    "page.strike_number": N_("the hand to strike is its number, e.g. 2"),
    "page.stored_since_preview": N_(
        "something was stored since the preview: preview the correction again"
    ),
    "page.changed_look_again": N_("the tournament changed; look again"),
    "page.only_latest_round": N_(
        "only the latest round (%(latest)s) can be cancelled, not round %(number)s"
    ),
    "page.signed_already": N_("both players have signed this sheet already"),
    "page.type_a_table": N_("type a table number"),
    "page.no_start_number": N_("there is no player with start number %(text)s"),
}

#: The domain's words that advise a command of the CLI, as a page says them instead: a
#: browser user does it on the page (O-L6, O-L9). Same params as the domain's template.
ON_THE_PAGE: Final[dict[str, str]] = {
    "progress.cannot_draw": N_(
        "round %(round)s cannot be drawn: %(parts)s (the sheets page shows what is missing)"
    ),
    "rounds.round_cannot_cancelled_match": N_(
        "round %(number)s cannot be cancelled: match %(mid)s already has %(found)s; correct its results on the sheets page instead"
    ),
    "preview.reopened": N_(
        "match %(match_id)s is open again: %(needed)s (the next round can be drawn once it is decided)"
    ),
    "matchref.no_round_drawn": N_("no round is drawn yet (draw round 1 on the rounds page)"),
    "registration.drawn_round_check_undone": N_(
        "%(label)s was drawn in round %(drawn)s: a check-in is undone before the draw only; if the player has left, withdraw them (Withdraw in their row)"
    ),
    "results.match_live_hand_dealt": N_(
        "match %(match_id)s, %(next_place)s: live hand %(stream)s (dealt by %(dealer)s) is in progress; play it on, or abandon it on the Online tables page (R18: one hand at a time, the deal alternates)"
    ),
    "results.match_knockout_match_needs": N_(
        "match %(match_id)s (%(labels)s) is a knockout match and needs a winner, so both absent is not entered: forfeit it to the player who goes on, and withdraw a player who left"
    ),
    "standings_view.tournament_events_see_tournament": N_(
        "tournament %(id)s has events 1 to %(version)s (see the audit log), not %(as_of)s"
    ),
}

#: The problems of a CSV file's own shape (tournament.domain.commands.csvread: encoding, header,
#: fields), said in English with no code: a page reads them back into these (O-L6).
CSV_SHAPE_TEMPLATES: Final[dict[str, str]] = {
    "csv.encoding": N_("the file is not UTF-8 text (byte %(byte)s); save it as 'CSV UTF-8'"),
    "csv.header_needs": N_(
        "the header needs column(s) %(missing)s (columns: %(known)s, or their German names)"
    ),
    "csv.unknown_columns": N_(
        "unknown column(s) %(named)s (columns: %(known)s, or their German names)"
    ),
    "csv.columns_twice": N_("column(s) %(twice)s more than once in the header"),
    "csv.empty": N_("the file is empty; the header needs %(required)s"),
    "csv.fields": N_(
        "%(count)s fields, but the header has %(columns)s column(s) (%(names)s); a value with a comma or semicolon needs quotes"
    ),
}

_TEMPLATES: Final[dict[str, str]] = {**ALL_TEMPLATES, **PAGE_TEMPLATES, **ON_THE_PAGE}


def page_error(
    kind: type[DomainError], field: str, rule: str, code: str, **params: str | int
) -> DomainError:
    """A refusal of a desk page with a code of :data:`PAGE_TEMPLATES`: its English message
    for the log and the API's shape, its code for the page's language."""
    return kind(field, rule, PAGE_TEMPLATES[code] % params, code=code, params=params)


#: Refusals that name no field a reader typed: said as a sentence, without "field: ".
UNPREFIXED: Final = frozenset({"online.time_ran_out"})


def field_name(field: str) -> str:
    """The field a refusal names, in the reader's language where it is one of ours."""
    return str(gettext(field)) if field in FIELD_NAMES else field


def describe(error: DomainError) -> str:
    """One line: what is wrong, and the rule it breaks -- as :meth:`DomainError.line`
    has it, in the request's language when the error has a code (English without)."""
    template = _TEMPLATES.get(error.code or "")
    if template is None:
        return error.line()
    try:
        message = _render(template, error.params)
    except (KeyError, TypeError, ValueError):
        # A translation whose placeholders do not fit (a catalog merged by hand): the
        # English line, never a failed page (tests/domain/test_messages.py guards this).
        return error.line()
    # The rule once, as line() cites it: a template may already say "(R18: ...)".
    if error.code in UNPREFIXED:
        return f"{message[:1].upper()}{message[1:]} ({error.rule})"
    field = field_name(error.field)
    if f"({error.rule}" in message:
        return f"{field}: {message}"
    return f"{field}: {message} ({error.rule})"


def describe_rows(error: CsvImportError) -> list[tuple[int, str]]:
    """A refused CSV import's bad rows, each (line in the file, what is wrong): a row the
    domain refused in the reader's language (as :func:`describe`), a problem of the
    file's own shape (encoding, header) in English."""
    rows = []
    for (line, message), refusal in zip(error.problems, error.refusals, strict=True):
        rows.append((line, csv_shape(message) if refusal is None else describe(refusal)))
    return rows


def csv_shape(message: str) -> str:
    """A problem of a CSV file's shape in the reader's language, where it is one of
    :data:`CSV_SHAPE_TEMPLATES` (else as it is)."""
    found = read_back(message, CSV_SHAPE_TEMPLATES)
    if isinstance(found, str):
        return found
    return str(gettext(CSV_SHAPE_TEMPLATES[found.code])) % dict(found.params)


def _render(template: str, params: Mapping[str, Param]) -> str:
    """``template`` in the reader's language, filled with ``params`` (phrases rendered
    the same way first)."""
    return str(gettext(template)) % {name: _word(value) for name, value in params.items()}


def _word(value: Param) -> str | int:
    """A param that is one of the domain's own words (a tally's seat) in the reader's
    language; a name, a number or what the organiser typed as it is."""
    if isinstance(value, Phrase):
        known = ON_THE_PAGE.get(value.code) or EVERY_TEMPLATE.get(value.code)
        return str(value) if known is None else _render(known, value.params)
    if isinstance(value, str) and (value in WORDS or value in FIELD_WORDS):
        return str(gettext(value))
    return value


def say(words: Phrase | str) -> str:
    """A phrase of the domain (a stage, a warning, a flag, a reason) in the reader's
    language; a text without a code as it is."""
    return str(_word(words))
