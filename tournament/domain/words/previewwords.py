"""The correction preview's lines as phrases (issue 11): each line a code and params, so a
page says it in the reader's language while :meth:`Preview.lines
<tournament.domain.views.preview.Preview.lines>` keeps its English (``str()`` of the same
phrases). A match's result, a flag, a standings line and the summaries are phrased; the
bracket's and the next draw's lines (names, match ids, commands) are English pieces.
Pure and stdlib only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from tournament.domain.words.messages import Param, Phrase
from tournament.domain.words.readback import FLAG_TEMPLATES, read_back
from tournament.domain.words.wording import PREVIEW_TEMPLATES

#: A match's result in words, as preview._describe fills it (read back from the
#: Preview's stored English: its ``before`` and ``after``).
RESULT_TEMPLATES: Final[dict[str, str]] = {
    code: t
    for code, t in PREVIEW_TEMPLATES.items()
    if code.startswith(("preview.wins", "preview.open", "preview.dropped", "preview.both"))
}

#: The next round's draw that would change (preview._next_round): its heading.
NEXT_ROUND_TEMPLATES: Final[dict[str, str]] = {
    "preview.drawn_differently": PREVIEW_TEMPLATES["preview.drawn_differently"],
}

#: A match the correction leaves open again (preview._reopened), and what it needs.
REOPENED_TEMPLATES: Final[dict[str, str]] = {
    "preview.reopened": PREVIEW_TEMPLATES["preview.reopened"],
}

#: (section, phrase or English piece): sections ``match``, ``flag``, ``bracket``,
#: ``standings``, ``next``, ``table`` (a row of the next draw's table).
Line = tuple[str, Phrase | str]


def listed(items: Sequence[Param]) -> Param:
    """Items joined by commas, as one param."""
    if len(items) == 1:
        return items[0]
    return Phrase("preview.list", {"first": items[0], "rest": listed(items[1:])})


def players_of(players: str) -> Param:
    """``Anna v Berta`` (as preview words a match's players) as a phrase: ``v`` is English."""
    a, v, b = players.partition(" v ")
    return Phrase("preview.players", {"a": a, "b": b}) if v else players


def match_line(m: Mapping[str, Any]) -> Phrase:
    """A touched match: its result before and after (the same: ``unchanged``)."""
    after = read_back(m["after"], RESULT_TEMPLATES)
    where: dict[str, Param] = {"match_id": m["match_id"], "players": players_of(m["players"])}
    if m["before"] == m["after"]:
        return Phrase("preview.match_unchanged", {**where, "after": after})
    before = read_back(m["before"], RESULT_TEMPLATES)
    return Phrase("preview.match", {**where, "before": before, "after": after})


def flag_line(match_id: str, players: str, flag: str) -> Phrase:
    """A later match that would be flagged, and why (R17)."""
    why = read_back(flag, FLAG_TEMPLATES)
    return Phrase(
        "preview.flag", {"match_id": match_id, "players": players_of(players), "flag": why}
    )


def standing_line(s: Mapping[str, Any]) -> Phrase:
    """One player's standings line: what changes in it (or where a new line enters)."""
    fields = s["fields"]
    if s["rank_before"] is None and not fields:
        changes: Param = Phrase("preview.new_at_rank", {"rank": s["rank_after"]})
    else:
        changes = listed(
            [
                Phrase("preview.field", {"what": what, "before": a, "after": b})
                for what, a, b in fields
            ]
        )
    return Phrase(
        "preview.standing", {"name": s["name"], "player_id": s["player_id"], "changes": changes}
    )


def moved_line(shifts: Sequence[int]) -> Phrase:
    """Players outside the lines that matter who change places, in one sentence."""
    most = max(shifts)
    if most <= 2:
        by = Phrase("preview.by_one" if most == 1 else "preview.by_two")
    else:
        by = Phrase("preview.by_up_to", {"most": most})
    code = "preview.one_moves" if len(shifts) == 1 else "preview.others_move"
    return Phrase(code, {"count": len(shifts), "by": by})


def quiet_line(quiet: int, what: Sequence[str]) -> Phrase:
    """Players who keep their place and points, and which tie-breaks of theirs change."""
    code = "preview.one_quiet" if quiet == 1 else "preview.others_quiet"
    return Phrase(code, {"count": quiet, "what": listed(list(what)) if what else ""})
