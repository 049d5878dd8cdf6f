"""The public tournament page (no login, for phones): ``GET /t/<tid>``, and its
pairings alone at ``GET /t/<tid>/pairings``.

Its standings come from the standings projection (the same document as ``GET
/api/v1/tournaments/<tid>/standings``) and say when that is behind the log; with
``?round=N`` (the slider) the table at the end of a past round, as the API's
``?round=`` folds it (:mod:`.public_standings`); with ``?me=<player>`` ("find me") the
player's row is marked and where they sit next is said. Its pairings come from
:func:`round_view`, as the printed round sheet. The table is a fragment of its own (``GET
/t/<tid>/standings-fragment``, same queries) that the page fetches again on each
``standings`` event of the live stream, or every 10 s when the stream is refused, and
when the slider moves.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from flask import Blueprint, render_template, request, url_for
from flask_babel import gettext
from markupsafe import Markup

from tournament.domain.model.state import Tournament
from tournament.domain.standings.lives import lives_left
from tournament.domain.standings.pairing import finished
from tournament.domain.views.matchview import MatchLine
from tournament.domain.views.roundview import RoundView, round_view
from tournament.projections.documents import STANDINGS
from tournament.web.pages.fragments import fragment
from tournament.web.pages.public_parts import (
    alphabetical,
    header,
    next_match,
    not_found,
    opponent_of,
    reading,
)
from tournament.web.pages.public_play import online_tables
from tournament.web.pages.public_standings import AsOf, asked_round, now_table, round_table
from tournament.web.projected_reads import read_document

if TYPE_CHECKING:
    from tournament.web.projected import Reading

pages = Blueprint("public", __name__)

# Where the tests and the projector (tournament.web.pages.projector) have found these.
__all__ = ["alphabetical", "not_found", "pages"]
_standings = now_table


@dataclasses.dataclass(frozen=True)
class Seat:
    """A line of "where do I sit": a player, their table and opponent (None: a bye)."""

    name: str
    table: int | None
    opponent: str | None
    player_id: int | None = None  # whose seat: their lives left in the lives format


@dataclasses.dataclass(frozen=True)
class Me:
    """The player "find me" found: their name and where they sit next."""

    player_id: int
    name: str
    table: int | None  # None: no open match (a bye, or nothing drawn for them yet)
    opponent: str | None
    round: int | None


@pages.get("/t/<tid>")
def tournament_page(tid: str) -> Any:
    return _page(tid, "public/tournament.html", "standings")


@pages.get("/t/<tid>/pairings")
def pairings_page(tid: str) -> Any:
    return _page(tid, "public/pairings.html", "pairings")


def _page(tid: str, template: str, tab: str) -> Any:
    document = read_document(tid, STANDINGS)
    with reading(tid) as t:
        if document is None or t is None:
            return not_found(tid)
        current = round_view(t) if t.current_round else None
        asked = asked_round(t)
        table = _table(tid, t, document, asked)
        me = _me(t)
        standings_html = _standings_html(tid, document, table, me, asked)
        online = online_tables(t)
        lives = lives_left(t) or {}
        # The pairings of the round asked for (?round=N, an earlier round's tables and
        # results); "where do I sit" only for the round being played (O-L4 of trial 4).
        shown = round_view(t, asked.round) if tab == "pairings" and asked.round else current
        seated = shown is current and current is not None and not finished(t)
        version = t.version

    def pairings() -> str:
        return render_template(
            "public/pairings_part.html",
            lives=lives,
            online=online,
            tid=tid,
            current=shown,
            tables=_tables(shown),
            seats=_seats(shown) if seated else [],
        )

    # The pairings (100 tables of 200 players, each cell's words translated) are rendered
    # once per version of the tournament, round shown and language (trial 9, section 7).
    number = shown.number if shown is not None else None
    pairings_html = fragment(("public-pairings", tid, version, number, seated), pairings)
    html = render_template(
        template,
        tid=tid,
        tab=tab,
        top=header(tid, t),
        stage=_stage(t, current),
        current=shown,
        rounds_drawn=len(t.rounds),
        pairings_html=pairings_html,
        me=me,
        as_of_error=asked.error,
        live_url=url_for("live.live_stream", tid=tid),
        fragment_url=url_for("public.standings_fragment", tid=tid),
        round_url=url_for("public.round_fragment", tid=tid, me=me.player_id if me else None),
        standings_html=standings_html,
        **table,
    )
    return html, 422 if asked.error else 200


@pages.get("/t/<tid>/round-fragment")
def round_fragment(tid: str) -> Any:
    """The current round's pairings, with the stage line and "find me" box out of band:
    what the page fetches again on each ``round`` and ``result`` event of the stream (a
    round drawn, a result in), so a page left open all evening says where play stands."""
    with reading(tid) as t:
        if t is None:
            return not_found(tid)
        current = round_view(t) if t.current_round else None
        me = _me(t)
        html = render_template(
            "public/round_fragment.html",
            lives=lives_left(t) or {},
            tid=tid,
            stage=_stage(t, current),
            current=current,
            tables=_tables(current),
            seats=[] if finished(t) else _seats(current),
            me=me,
            online=online_tables(t),
        )
    return html


@pages.get("/t/<tid>/standings-fragment")
def standings_fragment(tid: str) -> Any:
    """The standings table alone, for the page to swap in when the table moved or the
    slider asked for another round."""
    document = read_document(tid, STANDINGS)
    with reading(tid) as t:
        if document is None or t is None:
            return not_found(tid)
        asked = asked_round(t)
        table = _table(tid, t, document, asked)
        me = _me(t)
    html = _standings_html(tid, document, table, me, asked)
    headers = {}
    if request.headers.get("HX-Trigger") == "as-of-round" and not asked.error:
        # The slider moved: the address says the round shown, so a reload or a shared
        # link shows the same table (htmx replaces the address, no new history entry).
        shown = url_for(
            "public.tournament_page",
            tid=tid,
            round=table["as_of_round"],
            me=me.player_id if me else None,
        )
        headers["HX-Replace-Url"] = shown
    return html, 422 if asked.error else 200, headers


def _standings_html(tid: str, document: Reading, table: dict[str, Any], me: Me | None,
                    asked: AsOf) -> Markup:  # fmt: skip
    """The standings table (``public/standings.html``). The table now is rendered once
    per version of the projection and of the log (whether it is stale, and since when),
    player found and language (:mod:`.fragments`); a past round's is rendered each time."""

    def render() -> str:
        return render_template(
            "public/standings.html", tid=tid, me=me, as_of_error=asked.error, **table
        )

    if asked.round is not None:
        return Markup(render())
    key = (
        "public-standings", tid, document.version, document.log_version,
        table["stale_since"], asked.error, me,
    )  # fmt: skip
    return fragment(key, render)


def _table(tid: str, t: Tournament, document: Any, asked: AsOf) -> dict[str, Any]:
    if asked.round is None:
        return now_table(document)
    return round_table(tid, t, asked.round)


def _me(t: Tournament) -> Me | None:
    """``?me=<start number>``: the player "find me" jumped to."""
    text = request.args.get("me", "")
    if not text.isdigit() or int(text) not in t.players:
        return None
    pid = int(text)
    upcoming = next_match(t, pid)
    if upcoming is None:
        return Me(pid, t.players[pid].name, None, None, None)
    return Me(
        pid,
        t.players[pid].name,
        upcoming.table or None,
        opponent_of(upcoming, pid),
        upcoming.round,
    )


def _stage(t: Tournament, current: RoundView | None) -> str:
    """Where the tournament stands, in the reader's language."""
    if current is None:
        return str(gettext("Registration: no round drawn yet"))
    if finished(t):
        return str(gettext("Finished after round %(n)s", n=current.number))
    if current.complete:
        return str(gettext("Round %(n)s complete", n=current.number))
    decided = sum(1 for line in current.tables if line.status != "open")
    return str(
        gettext(
            "Round %(n)s in play: %(decided)s of %(all)s matches decided",
            n=current.number,
            decided=decided,
            all=len(current.tables),
        )
    )


def _tables(current: RoundView | None) -> list[MatchLine]:
    if current is None:
        return []
    return sorted((line for line in current.tables if line.table), key=lambda x: x.table)


def _seats(current: RoundView | None) -> list[Seat]:
    """Every player of the round by name: where they sit and against whom."""
    if current is None:
        return []
    seats = []
    for line in current.tables:
        a, b = line.players
        if b is None or not line.table:
            continue
        seats.append(Seat(a.name, line.table, b.name, a.id))
        seats.append(Seat(b.name, line.table, a.name, b.id))
    seats += [Seat(bye.player.name, None, None, bye.player.id) for bye in current.byes]
    return sorted(seats, key=lambda s: (alphabetical(s.name), s.name))
