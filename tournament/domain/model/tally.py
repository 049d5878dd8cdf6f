"""Scoresheet tallies: a whole Bummerl as the paper shows it, checked and turned into hands.

A scoresheet keeps, for each player, the count still to strike off: it starts at 7 and
after every hand the winner writes its new count (R17). Two shapes are read:

* columns, one per seat, each player's own counts: ``"7 5 4 1 0 / 7 6 3"`` -- the paper
  does not say in which order the two players' hands came, so only the totals count;
* rows, both counts after each hand: ``"7:7 5:7 5:6 4:6 1:6 0:6"`` -- the order is known.

    >>> parse_tally("7 5 4 1 0 / 7 6 3")
    [[7, 5, 4, 1, 0], [7, 6, 3]]
    >>> tally_hands({"columns": [[7, 5, 4, 1, 0], [7, 6, 3]]})
    [(0, 2), (0, 1), (0, 3), (1, 1), (1, 3), (0, 1)]
    >>> tally_hands({"rows": [[7, 4], [5, 4], [5, 1], [5, 0]]})
    [(1, 3), (0, 2), (1, 3), (1, 1)]
    >>> tally_hands({"columns": [[7, 5, 1, 0], [7]]})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: tally: hand 2: ... from 5 to 1, a step of 4; ...

A column lists a count only when it changes, so a player who never scored is just ``7``.
Organisers also type ``7 7 7 7``; repeated counts are read when they can mean one thing
only: a column of nothing but 7s, or two equally long columns that change one count per
line (both counts written after every hand, i.e. rows)::

    >>> tally_payload("7 7 7 7 / 7 4 1 0")
    {'rows': [[7, 7], [7, 4], [7, 1], [7, 0]]}
    >>> tally_payload("7 7 / 7 4 1 0")
    {'columns': [[7], [7, 4, 1, 0]]}
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tournament.domain.model.errors import DomainError
from tournament.domain.model.text import excerpt

START = 7
#: How messages name the two players when the tally is not tied to a match yet.
SEATS = ("the first column's player", "the second column's player")
NOTATION = (
    "a column lists the count each time it changes, e.g. '7 4 1 0 / 7', "
    "or write both counts after every hand, e.g. '7:7 7:4 7:1 7:0'"
)


def parse_tally(text: str) -> list[list[int]]:
    """Read the tally text of the CLI and CSV: columns ``"7 5 0 / 7 6"`` or rows ``"7:5 ..."``.

    Returns columns (two lists) for the column shape, rows (pairs) for the row shape;
    :func:`tally_payload` tells them apart.
    """
    text = text.strip()
    try:
        if not text.isascii():  # digits 0-9 only: int() misreads "٣" and refuses "²"
            raise ValueError(text)
        if ":" in text:
            return [[int(a), int(b)] for a, b in (pair.split(":") for pair in text.split())]
        columns = [
            [int(x) for x in re.split(r"[\s,]+", part.strip()) if x] for part in text.split("/")
        ]
    except ValueError:
        raise DomainError(
            "tally",
            "T-tally",
            code="tally.not_a_tally",
            params={"text": excerpt(text)},
        ) from None
    if len(columns) != 2:
        raise DomainError(
            "tally",
            "T-tally",
            code="tally.two_columns",
            params={"columns": len(columns)},
        )
    return columns


def tally_payload(text: str, labels: Sequence[str] = SEATS) -> dict[str, Any]:
    """The ``tally`` part of a ``result.bummerl_tally_recorded`` payload from text;
    ``labels`` name the two players in messages (``"Anna Huber (12)"``)."""
    parsed = parse_tally(text)
    payload = {"rows": parsed} if ":" in text else _read_columns(parsed, labels)
    tally_hands(payload, labels)  # validate now, so a bad sheet never reaches the store
    return payload


def _read_columns(columns: list[list[int]], labels: Sequence[str]) -> dict[str, Any]:
    """Columns as typed; repeated counts only when they can mean one thing (module doc)."""
    if not any(_repeats(column) for column in columns):
        return {"columns": columns}
    if len(columns[0]) == len(columns[1]) and _one_change_per_line(columns):
        return {"rows": [[a, b] for a, b in zip(*columns, strict=True)]}
    collapsed = [[START] if set(column) == {START} else column for column in columns]
    for seat, column in enumerate(collapsed):
        hand = _repeats(column)
        if hand:
            raise DomainError(
                "tally",
                "R17",
                code="tally.column_repeats",
                params={
                    "hand": hand,
                    "who": labels[seat],
                    "column": " ".join(map(str, column)),
                    "repeated": column[hand],
                },
            )
    return {"columns": collapsed}


def _repeats(column: Sequence[int]) -> int:
    """The first position (1-based hand) where a column repeats the count before; 0: none."""
    return next((i for i in range(1, len(column)) if column[i] == column[i - 1]), 0)


def _one_change_per_line(columns: Sequence[Sequence[int]]) -> bool:
    a, b = columns
    return all((a[i] != a[i - 1]) + (b[i] != b[i - 1]) == 1 for i in range(1, len(a)))


def tally_text(tally: Mapping[str, Any]) -> str:
    """A stored tally as the organiser types it: ``7 5 0 / 7 6`` or ``7:7 5:7 ...``.

    >>> tally_text({"columns": [[7, 5, 0], [7, 6]]}), tally_text({"rows": [[7, 7], [7, 4]]})
    ('7 5 0 / 7 6', '7:7 7:4')
    """
    if "rows" in tally:
        return " ".join(f"{a}:{b}" for a, b in tally["rows"])
    return " / ".join(" ".join(map(str, column)) for column in tally["columns"])


def tally_hands(tally: Mapping[str, Any], labels: Sequence[str] = SEATS) -> list[tuple[int, int]]:
    """The hands of a finished Bummerl tally as ``(winner seat, game points struck)``.

    Raises :class:`DomainError` naming the hand and the rule for any step that a Bummerl
    cannot take: a step outside 1-3 (R13), a count that goes up or does not start at 7,
    no count ending at 0, or a hand after the Bummerl ended (R17).
    """
    kind = "rows" if "rows" in tally else "columns" if "columns" in tally else None
    if kind is None:
        raise DomainError("tally", "T-tally", code="tally.columns_or_rows")
    try:
        key = (kind, *(tuple(part) for part in tally[kind]))
        found = _READ.get(key)
    except TypeError:  # not a tally's ints: read it, and let that say what is wrong
        key, found = None, None
    if found is not None:
        return list(found)
    hands = (_rows if kind == "rows" else _columns)(tally[kind], labels)
    if key is not None:
        if len(_READ) >= _READ_KEPT:
            _READ.clear()
        _READ[key] = tuple(hands)
    return hands


#: Tallies read before (only good ones: a refusal names the seats as the caller labels
#: them): each match's tallies are read again whenever it is replayed or tried, and a
#: result POST tries its sheet several times (its tallies one by one, then the outcome).
_READ: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}
_READ_KEPT = 4096


def _columns(columns: Sequence[Sequence[int]], labels: Sequence[str]) -> list[tuple[int, int]]:
    if len(columns) != 2:
        raise DomainError("tally", "T-tally", code="tally.one_column_per_player")
    per_seat: list[list[int]] = []
    for seat, raw in enumerate(columns):
        counts = [int(x) for x in raw]
        if not counts or counts[0] != START:
            counts = [START, *counts]
        steps = []
        for i in range(1, len(counts)):
            before, after = counts[i - 1], counts[i]
            if before == 0:
                raise DomainError(
                    "tally",
                    "R17",
                    code="tally.hand_after_zero",
                    params={"who": labels[seat], "hand": i - 1},
                )
            steps.append(_step(labels[seat], before, after, i))
        per_seat.append(steps)
    ends = [seat for seat in (0, 1) if _ends_at_zero(columns[seat])]
    if not ends:
        raise DomainError(
            "tally",
            "R17",
            code="tally.not_finished",
        )
    if len(ends) == 2:
        raise DomainError("tally", "R17", code="tally.both_end_at_zero")
    winner = ends[0]
    loser = 1 - winner
    # The paper does not order the two columns; the winner's last hand is the Bummerl's last.
    last = per_seat[winner][-1]
    hands = [(winner, gp) for gp in per_seat[winner][:-1]] + [(loser, gp) for gp in per_seat[loser]]
    return [*hands, (winner, last)]


def _rows(rows: Sequence[Sequence[int]], labels: Sequence[str]) -> list[tuple[int, int]]:
    counts = [(START, START)] + [(int(a), int(b)) for a, b in rows]
    if counts[1] == (START, START):
        counts = counts[1:]  # the sheet wrote the starting 7:7 as its first row
    hands: list[tuple[int, int]] = []
    for i in range(1, len(counts)):
        before, after = counts[i - 1], counts[i]
        if 0 in before:
            raise DomainError(
                "tally", "R17", code="tally.hand_after_end", params={"hand": i, "last": i - 1}
            )
        changed = [seat for seat in (0, 1) if before[seat] != after[seat]]
        if len(changed) != 1:
            raise DomainError(
                "tally",
                "R17",
                code="tally.one_player_per_hand",
                params={
                    "hand": i,
                    "before_first": before[0],
                    "before_second": before[1],
                    "after_first": after[0],
                    "after_second": after[1],
                },
            )
        seat = changed[0]
        hands.append((seat, _step(labels[seat], before[seat], after[seat], i)))
    if not hands or 0 not in counts[-1]:
        raise DomainError(
            "tally",
            "R17",
            code="tally.not_finished",
        )
    return hands


def _step(who: str, before: int, after: int, hand: int) -> int:
    step = before - after
    if after < 0 or after > START:
        raise DomainError(
            "tally", "R17", code="tally.count_out_of_range", params={"hand": hand, "after": after}
        )
    if step == 0:
        raise DomainError(
            "tally",
            "R17",
            code="tally.count_stays",
            params={
                "hand": hand,
                "who": who,
                "after": after,
            },
        )
    if step < 0:
        raise DomainError(
            "tally",
            "R17",
            code="tally.count_goes_up",
            params={"hand": hand, "who": who, "before": before, "after": after},
        )
    if step > 3:
        raise DomainError(
            "tally",
            "R13",
            code="tally.step_too_large",
            params={"hand": hand, "who": who, "before": before, "after": after, "step": step},
        )
    return step


def _ends_at_zero(column: Sequence[int]) -> bool:
    return bool(column) and int(column[-1]) == 0
