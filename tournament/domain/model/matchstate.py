"""One match as the fold sees it: its result entries, replayed through the engine (R17-R20).

Every result that reaches a match -- a paper hand, a Bummerl tally, a live hand, a
forfeit -- is an :class:`Entry` kept in arrival order. Corrections replace an entry's
payload and strikes remove single hands; the match is then replayed from its entries, so
nothing is ever edited in place and a correction's reversal restores the exact state.

    >>> m = MatchState("1.1", 1, 1, (10, 20), first_dealer=0, best_of=3)
    >>> m.add(Entry("r1", "tally", {"tally": {"columns": [[7, 6], [4, 2, 0]]}}))
    >>> for n, dealer in enumerate((20, 10, 20)):
    ...     m.add(Entry(f"h{n}", "hand", {"winner": 20, "game_points": 3, "dealer": dealer}))
    >>> m.summary.decided, m.winner, m.summary.bummerl, m.summary.game_points, m.summary.schneider
    (True, 20, (0, 3), (1, 14), (0, 1))
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from engine import EngineError, HandResult, Match
from tournament.domain.model.errors import DomainError
from tournament.domain.model.tally import tally_hands
from tournament.domain.words.messages import Phrase

#: A hand as an entry yields it: (winner seat, game points, dealer seat or None, reason).
Hand = tuple[int, int, "int | None", "str | None"]


@dataclasses.dataclass(slots=True)
class Entry:
    """A result as recorded; ``payload`` is the effective one (None once voided)."""

    result_id: str
    kind: str  # "hand", "tally", "live", "forfeit"
    payload: dict[str, Any] | None
    struck: frozenset[int] = frozenset()  # hand numbers (1-based) struck by the organiser

    def hands(self, players: tuple[int, int], dealer_known: bool) -> list[Hand]:
        """The hands this entry adds to its match, struck ones left out."""
        p = self.payload
        if p is None or self.kind == "forfeit":
            return []
        if self.kind == "tally":
            hands: list[Hand] = [(seat, gp, None, None) for seat, gp in tally_hands(p["tally"])]
        else:
            dealer = p.get("dealer")
            dealer_seat = players.index(dealer) if dealer_known and dealer is not None else None
            hands = [(players.index(p["winner"]), p["game_points"], dealer_seat, p.get("reason"))]
        if self.struck:
            return [h for i, h in enumerate(hands, 1) if i not in self.struck]
        return hands


def pass_deal(engine: Match) -> None:
    """A struck hand was still dealt: the deal passes to the other player (R18) while its
    game points do not count (R17). The engine counts only scored hands, so the current
    Bummerl's first dealer is turned instead; the next Bummerl's first dealer still
    follows the match's alternation (R18)."""
    if not engine.is_decided:
        engine.current.first_dealer ^= 1


def where(engine: Match) -> str:
    """Where the next hand of a match goes, for messages."""
    return str(where_phrase(engine))


def where_phrase(engine: Match) -> Phrase:
    """:func:`where` with its code, for a message a page shows in German."""
    if engine.is_decided:
        return Phrase("matchstate.hand_of_match", {"hand": engine.hand_count + 1})
    hand, bummerl = len(engine.current.hands) + 1, len(engine.bummerls)
    return Phrase("matchstate.hand_of_bummerl", {"hand": hand, "bummerl": bummerl})


def explain(error: EngineError, engine: Match, hand: HandResult, labels: Sequence[str]) -> str:
    """The engine's refusal of ``hand`` in the organiser's words: players by name and start
    number instead of seats, the Bummerl by number, the rule id with what it says.

    >>> m = Match(3, first_dealer=0)
    >>> bad = HandResult(winner=0, game_points=2, dealer=1)
    >>> try:
    ...     m.record(bad)
    ... except EngineError as error:
    ...     print(explain(error, m, bad, ("Bernd (2)", "Franz (6)")))
    hand 1 of Bummerl 1 is dealt by Bernd (2), not Franz (6) (R18: the deal alternates every hand)
    """
    return str(explain_phrase(error, engine, hand, labels))


def explain_phrase(
    error: EngineError, engine: Match, hand: HandResult, labels: Sequence[str]
) -> Phrase:
    """:func:`explain` with its code, for a message a page shows in German."""
    if error.rule == "R18" and hand.dealer is not None and not engine.is_decided:
        expected = engine.current.next_dealer
        return Phrase(
            "matchstate.dealt_by",
            {
                "where": where_phrase(engine),
                "expected": labels[expected],
                "dealer": labels[hand.dealer],
            },
        )
    # Any other refusal: the engine's text (English) with its seats named.
    text = re.sub(r"\bseat ([01])\b", lambda m: labels[int(m.group(1))], error.message)
    return Phrase(
        "matchstate.engine_says", {"where": where_phrase(engine), "text": text, "rule": error.rule}
    )


def schneider_note(summary: Summary, schneiderbummerl: bool = True) -> str:
    """Why a score like 3:0 in a best of 3 is right: each Schneiderbummerl counted 2 (R19).

    >>> schneider_note(Summary(True, 0, (3, 0), (14, 0), (1, 0)))
    ' (a Schneiderbummerl counts 2, R19)'
    """
    return str(schneider_note_phrase(summary, schneiderbummerl))


def schneider_note_phrase(summary: Summary, schneiderbummerl: bool = True) -> Phrase | str:
    """:func:`schneider_note` with its code, for a refusal a page shows in German (the
    browser trial found its English inside a German sentence); "" when there is none."""
    count = sum(summary.schneider)
    if not count or not schneiderbummerl or summary.forfeit:
        return ""
    if count == 1:
        return Phrase("matchstate.one_schneider_note")
    return Phrase("matchstate.schneider_notes", {"count": count})


class HandSlot(NamedTuple):
    """Hand ``number`` of result ``result_id`` (a tally's hand N, as ``results strike
    --hand`` takes it) and where it fell: hand ``hand`` of Bummerl ``bummerl`` (both 0
    when struck or not counted)."""

    result_id: str
    number: int
    bummerl: int
    hand: int
    struck: bool = False

    def place(self) -> str:
        if self.struck:
            return "struck"
        return f"Bummerl {self.bummerl} hand {self.hand}" if self.bummerl else "not counted"


def score_words(m: MatchState) -> str:
    """The score a decided match was won by, winner first: ``2:0``, ``2:0 by forfeit``,
    ``3:0 (a Schneiderbummerl counts 2, R19)``."""
    s = m.summary
    seat = s.winner or 0
    how = " by forfeit" if s.forfeit else schneider_note(s, m.schneiderbummerl)
    return f"{s.bummerl[seat]}:{s.bummerl[1 - seat]}{how}"


def result_words(m: MatchState) -> str:
    """A match's result in words: ``Anna (1) won 2:0``, ``dropped``, ``both absent``, or
    nothing while it is open."""
    s = m.summary
    if s.dropped:
        return "dropped"
    if not s.decided:
        return ""
    if m.winner is None:
        return "both absent"
    return f"{m.labels[s.winner or 0]} won {score_words(m)}"


class Summary(NamedTuple):
    """What a match contributes to the standings, per seat (a, b)."""

    decided: bool = False
    winner: int | None = None  # seat; None while undecided or after a double forfeit
    bummerl: tuple[int, int] = (0, 0)  # Bummerl won, a Schneiderbummerl counting 2 (R19)
    game_points: tuple[int, int] = (0, 0)  # game points struck off (R17)
    schneider: tuple[int, int] = (0, 0)  # Schneider Bummerl won
    forfeit: bool = False
    dropped: bool = False


EMPTY = Summary()


class MatchState:
    """A best-of-N match between ``players`` (seat 0, seat 1) with its result entries."""

    __slots__ = (
        "best_of",
        "bracket",
        "dropped",
        "engine",
        "entries",
        "first_dealer",
        "flags",
        "forfeit",
        "labels",
        "match_id",
        "players",
        "problems",
        "round",
        "schneiderbummerl",
        "signed_by",
        "summary",
        "table",
        "void_signatures",
    )

    def __init__(
        self,
        match_id: str,
        round: int,
        table: int,
        players: tuple[int, int],
        first_dealer: int | None = None,
        best_of: int = 3,
        schneiderbummerl: bool = True,
        bracket: dict[str, Any] | None = None,
        labels: tuple[str, str] | None = None,
    ) -> None:
        self.match_id = match_id
        self.round = round
        self.table = table
        self.players = players
        #: How messages name the two seats: "Anna Huber (12)"; the start numbers without names.
        self.labels = labels or (str(players[0]), str(players[1]))
        self.first_dealer = first_dealer  # seat; None while unknown ("as entered")
        self.best_of = best_of
        self.schneiderbummerl = schneiderbummerl
        self.bracket = bracket or {}
        self.entries: list[Entry] = []
        self.engine = Match(best_of, first_dealer or 0, schneiderbummerl)
        self.forfeit: Entry | None = None
        self.dropped = False
        self.problems: list[str] = []
        self.flags: list[str] = []
        self.signed_by: set[int] = set()
        #: Signatures that no longer cover the sheet: (player, why), oldest first.
        self.void_signatures: list[tuple[int, str]] = []
        self.summary = EMPTY

    # --- reading ------------------------------------------------------------------------
    @property
    def winner(self) -> int | None:
        """The winning player id, once decided."""
        seat = self.summary.winner
        return None if seat is None else self.players[seat]

    @property
    def decided(self) -> bool:
        return self.summary.decided

    @property
    def void(self) -> bool:
        """Every result of the match was voided by a correction: it was recorded, and it
        stays as an event, but it holds nothing (a bracket slot is free again)."""
        return bool(self.entries) and all(e.payload is None for e in self.entries)

    def seat_of(self, player_id: int) -> int:
        return self.players.index(player_id)

    def location(self) -> str:
        """Where the next hand goes, for messages: ``hand 3 of Bummerl 2``."""
        return where(self.engine)

    def next_place(self) -> str:
        """Where the next hand goes, as ``results show`` lists hands: ``Bummerl 2 hand 3``."""
        return str(self.next_place_phrase())

    def next_place_phrase(self) -> Phrase:
        """:meth:`next_place` with its code, for a message a page shows in German."""
        engine = self.engine
        if engine.is_decided:
            return Phrase("matchstate.hand_of_decided_match", {"hand": engine.hand_count + 1})
        hand, bummerl = len(engine.current.hands) + 1, len(engine.bummerls)
        return Phrase("matchstate.bummerl_hand", {"bummerl": bummerl, "hand": hand})

    def hand_places(self) -> dict[str, list[str]]:
        """Where each entry's hands fell, for ``results show``: per result id, per hand of
        the entry, ``"Bummerl 2 hand 3"`` or ``"struck"`` (or ``"not counted"``)."""
        places: dict[str, list[str]] = {e.result_id: [] for e in self.entries}
        for slot in self.hand_slots():
            places[slot.result_id].append(slot.place())
        return places

    def hand_slots(self) -> list[HandSlot]:
        """Every hand of every entry in order, with where it fell in the match: its
        Bummerl and its place there, struck, or not counted (the match was decided
        before it). The deal plays no part in where a hand falls, so it is left out."""
        engine = Match(self.best_of, self.first_dealer or 0, self.schneiderbummerl)
        slots: list[HandSlot] = []
        for entry in self.entries:
            whole = Entry(entry.result_id, entry.kind, entry.payload)
            for number, (winner, gp, _, reason) in enumerate(whole.hands(self.players, False), 1):
                if number in entry.struck:
                    slots.append(HandSlot(entry.result_id, number, 0, 0, struck=True))
                    continue
                bummerl, hand = len(engine.bummerls), len(engine.current.hands) + 1
                try:
                    engine.record(HandResult(winner, gp, None, reason))
                except EngineError:
                    bummerl = hand = 0
                slots.append(HandSlot(entry.result_id, number, bummerl, hand))
        return slots

    def void_signatures_after(self, why: str) -> None:
        """The sheet changed after it was signed: the signatures cover it no longer."""
        for pid in sorted(self.signed_by):
            self.void_signatures.append((pid, f"{why} after signing"))
        self.signed_by.clear()

    def scorers(self) -> list[int]:
        """The players recorded as scorer by the match's results, in order of appearance."""
        seen: list[int] = []
        for entry in self.entries:
            scorer = (entry.payload or {}).get("scorer")
            if scorer is not None and scorer not in seen:
                seen.append(scorer)
        return seen

    def label(self, player_id: int) -> str:
        """A player of this match as messages name it: ``Anna Huber (12)``."""
        return self.labels[self.seat_of(player_id)]

    # --- changing -----------------------------------------------------------------------
    def add(self, entry: Entry) -> None:
        """Append a result entry (the fold's fast path: no replay of earlier hands)."""
        self.entries.append(entry)
        if entry.kind == "forfeit":
            self.forfeit = entry
        else:
            self._play(entry)
        self.summary = self._summarise()

    def rebuild(self) -> None:
        """Replay every entry from the start (after a correction, strike or first dealer)."""
        self.engine = Match(self.best_of, self.first_dealer or 0, self.schneiderbummerl)
        self.problems = []
        self.forfeit = None
        for entry in self.entries:
            if entry.kind == "forfeit":
                if entry.payload is not None:
                    self.forfeit = entry
            else:
                self._play(entry)
        self.summary = self._summarise()

    def _play(self, entry: Entry) -> None:
        # Every hand, struck ones included (a struck hand still passes the deal).
        whole = Entry(entry.result_id, entry.kind, entry.payload) if entry.struck else entry
        hands = whole.hands(self.players, self.first_dealer is not None)
        for number, (winner, gp, dealer, reason) in enumerate(hands, 1):
            if number in entry.struck:
                pass_deal(self.engine)
                continue
            hand = HandResult(winner, gp, dealer, reason)
            try:
                self.engine.record(hand)
            except EngineError as error:
                why = explain(error, self.engine, hand, self.labels)
                if error.rule == "R18":
                    # The hand stands, flagged: a dealer the sheet got wrong (R18).
                    self.engine.record(HandResult(winner, gp, None, reason))
                    self.problems.append(f"result {entry.result_id}: {why}")
                else:
                    self.problems.append(f"result {entry.result_id}, not counted: {why}")

    def _summarise(self) -> Summary:
        if self.dropped:
            return Summary(dropped=True)
        if self.forfeit is not None and self.forfeit.payload is not None:
            winner = self.forfeit.payload.get("winner")
            score = tuple(self.forfeit.payload["score"])
            if winner is None:  # both absent: a loss for each, no Bummerl
                return Summary(True, None, forfeit=True)
            seat = self.players.index(winner)
            bummerl = (score[0], score[1]) if seat == 0 else (score[1], score[0])
            return Summary(True, seat, bummerl, forfeit=True)
        engine = self.engine
        struck, schneider = engine.sheet_totals()
        return Summary(engine.is_decided, engine.winner, engine.bummerl_wins, struck, schneider)

    # --- checking commands --------------------------------------------------------------
    def check_new(self, entry: Entry) -> None:
        """Raise :class:`DomainError` unless ``entry`` can be appended without a problem."""
        self.check_open(entry.kind)
        engine = self.engine.copy()
        if entry.kind == "forfeit":
            return
        if entry.kind == "tally" and engine.current.hands:
            raise DomainError(
                "tally",
                "R17",
                code="matchstate.match_tally_records_whole",
                params={
                    "match_id": self.match_id,
                    "bummerls_count": len(engine.bummerls),
                    "hands": _hands_phrase(len(engine.current.hands)),
                },
            )
        for number, (winner, gp, dealer, reason) in enumerate(
            entry.hands(self.players, self.first_dealer is not None), 1
        ):
            hand = HandResult(winner, gp, dealer, reason)
            try:
                engine.record(hand)
            except EngineError as error:
                which: Phrase | str = ""
                if entry.kind == "tally":
                    which = Phrase("matchstate.sheet_hand", {"number": number})
                raise DomainError(
                    "dealer" if error.rule == "R18" else "result",
                    error.rule,
                    code="matchstate.in_match",
                    params={
                        "match_id": self.match_id,
                        "refusal": Phrase(
                            "matchstate.engine_refused",
                            {
                                "which": which,
                                "explanation": explain_phrase(error, engine, hand, self.labels),
                            },
                        ),
                    },
                ) from None

    def check_open(self, kind: str = "hand") -> None:
        """Raise :class:`DomainError` unless the match still takes a result of ``kind``
        (checked first, so that a decided match is said before anything about the hand)."""
        if self.dropped:
            raise DomainError(
                "match",
                "T-withdrawal",
                code="matchstate.match_dropped",
                params={"match_id": self.match_id},
            )
        if self.forfeit is not None:
            raise DomainError(
                "match",
                "R20",
                code="matchstate.match_decided_forfeit_nothing",
                params={"match_id": self.match_id},
            )
        if kind == "forfeit":
            if self.summary.decided:
                raise DomainError(
                    "match",
                    "R20",
                    code="matchstate.match_already_decided_cannot",
                    params={"match_id": self.match_id},
                )
            return
        engine = self.engine
        if engine.is_decided:
            a, b = engine.bummerl_wins
            raise DomainError(
                "result",
                "R20",
                code="matchstate.match_decided_won_bummerl",
                params={
                    "match_id": self.match_id,
                    "label": self.labels[engine.winner or 0],
                    "max": max(a, b),
                    "min": min(a, b),
                    "schneider_note": schneider_note_phrase(self.summary, self.schneiderbummerl),
                },
            )

    def trial(self, entries: Iterable[Entry], first_dealer: int | None = None) -> MatchState:
        """A copy with other entries, replayed: what a correction or strike would give."""
        other = MatchState(
            self.match_id,
            self.round,
            self.table,
            self.players,
            self.first_dealer if first_dealer is None else first_dealer,
            self.best_of,
            self.schneiderbummerl,
            self.bracket,
            self.labels,
        )
        other.entries = list(entries)
        other.dropped = self.dropped
        other.rebuild()
        return other

    def to_json(self) -> dict[str, Any]:
        s = self.summary
        return {
            "match_id": self.match_id,
            "round": self.round,
            "table": self.table,
            "players": list(self.players),
            "first_dealer": None if self.first_dealer is None else self.players[self.first_dealer],
            "decided": s.decided,
            "winner": self.winner,
            "bummerl": list(s.bummerl),
            "game_points": list(s.game_points),
            "forfeit": s.forfeit,
            "dropped": s.dropped,
            "hands": self.engine.hand_count,
            "problems": list(self.problems),
            "flags": list(self.flags),
            "bracket": dict(self.bracket),
        }


def _hands(count: int) -> str:
    return f"{count} hand" if count == 1 else f"{count} hands"


def _hands_phrase(count: int) -> Phrase:
    return Phrase("matchstate.one_hand" if count == 1 else "matchstate.hands", {"count": count})
