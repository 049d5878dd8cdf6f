"""``/api/v1/tournaments/<tid>/matches``: every match with where it stands (the open
ones with what each still needs), and one match in full, as ``tournament results
missing`` and ``tournament results show MATCH`` give them. Public: what a match holds is
what the sheet on the wall shows.

The views are the domain's (:mod:`tournament.domain.views.matchview`,
:mod:`tournament.domain.views.matchdetail`); the models here are their JSON. A body is made
once per version of the tournament; its cache key names the store too, since the cache
is the process's and a process may serve more than one store (the tests do).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from flask import Response
from flask_openapi3.models.tag import Tag
from pydantic import ConfigDict, Field

from tournament.app.services import services
from tournament.domain.commands.matchref import resolve_match
from tournament.domain.model.errors import NotFoundError
from tournament.domain.views.matchdetail import match_detail
from tournament.domain.views.matchview import match_lines
from tournament.domain.views.roundview import drawn_round
from tournament.projections.documents import OPEN_MATCHES
from tournament.web.api.blueprint import APIBlueprint
from tournament.web.api.models import MatchPath, Model, TournamentPath
from tournament.web.problems import documented, invalid
from tournament.web.projected_reads import read_document
from tournament.web.reads import versioned

api = APIBlueprint(
    "matches",
    __name__,
    url_prefix="/api/v1",
    abp_tags=[Tag(name="matches", description="matches, where they stand, what they hold")],
)

Status = Literal["open", "decided", "dropped", "void"]


class PlayerOut(Model):
    id: int = Field(description="the player's start number")
    name: str


class MatchLineOut(Model):
    """A match in a list: where it is played, by whom, where it stands."""

    match_id: str = Field(description="round.table (2.5), a walkover (2.w1) or a bracket id")
    round: int
    table: int = Field(description="0: a walkover the draw scored (nobody plays it)")
    slot: str | None = Field(description="the bracket match it plays (R1-3), if any")
    players: tuple[PlayerOut, PlayerOut] = Field(description="player A, player B")
    first_dealer: PlayerOut | None = Field(
        description="who deals the first hand (R18); null: set with the first result"
    )
    status: Status = Field(
        description="open: holds its round up (T-round); decided; dropped: a withdrawal; "
        "void: a bracket match a correction took out of the bracket"
    )
    bummerl: tuple[int, int] = Field(
        description="Bummerl won by A and B, a Schneiderbummerl counting 2 (R19, R20)"
    )
    winner: PlayerOut | None
    result: str = Field(description="the result in words; empty while open")
    needs: str | None = Field(description="open: what still has to be entered")
    progress: str | None = Field(description="open: nothing entered, Bummerl 1:0 ..., live")
    reopened: str | None = Field(description="open again: the correction that made it so")
    note: str | None = Field(description="void, or in conflict with the bracket: what to do")


class MatchesQuery(Model):
    model_config = ConfigDict(extra="forbid")

    status: Literal["open", "decided", "all"] = Field(
        "all",
        description="open: every match still open, of any round (all of them); decided: "
        "every match no longer open (decided, dropped or void)",
    )
    round: int | None = Field(None, ge=1, le=10_000, description="only this round's matches")


class MatchList(Model):
    status: str
    round: int | None
    count: int
    matches: list[MatchLineOut]


class HandOut(Model):
    winner: PlayerOut
    game_points: int = Field(description="1, 2 or 3 (R13-R16)")
    dealer: PlayerOut | None = Field(description="as entered (R18); null: not given")
    reason: str | None
    result_id: str | None = Field(description="the result it came from")
    number: int = Field(description="its number in that result (a tally's hand N)")


class BummerlOut(Model):
    number: int
    to_go: tuple[int, int] = Field(description="game points A and B still strike off (R17)")
    winner: PlayerOut | None
    schneider: bool = Field(description="won while the loser was still at 7 (R19)")
    counts: int = Field(description="Bummerl it counts for its winner: 2 if Schneider (R19)")
    hands: list[HandOut] = Field(
        description="the hands that count, in order; a tally by columns gives no order "
        "between the players' hands, so theirs is one the counts allow"
    )


class ResultEventOut(Model):
    what: Literal["entered", "corrected", "struck"]
    version: int = Field(description="the event's number in the tournament's log")
    at: datetime
    actor: str | None = Field(description="who typed it in (the account)")
    source: str | None = Field(description="entered: paper, live, import or system (a walkover)")
    by: str | None = Field(description="corrected, struck: who decided it")
    reason: str | None
    hand: int | None = Field(description="struck: which hand of the result")
    previous: dict[str, Any] | None = Field(description="corrected: the result before")
    replacement: dict[str, Any] | None = Field(description="corrected: after; null: voided")


class EntryOut(Model):
    result_id: str = Field(description="for corrections and strikes")
    kind: Literal["hand", "tally", "live", "forfeit"]
    result: dict[str, Any] | None = Field(description="as it stands; null: voided")
    struck: list[int] = Field(description="its hands struck off (R17)")
    places: list[str] = Field(description="where each of its hands fell: Bummerl 2 hand 3 ...")
    history: list[ResultEventOut]


class VoidSignatureOut(Model):
    player: PlayerOut
    why: str


class MatchOut(MatchLineOut):
    """A match in full, as ``tournament results show MATCH`` shows it."""

    decided: bool
    best_of: int
    standing: str = Field(description="where it stands, in words")
    next_dealer: PlayerOut | None = Field(description="who deals the next hand (R18)")
    game_points: tuple[int, int] = Field(description="struck off by A and B in all (R17)")
    schneider: tuple[int, int] = Field(description="Schneiderbummerl won by A and B (R19)")
    forfeit: bool
    bummerls: list[BummerlOut] = Field(description="in order; the last one is in play")
    entries: list[EntryOut] = Field(description="every result, in the order entered")
    signed_by: list[PlayerOut]
    void_signatures: list[VoidSignatureOut] = Field(
        description="signatures that no longer cover the sheet (changed after signing)"
    )
    live_hand: str | None = Field(description="the hand stream of a live hand in progress")
    warnings: list[str]
    problems: list[str] = Field(description="results the rules could not count as entered")
    flags: list[str] = Field(description="an earlier result changed after this was drawn")


def line_json(line: Any) -> dict[str, Any]:
    return MatchLineOut.model_validate(line, from_attributes=True).model_dump(mode="json")


def checked_round(t: Any, number: int | None) -> int | None:
    """A round filter that names a round not drawn: 422 naming the rounds there are."""
    if number is None:
        return None
    try:
        return drawn_round(t, number).number
    except NotFoundError as error:
        raise invalid("query.round", error.message, rule=error.rule) from None


@api.get(
    "/tournaments/<tid>/matches",
    summary="Matches, filtered by status and round; the open ones with what each needs",
    responses={200: MatchList, 304: None, **documented([404, 422])},
)
def list_matches(path: TournamentPath, query: MatchesQuery) -> Response:
    if query.status == "open" and query.round is None:
        # What the organiser's "results missing" asks for all evening: the projection's.
        reading = read_document(path.tid, OPEN_MATCHES)
        if reading is not None and reading.body is not None:
            body = reading.body
            stale = reading.variant
            return versioned(
                reading.version,
                lambda: body,
                variant="open" + stale,
                cache=(services().url, "matches-open", path.tid, stale),
            )
    t = services().tournaments.state(path.tid)
    number = checked_round(t, query.round)

    def build() -> dict[str, Any]:
        lines = [line_json(x) for x in match_lines(t, query.status, number)]
        return {"status": query.status, "round": number, "count": len(lines), "matches": lines}

    return versioned(
        t.version, build, cache=(services().url, "matches", path.tid, query.status, number)
    )


@api.get(
    "/tournaments/<tid>/matches/<mid>",
    summary="A match in full: Bummerl and hands, results with their history, signatures",
    responses={200: MatchOut, 304: None, **documented([404, 422])},
)
def get_match(path: MatchPath) -> Response:
    service = services().tournaments
    t = service.state(path.tid)
    m = t.matches[resolve_match(t, path.mid)]

    def build() -> dict[str, Any]:
        d = match_detail(t, m, service.events(path.tid))
        detail = MatchOut.model_validate(
            {
                **line_json(d.line),
                "decided": m.decided,
                "best_of": d.best_of,
                "standing": d.standing,
                "next_dealer": d.next_dealer,
                "game_points": d.game_points,
                "schneider": d.schneider,
                "forfeit": d.forfeit,
                "bummerls": d.bummerls,
                "entries": d.entries,
                "signed_by": d.signed_by,
                "void_signatures": d.void_signatures,
                "live_hand": d.live_hand,
                "warnings": d.warnings,
                "problems": d.problems,
                "flags": d.flags,
            },
            from_attributes=True,
        )
        return detail.model_dump(mode="json")

    return versioned(t.version, build, cache=(services().url, "match", path.tid, m.match_id))
