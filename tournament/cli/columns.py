"""Terminal columns measured as a terminal shows them, not in code points.

A name stored before names were normalised may hold combining marks ("Jürgen" as u and
U+0308, as macOS writes it: 7 code points, 6 columns), and a CJK character takes two
columns. ``str.ljust`` counts code points, so such a line would push the next column out
of line; these helpers count columns.

    >>> width("Jürgen"), width("Ju\\u0308rgen"), width("王芳")
    (6, 6, 4)
    >>> ljust("Ju\\u0308rgen", 8).endswith("rgen  ")
    True
    >>> rjust("王芳", 5) + "|"
    ' 王芳|'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from tournament.domain.model.text import counted

__all__ = ["WIDTH", "abbreviate", "counted", "ljust", "rjust", "width", "wrap"]

#: Printouts aim to fit this many columns (an 80-100 column window, A4 portrait).
WIDTH = 100


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal: combining and zero-width characters none,
    wide and full-width (East Asian) characters two, everything else one."""
    return sum(_char_width(ch) for ch in text)


def _char_width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def ljust(text: str, columns: int) -> str:
    """``text`` padded on the right to ``columns`` terminal columns."""
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    """``text`` padded on the left to ``columns`` terminal columns."""
    return " " * max(0, columns - width(text)) + text


def abbreviate(name: str, columns: int) -> str:
    """``name`` in at most ``columns`` terminal columns, as a printed list shortens names:
    first the given names to initials (``T. Wieser-Obermüllner``), then the end cut off
    with ``…``.

    >>> abbreviate("Theresia Wieser-Obermüllner", 22), abbreviate("Anna Huber", 22)
    ('T. Wieser-Obermüllner', 'Anna Huber')
    >>> abbreviate("Theresia Wieser-Obermüllner", 12)
    'T. Wieser-O…'
    """
    if width(name) <= columns:
        return name
    *given, family = name.split()
    if given:
        short = " ".join([*(f"{g[0]}." for g in given), family])
        if width(short) <= columns:
            return short
        name = short
    out = ""
    for ch in name:
        if width(out + ch) > columns - 1:
            break
        out += ch
    return out.rstrip() + "…"


def wrap(text: str, columns: int = WIDTH, keep: Sequence[str] = ()) -> str:
    """A note under a printout, wrapped to ``columns`` (later lines indented by two); the
    phrases in ``keep`` (a seal's short form, a command to type) are never broken.

    >>> print(wrap("check: tournament verify --seal '#1 @2 MHB9-XFXR'", 30,
    ...            keep=["'#1 @2 MHB9-XFXR'"]))
    check: tournament verify
      --seal '#1 @2 MHB9-XFXR'
    """
    import textwrap

    glued = text
    for phrase in sorted(keep, key=len, reverse=True):  # a phrase in a longer one: glued
        # NUL, never in printed text, is no space to textwrap: no line breaks there
        glued = glued.replace(phrase, phrase.replace(" ", "\0"))
    lines = textwrap.fill(glued, columns, subsequent_indent="  ", break_on_hyphens=False)
    return lines.replace("\0", " ")
