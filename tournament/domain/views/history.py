"""Each player's evening round by round: for ``players show``, the crosstable and the
"find your table" list.

A player's round is a match (against whom, at which table, who dealt first, the result),
a bye, a round missed by a late entry (scored as nothing, or as a bye: T-late-entry), or
no game at all (not drawn: absent, withdrawn,
or nothing left to play in a round robin group).

    >>> from tournament.domain.testing import played
    >>> t = played(players=4, rounds=2, seed=3)
    >>> [line.kind for line in player_rounds(t, 1)]
    ['match', 'match']
    >>> cell(player_rounds(t, 1)[0]) in ("3+", "3-", "2+", "2-", "4+", "4-")
    True
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from tournament.domain.model.matchstate import MatchState, schneider_note
from tournament.domain.model.parts import Player, Round
from tournament.domain.model.state import Tournament

Kind = Literal["match", "bye", "missed", "none"]


@dataclasses.dataclass(frozen=True, slots=True)
class RoundLine:
    """One round of one player."""

    round: int
    kind: Kind
    match: MatchState | None = None  # kind "match"
    seat: int = 0  # the player's seat in ``match``
    #: kind "missed": the late entry scores the round as a bye (a point without a game)
    scored_as_bye: bool = False
    #: kind "match": a bracket match never played that a correction took out of the
    #: bracket (:meth:`Tournament.vacated`): it counts for nobody, its slot is drawn again
    void: bool = False
    #: kind "none": why the round gave the player nothing, in words
    why: str = "no game"

    @property
    def opponent(self) -> int | None:
        return None if self.match is None else self.match.players[1 - self.seat]

    @property
    def outcome(self) -> str:
        """``won``, ``lost``, ``open``, ``dropped``, ``both absent`` or ``void`` (a match),
        else the kind."""
        m = self.match
        if m is None:
            return self.kind
        if self.void:
            return "void"
        s = m.summary
        if s.dropped:
            return "dropped"
        if not s.decided:
            return "open"
        if s.winner is None:
            return "both absent"
        return "won" if s.winner == self.seat else "lost"


def player_rounds(t: Tournament, player_id: int) -> list[RoundLine]:
    """The player's rounds 1 to the current one, in order (a cancelled round is not one)."""
    p = t.players[player_id]
    by_round: dict[int, MatchState] = {}
    for mid in t.player_matches.get(player_id, []):
        m = t.matches[mid]
        by_round.setdefault(m.round, m)  # a bracket round holds one match per player
    out = []
    vacated = t.vacated()
    for r in t.rounds:
        found = by_round.get(r.number)
        if found is not None:
            void = found.match_id in vacated
            out.append(RoundLine(r.number, "match", found, found.seat_of(player_id), void=void))
        elif player_id in r.byes:
            out.append(RoundLine(r.number, "bye"))
        elif p.late and r.number <= p.missed:
            out.append(RoundLine(r.number, "missed", scored_as_bye=p.missed_score == "bye"))
        else:
            # Once per state, not per player: the crosstable asks for every player's rounds.
            checking_in = t.derived(
                "checking_in", lambda: any(x.checked_in for x in t.players.values())
            )
            out.append(RoundLine(r.number, "none", why=_why_none(p, r, checking_in)))
    return out


def _why_none(p: Player, r: Round, checking_in: bool) -> str:
    """Why round ``r`` gave player ``p`` nothing: withdrawn before it, nothing to play in
    it (a round robin), or not checked in when it was drawn."""
    if p.withdrawn is not None and r.number > p.withdrawn:
        return "withdrawn"
    if p.id in r.idle:
        return "no game (nothing to play in this round)"
    if checking_in:
        return "not checked in"
    return "no game"


def round_words(t: Tournament, line: RoundLine) -> str:
    """One round of a player in words, as ``players show`` prints it and the API gives
    it: ``table 3, 1.3: v Berta Gruber (2), Anna Huber (1) dealt first: won 2:1 Bummerl,
    game points 14:9``; ``bye``; ``missed (late entry), scored as a bye``."""
    m = line.match
    if m is None:
        what = {"bye": "bye", "missed": "missed (late entry)", "none": line.why}[line.kind]
        if line.scored_as_bye:  # the point it brings comes from somewhere (T-late-entry)
            what += ", scored as a bye"
        return what
    # Named, not "dealt first" after the opponent's name, which read as the opponent's.
    # A void match was never played: nobody dealt in it.
    dealer = None if line.void else m.first_dealer
    dealt = "" if dealer is None else f", {m.labels[dealer]} dealt first"
    table = f"table {m.table}" if m.table else "walkover"
    return f"{table}, {m.match_id}: v {m.labels[1 - line.seat]}{dealt}: {result_words(t, line)}"


def result_words(t: Tournament, line: RoundLine) -> str:
    """A match's result as its player reads it: ``won 2:1 Bummerl, game points 14:9``."""
    m, seat = line.match, line.seat
    assert m is not None
    s = m.summary
    own = f"{s.bummerl[seat]}:{s.bummerl[1 - seat]} Bummerl"
    points = f", game points {s.game_points[seat]}:{s.game_points[1 - seat]}"
    outcome = line.outcome
    if outcome in ("won", "lost"):
        # 3:0 in a best of 3 looks like a typo without its reason (R19).
        how = " by forfeit" if s.forfeit else schneider_note(s, m.schneiderbummerl) + points
        return f"{outcome} {own}{how}"
    if outcome == "open":
        return f"open, {own}{points}"
    if outcome == "void":  # never played: no Bummerl to show, and never to be played
        from tournament.domain.standings.knockout import void_note  # the bracket's code: only here

        return void_note(t, m)
    return "both absent, a loss for each" if outcome == "both absent" else "dropped (withdrawal)"


def cell(line: RoundLine) -> str:
    """A crosstable cell, as club crosstables write them: the opponent's start number and
    ``+`` (won) or ``-`` (lost), ``k`` when not played (kampflos: a forfeit or walkover),
    ``?`` while open; ``bye``; ``bye*`` a late entry's missed round scored as a bye (the
    point counts, so the cell says where it came from); ``x`` dropped; ``v`` void (never
    played, taken out of the bracket by a correction: never to be played, unlike ``?``);
    ``..`` a round missed or without a game."""
    if line.kind == "bye":
        return "bye"
    if line.kind == "missed" and line.scored_as_bye:
        return "bye*"
    if line.kind != "match" or line.match is None:
        return ".."
    outcome = line.outcome
    opponent = str(line.opponent)
    if outcome == "dropped":
        return f"{opponent}x"
    if outcome == "void":
        return f"{opponent}v"
    if outcome == "open":
        return f"{opponent}?"
    sign = "+" if outcome == "won" else "-"
    return f"{opponent}{sign}{'k' if line.match.summary.forfeit else ''}"


#: The crosstable's legend, printed under it (two lines of at most 100 columns).
LEGEND = (
    "12+ won against player 12, 12- lost, k not played (forfeit, walkover), 12? open,\n"
    "12x dropped (withdrawal), bye: a bye, ..: no game (a missed round, absent, nothing to play)"
)
#: The legend's line for ``bye*``, printed only when a cell says it.
LATE_BYE_LEGEND = "bye*: a round missed by a late entry, scored as a bye (T-late-entry)"
#: The legend's line for a void match, printed only when a cell says it.
VOID_LEGEND = (
    "12v void: drawn against player 12, never played, and taken out of the bracket by a correction"
)


def points_before(t: Tournament, number: int) -> dict[int, int]:
    """Each player's match points before round ``number`` was played, as the Swiss drew it
    by them: a win, a forfeit win and a bye 1 each, a late entry's missed rounds 1 each if
    it scores them as byes (T-late-entry). Later results and corrections of earlier rounds
    are as they stand now.

    >>> from tournament.domain.testing import played
    >>> t = played(players=4, rounds=2, seed=3)
    >>> sorted(points_before(t, 2).values()), points_before(t, 1)[1]
    ([0, 0, 1, 1], 0)
    """
    points = dict.fromkeys(t.players, 0)
    for p in t.players.values():
        if p.late and p.missed_score == "bye":
            points[p.id] += min(p.missed, number - 1)
    for r in t.rounds[: number - 1]:
        for pid in r.byes:
            points[pid] += 1
    for m in t.matches.values():
        s = m.summary
        if m.round < number and s.decided and not s.dropped and m.winner is not None:
            points[m.winner] += 1
    return points
