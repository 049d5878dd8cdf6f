"""Every command of the tournament domain in one place: ``(state, ...) -> list[NewEvent]``.

>>> from tournament.domain import commands as c
>>> sorted(name for name in c.__all__)[:3]
['buy_life', 'cancel_round', 'check_in']

The round commands (``start_round``, ``cancel_round``) are imported when first used: they
bring every format and the pairing engine with them, which a command that only records a
result or prints the standings does not need at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tournament.domain.corrections import clear_flag, correct_result, reversal, strike_hand
from tournament.domain.registration import (
    buy_life,
    check_in,
    create_tournament,
    register_player,
    seed_players,
)
from tournament.domain.results import record_forfeit, record_hand, record_tally, sign_sheet
from tournament.domain.withdrawal import withdraw

if TYPE_CHECKING:
    from tournament.domain.rounds import cancel_round, start_round


def __getattr__(name: str) -> Any:
    """``start_round`` and ``cancel_round``, imported at first use (PEP 562)."""
    if name in ("cancel_round", "start_round"):
        from tournament.domain import rounds

        value = getattr(rounds, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "buy_life",
    "cancel_round",
    "check_in",
    "clear_flag",
    "correct_result",
    "create_tournament",
    "record_forfeit",
    "record_hand",
    "record_tally",
    "register_player",
    "reversal",
    "seed_players",
    "sign_sheet",
    "start_round",
    "strike_hand",
    "withdraw",
]
