"""Where a tournament stands: the matches still open, what each still needs, and what a
table of standings at this point is (before round 1, during a round, after it).

``round start`` refuses to draw over an open match of any round (T-round), one a
correction made undecided again included, and names every one of them; ``results
missing`` lists them; the standings' heading says which state of the tournament they show.

    >>> from tournament.domain.testing import paired
    >>> from tournament.domain.model.state import fold
    >>> t = fold(paired(players=4))
    >>> [m.match_id for m in open_matches(t)], Stage.of(t).heading()
    (['1.1', '1.2'], 'before any result (round 1 drawn: 0 of 2 matches decided)')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from tournament.domain.model import events as ev
from tournament.domain.model.matchstate import MatchState
from tournament.domain.model.state import Tournament
from tournament.domain.standings.pairing import eligible, next_draw, round_seed
from tournament.domain.words.messages import Param, Phrase
from tournament.formats.bracket import Bracket, from_layout


def open_matches(t: Tournament, number: int | None = None) -> list[MatchState]:
    """Every match not settled yet (not decided, dropped or freed), in round and table
    order; only those of round ``number`` when given."""
    rounds = t.rounds if number is None else t.rounds[number - 1 : number]
    return [m for r in rounds for mid in r.matches if not t.settled(m := t.matches[mid])]


def still_needed(m: MatchState, first: bool = False) -> str:
    """What the organiser still has to enter for an open match, in the sheet's words
    (``first``: before something else, as the refusal of a draw says it)."""
    return str(still_needed_phrase(m, first))


def still_needed_phrase(m: MatchState, first: bool = False) -> Phrase:
    """:func:`still_needed` with its code (a page says it in the reader's language)."""
    a, b = m.summary.bummerl
    target = (m.best_of + 1) // 2
    if not m.engine.hand_count and not a and not b:
        return Phrase("progress.enter_result_first" if first else "progress.enter_result")
    if a == b == target - 1 and not m.engine.current.hands:
        return Phrase("progress.enter_decider_first" if first else "progress.enter_decider")
    score: dict[str, Param] = {"a": a, "b": b, "target": target}
    return Phrase("progress.enter_rest_first" if first else "progress.enter_rest", score)


def reopened_note(t: Tournament, m: MatchState, first: bool = False) -> str:
    """``match 2.3 (round 2) is open again after a correction: enter its deciding Bummerl``
    (with ``first``, the players too, and ``... first``)."""
    return str(reopened_phrase(t, m, first))


def reopened_phrase(t: Tournament, m: MatchState, first: bool = False) -> Phrase:
    """:func:`reopened_note` with its code."""
    needed = still_needed_phrase(m, first)
    said: dict[str, Param] = {"match_id": m.match_id, "round": m.round, "needed": needed}
    again = m.match_id in t.reopened
    if first:
        players = " v ".join(m.labels)
        return Phrase(
            "progress.open_again_players" if again else "progress.still_open_players",
            {**said, "players": players},
        )
    return Phrase("progress.open_again" if again else "progress.still_open", said)


def draw_refusal(t: Tournament) -> str | None:
    """Why the next round cannot be drawn yet because of open matches (None: it can):
    every match of an earlier round that is open again, and every open match of the
    current round, by id; ``results missing`` lists them with tables and players."""
    found = draw_refusal_phrase(t)
    return None if found is None else str(found)


def draw_refusal_phrase(t: Tournament) -> Phrase | None:
    """:func:`draw_refusal` with its code (``progress.cannot_draw``), for a refusal or a
    page in the reader's language."""
    blocking = open_matches(t)
    if not blocking:
        return None
    again = [m for m in blocking if m.round < t.current_round or m.match_id in t.reopened]
    conflicts = _conflicts(t, blocking)  # said with what to do, not as merely open
    waiting = [m for m in blocking if m not in again and m.match_id not in conflicts]
    # "no result yet" only where nothing is entered: a match half played is under way.
    empty = [m.match_id for m in waiting if not _begun(t, m)]
    begun = [m.match_id for m in waiting if _begun(t, m)]
    parts: list[Param] = [reopened_phrase(t, m, first=True) for m in again]
    parts += [
        Phrase("progress.match_why", {"match_id": mid, "why": why})
        for mid, why in conflicts.items()
    ]
    if waiting:
        why: list[Param] = []
        if empty:
            why.append(Phrase("progress.no_result_yet", {"ids": ", ".join(empty)}))
        if begun:
            why.append(Phrase("progress.not_decided_yet", {"ids": ", ".join(begun)}))
        parts.append(
            Phrase("progress.not_complete", {"round": t.current_round, "why": _joined(why)})
        )
    return Phrase("progress.cannot_draw", {"round": t.current_round + 1, "parts": _joined(parts)})


def _joined(parts: Sequence[Param]) -> Param:
    """Parts joined by semicolons, as one param."""
    if len(parts) == 1:
        return parts[0]
    return Phrase("progress.joined", {"first": parts[0], "rest": _joined(parts[1:])})


def _conflicts(t: Tournament, matches: list[MatchState]) -> dict[str, str]:
    """Per bracket match among ``matches`` in conflict with the bracket after a correction,
    why and what to do (:func:`tournament.domain.standings.knockout.misfit_why`)."""
    if not any(m.bracket for m in matches):
        return {}
    from tournament.domain.standings.knockout import misfit_why

    found = {m.match_id: misfit_why(t, m) for m in matches if m.bracket}
    return {mid: why for mid, why in found.items() if why}


def _begun(t: Tournament, m: MatchState) -> bool:
    """Something stands in open match ``m``: a result entered and not voided (part of one),
    or a live hand in progress (as ``results missing`` tells them from `nothing entered`)."""
    return (bool(m.entries) and not m.void) or t.live_in_progress(m.match_id) is not None


@dataclasses.dataclass(frozen=True)
class Stage:
    """Which state of the tournament a table of standings shows (its heading)."""

    current: int  # rounds drawn
    decided: int  # matches of the current round decided (or dropped)
    total: int  # matches of the current round
    byes: int  # byes of the current round (they count from the draw)
    reopened: tuple[str, ...]  # open matches of earlier rounds
    #: Matches of the current round vacated by a correction (never played, out of the
    #: bracket): they keep no round open, but their slots are still to be played, drawn
    #: again in the next round; so they are not decided and the round is not over.
    void: tuple[str, ...] = ()

    @classmethod
    def of(cls, t: Tournament) -> Stage:
        if not t.rounds:
            return cls(0, 0, 0, 0, ())
        last = t.rounds[-1]
        vacated = t.vacated()
        void = tuple(mid for mid in last.matches if mid in vacated)
        decided = sum(1 for mid in last.matches if t.settled(t.matches[mid])) - len(void)
        earlier = tuple(m.match_id for m in open_matches(t) if m.round < t.current_round)
        return cls(t.current_round, decided, len(last.matches), len(last.byes), earlier, void)

    @property
    def before_start(self) -> bool:
        return self.current == 0

    def heading(self) -> str:
        """``after round 2``, ``after round 2 (round 3 drawn: 0 of 19 matches decided)``,
        ``during round 3: 7 of 19 matches decided``, ``before round 1 (in seed order)``; a
        knockout round whose match a correction made void (its slot drawn again) is not
        over: ``after round 1 (round 2 drawn: 0 of 1 match decided); void after a
        correction, its slot to be drawn again: R2-1``."""
        n = self.current
        if n == 0:
            return "before round 1 (in seed order)"
        of = f"{self.decided} of {self.total} {'match' if self.total == 1 else 'matches'}"
        if self.decided == self.total:
            text = f"after round {n}"
        elif self.decided == 0:
            bye = ", the bye counted" if self.byes == 1 else ""
            bye = f", the {self.byes} byes counted" if self.byes > 1 else bye
            drawn = f"round {n} drawn: {of} decided{bye}"
            text = f"before any result ({drawn})" if n == 1 else f"after round {n - 1} ({drawn})"
        else:
            text = f"during round {n}: {of} decided"
        if self.void:
            ids = ", ".join(self.void)
            text += f"; void after a correction, its slot to be drawn again: {ids}"
        if self.reopened:
            text += f"; open again: {', '.join(self.reopened)}"
        return text


def end_of_round(events: Sequence[ev.EventLike], t: Tournament, number: int) -> int | None:
    """How many of ``events`` make up the end of round ``number``: the events before the
    draw of round ``number + 1`` that stands now (the last one: an earlier draw may have
    been cancelled). None when round ``number + 1`` is not drawn: the end is now."""
    if t.current_round <= number:
        return None
    draws = [
        i
        for i, e in enumerate(events)
        if e.type == ev.ROUND_STARTED and e.payload.get("round") == number + 1
    ]
    return draws[-1]


def changed_since(events: Iterable[ev.EventLike], t: Tournament, number: int) -> int:
    """Results of rounds 1 to ``number`` entered, corrected or struck among ``events``
    (those after the end of round ``number``): the end-of-round table does not show them."""
    count = 0
    sheets: set[str] = set()  # a whole sheet's correction is one, however many Bummerl
    for e in events:
        if e.type in ev.RESULT_TYPES or e.type in (ev.RESULT_CORRECTED, ev.HAND_STRUCK):
            match = t.matches.get(str(e.payload.get("match_id", "")))
            sheet = (e.payload.get("sheet") or {}).get("id")
            if match is not None and match.round <= number and sheet not in sheets:
                count += 1
                if sheet is not None:
                    sheets.add(str(sheet))
    return count


def bracket_preview(t: Tournament) -> Bracket | None:
    """The knockout bracket ``round start`` would draw now, from today's seeding and
    check-ins, before round 1 of a single or double elimination (None otherwise, or with
    fewer than two players): the same draw code, nothing recorded."""
    s = t.settings
    if s is None or t.rounds or s.format not in ("single_elimination", "double_elimination"):
        return None
    if len(eligible(t)) < 2:
        return None
    draw = next_draw(t, 1, round_seed(s.seed, 1, redraw=len(t.cancellations)), {})
    layout = draw.info["bracket"]
    return from_layout(layout["kind"], draw.info["seeds"], layout["matches"], layout["finals"])
