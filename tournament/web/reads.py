"""How the API answers a read: JSON with the tournament's version as its ``ETag``, 304
when the client has it already, and the body made once per version.

A tournament changes only by appending events, so a body made at version V is right for
as long as the tournament is at V: the projector and forty phones asking for the
standings every few seconds get the bytes made for the first of them (and a 304 when
they send ``If-None-Match``), until the next result moves the version on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from flask import Response, current_app, json, request
from werkzeug.datastructures import ETags

from tournament.app.services import services

JSON = "application/json"


class BodyCache:
    """The last ``size`` bodies made, by key (which includes the version)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._bodies: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def held(self, key: Hashable) -> bytes | None:
        """The body made for ``key``, if it is still held."""
        with self._lock:
            return self._bodies.get(key)

    def get(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        with self._lock:
            body = self._bodies.get(key)
            if body is not None:
                self._bodies.move_to_end(key)
                return body
        body = make()  # outside the lock: two first requests may both make it, alike
        with self._lock:
            self._bodies[key] = body
            while len(self._bodies) > self.size:
                self._bodies.popitem(last=False)
        return body


#: Where an app keeps its :class:`BodyCache`, in ``app.extensions``.
BODIES = "schnapsen_bodies"


def bodies() -> BodyCache:
    """The app's bodies: each app its own, since each has its own store -- two apps in
    one process (the tests) hold tournaments of the same id at the same version."""
    cache: BodyCache = current_app.extensions.setdefault(BODIES, BodyCache())
    return cache


def entity_tag(version: int, variant: str = "") -> str:
    return f'"{version}-{variant}"' if variant else f'"{version}"'


def not_modified(tag: str) -> bool:
    return not_modified_by(tag, request.if_none_match)


def not_modified_by(tag: str, sent: ETags) -> bool:
    """Whether ``If-None-Match`` (parsed: ``sent``) names ``tag``: by the weak comparison
    (RFC 9110 13.1.2), so ``W/"74-json"`` matches ``"74-json"``. A proxy that compresses
    (nginx's gzip) makes every tag weak, and its clients send that form back (operator F3).
    ``*`` matches any."""
    return sent.contains_weak(tag.strip('"'))


def body_key(cache: Hashable, version: int, variant: str, mimetype: str) -> Hashable:
    """What :func:`versioned` keeps a body under in :func:`bodies`."""
    return (cache, version, variant, mimetype)


def versioned(
    version: int,
    build: Callable[[], Mapping[str, Any]],
    *,
    variant: str = "",
    cache: Hashable | None = None,
    mimetype: str = JSON,
    render: Callable[[Mapping[str, Any]], str] | None = None,
) -> Response:
    """``build()`` as JSON (or ``render(build())``) tagged with ``version``; 304 when the
    client sent that tag. With ``cache`` (a key naming what was asked, without the
    version), the body is made once per version."""
    tag = entity_tag(version, variant)
    if not_modified(tag):
        reply = Response(status=304)
    else:

        def make() -> bytes:
            # The tournament's folded state is shared by the app's threads: a body is
            # worked out while no thread folds a new result into it (no torn view).
            with services().tournaments.reading():
                data = build()
            text = render(data) if render else json.dumps(data, ensure_ascii=False)
            return text.encode("utf-8")

        body = bodies().get(body_key(cache, version, variant, mimetype), make) if cache else make()
        reply = Response(body, mimetype=mimetype)
    reply.headers["ETag"] = tag
    # Clients may keep it, but ask again each time (a 304 costs next to nothing).
    reply.headers["Cache-Control"] = "no-cache"
    reply.headers["Vary"] = "Accept, Authorization"
    return reply
