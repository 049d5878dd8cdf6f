"""The JSON API, ``/api/v1``: one blueprint per concern, each in its own module.

The paths are stable (clients rely on them); docs/openapi.json is what they make, and a
test keeps the two equal.
"""

from __future__ import annotations

import importlib

from flask_openapi3.openapi import OpenAPI

#: The API's modules, each with an ``api`` blueprint.
MODULES = (
    "tournament.web.api.history",
    "tournament.web.api.live",
    "tournament.web.api.matches",
    "tournament.web.api.members",
    "tournament.web.api.play",
    "tournament.web.api.players",
    "tournament.web.api.print_packs",
    "tournament.web.api.results",
    "tournament.web.api.rounds",
    "tournament.web.api.standings",
    "tournament.web.api.tokens",
    "tournament.web.api.tournaments",
)


def register(app: OpenAPI) -> None:
    from tournament.web.api import created

    created.install(app)  # every 201 says where (Location)
    for name in MODULES:
        app.register_api(importlib.import_module(name).api)
