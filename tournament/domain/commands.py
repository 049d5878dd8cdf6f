"""Every command of the tournament domain in one place: ``(state, ...) -> list[NewEvent]``.

>>> from tournament.domain import commands as c
>>> sorted(name for name in c.__all__)[:3]
['buy_life', 'cancel_round', 'check_in']
"""

from tournament.domain.corrections import clear_flag, correct_result, reversal, strike_hand
from tournament.domain.registration import (
    buy_life,
    check_in,
    check_out,
    create_tournament,
    edit_player,
    register_player,
    seed_players,
)
from tournament.domain.results import (
    record_forfeit,
    record_hand,
    record_tallies,
    record_tally,
)
from tournament.domain.rounds import cancel_round, start_round
from tournament.domain.signing import sign_sheet
from tournament.domain.withdrawal import withdraw

__all__ = [
    "buy_life",
    "cancel_round",
    "check_in",
    "check_out",
    "clear_flag",
    "correct_result",
    "create_tournament",
    "edit_player",
    "record_forfeit",
    "record_hand",
    "record_tallies",
    "record_tally",
    "register_player",
    "reversal",
    "seed_players",
    "sign_sheet",
    "start_round",
    "strike_hand",
    "withdraw",
]
