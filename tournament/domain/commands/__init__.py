"""Every command of the tournament domain in one place: ``(state, ...) -> list[NewEvent]``.

>>> from tournament.domain import commands as c
>>> sorted(name for name in c.__all__)[:3]
['buy_life', 'cancel_round', 'check_in']

The round commands (:mod:`tournament.domain.commands.rounds`: the draw, every format's pairing
code) are loaded the first time one is used (PEP 562), not by every command that imports
this module: entering a result draws nothing.

>>> c.start_round.__module__
'tournament.domain.commands.rounds'
"""

from typing import TYPE_CHECKING

from tournament.domain.commands.buyback import buy_life
from tournament.domain.commands.corrections import clear_flag, correct_result, reversal, strike_hand
from tournament.domain.commands.registration import (
    check_in,
    check_out,
    create_tournament,
    edit_player,
    enter_player,
    register_player,
    seed_players,
)
from tournament.domain.commands.results import (
    record_forfeit,
    record_hand,
    record_tallies,
    record_tally,
)
from tournament.domain.commands.sheetfix import correct_sheet
from tournament.domain.commands.signing import sign_sheet
from tournament.domain.commands.withdrawal import withdraw
from tournament.lazy import lazy_names

if TYPE_CHECKING:
    from tournament.domain.commands.rounds import cancel_round, start_round

#: The commands loaded when first used: name -> its module.
_LAZY = {
    "cancel_round": "tournament.domain.commands.rounds",
    "start_round": "tournament.domain.commands.rounds",
}


__getattr__ = lazy_names(__name__, _LAZY)


__all__ = [
    "buy_life",
    "cancel_round",
    "check_in",
    "check_out",
    "clear_flag",
    "correct_result",
    "correct_sheet",
    "create_tournament",
    "edit_player",
    "enter_player",
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
