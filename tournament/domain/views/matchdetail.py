"""One match in full, as ``results show`` and the API give it: its Bummerl with their
hands, every result with its id (for corrections and strikes), where its hands fell and
what was done to it, the signatures, flags and problems.

    >>> from tournament.domain.testing import Builder, paired
    >>> from tournament.domain.commands.results import record_tally
    >>> b = Builder(paired(players=2, best_of=3))
    >>> _ = b.add(record_tally(b.state, "1.1", "7 4 1 0 / 7 5 2"))
    >>> detail = match_detail(b.state, b.state.matches["1.1"], [])
    >>> [(x.number, x.to_go, x.winner and x.winner.id, len(x.hands)) for x in detail.bummerls]
    [(1, (0, 2), 1, 5), (2, (7, 7), None, 0)]
    >>> first = detail.bummerls[0].hands
    >>> [(h.result_id == detail.entries[0].result_id, h.number) for h in first][:2]
    [(True, 1), (True, 2)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from tournament.domain.model.matchstate import MatchState
from tournament.domain.model.state import Tournament
from tournament.domain.views.matchview import (
    MatchLine,
    PlayerRef,
    bracket_notes,
    match_line,
    player_ref,
)
from tournament.domain.views.notices import scorer_warning
from tournament.domain.views.resultlog import ResultEvent, result_history

if TYPE_CHECKING:
    from tournament.eventstore.api import StoredEvent


@dataclasses.dataclass(frozen=True, slots=True)
class HandLine:
    """A hand that counts in a Bummerl, and the result it came from."""

    winner: PlayerRef
    game_points: int  # 1, 2 or 3 (R13-R16)
    dealer: PlayerRef | None  # as entered (R18); None: not given (a tally)
    reason: str | None
    result_id: str | None
    number: int  # its number in that result (a tally's hand N, as a strike names it)


@dataclasses.dataclass(frozen=True, slots=True)
class BummerlLine:
    number: int
    to_go: tuple[int, int]  # game points each player still has to strike off (R17)
    winner: PlayerRef | None
    schneider: bool  # won while the loser was still at 7 (R19)
    counts: int  # Bummerl it counts for its winner: 2 for a Schneiderbummerl (R19), 0 open
    hands: tuple[HandLine, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class EntryLine:
    """A result of the match as recorded and as it stands."""

    result_id: str
    kind: str  # hand, tally, live, forfeit
    result: Mapping[str, Any] | None  # as it stands after corrections; None: voided
    struck: tuple[int, ...]  # its hands struck off (R17)
    places: tuple[str, ...]  # where each of its hands fell: Bummerl 2 hand 3, struck ...
    history: tuple[ResultEvent, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class VoidSignature:
    player: PlayerRef
    why: str


@dataclasses.dataclass(frozen=True)
class MatchDetail:
    line: MatchLine
    best_of: int
    standing: str  # where it stands, in words
    next_dealer: PlayerRef | None  # who deals the next hand (R18), once known
    game_points: tuple[int, int]  # struck off over every Bummerl (R17)
    schneider: tuple[int, int]  # Schneiderbummerl won (R19)
    forfeit: bool
    bummerls: tuple[BummerlLine, ...]
    entries: tuple[EntryLine, ...]
    signed_by: tuple[PlayerRef, ...]
    void_signatures: tuple[VoidSignature, ...]
    live_hand: str | None  # the hand stream of a live hand in progress
    warnings: tuple[str, ...]
    problems: tuple[str, ...]
    flags: tuple[str, ...]


def bummerl_lines(t: Tournament, m: MatchState) -> list[BummerlLine]:
    """The match's Bummerl (the one in play last), each hand with the result it came
    from: the hands that count, in the order the engine took them."""
    origins = [s for s in m.hand_slots() if s.bummerl]
    out = []
    for number, bummerl in enumerate(m.engine.bummerls, 1):
        came = [s for s in origins if s.bummerl == number]
        hands = []
        for i, hand in enumerate(bummerl.hands):
            origin = came[i] if i < len(came) else None
            hands.append(
                HandLine(
                    winner=player_ref(t, m.players[hand.winner]),
                    game_points=hand.game_points,
                    dealer=None if hand.dealer is None else player_ref(t, m.players[hand.dealer]),
                    reason=hand.reason,
                    result_id=origin.result_id if origin else None,
                    number=origin.number if origin else 0,
                )
            )
        winner = bummerl.winner
        out.append(
            BummerlLine(
                number=number,
                to_go=bummerl.scores,
                winner=None if winner is None else player_ref(t, m.players[winner]),
                schneider=bummerl.is_schneider,
                counts=bummerl.value,
                hands=tuple(hands),
            )
        )
    return out


def match_detail(t: Tournament, m: MatchState, events: Iterable[StoredEvent]) -> MatchDetail:
    """Match ``m`` in full; ``events``: the tournament's log, for each result's history
    (who entered, corrected or struck it, when and why)."""
    from tournament.domain.views.matchview import match_standing

    history = result_history(events, m.match_id)
    places = m.hand_places()
    entries = tuple(
        EntryLine(
            e.result_id,
            e.kind,
            e.payload,
            tuple(sorted(e.struck)),
            tuple(places.get(e.result_id, ())),
            tuple(history.get(e.result_id, ())),
        )
        for e in m.entries
    )
    s = m.summary
    next_dealer = m.engine.next_dealer if m.first_dealer is not None and not s.decided else None
    warning = scorer_warning(m)
    return MatchDetail(
        line=match_line(t, m, bracket_notes(t, [m.match_id]).get(m.match_id)),
        best_of=m.best_of,
        standing=match_standing(t, m.match_id),
        next_dealer=None if next_dealer is None else player_ref(t, m.players[next_dealer]),
        game_points=s.game_points,
        schneider=s.schneider,
        forfeit=s.forfeit,
        bummerls=tuple(bummerl_lines(t, m)),
        entries=entries,
        signed_by=tuple(player_ref(t, pid) for pid in sorted(m.signed_by)),
        void_signatures=tuple(
            VoidSignature(player_ref(t, pid), why) for pid, why in m.void_signatures
        ),
        live_hand=t.live_in_progress(m.match_id),
        warnings=(warning,) if warning else (),
        problems=tuple(m.problems),
        flags=tuple(m.flags),
    )
