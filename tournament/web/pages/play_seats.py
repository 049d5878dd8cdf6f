"""What a phone sees of an online seat it may not open, or before it takes it (T-online).

One phone per seat (P1): a seat nobody holds shows its player and *Take my seat* (a
POST: opening the link takes nothing, AE-1); a seat another phone holds, or the other
seat of a table this phone holds, is refused with nothing of the seat; the room's views
of a table are refused to a phone holding a seat at it; and a seat released and taken
elsewhere replaces the live table with the refusal, its title and no turn (P11).
"""

from __future__ import annotations

from flask import Response, render_template, url_for
from flask_babel import gettext
from flask_wtf.csrf import generate_csrf
from markupsafe import escape

from tournament.domain.commands import online
from tournament.domain.commands.tablecodes import TableSeat, normalized
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.web.devices import sent_device_hash
from tournament.web.live import play_service

SEAT_TAKEN = "online.seat_taken"
BOTH_SEATS = "online.both_seats"


def taken_words() -> str:
    return str(
        gettext(
            "This seat is already open on another phone. If that was you and your phone is "
            "gone, ask the organiser to release the seat."
        )
    )


def seat_taken(tid: str) -> Response:
    """The friendly refusal for a device that does not hold the seat: nothing of it."""
    t = play_service().tournaments.state(tid)
    settings = t.settings
    html = render_template(
        "play/taken.html",
        tournament=settings.name if settings is not None else tid,
        heading=gettext("Seat already open"),
        words=taken_words(),
    )
    return Response(html, status=409, mimetype="text/html")


def released_fragment() -> str:
    """What the live table becomes on the phone whose seat was released and taken by
    another device: the refusal in the place of the turn line (so the title and the
    screen reader's announcement say it, and no "Your turn" is left, P11)."""
    title = gettext("Seat already open")
    return (
        f'<div class="seat-table status-taken" data-title="{escape(title)}" '
        f'data-status="taken"><p class="turn turn-taken problem">{escape(taken_words())}</p>'
        "</div>"
    )


def both_seats(tid: str, t: Tournament, seat: TableSeat) -> Response:
    """The refusal for the device that holds the table's other seat (P1): one phone per
    seat, so nobody sees or plays the opponent's hand."""
    names = names_of(t, seat.match_id)
    words = gettext(
        "This phone already holds the other seat of this table (%(other)s). One phone per "
        "seat: %(name)s opens this code on their own phone.",
        other=names[1 - seat.seat],
        name=names[seat.seat],
    )
    settings = t.settings
    html = render_template(
        "play/taken.html",
        tournament=settings.name if settings is not None else tid,
        heading=gettext("Not your seat"),
        words=words,
    )
    return Response(html, status=409, mimetype="text/html")


def own_table_refusal(tid: str, mid: str) -> Response | None:
    """The room's views of a table (its spectator page, projector view and stream) show
    more than a seat may see: refused (409) to a browser that holds a seat at it."""
    try:
        t = play_service().tournaments.state(tid)
    except DomainError:
        return None
    if online.seat_of_device(t, mid, sent_device_hash()) is None:
        return None
    settings = t.settings
    html = render_template(
        "play/taken.html",
        tournament=settings.name if settings is not None else tid,
        heading=gettext("Your own table"),
        words=gettext(
            "This phone holds a seat at this table: follow the table on your seat's page, "
            "which shows what you may see."
        ),
    )
    return Response(html, status=409, mimetype="text/html")


def names_of(t: Tournament, match_id: str) -> list[str]:
    match = t.matches[match_id]
    return [t.players[p].name if p in t.players else str(p) for p in match.players]


def take_page(tid: str, t: Tournament, seat: TableSeat, code: str) -> Response:
    """A seat nobody holds: who plays here, and *Take my seat* (a POST). Nothing of the
    hand: its cards are shown only to the device that took the seat."""
    names = names_of(t, seat.match_id)
    match = t.matches[seat.match_id]
    settings = t.settings
    html = render_template(
        "play/take.html",
        tournament=settings.name if settings is not None else tid,
        table=match.table,
        round=match.round,
        you=names[seat.seat],
        opponent=names[1 - seat.seat],
        take_url=url_for("play.take", code=normalized(code)),
        csrf_token=generate_csrf(),
    )
    return Response(html, mimetype="text/html")
