"""The events of a tournament in words: what each one did, players by name, as
``tournament log`` prints them and the API's event history (``GET .../events``) says them.

Names are today's (a player corrected later is named as now); ``tournament log --json``
prints the stored payloads as they are.

    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import registered
    >>> events = registered(players=2)
    >>> in_words(fold(events), events[1].type, events[1].payload)
    'Player 1 (1), rating 1999'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tournament.domain.model import events as ev
from tournament.domain.model.state import Tournament
from tournament.domain.model.tally import tally_text
from tournament.domain.views.reportwords import REPORT_WORDS
from tournament.domain.words.messages import Param, Phrase, param
from tournament.domain.words.readback import STAGE_TEMPLATES, read_back

Payload = Mapping[str, Any]
#: An event in words: a phrase with its code (tournament/domain/words/wording.py: ``event.*``)
#: where the audit page says it in German, an English piece where it does not yet.
Said = Phrase | str


def in_words(t: Tournament, type_: str, p: Payload) -> str:
    """One event's payload as a sentence; an unknown type as its plain JSON."""
    return str(in_phrase(t, type_, p))


def in_phrase(t: Tournament, type_: str, p: Payload) -> Said:
    """:func:`in_words` with its codes, for a page in the reader's language."""
    describe = WORDS.get(type_)
    if describe is None:
        import json

        return json.dumps(dict(p), ensure_ascii=False)
    return describe(t, p)


def _who(t: Tournament, pid: Any) -> Param:
    return Phrase("event.nobody") if pid is None else t.label(int(pid))


def _then(first: Param, code: str, **params: Any) -> Phrase:
    """``first`` and a piece after it (``, bye: ...``, ``; seed 7``)."""
    return Phrase(code, {"first": first, **{k: param(v) for k, v in params.items()}})


def _counted(count: int, one: str, many: str) -> Phrase:
    return Phrase(one if count == 1 else many, {"count": count})


def _created(t: Tournament, p: Payload) -> Said:
    s = p.get("settings", {})
    said: dict[str, Param] = {
        "name": repr(s.get("name", "?")),
        "format": str(s.get("format", "?")).replace("_", " "),
        "best_of": param(s.get("best_of", "?")),
    }
    if s.get("date"):
        return Phrase("event.created_on", {**said, "date": param(s["date"])})
    return Phrase("event.created", said)


def _registered(t: Tournament, p: Payload) -> Said:
    text = Phrase("event.player", {"name": param(p["name"]), "player_id": param(p["player_id"])})
    if p.get("club"):
        text = _then(text, "event.club", club=p["club"])
    if p.get("category"):
        text = _then(text, "event.category", category=p["category"])
    if p.get("rating") is not None:
        text = _then(text, "event.rating", rating=p["rating"])
    if p.get("late"):
        text = _then(text, "event.late")
        missed = p.get("missed_rounds")
        if missed is not None:
            score: Param = "0"
            if p.get("missed_rounds_score") == "bye":
                score = Phrase("event.a_bye" if missed == 1 else "event.a_bye_each")
            code = "event.missed_one" if missed == 1 else "event.missed"
            text = _then(text, code, count=missed, score=score)
    return text


def _edited(t: Tournament, p: Payload) -> str:
    previous = p.get("previous", {})
    changes = ", ".join(
        f"{k} {previous.get(k)!r} -> {v!r}" for k, v in p.get("changes", {}).items()
    )
    return f"{_who(t, p['player_id'])}: {changes}"


def _withdrawn(t: Tournament, p: Payload) -> Said:
    text = Phrase(
        "event.withdrawn",
        {"who": _who(t, p["player_id"]), "policy": param(p.get("policy", "forfeit"))},
    )
    if p.get("reason"):
        text = _then(text, "event.reason", reason=p["reason"])
    if p.get("dropped"):
        text = _then(text, "event.dropped", ids=", ".join(p["dropped"]))
    return text


def _seeded(t: Tournament, p: Payload) -> Said:
    order = [str(x) for x in p.get("order", [])]
    shown = ", ".join(order[:12]) + (f", ... ({len(order)} players)" if len(order) > 12 else "")
    return Phrase("event.seeded", {"method": param(p.get("method", "?")), "order": shown})


def _round_started(t: Tournament, p: Payload) -> Said:
    count = p.get("match_count", len(p.get("matches", [])))
    matches = _counted(count, "event.one_match", "event.matches")
    stage = read_back(p["stage"], STAGE_TEMPLATES) if p.get("stage") else Phrase("event.draw")
    text: Param = Phrase(
        "event.round_drawn", {"round": param(p["round"]), "stage": stage, "matches": matches}
    )
    if p.get("byes"):
        text = _then(text, "event.byes", names=", ".join(str(_who(t, b)) for b in p["byes"]))
    if p.get("override"):
        text = _then(text, "event.manual")
    if p.get("warnings"):
        warnings = _counted(len(p["warnings"]), "event.one_warning", "event.warnings")
        text = _then(text, "event.with", more=warnings)
    return _then(text, "event.seed", seed=p.get("seed"))


def _tables(t: Tournament, p: Payload) -> Said:
    count = len(p.get("matches", []))
    return Phrase("event.tables", {"round": param(p["round"]), "count": count})


def _cancelled(t: Tournament, p: Payload) -> Said:
    said = {"round": param(p["round"]), "why": param(p.get("why", ""))}
    if p.get("by"):
        return Phrase("event.cancelled_by", {**said, "by": param(p["by"])})
    return Phrase("event.cancelled", said)


def _match(p: Payload) -> str:
    return f"match {p.get('match_id', '?')}"


def _match_id(p: Payload) -> Param:
    return param(p.get("match_id", "?"))


def _first_dealer(t: Tournament, p: Payload) -> Said:
    return Phrase("event.deals_first", {"match_id": _match_id(p), "who": _who(t, p["player_id"])})


def _hand(t: Tournament, p: Payload) -> Said:
    points = _counted(int(p.get("game_points") or 0), "event.one_game_point", "event.game_points")
    text = Phrase(
        "event.hand_won",
        {"match_id": _match_id(p), "who": _who(t, p.get("winner")), "points": points},
    )
    if p.get("dealer") is not None:
        text = _then(text, "event.dealt_by", who=_who(t, p["dealer"]))
    if p.get("reason"):
        # how the hand ended (claim, last_trick ...) as words a page translates
        text = _then(text, "event.with", more=str(p["reason"]).replace("_", " "))
    if p.get("closed"):
        text = _then(text, "event.talon_closed")
    if p.get("card_points"):
        a, b = p["card_points"]
        text = _then(text, "event.card_points", a=a, b=b)
    return _then(text, "event.result", result_id=p.get("result_id"))


def _result(p: Payload) -> dict[str, Param]:
    return {"match_id": _match_id(p), "result_id": param(p.get("result_id"))}


def _tally(t: Tournament, p: Payload) -> Said:
    return Phrase("event.tally", {**_result(p), "tally": tally_text(p["tally"])})


def _live_started(t: Tournament, p: Payload) -> Said:
    return Phrase(
        "event.live_dealt", {"match_id": _match_id(p), "stream": param(p.get("hand_stream"))}
    )


def _live_abandoned(t: Tournament, p: Payload) -> Said:
    return Phrase(
        "event.live_abandoned",
        {
            "match_id": _match_id(p),
            "stream": param(p.get("hand_stream")),
            "by": param(p.get("by")),
            "why": param(p.get("reason", "")),
        },
    )


def _forfeit(t: Tournament, p: Payload) -> Said:
    why = str(p.get("reason") or "").replace("_", "-")
    if p.get("winner") is None:
        return Phrase("event.both_absent", {**_result(p), "why": why})
    return Phrase("event.forfeit", {**_result(p), "why": why, "who": _who(t, p["winner"])})


def _corrected(t: Tournament, p: Payload) -> Said:
    code = "event.voided" if p.get("replacement") is None else "event.corrected"
    by = {"by": param(p.get("by")), "reason": param(p.get("reason", ""))}
    return Phrase(code, {**_result(p), **by})


def _struck(t: Tournament, p: Payload) -> Said:
    by = {"by": param(p.get("by")), "reason": param(p.get("reason", ""))}
    return Phrase("event.struck", {**_result(p), "hand": param(p.get("hand") or 1), **by})


def _player(code: str) -> Callable[[Tournament, Payload], Said]:
    return lambda t, p: Phrase(code, {"who": _who(t, p["player_id"])})


def _signed(t: Tournament, p: Payload) -> Said:
    return Phrase("event.signed", {"match_id": _match_id(p), "who": _who(t, p["player_id"])})


def _life(t: Tournament, p: Payload) -> Said:
    return Phrase(
        "event.life", {"who": _who(t, p["player_id"]), "round": param(p.get("before_round"))}
    )


def _online_started(t: Tournament, p: Payload) -> Said:
    seconds = p.get("move_seconds")
    clock = (
        Phrase("event.online_no_clock")
        if seconds is None
        else Phrase("event.online_clock", {"seconds": param(seconds)})
    )
    return Phrase("event.online_started", {"match_id": _match_id(p), "clock": clock})


def _online(code: str, *fields: str) -> Callable[[Tournament, Payload], Said]:
    """An online table's event in words: its match and the payload's ``fields``
    (``why`` is the payload's ``reason``)."""

    def said(t: Tournament, p: Payload) -> Said:
        values = {f: param(p.get("reason" if f == "why" else f, "")) for f in fields}
        match = t.matches.get(str(p.get("match_id")))
        if "who" in fields and match is not None and p.get("seat") in (0, 1):
            values["who"] = _who(t, match.players[p["seat"]])
        return Phrase(code, {"match_id": _match_id(p), **values})

    return said


#: Per event type, its payload in words.
WORDS: dict[str, Callable[[Tournament, Payload], Said]] = {
    ev.TOURNAMENT_CREATED: _created,
    ev.PLAYER_REGISTERED: _registered,
    ev.PLAYER_CHECKED_IN: _player("event.checked_in"),
    ev.PLAYER_CHECKED_OUT: _player("event.checked_out"),
    ev.PLAYER_EDITED: _edited,
    ev.PLAYER_WITHDRAWN: _withdrawn,
    ev.PLAYERS_SEEDED: _seeded,
    ev.LIFE_BOUGHT: _life,
    ev.ROUND_STARTED: _round_started,
    ev.ROUND_TABLES: _tables,
    ev.ROUND_CANCELLED: _cancelled,
    ev.FIRST_DEALER_SET: _first_dealer,
    ev.HAND_RECORDED: _hand,
    ev.TALLY_RECORDED: _tally,
    ev.LIVE_HAND_STARTED: _live_started,
    ev.LIVE_HAND_RECORDED: _hand,
    ev.LIVE_HAND_ABANDONED: _live_abandoned,
    ev.LIVE_HAND_CLOSED: _online("event.live_closed"),
    ev.ONLINE_STARTED: _online_started,
    ev.ONLINE_STOPPED: _online("event.online_stopped", "by", "why"),
    ev.ONLINE_CLOCK_RESTARTED: _online("event.online_clock_restarted", "by"),
    ev.ONLINE_SEAT_TAKEN: _online("event.seat_taken", "who"),
    ev.ONLINE_SEAT_RELEASED: _online("event.seat_released", "who", "by"),
    ev.MATCH_FORFEITED: _forfeit,
    ev.RESULT_CORRECTED: _corrected,
    ev.HAND_STRUCK: _struck,
    ev.SHEET_SIGNED: _signed,
    ev.FLAG_CLEARED: lambda t, p: Phrase("event.flag_cleared", {"match_id": _match_id(p)}),
    **REPORT_WORDS,
}
