"""A result as a front end enters it -- hands, the sheet's Bummerl tallies or a forfeit,
with the first dealer, the scorer and the players' signatures -- and the one command it
makes. ``tournament results enter`` and ``POST .../matches/{mid}/results`` both build a
:class:`ResultEntry` and run :func:`entry_command`, so both check the same mix of parts,
refuse the same retries (T-repeat) and store the same events.

    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import paired
    >>> t = fold(paired(players=2, best_of=3))
    >>> sheet = ResultEntry("1.1", tallies=("7 4 1 0 / 7 6", "7 5 2 0 / 7 6"), signed=True)
    >>> command = entry_command(sheet, actor="desk", entered_when=str, spelling=OPTIONS)
    >>> [e.type for e in command(t)]  # doctest: +NORMALIZE_WHITESPACE
    ['result.bummerl_tally_recorded', 'result.bummerl_tally_recorded',
     'match.sheet_signed', 'match.sheet_signed']
    >>> ResultEntry("1.1", tallies=("7 0 / 7",), forfeit="2").refuse_mixed(OPTIONS)
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: options: --forfeit with --tally: give either ...

A front end names the parts its own way in these messages (:class:`Spelling`): the
command line its options (``--tally``), the API its fields (``tallies``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tournament.domain import commands as c
from tournament.domain.commands.csvio import forfeit_winner
from tournament.domain.commands.matchref import resolve_match
from tournament.domain.commands.repeats import check_not_repeated
from tournament.domain.commands.results import in_sequence, with_new
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.model.state import ENTRY_KINDS, Tournament
from tournament.eventstore.api import NewEvent

Command = Callable[[Tournament], list[NewEvent]]


@dataclasses.dataclass(frozen=True)
class Spelling:
    """How a front end names the parts of an entry or a correction in its refusals.

    ``names`` maps a part (``tallies``, ``winner``, ``signed``, ...) to how its user
    writes it; a part not listed is written as it is named. ``hands`` (the API: one list
    field) names every hand part at once when the mix is refused; None (the command line)
    names each hand option given."""

    field: str
    names: Mapping[str, str]
    hands: str | None = None
    #: How to give a whole deciding sheet with its signatures in one go, and to sign later.
    whole_sheet: str = ""
    sign_later: str = ""

    def __call__(self, part: str) -> str:
        return self.names.get(part, part)


#: The command line's options (``tournament results enter``, ``results correct``).
OPTIONS = Spelling(
    "options",
    {
        "tallies": "--tally",
        "tally": "--tally",
        "hand": "--winner/--points",
        "winner": "--winner",
        "game_points": "--points",
        "dealer": "--dealer",
        "reason": "--reason",
        "closed": "--closed",
        "card_points": "--card-points",
        "first_dealer": "--first-dealer",
        "scorer": "--scorer",
        "signed": "--signed",
        "forfeit": "--forfeit",
        "again": "--again",
        "void": "--void",
        "undo": "--undo",
    },
    whole_sheet="enter the whole sheet at once: --tally ... --tally ... --signed",
    sign_later="sign later with `tournament results sign`",
)

#: The parts of a hand, in the order the command line lists its options.
HAND_PARTS = ("winner", "game_points", "dealer", "reason", "closed", "card_points")


@dataclasses.dataclass(frozen=True)
class Hand:
    """One paper hand as entered: its winner and game points (None: not given), and what
    the sheet may also note (R13-R18)."""

    winner: int | None = None
    game_points: int | None = None
    dealer: int | None = None
    reason: str | None = None
    closed: bool = False
    card_points: Sequence[int] | None = None

    def given(self) -> list[str]:
        """The parts given, as :data:`HAND_PARTS` names them."""
        # ``closed`` is a flag: given when set; the other parts when not None.
        return [part for part in HAND_PARTS if getattr(self, part) not in (None, False)]


@dataclasses.dataclass(frozen=True)
class ResultEntry:
    """What one entry gives for ``match`` (round.table as printed, or a bracket id): hands
    (in the sheet's order), the sheet's Bummerl tallies (text ``7 5 4 1 0 / 7 6 3`` or
    the stored ``{"columns": ...}``/``{"rows": ...}``), or a forfeit (the winner's start
    number as text, or ``both``) -- one kind only; the first dealer and the scorer with
    hands or tallies; ``signed``: both players signed the sheet this entry decides;
    ``again``: it really is another hand or Bummerl like the match's last (T-repeat)."""

    match: str
    hands: tuple[Hand, ...] = ()
    tallies: tuple[str | Mapping[str, Any], ...] = ()
    forfeit: str | None = None
    first_dealer: int | None = None
    scorer: int | None = None
    signed: bool = False
    again: bool = False

    def refuse_mixed(self, spelling: Spelling) -> None:
        """One kind of result per entry (:func:`refuse_mixed`), and a hand complete."""
        if spelling.hands is not None:
            given = [spelling.hands] if self.hands else []
        else:
            parts = dict.fromkeys(part for hand in self.hands for part in hand.given())
            given = [spelling(part) for part in parts]
        refuse_mixed(
            given,
            bool(self.tallies),
            self.forfeit,
            first_dealer=self.first_dealer,
            scorer=self.scorer,
            signed=self.signed,
            spelling=spelling,
        )
        if self.forfeit is not None or self.tallies:
            return
        if not self.hands and spelling.hands is not None:
            raise DomainError(
                spelling.field,
                "T-result",
                code="entry.give_result_enter_nothing",
                params={
                    "spelling": spelling("tallies"),
                    "hands": spelling.hands,
                    "spelling2": spelling("forfeit"),
                },
            )
        for hand in self.hands or (Hand(),):
            if hand.winner is None or hand.game_points is None:
                missing = spelling("game_points" if hand.winner is not None else "winner")
                raise DomainError(
                    spelling.field,
                    "T-result",
                    code="entry.hand_needs_missing_give",
                    params={
                        "spelling": spelling("winner"),
                        "spelling2": spelling("game_points"),
                        "missing": missing,
                        "spelling3": spelling("tallies"),
                        "spelling4": spelling("forfeit"),
                    },
                )


def refuse_mixed(
    hand: Sequence[str],
    tallies: bool,
    forfeit: str | None,
    *,
    first_dealer: int | None = None,
    scorer: int | None = None,
    signed: bool = False,
    spelling: Spelling = OPTIONS,
) -> None:
    """One kind of result per entry: a hand (``hand``: the hand parts given, spelled), the
    sheet's tallies, or a forfeit. Anything given beside it would be dropped without a
    word -- a stray forfeit ends the match, a dealer beside a tally is never checked -- so
    the entry is refused instead (T-result), naming every part involved."""
    n = spelling
    either = f"give either {n('tallies')}, {n.hands or n('hand')} or {n('forfeit')}, not several"
    if forfeit is not None:
        play = [*([n("tallies")] if tallies else []), *hand]
        play += [
            n(o) for o, v in (("first_dealer", first_dealer), ("scorer", scorer)) if v is not None
        ]
        play += [n("signed")] if signed else []  # an absent player signs no sheet
        if play:
            raise DomainError(
                n.field,
                "T-result",
                code="entry.forfeit_played_hand_dealer",
                params={"n": n("forfeit"), "play": ", ".join(play), "either": either},
            )
    elif tallies and hand:
        raise DomainError(
            n.field,
            "T-result",
            code="entry.tally_s_hands_dealer",
            params={"n": n("tallies"), "hand": ", ".join(hand), "either": either},
        )


def entry_command(
    entry: ResultEntry,
    *,
    actor: str | None,
    entered_when: Callable[[str], str] | None,
    spelling: Spelling,
) -> Command:
    """The command that enters ``entry`` (its mix is checked now, before any store is
    opened): the result events, refused as a retry when they repeat the match's last entry
    unless ``entry.again`` (T-repeat; ``entered_when(result_id)`` says when the earlier one
    was entered, see :class:`~tournament.domain.commands.repeats.RepeatedEntry`), and both
    players' signatures with them when ``entry.signed``."""
    entry.refuse_mixed(spelling)
    won = forfeit_winner(entry.forfeit) if entry.forfeit is not None else None

    def command(t: Tournament) -> list[NewEvent]:
        mid = resolve_match(t, entry.match)
        if entry.forfeit is not None:
            try:
                events = c.record_forfeit(t, mid, winner=won, actor=actor)
            except DomainError as error:  # the winner was given as the forfeit's value
                if error.field != "winner":
                    raise
                raise type(error)("forfeit", error.rule, error.message) from None
        elif entry.tallies:
            events = c.record_tallies(
                t,
                mid,
                entry.tallies,
                scorer=entry.scorer,
                first_dealer=entry.first_dealer,
                actor=actor,
            )
        else:
            events = record_hands(
                t, mid, entry.hands, scorer=entry.scorer, first_dealer=entry.first_dealer,
                actor=actor,
            )  # fmt: skip
        if not entry.again:  # a retry or a second Enter must not count it twice (T-repeat)
            check_not_repeated(t, events, entered_when, again=spelling("again"))
        if entry.signed:
            events += signatures(t, mid, events, actor, spelling)
        return events

    return command


def record_hands(
    t: Tournament,
    match_id: str,
    hands: Sequence[Hand],
    *,
    scorer: int | None = None,
    first_dealer: int | None = None,
    actor: str | None = None,
) -> list[NewEvent]:
    """Paper hands of one match in the sheet's order, as one action: each is checked
    against the match as it would be after the ones before it (the first dealer goes
    with the first). One bad hand refuses them all, naming which of them it is."""

    def record(trial: Tournament, hand: Hand, first: bool) -> list[NewEvent]:
        assert hand.winner is not None and hand.game_points is not None  # refuse_mixed
        return c.record_hand(
            trial, match_id, winner=hand.winner, game_points=hand.game_points,
            dealer=hand.dealer, reason=hand.reason, closed=hand.closed,
            card_points=hand.card_points, first_dealer=first_dealer if first else None,
            scorer=scorer, actor=actor,
        )  # fmt: skip

    return in_sequence(t, match_id, hands, "hand", record)


def signatures(
    t: Tournament,
    match_id: str,
    events: list[NewEvent],
    actor: str | None,
    spelling: Spelling = OPTIONS,
) -> list[NewEvent]:
    """Both players sign with the entry that decides the match (``signed``)."""
    signed: list[NewEvent] = []
    for pid in t.matches[match_id].players:
        try:
            signed += c.sign_sheet(t, match_id, pid, actor=actor, new=events)
        except ConflictError as error:
            if error.rule != "T-sheet":
                raise
            raise ConflictError(
                "signed",
                "T-sheet",
                code="entry.goes_only_entry_decides",
                params={
                    "message": error.message,
                    "spelling": spelling("signed"),
                    "whole_sheet": spelling.whole_sheet,
                    "sign_later": spelling.sign_later,
                },
            ) from None
    return signed


def entry_outcome(t: Tournament, events: Sequence[ev.EventLike]) -> dict[str, Any]:
    """What an entry's ``events`` did, from them and the tournament ``t`` they were decided
    on: the results they hold, and where their match stands after them -- the Bummerl
    score (pairing order, a Schneiderbummerl counting 2, R19), decided, the winner. Made
    from the events alone, it reads the same when they are stored and when read back."""
    entered = [e for e in events if e.type in ENTRY_KINDS]
    match_id = entered[0].payload["match_id"]
    m = with_new(t.matches[match_id], events)
    s = m.summary
    return {
        "match_id": match_id,
        "result_ids": [e.payload["result_id"] for e in entered],
        "players": list(m.players),
        "bummerl": list(s.bummerl),
        "game_points": list(s.game_points),
        "decided": s.decided,
        "winner": m.winner,
        "forfeit": s.forfeit,
        "signed": [e.payload["player_id"] for e in events if e.type == ev.SHEET_SIGNED],
    }
