"""Reading a CSV file as an import takes it: UTF-8 (with or without a byte order mark),
commas or semicolons, English or German column names, at most :data:`MAX_ROWS` rows;
every problem of the file's shape is a :class:`CsvImportError` naming its line
(docs/csv-formats.md). What the rows say is checked by the imports in :mod:`.csvio`."""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Mapping, Sequence
from typing import IO, Any, Final

from tournament.domain.model.errors import DomainError
from tournament.domain.model.text import excerpt
from tournament.domain.words.messages import plain

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
#: Where a problem of the file's shape is (:attr:`CsvImportError.where`).
FILE: Final = [("file", "T-csv")]
HEADER: Final = [("header", "T-csv")]

#: How many bad rows an error lists; it says how many more there are.
SHOWN_PROBLEMS: Final = 20


class CsvImportError(ValueError):
    """Some rows of an import are bad; ``problems`` lists (line, message) for each, and
    ``where`` (field, rule) for each in the same order: the column at fault, or the
    part of the file (``file``, ``header``, ``row``) when it is the file's shape."""

    def __init__(
        self,
        problems: list[tuple[int, str]],
        where: Sequence[tuple[str, str]] | None = None,
        *,
        refusals: Sequence[DomainError | None] | None = None,
    ) -> None:
        self.problems = problems
        self.where = list(where) if where is not None else [("row", "T-csv")] * len(problems)
        # Per problem, the domain's refusal of that row where there is one: a page shows
        # it in the reader's language, the API adds its code and params (issue 11).
        self.refusals = list(refusals) if refusals is not None else [None] * len(problems)
        super().__init__(self.text())

    def to_json(self) -> list[dict[str, Any]]:
        """Every problem as the API lists it: ``{"row": line, "field", "rule", "message"}``
        (``row`` is the file's line number, as the command line names it)."""
        rows: list[dict[str, Any]] = []
        for (line, message), (field, rule), refusal in zip(
            self.problems, self.where, self.refusals, strict=True
        ):
            row: dict[str, Any] = {"row": line, "field": field, "rule": rule, "message": message}
            if refusal is not None and refusal.code is not None:
                row["code"], row["params"] = refusal.code, plain(refusal.params)
            rows.append(row)
        return rows

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


#: The encodings a CSV file is read in (:func:`read_text`): Excel's "CSV UTF-8" (with a
#: byte order mark) or plain UTF-8, else Excel's plain "CSV" on Windows (O-L2).
UTF8: Final = "UTF-8"
CP1252: Final = "Windows-1252"


def decode(data: bytes) -> str:
    """The text of a CSV file, as :func:`read_text` reads it."""
    return read_text(data)[0]


def read_text(data: bytes) -> tuple[str, str]:
    """The text of a CSV file and the encoding it was read in: UTF-8, with or without the
    BOM Excel writes; else Windows-1252 (what Excel's plain "CSV" writes on an Austrian or
    German Windows) when every byte is one of its characters. A file with a UTF-8 BOM, a
    UTF-16 file (its BOM, NUL bytes) or a byte Windows-1252 does not have is refused.

    >>> read_text(b"\\xef\\xbb\\xbfname\\nAnna\\n")
    ('name\\nAnna\\n', 'UTF-8')
    >>> read_text(b"name\\nJos\\xe9\\n")
    ('name\\nJosé\\n', 'Windows-1252')
    >>> read_text(b"name\\nJos\\x81\\n")
    Traceback (most recent call last):
    ...
    tournament.domain.commands.csvread.CsvImportError: 1 bad row, nothing imported:
    line 2: the file is not UTF-8 text (byte 0x81); save it as 'CSV UTF-8'
    >>> read_text(b"\\xef\\xbb\\xbfname;club\\nA;X\\nGr\\xfcner;X\\n")  # after a BOM too
    Traceback (most recent call last):
    ...
    tournament.domain.commands.csvread.CsvImportError: 1 bad row, nothing imported:
    line 3: the file is not UTF-8 text (byte 0xfc); save it as 'CSV UTF-8'
    """
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return data[bom:].decode("utf-8"), UTF8
    except UnicodeDecodeError as error:
        at = bom + error.start  # the position in the file, the byte order mark counted
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or b"\x00" in data
    if not bom and not utf16:
        try:
            return data.decode("cp1252"), CP1252
        except UnicodeDecodeError as error:
            at = error.start  # a byte Windows-1252 does not have: name that one
    line = data.count(b"\n", 0, at) + 1
    byte = data[at]
    raise CsvImportError(
        [(line, f"the file is not UTF-8 text (byte 0x{byte:02x}); save it as 'CSV UTF-8'")],
        [("file", "T-csv")],
    )


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
        raise CsvImportError(
            [(line, f"the header needs column(s) {', '.join(missing)} {columns}")], HEADER
        )
    unknown = [h for h in header if h and h not in known]
    if unknown:
        named = ", ".join(excerpt(h) for h in unknown[:5]) + (" ..." if len(unknown) > 5 else "")
        raise CsvImportError([(line, f"unknown column(s) {named} {columns}")], HEADER)
    twice = sorted({h for h in header if h and header.count(h) > 1})
    if twice:
        raise CsvImportError(
            [(line, f"column(s) {', '.join(twice)} more than once in the header")], HEADER
        )
    return header


def read_rows(
    source: IO[str], required: Sequence[str], known: Sequence[str], what: str
) -> list[tuple[int, dict[str, str]]]:
    """The rows as {column: value} with their line numbers, the file's shape checked: a
    known header without repeats, no row wider than the header, quotes closed, at most
    :data:`MAX_ROWS` rows (of ``what``: players, results)."""
    records = [(line, fields) for line, fields in _records(source.read()) if fields]
    if not records:
        raise CsvImportError(
            [(1, f"the file is empty; the header needs {', '.join(required)}")], FILE
        )
    (first, head), *body = records
    header = _header(first, head, required, known)
    if len(body) > MAX_ROWS:
        raise CsvImportError(
            [(body[MAX_ROWS][0], f"more than {MAX_ROWS:,} {what} in one file ({len(body):,} "
                                 "rows): split it")], FILE
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
