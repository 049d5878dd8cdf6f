"""How the play API knows a device (T-online): the ``Seat-Token`` header.

An API client has no cookie jar the service could rely on: it names its device with the
token it was given when it took a seat (``device_token``), sent as header ``Seat-Token``
on every call of that seat, and also when it takes another seat, so that the table's
other seat is refused to it (``online.both_seats``) and the room's view of that table
too (``online.own_table``): one device per seat (P1).
"""

from __future__ import annotations

from typing import Final

from flask import request

from tournament.app.play import device_hash
from tournament.app.services import services
from tournament.domain.commands import online
from tournament.web.problems import Problem

#: The header a seat's device sends its token in (given by the call that took the seat).
SEAT_TOKEN: Final = "Seat-Token"
#: How long a device token sent may be (the service gives 32 characters).
MIN_TOKEN, MAX_TOKEN = 32, 128


def sent_token() -> str | None:
    return request.headers.get(SEAT_TOKEN) or None


def token_to_take_with() -> str | None:
    """The device token a client takes a seat with (None: it is given a new one); one
    the service cannot have given (too short or too long) is refused, 422."""
    sent = sent_token()
    if sent is not None and not MIN_TOKEN <= len(sent) <= MAX_TOKEN:
        raise Problem(
            422,
            "Unprocessable request",
            f"Seat-Token: a device token given by this service has {MIN_TOKEN} to "
            f"{MAX_TOKEN} characters; leave the header out to be given one (T-online)",
            field=SEAT_TOKEN,
            rule=online.RULE,
        )
    return sent


def not_a_seat_here(tid: str, mid: str) -> None:
    """A device that sends the token of a seat at this table is refused the room's view
    (409 ``online.own_table``): its own seat's view is what it may see (T-online)."""
    token = sent_token()
    t = services().tournaments.state(tid)
    if token:
        online.refuse_own_table(t, mid, device_hash(token))
