"""CSV import (players, results): formats in docs/csv-formats.md. Reading the file is
:mod:`.csvread`'s, the standings export :mod:`.csvexport`'s (both named here too).

Imports validate every row against the tournament as it would be after the rows before
it, collect every bad row with its line number, and return events only when all rows are
good -- so a file with one bad row stores nothing::

    >>> from tournament.domain.testing import registered
    >>> from tournament.domain.model.state import fold
    >>> import io
    >>> rows = io.StringIO("name,club,rating\\nAnna,SC Ried,1500\\n,SC Ried,1400\\nBerti,,x\\n")
    >>> import_players(registered(players=0), rows)
    Traceback (most recent call last):
    ...
    tournament.domain.commands.csvread.CsvImportError: 2 bad rows, nothing imported:
    line 3: name: a player needs a name (T-player)
    line 4: rating: 'x' is not a whole number (digits 0-9)
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import IO, Any, Final

from tournament.domain.commands.csvexport import neutral, standings_csv, standings_json
from tournament.domain.commands.csvread import MAX_ROWS, CsvImportError, decode, read_rows
from tournament.domain.commands.matchref import resolve_match
from tournament.domain.commands.registration import duplicate_of, register_player, same_entry
from tournament.domain.commands.reimports import (
    ImportedBefore,
    NewRow,
    Stored,
    compare,
    not_stored_before,
)
from tournament.domain.commands.results import (
    hand_payload,
    record_forfeit,
    record_hand,
    record_tally,
    tally_fields,
)
from tournament.domain.model import events as ev
from tournament.domain.model.errors import DomainError
from tournament.domain.model.events import EventLike
from tournament.domain.model.state import Tournament, fold
from tournament.domain.model.text import excerpt, plain_text, whole_number
from tournament.eventstore.api import NewEvent

__all__ = [  # resolve_match: imported from here by the CLI since before matchref existed
    "CsvImportError", "decode", "forfeit_winner", "import_key", "import_players", "import_results",
    "neutral", "resolve_match", "standings_csv", "standings_json",
]  # fmt: skip

PLAYER_COLUMNS = ("name", "club", "category", "rating", "player_id")
RESULT_COLUMNS = (
    "match",
    "winner",
    "game_points",
    "dealer",
    "reason",
    "card_points",
    "closed",
    "tally",
    "forfeit",
    "scorer",
)


def _int(value: str, field: str) -> int | None:
    """A number cell: empty, or digits 0-9 (``²`` or Arabic-Indic digits are refused)."""
    if not value:
        return None
    return whole_number(value, field, "T-csv", signed=True)  # -5: the range check says why


def _import(
    events: Sequence[EventLike],
    rows: list[tuple[int, dict[str, str]]],
    decide: Callable[[Tournament, dict[str, str]], list[NewEvent]],
    *,
    select: Callable[[Tournament, list[tuple[int, dict[str, str]]]], Any] | None = None,
) -> list[NewEvent]:
    """Each row's events, decided in file order on the state the rows before it made.
    ``select`` picks the rows to import on the folded state (or refuses the file)."""
    state = fold(events)
    if select is not None:
        rows = select(state, rows)
    problems: list[tuple[int, str]] = []
    where: list[tuple[str, str]] = []
    refusals: list[DomainError | None] = []
    out: list[NewEvent] = []
    for line, row in rows:
        try:
            new = decide(state, row)
        except DomainError as error:
            # The rule once (a message may cite it already); T-csv is the file's own.
            message = error.line() if error.rule != "T-csv" else f"{error.field}: {error.message}"
            problems.append((line, message))
            where.append((error.field, error.rule))
            refusals.append(error)
            continue
        for event in new:
            state.apply(event)
        out += new
    if problems:
        raise CsvImportError(problems, where, refusals=refusals)
    if len(out) > MAX_ROWS:  # a row may add the match's first dealer: more events than rows
        raise CsvImportError(
            [(rows[-1][0], f"these {len(rows):,} rows make {len(out):,} events, more than "
                           f"{MAX_ROWS:,} in one import: split the file")], [("file", "T-csv")]
        )  # fmt: skip
    # Every event of an import came from the file, whatever its command defaults to.
    return ev.stamped(out, {"source": ev.IMPORT})


def import_players(
    events: Sequence[EventLike],
    source: IO[str],
    *,
    actor: str | None = None,
    only_new: bool = False,
) -> list[NewEvent]:
    """``player.registered`` for each row of a players CSV (name, club, category, rating).
    ``only_new``: rows of players registered already (the same name and club, as
    ``players add`` refuses them: T-player) are left out, as when a list that grew since
    is imported again; a look-alike of a registered player is still refused."""

    def select(t: Tournament, rows: list[tuple[int, dict[str, str]]]) -> Any:
        if not only_new:
            return rows
        return [(line, row) for line, row in rows if not _registered(t, row)]

    def decide(t: Tournament, row: dict[str, str]) -> list[NewEvent]:
        rating = _int(row.get("rating", ""), "rating")
        given = _int(row.get("player_id", ""), "player_id")
        next_id = max(t.players, default=0) + 1
        if given is not None and given != next_id:
            # Start numbers follow the file order; a list numbered otherwise is refused
            # rather than renumbered behind the organiser's back.
            raise DomainError(
                "player_id",
                "T-csv",
                code="csvio.start_number_but_row",
                params={"given": given, "next_id": next_id},
            )
        return register_player(
            t,
            row.get("name", ""),
            club=row.get("club", ""),
            category=row.get("category", ""),
            rating=rating,
            actor=actor,
        )

    rows = read_rows(source, ("name",), PLAYER_COLUMNS, "players")
    return _import(events, rows, decide, select=select)


def _registered(t: Tournament, row: Mapping[str, str]) -> bool:
    """Whether the row's player is registered already: the same name and club (case and
    Unicode form aside), as a list imported before says them."""
    try:
        name = plain_text(row.get("name", ""), "name", "T-player")
        club = plain_text(row.get("club", ""), "club", "T-player")
    except DomainError:
        return False  # refused with its line when the row is imported
    other = duplicate_of(t, name, club)
    return other is not None and same_entry(other, name, club)


def _pair(text: str, field: str) -> list[int] | None:
    if not text:
        return None
    parts = text.replace("/", ":").split(":")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise DomainError(
            field, "T-csv", code="csvio.two_numbers_like", params={"text": excerpt(text)}
        )
    return [whole_number(p, field, "T-csv") for p in parts]


def _yes(text: str, field: str) -> bool:
    """A yes/no cell: empty, ``no``, ``0``, ``false`` are no; ``yes``, ``x``, ``1``, ``true``."""
    value = text.strip().lower()
    if value in ("", "no", "n", "0", "false"):
        return False
    if value in ("yes", "y", "x", "1", "true", "ja", "j"):
        return True
    raise DomainError(field, "T-csv", code="csvio.not_yes_or_no", params={"text": excerpt(text)})


def forfeit_winner(text: str, rule: str = "T-input") -> int | None:
    """A forfeit as the organiser gives it: the winner's start number, or ``both`` for a
    double no-show (None).

    >>> forfeit_winner("12"), forfeit_winner(" Both ")
    (12, None)
    >>> forfeit_winner("34x")
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: forfeit: '34x' is not a start number or 'both' ...
    """
    if text.strip().lower() == "both":
        return None
    try:
        return whole_number(text, "forfeit", rule)
    except DomainError:
        raise DomainError(
            "forfeit", rule, code="csvio.start_number_both", params={"text": excerpt(text)}
        ) from None


#: The columns of a hand row (a tally or a forfeit row leaves them empty).
HAND_COLUMNS = ("winner", "game_points", "dealer", "reason", "card_points", "closed")


def _one_kind(row: Mapping[str, str]) -> None:
    """A row is a hand, a tally or a forfeit, never two: what the other columns say would
    be dropped without a word (T-csv), as on the command line."""
    hand = [c for c in HAND_COLUMNS if row.get(c)]
    kinds = [k for k in ("forfeit", "tally") if row.get(k)]
    if hand:
        kinds.append("a hand (" + ", ".join(hand) + ")")
    if len(kinds) > 1:
        raise DomainError(
            "row",
            "T-csv",
            code="csvio.row_hand_tally_forfeit",
            params={"kinds": " and ".join(kinds)},
        )


#: Per import: the columns it requires and knows, and what its rows are.
IMPORTS: Final[Mapping[str, tuple[tuple[str, ...], tuple[str, ...], str]]] = {
    "import_players": (("name",), PLAYER_COLUMNS, "players"),
    "import_results": (("match",), RESULT_COLUMNS, "results"),
}


def file_content(text: str, kind: str) -> str:
    """What a CSV file of ``kind`` says, whatever its bytes: its rows as read (columns by
    their English names, values trimmed, empty cells and rows left out), as canonical JSON. The same
    sheet saved again by Excel (semicolons, CRLF, a byte order mark, a blank line at the
    end, German column names) says the same; a file that cannot be read says its text.

    >>> file_content("match,winner\\n1.1,3\\n", "import_results") == file_content(
    ...     "\\ufeffPartie;Sieger\\r\\n1.1;3\\r\\n\\r\\n", "import_results")
    True
    """
    required, known, what = IMPORTS[kind]
    try:
        source = io.StringIO(text.removeprefix("\ufeff"))
        rows = [
            {k: v for k, v in row.items() if v}
            for _, row in read_rows(source, required, known, what)
        ]
    except CsvImportError:
        return text  # refused by the import anyway; nothing is stored under its key
    return json.dumps(rows, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def import_key(kind: str, tournament_id: str, text: str) -> str:
    """The idempotency key of importing CSV ``text`` as ``kind`` (``import_players``,
    ``import_results``) into a tournament: the SHA-256 of the kind, the tournament and
    what the file says (:func:`file_content`), so the same sheet imported again -- by the
    command line or the API, saved again by Excel or not -- finds the first import.

    >>> import_key("import_players", "cup", "name\\nAnna\\n") == import_key(
    ...     "import_players", "cup", "\\ufeffSpieler;\\r\\nAnna;\\r\\n")
    True
    """
    content = file_content(text, kind)
    digest = hashlib.sha256(f"{kind}\0{tournament_id}\0{content}".encode()).hexdigest()
    return f"csv:{digest}"


def import_results(
    events: Sequence[EventLike],
    source: IO[str],
    *,
    actor: str | None = None,
    earlier: str = "refuse",
    when: Callable[[datetime], str] | None = None,
) -> list[NewEvent]:
    """Result events for each row of a results CSV: a hand (winner, game_points ...), a
    tally (``tally`` column) or a forfeit (``forfeit`` = the winner, or ``both``).

    Rows whose results are stored already (:mod:`.reimports`: a sheet imported again
    after it grew, or holding hands typed in before) refuse the file
    (``earlier="refuse"``, T-repeat), are left out (``"only_new"``), or are imported
    once more (``"again"``: new hands that read the same). ``when`` writes a time in
    the refusal."""

    def decide(t: Tournament, row: dict[str, str]) -> list[NewEvent]:
        if not row.get("match"):
            raise DomainError("match", "T-csv", code="csvio.every_row_names_match")
        _one_kind(row)
        match_id = resolve_match(t, row["match"])
        scorer = _int(row.get("scorer", ""), "scorer")
        if row.get("forfeit"):
            winner = forfeit_winner(row["forfeit"], "T-csv")
            try:
                return record_forfeit(t, match_id, winner=winner, actor=actor)
            except DomainError as error:  # the winner is the forfeit column's value
                if error.field != "winner":
                    raise
                raise type(error)("forfeit", error.rule, error.message) from None
        if row.get("tally"):
            return record_tally(
                t, match_id, row["tally"], scorer=scorer, actor=actor, source="import"
            )
        winner = _int(row.get("winner", ""), "winner")
        if winner is None or _int(row.get("game_points", ""), "game_points") is None:
            raise DomainError("winner", "T-csv", code="csvio.hand_row_needs_winner")
        return record_hand(t, match_id, **_hand(row), scorer=scorer, actor=actor, source="import")

    def select(t: Tournament, rows: list[tuple[int, dict[str, str]]]) -> Any:
        if earlier == "again":
            return rows
        new = []
        for line, row in rows:
            match_id = _match_key(t, row)
            new.append(NewRow(line, match_id, _row_content(t, match_id, row)))
        found = compare(_stored(t, {r.match_id for r in new}), new)
        try:
            keep = set(not_stored_before(events, found, leave_out=earlier == "only_new", when=when))
        except ImportedBefore as error:
            raise CsvImportError([(error.line, error.message)], [("row", "T-repeat")]) from None
        return [(line, row) for line, row in rows if line in keep]

    rows = read_rows(source, ("match",), RESULT_COLUMNS, "results")
    return _import(events, rows, decide, select=select)


def _stored(t: Tournament, match_ids: set[str]) -> dict[str, list[Stored]]:
    """The results stored in each of these matches (voided ones aside), in order."""
    out: dict[str, list[Stored]] = {}
    for match_id in match_ids & set(t.matches):
        entries = t.matches[match_id].entries
        out[match_id] = [
            Stored(e.result_id, _content(e.kind, e.payload)) for e in entries if e.payload
        ]
    return out


def _content(kind: str, payload: Mapping[str, Any]) -> str:
    """What a result says, to compare a row with a stored result: its kind and fields, not
    its ids or who kept score; a forfeit by its winner alone."""
    if kind == "forfeit":
        said: Mapping[str, Any] = {"winner": payload.get("winner")}
    else:
        said = {k: v for k, v in payload.items() if k not in ("result_id", "match_id", "scorer")}
    return f"{kind}:{json.dumps(said, sort_keys=True, default=list)}"


def _hand(row: Mapping[str, str]) -> dict[str, Any]:
    """A hand row's fields, read as ``record_hand`` and ``hand_payload`` take them."""
    return {
        "winner": _int(row.get("winner", ""), "winner"),
        "game_points": _int(row.get("game_points", ""), "game_points"),
        "dealer": _int(row.get("dealer", ""), "dealer"),
        "reason": row.get("reason") or None,
        "card_points": _pair(row.get("card_points", ""), "card_points"),
        "closed": _yes(row.get("closed", ""), "closed"),
    }


def _row_content(t: Tournament, match_id: str, row: Mapping[str, str]) -> str | None:
    """What the row would enter in match ``match_id``, as :func:`_content` says a stored
    result; None when it cannot be read (the import refuses it with its line)."""
    match, settings = t.matches.get(match_id), t.settings
    if match is None or settings is None:
        return None
    try:
        if row.get("forfeit"):
            return _content("forfeit", {"winner": forfeit_winner(row["forfeit"], "T-csv")})
        if row.get("tally"):
            return _content("tally", {"tally": tally_fields(match, row["tally"], None)})
        return _content("hand", hand_payload(settings, match, **_hand(row)))
    except DomainError:
        return None


def _match_key(t: Tournament, row: Mapping[str, str]) -> str:
    """The id of the row's match as the events name it, or the text as typed when it
    names no match (the row is refused for that later, with its line)."""
    try:
        return resolve_match(t, row.get("match", ""))
    except DomainError:
        return row.get("match", "")
