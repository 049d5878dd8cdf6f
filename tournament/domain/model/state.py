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
import gc
import itertools
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

from tournament.domain.model import events as ev
from tournament.domain.model.handlers import HANDLERS, TOUCHING
from tournament.domain.model.matchstate import Entry, MatchState, Summary
from tournament.domain.model.parts import OnlineTable, Player, Round, Stats
from tournament.domain.model.reportbook import ReportBook
from tournament.domain.model.settings import Settings
from tournament.domain.words.messages import Param, english

#: What :meth:`Tournament.derived` keeps.
Derived = TypeVar("Derived")

#: How the bracket matches a correction vacated are worked out (:meth:`Tournament.vacated`):
#: a read of the bracket, which is derived from the model
#: (:func:`tournament.domain.standings.knockout.vacated`). The model does not import it:
#: tournament/domain/__init__.py, which every import of the domain runs first, puts it here.
VACATED: list[Callable[[Tournament], Mapping[str, MatchState]]] = []

ENTRY_KINDS = {
    ev.HAND_RECORDED: "hand",
    ev.TALLY_RECORDED: "tally",
    ev.LIVE_HAND_RECORDED: "live",
    ev.MATCH_FORFEITED: "forfeit",
}


class Tournament:
    """Everything known about one tournament after the events folded so far."""

    def __init__(self) -> None:
        self.id = ""
        self.settings: Settings | None = None
        self.players: dict[int, Player] = {}
        self.stats: dict[int, Stats] = {}
        self.rounds: list[Round] = []
        self.matches: dict[str, MatchState] = {}
        #: Per round number, its matches neither decided nor dropped, kept by the fold
        #: (:meth:`_track`) so that :meth:`round_complete` need not walk the round's
        #: matches on every result; valid for ``self.matches`` only (a trial copy with
        #: other matches walks them, see :meth:`round_complete`).
        self.unsettled: dict[int, set[str]] = {}
        self._unsettled_of = self.matches
        self.player_matches: dict[int, list[str]] = {}
        #: Per player, per decided match that counts: (opponent, won) -- kept by _account so
        #: the tie-breaks need not walk every match on each standings request.
        self.records: dict[int, dict[str, tuple[int, bool]]] = {}
        self.result_match: dict[str, str] = {}  # result id -> match id
        self.live_hands: dict[str, str] = {}  # hand stream -> match id
        self.live_results: dict[str, str] = {}  # hand stream -> result id
        self.live_abandoned: set[str] = set()  # hand streams the organiser abandoned
        self.online: dict[str, OnlineTable] = {}  # match id -> its online table (T-online)
        self.corrections: list[dict[str, Any]] = []
        #: ``round.cancelled`` payloads: rounds drawn, cancelled and (maybe) drawn again.
        self.cancellations: list[dict[str, Any]] = []
        self.buy_backs: list[tuple[int, int]] = []  # (player, before round)
        self.seeding: str | None = None  # method of the latest seeding (rating, manual)
        #: Matches a correction made undecided again: match id -> the correction, in words.
        #: Only what is still unsettled matters (round start names those, T-round).
        self.reopened: dict[str, str] = {}
        #: The players' reports from the table and their codes' generations (T-code).
        self.reports = ReportBook()
        self.version = 0  # events folded (the stream version)
        #: Values worked out from the state (:meth:`derived`), each with the state it is of.
        self._derived: dict[str, tuple[tuple[int, int, int], Any]] = {}
        #: Called with a match id whenever a match's contribution to the standings changes.
        self.on_change: Callable[[str], None] | None = None
        #: Players whose line in the standings may have changed since the last ranking
        #: (a match's result changed); None: rank everybody afresh (after any event but a
        #: result, see ``handlers.TOUCHING``). See :mod:`tournament.domain.standings.ranking`.
        self.touched: set[int] | None = None
        #: The last ranking, which the next standings update from ``touched``: a
        #: :class:`tournament.domain.standings.ranking.Ranking`, which the standings keep
        #: here and check the type of (the model does not import what is derived from it).
        self.ranking: object | None = None

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
        if self._unsettled_of is self.matches:
            # Only the matches neither decided nor dropped can keep the round open (a
            # vacated bracket match among them does not: see settled()).
            left = self.unsettled.get(number, ())
            return all(self.settled(self.matches[m]) for m in left)
        return all(self.settled(self.matches[m]) for m in self.rounds[number - 1].matches)

    def _track(self, match: MatchState) -> None:
        """Keep :attr:`unsettled` up to date after ``match``'s summary may have changed."""
        left = self.unsettled.setdefault(match.round, set())
        if match.decided or match.dropped:
            left.discard(match.match_id)
        else:
            left.add(match.match_id)

    def settled(self, match: MatchState) -> bool:
        """Whether a match keeps its round from being complete no longer: decided, dropped,
        or a bracket match vacated by a correction upstream (never played, or every result
        voided, and no longer the bracket's): its slot is drawn again. A bracket match whose
        results were voided but that still fits its slot is open: enter its result again."""
        if match.decided or match.dropped:
            return True
        if not match.bracket:
            return False
        return (not match.entries or match.void) and match.match_id in self.vacated()

    def derived(self, name: str, compute: Callable[[], Derived]) -> Derived:
        """``compute()``, worked out once for the state as it is (its version and matches):
        the bracket as it stands is asked for by every view of a knockout, and by every
        result entered in one. A copy with other matches (a trial of what a command
        would make) works out its own."""
        key = (self.version, id(self.matches), len(self.matches))
        found = self._derived.get(name)
        if found is None or found[0] != key:
            found = (key, compute())
            # A new dict, not an update: a shallow copy shares the old one, and keeps it.
            self._derived = {**self._derived, name: found}
        return found[1]

    def vacated(self) -> Mapping[str, MatchState]:
        """The bracket matches never played (or voided) that the bracket no longer has, by
        match id (:func:`tournament.domain.standings.knockout.vacated`)."""

        def compute() -> Mapping[str, MatchState]:
            # Only a bracket match with nothing entered (or voided) can be vacated: without
            # one the bracket code is not even loaded (entering a Swiss result stays light).
            if not any(m.bracket and (not m.entries or m.void) for m in self.matches.values()):
                return {}
            return VACATED[0](self)

        return self.derived("vacated", compute)

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
        handler = HANDLERS.get(event.type)
        if handler is not None:
            handler(self, event.payload)
            if event.type not in TOUCHING:
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
        self._track(match)
        if old.decided and not match.summary.decided:
            self.reopened[match.match_id] = why
        params: dict[str, Param] = {"match_id": match.match_id, "round": match.round, "why": why}
        self._changed(match, old, english("flag.changed", params))

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
        # A later match of both players (a rematch, a grand-final reset) is flagged once.
        later = dict.fromkeys(mid for p in match.players for mid in self.player_matches.get(p, []))
        for mid in later:
            other = self.matches[mid]
            # The same words twice (the parts of one sheet's correction) flag it once.
            if other.round > match.round and flag not in other.flags:
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


__all__ = ["Player", "Round", "Stats", "Tournament", "fold"]
