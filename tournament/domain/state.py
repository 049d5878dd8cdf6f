"""The tournament aggregate: a pure fold over the tournament's events.

``fold(events)`` rebuilds everything from scratch; ``Tournament.apply(event)`` advances an
existing state by one event, touching only the match the event names and the two players
in it (the incremental path the standings rely on). Time travel is a fold of a prefix:

    >>> from tournament.domain import commands as c
    >>> events = c.create_tournament("t1", {"name": "Cup", "format": "swiss", "best_of": 1})
    >>> t = fold(events)
    >>> events += c.register_player(t, "Anna")
    >>> events += c.register_player(fold(events), "Berti")
    >>> t = fold(events)
    >>> sorted(p.name for p in t.players.values()), t.version
    (['Anna', 'Berti'], 3)
    >>> fold(events, upto=2).version
    2
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import itertools
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tournament.domain import events as ev
from tournament.domain.matchstate import Entry, MatchState, Summary
from tournament.domain.settings import Settings
from tournament.domain.text import printable

if TYPE_CHECKING:
    from tournament.domain.ranking import Ranking

ENTRY_KINDS = {
    ev.HAND_RECORDED: "hand",
    ev.TALLY_RECORDED: "tally",
    ev.LIVE_HAND_RECORDED: "live",
    ev.MATCH_FORFEITED: "forfeit",
}


@dataclasses.dataclass(slots=True)
class Player:
    id: int
    name: str
    club: str = ""
    category: str = ""
    rating: int | None = None
    seed: int | None = None  # 1 is the top seed
    checked_in: bool = False
    late: bool = False
    withdrawn: int | None = None  # the last round the player was in, once withdrawn
    withdrawal: str = ""  # the withdrawal's policy: "forfeit" or "drop" (remaining games)
    lives_bought: int = 0
    missed: int = 0  # a late entry: rounds drawn before it entered (T-late-entry)
    missed_score: str = "zero"  # what each missed round scores: "zero" or "bye"

    @property
    def active(self) -> bool:
        return self.withdrawn is None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(slots=True)
class Stats:
    """A player's running totals, kept up to date match by match (decided matches only)."""

    played: int = 0  # decided matches, forfeits included
    wins: int = 0  # matches won at the table
    forfeit_wins: int = 0
    losses: int = 0
    byes: int = 0
    bummerl_won: int = 0
    bummerl_lost: int = 0
    gp_won: int = 0
    gp_lost: int = 0
    schneider: int = 0

    @property
    def points(self) -> int:
        """Match points: a win, a forfeit win and a bye count 1 each."""
        return self.wins + self.forfeit_wins + self.byes


@dataclasses.dataclass(slots=True)
class Round:
    number: int
    matches: list[str]
    byes: list[int]
    seed: int
    stage: str = ""
    warnings: list[str] = dataclasses.field(default_factory=list)
    override: bool = False
    info: dict[str, Any] = dataclasses.field(default_factory=dict)


class Tournament:
    """Everything known about one tournament after the events folded so far."""

    def __init__(self) -> None:
        self.id = ""
        self.settings: Settings | None = None
        self.players: dict[int, Player] = {}
        self.stats: dict[int, Stats] = {}
        self.rounds: list[Round] = []
        self.matches: dict[str, MatchState] = {}
        self.player_matches: dict[int, list[str]] = {}
        #: Per player, per decided match that counts: (opponent, won) -- kept by _account so
        #: the tie-breaks need not walk every match on each standings request.
        self.records: dict[int, dict[str, tuple[int, bool]]] = {}
        self.result_match: dict[str, str] = {}  # result id -> match id
        self.live_hands: dict[str, str] = {}  # hand stream -> match id
        self.live_results: dict[str, str] = {}  # hand stream -> result id
        self.live_abandoned: set[str] = set()  # hand streams the organiser abandoned
        self.corrections: list[dict[str, Any]] = []
        #: ``round.cancelled`` payloads: rounds drawn, cancelled and (maybe) drawn again.
        self.cancellations: list[dict[str, Any]] = []
        self.buy_backs: list[tuple[int, int]] = []  # (player, before round)
        self.seeding: str | None = None  # method of the latest seeding (rating, manual)
        #: Matches a correction made undecided again: match id -> the correction, in words.
        #: Only what is still unsettled matters (round start names those, T-round).
        self.reopened: dict[str, str] = {}
        self.version = 0  # events folded (the stream version)
        #: Called with a match id whenever a match's contribution to the standings changes.
        self.on_change: Callable[[str], None] | None = None
        #: Players whose line in the standings may have changed since the last ranking
        #: (a match's result changed); None: rank everybody afresh (after any event but a
        #: result, see ``_TOUCHING``). See :mod:`tournament.domain.ranking`.
        self.touched: set[int] | None = None
        #: The last ranking, which the next standings update from ``touched``.
        self.ranking: Ranking | None = None

    # --- reading ------------------------------------------------------------------------
    @property
    def created(self) -> bool:
        return self.settings is not None

    @property
    def current_round(self) -> int:
        return len(self.rounds)

    def round_complete(self, number: int | None = None) -> bool:
        number = number or self.current_round
        if number == 0:
            return True
        return all(self.settled(self.matches[m]) for m in self.rounds[number - 1].matches)

    @staticmethod
    def settled(match: MatchState) -> bool:
        """Whether a match keeps its round from being complete no longer: decided, dropped,
        or a bracket match voided after a correction upstream (its slot is drawn again)."""
        return match.decided or match.dropped or (bool(match.bracket) and match.void)

    def open_matches(self, player_id: int) -> list[MatchState]:
        return [
            m
            for mid in self.player_matches.get(player_id, [])
            if not self.settled(m := self.matches[mid])
        ]

    def label(self, player_id: int) -> str:
        """A player as messages and printouts name it: ``Anna Huber (12)``."""
        player = self.players.get(player_id)
        return f"player {player_id}" if player is None else f"{player.name} ({player_id})"

    def live_in_progress(self, match_id: str) -> str | None:
        """The hand stream of the match's live hand that is dealt and not over, if any."""
        for stream, mid in self.live_hands.items():
            over = stream in self.live_results or stream in self.live_abandoned
            if mid == match_id and not over:
                return stream
        return None

    def entry(self, result_id: str) -> tuple[MatchState, Entry]:
        match = self.matches[self.result_match[result_id]]
        return match, next(e for e in match.entries if e.result_id == result_id)

    # --- folding ------------------------------------------------------------------------
    def apply(self, event: ev.EventLike) -> None:
        """Advance by one event (in place)."""
        handler = _HANDLERS.get(event.type)
        if handler is not None:
            handler(self, event.payload)
            if event.type not in _TOUCHING:
                self.touched = None  # whose line changed is not known: rank afresh
        self.version += 1

    def apply_all(self, events: Iterable[ev.EventLike]) -> None:
        """Advance by every event of ``events`` (in place), the cyclic collector paused."""
        apply = self.apply
        with collector_paused():
            for event in events:
                apply(event)

    def _touch(self, *players: int) -> None:
        if self.touched is not None:
            self.touched.update(players)

    def _account(self, match: MatchState, old: Summary) -> None:
        """Move a match's contribution to the players' totals from ``old`` to its summary."""
        new = match.summary
        if new == old or not (new.decided or old.decided):
            return  # an open match counts for nothing, before as after
        a, b = match.players
        self._touch(a, b)
        if new.decided and not new.dropped:
            self.records[a][match.match_id] = (b, new.winner == 0)
            self.records[b][match.match_id] = (a, new.winner == 1)
        else:
            self.records[a].pop(match.match_id, None)
            self.records[b].pop(match.match_id, None)
        for sign, s in ((-1, old), (1, new)):
            if not s.decided or s.dropped:
                continue
            for seat in (0, 1):
                st = self.stats[match.players[seat]]
                st.played += sign
                if s.winner == seat:
                    if s.forfeit:
                        st.forfeit_wins += sign
                    else:
                        st.wins += sign
                else:
                    st.losses += sign
                st.bummerl_won += sign * s.bummerl[seat]
                st.bummerl_lost += sign * s.bummerl[1 - seat]
                st.gp_won += sign * s.game_points[seat]
                st.gp_lost += sign * s.game_points[1 - seat]
                st.schneider += sign * s.schneider[seat]
        if self.on_change is not None:
            self.on_change(match.match_id)

    def _replayed(self, match: MatchState, why: str) -> None:
        """Rebuild a match after a correction or strike; flag later matches if it changed."""
        match.void_signatures_after(why)
        old = match.summary
        match.rebuild()
        self._account(match, old)
        if old.decided and not match.summary.decided:
            self.reopened[match.match_id] = why
        flag = f"result of match {match.match_id} (round {match.round}) changed after this "
        self._changed(match, old, flag + f"match was drawn: {why}")

    def _changed(self, match: MatchState, old: Summary, flag: str) -> None:
        """Who won ``match`` changed (or whether it is decided): the players' matches of
        later rounds were drawn on the old result, so they are flagged, not rewritten."""
        new = match.summary
        if old.winner == new.winner and old.decided == new.decided:
            return
        if new.decided:
            self.reopened.pop(match.match_id, None)
        if match.round >= len(self.rounds):
            return
        for p in match.players:
            for mid in self.player_matches.get(p, []):
                other = self.matches[mid]
                if other.round > match.round:
                    other.flags.append(flag)

    def missed_rounds(self, player: Player, rounds: int, sign: int = 1) -> None:
        """A late entry's missed rounds (``rounds`` of them) added (``sign`` 1) or taken
        back (-1, a cancelled round): scored as byes when the player's entry says so."""
        player.missed += sign * rounds
        if player.missed_score != "bye" or not rounds:
            return
        assert self.settings is not None
        won, lost = self.settings.bye_score
        stats = self.stats[player.id]
        stats.byes += sign * rounds
        stats.bummerl_won += sign * rounds * won
        stats.bummerl_lost += sign * rounds * lost


def fold(events: Iterable[ev.EventLike], upto: int | None = None) -> Tournament:
    """The tournament after ``events`` (only the first ``upto`` of them, for time travel)."""
    state = Tournament()
    state.apply_all(events if upto is None else itertools.islice(events, max(upto, 0)))
    return state


_pause_lock = threading.Lock()
_pauses = 0  # folds running with the collector paused, in every thread
_collector_was_on = False


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while folding.

    A fold allocates hundreds of thousands of objects that stay alive (matches, entries,
    engine states) and frees almost none, so every collection walks a heap that only grew
    and finds nothing: a third of a rebuild's time. Reference counting still frees all that
    is dropped; the collector runs again when the last fold in any thread is done, with
    the fold's objects counted as old ones.
    """
    global _pauses, _collector_was_on
    with _pause_lock:
        if _pauses == 0:
            _collector_was_on = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _collector_was_on:
                if gc.get_freeze_count() == 0:  # (unless somebody froze objects on purpose)
                    # What the fold built stays alive: move it to the oldest generation
                    # (a list splice, no walk) instead of having the next collections walk
                    # it as young and again as middle-aged objects (~0.1 s at 1,024
                    # players); a full collection still looks at it some day.
                    gc.freeze()
                    gc.unfreeze()
                gc.enable()


# --- handlers, one per event type -----------------------------------------------------------
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


def _first_dealer(t: Tournament, p: Mapping[str, Any]) -> None:
    match = t.matches[p["match_id"]]
    match.first_dealer = match.seat_of(p["player_id"])
    t._replayed(match, "first dealer set")


def _result(kind: str) -> Callable[[Tournament, Mapping[str, Any]], None]:
    def handler(t: Tournament, p: Mapping[str, Any]) -> None:
        match = t.matches[p["match_id"]]
        rid = p["result_id"]
        stream = p.get("hand_stream") if kind == "live" else None
        if stream is not None and stream in t.live_results:
            # A claim after the last trick (R12a, R16) replaces the hand's provisional result.
            _, entry = t.entry(t.live_results[stream])
            entry.payload = dict(p)
            t._replayed(match, f"live hand {stream} ended by a late claim")
            return
        t.result_match[rid] = match.match_id
        if stream is not None:
            t.live_results[stream] = rid
        if match.signed_by:  # (no message built for the many unsigned sheets)
            match.void_signatures_after(f"result {rid} entered")
        old = match.summary
        match.add(Entry(rid, kind, dict(p)))
        t._account(match, old)
        if match.round < len(t.rounds) or match.match_id in t.reopened:
            # Entered after a later round was drawn (a match open again after a
            # correction): the later draws rest on the old result, as after a correction.
            flag = f"result of match {match.match_id} (round {match.round}) entered after "
            t._changed(match, old, flag + f"this match was drawn: result {rid}")

    return handler


def _corrected(t: Tournament, p: Mapping[str, Any]) -> None:
    match, entry = t.entry(p["result_id"])
    replacement = p.get("replacement")
    entry.payload = None if replacement is None else dict(replacement)
    t.corrections.append(dict(p))
    t._replayed(
        match, f"corrected by {p.get('by') or 'organiser'}: {p.get('reason') or ''}".rstrip(": ")
    )


def _struck(t: Tournament, p: Mapping[str, Any]) -> None:
    match, entry = t.entry(p["result_id"])
    entry.struck = entry.struck | {p.get("hand") or 1}
    t.corrections.append(dict(p))
    t._replayed(
        match, f"hand struck by {p.get('by') or 'organiser'}: {p.get('reason') or ''}".rstrip(": ")
    )


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


def _live_abandoned(t: Tournament, p: Mapping[str, Any]) -> None:
    t.live_abandoned.add(p["hand_stream"])


#: Events whose handlers say whose standings line they change (through
#: ``Tournament._account``, for every match whose contribution changes). After any other
#: event -- a registration, check-in, seeding, withdrawal, a round drawn or cancelled,
#: and whatever is added later -- the next standings rank everybody afresh: rare events,
#: and a new one cannot leave the kept ranking behind by being forgotten here.
_TOUCHING = frozenset(
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
    }
)

_HANDLERS: dict[str, Callable[[Tournament, Mapping[str, Any]], None]] = {
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
}

__all__ = ["Player", "Round", "Stats", "Tournament", "fold"]
