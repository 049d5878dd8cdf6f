"""Commands that enter results into a match: paper hands, Bummerl tallies, forfeits.

Paper and live results go into the same match; every one is checked against the match as
recorded so far (R13-R20) and refused with the hand and the rule named::

    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import paired
    >>> events = paired(players=2, best_of=1)
    >>> t = fold(events)
    >>> [e.type for e in record_hand(t, "1.1", winner=1, game_points=3, reason="claim")]
    ['result.hand_recorded']
    >>> record_hand(t, "1.1", winner=1, game_points=1, reason="false_claim")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: game_points: match 1.1, ... hand 1: ... (R15: ...
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypeVar

from tournament.domain.commands.registration import require_created
from tournament.domain.model import events as ev
from tournament.domain.model import handpoints as hp
from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.model.matchstate import Entry, MatchState
from tournament.domain.model.settings import Settings
from tournament.domain.model.state import ENTRY_KINDS, Tournament
from tournament.domain.model.tally import tally_hands, tally_payload
from tournament.domain.words.messages import Phrase, english
from tournament.eventstore.api import NewEvent

#: Why a hand ended, as a scoresheet may note it (``closed``: read as a claim, talon closed).
REASONS = hp.PAPER_REASONS

T = TypeVar("T")


def new_id() -> str:
    return uuid.uuid4().hex[:12]


def find_match(t: Tournament, match_id: str) -> MatchState:
    match = t.matches.get(match_id)
    if match is None:
        raise NotFoundError(
            "match",
            "T-match",
            code="results.there_match_round_table",
            params={"match_id": repr(match_id)},
        )
    return match


def takes_results(t: Tournament, match: MatchState) -> None:
    """Refuse a result or a live hand for a bracket match the bracket no longer has: never
    played (or its results voided), and no longer fitting its slot after a correction
    upstream (or its slot drawn again since), it is void (:func:`tournament.domain.
    knockout.vacated`); played in part and no longer fitting, it takes no more results
    until voided (T-correction)."""
    if not match.bracket:
        return
    from tournament.domain.standings.knockout import misfit_why, vacated_why

    if match.match_id in t.vacated():
        how = "it was never played" if not match.entries else "its results were voided"
        raise ConflictError(
            "match",
            "T-correction",
            code="results.match_takes_result_bracket",
            params={
                "match_id": match.match_id,
                "labels": " v ".join(match.labels),
                "how": how,
                "vacated_why": vacated_why(t, match),
            },
        )
    why = None if match.decided else misfit_why(t, match)
    if why is not None:  # played in part: nothing more goes into the wrong pairing
        raise ConflictError(
            "match",
            "T-correction",
            code="results.match_takes_more_results",
            params={"match_id": match.match_id, "labels": " v ".join(match.labels), "why": why},
        )


def player_in(match: MatchState, player_id: Any, field: str) -> int:
    if player_id not in match.players:
        a, b = match.labels
        raise DomainError(
            field,
            "T-match",
            code="matchstate.in_match",
            params={
                "match_id": match.match_id,
                "refusal": Phrase(
                    "results.player_does_not_play", {"player_id": player_id, "a": a, "b": b}
                ),
            },
        )
    return int(player_id)


def no_live_hand(t: Tournament, match: MatchState) -> None:
    """Refuse a new hand while a live hand of the match is dealt and not over: it holds the
    match's next place, and its dealer was fixed by the alternation (R18)."""
    stream = t.live_in_progress(match.match_id)
    if stream is None:
        return
    dealer = match.labels[match.engine.next_dealer or 0]
    raise ConflictError(
        "match",
        "R18",
        code="results.match_live_hand_dealt",
        params={
            "match_id": match.match_id,
            "next_place": match.next_place_phrase(),
            "stream": stream,
            "dealer": dealer,
        },
    )


def not_played_online(t: Tournament, match: MatchState) -> None:
    """Refuse a paper result for a match played online (T-online): its hands come from
    the table, also between two hands and while the last trick's winner may still claim
    (R16), until the organiser stops online play."""
    table = t.online.get(match.match_id)
    if table is not None and not table.stopped:
        raise ConflictError(
            "match", "T-online", code="results.match_played_online",
            params={"match_id": match.match_id},
        )  # fmt: skip


def hand_payload(
    settings: Settings,
    match: MatchState,
    winner: object,
    game_points: object,
    dealer: int | None = None,
    reason: str | None = None,
    card_points: Sequence[int] | None = None,
    *,
    closed: bool | None = False,
    place: str | None = None,
) -> dict[str, Any]:
    """The checked fields of one paper hand (without ids); raises with field and rule, and
    with the match and the hand: ``place`` (``Bummerl 2 hand 3``), by default the next."""
    try:
        return _hand_fields(
            settings, match, winner, game_points, dealer, reason, card_points, closed
        )
    except DomainError as error:
        raise at_place(error, match, place or match.next_place_phrase()) from None


def at_place(error: DomainError, match: MatchState, place: str | Phrase) -> DomainError:
    """``error`` naming the match and the place on its sheet (``Bummerl 2 hand 3``): the
    organiser holds the sheet and needs to know which line was refused."""
    head = f"match {match.match_id}"
    text = error.message.removeprefix(f"{head}: ")
    refusal: Phrase | str = text
    if error.code == "matchstate.in_match" and error.params.get("match_id") == match.match_id:
        inner = error.params["refusal"]  # the refusal without its "match ...: " head
        refusal = inner if isinstance(inner, Phrase) else str(inner)
    elif error.code is not None and text == error.message:
        refusal = Phrase(error.code, error.params)
    return type(error)(
        error.field,
        error.rule,
        code="results.at_place",
        params={"match_id": match.match_id, "place": place, "refusal": refusal},
    )


def _hand_fields(
    settings: Settings,
    match: MatchState,
    winner: object,
    game_points: object,
    dealer: int | None,
    reason: str | None,
    card_points: Sequence[int] | None,
    closed: bool | None,
) -> dict[str, Any]:
    player_in(match, winner, "winner")
    if type(game_points) is not int or not 1 <= game_points <= 3:
        raise DomainError(
            "game_points",
            "R13",
            code="results.hand_gives_game_points",
            params={"game_points": repr(game_points)},
        )
    payload: dict[str, Any] = {"winner": winner, "game_points": game_points}
    if dealer is not None:
        payload["dealer"] = player_in(match, dealer, "dealer")
    if reason is not None and reason not in hp.PAPER_REASONS:
        raise DomainError(
            "reason",
            "T-result",
            code="results.reason_one",
            params={"paper_reasons": ", ".join(hp.PAPER_REASONS), "reason": repr(reason)},
        )
    reason, closed = hp.reason_and_closed(reason, closed)
    if card_points is not None:
        points = hp.check_card_points(list(card_points))
        payload["card_points"] = points
    if reason is not None:
        payload["reason"] = reason
        _check_game_points(settings, match, payload, closed)
    if closed:
        payload["closed"] = True
    return payload


#: How the game-point refusals describe a hand, per reason.
_HANDS = {
    "claim": "a correct claim",
    "false_claim": "a false claim",
    "closer_failed": "a failed close",
    "last_trick": "a hand won by the last trick",
}


def _check_game_points(
    settings: Settings, match: MatchState, payload: dict[str, Any], closed: bool | None
) -> None:
    """The game points against what the reason and the card points give (R13-R16)."""
    reason, gp = payload["reason"], payload["game_points"]
    mirror = "false-claim-mirror" in settings.variants
    what = _HANDS[reason] + (
        " with the talon closed" if closed and reason != "closer_failed" else ""
    )
    points = payload.get("card_points")
    if points is None:
        ok = hp.without_points(reason, closed, mirror)
    else:
        seat = match.seat_of(payload["winner"])
        won, lost = points[seat], points[1 - seat]
        ok = hp.allowed(reason, closed, won=won, lost=lost, mirror=mirror)
        what += {
            "claim": f" against {lost} points",
            "false_claim": f" with {lost} points against {won}",
            "closer_failed": f" against {won} points",
            "last_trick": "",
        }[reason]
    if gp not in ok.points:
        why = f"{ok.rule}: {ok.why}" if ok.why else ok.rule
        unit = "game point" if ok.points == (1,) else "game points"
        raise DomainError(
            "game_points",
            ok.rule,
            code="results.hand_worth",
            params={"what": what, "words": hp.words(ok.points), "unit": unit, "why": why, "gp": gp},
        )


def _first_dealer_events(
    match: MatchState, first_dealer: int | None, dealer: int | None, actor: str | None
) -> tuple[list[NewEvent], int | None]:
    """``match.first_dealer_set`` when the first dealer becomes known with this entry: given
    outright, or (nothing entered yet) the dealer of the match's first hand."""
    if match.first_dealer is not None:
        if first_dealer is not None and match.players[match.first_dealer] != first_dealer:
            raise ConflictError(
                "first_dealer",
                "R18",
                code="matchstate.in_match",
                params={
                    "match_id": match.match_id,
                    "refusal": Phrase(
                        "results.deals_first", {"label": match.labels[match.first_dealer]}
                    ),
                },
            )
        return [], None
    if first_dealer is None and dealer is not None and not match.entries:
        first_dealer = dealer
    if first_dealer is None:
        return [], None
    seat = match.seat_of(player_in(match, first_dealer, "first_dealer"))
    event = ev.make_event(
        ev.FIRST_DEALER_SET, {"match_id": match.match_id, "player_id": first_dealer}, actor=actor
    )
    return [event], seat


def _check(match: MatchState, entry: Entry, first_dealer_seat: int | None) -> None:
    """Check ``entry`` against the match, with the first dealer this command sets, if any."""
    if first_dealer_seat is not None:
        match = match.trial(match.entries, first_dealer=first_dealer_seat)
    match.check_new(entry)


def record_hand(
    t: Tournament,
    match_id: str,
    *,
    winner: int,
    game_points: int,
    dealer: int | None = None,
    reason: str | None = None,
    card_points: Sequence[int] | None = None,
    closed: bool = False,
    first_dealer: int | None = None,
    scorer: int | None = None,
    result_id: str | None = None,
    actor: str | None = None,
    source: str = "paper",
) -> list[NewEvent]:
    """One paper hand: the winner (player id), its game points and optionally the dealer,
    the reason, the card points (R11 points, pairing order) and whether the talon was
    closed; the game points must be what they give (:mod:`~tournament.domain.model.handpoints`).
    Refused after the Bummerl or match is over (R17, R20)
    or when the dealer breaks the alternation (R18)."""
    settings = require_created(t)
    match = find_match(t, match_id)
    not_played_online(t, match)
    no_live_hand(t, match)
    takes_results(t, match)
    fields = hand_payload(
        settings, match, winner, game_points, dealer, reason, card_points, closed=closed
    )
    try:
        pre, seat = _first_dealer_events(match, first_dealer, dealer, actor)
        if scorer is not None:
            fields["scorer"] = player_in(match, scorer, "scorer")
    except DomainError as error:
        raise at_place(error, match, match.next_place_phrase()) from None
    payload = {"result_id": result_id or new_id(), "match_id": match_id, **fields}
    _check(match, Entry(payload["result_id"], "hand", payload), seat)
    return [*pre, ev.make_event(ev.HAND_RECORDED, payload, actor=actor, source=source)]


def tally_fields(
    match: MatchState, tally: str | Mapping[str, Any], order: Sequence[int] | None
) -> dict[str, Any]:
    """A tally in the match's seat order: ``order`` names the players of the two columns
    (or the two counts of each row) when they are not written in the pairing's order."""
    labels = match.labels
    if order is not None and list(order) == list(match.players)[::-1]:
        labels = labels[::-1]  # the text's columns are in the sheet's order
    if isinstance(tally, str):
        data: dict[str, Any] = tally_payload(tally, labels)
    else:
        data = {k: [list(map(int, x)) for x in v] for k, v in tally.items()}
    if order is not None:
        if sorted(order) != sorted(match.players):
            raise DomainError(
                "players",
                "T-tally",
                code="results.columns_belong",
                params={"label": match.labels[0], "label2": match.labels[1]},
            )
        if list(order) != list(match.players):
            if "columns" in data:
                data["columns"] = data["columns"][::-1]
            else:
                data["rows"] = [row[::-1] for row in data["rows"]]
    tally_hands(data, match.labels)
    return data


def record_tally(
    t: Tournament,
    match_id: str,
    tally: str | Mapping[str, Any],
    *,
    order: Sequence[int] | None = None,
    scorer: int | None = None,
    first_dealer: int | None = None,
    result_id: str | None = None,
    actor: str | None = None,
    source: str = "paper",
) -> list[NewEvent]:
    """A whole Bummerl as the scoresheet tallies it (see :mod:`tournament.domain.model.tally`)."""
    require_created(t)
    match = find_match(t, match_id)
    not_played_online(t, match)
    no_live_hand(t, match)
    takes_results(t, match)
    try:
        fields: dict[str, Any] = {"tally": tally_fields(match, tally, order)}
        if scorer is not None:
            fields["scorer"] = player_in(match, scorer, "scorer")
        pre, seat = _first_dealer_events(match, first_dealer, None, actor)
    except DomainError as error:
        # A tally is a whole Bummerl: its own messages name the hand of the sheet. A
        # decided match opens no next Bummerl, so this one is after its last (the browser
        # trial saw the box of Bummerl 2 after a Schneider 2:0 named "Bummerl 1").
        engine = match.engine
        number = len(engine.bummerls) + (1 if engine.is_decided else 0)
        bummerl = Phrase("results.bummerl", {"bummerl": number})
        raise at_place(error, match, bummerl) from None
    payload: dict[str, Any] = {"result_id": result_id or new_id(), "match_id": match_id, **fields}
    _check(match, Entry(payload["result_id"], "tally", payload), seat)
    return [*pre, ev.make_event(ev.TALLY_RECORDED, payload, actor=actor, source=source)]


def record_tallies(
    t: Tournament,
    match_id: str,
    tallies: Sequence[str | Mapping[str, Any]],
    *,
    scorer: int | None = None,
    first_dealer: int | None = None,
    actor: str | None = None,
    source: str = "paper",
) -> list[NewEvent]:
    """The sheet's Bummerl in order (Bummerl 1, 2, 3 of a best of 5 ...), as one action:
    each tally is checked against the match as it would be after the ones before it, so
    its messages name its own Bummerl; the first dealer goes with the first. One bad tally
    refuses them all, naming which of them it is."""
    return in_sequence(
        t,
        match_id,
        tallies,
        "tally",
        lambda trial, tally, first: record_tally(
            trial, match_id, tally, scorer=scorer, actor=actor, source=source,
            first_dealer=first_dealer if first else None,
        ),
    )  # fmt: skip


def in_sequence(
    t: Tournament,
    match_id: str,
    items: Sequence[T],
    what: Literal["tally", "hand"],
    record: Callable[[Tournament, T, bool], list[NewEvent]],
) -> list[NewEvent]:
    """The events of ``record(state, item, is_first)`` for each item of one match in
    order, as one action: each is decided on the match as it would be after the ones
    before it. One refused item refuses them all, naming which (``tally 2 of 3: ...``)."""
    out: list[NewEvent] = []
    trial = t
    for number, item in enumerate(items, 1):
        try:
            out += record(trial, item, number == 1)
        except DomainError as error:
            if len(items) == 1:
                raise
            # The inner refusal keeps its code, so a page says the whole line in its
            # reader's language (P4: "tally 2 of 2: ..." was English on German pages).
            inner: Phrase | str = error.message
            if error.code is not None and error.message == english(error.code, error.params):
                inner = Phrase(error.code, error.params)
            raise type(error)(
                error.field,
                error.rule,
                code="results.tally_of" if what == "tally" else "results.hand_of",
                params={"number": number, "count": len(items), "refusal": inner},
            ) from None
        if number < len(items):  # (after the last one no trial is needed)
            trial = copy.copy(t)  # the same tournament, with this match as it would be
            trial.matches = {**t.matches, match_id: with_new(t.matches[match_id], out)}
    return out


def forfeit_payload(
    settings: Settings, match_id: str, winner: int | None, reason: str
) -> dict[str, Any]:
    return {
        "result_id": new_id(),
        "match_id": match_id,
        "winner": winner,
        "reason": reason,
        "score": list(settings.forfeit_score),
    }


def record_forfeit(
    t: Tournament,
    match_id: str,
    *,
    winner: int | None,
    reason: str = "no_show",
    actor: str | None = None,
) -> list[NewEvent]:
    """A forfeit or no-show, scored as the tournament's ``forfeit_score`` (e.g. 2:0 Bummerl);
    ``winner=None`` when both players are absent (a loss for each): not in a knockout
    bracket, whose every match sends a winner on (T-match)."""
    settings = require_created(t)
    match = find_match(t, match_id)
    takes_results(t, match)
    if winner is not None:
        player_in(match, winner, "winner")
    elif match.bracket:
        raise DomainError(
            "winner",
            "T-match",
            code="results.match_knockout_match_needs",
            params={"match_id": match.match_id, "labels": " v ".join(match.labels)},
        )
    payload = forfeit_payload(settings, match_id, winner, reason)
    match.check_new(Entry(payload["result_id"], "forfeit", payload))
    return [ev.make_event(ev.MATCH_FORFEITED, payload, actor=actor)]


def with_new(match: MatchState, new: Sequence[ev.EventLike]) -> MatchState:
    """The match as it would be with the result events ``new`` appended."""
    entries = list(match.entries)
    first = match.first_dealer
    for e in new:
        if e.type == ev.FIRST_DEALER_SET:
            first = match.seat_of(e.payload["player_id"])
        elif e.type in ENTRY_KINDS:
            entries.append(Entry(e.payload["result_id"], ENTRY_KINDS[e.type], dict(e.payload)))
    return match.trial(entries, first_dealer=first)
