"""Knockout brackets read off the folded tournament, and their draws: single and double
elimination and the knockout of groups -> knockout.

The bracket is laid out by the round that draws it and recorded in that round
(:func:`layout`), then read back from the events, never rebuilt (:func:`bracket_of`). A
recorded match keeps its players for good; one that no longer fits its slot after a
correction upstream holds the slot until the organiser voids it (:func:`bracket_view`),
unless it was never played: then it is void by itself (:func:`vacated`).
Each draw also records the bracket byes and walkovers that have come up, so that they
score like a bye and a forfeit win (docs/standings.md), and :func:`knockout_places` gives
the standings their bracket places.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from tournament.domain.model.errors import ConflictError
from tournament.domain.model.matchstate import MatchState
from tournament.domain.model.settings import Settings
from tournament.domain.model.state import Tournament
from tournament.domain.standings import Row, standings
from tournament.domain.standings.field import (
    Draw,
    eligible,
    frozen,
    seed_order,
    withdrawal_policies,
    withdrawn,
)
from tournament.domain.standings.tiebreaks import GROUP_FREE
from tournament.domain.words.messages import Param, english
from tournament.formats import model as fm
from tournament.formats.bracket import (
    Bracket,
    BracketResult,
    BracketState,
    LoserOf,
    Source,
    WinnerOf,
    bracket_state,
    from_layout,
    layout_rows,
    placements,
    ready_pairings,
    unscored_byes_and_walkovers,
)
from tournament.formats.bracket import MatchState as BracketSlot
from tournament.formats.double_elim import double_elimination
from tournament.formats.groups import knockout_from_groups
from tournament.formats.single_elim import single_elimination


def layout(bracket: Bracket) -> dict[str, Any]:
    """The bracket as the round that draws it records it (``info["bracket"]``): its kind,
    finals and every match as a row (:data:`tournament.formats.bracket.LayoutRow`); the
    seeds in order are ``info["seeds"]``. ``count`` says how many rows there are in all:
    a big bracket's rows continue in the round's ``round.tables_listed`` events."""
    rows = layout_rows(bracket)
    return {
        "kind": bracket.kind,
        "finals": list(bracket.final_ids),
        "count": len(rows),
        "matches": rows,
    }


def bracket_of(t: Tournament) -> Bracket | None:
    """The knockout bracket of the tournament, once its first knockout round is drawn.

    Read from the layout its first knockout round recorded, never recomputed: a later
    change to the seeding or bracket code cannot change a bracket already drawn. Rounds
    recorded before layouts were (no ``bracket`` in their info) are rebuilt from the
    recorded seeds (or group tables) by the bracket code, as they always were."""
    s = t.settings
    seeds = frozen(t, "seeds")
    if s is None or seeds is None:
        return None
    recorded = frozen(t, "bracket")
    if recorded is not None:
        if len(recorded["matches"]) < recorded["count"]:
            return None  # folded only up to part of the round's events (--as-of)
        return from_layout(recorded["kind"], seeds, recorded["matches"], recorded["finals"])
    if s.format == "double_elimination":
        return double_elimination(seeds, grand_final_reset=s.options.get("grand_final_reset", True))
    if s.format == "groups_knockout":
        return knockout_from_groups(
            frozen(t, "ko_groups"),
            s.options.get("advance", 2),
            records=frozen(t, "ko_records"),  # None before records were kept: group order
            third_place=s.options.get("third_place", False),
        )
    return single_elimination(seeds, third_place=s.options.get("third_place", False))


def slot_holders(t: Tournament) -> dict[str, MatchState]:
    """Per bracket slot, the recorded match that holds it: the latest drawn for the slot
    that is not vacated (:func:`vacated`: never played or voided, and no longer the
    bracket's). A match whose every result was voided but that still fits its slot holds
    it, open: its result is entered again."""
    gone = t.vacated()
    return {slot: m for slot, m in latest_drawn(t).items() if m.match_id not in gone}


def latest_drawn(t: Tournament) -> dict[str, MatchState]:
    """Per bracket slot, the latest match drawn for it."""
    latest: dict[str, MatchState] = {}
    for m in t.matches.values():  # in draw order: a redraw comes after what it replaces
        slot = m.bracket.get("id")
        if slot:
            latest[slot] = m
    return latest


def _fits(slot: BracketSlot, match: MatchState) -> bool:
    return {str(p) for p in match.players} == set(slot.players)


def unplayed(t: Tournament, m: MatchState) -> bool:
    """Nothing was recorded in match ``m``: no result entered (a voided one counts as
    entered: it is the organiser's void) and no live hand dealt and not over."""
    return not m.entries and t.live_in_progress(m.match_id) is None


#: The bracket as it stands, the misfits that were played (per slot), the vacated matches.
View = tuple[BracketState, dict[str, MatchState], dict[str, MatchState]]


def _view(t: Tournament) -> View | None:
    """The bracket as it stands, the recorded matches that no longer fit it (per slot) and
    the vacated ones (per match id): the two kinds of misfit, played and never played.
    Worked out once per state (:meth:`Tournament.derived`): every view of a knockout and
    every result entered in one asks for it, some once per match."""
    return t.derived("bracket_view", lambda: _work_out_view(t))


def _work_out_view(t: Tournament) -> View | None:
    bracket = bracket_of(t)
    if bracket is None:
        return None
    latest = latest_drawn(t)
    misfits: dict[str, MatchState] = {}
    while True:  # a misfit's result is dropped, which may unseat matches after it
        results = [
            BracketResult(slot, str(m.winner))
            for slot, m in latest.items()
            if slot not in misfits and m.winner is not None
        ]
        state = bracket_state(bracket, results, withdrawn(t))
        new = {
            slot: m
            for slot, m in latest.items()
            if slot not in misfits and not _fits(state.matches[slot], m)
        }
        if not new:
            break
        misfits.update(new)
    gone = {
        m.match_id: m
        for m in t.matches.values()
        if (slot := m.bracket.get("id"))
        and (unplayed(t, m) or m.void)
        and (latest.get(slot) is not m or slot in misfits)
    }
    played = {slot: m for slot, m in misfits.items() if m.match_id not in gone}
    return state, played, gone


def bracket_view(t: Tournament) -> tuple[BracketState, dict[str, MatchState]] | None:
    """The bracket as it stands and the recorded matches that no longer fit it, per slot.

    A recorded match keeps its players and results for good (they are events). When a
    correction upstream changes who should play a slot, the match recorded there no longer
    fits: its result does not advance anybody, and the slots after it wait, until the
    organiser voids it (then the slot is drawn again under a new match id). A match that
    no longer fits and was never played is not one of them: it is vacated (:func:`vacated`)."""
    view = _view(t)
    return None if view is None else view[:2]


def vacated(t: Tournament) -> dict[str, MatchState]:
    """Recorded bracket matches, by match id, that were never played (:func:`unplayed`)
    or whose every result was voided, and that the bracket no longer has: they no longer
    fit their slot after a correction upstream, or their slot was drawn again since. Such
    a match is void (by itself, when nothing was entered): it frees its slot, keeps no
    round open and takes no result. Derived, never recorded: undo the correction before
    the redraw and the match fits, and is played, again. A voided match that still fits
    its slot is not vacated: it is open, and its result is entered again."""
    view = _view(t)
    return {} if view is None else view[2]


def vacated_why(t: Tournament, m: MatchState) -> str:
    """Why vacated match ``m`` takes nothing, and what becomes of its slot, in words:
    ``the bracket now gives Anna (1) v Carla (3) there; `tournament round start` draws the
    slot again (as R2-1b)``."""
    slot = str(m.bracket["id"])
    if again := _drawn_again(t, m):
        return f"its slot {slot} was drawn again as {again}"
    view, bracket = _view(t), bracket_of(t)
    assert view is not None and bracket is not None  # a vacated match is a bracket's
    now, where = view[0].matches[slot], bracket.match(slot)
    if now.status == "not_needed":
        return "the grand-final reset is not needed any more (nothing is drawn there)"
    sides = [
        _side(t, now.player_a, where.source_a),
        _side(t, now.player_b, where.source_b),
    ]
    once = "" if now.status == "ready" else ", once its players are known"
    return (
        f"the bracket now gives {' v '.join(sides)} there; `tournament round start` draws "
        f"the slot again{once} (as {slot_match_id(t, slot)})"
    )


def void_note(t: Tournament, m: MatchState) -> str:
    """Vacated match ``m`` in a few words, for a line that lists it among others (a
    round's tables, a player's rounds): ``void after a correction: the slot is drawn again
    as R2-1b`` (``was drawn again`` once it was)."""
    if again := _drawn_again(t, m):
        return f"void after a correction: the slot was drawn again as {again}"
    return f"void after a correction: {_slot_next(t, str(m.bracket['id']))}"


def _drawn_again(t: Tournament, m: MatchState) -> str | None:
    """The id of the match drawn for ``m``'s slot since, if it was."""
    latest = latest_drawn(t).get(str(m.bracket["id"]))
    return None if latest is None or latest is m else latest.match_id


def _slot_next(t: Tournament, slot: str) -> str:
    """What becomes of a freed bracket slot: drawn again (now, or once its players are
    known), or, a grand-final reset the bracket no longer needs, nothing."""
    view = _view(t)
    status = None if view is None else view[0].matches[slot].status
    if status == "not_needed":
        return "the grand-final reset is not needed any more"
    when = "" if status == "ready" else " once its players are known"
    return f"the slot is drawn again{when} as {slot_match_id(t, slot)}"


def _side(t: Tournament, player: str | None, source: Source) -> str:
    """One player of a bracket slot, or while not known where it comes from."""
    if player is not None:
        return t.label(int(player))
    if isinstance(source, WinnerOf | LoserOf):
        kind = "winner" if isinstance(source, WinnerOf) else "loser"
        return f"the {kind} of {source.match_id}"
    return "?"


def bracket_results(t: Tournament) -> list[BracketResult]:
    """The winners of the recorded bracket matches that fit the bracket as it stands."""
    view = bracket_view(t)
    if view is None:
        return []
    state, _ = view
    done = [s for s in state.matches.values() if s.status == "done"]
    return [BracketResult(s.match_id, s.winner) for s in done if s.winner is not None]


def slot_match_id(t: Tournament, slot: str) -> str:
    """A new match id for a bracket slot: the slot itself, or once that id is taken (the
    slot drawn again after a correction) ``R4-1b``, ``R4-1c``, ...: ids are never reused."""
    if slot not in t.matches:
        return slot
    for letter in "bcdefghijklmnopqrstuvwxyz":
        if f"{slot}{letter}" not in t.matches:
            return f"{slot}{letter}"
    raise ConflictError(
        "round", "T-round", code="knockout.bracket_slot_drawn_times", params={"slot": slot}
    )


def knockout_draw(
    t: Tournament, s: Settings, number: int, seed: int, fixed: Mapping[str, int]
) -> Draw:
    """The next round of a single or double elimination: round 1 lays out the bracket
    from the seeds (``info.seeds``, ``info.bracket``), every round draws what is ready."""
    info: dict[str, Any] = {}
    bracket = bracket_of(t)
    if bracket is None:
        seeds = [str(p) for p in seed_order(t) if p in set(eligible(t))]
        info["seeds"] = seeds
        if s.format == "double_elimination":
            bracket = double_elimination(
                seeds, grand_final_reset=s.options.get("grand_final_reset", True)
            )
        else:
            bracket = single_elimination(seeds, third_place=s.options.get("third_place", False))
        info["bracket"] = layout(bracket)
    ready = _ready(bracket, t, number, seed, fixed, first="bracket" in info)
    return dataclasses.replace(
        ready, stage=english("stage.knockout", {"number": number}), info={**info, **ready.info}
    )


def _scores_byes(t: Tournament) -> bool:
    """Whether the bracket scores its byes and walkovers (every bracket drawn since they do:
    its first round records ``bye_slots``); a bracket drawn before stays as it was."""
    first = next((r for r in t.rounds if "seeds" in r.info), None)
    return first is not None and "bye_slots" in first.info


def _ready(
    bracket: Bracket,
    t: Tournament,
    number: int,
    seed: int,
    fixed: Mapping[str, int],
    *,
    first: bool,
) -> Draw:
    """The bracket's matches that can be played now, with the byes and walkovers that have
    come up since the last draw (the round's ``byes``, ``info.bye_slots`` and walkover
    rows): a bracket bye scores like a Swiss bye, a walkover as a forfeit win (unless the
    withdrawal dropped the player's games). ``first``: this draw lays out the bracket.
    Returned as a Draw without its stage; warnings name recorded byes a correction moved."""
    view = bracket_view(t)  # None before the first knockout round: nothing recorded yet
    state = bracket_state(bracket, (), withdrawn(t)) if view is None else view[0]
    held = _held_slots(t, state)
    if held:
        raise ConflictError("round", "T-correction", "; ".join(held))
    holders = slot_holders(t)
    byes_: tuple[tuple[str, str], ...] = ()
    walkovers: tuple[fm.Walkover, ...] = ()
    if first or _scores_byes(t):
        recorded = _recorded_byes(t)
        byes_, found = unscored_byes_and_walkovers(
            bracket, state, recorded={*recorded, *holders}, withdrawn=withdrawn(t)
        )
        dropped = {p for p, policy in withdrawal_policies(t).items() if policy == "drop"}
        walkovers = tuple(w for w in found if w.forfeited_by not in dropped)
    scored = {"bye_slots": [slot for slot, _ in byes_]} if first or byes_ else {}
    wanted = [m.match_id for m in state.ready()]
    pairing = fm.RoundPairing(number, ())
    if wanted:
        # Who dealt first per slot played: the grand-final reset gives it to the other.
        dealt = {
            slot: str(m.players[m.first_dealer])
            for slot, m in holders.items()
            if m.first_dealer is not None
        }
        pairing = ready_pairings(
            bracket,
            state,
            round_no=number,
            seed=seed,
            match_ids=wanted,
            fixed_tables=fixed,
            dealt_first=dealt,
        )
    byes_of = tuple(p for _, p in byes_)
    pairing = dataclasses.replace(pairing, byes=byes_of, walkovers=walkovers)
    return Draw(pairing, info=scored, warnings=tuple(_moved_byes(t, state)))


def _recorded_byes(t: Tournament) -> dict[str, tuple[int, int]]:
    """Per bracket match, the bye recorded for it: (round, player)."""
    return {
        slot: (r.number, pid)
        for r in t.rounds
        if "bye_slots" in r.info  # a knockout round (a group round's byes have no slot)
        for slot, pid in zip(r.info["bye_slots"], r.byes, strict=True)
    }


def _moved_byes(t: Tournament, state: BracketState) -> list[str]:
    """Byes recorded for a player the bracket no longer sends there (a correction upstream
    gave the place to another): the recorded bye stays, as any recorded bye does, so say
    it where the organiser looks (the round's warnings), once: the next draw says it, a
    later one only if it has changed since."""
    said = {w for r in t.rounds for w in r.warnings}
    out = []
    for slot, (number, pid) in _recorded_byes(t).items():
        now = state.matches[slot]
        if now.status == "bye" and now.winner is not None and now.winner != str(pid):
            moved: dict[str, Param] = {"slot": slot, "player": t.label(pid), "number": number}
            warning = english("warning.bye_moved", {**moved, "now": t.label(int(now.winner))})
            if warning not in said:
                out.append(warning)
    return out


def _held_slots(t: Tournament, state: BracketState) -> list[str]:
    """Why slots ready to be drawn cannot be: a recorded match holds each of them (one that
    no longer fits after a correction, or one with no winner). The organiser resolves it."""
    out = []
    holders = slot_holders(t)
    for slot in state.ready():
        m = holders.get(slot.match_id)
        if m is None:
            continue
        now = " v ".join(t.label(int(p)) for p in slot.players if p is not None)
        why = "has no winner" if _fits(slot, m) else f"no longer fits: the bracket now gives {now}"
        out.append(
            f"bracket slot {slot.match_id} holds recorded match {m.match_id} "
            f"({' v '.join(m.labels)}), which {why}; it is not drawn again until you void "
            f"{m.match_id} ({void_command(m)}); the new draw gets a new match id "
            f"({slot_match_id(t, slot.match_id)})"
        )
    return out


def misfit_why(t: Tournament, m: MatchState) -> str | None:
    """Why recorded bracket match ``m``, played in part or whole, is in conflict with the
    bracket after a correction upstream, and what the organiser does, in words; None when
    it is not (it fits, or it is not a bracket match).

    ``no longer fits the bracket after a correction (it now gives A (1) v C (3) there):
    void what it has (...), then `tournament round start` draws the slot again``"""
    if not m.bracket or m.match_id in t.vacated():
        return None
    view = bracket_view(t)
    if view is None or not any(x is m for x in view[1].values()):
        return None
    slot = str(m.bracket["id"])
    now = " v ".join(t.label(int(p)) for p in view[0].matches[slot].players if p)
    return (
        f"no longer fits the bracket after a correction (it now gives "
        f"{now or 'other players'} there): void what it has ({void_command(m)}), then "
        "`tournament round start` draws the slot again"
    )


def void_command(m: MatchState) -> str:
    """How the organiser voids every result of match ``m`` (which frees its bracket slot)."""
    rids = [e.result_id for e in m.entries if e.payload is not None] or ["RESULT"]
    return " and ".join(
        f"`tournament results correct {rid} --void --by NAME --why TEXT`" for rid in rids
    )


def groups_knockout_draw(
    t: Tournament,
    s: Settings,
    groups: Sequence[Sequence[str]],
    number: int,
    seed: int,
    fixed: Mapping[str, int],
    first_ko: int,
) -> Draw:
    """The next knockout round of groups -> knockout (from round ``first_ko``): its first
    round seeds the bracket by the group results (``info.ko_groups``, ``info.ko_records``,
    ``info.seeds``, ``info.bracket``), every round draws what is ready."""
    info: dict[str, Any] = {}
    bracket = bracket_of(t)
    if bracket is None:
        group_tables: list[list[str]] = []
        records: dict[str, list[float]] = {}  # group results that compare across groups
        for g in groups:
            # Withdrawn players go last: they qualify only if the group is short of players,
            # and then lose their knockout match by walkover (and get no record: seeded last).
            rows = sorted(
                standings(t, players=[int(p) for p in g]),
                key=lambda r: not t.players[r.player_id].active,
            )
            group_tables.append([str(r.player_id) for r in rows])
            records.update(
                {str(r.player_id): ko_record(r, s) for r in rows if t.players[r.player_id].active}
            )
        info["ko_groups"] = group_tables
        info["ko_records"] = records
        bracket = knockout_from_groups(
            group_tables,
            s.options.get("advance", 2),
            records=records,
            third_place=s.options.get("third_place", False),
        )
        info["seeds"] = list(bracket.seeds)
        info["bracket"] = layout(bracket)
    ready = _ready(bracket, t, number, seed, fixed, first="bracket" in info)
    stage = english("stage.knockout", {"number": number - first_ko + 1})
    return dataclasses.replace(ready, stage=stage, info={**info, **ready.info})


def ko_record(row: Row, s: Settings) -> list[float]:
    """A group result that compares across groups, larger is better: points, then the
    tournament's tie-breaks that do not depend on who else is tied (seed: the better)."""
    values = [float(row.points)]
    for tb in s.tiebreaks:
        if tb in GROUP_FREE - {"lot"}:
            value = float(row.tiebreaks.get(tb) or 0)
            values.append(-value if tb == "seed" else value)
    return values


def knockout_places(t: Tournament) -> dict[int, int]:
    """Knockout place groups for the standings: 0 for players still in the bracket, then
    1, 2, ... for the places decided and the players out, best first (1 is the champion
    once there is one; semi-final losers waiting for an open third-place match come after
    the finalists); players who never reached the bracket (out in the groups) are left
    out, so they rank last."""
    bracket = bracket_of(t)
    if bracket is None:
        return {}
    state = bracket_state(bracket, bracket_results(t), withdrawn(t))
    places = {int(p): 0 for p in bracket.seeds}
    places.update({int(p): n for n, tier in enumerate(placements(bracket, state), 1) for p in tier})
    return places
