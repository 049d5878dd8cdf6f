"""The domain's side of the pairing algorithms in :mod:`tournament.formats`.

The formats are pure functions over plain values with string player ids; this module
turns the folded tournament into those values (games so far, byes, standings) and asks
the right format for the next round: Swiss and round robin here, knockouts in
:mod:`.knockout`, the lives format's rules in :mod:`.lives`. It writes nothing:
:mod:`rounds` makes the ``round.started`` event out of the :class:`Draw` it returns.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from tournament.domain.model.errors import ConflictError
from tournament.domain.model.settings import Settings
from tournament.domain.model.state import Tournament
from tournament.domain.standings import standings
from tournament.domain.standings.field import (
    Draw,
    eligible,
    frozen,
    sat_out,
    seed_order,
    withdrawal_policies,
    withdrawn,
)
from tournament.domain.standings.knockout import (
    bracket_of,
    bracket_results,
    bracket_view,
    groups_knockout_draw,
    knockout_draw,
    knockout_places,
    latest_drawn,
    slot_holders,
    slot_match_id,
    vacated_why,
    void_command,
    void_note,
)
from tournament.domain.standings.lives import (
    final_start,
    lives_games,
    lives_left,
    lives_now,
    lives_places,
    lives_rules,
)
from tournament.domain.words.messages import english
from tournament.formats import model as fm
from tournament.formats.lives import BuyBack, final_round_count, lives_final_round, lives_round
from tournament.formats.round_robin import round_count, round_robin_round
from tournament.formats.seeding import snake_groups
from tournament.formats.swiss import recommended_rounds, swiss_round

#: What the rest of the service imports from here: this module's own functions and, from
#: the modules the formats' glue was split into, what it always offered.
__all__ = [
    "Draw",
    "bracket_of",
    "bracket_results",
    "bracket_view",
    "byes",
    "eligible",
    "finished",
    "frozen",
    "games",
    "latest_drawn",
    "lives_left",
    "lives_now",
    "lives_rules",
    "next_draw",
    "places",
    "round_seed",
    "slot_holders",
    "slot_match_id",
    "vacated_why",
    "void_command",
    "void_note",
    "withdrawal_policies",
    "withdrawn",
]


def round_seed(master: int, number: int, redraw: int = 0) -> int:
    """The seed of round ``number``, derived from the tournament's recorded master seed;
    after ``redraw`` cancelled rounds (``round.cancelled``) a fresh one for each redraw."""
    key = f"round:{master}:{number}" + (f":redraw:{redraw}" if redraw else "")
    digest = hashlib.sha256(key.encode()).digest()
    return int.from_bytes(digest[:4], "big")


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
    """The byes so far as the bye rule counts them: every round's byes, every round a late
    entry missed and, in a Swiss, every round a registered player sat out before checking
    in (other formats fix their field at round 1). Such a
    round is not a bye in the scores (unless a late entry scores it as one), but the player
    has sat out already: the last choice for the bye, not the first just because it has
    none (T-late-entry, docs/tournaments.md)."""
    out = [fm.Bye(r.number, str(p)) for r in t.rounds for p in r.byes]
    out += [fm.Bye(n, str(p.id)) for p in t.players.values() for n in range(1, p.missed + 1)]
    if t.settings is not None and t.settings.format == "swiss":  # the only open field
        out += [fm.Bye(n, str(pid)) for n, pid in sat_out(t)]
    return out


def next_draw(t: Tournament, number: int, seed: int, fixed: Mapping[str, int]) -> Draw:
    """Ask the tournament's format for round ``number``."""
    settings = t.settings
    assert settings is not None
    draw = _DRAWS[settings.format](t, settings, number, seed, fixed)
    if not _anything(draw.pairing) and not draw.pairing.idle:
        raise ConflictError("round", "T-round", code="pairing.tournament_finished_nobody_left")
    return draw


def _swiss(t: Tournament, s: Settings, number: int, seed: int, fixed: Mapping[str, int]) -> Draw:
    players = eligible(t)
    total = frozen(t, "rounds") or s.options.get("rounds") or recommended_rounds(len(players))
    if number > total:
        raise ConflictError(
            "round", "T-round", code="pairing.swiss_rounds_all_drawn", params={"total": total}
        )
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
        pairing,
        english("stage.swiss", {"number": number, "total": total}),
        {"rounds": total} if number == 1 else {},
    )


def _anything(pairing: fm.RoundPairing) -> bool:
    """Whether a round gives anybody anything: a game, a walkover or a bye."""
    return bool(pairing.pairings or pairing.walkovers or pairing.byes)


def _groups(t: Tournament) -> list[list[str]]:
    return [list(g) for g in frozen(t, "groups")]


def _group_round(
    t: Tournament, s: Settings, groups: list[list[str]], number: int, fixed: Mapping[str, int]
) -> fm.RoundPairing:
    """Round ``number`` of the groups' round robin: a withdrawn player's games are walkovers
    or dropped as the withdrawal chose (``players withdraw --policy``)."""
    return round_robin_round(
        groups, number, withdrawn=withdrawn(t), withdrawal=s.withdrawal,
        policies=withdrawal_policies(t), fixed_tables=fixed,
    )  # fmt: skip


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
            "round", "T-round", code="pairing.round_robin_rounds_all", params={"total": total}
        )
    pairing = _group_round(t, s, groups, number, fixed)
    later = (_group_round(t, s, groups, r, {}) for r in range(number + 1, total + 1))
    if not _anything(pairing) and not any(_anything(r) for r in later):  # all dropped
        raise ConflictError("round", "T-round", code="pairing.tournament_finished_every_game")
    return Draw(pairing, english("stage.round_robin", {"number": number, "total": total}), info)


def _groups_knockout(
    t: Tournament, s: Settings, number: int, seed: int, fixed: Mapping[str, int]
) -> Draw:
    if number == 1:
        order = [str(p) for p in seed_order(t) if p in set(eligible(t))]
        groups = [list(g) for g in snake_groups(order, s.options.get("groups", 2))]
        advance = s.options.get("advance", 2)
        smallest = min(len(g) for g in groups)
        if smallest < advance:  # found now, not after the whole group stage is played
            raise ConflictError(
                "round",
                "T-format",
                code="pairing.players_groups_smallest_but",
                params={
                    "order_count": len(order),
                    "groups_count": len(groups),
                    "smallest": smallest,
                    "advance": advance,
                },
            )
    else:
        groups = _groups(t)
    total = round_count(groups)
    if number <= total:
        pairing = _group_round(t, s, groups, number, fixed)
        return Draw(
            pairing,
            english("stage.groups", {"number": number, "total": total}),
            {"groups": groups} if number == 1 else {},
        )
    return groups_knockout_draw(t, s, groups, number, seed, fixed, first_ko=total + 1)


def _lives(t: Tournament, s: Settings, number: int, seed: int, fixed: Mapping[str, int]) -> Draw:
    """A lives round among the players with lives left, or, once at most ``final_players``
    are left, the final among them: its players recorded (``info.finalists``) and fixed
    for good, one game for two, a whole round robin for more."""
    info: dict[str, Any] = {}
    entrants = frozen(t, "entrants")
    if entrants is None:
        entrants = [str(p) for p in eligible(t)]
        info["entrants"] = entrants
    final = final_start(t)
    if final is None:
        state = lives_now(t, number)
        if not state.final:
            backs = [BuyBack(str(pid), r) for pid, r in t.buy_backs]
            pairing = lives_round(
                number, entrants, lives_rules(s), lives_games(t), byes(t), backs,
                seed=seed, withdrawn=withdrawn(t), fixed_tables=fixed,
            )  # fmt: skip
            alive = len(state.alive)
            stage = english("stage.lives", {"number": number, "alive": alive})
            return Draw(pairing, stage, info)
        if len(state.alive) < 2:
            left = ", ".join(t.label(int(p)) for p in state.alive) or "nobody"
            raise ConflictError(
                "round", "T-round", code="pairing.tournament_finished_left", params={"left": left}
            )
        finalists, final_round = state.alive, 1
        info["finalists"] = list(finalists)
    else:
        finalists, final_round = final[1], number - final[0] + 1
        if final_round > final_round_count(finalists):
            raise ConflictError("round", "T-round", code="pairing.final_been_played")
    pairing = lives_final_round(
        finalists, number, seed=seed, final_round=final_round, withdrawn=withdrawn(t),
        withdrawal=s.withdrawal, policies=withdrawal_policies(t), fixed_tables=fixed,
    )  # fmt: skip
    info["final"] = True
    rounds = final_round_count(finalists)
    # The finalists by name and start number (O-L10): "final: Anna (3), Lena (12)".
    names = ", ".join(t.label(int(p)) for p in finalists)
    if rounds > 1:
        stage = english("stage.final_of", {"number": final_round, "total": rounds, "names": names})
    else:
        stage = english("stage.final", {"names": names})
    return Draw(pairing, stage, info)


_DRAWS = {
    "swiss": _swiss,
    "round_robin": _round_robin,
    "single_elimination": knockout_draw,
    "double_elimination": knockout_draw,
    "groups_knockout": _groups_knockout,
    "lives": _lives,
}


def finished(t: Tournament) -> bool:
    """Whether the tournament is over: its last round is complete and the format has no
    further round to draw (every format says so by refusing the next draw)."""
    if t.settings is None or not t.rounds or not t.round_complete():
        return False
    if any(not t.settled(m) for m in t.matches.values()):
        return False  # a match of an earlier round open again after a correction
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
