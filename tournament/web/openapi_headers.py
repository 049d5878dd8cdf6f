"""The headers of the API in its OpenAPI document (operator F13): what a generated client
sends (``Idempotency-Key``, ``If-Match``, ``If-None-Match``) and reads (``ETag``,
``Location``, ``Retry-After``, ``X-Request-ID``), declared once here for the whole app
rather than on each route.

Which operations honour which header is what the code does: every write that goes
through :func:`tournament.web.writes.write` checks ``If-Match`` and stores the
``Idempotency-Key`` (:data:`WRITES`); creating a tournament or restoring a backup takes
the key but has no version to match yet (:data:`KEYED`); reads made by
:func:`tournament.web.reads.versioned` answer an ``ETag`` and ``304`` to
``If-None-Match`` (:data:`VERSIONED`). ``tests/web/test_openapi_headers.py`` checks the
lists against the answers, and schemathesis checks every declared header.
"""

from __future__ import annotations

from typing import Any

API = "/api/v1"
T = f"{API}/tournaments/{{tid}}"

#: Writes that check If-Match and take an Idempotency-Key, answering the new ETag.
WRITES = frozenset(
    [
        ("post", f"{T}/players"),
        ("post", f"{T}/players/import"),
        ("patch", f"{T}/players/{{pid}}"),
        ("post", f"{T}/players/{{pid}}/check-in"),
        ("post", f"{T}/players/{{pid}}/check-out"),
        ("post", f"{T}/players/{{pid}}/withdraw"),
        ("post", f"{T}/players/{{pid}}/buy-life"),
        ("post", f"{T}/seeding"),
        ("post", f"{T}/matches/{{mid}}/results"),
        ("post", f"{T}/matches/{{mid}}/signatures"),
        ("post", f"{T}/results/{{rid}}/corrections"),
        ("post", f"{T}/matches/{{mid}}/sheet-corrections"),
        ("post", f"{T}/results/{{rid}}/strike"),
        ("post", f"{T}/matches/{{mid}}/flags/clear"),
        ("post", f"{T}/rounds"),
        ("post", f"{T}/rounds/{{n}}/cancel"),
    ]
)
#: Writes that take an Idempotency-Key but have no version to match (nothing there yet).
KEYED = frozenset([("post", f"{API}/tournaments"), ("post", f"{API}/import")])
#: Reads tagged with the tournament's version: ETag, and 304 for If-None-Match.
VERSIONED = frozenset(
    ("get", path)
    for path in (
        T,
        f"{T}/events",
        f"{T}/matches",
        f"{T}/matches/{{mid}}",
        f"{T}/matches/{{mid}}/online",
        f"{T}/players",
        f"{T}/players/{{pid}}",
        f"{T}/rounds",
        f"{T}/rounds/{{n}}",
        f"{T}/standings",
        f"{T}/bracket",
    )
)

_TEXT = {"type": "string"}
PARAMETERS: dict[str, dict[str, Any]] = {
    "Idempotency-Key": {
        "name": "Idempotency-Key",
        "in": "header",
        "required": False,
        "description": "a key the client makes per request (a UUID suits): a retry with "
        "it is answered as the first was, stored once (docs/api.md)",
        "schema": {"type": "string", "pattern": "^[\\x21-\\x7e]{1,200}$"},
    },
    "If-Match": {
        "name": "If-Match",
        "in": "header",
        "required": False,
        "description": "the tournament's ETag as last read: another version is 412 and "
        "nothing is stored; * for any",
        "schema": {"type": "string", "pattern": '^(\\*|(W/)?"?[0-9]{1,12}"?)$'},
    },
    "If-None-Match": {
        "name": "If-None-Match",
        "in": "header",
        "required": False,
        "description": "the ETag of the copy the client has: 304 while it is current",
        "schema": _TEXT,
    },
}
HEADERS: dict[str, dict[str, Any]] = {
    "X-Request-ID": {
        "description": "this request's id, logged with every line: quote it to the operator",
        "required": True,
        "schema": _TEXT,
    },
    "ETag": {
        "description": "the tournament's version the answer is at; send it as If-Match "
        "(writes) or If-None-Match (reads)",
        "schema": _TEXT,
    },
    "Location": {
        "description": "where the new thing is (or the resource it became part of)",
        "required": True,
        "schema": _TEXT,
    },
    "Retry-After": {
        "description": "seconds to wait before trying again",
        "schema": {"type": "string", "pattern": "^[0-9]+$"},
    },
    "Idempotent-Replayed": {
        "description": "true: the answer of the earlier request with this Idempotency-Key",
        "schema": _TEXT,
    },
}


def _param(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/parameters/{name}"}


def _header(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/headers/{name}"}


def declare(doc: dict[str, Any]) -> None:
    """Add the headers to every operation of ``doc`` (the app's OpenAPI document)."""
    components = doc.setdefault("components", {})
    components.setdefault("parameters", {}).update(PARAMETERS)
    components.setdefault("headers", {}).update(HEADERS)
    for path, operations in doc.get("paths", {}).items():
        for method, operation in operations.items():
            _declare(operation, (method, path))


def _declare(operation: dict[str, Any], key: tuple[str, str]) -> None:
    sends: list[str] = []
    if key in WRITES:
        sends = ["If-Match", "Idempotency-Key"]
    elif key in KEYED:
        sends = ["Idempotency-Key"]
    elif key in VERSIONED:
        sends = ["If-None-Match"]
        operation["responses"].setdefault(
            "304", {"description": "Not modified: the copy with that ETag is current"}
        )
    if sends:
        operation.setdefault("parameters", []).extend(_param(name) for name in sends)
    for status, answer in operation.get("responses", {}).items():
        headers = answer.setdefault("headers", {})
        headers["X-Request-ID"] = _header("X-Request-ID")
        if status == "201":
            headers["Location"] = _header("Location")
        if status in ("429", "503"):
            headers["Retry-After"] = _header("Retry-After")
        if status[0] == "2" and (key in WRITES or key in KEYED):
            headers["Idempotent-Replayed"] = _header("Idempotent-Replayed")
        if (status[0] == "2" and key in WRITES) or (status in ("200", "304") and key in VERSIONED):
            headers["ETag"] = _header("ETag")


def keep_property_names(doc: dict[str, Any]) -> None:
    """flask-openapi3's schema model drops ``propertyNames``: put back the one the API
    has, the keys of a draw's ``tables`` (start numbers; attack F14)."""
    from tournament.web.api.rounds import TABLE_KEYS

    tables = doc["components"]["schemas"]["DrawRequest"]["properties"]["tables"]
    tables["propertyNames"] = {"pattern": TABLE_KEYS}
