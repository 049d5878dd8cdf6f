"""The events of a tournament in words: what each one did, players by name, as
``tournament log`` prints them and the API's event history (``GET .../events``) says them.

Names are today's (a player corrected later is named as now); ``tournament log --json``
prints the stored payloads as they are.

    >>> from tournament.domain.state import fold
    >>> from tournament.domain.testing import registered
    >>> events = registered(players=2)
    >>> in_words(fold(events), events[1].type, events[1].payload)
    'Player 1 (1), rating 1999'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tournament.domain import events as ev
from tournament.domain.reportwords import REPORT_WORDS
from tournament.domain.state import Tournament
from tournament.domain.tally import tally_text
from tournament.domain.text import counted

Payload = Mapping[str, Any]


def in_words(t: Tournament, type_: str, p: Payload) -> str:
    """One event's payload as a sentence; an unknown type as its plain JSON."""
    describe = WORDS.get(type_)
    if describe is None:
        import json

        return json.dumps(dict(p), ensure_ascii=False)
    return describe(t, p)


def _who(t: Tournament, pid: Any) -> str:
    return "nobody" if pid is None else t.label(int(pid))


def _created(t: Tournament, p: Payload) -> str:
    s = p.get("settings", {})
    date = f" ({s['date']})" if s.get("date") else ""
    return (
        f"{s.get('name', '?')!r}{date}: {str(s.get('format', '?')).replace('_', ' ')}, "
        f"best of {s.get('best_of', '?')}"
    )


def _registered(t: Tournament, p: Payload) -> str:
    details = [
        f"club {p['club']}" if p.get("club") else "",
        f"category {p['category']}" if p.get("category") else "",
        f"rating {p['rating']}" if p.get("rating") is not None else "",
    ]
    text = f"{p['name']} ({p['player_id']})" + "".join(f", {d}" for d in details if d)
    if p.get("late"):
        missed = p.get("missed_rounds")
        score = "0" if p.get("missed_rounds_score") != "bye" else "a bye" + (
            "" if missed == 1 else " each"
        )  # fmt: skip
        each = "scores" if missed == 1 else "score"
        text += " - late entry" + (
            f", {counted(missed, 'missed round')} {each} {score}" if missed is not None else ""
        )
    return text


def _edited(t: Tournament, p: Payload) -> str:
    previous = p.get("previous", {})
    changes = ", ".join(
        f"{k} {previous.get(k)!r} -> {v!r}" for k, v in p.get("changes", {}).items()
    )
    return f"{_who(t, p['player_id'])}: {changes}"


def _withdrawn(t: Tournament, p: Payload) -> str:
    text = f"{_who(t, p['player_id'])}, open matches: {p.get('policy', 'forfeit')}"
    if p.get("reason"):
        text += f"; {p['reason']}"
    if p.get("dropped"):
        text += f"; dropped: {', '.join(p['dropped'])}"
    return text


def _seeded(t: Tournament, p: Payload) -> str:
    order = [str(x) for x in p.get("order", [])]
    shown = ", ".join(order[:12]) + (f", ... ({len(order)} players)" if len(order) > 12 else "")
    return f"by {p.get('method', '?')}: {shown}"


def _round_started(t: Tournament, p: Payload) -> str:
    count = p.get("match_count", len(p.get("matches", [])))
    matches = counted(count, "match", "matches")
    text = f"round {p['round']} drawn ({p.get('stage') or 'draw'}): {matches}"
    if p.get("byes"):
        text += f", bye: {', '.join(_who(t, b) for b in p['byes'])}"
    if p.get("override"):
        text += ", MANUAL PAIRING"
    if p.get("warnings"):
        text += f", {counted(len(p['warnings']), 'warning')}"
    return text + f"; seed {p.get('seed')}"


def _tables(t: Tournament, p: Payload) -> str:
    return f"round {p['round']}: {len(p.get('matches', []))} more tables of the draw"


def _cancelled(t: Tournament, p: Payload) -> str:
    by = f" by {p['by']}" if p.get("by") else ""
    return f"round {p['round']} cancelled{by}: {p.get('why', '')}"


def _match(p: Payload) -> str:
    return f"match {p.get('match_id', '?')}"


def _first_dealer(t: Tournament, p: Payload) -> str:
    return f"{_match(p)}: {_who(t, p['player_id'])} deals first"


def _hand(t: Tournament, p: Payload) -> str:
    extra = [
        f"dealt by {_who(t, p['dealer'])}" if p.get("dealer") is not None else "",
        str(p["reason"]) if p.get("reason") else "",
        "talon closed" if p.get("closed") else "",
        "card points {}:{}".format(*p["card_points"]) if p.get("card_points") else "",
    ]
    return (
        f"{_match(p)}: hand won by {_who(t, p.get('winner'))}, "
        f"{counted(int(p.get('game_points') or 0), 'game point')}"
        + "".join(f", {x}" for x in extra if x)
        + f" (result {p.get('result_id')})"
    )


def _tally(t: Tournament, p: Payload) -> str:
    return f"{_match(p)}: Bummerl tally {tally_text(p['tally'])} (result {p.get('result_id')})"


def _live_started(t: Tournament, p: Payload) -> str:
    return f"{_match(p)}: live hand {p.get('hand_stream')} dealt"


def _live_abandoned(t: Tournament, p: Payload) -> str:
    why = p.get("reason", "")
    return f"{_match(p)}: live hand {p.get('hand_stream')} abandoned by {p.get('by')}: {why}"


def _forfeit(t: Tournament, p: Payload) -> str:
    why = str(p.get("reason") or "").replace("_", "-")
    if p.get("winner") is None:
        return f"{_match(p)}: both absent ({why}) (result {p.get('result_id')})"
    return (
        f"{_match(p)}: {_who(t, p['winner'])} wins by forfeit ({why}) (result {p.get('result_id')})"
    )


def _corrected(t: Tournament, p: Payload) -> str:
    what = "voided" if p.get("replacement") is None else "corrected"
    return (
        f"{_match(p)}: result {p.get('result_id')} {what} by {p.get('by')}: {p.get('reason', '')}"
    )


def _struck(t: Tournament, p: Payload) -> str:
    return (
        f"{_match(p)}: hand {p.get('hand') or 1} of result {p.get('result_id')} struck by "
        f"{p.get('by')}: {p.get('reason', '')}"
    )


def _player(verb: str) -> Callable[[Tournament, Payload], str]:
    return lambda t, p: f"{_who(t, p['player_id'])} {verb}"


def _signed(t: Tournament, p: Payload) -> str:
    return f"{_match(p)}: sheet signed by {_who(t, p['player_id'])}"


def _life(t: Tournament, p: Payload) -> str:
    return f"{_who(t, p['player_id'])} bought back a life before round {p.get('before_round')}"


#: Per event type, its payload in words.
WORDS: dict[str, Callable[[Tournament, Payload], str]] = {
    ev.TOURNAMENT_CREATED: _created,
    ev.PLAYER_REGISTERED: _registered,
    ev.PLAYER_CHECKED_IN: _player("checked in"),
    ev.PLAYER_CHECKED_OUT: _player("check-in undone: not drawn"),
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
    ev.MATCH_FORFEITED: _forfeit,
    ev.RESULT_CORRECTED: _corrected,
    ev.HAND_STRUCK: _struck,
    ev.SHEET_SIGNED: _signed,
    ev.FLAG_CLEARED: lambda t, p: f"{_match(p)}: flag cleared",
    **REPORT_WORDS,
}
