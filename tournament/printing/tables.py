"""What lies on each table of a round: its table card (the big number, the players, who
deals first, the public page's QR code, the place of the table's report code) and its
blank scoresheet (the tally columns of every Bummerl, the signatures).

Both come from :func:`~tournament.domain.views.roundview.round_view`, the same view the
pairings sheet, the CLI and the API show; no rule is worked out here. The texts are
in the templates, in the pack's language (:mod:`tournament.printing.language`).

    >>> from tournament.domain.testing import paired
    >>> from tournament.domain.model.state import fold
    >>> t = fold(paired(players=5, best_of=3))
    >>> found = round_tables(t, 1)
    >>> [(x.table, x.players[0].start, x.players[1].start) for x in found.tables]
    [(1, 1, 3), (2, 2, 4)]
    >>> found.best_of, found.to_win, [b.first_dealer.start for b in found.tables[0].bummerl]
    (3, 2, [3, 1, 3])
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from functools import lru_cache

from tournament.domain.model.state import Tournament
from tournament.domain.views.matchview import PlayerRef
from tournament.domain.views.roundview import round_view

#: The counts a tally column runs down, as the paper prints them (R17: from 7 to 0).
COUNTS = tuple(range(7, -1, -1))


@dataclasses.dataclass(frozen=True, slots=True)
class Seat:
    """A player as a card names them: start number, name, club."""

    start: int
    name: str
    club: str


@dataclasses.dataclass(frozen=True, slots=True)
class BummerlColumn:
    """One Bummerl's column pair on a scoresheet and who deals its first hand (R18: the
    first dealer alternates Bummerl by Bummerl); ``None``: not drawn, decided at the table."""

    number: int
    first_dealer: Seat | None


@dataclasses.dataclass(frozen=True, slots=True)
class TableSheet:
    match_id: str
    table: int
    players: tuple[Seat, Seat]
    first_dealer: Seat | None  # R18; None: not drawn, decided at the table
    bummerl: tuple[BummerlColumn, ...]
    code: str | None  # the first seat's report code (T-code), when codes are given
    #: Both seats' report codes (T-code), each opening ``/r/<code>``; empty without codes.
    codes: tuple[str, ...] = ()
    #: Played online (T-online): the same code opens the player's seat at the table.
    online: bool = False


@dataclasses.dataclass(frozen=True)
class RoundTables:
    tournament: str
    tournament_id: str
    round: int
    sections: tuple[str, ...]  # the bracket rounds it plays (Quarter-finals ...)
    best_of: int
    to_win: int  # R20: (N+1)/2 Bummerl
    schneiderbummerl: bool  # R19: a Schneiderbummerl counts 2
    tables: tuple[TableSheet, ...]


def round_tables(
    t: Tournament,
    number: int | None = None,
    codes: Mapping[str, str | Sequence[str]] | None = None,
) -> RoundTables:
    """Round ``number``'s tables (default: the current round) with what their card and
    scoresheet print. ``codes``: each match's report codes (match id -> the two seats'
    codes, :func:`tournament.domain.commands.tablecodes.round_codes`, or one code); a table
    without one prints an empty, marked place for it. A walkover (table 0) and a bye are
    played at no table and get neither."""
    assert t.settings is not None
    view = round_view(t, number)
    best_of = t.settings.best_of
    codes = codes or {}
    tables = []
    for line in view.tables:
        a, b = line.players
        if not line.table or b is None:
            continue
        players = (_seat(t, a), _seat(t, b))
        first = None
        if line.first_dealer is not None:
            first = players[0] if line.first_dealer.id == a.id else players[1]
        tables.append(
            TableSheet(
                match_id=line.match_id,
                table=line.table,
                players=players,
                first_dealer=first,
                bummerl=tuple(
                    BummerlColumn(n, _dealer_of_bummerl(players, first, n))
                    for n in range(1, best_of + 1)
                ),
                code=_codes_of(codes, line.match_id)[0] if line.match_id in codes else None,
                codes=_codes_of(codes, line.match_id),
                online=line.match_id in t.online and not t.online[line.match_id].stopped,
            )
        )
    return RoundTables(
        tournament=t.settings.name,
        tournament_id=t.id,
        round=view.number,
        sections=view.sections,
        best_of=best_of,
        to_win=(best_of + 1) // 2,
        schneiderbummerl=t.settings.schneiderbummerl,
        tables=tuple(sorted(tables, key=lambda x: x.table)),
    )


def _codes_of(codes: Mapping[str, str | Sequence[str]], match_id: str) -> tuple[str, ...]:
    found = codes.get(match_id)
    if found is None:
        return ()
    return (found,) if isinstance(found, str) else tuple(found)


def _seat(t: Tournament, ref: PlayerRef) -> Seat:
    found = t.players.get(ref.id)
    return Seat(ref.id, ref.name, found.club if found is not None else "")


def _dealer_of_bummerl(players: tuple[Seat, Seat], first: Seat | None, n: int) -> Seat | None:
    """R18: whoever deals first in Bummerl 1 deals first in every odd Bummerl, the other
    player in every even one."""
    if first is None:
        return None
    other = players[1] if first == players[0] else players[0]
    return first if n % 2 == 1 else other


@lru_cache(maxsize=32)
def qr_svg(url: str) -> str:
    """The QR code of ``url`` as an inline SVG (sized by the stylesheet: viewBox only).
    Every card of a round shows the same link, so it is made once."""
    import segno

    return str(segno.make(url, error="m").svg_inline(border=2, omitsize=True))


def public_link(base_url: str | None, tid: str) -> str | None:
    """The tournament's public page, ``<base>/t/<tid>``; none without a base URL."""
    if not base_url:
        return None
    from urllib.parse import quote

    return f"{base_url.rstrip('/')}/t/{quote(tid, safe='')}"


def report_link(base_url: str | None, code: str) -> str:
    """Where a table code's QR code leads: ``<base>/r/<code>`` (the path alone without a
    base URL, which a phone cannot open: the card then prints the code to type at ``/r``)."""
    return f"{(base_url or '').rstrip('/')}/r/{code}"
