"""The bracket (no login): ``GET /t/<tid>/bracket`` -- a single or double elimination's
bracket, and for groups -> knockout the group tables and then the knockout.

The bracket is the projection's ``bracket`` document (what ``GET
/api/v1/tournaments/<tid>/bracket`` answers, from :mod:`tournament.domain.views.bracket_sheet`),
shown section by section (winners, losers, grand final), a column per round; on a phone
the bracket scrolls sideways within itself, never the page. Before round 1 it is the draw
today's seeding gives, marked as a preview.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Blueprint, render_template
from flask_babel import gettext

from tournament.i18n.public_words import SECTIONS, heading_words, status_words
from tournament.projections.documents import BRACKET, STANDINGS
from tournament.web.pages.public_parts import header, not_found, number, reading
from tournament.web.projected_reads import read_document

pages = Blueprint("public_bracket", __name__)


@dataclasses.dataclass(frozen=True)
class Side:
    """One side of a bracket slot: a player, or where the player will come from."""

    words: str
    player_id: int | None
    seed: int | None
    winner: bool
    score: str = ""  # this player's own Bummerl once decided (O-L10): 2 beside one, 1 the other


@dataclasses.dataclass(frozen=True)
class Slot:
    slot: str
    heading: str
    sides: tuple[Side, Side]
    status: str
    score: str  # the winner's Bummerl first (R20): 2:1
    forfeit: bool


@dataclasses.dataclass(frozen=True)
class Column:
    """A round of a section: its slots, under the section's name for that round."""

    heading: str
    slots: tuple[Slot, ...]


@dataclasses.dataclass(frozen=True)
class Section:
    key: str
    name: str
    columns: tuple[Column, ...]


@pages.get("/t/<tid>/bracket")
def bracket_page(tid: str) -> Any:
    bracket = read_document(tid, BRACKET)
    standings = read_document(tid, STANDINGS)
    with reading(tid) as t:
        if standings is None or t is None:
            return not_found(tid)
        top = header(tid, t)
    body = bracket.body if bracket is not None else None
    groups = list((standings.body or {}).get("groups") or [])
    if top.format != "groups_knockout":
        groups = []
    if body is None and not top.has_bracket:
        why = gettext("A %(format)s has no bracket: see the crosstable.", format=top.format_name)
    elif body is None and top.format == "groups_knockout":
        why = gettext(
            "The knockout is drawn from the group tables when the group stage is complete."
        )
    elif body is None:
        why = gettext("The bracket is drawn once two players or more are registered.")
    else:
        why = ""
    champion = (body or {}).get("champion")
    html = render_template(
        "public/bracket.html",
        tid=tid,
        tab="bracket",
        top=top,
        sections=_sections(body) if body else [],
        preview=bool(body and body.get("preview")),
        champion=champion["name"] if champion else None,
        groups=groups,
        why=str(why),
        number=number,
    )
    return html, 200 if body is not None or top.has_bracket else 404


def _sections(body: dict[str, Any]) -> list[Section]:
    by_section: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for slot in body.get("slots") or []:
        rounds = by_section.setdefault(str(slot["section"]), {})
        rounds.setdefault(int(slot["round"]), []).append(slot)
    order = [key for key in SECTIONS if key in by_section]
    order += sorted(key for key in by_section if key not in SECTIONS)
    sections = []
    for key in order:
        columns = tuple(
            Column(
                heading_words(str(slots[0]["heading"])),
                tuple(_slot(slot) for slot in slots),
            )
            for _, slots in sorted(by_section[key].items())
        )
        name = str(SECTIONS.get(key, key))
        if len(columns) == 1 and columns[0].heading == name:  # "Third-place match" once
            columns = (Column("", columns[0].slots),)
        sections.append(Section(key, name, columns))
    return sections


def _slot(slot: dict[str, Any]) -> Slot:
    result = slot.get("result")
    winner = (slot.get("winner") or {}).get("player_id")
    players = slot.get("players") or [None, None]
    sources = slot.get("sources") or [{}, {}]
    sides = tuple(
        _scored(_side(player, source, str(slot["status"]), winner), result)
        for player, source in zip(players, sources, strict=False)
    )
    return Slot(
        slot=str(slot["slot"]),
        heading=heading_words(str(slot["heading"])),
        sides=(sides[0], sides[1]),
        status=status_words(str(slot["status"]), bool(slot.get("conflict"))),
        score="{}:{}".format(*result["bummerl"]) if result else "",
        forfeit=bool(result and result.get("forfeit")),
    )


def _scored(side: Side, result: dict[str, Any] | None) -> Side:
    """The side with its own Bummerl beside the name: the result is the winner's first
    (R20), and one score under both names read as the first name's (O-L10)."""
    if not result or side.player_id is None:
        return side
    won, lost = result["bummerl"]
    return dataclasses.replace(side, score=str(won if side.winner else lost))


def _side(
    player: dict[str, Any] | None, source: dict[str, Any], status: str, winner: int | None
) -> Side:
    if player is not None:
        pid = int(player["player_id"])
        return Side(str(player["name"]), pid, player.get("seed"), pid == winner)
    if status in ("bye", "void") or "seed" in source:  # nobody comes: a bye
        return Side(str(gettext("bye")), None, None, False)
    if "winner_of" in source:
        return Side(str(gettext("winner of %(slot)s", slot=source["winner_of"])), None, None, False)
    return Side(
        str(gettext("loser of %(slot)s", slot=source.get("loser_of", "?"))), None, None, False
    )
