"""Knockout brackets as plain values, and their state as a pure function of the results.

A `Bracket` is a list of matches; each slot says where its player comes from: a seed
(`Seed(3)`), the winner of a match (`WinnerOf("W1-2")`) or its loser (`LoserOf("W1-2")`).
Matches are listed so that feeders come first. Nothing in a Bracket changes as results
arrive: `bracket_state(bracket, results, withdrawn)` recomputes who plays where, so a
corrected result just means calling it again with the corrected list.

Byes are empty slots: a seed number above the field size is nobody, a match with one
empty slot sends its player on without playing (status "bye"), and a match with two empty
slots sends nobody on (status "void"). Byes in losers brackets follow from this.

>>> from tournament.formats.single_elim import single_elimination
>>> b = single_elimination(["a", "b", "c"])
>>> [(m.match_id, m.source_a, m.source_b, m.winner_to) for m in b.matches]
[('R1-1', Seed(n=1), Seed(n=4), 'R2-1'), ('R1-2', Seed(n=2), Seed(n=3), 'R2-1'), \
('R2-1', WinnerOf(match_id='R1-1'), WinnerOf(match_id='R1-2'), None)]
>>> s = bracket_state(b, [BracketResult("R1-2", "c")])
>>> s.matches["R1-1"].status, s.matches["R2-1"].players, s.matches["R2-1"].status
('bye', ('a', 'c'), 'ready')
>>> bracket_state(b, [BracketResult("R1-2", "c"), BracketResult("R2-1", "a")]).champion
'a'
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from .model import FormatError, Pairing, RoundPairing, Walkover
from .tables import assign_tables, draw_first_dealer


@dataclass(frozen=True)
class Seed:
    """Seed number n (1-based); nobody (a bye) when n is above the field size."""

    n: int


@dataclass(frozen=True)
class WinnerOf:
    match_id: str


@dataclass(frozen=True)
class LoserOf:
    match_id: str


Source = Seed | WinnerOf | LoserOf
Section = Literal["R", "3P", "W", "L", "GF"]


@dataclass(frozen=True)
class BracketMatch:
    """One match of a bracket and its feeder links.

    `winner_to` / `loser_to` name the match the winner / loser goes on to (None: out, or
    champion). `reset_of` marks the grand-final reset: played only if the losers-bracket
    player (source_b) won the first grand final.
    """

    match_id: str
    section: Section
    round_no: int
    source_a: Source
    source_b: Source
    winner_to: str | None = None
    loser_to: str | None = None
    reset_of: str | None = None


@dataclass(frozen=True)
class Bracket:
    """A whole knockout: the seeds (best first) and the matches (feeders first).

    `final_ids` are the final(s) in playing order: ("R3-1",) or ("GF1", "GF2").
    """

    kind: Literal["single", "double"]
    seeds: tuple[str, ...]
    matches: tuple[BracketMatch, ...]
    final_ids: tuple[str, ...]

    def match(self, match_id: str) -> BracketMatch:
        for m in self.matches:
            if m.match_id == match_id:
                return m
        raise FormatError(
            "match_id", code="formats.bracket.match_bracket", params={"match_id": repr(match_id)}
        )


#: A bracket match as a compact row, as the event that draws the bracket stores it:
#: ``[match_id, section, round_no, source_a, source_b, winner_to, loser_to, reset_of]``
#: with trailing nulls left off; a source is a seed number (``3``), ``"w:R1-1"`` (winner
#: of) or ``"l:W1-2"`` (loser of).
LayoutRow = list[object]


def _source_text(src: Source) -> int | str:
    if isinstance(src, Seed):
        return src.n
    return f"w:{src.match_id}" if isinstance(src, WinnerOf) else f"l:{src.match_id}"


def _source_of(value: object) -> Source:
    if isinstance(value, int) and not isinstance(value, bool):
        return Seed(value)
    if isinstance(value, str) and value[:2] in ("w:", "l:"):
        return WinnerOf(value[2:]) if value[0] == "w" else LoserOf(value[2:])
    raise FormatError(
        "bracket", code="formats.bracket.bracket_source", params={"value": repr(value)}
    )


def layout_rows(bracket: Bracket) -> list[LayoutRow]:
    """The bracket's matches as rows (see :data:`LayoutRow`), feeders first.

    >>> from tournament.formats.single_elim import single_elimination
    >>> layout_rows(single_elimination(["a", "b", "c"]))
    [['R1-1', 'R', 1, 1, 4, 'R2-1'], ['R1-2', 'R', 1, 2, 3, 'R2-1'], \
['R2-1', 'R', 2, 'w:R1-1', 'w:R1-2']]
    """
    rows = []
    for m in bracket.matches:
        row: LayoutRow = [
            m.match_id,
            m.section,
            m.round_no,
            _source_text(m.source_a),
            _source_text(m.source_b),
            m.winner_to,
            m.loser_to,
            m.reset_of,
        ]
        while row[-1] is None:
            row.pop()
        rows.append(row)
    return rows


def from_layout(
    kind: str, seeds: Sequence[str], rows: Sequence[Sequence[object]], final_ids: Sequence[str]
) -> Bracket:
    """The bracket stored as :func:`layout_rows` (the inverse: nothing is recomputed)."""
    matches = []
    for row in rows:
        mid, section, round_no, a, b, *links = [*row, None, None, None][:8]
        winner_to, loser_to, reset_of = links
        matches.append(
            BracketMatch(
                str(mid),
                section,  # type: ignore[arg-type]
                int(round_no),  # type: ignore[call-overload]
                _source_of(a),
                _source_of(b),
                winner_to,  # type: ignore[arg-type]
                loser_to,  # type: ignore[arg-type]
                reset_of,  # type: ignore[arg-type]
            )
        )
    return Bracket(kind, tuple(seeds), tuple(matches), tuple(final_ids))  # type: ignore[arg-type]


@dataclass(frozen=True)
class BracketResult:
    """The recorded winner of a bracket match (walkover wins too)."""

    match_id: str
    winner: str


Status = Literal["waiting", "ready", "done", "bye", "void", "walkover", "not_needed"]


@dataclass(frozen=True)
class MatchState:
    """A match as it stands.

    - waiting: a player is not known yet;      - ready: both known, to be played;
    - done: result recorded;                    - bye: one slot empty, the other goes on;
    - void: both slots empty;                   - not_needed: grand-final reset not required;
    - walkover: a withdrawn player loses without playing.
    """

    match_id: str
    player_a: str | None
    player_b: str | None
    status: Status
    winner: str | None = None
    loser: str | None = None

    @property
    def players(self) -> tuple[str | None, str | None]:
        return (self.player_a, self.player_b)

    @property
    def decided(self) -> bool:
        return self.status not in ("waiting", "ready")


@dataclass(frozen=True)
class BracketState:
    """Every match's state, the champion once known, and results that no longer fit.

    `conflicts` lists results that were ignored because the match's players changed (a
    corrected earlier result) or the match is not ready yet: message per match id.
    """

    matches: Mapping[str, MatchState]
    champion: str | None
    conflicts: Mapping[str, str] = field(default_factory=dict)

    def ready(self) -> tuple[MatchState, ...]:
        """Matches that can be played now, in bracket order."""
        return tuple(m for m in self.matches.values() if m.status == "ready")


_UNKNOWN = object()  # a slot whose player is not decided yet (None means: nobody)


def bracket_state(
    bracket: Bracket,
    results: Sequence[BracketResult] = (),
    withdrawn: Collection[str] = (),
) -> BracketState:
    """Who plays where, given the results so far and the withdrawn players.

    Pass `withdrawn` as a list in the order the players withdrew; that order decides a
    match between two withdrawn players (see below). Given as a set, the order is
    unknown and the better seed is taken to have withdrawn later, so the result is still
    the same on every run.

    A withdrawn player loses every pending match by walkover, in the losers bracket too;
    results already recorded stand (so withdrawing never rewrites what was played).
    Unknown match ids, or a result given twice, raise FormatError.
    """
    by_id: dict[str, BracketResult] = {}
    known = {m.match_id for m in bracket.matches}
    for i, r in enumerate(results):
        if r.match_id not in known:
            raise FormatError(
                f"results[{i}].match_id",
                code="formats.bracket.match_bracket_2",
                params={"match_id": repr(r.match_id)},
            )
        if r.match_id in by_id:
            raise FormatError(
                f"results[{i}].match_id",
                code="formats.bracket.second_result",
                params={"match_id": r.match_id},
            )
        by_id[r.match_id] = r
    if not isinstance(withdrawn, Sequence):  # a set: fix an order that never varies
        seed_rank = {p: i for i, p in enumerate(bracket.seeds)}
        withdrawn = sorted(withdrawn, key=lambda p: (-seed_rank.get(p, -1), p))
    gone = {p: i for i, p in enumerate(withdrawn)}
    states: dict[str, MatchState] = {}
    conflicts: dict[str, str] = {}

    def resolve(src: Source) -> object:
        if isinstance(src, Seed):
            return bracket.seeds[src.n - 1] if src.n <= len(bracket.seeds) else None
        feeder = states[src.match_id]
        if not feeder.decided:
            return _UNKNOWN
        return feeder.winner if isinstance(src, WinnerOf) else feeder.loser

    for m in bracket.matches:
        a, b = resolve(m.source_a), resolve(m.source_b)
        result = by_id.get(m.match_id)
        first = states[m.reset_of] if m.reset_of is not None else None
        # Grand-final reset: not needed when the winners-bracket champion won the first.
        if (
            first is not None
            and first.decided
            and first.status != "not_needed"
            and first.winner == first.player_a
        ):
            states[m.match_id] = MatchState(
                m.match_id, first.player_a, first.player_b, "not_needed", first.winner
            )
            if result is not None:
                conflicts[m.match_id] = "result for a grand-final reset that is not needed"
            continue
        if first is not None and not first.decided:
            # The reset is played only after the first grand final, and only if needed.
            if result is not None:
                conflicts[m.match_id] = "result for a grand-final reset before the first final"
            states[m.match_id] = MatchState(m.match_id, first.player_a, first.player_b, "waiting")
            continue
        state = _play(m.match_id, a, b, result, gone, conflicts)
        states[m.match_id] = state
    champion = None
    for fid in reversed(bracket.final_ids):
        final = states[fid]
        if final.status == "not_needed" or (final.decided and final.winner is not None):
            champion = final.winner
            break
        if final.status in ("waiting", "ready"):
            break
    return BracketState(states, champion, conflicts)


def _play(
    mid: str,
    a: object,
    b: object,
    result: BracketResult | None,
    gone: dict[str, int],
    conflicts: dict[str, str],
) -> MatchState:
    if a is _UNKNOWN or b is _UNKNOWN:
        pa = a if isinstance(a, str) else None
        pb = b if isinstance(b, str) else None
        if result is not None:
            conflicts[mid] = "result recorded before both players were known"
        return MatchState(mid, pa, pb, "waiting")
    assert a is None or isinstance(a, str)
    assert b is None or isinstance(b, str)
    if a is None or b is None:
        if result is not None:
            conflicts[mid] = "result recorded for a bye"
        return MatchState(mid, a, b, "bye" if (a or b) else "void", a or b)
    if result is not None:
        if result.winner in (a, b):
            loser = b if result.winner == a else a
            return MatchState(mid, a, b, "done", result.winner, loser)
        conflicts[mid] = f"winner {result.winner!r} is not one of {a!r} and {b!r}"
    if a in gone or b in gone:
        # Both withdrawn: the one who withdrew later was still in when the other left,
        # so they take the walkover (and lose their next match the same way). This keeps
        # a later withdrawal from rewriting walkovers that were already decided.
        still_in = len(gone)
        winner = b if gone.get(a, still_in) < gone.get(b, still_in) else a
        return MatchState(mid, a, b, "walkover", winner, b if winner == a else a)
    return MatchState(mid, a, b, "ready")


def placements(bracket: Bracket, state: BracketState) -> tuple[tuple[str, ...], ...]:
    """Final places decided so far, best first; players out in the same round share a tuple.

    Single elimination: champion, runner-up, then the third-place match winner and loser
    (or both semi-final losers together), then the losers of each earlier round. While
    the third-place match is open, the semi-final losers known so far share one place
    there: they can finish third at best, so they never rank with the players still in
    the final. Double elimination: champion, runner-up, then the losers of each
    losers-bracket round, last round first. While a grand final is ready to play, its
    players come first (they can only finish first or second): before GF1 the
    winners-bracket champion, the one player without a loss, ahead of the losers-bracket
    champion; while the reset GF2 is open, both together (one loss each).

    >>> from tournament.formats.single_elim import single_elimination
    >>> b = single_elimination(["a", "b", "c", "d"])
    >>> res = [BracketResult("R1-1", "a"), BracketResult("R1-2", "c"), BracketResult("R2-1", "c")]
    >>> placements(b, bracket_state(b, res))
    (('c',), ('a',), ('b', 'd'))
    >>> b3 = single_elimination(["a", "b", "c", "d"], third_place=True)
    >>> placements(b3, bracket_state(b3, res[:2]))  # the final and 3P open
    (('b', 'd'),)
    """
    seed_rank = {p: i for i, p in enumerate(bracket.seeds)}
    out: list[tuple[str, ...]] = []
    if state.champion is not None:
        out.append((state.champion,))
        deciding = [state.matches[f] for f in bracket.final_ids]
        last = [s for s in deciding if s.status != "not_needed" and s.decided][-1]
        out.append(tuple(p for p in last.players if p is not None and p != state.champion))
    elif bracket.kind == "double":
        out += _open_grand_final(bracket, state)
    section = "R" if bracket.kind == "single" else "L"
    third = state.matches.get("3P")
    if third is not None and third.decided:
        out.append((third.winner,) if third.winner else ())
        out.append(tuple(p for p in third.players if p is not None and p != third.winner))
    elif third is not None:  # open: the semi-final losers so far, below the finalists
        out.append(tuple(sorted((p for p in third.players if p), key=seed_rank.__getitem__)))
    rounds = sorted({m.round_no for m in bracket.matches if m.section == section}, reverse=True)
    for r in rounds:
        if section == "R" and (r == rounds[0] or (third is not None and r == rounds[0] - 1)):
            continue  # the final and (with a third-place match) the semi-finals: above
        out_players: list[str] = []
        for m in bracket.matches:
            s = state.matches[m.match_id]
            if m.section == section and m.round_no == r and s.status in ("done", "walkover"):
                out_players += [p for p in s.players if p is not None and p != s.winner]
        out.append(tuple(sorted(out_players, key=seed_rank.__getitem__)))
    return tuple(p for p in out if p)


def _open_grand_final(bracket: Bracket, state: BracketState) -> list[tuple[str, ...]]:
    """The places of a double-elimination grand final that is ready to play (see
    `placements`): without this the losers-bracket champion, with more games won, could
    be ranked above the unbeaten winners-bracket champion."""
    ready = [state.matches[f] for f in bracket.final_ids if state.matches[f].status == "ready"]
    if not ready:
        return []
    final = ready[0]
    wb_champion, lb_champion = final.player_a or "", final.player_b or ""
    if bracket.match(final.match_id).reset_of is not None:
        return [(wb_champion, lb_champion)]
    return [(wb_champion,), (lb_champion,)]


def ready_pairings(
    bracket: Bracket,
    state: BracketState,
    *,
    round_no: int,
    seed: int | str,
    match_ids: Sequence[str] | None = None,
    fixed_tables: Mapping[str, int] | None = None,
    dealt_first: Mapping[str, str] | None = None,
) -> RoundPairing:
    """Tables and first dealers for the ready matches (or the given `match_ids`).

    Table 1 holds the match with the best seed in it; the first dealer is a seeded draw
    per match id, so the same seed gives the same draw. The grand-final reset is the same
    two players again, so its first dealer is the player who did not deal first in GF1
    (`first_dealer_fixed`: every first-dealer policy keeps it); pass `dealt_first` (match
    id -> who dealt first, for matches already played) for that, otherwise it is drawn
    like any other match.
    """
    seed_rank = {p: i for i, p in enumerate(bracket.seeds)}
    wanted = [state.matches[mid] for mid in match_ids] if match_ids else list(state.ready())
    for m in wanted:
        if m.status != "ready":
            raise FormatError(
                "match_ids",
                code="formats.bracket.ready_play",
                params={"match_id": m.match_id, "status": m.status},
            )
    ready = [m for m in wanted if m.player_a is not None and m.player_b is not None]
    ready.sort(key=lambda m: min(seed_rank[m.player_a or ""], seed_rank[m.player_b or ""]))
    games = []
    fixed_dealer = set()
    for m in ready:
        a, b = m.player_a or "", m.player_b or ""
        dealer = _reset_dealer(bracket, m, dealt_first or {})
        if dealer is None:
            dealer = draw_first_dealer(a, b, seed, m.match_id)
        else:
            fixed_dealer.add(m.match_id)
        games.append((a, b, dealer))
    pairings: tuple[Pairing, ...] = tuple(
        replace(p, first_dealer_fixed=p.match_id in fixed_dealer)
        for p in assign_tables(games, fixed_tables, match_ids=[m.match_id for m in ready])
    )
    return RoundPairing(round_no=round_no, pairings=pairings)


def _reset_dealer(bracket: Bracket, m: MatchState, dealt: Mapping[str, str]) -> str | None:
    """In a grand-final reset, the other player than the one who dealt first in the first
    final; None when that is not known (or the match is no reset)."""
    a, b = m.player_a or "", m.player_b or ""
    first = bracket.match(m.match_id).reset_of
    if first is not None and dealt.get(first) in (a, b):
        return b if dealt[first] == a else a
    return None


def unscored_byes_and_walkovers(
    bracket: Bracket,
    state: BracketState,
    *,
    recorded: Collection[str] = (),
    withdrawn: Collection[str] = (),
) -> tuple[tuple[tuple[str, str], ...], tuple[Walkover, ...]]:
    """The bracket's byes (match id, player) and walkovers that are not `recorded` yet (by
    match id), in bracket order, for the draw to score: a bye like a Swiss bye, a walkover
    as a forfeit win. Nothing for a withdrawn player (a bye of theirs, or a walkover between
    two withdrawn players: the later withdrawal goes on, but scores nothing).

    >>> from tournament.formats.single_elim import single_elimination
    >>> b = single_elimination(["a", "b", "c"])
    >>> unscored_byes_and_walkovers(b, bracket_state(b, [], ["c"]), withdrawn=["c"])
    ((('R1-1', 'a'),), (Walkover(winner='b', forfeited_by='c', match_id='R1-2'),))
    """
    gone = set(withdrawn)
    byes: list[tuple[str, str]] = []
    walkovers: list[Walkover] = []
    for m in state.matches.values():
        if m.match_id in recorded or m.winner is None or m.winner in gone:
            continue
        if m.status == "bye":
            byes.append((m.match_id, m.winner))
        elif m.status == "walkover" and m.loser is not None:
            walkovers.append(Walkover(m.winner, m.loser, m.match_id))
    return tuple(byes), tuple(walkovers)
