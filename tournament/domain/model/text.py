"""Text as the organiser types it: numbers in the digits 0-9, names that are plain text,
look-alike names found, and bad input quoted short and harmless in messages.

A number is written with the digits 0-9 only: ``²`` and Arabic-Indic digits are digits to
Python (``str.isdigit``) but not to a scoresheet, and ``int()`` refuses or misreads them::

    >>> whole_number("12", "winner")
    12
    >>> whole_number("²", "winner")
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: winner: '²' is not a whole number (digits 0-9) ...
    >>> whole_number("1.530", "rating", "T-player")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: rating: '1.530' is not ... separator: 1530) ...

Names, clubs and categories are printed on pairing sheets and terminals, so they hold no
control character (a terminal escape, a line break) and no bidi control (which reorders
what is shown), and they are short::

    >>> plain_text("Anna\\x1b[2J", "name", "T-player")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: name: control character U+001B (ESCAPE) at ...
    >>> plain_text("  Anna   Huber ", "name", "T-player")
    'Anna Huber'

Two names that look the same are the same name (:func:`same_text`): case, Unicode form
(NFKC: full-width letters, ligatures), invisible characters (a zero-width space) and
Cyrillic or Greek letters that look Latin aside::

    >>> same_text("Anna", "\\u0410nna"), same_text("Anna\\u200b", "ANNA"), same_text("Anna", "Anne")
    (True, True, False)
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from tournament.domain.model.errors import DomainError
from tournament.domain.words.messages import Phrase

#: The most digits a typed number may have: start numbers, ratings, tables, seeds and event
#: numbers all fit, and nothing typed builds a huge number (or a huge range of them).
MAX_DIGITS: Final = 9
#: The longest name, club, category or tournament name (characters, after NFC).
NAME_LIMIT: Final = 100
#: How much of a bad value a message quotes.
EXCERPT: Final = 40
#: The longest line of a message: a backstop for messages that quote input in full.
LINE_LIMIT: Final = 1000

_DIGITS = re.compile(r"[0-9]+")
_THOUSANDS = re.compile(r"[0-9]{1,3}(?:[.,' ][0-9]{3})+")

#: Bidi controls: they reorder what a terminal or a spreadsheet shows (a name that reads
#: backwards, a number that moves), so they are refused in names.
BIDI: Final = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
#: Names of the control characters people meet; others are named by their code point.
_CONTROL_NAMES: Final = {
    0x00: "NUL",
    0x07: "BELL",
    0x08: "BACKSPACE",
    0x09: "TAB",
    0x0A: "LINE FEED",
    0x0B: "VERTICAL TAB",
    0x0C: "FORM FEED",
    0x0D: "CARRIAGE RETURN",
    0x1B: "ESCAPE",
    0x7F: "DELETE",
    0x85: "NEXT LINE",
}


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted for a message: escaped (no raw control character reaches the
    terminal) and cut after ``limit`` characters, saying how long it was.

    >>> excerpt("34x")
    "'34x'"
    >>> excerpt("B" * 1_000_000, 5)
    "'BBBBB…' (1,000,000 characters)"
    >>> excerpt("\\x1b]0;x")
    "'\\\\x1b]0;x'"
    """
    if len(text) <= limit:
        return repr(text)
    quoted = repr(text[:limit])
    return f"{quoted[:-1]}…{quoted[-1]} ({len(text):,} characters)"


def clean(message: str, line_limit: int = LINE_LIMIT) -> str:
    """A message made safe to print: every character a terminal would act on (controls
    but the line break, bidi controls) escaped, each line cut after ``line_limit``.

    >>> clean("unknown option(s) \\r\\rdy\\x10")
    'unknown option(s) \\\\r\\\\rdy\\\\x10'
    >>> clean("x" * 10, 4)
    'xxxx… (6 more characters)'
    """
    lines = []
    for line in message.split("\n"):
        safe = "".join(_escaped(ch) for ch in line)
        if len(safe) > line_limit:
            safe = f"{safe[:line_limit]}… ({len(safe) - line_limit:,} more characters)"
        lines.append(safe)
    return "\n".join(lines)


def printable(text: str, limit: int = 200) -> str:
    """Stored text as a printout may show it: what the checks of :func:`plain_text` would
    have refused (a name stored before they existed) escaped, and cut after ``limit``
    characters, so no terminal escape, bidi control or 60 KB name reaches a table.

    >>> printable("Anna Huber"), printable("Evil\x1b[2J"), printable("B" * 300, 4)
    ('Anna Huber', 'Evil\\\\x1b[2J', 'BBBB…')
    """
    if len(text) <= limit and text.isprintable():
        return text
    safe = "".join(_escaped(ch) for ch in text)
    return safe if len(safe) <= limit else f"{safe[:limit]}…"


def _escaped(ch: str) -> str:
    if _is_control(ch) or ord(ch) in BIDI or 0xD800 <= ord(ch) <= 0xDFFF:
        return repr(ch)[1:-1]
    return ch


def _is_control(ch: str) -> bool:
    """A control character (Unicode Cc) or a line or paragraph separator."""
    return unicodedata.category(ch) in ("Cc", "Zl", "Zp")


def whole_number(
    text: str,
    field: str,
    rule: str = "T-input",
    *,
    what: str = "a whole number",
    digits: int = MAX_DIGITS,
    signed: bool = False,
) -> int:
    """``text`` as a number of digits 0-9 (spaces around it allowed), at most ``digits`` of
    them, and a minus before them if ``signed`` (so the range check of the value, not this,
    answers ``--rating -5``); anything else is a :class:`DomainError` naming ``field``."""
    value = text.strip()
    sign = -1 if signed and value.startswith("-") else 1
    value = value[1:] if sign < 0 else value
    if not _DIGITS.fullmatch(value):
        hint: Phrase | str = "digits 0-9"
        if _THOUSANDS.fullmatch(value):
            hint = Phrase("text.thousands_hint", {"number": re.sub("[^0-9]", "", value)})
        raise DomainError(
            field,
            rule,
            code="text.not_a",
            params={"text": excerpt(text), "what": what, "hint": hint},
        )
    if len(value.lstrip("0")) > digits:
        raise DomainError(
            field,
            rule,
            code="text.too_large_most_digits",
            params={"text": excerpt(text), "what": what, "digits": digits},
        )
    return sign * int(value)


def plain_text(
    value: str, field: str, rule: str, *, limit: int = NAME_LIMIT, what: str = "a name"
) -> str:
    """``value`` as it is stored: spaces around it stripped, runs of spaces inside made one,
    in Unicode NFC. Refused, naming ``field`` and the character's position (counted from
    1 in ``value`` as given): a control character (Unicode Cc; a tab, a line break, an
    escape), a line or paragraph separator, a bidi control; and more than ``limit``
    characters."""
    lead = len(value) - len(value.lstrip())
    for position, ch in enumerate(value.strip(), lead + 1):
        if _is_control(ch):
            raise DomainError(
                field,
                rule,
                code="text.control_character_position_plain",
                params={"char_name": char_name(ch), "position": position, "what": what},
            )
        if ord(ch) in BIDI:
            raise DomainError(
                field,
                rule,
                code="text.bidi_control_position_reorders",
                params={"char_name": char_name(ch), "position": position, "what": what},
            )
    text = " ".join(unicodedata.normalize("NFC", value).split())
    if len(text) > limit:
        raise DomainError(
            field,
            rule,
            code="text.longer_characters",
            params={"text": excerpt(text), "limit": limit},
        )
    return text


def char_name(ch: str) -> str:
    """``U+001B (ESCAPE)``: a character by code point and name, for messages.

    >>> char_name("\\u202e"), char_name("\\x10")
    ('U+202E (RIGHT-TO-LEFT OVERRIDE)', 'U+0010')
    """
    code = ord(ch)
    name = _CONTROL_NAMES.get(code) or unicodedata.name(ch, "")
    return f"U+{code:04X}" + (f" ({name})" if name else "")


# --- look-alike names ------------------------------------------------------------------

#: Characters that show nothing (or nothing that tells names apart): format characters
#: (Cf: zero-width space and joiners, the soft hyphen, the byte order mark) and the
#: Hangul fillers and the combining grapheme joiner, which render as blanks.
_FILLERS: Final = frozenset([0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0])

#: Cyrillic and Greek letters that look like a Latin letter, as the lower case (casefold)
#: shows them: "аnna" with a Cyrillic а reads "anna".
_LOOK_ALIKE_LOWER: Final = str.maketrans(
    {
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y",
        "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w",
        "ӏ": "l", "ү": "y",
        "α": "a", "ο": "o", "ν": "v", "ι": "i", "ρ": "p", "υ": "u", "χ": "x", "γ": "y",
    }
)  # fmt: skip
#: ... and as the upper case shows them: "НАNS" with a Cyrillic Н and А reads "HANS",
#: although the lower-case н does not look like an h.
_LOOK_ALIKE_UPPER: Final = str.maketrans(
    {
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
        "С": "C", "Т": "T", "У": "Y", "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Ү": "Y",
        "Һ": "H", "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I",
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    }
)  # fmt: skip

_KEYS: dict[str, tuple[str, str]] = {}


def look_alike_keys(text: str) -> tuple[str, str]:
    """Two spellings of ``text`` that look-alike names share: with invisible characters
    dropped, NFKC, spaces made one, and look-alike letters made Latin, once read in lower
    case and once in upper case. Two names are the same when either key is.

    >>> look_alike_keys("\\u0410nna\\u200b"), look_alike_keys("НАNS")
    (('anna', 'anna'), ('нans', 'hans'))
    """
    keys = _KEYS.get(text)
    if keys is None:
        if len(_KEYS) > 100_000:  # a long-running process: bounded memory
            _KEYS.clear()
        visible = "".join(
            ch
            for ch in unicodedata.normalize("NFKC", text)
            if unicodedata.category(ch) != "Cf" and ord(ch) not in _FILLERS
        )
        plain = " ".join(visible.split())
        lower = _nfd(plain.casefold()).translate(_LOOK_ALIKE_LOWER)
        upper = _nfd(plain.upper()).translate(_LOOK_ALIKE_UPPER).casefold()
        keys = _KEYS[text] = (_nfc(lower), _nfc(upper))
    return keys


def same_text(a: str, b: str) -> bool:
    """Whether two names (or clubs) look the same on a pairing sheet: case, Unicode form,
    invisible characters and look-alike letters aside (:func:`look_alike_keys`)."""
    ka, kb = look_alike_keys(a), look_alike_keys(b)
    return ka[0] == kb[0] or ka[1] == kb[1]


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def counted(number: int, word: str, words: str | None = None) -> str:
    """``number`` and the noun in the form it takes: printouts said "1 pts" and "1 of 1
    matches still open".

    >>> counted(1, "pt"), counted(0, "pt"), counted(3, "match", "matches")
    ('1 pt', '0 pts', '3 matches')
    """
    return f"{number} {word if number == 1 else words or word + 's'}"
