"""Possible duplicates by spelling (O-L2): "Guenther Moser" in a list is probably the
registered "Günther Moser" -- every Austrian club list writes some umlauts as ue, oe, ae
and ß as ss. Such a row is not refused (two people may well be called so): the import's
preview warns, naming the player it may be, and the organiser decides.

Two names are spelt alike when they are the same once case, spaces, ä/ae, ö/oe, ü/ue and
ß/ẞ/ss are set aside, and they are not simply the same name (which the registration's own
check refuses). Only players of the same club, or where either has no club, are compared.
Pure and stdlib only.

>>> spelling_key("Günther  GROẞ"), spelling_key("Guenther Gross")
('guenther gross', 'guenther gross')
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Final

from tournament.domain.words.messages import Param, Phrase

#: Umlauts as the two letters a keyboard without them writes; ß (and ẞ) is "ss" already
#: once casefolded.
_UMLAUTS: Final = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})


def spelling_key(text: str) -> str:
    """``text`` with case, runs of spaces, Unicode form and the ue/ü, oe/ö, ae/ä and
    ss/ß spellings set aside."""
    plain = " ".join(unicodedata.normalize("NFC", text).split())
    return plain.casefold().translate(_UMLAUTS)


def _club_key(club: str) -> str:
    return " ".join(unicodedata.normalize("NFC", club).split()).casefold()


def _same_name(a: str, b: str) -> bool:
    """The same name as typed, case aside (lower, not casefold: ß stays ß)."""
    return " ".join(unicodedata.normalize("NFC", a).lower().split()) == " ".join(
        unicodedata.normalize("NFC", b).lower().split()
    )


def _clubs_fit(a: str, b: str) -> bool:
    return not a.strip() or not b.strip() or _club_key(a) == _club_key(b)


def possible_duplicates(
    registered: Iterable[tuple[int, str, str]], rows: Sequence[tuple[int, str, str]]
) -> list[tuple[int, Phrase]]:
    """(line, warning) for each row (line, name, club) spelt like a ``registered`` player
    (start number, name, club) or like an earlier row of the same list."""
    known: dict[str, list[tuple[int, str, str]]] = {}
    for pid, name, club in registered:
        known.setdefault(spelling_key(name), []).append((pid, name, club))
    earlier: dict[str, list[tuple[int, str, str]]] = {}
    found: list[tuple[int, Phrase]] = []
    for line, name, club in rows:
        key = spelling_key(name)
        if not key:
            continue
        for pid, other, theirs in known.get(key, []):
            if not _same_name(name, other) and _clubs_fit(club, theirs):
                params: dict[str, Param] = {"name": name, "other": other, "player_id": pid}
                found.append((line, Phrase("spelling.registered", params)))
                break
        else:
            for at, other, theirs in earlier.get(key, []):
                if not _same_name(name, other) and _clubs_fit(club, theirs):
                    params = {"name": name, "other": other, "line": at}
                    found.append((line, Phrase("spelling.in_list", params)))
                    break
        earlier.setdefault(key, []).append((line, name, club))
    return found
