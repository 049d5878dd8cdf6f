"""Starting a round: the format's draw (or the organiser's own pairings), tables, dealers.

``start_round`` records the whole draw -- pairings, tables, first dealers, byes and the
seed it was drawn with -- so the tables can be printed again and anybody can re-run the
draw from the seed and get the same result. Matches are compact rows ``[match_id, table,
a, b, first_dealer]`` (see :data:`events.MatchRow`); ``round.started`` lists as many as
fit in about 40 KB and one ``round.tables_listed`` event each further part, all
appended together (a round of 4,096 players is two or three events). The round that
draws a knockout bracket records its layout (:func:`knockout.layout`) in ``info.bracket``,
its rows split over the same events (``"bracket"`` in ``round.tables_listed``).

    >>> from tournament.domain.testing import registered
    >>> from tournament.domain.model.state import fold
    >>> t = fold(registered(players=5, format="swiss", seed=11))
    >>> event = start_round(t)[0]
    >>> event.payload["matches"], event.payload["byes"], event.payload["match_count"]
    ([['1.1', 1, 1, 3, 1], ['1.2', 2, 2, 4, 4]], [5], 2)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from tournament.domain.commands.registration import player, require_created
from tournament.domain.commands.results import forfeit_payload
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.model.state import Tournament
from tournament.domain.standings import standings
from tournament.domain.standings.field import seed_order
from tournament.domain.standings.lives import lives_now
from tournament.domain.standings.pairing import (
    Draw,
    eligible,
    frozen,
    games,
    next_draw,
    round_seed,
    slot_match_id,
    withdrawn,
)
from tournament.domain.standings.pairing import byes as bye_history
from tournament.domain.standings.progress import draw_refusal_phrase
from tournament.domain.words.messages import Phrase, english
from tournament.eventstore.api import NewEvent
from tournament.formats import model as fm
from tournament.formats.model import FormatError
from tournament.formats.override import check_override
from tournament.formats.tables import assign_tables, draw_first_dealer


def start_round(
    t: Tournament,
    *,
    seed: int | None = None,
    pairings: Sequence[tuple[int, int]] | None = None,
    byes: Sequence[int] = (),
    fixed_tables: Mapping[int, int] | None = None,
    actor: str | None = None,
) -> list[NewEvent]:
    """Draw and record the next round. ``pairings`` (player ids, first listed sits as
    player A) overrides the format's draw: it is recorded with a warning for every format
    rule it breaks. ``fixed_tables`` pins players to tables (e.g. accessibility)."""
    settings = require_created(t)
    # Never over an open match of any round: one a correction reopened, or a result entered
    # in an earlier round, would change who should have met whom (T-round).
    refusal = draw_refusal_phrase(t)
    if refusal is not None:
        raise ConflictError("round", "T-round", code=refusal.code, params=refusal.params)
    if len(eligible(t)) < 2:
        if t.current_round:
            raise ConflictError("round", "T-round", code="rounds.tournament_finished_fewer_players")
        raise ConflictError("round", "T-round", code="rounds.round_needs_least_players")
    number = t.current_round + 1
    if seed is None:  # a round drawn again after a cancellation gets a fresh seed
        seed = round_seed(settings.seed, number, redraw=len(t.cancellations))
    fixed = {str(k): v for k, v in (fixed_tables or {}).items()}
    try:
        if pairings is None:
            draw = next_draw(t, number, seed, fixed)
        else:
            draw = manual_draw(t, number, pairings, byes, fixed)
    except FormatError as error:
        raise DomainError(
            error.field, "T-format", error.message, code=error.code, params=error.params
        ) from None
    return _events(t, number, seed, draw, override=pairings is not None, actor=actor)


def cancel_round(
    t: Tournament, *, why: str, by: str | None = None, actor: str | None = None
) -> list[NewEvent]:
    """Cancel the latest round so that it can be drawn again (T-round): only while nothing
    has been played or recorded in it -- no result, signature, live hand or forfeit (the
    walkovers its own draw recorded for withdrawn players excepted). The fold then treats
    the round as never drawn; the next ``start_round`` draws it again with a fresh seed.

    >>> from tournament.domain.testing import registered
    >>> from tournament.domain.model.state import fold
    >>> events = registered(players=4, format="swiss", seed=11)
    >>> events += start_round(fold(events))
    >>> events += cancel_round(fold(events), why="late arrival", by="anna")
    >>> t = fold(events)
    >>> t.current_round, t.cancellations[0]["round"], t.matches
    (0, 1, {})
    """
    require_created(t)
    if not t.current_round:
        raise NotFoundError("round", "T-round", code="rounds.round_been_drawn_yet")
    if not why.strip():
        raise DomainError("why", "T-round", code="rounds.say_why_round_cancelled")
    r = t.rounds[-1]
    live = set(t.live_hands.values())
    corrected = {c.get("result_id") for c in t.corrections}
    for mid in r.matches:
        match = t.matches[mid]
        walkover = match.table == 0 and all(  # table 0: a walkover the draw recorded
            e.kind == "forfeit" and e.result_id not in corrected for e in match.entries
        )
        found: Phrase | None = None
        if mid in live:
            found = Phrase("rounds.found_live_hand")
        elif match.signed_by or match.void_signatures:
            found = Phrase("rounds.found_signed_sheet")
        elif match.entries and not walkover:
            found = _FOUND[match.entries[0].kind]
        if found is not None:
            raise ConflictError(
                "round",
                "T-round",
                code="rounds.round_cannot_cancelled_match",
                params={"number": r.number, "mid": mid, "found": found},
            )
    payload = {"round": r.number, "why": why.strip(), "cancellation": len(t.cancellations) + 1}
    if by:
        payload["by"] = by
    return [ev.make_event(ev.ROUND_CANCELLED, payload, actor=actor)]


def _events(
    t: Tournament, number: int, seed: int, draw: Draw, *, override: bool, actor: str | None
) -> list[NewEvent]:
    settings = t.settings
    assert settings is not None
    seed_rank = {str(p): i for i, p in enumerate(seed_order(t))}
    # A knockout's "higher seed" is the bracket's seed (groups -> knockout: by group result).
    bracket_seeds = draw.info.get("seeds") or frozen(t, "seeds") or ()
    ko_rank = {str(p): i for i, p in enumerate(bracket_seeds)} or seed_rank
    rows = [
        _row(settings.first_dealer, number, seed, ko_rank, p, slot_match_id(t, p.match_id))
        if p.match_id
        else _row(settings.first_dealer, number, seed, seed_rank, p)
        for p in draw.pairing.pairings
    ]
    forfeits = []
    for k, w in enumerate(draw.pairing.walkovers, 1):
        if w.match_id:  # a bracket match: its slot, as a drawn match would be
            match_id = slot_match_id(t, w.match_id)
            slot: list[Any] = [True if match_id == w.match_id else w.match_id]
        else:
            match_id, slot = f"{number}.w{k}", []
        rows.append([match_id, 0, int(w.winner), int(w.forfeited_by), None, *slot])
        forfeits.append(
            ev.make_event(
                ev.MATCH_FORFEITED,
                forfeit_payload(settings, match_id, int(w.winner), "withdrawal"),
                actor=actor,
                source=ev.SYSTEM,  # a walkover: nobody entered it
            )
        )
    payload: dict[str, Any] = {
        "round": number,
        "seed": seed,
        "stage": draw.stage,
        "byes": [int(b) for b in draw.pairing.byes],
        "match_count": len(rows),
    }
    if draw.pairing.idle:
        payload["idle"] = [int(p) for p in draw.pairing.idle]
    layout_rows: list[Any] = []
    if draw.info:
        payload["info"] = dict(draw.info)
        if "bracket" in draw.info:  # the bracket's layout, rows split like the matches'
            layout_rows = list(draw.info["bracket"]["matches"])
            payload["info"]["bracket"] = {**draw.info["bracket"], "matches": []}
    if override:
        payload["override"] = True
    if draw.warnings:
        payload["warnings"] = list(draw.warnings)
    tagged = [("matches", r) for r in rows] + [("bracket", r) for r in layout_rows]
    first, *rest = [
        {key: [r for k, r in part if k == key] for key in ("matches", "bracket")}
        for part in split_rows(tagged, PART_BYTES - _size(payload), size=lambda t: _size(t[1]))
    ]
    # The format's draw is the service's work; pairings the organiser typed are not.
    source = ev.PAPER if override else ev.SYSTEM
    if first["bracket"]:
        payload["info"]["bracket"]["matches"] = first["bracket"]
    started = ev.make_event(
        ev.ROUND_STARTED, {**payload, "matches": first["matches"]}, actor=actor, source=source
    )
    listed = [
        ev.make_event(
            ev.ROUND_TABLES,
            {"round": number, "matches": part["matches"]}
            | ({"bracket": part["bracket"]} if part["bracket"] else {}),
            actor=actor,
            source=source,
        )
        for part in rest
    ]
    return [started, *listed, *forfeits]


#: Bytes of JSON per round event the draw aims for: far enough under the store's 64 KB
#: payload limit that a big header (4,096 seeds) and rows of long ids still fit.
PART_BYTES = 40 * 1024


def _row(
    rule: str,
    number: int,
    seed: int,
    seed_rank: Mapping[str, int],
    p: fm.Pairing,
    match_id: str | None = None,
) -> ev.MatchRow:
    """One drawn table as a row (events.MatchRow), with its first dealer by ``rule``
    (R18: who deals the first hand): ``higher_seed`` the better of ``seed_rank``,
    ``seeded_draw`` a draw per match from the round's seed, ``as_entered`` nobody yet (set
    with the first result), ``balanced`` the format's own rule (``p.first_dealer``). A
    first dealer the format fixes (a grand-final reset: the other player than in GF1)
    stands under every rule. ``match_id`` of a bracket slot drawn again (``R4-1b``), else
    the slot or round.table."""
    match_id = match_id or p.match_id or f"{number}.{p.table}"
    if p.first_dealer_fixed:
        dealer: str | None = p.first_dealer
    elif rule == "higher_seed":
        dealer = min(p.players, key=seed_rank.__getitem__)
    elif rule == "seeded_draw":
        dealer = draw_first_dealer(p.player_a, p.player_b, seed, match_id)
    elif rule == "as_entered":
        dealer = None
    else:
        dealer = p.first_dealer
    first = None if dealer is None else int(dealer)
    row = [match_id, p.table, int(p.player_a), int(p.player_b), first]
    if not p.match_id:
        return row
    return [*row, True if match_id == p.match_id else p.match_id]


Row = TypeVar("Row")


def split_rows(
    rows: Sequence[Row], first: int, size: Callable[[Row], int] | None = None
) -> list[list[Row]]:
    """``rows`` in parts of about :data:`PART_BYTES` of JSON (the first part ``first``
    bytes, what the round's header leaves); always at least one part, maybe empty.
    ``size`` measures a row (default: its JSON)."""
    measure = size or _size
    parts: list[list[Row]] = [[]]
    room = first
    for row in rows:
        size_ = measure(row) + 1
        if parts[-1] and size_ > room:
            parts.append([])
            room = PART_BYTES
        parts[-1].append(row)
        room -= size_
    return parts


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def manual_draw(
    t: Tournament,
    number: int,
    pairings: Sequence[tuple[int, int]],
    byes: Sequence[int],
    fixed: Mapping[str, int],
) -> Draw:
    """The organiser's pairings: impossible ones are refused, format rules broken are warned."""
    seen: set[int] = set()
    for i, pair in enumerate(pairings, 1):
        if len(pair) != 2 or pair[0] == pair[1]:
            raise DomainError(
                "pairings",
                "T-override",
                code="rounds.pairing_two_different_players",
                params={"i": i, "pair": repr(pair)},
            )
        for pid in pair:
            player(t, pid, "pairings")
            if pid in seen:
                raise DomainError(
                    "pairings",
                    "T-override",
                    code="rounds.player_paired_twice_round",
                    params={"pid": pid, "number": number},
                )
            seen.add(pid)
    for pid in byes:
        player(t, pid, "byes")
        if pid in seen:
            raise DomainError(
                "byes", "T-override", code="rounds.player_plays_bye", params={"pid": pid}
            )
        seen.add(pid)
    warnings = override_warnings(t, number, pairings, byes)
    seed_rank = {p: i for i, p in enumerate(seed_order(t))}
    tables = assign_tables(
        [(str(a), str(b), str(min((a, b), key=seed_rank.__getitem__))) for a, b in pairings], fixed
    )
    return Draw(
        fm.RoundPairing(number, tables, tuple(str(b) for b in byes)),
        english("stage.manual", {}),
        {},
        tuple(warnings),
    )


#: What a match of a round already has that keeps the round from being cancelled, by the
#: kind of its first result.
_FOUND: dict[str, Phrase] = {
    "hand": Phrase("rounds.found_hand_result"),
    "tally": Phrase("rounds.found_tally_result"),
    "live": Phrase("rounds.found_live_result"),
    "forfeit": Phrase("rounds.found_forfeit_result"),
}


def override_warnings(
    t: Tournament, number: int, pairings: Sequence[tuple[int, int]], byes: Sequence[int]
) -> list[str]:
    """Format rules a manual pairing breaks (it stands, with these warnings)."""
    settings = t.settings
    assert settings is not None
    manual = fm.RoundPairing(
        number,
        assign_tables([(str(a), str(b), str(a)) for a, b in pairings]),
        tuple(str(b) for b in byes),
    )
    active = [str(p) for p in eligible(t)]
    eliminated: list[str] = []
    if settings.format == "swiss" and t.rounds:
        order = {r.player_id: i for i, r in enumerate(standings(t))}
        active.sort(key=lambda p: order[int(p)])
    if settings.format == "lives" and t.rounds:
        state = lives_now(t, number)
        eliminated = [p for p, left in state.lives.items() if left <= 0]
        active = [p for p in active if p not in set(eliminated)]
    found = check_override(
        manual,
        active=active,
        games=games(t),
        byes=bye_history(t),
        withdrawn=withdrawn(t),
        eliminated=eliminated,
        bye_rule="lowest" if settings.format == "swiss" else "fewest",
    )
    warnings = [f"{w.code}: {w.message}" for w in found]
    beyond = _beyond_the_format(t, number)
    return [beyond, *warnings] if beyond else warnings


def _beyond_the_format(t: Tournament, number: int) -> str | None:
    """Why the format would draw no round ``number`` (all its rounds drawn, the final
    played), as a warning for a manual round beyond them; None when it would draw one."""
    settings = t.settings
    assert settings is not None
    try:
        next_draw(t, number, round_seed(settings.seed, number), {})
    except ConflictError as error:
        if error.rule == "T-round":
            return english("warning.beyond_format", {"number": number, "refusal": error.message})
    except (DomainError, FormatError):
        pass  # the format could not draw it for another reason: not a round too many
    return None
