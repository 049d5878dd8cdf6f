"""The lives format (Preisschnapsen) read off the folded tournament: lives per player, the
final and its finalists, the places, and whether a life may be bought back now.

The rules themselves are pure functions in :mod:`tournament.formats.lives`; this module
gives them the tournament's games, byes and buy-backs. A double no-show is a lost game for
both players, so it costs each a life. The finalists are the players with lives left when
the final is drawn, recorded in that round (``info.finalists``) and fixed from then on:
nobody buys back into the final, nobody drops out of it, and lives no longer count in it.

    >>> from tournament.domain.testing import registered
    >>> from tournament.domain.model.state import fold
    >>> t = fold(registered(4, format="lives", options={"lives": 2}))
    >>> lives_left(t)
    {1: 2, 2: 2, 3: 2, 4: 2}
"""

from __future__ import annotations

from tournament.domain.model.settings import Settings
from tournament.domain.model.state import Tournament
from tournament.domain.standings.field import eligible, frozen, withdrawn
from tournament.domain.words.messages import Phrase
from tournament.formats import model as fm
from tournament.formats.lives import (
    BuyBack,
    LivesRules,
    LivesState,
    final_places,
    final_points,
    final_round_count,
    lives_state,
)


def lives_rules(s: Settings) -> LivesRules:
    return LivesRules(
        lives=int(s.options.get("lives", 2)),
        final_size=int(s.options.get("final_players", 2)),
        # buy_backs is filled in by Settings (buy_back=true of older tournaments: one).
        max_buy_backs=int(s.options.get("buy_backs", 0)),
        last_buy_back_round=int(s.options.get("buy_back_until", 0)) or None,
    )


def lives_games(t: Tournament) -> list[fm.Game]:
    """The decided games as the lives rules count them: a loss costs a life, and a double
    no-show (no winner) is a loss for both (``Game(winner=None, forfeit=True)``); dropped
    and undecided matches count for nobody."""
    out = []
    for m in t.matches.values():
        if not m.decided or m.dropped:
            continue
        a, b = m.players
        winner = None if m.winner is None else str(m.winner)
        out.append(fm.Game(m.round, str(a), str(b), winner=winner, forfeit=m.summary.forfeit))
    return out


def final_start(t: Tournament) -> tuple[int, tuple[str, ...]] | None:
    """The round the final was drawn in and its finalists (None before the final). A final
    drawn before the finalists were recorded: the players and byes of its first round."""
    for r in t.rounds:
        if r.info.get("final"):
            recorded = r.info.get("finalists")
            if recorded is not None:
                return r.number, tuple(recorded)
            drawn = {p for mid in r.matches for p in t.matches[mid].players} | set(r.byes)
            return r.number, tuple(p for p in _entrants(t) if int(p) in drawn)
    return None


def final_over(t: Tournament) -> bool:
    """Whether every round of the final has been drawn and played."""
    final = final_start(t)
    if final is None:
        return False
    start, finalists = final
    return t.current_round - start + 1 >= final_round_count(finalists) and t.round_complete()


def _entrants(t: Tournament) -> list[str]:
    """The lives field as round 1 recorded it (its order is part of what a draw's seed
    reproduces); before round 1, the players who can be drawn now."""
    return list(frozen(t, "entrants") or [str(p) for p in eligible(t)])


def lives_now(t: Tournament, before_round: int) -> LivesState:
    """Lives per player before a round, as the lives format counts them. From the final on,
    lives stand as they were when the final was drawn."""
    s = t.settings
    assert s is not None
    final = final_start(t)
    upto = before_round if final is None else min(before_round, final[0])
    decided = [g for g in lives_games(t) if g.round_no < upto]
    backs = [BuyBack(str(pid), r) for pid, r in t.buy_backs if r <= upto]
    return lives_state(
        _entrants(t), lives_rules(s), decided, backs, withdrawn(t), before_round=upto
    )


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


def lives_places(t: Tournament) -> dict[int, int]:
    """Lives format places, best first (0): before the final, the players with lives left,
    then the players out, the later out the better; from the final on, the finalists by
    the final's table (points in the final; level finalists share a place), then
    everybody else, the later out the better."""
    if t.settings is None or t.settings.format != "lives" or not t.rounds:
        return {}
    final = final_start(t)
    if final is None:
        state = lives_now(t, t.current_round + 1)
        front: tuple[tuple[str, ...], ...] = (state.alive,) if state.alive else ()
        before = t.current_round + 1
    else:
        before, finalists = final
        front = final_places(finalists, *_final_games(t, before))
    places = {int(p): n for n, tier in enumerate(front) for p in tier}
    out_round: dict[int, int] = {}
    for pid_text in _entrants(t):
        pid = int(pid_text)
        if pid not in places:
            rounds = [t.matches[mid].round for mid in t.player_matches.get(pid, [])]
            out_round[pid] = max((r for r in rounds if r < before), default=0)
    last = max(out_round.values(), default=0)
    places.update({pid: len(front) + last - r for pid, r in out_round.items()})
    return places


def _final_games(t: Tournament, start: int) -> tuple[list[fm.Game], list[fm.Bye]]:
    """The games and byes of the final, drawn from round ``start`` on."""
    games = [g for g in lives_games(t) if g.round_no >= start]
    byes = [fm.Bye(r.number, str(p)) for r in t.rounds[start - 1 :] for p in r.byes]
    return games, byes


def lives_final_points(t: Tournament) -> dict[int, int]:
    """Lives format, from the final on: each finalist's points in the final, which rank
    the finalists before anything else (:func:`lives_places`); empty before the final and
    in other formats. The standings show them, or nothing would say why a finalist with
    fewer lives or points ranks ahead."""
    if t.settings is None or t.settings.format != "lives":
        return {}
    final = final_start(t)
    if final is None:
        return {}
    start, finalists = final
    points = final_points(finalists, *_final_games(t, start))
    return {int(p): n for p, n in points.items()}


def buy_back_closed(t: Tournament) -> str | None:
    """Why nobody may buy back a life now (None: those out of lives may, within their own
    limit); the rule ids are the caller's (T-lives)."""
    closed = buy_back_closed_phrase(t)
    return None if closed is None else str(closed)


def buy_back_closed_phrase(t: Tournament) -> Phrase | None:
    """:func:`buy_back_closed` with its code, for a refusal a page shows in German."""
    s = t.settings
    assert s is not None
    if s.format != "lives" or not int(s.options.get("buy_backs", 0)):
        return Phrase("lives.no_buy_back")
    final = final_start(t)
    if final is not None:
        if final_over(t):
            return Phrase("lives.final_played")
        names = ", ".join(t.label(int(p)) for p in final[1])
        return Phrase("lives.final_begun", {"round": final[0], "names": names})
    until = int(s.options.get("buy_back_until", 0))
    if until and t.current_round + 1 > until:
        return Phrase("lives.buy_back_closed", {"until": until})
    if not t.round_complete():
        return Phrase("lives.between_rounds", {"round": t.current_round})
    alive = lives_now(t, t.current_round + 1).alive if t.rounds else ()
    if t.rounds and len(alive) < 2:
        if not alive:
            return Phrase("lives.finished_nobody_left")
        left = ", ".join(t.label(int(p)) for p in alive)
        return Phrase("lives.finished_left", {"left": left})
    return None
