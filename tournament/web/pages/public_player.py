"""A page per player (no login): ``GET /t/<tid>/players/<pid>`` -- where they stand,
where they sit next, every round (opponent, table, result), every Bummerl with its
hands, and their path through the bracket; ``GET /t/<tid>/players`` lists everyone.

The rounds are the domain's (:func:`player_rounds`, as ``players show`` prints them), the
Bummerl :func:`bummerl_lines` (as ``results show``), the path the bracket document of the
projection (as ``GET .../bracket``). With ``?round=N`` -- where a past table's numbers
link to -- the page shows the rounds up to N and the standing at the end of round N.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Blueprint, render_template

from tournament.domain.model.state import Tournament
from tournament.domain.views.history import RoundLine, player_rounds
from tournament.domain.views.matchdetail import BummerlLine, bummerl_lines
from tournament.i18n.public_words import heading_words, outcome_words, status_words
from tournament.projections.documents import BRACKET, STANDINGS
from tournament.web.pages.public_parts import (
    alphabetical,
    header,
    next_match,
    not_found,
    number,
    opponent_of,
    reading,
)
from tournament.web.pages.public_play import online_tables
from tournament.web.pages.public_standings import asked_round, now_table, round_table
from tournament.web.projected_reads import read_document

pages = Blueprint("public_player", __name__)


@dataclasses.dataclass(frozen=True)
class PlayedRound:
    """One round of the player, as the page's table shows it."""

    round: int
    table: int | None
    match_id: str | None
    slot: str | None  # the bracket match it played
    opponent_id: int | None
    opponent: str | None
    opponent_points: int | None  # their match points now: what a Buchholz adds up
    dealt_first: bool | None  # the player dealt the first hand (R18); None: not known
    outcome: str  # in the reader's language
    won: bool
    bummerl: str  # own first: 2:1
    game_points: str  # own first: 14:9 (R17)
    forfeit: bool
    bummerls: tuple[BummerlLine, ...]
    seat: int


@dataclasses.dataclass(frozen=True)
class PathStep:
    """A bracket slot the player is in: its section, opponent and how it stands."""

    slot: str
    heading: str
    opponent: str | None
    status: str
    won: bool | None  # None: not decided
    score: str


@pages.get("/t/<tid>/players")
def players_page(tid: str) -> Any:
    with reading(tid) as t:
        if t is None:
            return not_found(tid)
        top = header(tid, t)
        players = sorted(t.players.values(), key=lambda p: (alphabetical(p.name), p.id))
    return render_template("public/players.html", tid=tid, tab="players", top=top, players=players)


@pages.get("/t/<tid>/players/<int:pid>")
def player_page(tid: str, pid: int) -> Any:
    document = read_document(tid, STANDINGS)
    bracket = read_document(tid, BRACKET)
    with reading(tid) as t:
        if document is None or t is None or pid not in t.players:
            return not_found(tid)
        asked = asked_round(t)
        table = round_table(tid, t, asked.round) if asked.round else now_table(document)
        rows = {int(row["player_id"]): row for row in table["rows"]}
        # As of a past round the matches are those the table counts (results entered or
        # corrected later are not in it: the note says how many), never today's.
        shown: Tournament = table.get("state") or t
        rounds = [
            _played(shown, line, rows)
            for line in player_rounds(shown, pid)
            if asked.round is None or line.round <= asked.round
        ]
        upcoming = next_match(t, pid) if asked.round is None else None
        top = header(tid, t)
        player = t.players[pid]
        online = online_tables(t)
    body = bracket.body if bracket is not None else None
    html = render_template(
        "public/player.html",
        tid=tid,
        tab="players",
        top=top,
        player=player,
        row=rows.get(pid),
        columns=table["columns"],
        as_of_round=asked.round,
        as_of_drawn=table["as_of_drawn"],
        as_of_changed=table["as_of_changed"],
        as_of_error=asked.error,
        rounds=rounds,
        upcoming=upcoming,
        opponent=opponent_of(upcoming, pid) if upcoming else None,
        path=_path(body, pid) if body else [],
        number=number,
        online=online,
    )
    return html, 422 if asked.error else 200


def _played(t: Tournament, line: RoundLine, rows: dict[int, dict[str, Any]]) -> PlayedRound:
    m, seat = line.match, line.seat
    if m is None:
        why = line.why if line.kind == "none" else line.kind
        if line.scored_as_bye:
            why = "bye"
        return PlayedRound(
            line.round, None, None, None, None, None, None, None,
            outcome_words(why), False, "", "", False, (), 0,
        )  # fmt: skip
    s = m.summary
    other = m.players[1 - seat]
    opponent_row = rows.get(other)
    return PlayedRound(
        round=line.round,
        table=m.table or None,
        match_id=m.match_id,
        slot=str(m.bracket["id"]) if m.bracket else None,
        opponent_id=other,
        opponent=t.players[other].name if other in t.players else None,
        opponent_points=int(opponent_row["points"]) if opponent_row else None,
        dealt_first=None if m.first_dealer is None or line.void else m.first_dealer == seat,
        outcome=outcome_words(line.outcome),
        won=line.outcome == "won",
        bummerl=f"{s.bummerl[seat]}:{s.bummerl[1 - seat]}",
        game_points=f"{s.game_points[seat]}:{s.game_points[1 - seat]}",
        forfeit=s.forfeit,
        bummerls=tuple(bummerl_lines(t, m)) if m.entries and not s.forfeit else (),
        seat=seat,
    )


def _path(body: dict[str, Any], pid: int) -> list[PathStep]:
    """The bracket slots the player is in, in the bracket's order."""
    steps = []
    for slot in body.get("slots") or []:
        players = slot.get("players") or [None, None]
        ids = [p["player_id"] if p else None for p in players]
        if pid not in ids:
            continue
        other = players[1 - ids.index(pid)]
        winner = slot.get("winner")
        result = slot.get("result")
        won = None if winner is None else winner["player_id"] == pid
        score = ""
        if result:  # the winner's Bummerl first (R20): the player's own first here
            first, second = result["bummerl"]
            score = f"{first}:{second}" if won else f"{second}:{first}"
        steps.append(
            PathStep(
                slot=str(slot["slot"]),
                heading=heading_words(str(slot["heading"])),
                opponent=other["name"] if other else None,
                status=status_words(str(slot["status"]), bool(slot.get("conflict"))),
                won=won,
                score=score,
            )
        )
    return steps
