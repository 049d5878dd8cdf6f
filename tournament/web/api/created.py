"""Every ``201 Created`` says where the new thing is: ``Location`` (operator F13).

Most routes that create set it themselves (a tournament, a player, a round, a print
pack). For the rest the new thing is part of another resource (a result is part of its
match, a token of the account's tokens), and this hook names that resource, from the
route and what the answer says (a result names its ``match_id``: ``2.1`` resolved from
a bracket id). Replayed answers (``Idempotency-Key``) get it the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from flask import Flask, Response, request

Where = Callable[[Mapping[str, Any], Mapping[str, Any]], str | None]

API = "/api/v1"


def _match(args: Mapping[str, Any], body: Mapping[str, Any]) -> str | None:
    mid = body.get("match_id") or args.get("mid")
    if not mid:
        return None
    return f"{API}/tournaments/{quote(str(args['tid']))}/matches/{quote(str(mid))}"


#: The route (as Flask writes it) -> where its 201's new thing is.
WHERE: dict[str, Where] = {
    f"{API}/tournaments/<tid>/matches/<mid>/results": _match,
    f"{API}/tournaments/<tid>/matches/<mid>/signatures": _match,
    f"{API}/tournaments/<tid>/matches/<mid>/sheet-corrections": _match,
    f"{API}/tournaments/<tid>/results/<rid>/corrections": _match,
    f"{API}/tournaments/<tid>/results/<rid>/strike": _match,
    f"{API}/tournaments/<tid>/matches/<mid>/online": lambda args, body: (
        f"{API}/tournaments/{quote(str(args['tid']))}/matches/{quote(str(args['mid']))}/table"
    ),
    f"{API}/tournaments/<tid>/players/import": lambda args, body: (
        f"{API}/tournaments/{quote(str(args['tid']))}/players"
    ),
    f"{API}/tokens": lambda args, body: f"{API}/tokens",
}


def _locate(response: Response) -> Response:
    if response.status_code != 201 or "Location" in response.headers:
        return response
    rule = request.url_rule.rule if request.url_rule is not None else ""
    where = WHERE.get(rule)
    if where is None:
        return response
    try:
        body = json.loads(response.get_data())
    except ValueError:
        body = {}
    found = where(request.view_args or {}, body if isinstance(body, dict) else {})
    if found is not None:
        response.headers["Location"] = found
    return response


def install(app: Flask) -> None:
    app.after_request(_locate)
