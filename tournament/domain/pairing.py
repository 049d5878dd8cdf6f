"""The domain's side of the pairing algorithms in :mod:`tournament.formats`.

The formats are pure functions over plain values with string player ids; this module
turns the folded tournament into those values (games so far, byes, standings, brackets)
and asks the right format for the next round. It writes nothing: :mod:`rounds` makes the
``round.started`` event out of the :class:`Draw` it returns.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from typing import Any

from tournament.domain.errors import ConflictError
from tournament.domain.matchstate import MatchState
from tournament.domain.registration import seed_order
from tournament.domain.settings import Settings
from tournament.domain.standings import Row, standings
from tournament.domain.state import Tournament
from tournament.domain.tiebreaks import GROUP_FREE
from tournament.formats import model as fm
from tournament.formats.bracket import (
    Bracket,
    BracketResult,
    BracketState,
    bracket_state,
    from_layout,
    layout_rows,
    placements,
    ready_pairings,
)
from tournament.formats.bracket import MatchState as BracketSlot
from tournament.formats.double_elim import double_elimination
from tournament.formats.groups import knockout_from_groups
from tournament.formats.lives import (
    BuyBack,
    LivesRules,
    LivesState,
    lives_final_round,
    lives_round,
    lives_state,
)
from tournament.formats.round_robin import round_count, round_robin_round
from tournament.formats.seeding import snake_groups
from tournament.formats.single_elim import single_elimination
from tournament.formats.swiss import recommended_rounds, swiss_round


@dataclasses.dataclass(frozen=True)
class Draw:
    """A round as a format drew it, before it becomes ``round.started``."""

    pairing: fm.RoundPairing
    stage: str = ""
    info: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    warnings: tuple[str, ...] = ()


def round_seed(master: int, number: int, redraw: int = 0) -> int:
    """The seed of round ``number``, derived from the tournament's recorded master seed;
    after ``redraw`` cancelled rounds (``round.cancelled``) a fresh one for each redraw."""
    key = f"round:{master}:{number}" + (f":redraw:{redraw}" if redraw else "")
    digest = hashlib.sha256(key.encode()).digest()
    return int.from_bytes(digest[:4], "big")


def eligible(t: Tournament) -> list[int]:
    """Players who can be drawn now: active, and checked in once anybody has checked in."""
    active = [p for p in t.players.values() if p.active]
    if any(p.checked_in for p in active):
        active = [p for p in active if p.checked_in]
    return [p.id for p in active]


def withdrawn(t: Tournament) -> set[str]:
    return {str(p.id) for p in t.players.values() if not p.active}


def games(t: Tournament) -> list[fm.Game]:
    """Every match drawn so far as the formats see it. A forfeit (no-show, walkover, double
    no-show) or a match dropped after a withdrawal is marked so, from its summary alone:
    the formats then leave it out of the meetings and of the dealing history."""
    out = []
    for m in t.matches.values():
        a, b = m.players
        fd = None if m.first_dealer is None else str(m.players[m.first_dealer])
        winner = None if m.winner is None else str(m.winner)
        s = m.summary
        out.append(fm.Game(m.round, str(a), str(b), fd, winner, s.forfeit, s.dropped))
    return out


def byes(t: Tournament) -> list[fm.Bye]:
    return [fm.Bye(r.number, str(p)) for r in t.rounds for p in r.byes]


def frozen(t: Tournament, key: str) -> Any:
    """A value fixed when its stage started (seeds, groups), read back from the rounds."""
    for r in t.rounds:
        if key in r.info:
            return r.info[key]
    return None


def next_draw(t: Tournament, number: int, seed: int, fixed: Mapping[str, int]) -> Draw:
    """Ask the tournament's format for round ``number``."""
    settings = t.settings
    assert settings is not None
    draw = _DRAWS[settings.format](t, settings, number, seed, fixed)
    if not draw.pairing.pairings and not draw.pairing.walkovers:
        raise ConflictError(
            "round", "T-round", "the tournament is finished: nobody is left to pair"
        )
    return draw


def _swiss(t: Tournament, s: Settings, number: int, seed: int, fixed: Mapping[str, int]) -> Draw:
    players = eligible(t)
    total = frozen(t, "rounds") or s.options.get("rounds") or recommended_rounds(len(players))
    if number > total:
        raise ConflictError("round", "T-round", f"this Swiss has {total} rounds; all are drawn")
    if number == 1:
        order = [p for p in seed_order(t) if p in set(players)]
        table = [fm.Standing(str(p), 0.0) for p in order]
    else:
        wanted = set(players)
        table = [
            fm.Standing(str(r.player_id), float(r.points))
            for r in standings(t)
            if r.player_id in wanted
        ]
    pairing = swiss_round(
        number,
        table,
        games(t),
        byes(t),
        seed=seed,
        withdrawn=withdrawn(t),
        fixed_tables=fixed,
        # Only a draw whose first dealers are played can keep dealing balanced.
        balance_dealing=s.first_dealer == "balanced",
    )
    return Draw(
        pairing, f"Swiss round {number} of {total}", {"rounds": total} if number == 1 else {}
    )


def _groups(t: Tournament) -> list[list[str]]:
    return [list(g) for g in frozen(t, "groups")]


def _round_robin(
    t: Tournament, s: Settings, number: int, seed: int, fixed: Mapping[str, int]
) -> Draw:
    info: dict[str, Any] = {}
    if number == 1:
        order = [str(p) for p in seed_order(t) if p in set(eligible(t))]
        info["groups"] = [list(g) for g in snake_groups(order, s.options.get("groups", 1))]
        groups = info["groups"]
    else:
        groups = _groups(t)
    total = round_count(groups)
    if number > total:
        raise ConflictError(
            "round", "T-round", f"the round robin has {total} rounds; all are drawn"
        )
    pairing = round_robin_round(
        groups, number, withdrawn=withdrawn(t), withdrawal=s.withdrawal, fixed_tables=fixed
    )
    return Draw(pairing, f"round robin, round {number} of {total}", info)


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
    that is not void (voiding every result of a match is what frees its slot)."""
    holders: dict[str, MatchState] = {}
    for m in t.matches.values():  # in draw order: a redraw comes after what it replaces
        slot = m.bracket.get("id")
        if slot and not m.void:
            holders[slot] = m
    return holders


def _fits(slot: BracketSlot, match: MatchState) -> bool:
    return {str(p) for p in match.players} == set(slot.players)


def bracket_view(t: Tournament) -> tuple[BracketState, dict[str, MatchState]] | None:
    """The bracket as it stands and the recorded matches that no longer fit it, per slot.

    A recorded match keeps its players and results for good (they are events). When a
    correction upstream changes who should play a slot, the match recorded there no longer
    fits: its result does not advance anybody, and the slots after it wait, until the
    organiser voids it (then the slot is drawn again under a new match id)."""
    bracket = bracket_of(t)
    if bracket is None:
        return None
    holders = slot_holders(t)
    misfits: dict[str, MatchState] = {}
    while True:  # a misfit's result is dropped, which may unseat matches after it
        results = [
            BracketResult(slot, str(m.winner))
            for slot, m in holders.items()
            if slot not in misfits and m.winner is not None
        ]
        state = bracket_state(bracket, results, withdrawn(t))
        new = {
            slot: m
            for slot, m in holders.items()
            if slot not in misfits and not _fits(state.matches[slot], m)
        }
        if not new:
            return state, misfits
        misfits.update(new)


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
    raise ConflictError("round", "T-round", f"bracket slot {slot} was drawn 26 times")


def _knockout(
    t: Tournament, s: Settings, number: int, seed: int, fixed: Mapping[str, int], first_ko: int = 1
) -> Draw:
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
    pairing = _ready(bracket, t, number, seed, fixed)
    return Draw(pairing, f"knockout round {number - first_ko + 1}", info)


def _ready(
    bracket: Bracket, t: Tournament, number: int, seed: int, fixed: Mapping[str, int]
) -> fm.RoundPairing:
    """The bracket's matches that can be played now."""
    view = bracket_view(t)  # None before the first knockout round: nothing recorded yet
    state = bracket_state(bracket, (), withdrawn(t)) if view is None else view[0]
    held = _held_slots(t, state)
    if held:
        raise ConflictError("round", "T-correction", "; ".join(held))
    wanted = [m.match_id for m in state.ready()]
    if not wanted:
        return fm.RoundPairing(number, ())
    # Who dealt first per slot played: the grand-final reset gives it to the other player.
    dealt = {
        slot: str(m.players[m.first_dealer])
        for slot, m in slot_holders(t).items()
        if m.first_dealer is not None
    }
    return ready_pairings(
        bracket,
        state,
        round_no=number,
        seed=seed,
        match_ids=wanted,
        fixed_tables=fixed,
        dealt_first=dealt,
    )


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


def void_command(m: MatchState) -> str:
    """How the organiser voids every result of match ``m`` (which frees its bracket slot)."""
    rids = [e.result_id for e in m.entries if e.payload is not None] or ["RESULT"]
    return " and ".join(
        f"`tournament results correct {rid} --void --by NAME --why TEXT`" for rid in rids
    )


def _groups_knockout(
    t: Tournament, s: Settings, number: int, seed: int, fixed: Mapping[str, int]
) -> Draw:
    if number == 1:
        order = [str(p) for p in seed_order(t) if p in set(eligible(t))]
        groups = [list(g) for g in snake_groups(order, s.options.get("groups", 2))]
    else:
        groups = _groups(t)
    total = round_count(groups)
    if number <= total:
        pairing = round_robin_round(
            groups, number, withdrawn=withdrawn(t), withdrawal=s.withdrawal, fixed_tables=fixed
        )
        return Draw(
            pairing,
            f"group stage, round {number} of {total}",
            {"groups": groups} if number == 1 else {},
        )
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
    pairing = _ready(bracket, t, number, seed, fixed)
    return Draw(pairing, f"knockout round {number - total}", info)


def ko_record(row: Row, s: Settings) -> list[float]:
    """A group result that compares across groups, larger is better: points, then the
    tournament's tie-breaks that do not depend on who else is tied (seed: the better)."""
    values = [float(row.points)]
    for tb in s.tiebreaks:
        if tb in GROUP_FREE - {"lot"}:
            value = float(row.tiebreaks.get(tb) or 0)
            values.append(-value if tb == "seed" else value)
    return values


def lives_rules(s: Settings) -> LivesRules:
    return LivesRules(
        lives=int(s.options.get("lives", 2)),
        final_size=int(s.options.get("final_players", 2)),
        # buy_backs is filled in by Settings (buy_back=true of older tournaments: one).
        max_buy_backs=int(s.options.get("buy_backs", 0)),
        last_buy_back_round=int(s.options.get("buy_back_until", 0)) or None,
    )


def lives_now(t: Tournament, before_round: int) -> LivesState:
    """Lives per player before a round, as the lives format counts them."""
    s = t.settings
    assert s is not None
    entrants = frozen(t, "entrants") or [str(p) for p in eligible(t)]
    decided = [g for g in games(t) if g.winner is not None and g.round_no < before_round]
    backs = [BuyBack(str(pid), r) for pid, r in t.buy_backs]
    return lives_state(
        entrants, lives_rules(s), decided, backs, withdrawn(t), before_round=before_round
    )


def _lives(t: Tournament, s: Settings, number: int, seed: int, fixed: Mapping[str, int]) -> Draw:
    info: dict[str, Any] = {}
    entrants = frozen(t, "entrants")
    if entrants is None:
        entrants = [str(p) for p in eligible(t)]
        info["entrants"] = entrants
    state = lives_now(t, number)
    if not state.final:
        decided = [g for g in games(t) if g.winner is not None]
        backs = [BuyBack(str(pid), r) for pid, r in t.buy_backs]
        pairing = lives_round(
            number, entrants, lives_rules(s), decided, byes(t), backs,
            seed=seed, withdrawn=withdrawn(t), fixed_tables=fixed,
        )  # fmt: skip
        alive = len(state.alive)
        return Draw(pairing, f"lives round {number}: {alive} players with lives left", info)
    if len(state.alive) < 2:
        raise ConflictError("round", "T-round", "the tournament is finished: one player is left")
    final_rounds = sum(1 for r in t.rounds if r.info.get("final"))
    if len(state.alive) == 2 and final_rounds:
        raise ConflictError("round", "T-round", "the final has been played")
    if len(state.alive) > 2 and final_rounds >= len(state.alive) - 1 + len(state.alive) % 2:
        raise ConflictError("round", "T-round", "the final round robin has been played")
    pairing = lives_final_round(state, number, seed=seed, final_round=final_rounds + 1)
    info["final"] = True
    return Draw(pairing, f"final of {', '.join(state.alive)}", info)


_DRAWS = {
    "swiss": _swiss,
    "round_robin": _round_robin,
    "single_elimination": _knockout,
    "double_elimination": _knockout,
    "groups_knockout": _groups_knockout,
    "lives": _lives,
}


def knockout_places(t: Tournament) -> dict[int, int]:
    """Knockout place groups for the standings: 0 for players still in the bracket, then
    1, 2, ... for the players out, best first (at the end 1 is the champion); players who
    never reached the bracket (out in the groups) are left out, so they rank last."""
    bracket = bracket_of(t)
    if bracket is None:
        return {}
    state = bracket_state(bracket, bracket_results(t), withdrawn(t))
    places = {int(p): 0 for p in bracket.seeds}
    if state.champion is None:
        places.update(
            {int(p): n for n, tier in enumerate(placements(bracket, state), 1) for p in tier}
        )
    else:
        places.update(
            {int(p): n - 1 for n, tier in enumerate(placements(bracket, state), 1) for p in tier}
        )
    return places


def lives_places(t: Tournament) -> dict[int, int]:
    """Lives format places: players with lives left first (0), then the players out, the
    later out the better (the final's loser before those out in earlier rounds)."""
    if t.settings is None or t.settings.format != "lives" or not t.rounds:
        return {}
    state = lives_now(t, t.current_round + 1)
    out_round: dict[int, int] = {}
    for pid_text, left in state.lives.items():
        if left <= 0:
            pid = int(pid_text)
            rounds = [t.matches[mid].round for mid in t.player_matches.get(pid, [])]
            out_round[pid] = max(rounds, default=0)
    last = max(out_round.values(), default=0)
    places = {int(p): 0 for p in state.alive}
    places.update({pid: 1 + last - r for pid, r in out_round.items()})
    return places


def lives_left(t: Tournament) -> dict[int, int] | None:
    """Lives format: lives left per player now, as the next draw counts them (0: out);
    None in other formats."""
    if t.settings is None or t.settings.format != "lives":
        return None
    if not t.rounds:
        start = int(lives_rules(t.settings).lives)
        return {pid: start for pid in t.players}
    state = lives_now(t, t.current_round + 1)
    return {int(p): max(0, left) for p, left in state.lives.items()}


def finished(t: Tournament) -> bool:
    """Whether the tournament is over: its last round is complete and the format has no
    further round to draw (every format says so by refusing the next draw)."""
    if t.settings is None or not t.rounds or not t.round_complete():
        return False
    number = t.current_round + 1
    try:
        next_draw(t, number, round_seed(t.settings.seed, number), {})
    except ConflictError as error:
        return error.rule == "T-round"
    except fm.FormatError:
        return False  # a draw that fails for another reason: not over, a problem to show
    return False


def places(t: Tournament) -> dict[int, int]:
    """Place groups that rank before points: knockout brackets and lives."""
    return lives_places(t) or knockout_places(t)
