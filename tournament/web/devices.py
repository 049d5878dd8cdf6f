"""Which device a player's page is opened on (T-online, T-code), at the edge.

Both codes of a table lie on one card, so the service must know "the same phone" without
accounts: a browser gets a random *device token* as a cookie (``device``, path ``/``, so
both seats' pages, ``/r`` and the room's views of a table all see it) on its first
contact with a ``/play`` or ``/r`` page. Setting a cookie stores nothing on the server; a
seat taken by that browser is held by the token's hash (:func:`device_hash`), and its
reports and confirmations carry that hash and a keyed hash of the network address
(:func:`origin`), never the address itself. An API client names its device with the
``Seat-Token`` header instead (:mod:`tournament.web.api.play`).

The guard refuses the same browser (the honest mistake, the curious player); a private
tab or a second browser has a cookie jar of its own and is not refused, but a seat taken
keeps its origin too, and both seats of a table taken from one address are flagged for
the organiser (:func:`tournament.domain.commands.online.take_seat`), as a confirmation from the
reporting address is: the docs say what is refused and what is only flagged.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

from flask import current_app, g, request
from flask.blueprints import Blueprint
from werkzeug.wrappers import Response

from tournament.app.play import device_hash

#: The browser's device token (path ``/``: every page of a seat, a report and a table).
DEVICE_COOKIE: Final = "device"
#: The cookie an older version gave each seat (path ``/play/<code>``): still honoured.
SEAT_COOKIE: Final = "seat"
#: A month: a tournament evening, and a weekend's tournament, with room to spare.
MAX_AGE: Final = 60 * 60 * 24 * 30


def device_token() -> str:
    """This browser's device token: its cookie, or a new one (set on the answer by
    :func:`remember_device`)."""
    sent = request.cookies.get(DEVICE_COOKIE)
    if sent:
        return sent
    fresh = g.get("new_device")
    if fresh is None:
        fresh = g.new_device = secrets.token_urlsafe(24)
    return str(fresh)


def sent_tokens() -> tuple[str | None, ...]:
    """Every token this browser sent that may hold a seat: the device token, and an
    older version's seat cookie."""
    return (request.cookies.get(DEVICE_COOKIE), request.cookies.get(SEAT_COOKIE))


def sent_device_hash() -> str | None:
    """The hash of the device token the browser sent (None: none yet)."""
    sent = request.cookies.get(DEVICE_COOKIE)
    return device_hash(sent) if sent else None


def address_hash() -> str:
    """The network address as the records keep it: an HMAC with the app's secret, cut
    to 16 hex digits (the same address gives the same hash; the address is not kept,
    and cannot be found again by trying every address without the secret)."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    address = (request.remote_addr or "").encode()
    return hmac.new(key, b"address:" + address, hashlib.sha256).hexdigest()[:16]


def origin() -> dict[str, str]:
    """Where a report or confirmation comes from: the device's hash and the address's."""
    return {"device": device_hash(device_token()), "address": address_hash()}


def remember_device(response: Response) -> Response:
    """Gives a browser new here its device token (an ``after_request`` hook)."""
    if not request.cookies.get(DEVICE_COOKIE):
        response.set_cookie(
            DEVICE_COOKIE,
            device_token(),
            path="/",
            httponly=True,
            samesite="Lax",
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
            max_age=MAX_AGE,
        )
    return response


def give_devices(blueprint: Blueprint) -> None:
    """Every answer of ``blueprint``'s pages gives a browser new here its device token."""
    blueprint.after_request(remember_device)
