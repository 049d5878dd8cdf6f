"""CSV import (players, results) and export (standings): formats in docs/csv-formats.md.

Imports validate every row against the tournament as it would be after the rows before
it, collect every bad row with its line number, and return events only when all rows are
good -- so a file with one bad row stores nothing::

    >>> from tournament.domain.testing import registered
    >>> from tournament.domain.state import fold
    >>> import io
    >>> rows = io.StringIO("name,club,rating\\nAnna,SC Ried,1500\\n,SC Ried,1400\\nBerti,,x\\n")
    >>> import_players(registered(players=0), rows)
    Traceback (most recent call last):
    ...
    tournament.domain.csvio.CsvImportError: 2 bad rows, nothing imported:
    line 3: name: a player needs a name (T-player)
    line 4: rating: 'x' is not a whole number (digits 0-9)
"""

from __future__ import annotations

import codecs
import csv
import dataclasses
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import IO, Any, Final

from tournament.domain import events as ev
from tournament.domain.errors import DomainError
from tournament.domain.events import EventLike
from tournament.domain.matchref import resolve_match
from tournament.domain.registration import duplicate_of, register_player, same_entry
from tournament.domain.reimports import (
    ROW_KEY,
    ImportedBefore,
    NewRow,
    not_imported_before,
    row_digest,
)
from tournament.domain.results import record_forfeit, record_hand, record_tally
from tournament.domain.standings import Row
from tournament.domain.state import Tournament, fold
from tournament.domain.text import excerpt, plain_text, whole_number
from tournament.eventstore.api import NewEvent

__all__ = [  # resolve_match: imported from here by the CLI since before matchref existed
    "CsvImportError", "decode", "forfeit_winner", "import_players", "import_results",
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


#: German column names (Austrian club lists, Excel) and the columns they stand for; read
#: case-insensitively, like the English ones (docs/csv-formats.md).
GERMAN_COLUMNS: Final[Mapping[str, str]] = {
    "spieler": "name",
    "verein": "club",
    "klub": "club",
    "kategorie": "category",
    "klasse": "category",
    "wertung": "rating",
    "startnummer": "player_id",
    "startnr": "player_id",
    "partie": "match",
    "sieger": "winner",
    "spielpunkte": "game_points",
    "punkte": "game_points",
    "geber": "dealer",
    "grund": "reason",
    "augen": "card_points",
    "zugedreht": "closed",
    "strichliste": "tally",
    "kampflos": "forfeit",
    "schreiber": "scorer",
}


#: The most rows one import takes: the event store appends at most 10,000 events at once,
#: and an import is one append (all or nothing). Checked before any row is validated.
MAX_ROWS: Final = 10_000
#: How many bad rows an error lists; it says how many more there are.
SHOWN_PROBLEMS: Final = 20


class CsvImportError(ValueError):
    """Some rows of an import are bad; ``problems`` lists (line, message) for each."""

    def __init__(self, problems: list[tuple[int, str]]) -> None:
        self.problems = problems
        super().__init__(self.text())

    def text(self, file: str | None = None) -> str:
        """The problems for the organiser; one line when there is one, naming ``file``;
        the first :data:`SHOWN_PROBLEMS` of many, and how many more (one mistake repeated
        over 2,800 rows is not 2,800 lines)."""
        if file is not None and len(self.problems) == 1:
            line, message = self.problems[0]
            return f"{file}, line {line}: {message}; nothing imported"
        shown = self.problems[:SHOWN_PROBLEMS]
        lines = "\n".join(f"line {line}: {message}" for line, message in shown)
        count, more = len(self.problems), len(self.problems) - len(shown)
        if more:
            lines += f"\n... and {more:,} more bad row{'s' if more != 1 else ''}"
        head = f"{file}: " if file is not None else ""
        return f"{head}{count:,} bad row{'s' if count != 1 else ''}, nothing imported:\n{lines}"


def decode(data: bytes) -> str:
    """The text of a CSV file: UTF-8, with or without the BOM Excel writes.

    >>> decode(b"\\xef\\xbb\\xbfname\\nAnna\\n")
    'name\\nAnna\\n'
    >>> decode(b"name\\nJos\\xe9\\n")
    Traceback (most recent call last):
    ...
    tournament.domain.csvio.CsvImportError: 1 bad row, nothing imported:
    line 2: the file is not UTF-8 text (byte 0xe9); save it as 'CSV UTF-8'
    >>> decode(b"\\xef\\xbb\\xbfname;club\\nA;X\\nGr\\xfcner;X\\n")  # after a BOM too
    Traceback (most recent call last):
    ...
    tournament.domain.csvio.CsvImportError: 1 bad row, nothing imported:
    line 3: the file is not UTF-8 text (byte 0xfc); save it as 'CSV UTF-8'
    """
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return data[bom:].decode("utf-8")
    except UnicodeDecodeError as error:
        at = bom + error.start  # the position in the file, the byte order mark counted
        line = data.count(b"\n", 0, at) + 1
        byte = data[at]
        raise CsvImportError(
            [
                (
                    line,
                    f"the file is not UTF-8 text (byte 0x{byte:02x}); save it as 'CSV UTF-8'",
                )
            ]
        ) from None


def delimiter(text: str) -> str:
    """``;`` when the header line has more semicolons than commas (Excel in a German-speaking
    locale writes semicolons), else ``,``.

    >>> delimiter("name;club;rating\\nAnna;SC Ried;1500\\n"), delimiter("name,club\\n")
    (';', ',')
    """
    header = text.split("\n", 1)[0]
    return ";" if header.count(";") > header.count(",") else ","


def _records(text: str) -> list[tuple[int, list[str]]]:
    """Every record of the file with the line it starts on; a quoting error or an
    oversized field is a :class:`CsvImportError` naming that line."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter(text), strict=True)
    out: list[tuple[int, list[str]]] = []
    while True:
        start = reader.line_num + 1
        try:
            fields = next(reader)
        except StopIteration:
            return out
        except csv.Error as error:
            raise CsvImportError([(start, _csv_problem(str(error)))]) from None
        out.append((start, fields))


def _csv_problem(message: str) -> str:
    """The csv module's complaint in the organiser's words."""
    if "field larger than field limit" in message:
        return f"a field is longer than {csv.field_size_limit()} characters"
    if "unexpected end of data" in message:
        return "a quote opened on this line is never closed"
    return f"not CSV as expected: {message}; quote fields that hold quotes"


def _header(
    line: int, fields: list[str], required: Sequence[str], known: Sequence[str]
) -> list[str]:
    header = [h.strip().lower() for h in fields]
    header = [GERMAN_COLUMNS.get(h, h) if GERMAN_COLUMNS.get(h) in known else h for h in header]
    columns = f"(columns: {', '.join(known)}, or their German names)"
    missing = [c for c in required if c not in header]
    if missing:
        raise CsvImportError([(line, f"the header needs column(s) {', '.join(missing)} {columns}")])
    unknown = [h for h in header if h and h not in known]
    if unknown:
        named = ", ".join(excerpt(h) for h in unknown[:5]) + (" ..." if len(unknown) > 5 else "")
        raise CsvImportError([(line, f"unknown column(s) {named} {columns}")])
    twice = sorted({h for h in header if h and header.count(h) > 1})
    if twice:
        raise CsvImportError([(line, f"column(s) {', '.join(twice)} more than once in the header")])
    return header


def _rows(
    source: IO[str], required: Sequence[str], known: Sequence[str], what: str
) -> list[tuple[int, dict[str, str]]]:
    """The rows as {column: value} with their line numbers, the file's shape checked: a
    known header without repeats, no row wider than the header, quotes closed, at most
    :data:`MAX_ROWS` rows (of ``what``: players, results)."""
    records = [(line, fields) for line, fields in _records(source.read()) if fields]
    if not records:
        raise CsvImportError([(1, f"the file is empty; the header needs {', '.join(required)}")])
    (first, head), *body = records
    header = _header(first, head, required, known)
    if len(body) > MAX_ROWS:
        raise CsvImportError(
            [(body[MAX_ROWS][0], f"more than {MAX_ROWS:,} {what} in one file ({len(body):,} "
                                 "rows): split it")]
        )  # fmt: skip
    problems: list[tuple[int, str]] = []
    out = []
    for line, fields in body:
        extra = [
            v for i, v in enumerate(fields) if v.strip() and (i >= len(header) or not header[i])
        ]
        if extra:
            problems.append(
                (
                    line,
                    f"{len(fields)} fields, but the header has {len(header)} column(s) "
                    f"({', '.join(h for h in header if h)}); a value with a comma or "
                    "semicolon needs quotes",
                )
            )
            continue
        cleaned = {h: v.strip() for h, v in zip(header, fields, strict=False) if h}
        if any(cleaned.values()):
            out.append((line, cleaned))
    if problems:
        raise CsvImportError(problems)
    return out


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
    tag: Callable[[dict[str, str]], dict[str, str]] | None = None,
) -> list[NewEvent]:
    """Each row's events, decided in file order on the state the rows before it made.
    ``select`` picks the rows to import on the folded state (or refuses the file);
    ``tag`` gives the metadata of the first event each row makes."""
    state = fold(events)
    if select is not None:
        rows = select(state, rows)
    problems: list[tuple[int, str]] = []
    out: list[NewEvent] = []
    for line, row in rows:
        try:
            new = decide(state, row)
        except DomainError as error:
            message = f"{error.field}: {error.message}"
            if error.rule != "T-csv":
                message += f" ({error.rule})"
            problems.append((line, message))
            continue
        if tag is not None and new:
            new[0] = dataclasses.replace(new[0], metadata={**new[0].metadata, **tag(row)})
        for event in new:
            state.apply(event)
        out += new
    if problems:
        raise CsvImportError(problems)
    if len(out) > MAX_ROWS:  # a row may add the match's first dealer: more events than rows
        raise CsvImportError(
            [(rows[-1][0], f"these {len(rows):,} rows make {len(out):,} events, more than "
                           f"{MAX_ROWS:,} in one import: split the file")]
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
                f"start number {given}, but this row gets {next_id} (start numbers follow "
                "the file order after the players already registered)",
            )
        return register_player(
            t,
            row.get("name", ""),
            club=row.get("club", ""),
            category=row.get("category", ""),
            rating=rating,
            actor=actor,
        )

    rows = _rows(source, ("name",), PLAYER_COLUMNS, "players")
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
        raise DomainError(field, "T-csv", f"{excerpt(text)} is not two numbers like 66:40")
    return [whole_number(p, field, "T-csv") for p in parts]


def _yes(text: str, field: str) -> bool:
    """A yes/no cell: empty, ``no``, ``0``, ``false`` are no; ``yes``, ``x``, ``1``, ``true``."""
    value = text.strip().lower()
    if value in ("", "no", "n", "0", "false"):
        return False
    if value in ("yes", "y", "x", "1", "true", "ja", "j"):
        return True
    raise DomainError(field, "T-csv", f"{excerpt(text)} is not yes or no")


def forfeit_winner(text: str, rule: str = "T-input") -> int | None:
    """A forfeit as the organiser gives it: the winner's start number, or ``both`` for a
    double no-show (None).

    >>> forfeit_winner("12"), forfeit_winner(" Both ")
    (12, None)
    >>> forfeit_winner("34x")
    Traceback (most recent call last):
    ...
    tournament.domain.errors.DomainError: forfeit: '34x' is not a start number or 'both' (T-input)
    """
    if text.strip().lower() == "both":
        return None
    try:
        return whole_number(text, "forfeit", rule)
    except DomainError:
        raise DomainError(
            "forfeit", rule, f"{excerpt(text)} is not a start number or 'both'"
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
            f"a row is a hand, a tally or a forfeit, not several: {' and '.join(kinds)}; "
            "write each in a row of its own",
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
            {k: v for k, v in row.items() if v} for _, row in _rows(source, required, known, what)
        ]
    except CsvImportError:
        return text  # refused by the import anyway; nothing is stored under its key
    return json.dumps(rows, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


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

    Rows an earlier import stored (:mod:`.reimports`: a sheet imported again after it
    grew) refuse the file (``earlier="refuse"``, T-repeat), are left out
    (``"only_new"``), or are imported once more (``"again"``: new hands that read the
    same). ``when`` writes an earlier import's time in the refusal."""

    def decide(t: Tournament, row: dict[str, str]) -> list[NewEvent]:
        if not row.get("match"):
            raise DomainError("match", "T-csv", "every row names its match (round.table, e.g. 2.5)")
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
        points = _int(row.get("game_points", ""), "game_points")
        if winner is None or points is None:
            raise DomainError(
                "winner", "T-csv", "a hand row needs winner and game_points (or tally, or forfeit)"
            )
        return record_hand(
            t,
            match_id,
            winner=winner,
            game_points=points,
            dealer=_int(row.get("dealer", ""), "dealer"),
            reason=row.get("reason") or None,
            card_points=_pair(row.get("card_points", ""), "card_points"),
            closed=_yes(row.get("closed", ""), "closed"),
            scorer=scorer,
            actor=actor,
            source="import",
        )

    def select(t: Tournament, rows: list[tuple[int, dict[str, str]]]) -> Any:
        if earlier == "again":
            return rows
        new = [NewRow(line, _match_key(t, row), row_digest(row)) for line, row in rows]
        try:
            keep = not_imported_before(events, new, leave_out=earlier == "only_new", when=when)
        except ImportedBefore as error:
            raise CsvImportError([(error.line, error.message)]) from None
        return [(line, row) for line, row in rows if line in keep]

    rows = _rows(source, ("match",), RESULT_COLUMNS, "results")
    return _import(events, rows, decide, select=select, tag=lambda row: {ROW_KEY: row_digest(row)})


def _match_key(t: Tournament, row: Mapping[str, str]) -> str:
    """The id of the row's match as the events name it, or the text as typed when it
    names no match (the row is refused for that later, with its line)."""
    try:
        return resolve_match(t, row.get("match", ""))
    except DomainError:
        return row.get("match", "")


STANDINGS_COLUMNS = (
    "rank", "player_id", "name", "club", "category", "status", "points", "played", "wins",
    "forfeit_wins", "losses", "byes", "bummerl_won", "bummerl_lost", "bummerl_diff", "gp_won",
    "gp_lost", "gp_diff", "schneider",
)  # fmt: skip


def _flat(row: Row) -> dict[str, Any]:
    data = row.to_json()
    tiebreaks = data.pop("tiebreaks")
    data.pop("place", None)
    if data["lives"] is None:  # columns of the lives format only
        for key in ("lives", "lives_bought", "final_points"):
            del data[key]
    data["bummerl_diff"] = row.bummerl_won - row.bummerl_lost
    data["gp_diff"] = row.gp_won - row.gp_lost
    for name, value in tiebreaks.items():
        data[f"tb_{name}"] = value
    return data


def standings_csv(rows: Iterable[Row], *, excel: bool = False) -> str:
    """Standings as CSV: the fixed columns, ``lives``, ``lives_bought`` and
    ``final_points`` (empty but for the finalists) in the lives format, then one
    ``tb_<name>`` column per tie-break. ``excel``: as Excel in an Austrian or German locale
    opens it by double-click: a byte order mark (so it reads UTF-8, not cp1252), ``;``
    between fields and a decimal comma (a Buchholz of 4.5)."""
    flat = [_flat(r) for r in rows]
    extra = [k for k in (flat[0] if flat else {}) if k not in STANDINGS_COLUMNS]
    out = io.StringIO()
    writer = csv.DictWriter(
        out,
        [*STANDINGS_COLUMNS, *extra],
        extrasaction="ignore",
        lineterminator="\n",  # Excel reads LF; the output file's text mode adds CR on Windows
        delimiter=";" if excel else ",",
    )
    writer.writeheader()
    number = _excel_number if excel else _same
    writer.writerows([{k: number(neutral(v)) for k, v in r.items()} for r in flat])
    return ("\ufeff" if excel else "") + out.getvalue()


#: How a spreadsheet cell starts when the spreadsheet would run it as a formula (OWASP,
#: "CSV injection"): ``=HYPERLINK(...)`` in a name leaks the sheet at a double-click.
FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")


def neutral(value: Any) -> Any:
    """A text cell that a spreadsheet would read as a formula, with ``'`` before it (shown
    as text instead of run); numbers stay numbers, so a Bummerl difference of -3 is still
    the number -3.

    >>> neutral("=1+2"), neutral("@SUM(A1)"), neutral("-Anna"), neutral(-3), neutral("Anna")
    ("'=1+2", "'@SUM(A1)", "'-Anna", -3, 'Anna')
    """
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _same(value: Any) -> Any:
    return value


def _excel_number(value: Any) -> Any:
    """A number as Excel with a German locale reads it: ``4,5``; whole floats as ``4``."""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value).replace(".", ",")
    return value


def standings_json(rows: Iterable[Row], **meta: Any) -> str:
    """Standings as one JSON document: ``{"tournament": ..., "as_of": ..., "rows": [...]}``."""
    return json.dumps({**meta, "rows": [_flat(r) for r in rows]}, ensure_ascii=False, indent=1)
