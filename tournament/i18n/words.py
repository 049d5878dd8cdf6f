"""The words the pages show for the domain's names (formats, tie-breaks, statuses): the
domain names things in English identifiers, the pages say them in the reader's language.
"""

from __future__ import annotations

from typing import Final

from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

FORMATS: Final[dict[str, LazyString]] = {
    "single_elimination": _l("Single elimination"),
    "double_elimination": _l("Double elimination"),
    "round_robin": _l("Round robin"),
    "swiss": _l("Swiss system"),
    "groups_knockout": _l("Groups, then knockout"),
    "lives": _l("Lives"),
}

#: Per tie-break (tournament.domain.standings.tiebreaks): its column heading, its name in full, and
#: what it counts -- shown on tap or keyboard focus, not only on hover.
TIEBREAKS: Final[dict[str, tuple[LazyString, LazyString, LazyString]]] = {
    "bummerl_diff": (
        _l("BD"),
        _l("Bummerl difference"),
        _l("Bummerl won minus Bummerl lost; a Schneiderbummerl counts 2."),
    ),
    "game_point_diff": (
        _l("GPD"),
        _l("Game point difference"),
        _l("Game points struck off minus the game points the opponents struck off."),
    ),
    "game_points": (_l("GP"), _l("Game points"), _l("Game points struck off.")),
    "direct_encounter": (
        _l("DE"),
        _l("Direct encounter"),
        _l("Match points from the matches among the players still tied."),
    ),
    "buchholz": (
        _l("Bh"),
        _l("Buchholz"),
        _l("The sum of the match points of every opponent met; a bye adds nothing."),
    ),
    "buchholz_cut1": (
        _l("Bh-1"),
        _l("Buchholz cut 1"),
        _l("Buchholz without the weakest opponent."),
    ),
    "median_buchholz": (
        _l("MBh"),
        _l("Median Buchholz"),
        _l("Buchholz without the weakest and the strongest opponent."),
    ),
    "sonneborn_berger": (
        _l("SB"),
        _l("Sonneborn-Berger"),
        _l("The sum of the match points of every opponent beaten."),
    ),
    "wins": (_l("W"), _l("Wins"), _l("Matches won at the table (not byes, not forfeits).")),
    "schneider": (_l("Sch"), _l("Schneider"), _l("Schneider Bummerl won.")),
    "seed": (_l("Seed"), _l("Seed"), _l("The better seed (seed 1 is best).")),
    "lot": (
        _l("Lot"),
        _l("Lot"),
        _l("A drawing of lots from the tournament's recorded seed."),
    ),
}
