"""The fold's handlers: how each event type changes a
:class:`~tournament.domain.model.state.Tournament`.

One function per event type, ``(tournament, payload) -> None``, changing the state in place
through the tournament's own bookkeeping (``_account`` for a match's contribution to the
standings, ``_replayed`` after a correction). :data:`HANDLERS` maps the types to them;
:data:`TOUCHING` names the types whose handlers report whose standings line they change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tournament.domain.model import events as ev
from tournament.domain.model import reportbook
from tournament.domain.model.matchstate import Entry, MatchState, Summary
from tournament.domain.model.parts import OnlineTable, Player, Round, SeatFlag, Stats
from tournament.domain.model.settings import Settings
from tournament.domain.model.text import printable
from tournament.domain.words.messages import english

if TYPE_CHECKING:
    from tournament.domain.model.state import Tournament


def _created(t: Tournament, p: Mapping[str, Any]) -> None:
    t.id = p["tournament_id"]
    settings = Settings.from_payload(p["settings"])
    t.settings = dataclasses.replace(
        settings, name=printable(settings.name), venue=printable(settings.venue)
    )


def _registered(t: Tournament, p: Mapping[str, Any]) -> None:
    pid = p["player_id"]
    # Printable forms: a name stored before names were checked (plain_text) may hold a
    # terminal escape; the event keeps it as typed, every printout shows it escaped.
    t.players[pid] = Player(
        pid,
        printable(p["name"]),
        printable(p.get("club", "")),
        printable(p.get("category", "")),
        p.get("rating"),
        late=p.get("late", False),
    )
    t.stats[pid] = Stats()
    t.player_matches[pid] = []
    t.records[pid] = {}
    if p.get("late"):
        player = t.players[pid]
        player.missed_score = p.get("missed_rounds_score", "zero")
        t.missed_rounds(player, t.current_round)


def _checked_in(t: Tournament, p: Mapping[str, Any]) -> None:
    t.players[p["player_id"]].checked_in = True


def _checked_out(t: Tournament, p: Mapping[str, Any]) -> None:
    t.players[p["player_id"]].checked_in = False


def _edited(t: Tournament, p: Mapping[str, Any]) -> None:
    """A player's details corrected; the matches name the player by the new name."""
    pid = p["player_id"]
    player = t.players[pid]
    for key, value in p["changes"].items():
        setattr(player, key, printable(value) if isinstance(value, str) else value)
    for mid in t.player_matches.get(pid, []):
        match = t.matches[mid]
        labels = list(match.labels)
        labels[match.seat_of(pid)] = t.label(pid)
        match.labels = (labels[0], labels[1])


def _seeded(t: Tournament, p: Mapping[str, Any]) -> None:
    t.seeding = p.get("method")
    for player in t.players.values():
        player.seed = None
    for rank, pid in enumerate(p["order"], 1):
        t.players[pid].seed = rank


def _withdrawn(t: Tournament, p: Mapping[str, Any]) -> None:
    t.players[p["player_id"]].withdrawn = t.current_round
    t.players[p["player_id"]].withdrawal = p.get("policy", "")
    for mid in p.get("dropped", ()):
        match = t.matches[mid]
        old = match.summary
        match.dropped = True
        match.summary = Summary(dropped=True)
        t._account(match, old)
        t._track(match)


def _life_bought(t: Tournament, p: Mapping[str, Any]) -> None:
    t.players[p["player_id"]].lives_bought += 1
    t.buy_backs.append((p["player_id"], p["before_round"]))


def _round_started(t: Tournament, p: Mapping[str, Any]) -> None:
    settings = t.settings
    assert settings is not None
    number = p["round"]
    for pid in p.get("byes", ()):
        stats = t.stats[pid]
        stats.byes += 1
        stats.bummerl_won += settings.bye_score[0]
        stats.bummerl_lost += settings.bye_score[1]
    t.rounds.append(
        Round(
            number,
            [],
            list(p.get("byes", ())),
            p.get("seed", 0),
            p.get("stage", ""),
            list(p.get("warnings", ())),
            p.get("override", False),
            _info(p.get("info", {})),
            list(p.get("idle", ())),
        )
    )
    _add_matches(t, number, p["matches"])


def _round_cancelled(t: Tournament, p: Mapping[str, Any]) -> None:
    """The latest round as if it had never been drawn: its matches, byes and any walkovers
    of its draw are gone (the events stay in the log; ``--as-of`` still shows them)."""
    settings = t.settings
    assert settings is not None
    number = p["round"]
    r = t.rounds.pop()
    assert r.number == number, (r.number, number)
    for pid in r.byes:
        stats = t.stats[pid]
        stats.byes -= 1
        stats.bummerl_won -= settings.bye_score[0]
        stats.bummerl_lost -= settings.bye_score[1]
    for mid in r.matches:
        match = t.matches[mid]
        old = match.summary
        match.summary = Summary()
        t._account(match, old)
        del t.matches[mid]
        for pid in match.players:
            t.player_matches[pid].remove(mid)
        for entry in match.entries:
            t.result_match.pop(entry.result_id, None)
    t.unsettled.pop(number, None)
    for player in t.players.values():
        if player.withdrawn is not None and player.withdrawn >= number:
            player.withdrawn = number - 1
        if player.late and player.missed >= number:  # entered after this draw: one less
            t.missed_rounds(player, player.missed - (number - 1), -1)
        if number == 1:  # nobody registered so far came after round 1 was drawn
            player.late = False
    t.cancellations.append(dict(p))


def _info(info: Mapping[str, Any]) -> dict[str, Any]:
    """A round's format info; the bracket layout's rows are copied, as the round's
    further parts add to them (the event's payload is never changed)."""
    out = dict(info)
    if "bracket" in out:
        out["bracket"] = {**out["bracket"], "matches": list(out["bracket"]["matches"])}
    return out


def _tables_listed(t: Tournament, p: Mapping[str, Any]) -> None:
    _add_matches(t, p["round"], p["matches"])
    if p.get("bracket"):  # further rows of the bracket layout the round drew
        t.rounds[p["round"] - 1].info["bracket"]["matches"].extend(p["bracket"])


def _add_matches(t: Tournament, number: int, rows: Iterable[Sequence[Any]]) -> None:
    """Matches of round ``number`` from their rows (events.MatchRow)."""
    settings = t.settings
    assert settings is not None
    ids = t.rounds[number - 1].matches
    for match_id, table, a, b, fd, *bracket in rows:
        # ``true``: the match id is the bracket slot; a slot id: a redraw (``R4-1b``).
        slot = bracket[0] if bracket and isinstance(bracket[0], str) else match_id
        match = MatchState(
            match_id,
            number,
            table,
            (a, b),
            None if fd is None else (0 if fd == a else 1),
            settings.best_of,
            settings.schneiderbummerl,
            {"id": slot} if bracket else None,
            (t.label(a), t.label(b)),
        )
        t.matches[match_id] = match
        t.player_matches[a].append(match_id)
        t.player_matches[b].append(match_id)
        ids.append(match_id)
        t._track(match)


def _first_dealer(t: Tournament, p: Mapping[str, Any]) -> None:
    match = t.matches[p["match_id"]]
    match.first_dealer = match.seat_of(p["player_id"])
    t._replayed(match, english("flag.first_dealer_set", {}))


def _result(kind: str) -> Callable[[Tournament, Mapping[str, Any]], None]:
    def handler(t: Tournament, p: Mapping[str, Any]) -> None:
        match = t.matches[p["match_id"]]
        rid = p["result_id"]
        stream = p.get("hand_stream") if kind == "live" else None
        if stream is not None and stream in t.live_results:
            # A claim after the last trick (R12a, R16) replaces the hand's provisional result.
            _, entry = t.entry(t.live_results[stream])
            entry.payload = dict(p)
            t._replayed(match, english("flag.late_claim", {"stream": stream}))
            return
        t.result_match[rid] = match.match_id
        if stream is not None:
            t.live_results[stream] = rid
        if match.signed_by:  # (no message built for the many unsigned sheets)
            match.void_signatures_after(f"result {rid} entered")
        old = match.summary
        match.add(Entry(rid, kind, dict(p)))
        t._account(match, old)
        t._track(match)
        if match.round < len(t.rounds) or match.match_id in t.reopened:
            # Entered after a later round was drawn (a match open again after a
            # correction): the later draws rest on the old result, as after a correction.
            params = {"match_id": match.match_id, "round": match.round, "result_id": rid}
            flag = english("flag.entered", params)
            if p.get("sheet"):  # a further Bummerl of a whole sheet's correction: its flag
                why = _why("corrected", p["sheet"])
                flag = english("flag.changed", {**params, "why": why})
            t._changed(match, old, flag)

    return handler


def _corrected(t: Tournament, p: Mapping[str, Any]) -> None:
    match, entry = t.entry(p["result_id"])
    replacement = p.get("replacement")
    entry.payload = None if replacement is None else dict(replacement)
    t.corrections.append(dict(p))
    t._replayed(match, _why("corrected", p))


def _struck(t: Tournament, p: Mapping[str, Any]) -> None:
    match, entry = t.entry(p["result_id"])
    entry.struck = entry.struck | {p.get("hand") or 1}
    t.corrections.append(dict(p))
    t._replayed(match, _why("struck", p))


def _why(what: str, p: Mapping[str, Any]) -> str:
    """Why a match was replayed (a later match's flag says it): who corrected or struck,
    and their reason when they gave one."""
    by = p.get("by") or "organiser"
    reason = p.get("reason") or ""
    if reason:
        return english(f"flag.{what}_because", {"by": by, "reason": reason})
    return english(f"flag.{what}", {"by": by})


def _signed(t: Tournament, p: Mapping[str, Any]) -> None:
    match = t.matches[p["match_id"]]
    if match.decided:
        match.signed_by.add(p["player_id"])
    else:  # stored before signing needed a decided match: it covers no finished sheet
        match.void_signatures.append((p["player_id"], "signed before the match was decided"))


def _flag_cleared(t: Tournament, p: Mapping[str, Any]) -> None:
    t.matches[p["match_id"]].flags.clear()


def _live_started(t: Tournament, p: Mapping[str, Any]) -> None:
    t.live_hands[p["hand_stream"]] = p["match_id"]
    table = t.online.get(p["match_id"])
    if table is not None and not table.stopped:
        table.hands.append(p["hand_stream"])


def _online_started(t: Tournament, p: Mapping[str, Any]) -> None:
    old = t.online.get(p["match_id"])
    table = OnlineTable(p["match_id"], p.get("move_seconds"))
    if old is not None:  # online again after a stop: the earlier hands stay listed
        table.hands, table.closed, table.clock_from = old.hands, old.closed, old.clock_from
        table.devices, table.joined_at = old.devices, old.joined_at  # the seats stay held
    t.online[p["match_id"]] = table


def _online_stopped(t: Tournament, p: Mapping[str, Any]) -> None:
    t.online[p["match_id"]].stopped = True


def _live_closed(t: Tournament, p: Mapping[str, Any]) -> None:
    t.online[p["match_id"]].closed.add(p["hand_stream"])


def _clock_restarted(t: Tournament, p: Mapping[str, Any]) -> None:
    t.online[p["match_id"]].clock_from[p["hand_stream"]] = p["at"]


def _seat_taken(t: Tournament, p: Mapping[str, Any]) -> None:
    table = t.online[p["match_id"]]
    seat = int(p["seat"])
    table.devices[seat] = p["device"]
    if table.joined_at is None and len(table.devices) == 2:
        table.joined_at = p.get("at")
    table.origins.pop(seat, None)  # older events carry no origin: nothing to compare
    if p.get("origin"):
        table.origins[seat] = dict(p["origin"])
    table.released_in_hand.pop(seat, None)
    for flag in p.get("flags") or ():
        table.flags.append(SeatFlag(seat, flag, p.get("released_by")))


def _seat_released(t: Tournament, p: Mapping[str, Any]) -> None:
    table = t.online[p["match_id"]]
    seat = int(p["seat"])
    table.devices.pop(seat, None)
    table.origins.pop(seat, None)
    if p.get("in_hand"):  # released while a hand was in play: its next taker is flagged
        table.released_in_hand[seat] = str(p.get("by") or "")


def _live_abandoned(t: Tournament, p: Mapping[str, Any]) -> None:
    t.live_abandoned.add(p["hand_stream"])


#: Events whose handlers say whose standings line they change (through
#: ``Tournament._account``, for every match whose contribution changes). After any other
#: event -- a registration, check-in, seeding, withdrawal, a round drawn or cancelled,
#: and whatever is added later -- the next standings rank everybody afresh: rare events,
#: and a new one cannot leave the kept ranking behind by being forgotten here.
TOUCHING = frozenset(
    {
        ev.HAND_RECORDED,
        ev.TALLY_RECORDED,
        ev.LIVE_HAND_RECORDED,
        ev.MATCH_FORFEITED,
        ev.RESULT_CORRECTED,
        ev.HAND_STRUCK,
        ev.FIRST_DEALER_SET,
        ev.ROUND_TABLES,
        ev.SHEET_SIGNED,
        ev.FLAG_CLEARED,
        ev.LIVE_HAND_STARTED,
        ev.LIVE_HAND_ABANDONED,
        # Online tables change no standings line (their hands' results do).
        ev.LIVE_HAND_CLOSED,
        ev.ONLINE_STARTED,
        ev.ONLINE_STOPPED,
        ev.ONLINE_CLOCK_RESTARTED,
        ev.ONLINE_SEAT_TAKEN,
        ev.ONLINE_SEAT_RELEASED,
        # Reports change no standings line (a confirmed report records its own result).
        ev.REPORT_SUBMITTED,
        ev.REPORT_CONFIRMED,
        ev.RESULT_DISPUTED,
        ev.REPORTS_SETTLED,
        ev.CODES_REVOKED,
    }
)

HANDLERS: dict[str, Callable[[Tournament, Mapping[str, Any]], None]] = {
    ev.TOURNAMENT_CREATED: _created,
    ev.PLAYER_REGISTERED: _registered,
    ev.PLAYER_CHECKED_IN: _checked_in,
    ev.PLAYER_CHECKED_OUT: _checked_out,
    ev.PLAYER_EDITED: _edited,
    ev.PLAYERS_SEEDED: _seeded,
    ev.PLAYER_WITHDRAWN: _withdrawn,
    ev.LIFE_BOUGHT: _life_bought,
    ev.ROUND_STARTED: _round_started,
    ev.ROUND_TABLES: _tables_listed,
    ev.ROUND_CANCELLED: _round_cancelled,
    ev.FIRST_DEALER_SET: _first_dealer,
    ev.HAND_RECORDED: _result("hand"),
    ev.TALLY_RECORDED: _result("tally"),
    ev.LIVE_HAND_RECORDED: _result("live"),
    ev.MATCH_FORFEITED: _result("forfeit"),
    ev.RESULT_CORRECTED: _corrected,
    ev.HAND_STRUCK: _struck,
    ev.SHEET_SIGNED: _signed,
    ev.FLAG_CLEARED: _flag_cleared,
    ev.LIVE_HAND_STARTED: _live_started,
    ev.LIVE_HAND_ABANDONED: _live_abandoned,
    ev.LIVE_HAND_CLOSED: _live_closed,
    ev.ONLINE_STARTED: _online_started,
    ev.ONLINE_STOPPED: _online_stopped,
    ev.ONLINE_CLOCK_RESTARTED: _clock_restarted,
    ev.ONLINE_SEAT_TAKEN: _seat_taken,
    ev.ONLINE_SEAT_RELEASED: _seat_released,
    ev.REPORT_SUBMITTED: reportbook.on_submitted,
    ev.REPORT_CONFIRMED: reportbook.on_confirmed,
    ev.RESULT_DISPUTED: reportbook.on_disputed,
    ev.REPORTS_SETTLED: reportbook.on_settled,
    ev.CODES_REVOKED: reportbook.on_revoked,
}
