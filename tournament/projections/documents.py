"""What a projection keeps of a tournament, worked out from its folded state alone.

:func:`project_documents` turns a :class:`~tournament.domain.model.state.Tournament` into the
rows of every ``proj_`` table and the API's documents, as plain data: the runner stores
them, the reconciliation compares a rebuild's with the stored ones, and the API sends the
documents as they are (adding only the log's seal and how fresh they are). No I/O here but
``events()``, which reads the tournament's log only for the tables that need it (the
group stage of groups -> knockout).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from typing import Any

from tournament.domain.commands.csvexport import standings_document
from tournament.domain.model.events import RESULT_TYPES, EventLike
from tournament.domain.model.state import Tournament
from tournament.domain.standings import Row
from tournament.domain.standings.progress import Stage
from tournament.domain.views.bracket_sheet import BracketSheet, current_sheet, no_bracket
from tournament.domain.views.matchview import (
    MatchLine,
    PlayerRef,
    bracket_notes,
    match_line,
    match_lines,
)
from tournament.domain.views.standings_view import StandingsView, standings_view
from tournament.formats.bracket import Seed, Source, WinnerOf

Events = Callable[[], Sequence[EventLike]]

#: The document names (``proj_documents.name``).
STANDINGS = "standings"
BRACKET = "bracket"
OPEN_MATCHES = "matches/open"


def group_document(number: int) -> str:
    return f"standings/group/{number}"


def category_document(category: str) -> str:
    return f"standings/category/{category}"


@dataclasses.dataclass
class Projected:
    """A tournament's projection at one version: what every ``proj_`` table holds of it."""

    tournament_id: str
    version: int
    header: dict[str, Any]
    documents: dict[str, str]  # name -> JSON text
    standings: list[dict[str, Any]]
    outstanding: list[dict[str, Any]]
    players: list[dict[str, Any]]

    def comparable(self) -> dict[str, Any]:
        """Everything but the clocks: what a rebuild must reproduce exactly."""
        header = {k: v for k, v in self.header.items() if not k.endswith("_at")}
        return {
            "header": header,
            "documents": self.documents,
            "standings": self.standings,
            "outstanding": sorted(self.outstanding, key=lambda r: str(r["match_id"])),
            "players": self.players,
        }


@dataclasses.dataclass
class Memo:
    """What the last projection of a tournament encoded, kept by its projector so that
    the next run encodes only what changed (a hand changes a row or two of 1,024). Each
    entry is a pure function of its key (the row, the player's fields): whatever version
    it came from, it is right for an equal key."""

    #: player id -> (standings row, its JSON text)
    rows: dict[int, tuple[Row, str]] = dataclasses.field(default_factory=dict)
    #: player id -> (what the summary is made of, the proj_players row)
    players: dict[int, tuple[tuple[Any, ...], dict[str, Any]]] = dataclasses.field(
        default_factory=dict
    )
    #: match id -> (open match line, its JSON text, its proj_outstanding row)
    lines: dict[str, tuple[MatchLine, str, dict[str, Any]]] = dataclasses.field(
        default_factory=dict
    )
    #: The last projection worked out with this memo, and what it was made of: each
    #: standings document's view and rows' texts, the open matches in order. With them a
    #: run after results that decide nothing re-encodes only the results' matches (the
    #: standings cannot have changed: an open match counts for nothing in them).
    last: Projected | None = None
    views: dict[str, tuple[StandingsView, list[str]]] = dataclasses.field(default_factory=dict)
    open_ids: list[str] = dataclasses.field(default_factory=list)


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def project_documents(
    tid: str,
    t: Tournament,
    events: Events,
    memo: Memo | None = None,
    since: Sequence[EventLike] | None = None,
) -> Projected:
    """The projection of tournament ``tid`` in state ``t`` (with ``memo``: reusing what
    the last projection encoded of rows that did not change, and remembering this one's).

    ``since``: the events folded into ``t`` after the memo's last projection (None: not
    known). When they are all results of matches that were open then and still are, only
    those matches' lines are worked out again: the standings, the players' rows and the
    other open matches are the last projection's (an open match counts for nothing in the
    standings, and the open matches are the same). Anything else: everything again."""
    assert t.settings is not None
    memo = memo if memo is not None else Memo()
    found = _only_open_results(t, memo, since)
    projected = (
        _whole(tid, t, events, memo) if found is None else _open_results(tid, t, memo, found)
    )
    memo.last = projected
    return projected


def _only_open_results(
    t: Tournament, memo: Memo, since: Sequence[EventLike] | None
) -> set[str] | None:
    """The matches ``since`` entered results of, if that is all it did and they were open
    at the memo's last projection and are open now; else None."""
    last = memo.last
    if last is None or since is None or not since or last.version + len(since) != t.version:
        return None
    if any(e.type not in RESULT_TYPES for e in since):
        return None
    found = {str(e.payload.get("match_id")) for e in since}
    for mid in found:
        match = t.matches.get(mid)
        if mid not in memo.lines or match is None or t.settled(match):
            return None
    return found


def _whole(tid: str, t: Tournament, events: Events, memo: Memo) -> Projected:
    """Everything worked out from ``t`` (reusing the memo's texts of equal rows)."""
    assert t.settings is not None
    view = standings_view(t, events, per_group=True)
    # Each row of the whole field is encoded once: the same text is the standings
    # document's row and proj_standings.row (a 1,024-player field encoded twice, through
    # dataclasses.asdict, was most of a run); and only when it changed since last time.
    row_texts = _row_texts(view.rows, memo)
    views: dict[str, tuple[StandingsView, list[str]]] = {STANDINGS: (view, row_texts)}
    for number in range(1, len(view.groups) + 1):
        one = standings_view(t, events, group=number)
        views[group_document(number)] = (one, [dumps(flat_row(row)) for row in one.rows])
    for category in sorted({p.category for p in t.players.values() if p.category}):
        one = standings_view(t, events, category=category, per_group=True)
        views[category_document(category)] = (one, [dumps(flat_row(row)) for row in one.rows])
    memo.views = _headed(views, t)
    open_lines = match_lines(t, "open")
    known = memo.lines
    lines = {}
    for line in open_lines:
        seen = known.get(line.match_id)
        lines[line.match_id] = seen if seen is not None and seen[0] == line else _line_entry(line)
    memo.lines = lines
    memo.open_ids = [line.match_id for line in open_lines]
    return Projected(
        tournament_id=tid,
        version=t.version,
        header=_header(tid, t, memo.views[STANDINGS][0]),
        documents=_documents(tid, t, memo),
        standings=[
            _standing(place, row, text)
            for place, (row, text) in enumerate(zip(view.rows, row_texts, strict=True), 1)
        ],
        outstanding=[entry[2] for entry in lines.values()],
        players=_players(t, view.rows, open_lines, memo),
    )


def _open_results(tid: str, t: Tournament, memo: Memo, matches: set[str]) -> Projected:
    """The memo's last projection with the lines of ``matches`` (open before and now)
    worked out again, at ``t``'s version."""
    last = memo.last
    assert last is not None
    notes = bracket_notes(t, sorted(matches))
    for mid in matches:
        line = match_line(t, t.matches[mid], notes.get(mid))
        if memo.lines[mid][0] != line:
            memo.lines[mid] = _line_entry(line)
    memo.views = _headed(memo.views, t)
    return Projected(
        tournament_id=tid,
        version=t.version,
        header=_header(tid, t, memo.views[STANDINGS][0]),
        documents=_documents(tid, t, memo),
        # The same rows (the same lists): nothing to compare when they are written.
        standings=last.standings,
        outstanding=[memo.lines[mid][2] for mid in memo.open_ids],
        players=last.players,
    )


@dataclasses.dataclass
class _Headed(StandingsView):
    """A view of the state now with its heading worked out already: every document of a
    run has the same (``Stage.of`` the state walks every match: ~10 ms at 2,048 players,
    and a standings document asked for it twice)."""

    said: str = ""

    @property
    def heading(self) -> str:
        return self.said


def _headed(views: dict[str, tuple[StandingsView, list[str]]], t: Tournament
            ) -> dict[str, tuple[StandingsView, list[str]]]:  # fmt: skip
    """``views`` (each of the state now) at ``t``, their heading worked out once."""
    said = Stage.of(t).heading()
    names = [f.name for f in dataclasses.fields(StandingsView) if f.name != "state"]
    found: dict[str, tuple[StandingsView, list[str]]] = {}
    for name, (view, texts) in views.items():
        fields = {n: getattr(view, n) for n in names}
        found[name] = (_Headed(**fields, state=t, said=said), texts)
    return found


def _header(tid: str, t: Tournament, view: StandingsView) -> dict[str, Any]:
    assert t.settings is not None
    return {
        "tournament_id": tid,
        "version": t.version,
        "name": t.settings.name,
        "format": t.settings.format,
        "final": view.final,
    }


def _documents(tid: str, t: Tournament, memo: Memo) -> dict[str, str]:
    """Every document, from the memo's views and open lines (at ``t``'s version)."""
    documents = {
        name: standings_text(tid, view, t.version, texts)
        for name, (view, texts) in memo.views.items()
    }
    sheet = current_sheet(t)
    if sheet is not None:
        documents[BRACKET] = dumps(bracket_body(tid, t, sheet))
    # dumps of the whole list, made of each line's text (encoded when it changed).
    head = dumps({"status": "open", "round": None, "count": len(memo.open_ids)})
    texts = ",".join(memo.lines[mid][1] for mid in memo.open_ids)
    documents[OPEN_MATCHES] = head[:-1] + ',"matches":[' + texts + "]}"
    return documents


def _line_entry(line: MatchLine) -> tuple[MatchLine, str, dict[str, Any]]:
    return line, dumps(match_line_json(line)), _outstanding(line)


def _row_texts(rows: list[Row], memo: Memo) -> list[str]:
    known = memo.rows
    texts = []
    for row in rows:
        found = known.get(row.player_id)
        if found is not None and found[0] == row:
            texts.append(found[1])
            continue
        text = dumps(flat_row(row))
        known[row.player_id] = (row, text)
        texts.append(text)
    return texts


def flat_row(row: Row) -> dict[str, Any]:
    """A standings row as the documents' ``rows`` hold it (the CSV's columns)."""
    found: dict[str, Any] = standings_document([row])["rows"][0]
    return found


def standings_body(tid: str, view: StandingsView, version: int) -> dict[str, Any]:
    """``tournament standings --json``'s document, then the version and what it is (the
    API's ``GET .../standings``, without the seal, which is the log's at reading)."""
    body = standings_document(
        view.rows, tournament=tid, as_of=view.state.version, category=view.category, seal=None
    )
    body.update(_standings_tail(view, version))
    return body


def standings_text(
    tid: str, view: StandingsView, version: int, row_texts: list[str] | None = None
) -> str:
    """:func:`standings_body` as JSON text (:func:`dumps`'s exactly), from the rows'
    texts when they were encoded already."""
    if row_texts is None:
        row_texts = [dumps(flat_row(row)) for row in view.rows]
    head = {"tournament": tid, "as_of": view.state.version, "category": view.category,
            "seal": None}  # fmt: skip
    # dumps of a dict is "{" + "key":value joined by "," + "}": the rows joined as they
    # were encoded give the same text as encoding the whole body at once.
    parts = [f"{dumps(key)}:{dumps(value)}" for key, value in head.items()]
    parts.append('"rows":[' + ",".join(row_texts) + "]")
    parts.extend(
        f"{dumps(key)}:{dumps(value)}" for key, value in _standings_tail(view, version).items()
    )
    return "{" + ",".join(parts) + "}"


def _standings_tail(view: StandingsView, version: int) -> dict[str, Any]:
    """What follows the rows in a standings document."""
    return {
        "version": version,
        "table": {
            "kind": view.kind,
            "words": view.describe(),
            "stage": view.heading,
            "event": view.state.version,
            "as_of": view.as_of,
            "round": view.round,
            "final": view.final,
            "note": view.note,
        },
        "group": view.group,
        "groups": [
            {"group": number, "rows": standings_document(rows)["rows"]}
            for number, rows in enumerate(view.group_rows, 1)
        ]
        if view.group_rows
        else None,
    }


def _standing(place: int, row: Row, text: str) -> dict[str, Any]:
    return {
        "player_id": row.player_id,
        "place": place,
        # 0: listed, not ranked (a no-show who never played); the row's JSON says null.
        # The column stays NOT NULL (no migration for a sort key nobody selects by).
        "rank": 0 if row.rank is None else row.rank,
        "points": row.points,
        "name": row.name,
        "row": text,
    }


def match_line_json(line: MatchLine) -> dict[str, Any]:
    """``dataclasses.asdict(line)`` without its deep copies (tuples stay tuples: JSON
    writes them as lists); tests/projections/test_incremental.py holds it to asdict's."""
    a, b = line.players
    return {
        "match_id": line.match_id,
        "round": line.round,
        "table": line.table,
        "slot": line.slot,
        "players": (_ref(a), _ref(b)),
        "first_dealer": _ref(line.first_dealer),
        "status": line.status,
        "bummerl": line.bummerl,
        "winner": _ref(line.winner),
        "result": line.result,
        "needs": line.needs,
        "progress": line.progress,
        "reopened": line.reopened,
        "note": line.note,
    }


def _ref(player: PlayerRef | None) -> dict[str, Any] | None:
    return None if player is None else {"id": player.id, "name": player.name}


def _outstanding(line: MatchLine) -> dict[str, Any]:
    a, b = line.players
    return {
        "match_id": line.match_id,
        "round": line.round,
        "table_no": line.table or None,
        "player_a": a.id,
        "player_b": b.id if b is not None else None,
        "status": line.status,
        "words": (line.progress or line.needs or line.status)[:500],
    }


def _players(
    t: Tournament, rows: list[Row], open_lines: list[MatchLine], memo: Memo
) -> list[dict[str, Any]]:
    """A summary per registered player: rank and record, and where they sit next."""
    next_match: dict[int, MatchLine] = {}
    for line in open_lines:
        for ref in line.players:
            if ref is not None:
                next_match.setdefault(ref.id, line)
    found = []
    ranked = {row.player_id: row for row in rows}
    known = memo.players
    for pid in sorted(t.players):
        player = t.players[pid]
        row = ranked.get(pid)
        upcoming = next_match.get(pid)
        key = (
            player.name, player.club, player.category, row,
            upcoming.match_id if upcoming is not None else None,
            upcoming.table if upcoming is not None else None,
        )  # fmt: skip
        seen = known.get(pid)
        if seen is not None and seen[0] == key:
            found.append(seen[1])
            continue
        summary = {
            "player_id": pid,
            "name": player.name,
            "club": player.club,
            "category": player.category,
            "status": row.status if row is not None else "absent",
            "rank": row.rank if row is not None else None,
            "points": row.points if row is not None else 0,
            "played": row.played if row is not None else 0,
            "won": row.wins if row is not None else 0,
            "lost": row.losses if row is not None else 0,
            "bummerl_won": row.bummerl_won if row is not None else 0,
            "bummerl_lost": row.bummerl_lost if row is not None else 0,
            "next_match": upcoming.match_id if upcoming is not None else None,
            "next_table": (upcoming.table or None) if upcoming is not None else None,
        }
        row_of_table = {k: v for k, v in summary.items() if k not in ("club", "category")}
        made = {**row_of_table, "summary": dumps(summary)}
        known[pid] = (key, made)
        found.append(made)
    return found


# --- the bracket -----------------------------------------------------------------------


def bracket_body(tid: str, t: Tournament, sheet: BracketSheet) -> dict[str, Any]:
    """The API's ``GET .../bracket`` without the seal."""
    assert t.settings is not None

    def player(pid: str | None) -> dict[str, Any] | None:
        if pid is None:
            return None
        known = t.players.get(int(pid))
        name = known.name if known is not None else f"player {pid}"
        return {"player_id": int(pid), "name": name, "seed": sheet.seed_of.get(pid)}

    slots = []
    for item in sheet.slots:
        m, s, played = item.slot, item.state, item.played
        result = None
        if item.score and played is not None:
            seat = played.summary.winner or 0
            bummerl = played.summary.bummerl
            result = {
                "winner": played.players[seat],
                "bummerl": [bummerl[seat], bummerl[1 - seat]],
                "forfeit": played.summary.forfeit,
                "words": item.score,
            }
        slots.append(
            {
                "slot": m.match_id,
                "section": m.section,
                "round": m.round_no,
                "heading": item.heading,
                "sources": [_source(m.source_a), _source(m.source_b)],
                "players": [player(s.player_a), player(s.player_b)],
                "sides": list(item.sides),
                "status": s.status,
                "status_words": item.status,
                "conflict": item.conflict,
                "match": played.match_id if played is not None else None,
                "winner": player(s.winner),
                "result": result,
                "winner_to": m.winner_to,
                "loser_to": m.loser_to,
            }
        )
    return {
        "tournament": tid,
        "version": t.version,
        "format": t.settings.format,
        "kind": sheet.bracket.kind,
        "preview": sheet.preview,
        "note": "a preview from today's seeding and check-ins: nothing is drawn yet; "
        "drawing round 1 draws it"
        if sheet.preview
        else None,
        "seeds": [player(pid) for pid in sheet.bracket.seeds],
        "slots": slots,
        "champion": player(sheet.champion),
        "notes": [
            {"kind": n.kind.lower(), "slot": n.slot, "match": n.match_id, "text": n.text}
            for n in sheet.notes
        ],
        "seal": None,
    }


def no_bracket_words(t: Tournament) -> str:
    return no_bracket(t)


def _source(source: Source) -> dict[str, Any]:
    if isinstance(source, Seed):
        return {"seed": source.n}
    if isinstance(source, WinnerOf):
        return {"winner_of": source.match_id}
    return {"loser_of": source.match_id}
