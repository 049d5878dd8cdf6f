"""Corrections: a wrong result is never edited; a correction or a strike replaces it.

``correct_result`` replaces a result's payload (or voids it) with who and why, recording
what it replaces so that it can be reversed exactly; ``strike_hand`` removes one hand the
organiser could not resolve from a sheet. Both are checked by replaying the match first.
:func:`tournament.domain.views.preview.preview` says what a correction changes downstream.

    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import paired
    >>> from tournament.domain.commands.results import record_hand
    >>> events = paired(players=2, best_of=1)
    >>> events += record_hand(fold(events), "1.1", winner=1, game_points=3, result_id="h1")
    >>> t = fold(events)
    >>> fix = correct_result(t, "h1", {"winner": 2}, by="referee", reason="misread")
    >>> fix[0].payload["replacement"]["winner"], fix[0].payload["previous"]["winner"]
    (2, 1)
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from typing import Any

from tournament.domain.commands.registration import require_created
from tournament.domain.commands.results import hand_payload, tally_fields
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.model.matchstate import Entry, MatchState
from tournament.domain.model.state import Tournament
from tournament.domain.model.tally import tally_hands
from tournament.eventstore.api import NewEvent

_IDS = ("result_id", "match_id", "hand_stream")


def _entry(t: Tournament, result_id: str) -> tuple[MatchState, Entry]:
    if result_id not in t.result_match:
        raise NotFoundError(
            "result_id",
            "T-correction",
            code="corrections.there_result",
            params={"result_id": repr(result_id)},
        )
    return t.entry(result_id)


def _who_why(by: str, reason: str) -> None:
    if not by.strip():
        raise DomainError("by", "T-correction", code="corrections.correction_names_who_makes")
    if not reason.strip():
        raise DomainError("reason", "T-correction", code="corrections.correction_says_why")


def _replay_ok(match: MatchState, entries: list[Entry], what: str) -> None:
    """Refuse a change that would leave hands the match cannot count (R17, R20)."""
    trial = match.trial(entries)
    new = [p for p in trial.problems if p not in match.problems and "(R18" not in p]
    if new:
        rules = re.findall(r"\((R\d+|T-[a-z-]+)", new[0])
        raise ConflictError(
            "result",
            rules[-1] if rules else "T-correction",
            code="corrections.would_leave_match_inconsistent",
            params={"what": what, "match_id": match.match_id, "new": new[0]},
        )


def correct_result(
    t: Tournament,
    result_id: str,
    changes: Mapping[str, Any] | None,
    *,
    by: str,
    reason: str,
    actor: str | None = None,
) -> list[NewEvent]:
    """Replace a result: ``changes`` are merged into its current payload (``None`` voids it).

    A hand takes winner, game_points, dealer, reason, card_points, closed; a tally takes ``tally``
    (text or columns/rows); a forfeit takes winner. Reverse a correction by correcting
    again with its ``previous`` payload (:func:`reversal`).
    """
    settings = require_created(t)
    _who_why(by, reason)
    match, entry = _entry(t, result_id)
    previous = entry.payload
    if changes is None:
        if previous is None:
            raise ConflictError(
                "result_id",
                "T-correction",
                code="corrections.result_already_void",
                params={"result_id": result_id},
            )
        replacement = None
    else:
        base = dict(previous or _before_void(t, result_id))
        _fits_kind(entry.kind, result_id, [k for k in changes if k not in _IDS and k not in base])
        replacement = {**base, **{k: v for k, v in changes.items() if k not in _IDS}}
        _validate(settings, match, entry.kind, replacement, result_id)
        if replacement == previous:
            raise ConflictError(
                "result_id", "T-correction", code="corrections.correction_changes_nothing"
            )
    candidate = Entry(entry.result_id, entry.kind, replacement, entry.struck)
    _replay_ok(match, [candidate if e is entry else e for e in match.entries], "the correction")
    payload = {
        "correction_id": uuid.uuid4().hex[:12],
        "result_id": result_id,
        "match_id": match.match_id,
        "replacement": replacement,
        "previous": previous,
        "by": by.strip(),
        "reason": reason.strip(),
    }
    return [ev.make_event(ev.RESULT_CORRECTED, payload, actor=actor)]


def _before_void(t: Tournament, result_id: str) -> dict[str, Any]:
    """The payload a voided result had before the correction that voided it."""
    for c in reversed(t.corrections):
        if c.get("result_id") == result_id and c.get("previous") is not None:
            return dict(c["previous"])
    raise ConflictError(
        "result_id",
        "T-correction",
        code="corrections.result_nothing_restore",
        params={"result_id": result_id},
    )


def reversal(
    t: Tournament, result_id: str, *, by: str, reason: str, actor: str | None = None
) -> list[NewEvent]:
    """Undo the latest correction of a result: correct it back to what it replaced."""
    for c in reversed(t.corrections):
        if c.get("result_id") == result_id and "replacement" in c:
            previous = c["previous"]
            if previous is None:
                raise ConflictError(
                    "result_id", "T-correction", code="corrections.result_new_void_instead"
                )
            return correct_result(t, result_id, previous, by=by, reason=reason, actor=actor)
    raise ConflictError(
        "result_id",
        "T-correction",
        code="corrections.result_never_corrected",
        params={"result_id": result_id},
    )


#: What a correction may change, per kind of result (a hand's fields, a tally, the winner
#: of a forfeit); a field the result already holds (a reversal restores them all) too.
CORRECTABLE = {
    "hand": ("winner", "game_points", "dealer", "reason", "card_points", "closed"),
    "live": ("winner", "game_points", "dealer", "reason", "card_points", "closed"),
    "tally": ("tally",),
    "forfeit": ("winner",),
}


def _fits_kind(kind: str, result_id: str, fields: list[str]) -> None:
    """Refuse fields the result's kind has not (a hand's game points for a tally): merged
    in, they would be stored and count for nothing, and the preview would say unchanged."""
    wrong = [f for f in fields if f not in CORRECTABLE[kind]]
    if wrong:
        takes = ", ".join(CORRECTABLE[kind])
        raise DomainError(
            wrong[0],
            "T-correction",
            code="corrections.result_cannot_corrected_takes",
            params={
                "result_id": result_id,
                "kind": kind,
                "wrong": ", ".join(wrong),
                "takes": takes,
            },
        )


def _validate(
    settings: Any, match: MatchState, kind: str, p: dict[str, Any], result_id: str = ""
) -> None:
    if kind in ("hand", "live"):
        place = (match.hand_places().get(result_id) or ["hand"])[0]
        # A live hand's payload does not say whether the talon was closed: unknown (None),
        # so its card points are checked against both readings (R13/R14).
        closed = p.pop("closed", False if kind == "hand" else None)
        fields = hand_payload(
            settings,
            match,
            p.get("winner"),
            p.get("game_points"),
            p.get("dealer"),
            p.get("reason"),
            p.get("card_points"),
            closed=closed,
            place=f"result {result_id} ({place})",
        )
        p.update(fields)
    elif kind == "tally":
        p["tally"] = tally_fields(match, p["tally"], None)  # parsed and checked
    elif kind == "forfeit":
        winner = p.get("winner")
        if winner is not None and winner not in match.players:
            raise DomainError(
                "winner",
                "R17",
                code="corrections.player_does_play_match",
                params={"winner": winner, "match_id": match.match_id},
            )


def strike_hand(
    t: Tournament,
    result_id: str,
    hand: int | None = None,
    *,
    by: str,
    reason: str,
    actor: str | None = None,
) -> list[NewEvent]:
    """Strike hand ``hand`` (1-based, as ``results show`` lists a tally's hands; may be left
    out only for a result of one hand) of a result: it no longer counts. The organiser's
    last resort when a sheet error cannot be resolved. A struck hand was still dealt: it
    counts for the deal alternation (R18) while its game points do not (R17)."""
    require_created(t)
    _who_why(by, reason)
    match, entry = _entry(t, result_id)
    if entry.kind == "forfeit" or entry.payload is None:
        raise ConflictError(
            "result_id",
            "T-strike",
            code="corrections.result_hands_strike",
            params={"result_id": result_id},
        )
    count = len(tally_hands(entry.payload["tally"])) if entry.kind == "tally" else 1
    if hand is None:
        if count > 1:  # a guess would strike the wrong line of the sheet
            raise DomainError(
                "hand",
                "T-strike",
                code="corrections.result_holds_hands_say",
                params={"result_id": result_id, "count": count},
            )
        hand = 1
    if not 1 <= hand <= count:
        raise DomainError(
            "hand",
            "T-strike",
            code="corrections.result_hands",
            params={"result_id": result_id, "count": count, "hand": hand},
        )
    if hand in entry.struck:
        raise ConflictError(
            "hand",
            "T-strike",
            code="corrections.hand_result_struck_already",
            params={"hand": hand, "result_id": result_id},
        )
    candidate = Entry(entry.result_id, entry.kind, entry.payload, entry.struck | {hand})
    _replay_ok(match, [candidate if e is entry else e for e in match.entries], "striking the hand")
    payload = {
        "strike_id": uuid.uuid4().hex[:12],
        "result_id": result_id,
        "match_id": match.match_id,
        "hand": hand,
        "by": by.strip(),
        "reason": reason.strip(),
    }
    return [ev.make_event(ev.HAND_STRUCK, payload, actor=actor)]


def clear_flag(t: Tournament, match_id: str, *, actor: str | None = None) -> list[NewEvent]:
    """The organiser has looked at a flagged match (after an upstream correction)."""
    match = t.matches.get(match_id)
    if match is None:
        raise NotFoundError(
            "match", "T-match", code="corrections.there_match", params={"match_id": repr(match_id)}
        )
    if not match.flags:
        return []
    return [ev.make_event(ev.FLAG_CLEARED, {"match_id": match_id}, actor=actor)]
