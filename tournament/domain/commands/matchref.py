"""A match as the organiser names it: ``2.5`` (round.table as printed), a bracket id
(``R1-3``, ``W2-1``, ``GF1``) in any case, or round.table of a bracket match; and, when
there is no such match, why not in the organiser's words::

    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import paired
    >>> t = fold(paired(players=4))
    >>> resolve_match(t, " 1.2 ")
    '1.2'
    >>> resolve_match(t, "2.1")
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.NotFoundError: match: round 2 is not drawn yet (T-match)
    >>> resolve_match(t, "1,2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.NotFoundError: match: there is no match '1,2'; did you mean ...
"""

from __future__ import annotations

import re

from tournament.domain.model.errors import NotFoundError
from tournament.domain.model.state import Tournament
from tournament.domain.model.text import excerpt
from tournament.domain.words.messages import Phrase

_ROUND_TABLE = re.compile(r"([0-9]{1,6})\.([0-9]{1,6})")
#: ``1,2`` (a decimal comma) or ``1;2``, ``1:2``, ``1-2``, ``1 2``: round and table
#: separated by something other than the point.
_MISTYPED = re.compile(r"([0-9]{1,6})\s*[,;:/ -]\s*([0-9]{1,6})")


def resolve_match(t: Tournament, text: str) -> str:
    """The id of the match ``text`` names, or a :class:`NotFoundError` saying why there
    is none: a round not drawn yet, a bracket match still waiting for its players, a table
    the round does not have, a comma for the point."""
    typed = text.strip()
    for candidate in (typed, typed.upper()):
        if candidate in t.matches:
            return candidate
    if found := _at_table(t, typed):
        return found
    why = _why_not(t, typed)
    if isinstance(why, str):
        raise NotFoundError("match", "T-match", why)
    raise NotFoundError("match", "T-match", code=why.code, params=why.params)


def _at_table(t: Tournament, typed: str) -> str | None:
    """The match at ``round.table`` (digits 0-9 only), if that round has that table."""
    numbers = _ROUND_TABLE.fullmatch(typed)
    if numbers is None:
        return None
    number, table = int(numbers[1]), int(numbers[2])
    if not 0 < number <= len(t.rounds):
        return None
    return next(
        (mid for mid in t.rounds[number - 1].matches if t.matches[mid].table == table), None
    )


def _why_not(t: Tournament, typed: str) -> Phrase | str:
    """Why no match is ``typed``: with its code, or (a bracket match waiting for its
    players) in English only."""
    numbers = _ROUND_TABLE.fullmatch(typed)
    if numbers is not None:
        number, table = int(numbers[1]), int(numbers[2])
        if number == 0:
            return Phrase("matchref.round_zero", {"typed": excerpt(typed)})
        if not t.rounds:
            return Phrase("matchref.no_round_drawn")
        if number > len(t.rounds):
            if len(t.rounds) > 1:
                return Phrase(
                    "matchref.round_not_drawn_of", {"number": number, "drawn": len(t.rounds)}
                )
            return Phrase("matchref.round_not_drawn", {"number": number})
        tables = sorted(t.matches[mid].table for mid in t.rounds[number - 1].matches)
        played = [x for x in tables if x]
        if not played:
            return Phrase("matchref.no_tables", {"number": number, "table": table})
        return Phrase(
            "matchref.no_such_table",
            {"number": number, "first": played[0], "last": played[-1], "table": table},
        )
    mistyped = _MISTYPED.fullmatch(typed)
    if mistyped is not None:
        meant = f"{int(mistyped[1])}.{int(mistyped[2])}"
        try:
            resolve_match(t, meant)
        except NotFoundError:
            pass
        else:
            return Phrase("matchref.did_you_mean", {"typed": excerpt(typed), "meant": meant})
    waiting = _waiting(t, typed.upper())
    if waiting:
        return waiting
    return Phrase("matchref.no_such_match", {"typed": excerpt(typed), "example": _example(t)})


def _example(t: Tournament) -> Phrase:
    """How match ids look in this tournament, with one of its own as the example."""
    latest = t.rounds[-1].matches[:1] if t.rounds else []
    bracketed = any(t.matches[mid].bracket for mid in latest)
    if bracketed:
        return Phrase("matchref.example_bracket", {"example": latest[0]})
    example = latest[0] if latest else "2.5"
    return Phrase("matchref.example_table", {"example": example})


def _waiting(t: Tournament, slot: str) -> str | None:
    """A bracket match not drawn yet, with what it waits for: ``W2-1 is not drawn yet: it
    waits for the winners of W1-1 and W1-2``."""
    from tournament.domain.standings.pairing import bracket_of, bracket_view
    from tournament.formats.bracket import LoserOf, WinnerOf

    bracket = bracket_of(t)
    view = bracket_view(t)
    match = next((m for m in bracket.matches if m.match_id == slot), None) if bracket else None
    if match is None or view is None:
        return None
    states = view[0].matches
    state = states[slot]
    known = [p for p in (state.player_a, state.player_b) if p is not None]
    if match.reset_of:
        if state.status == "not_needed":
            return f"{slot} is not played: the winners-bracket player won {match.reset_of}"
        return (
            f"{slot} is not drawn yet: the grand final reset is played only if the "
            f"losers-bracket player wins {match.reset_of}"
        )
    if state.status in ("bye", "void"):
        goes_on = f": {t.label(int(known[0]))} goes on without playing" if known else ""
        return f"{slot} is not played, it is a bye{goes_on}"
    if len(known) == 2:
        names = " v ".join(t.label(int(p)) for p in known)
        return f"{slot} is not drawn yet: {names}; `tournament round start` draws it"
    awaited: list[tuple[str, str]] = []
    for player, source in ((state.player_a, match.source_a), (state.player_b, match.source_b)):
        if player is None and isinstance(source, WinnerOf | LoserOf):
            if isinstance(source, LoserOf) and states[source.match_id].status in ("bye", "void"):
                continue  # a bye has no loser: nobody comes from there
            awaited.append(("winner" if isinstance(source, WinnerOf) else "loser", source.match_id))
    if not awaited:
        return None
    through = "".join(f" ({t.label(int(p))} is through)" for p in known)
    return f"{slot} is not drawn yet: it waits for {_sources(awaited)}{through}"


def _sources(awaited: list[tuple[str, str]]) -> str:
    """``the winners of W1-1 and W1-2``, ``the winner of L1-1 and the loser of W2-1``."""
    if len(awaited) == 2 and awaited[0][0] == awaited[1][0]:
        return f"the {awaited[0][0]}s of {awaited[0][1]} and {awaited[1][1]}"
    return " and ".join(f"the {kind} of {mid}" for kind, mid in awaited)
