"""The "find me" page (no login): ``GET /t/<tid>/find?q=`` -- a plain form that works without
script: one player found lands on where they sit next (the "find me" box: round, table and
opponent, at the top of the tournament page; their row in the standings marked below);
several are listed to pick from. ``GET /t/<tid>/find-suggestions?q=`` answers the
same list as a fragment, which the page shows as you type (htmx)."""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for

from tournament.domain.model.state import Tournament
from tournament.web.pages.public_parts import alphabetical, header, next_matches, not_found, reading

pages = Blueprint("public_find", __name__)

#: Enough to pick from on a phone; a longer list means: type more of the name.
MOST = 12


@dataclasses.dataclass(frozen=True)
class Found:
    player_id: int
    name: str
    table: int | None  # where they sit next; None: no open match


def matching(t: Tournament, query: str) -> list[Found]:
    """The players whose names hold every word of ``query`` (accents and case aside:
    "oller" finds Öller), alphabetically, at most :data:`MOST`."""
    wanted = alphabetical(query).split()
    if not wanted:
        return []
    tables = next_matches(t)
    found = []
    for player in sorted(t.players.values(), key=lambda p: (alphabetical(p.name), p.id)):
        plain = alphabetical(player.name)
        if all(word in plain for word in wanted):
            line = tables.get(player.id)
            found.append(Found(player.id, player.name, (line.table or None) if line else None))
    return found[:MOST]


def _query() -> str:
    return request.args.get("q", "").strip()[:100]


@pages.get("/t/<tid>/find")
def find_me(tid: str) -> Any:
    query = _query()
    with reading(tid) as t:
        if t is None:
            return not_found(tid)
        found = matching(t, query)
        top = header(tid, t)
    if len(found) == 1:
        pid = found[0].player_id
        target = url_for("public.tournament_page", tid=tid, me=pid)
        return redirect(f"{target}#me", 303)  # where I sit first; my row is marked below
    return render_template(
        "public/find.html", tid=tid, tab="players", top=top, query=query, found=found
    )


@pages.get("/t/<tid>/find-suggestions")
def find_suggestions(tid: str) -> Any:
    query = _query()
    with reading(tid) as t:
        if t is None:
            return not_found(tid)
        found = matching(t, query)
    return render_template("public/find_results.html", tid=tid, query=query, found=found)
