"""How every write of the API reaches the domain: one call, the same for every route.

    return write(tid, lambda t: c.check_in(t, [pid], actor=caller().actor),
                 answer=lambda events: {...}, status=200)

- ``If-Match`` with the tournament's version (its ``ETag``): checked under the
  tournament's lock, on the state the command is decided on; another version is 412 and
  nothing is stored.
- ``Idempotency-Key``: the key (per account) goes to the event store with the events, in
  their transaction. A retry is answered from the events the key stored -- the same body,
  since an answer is made from the events a write appended and nothing else -- and a
  ``Idempotent-Replayed: true`` header; the same key with another request (method, path
  or body) is 422 and stores nothing.
- Every event records who did it (the account, never a name from the body), that it came
  through the API, the request's id and the request's fingerprint.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask import Response, json, request

from tournament.app.services import services
from tournament.domain.model.state import Tournament
from tournament.eventstore.api import NewEvent, StoredEvent
from tournament.web.auth import caller
from tournament.web.problems import Problem, invalid, request_id

Command = Callable[[Tournament], list[NewEvent]]
Answer = Callable[[list[StoredEvent]], Mapping[str, Any]]

#: A key is what a client generates: a UUID, a ULID, a hash; printable ASCII, no spaces.
_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")
#: A version as If-Match names it, quotes and W/ taken off (openapi_headers.py's pattern).
_VERSION = re.compile(r"^[0-9]{1,12}\Z")


class StaleVersion(Exception):
    def __init__(self, expected: int, actual: int) -> None:
        self.expected, self.actual = expected, actual


def expected_version() -> int | None:
    """The version ``If-Match`` names (``"12"``, ``W/"12"``; ``*`` is any), or None."""
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    text = header.strip().removeprefix("W/").strip('"')
    if not _VERSION.match(text):  # ASCII digits only: "²".isdigit() is true
        raise invalid(
            "If-Match",
            f"{header[:40]!r} is not a version of this service: send the tournament's "
            'ETag as it was given, e.g. "12"',
        )
    return int(text)


def idempotency_key() -> str | None:
    """The ``Idempotency-Key`` as the store keeps it: per account, so two clients that
    happen to pick the same key never see each other's answers."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not _KEY.match(key):
        raise invalid(
            "Idempotency-Key",
            "1-200 printable ASCII characters without spaces (a UUID suits)",
        )
    return f"api:{caller().account_id}:{key}"


def fingerprint() -> str:
    """What makes two requests the same request: method, path, query and body."""
    digest = hashlib.sha256()
    for part in (request.method, request.path, request.query_string.decode(), ""):
        digest.update(part.encode() + b"\0")
    digest.update(request.get_data())
    return digest.hexdigest()


def metadata(via: str = "api") -> dict[str, str]:
    # ``account`` is who was signed in, laid over every event the command made; the
    # command itself records the same account as its ``actor``. ``via``: the door the
    # write came through, the API or a page (``pages/page_writes.py:page_metadata``).
    return {
        "account": caller().actor,
        "via": via,
        "request_id": request_id(),
        "request": fingerprint(),
        "correlation_id": request_id(),
    }


def write(
    tournament_id: str,
    command: Command,
    answer: Answer,
    *,
    status: int = 200,
    store_key: str | None = None,
    on_replay: Callable[[list[StoredEvent]], None] | None = None,
) -> Response:
    """Decide ``command`` on the newest state of the tournament and store its events
    (see the module's docstring); the response is ``answer(events)`` with the
    tournament's version after them as ``ETag``.

    ``store_key`` stores the events under that key instead (the request's
    ``Idempotency-Key`` then goes into their metadata as ``idempotency_key``): a CSV
    import's key is what the file says, the command line's too. A replay is answered
    once ``on_replay(events)`` lets it (default: :func:`refuse_other_request`)."""
    expected = expected_version()
    key = idempotency_key()
    stamp = metadata()
    if store_key is not None:
        if key is not None:
            stamp["idempotency_key"] = key
        key = store_key

    def checked(t: Tournament) -> list[NewEvent]:
        if expected is not None and t.version != expected:
            raise StaleVersion(expected, t.version)
        return command(t)

    try:
        done = services().tournaments.submit(
            tournament_id, checked, idempotency_key=key, metadata=stamp
        )
    except StaleVersion as stale:
        raise Problem(
            412,
            "Precondition failed",
            f"If-Match: the tournament is at version {stale.actual}, not {stale.expected}: "
            "someone changed it since you read it; read it again (nothing stored)",
            field="If-Match",
            version=stale.actual,
            headers={"ETag": etag(stale.actual)},
        ) from None
    if done.replayed:
        (on_replay or refuse_other_request)(done.events)
    return respond(answer(done.events), done.events, status=status, replayed=done.replayed)


def refuse_other_request(events: Sequence[StoredEvent]) -> None:
    """A key reused for another request: 422, nothing stored."""
    first = events[0].metadata.get("request") if events else None
    if first != fingerprint():
        raise invalid(
            "Idempotency-Key",
            "this key was used for another request (method, path or body differ): "
            "use a new key for a new request (nothing stored)",
        )


def respond(
    body: Mapping[str, Any],
    events: Sequence[StoredEvent],
    *,
    status: int = 200,
    replayed: bool = False,
) -> Response:
    reply = Response(
        json.dumps(body, ensure_ascii=False), status=status, mimetype="application/json"
    )
    if events:
        reply.headers["ETag"] = etag(events[-1].version)
    if replayed:
        reply.headers["Idempotent-Replayed"] = "true"
    return reply


def etag(version: int) -> str:
    """A tournament's version as an entity tag."""
    return f'"{version}"'


def event_summary(events: Sequence[StoredEvent]) -> list[dict[str, Any]]:
    """The events a write stored, as its answer lists them. Payload keys are sorted: read
    back from the store (a retry's answer) they may come in another order (PostgreSQL's
    jsonb keeps its own), and a retry must get the very same bytes."""
    return [
        {
            "position": e.position,
            "version": e.version,
            "type": e.type,
            "payload": json.loads(json.dumps(e.payload, sort_keys=True)),
        }
        for e in events
    ]


def actor() -> str:
    return caller().actor


class _Decided(Exception):
    """A dry run's decision, carried out of the write so that nothing is stored."""

    def __init__(self, events: list[NewEvent], version: int) -> None:
        self.events, self.version = events, version


def decide_only(
    tournament_id: str, command: Command, answer: Answer
) -> tuple[list[NewEvent], int] | Response:
    """``dry_run=true``: ``command`` decided exactly as :func:`write` decides it (newest
    state, under the tournament's lock, If-Match checked) and its events with the version
    they were decided on, stored nowhere: the decision leaves the write by an exception,
    so the store rolls it back. An Idempotency-Key an earlier request stored is answered
    as that request (``answer``), as :func:`write` answers it."""

    def decide(t: Tournament) -> list[NewEvent]:
        raise _Decided(command(t), t.version)

    try:
        return write(tournament_id, decide, answer)
    except _Decided as decided:
        return decided.events, decided.version
