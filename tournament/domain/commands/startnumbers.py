"""Start numbers as an organiser gives them: typed on the command line (``1,2,5``, ranges
``1-38,40``) or listed in an API request, checked against the registered players before
anything is expanded or decided; and what a seeding request must name (an order by hand,
nothing else). Shared by ``tournament players checkin/seed``, ``round start --bye`` and
the API, so both refuse the same input with the same words.

    >>> parse_ids("3, 1-2", registered=[1, 2, 3, 4])
    [3, 1, 2]
    >>> parse_ids("2-9", registered=[1, 2, 3], field="--order")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: --order: '2-9': there is no player 9 (start ...
    >>> registered_ids([3, 7], registered=[1, 2, 3], field="order")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: order: there is no player 7 (start numbers 1 to ...
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from tournament.domain.model.errors import DomainError
from tournament.domain.model.text import excerpt, whole_number

#: The most start numbers one option may name when no tournament is there to check them.
MAX_IDS = 100_000
#: The rule of a value typed or sent by the organiser (docs/tournaments.md).
RULE = "T-input"

#: A range as given: (first, last, the item as typed).
Range = tuple[int, int, str]


def id_ranges(text: str, field: str = "ids") -> list[Range]:
    """Start numbers as typed, ``1,2,5`` or ranges ``1-38,40``, digits 0-9 only: each item
    as (first, last, the item as typed), nothing expanded yet.

    >>> id_ranges("1-3;7")
    [(1, 3, '1-3'), (7, 7, '7')]
    """
    ranges: list[Range] = []
    for item in (x for x in re.split(r"[\s,;]+", text.strip()) if x):
        first, dash, last = item.partition("-")
        try:
            # Long numbers parse (nothing is expanded): the registered players name them.
            low = whole_number(first, field, digits=18)
            high = whole_number(last, field, digits=18) if dash else low
        except DomainError:
            raise DomainError(
                field,
                RULE,
                code="startnumbers.start_numbers_like_range",
                params={"item": excerpt(item)},
            ) from None
        if high < low:
            raise DomainError(
                field,
                RULE,
                code="startnumbers.range_runs_upwards_e",
                params={"item": excerpt(item), "high": high, "low": low},
            )
        ranges.append((low, high, item))
    if not ranges:
        raise DomainError(field, RULE, code="startnumbers.start_number_given_e")
    return ranges


def parse_ids(
    text: str, registered: Collection[int] | None = None, *, field: str = "ids"
) -> list[int]:
    """Start numbers as typed (:func:`id_ranges`), expanded. With the ``registered``
    start numbers, a number or range beyond them is refused before any range is expanded
    (``1-999999999999`` builds no list); without, at most :data:`MAX_IDS` numbers.
    Repeats are kept (seeding refuses them)."""
    ranges = id_ranges(text, field)
    if registered is not None:
        _check_registered(ranges, registered, field)
    elif sum(high - low + 1 for low, high, _ in ranges) > MAX_IDS:
        raise DomainError(
            field,
            RULE,
            code="startnumbers.more_start_numbers_field",
            params={"max_ids": format(MAX_IDS, ",")},
        )
    return [n for low, high, _ in ranges for n in range(low, high + 1)]


def registered_ids(numbers: Sequence[int], registered: Collection[int], field: str) -> list[int]:
    """Start numbers sent as a list, each one a registered player's (else refused naming
    the first that is not, as a typed one is); repeats are kept."""
    _check_registered([(n, n, "") for n in numbers], registered, field)
    return list(numbers)


def _check_registered(ranges: Sequence[Range], registered: Collection[int], field: str) -> None:
    last = max(registered, default=0)
    for low, high, item in ranges:
        if high > last or low <= 0:
            known = f"start numbers 1 to {last}" if last else "no player is registered yet"
            wrong = high if high > last else low
            typed = f"{excerpt(item)}: " if item else ""  # a range as typed says which
            raise DomainError(
                field,
                RULE,
                code="startnumbers.there_player",
                params={"typed": typed, "wrong": wrong, "known": known},
            )


def seeding_request(
    method: str, order_given: bool, *, method_field: str = "method", order_field: str = "order"
) -> None:
    """Refuse a seeding request whose order does not go with its method: an order is the
    manual seeding's, and the manual seeding needs one (T-seeding). The field names are
    the caller's (``--by``/``--order`` on the command line).

    >>> seeding_request("rating", order_given=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: order: order goes with method manual, not method ...
    """
    if order_given and method != "manual":
        raise DomainError(
            order_field,
            "T-seeding",
            code="startnumbers.goes_manual",
            params={"order_field": order_field, "method_field": method_field, "method": method},
        )
    if not order_given and method == "manual":
        raise DomainError(
            method_field,
            "T-seeding",
            code="startnumbers.manual_needs_every_start",
            params={"method_field": method_field, "order_field": order_field},
        )
