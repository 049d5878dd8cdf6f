"""Tournament formats and pairing algorithms: pure functions over plain values.

No I/O, no clock, no hidden randomness: every draw takes the seed the domain records.
The whole public API is importable from here; see docs/formats.md for the rules. Each
name is loaded from its module the first time it is used (PEP 562), so that a command
that needs one format, or none (entering a result), does not load them all.

>>> from tournament.formats import Standing, swiss_round
>>> swiss_round(1, [Standing("a", 0), Standing("b", 0)], seed=1).pairings[0].players
('a', 'b')
"""

from typing import TYPE_CHECKING

from tournament.lazy import lazy_names

if TYPE_CHECKING:
    from .bracket import (
        Bracket,
        BracketMatch,
        BracketResult,
        BracketState,
        LoserOf,
        MatchState,
        Seed,
        WinnerOf,
        bracket_state,
        placements,
        ready_pairings,
    )
    from .double_elim import double_elimination
    from .groups import knockout_from_groups, knockout_seeds
    from .lives import BuyBack, LivesRules, LivesState, lives_final_round, lives_round, lives_state
    from .model import (
        Bye,
        FormatError,
        Game,
        Pairing,
        RoundPairing,
        RuleWarning,
        Standing,
        Walkover,
    )
    from .override import check_override
    from .round_robin import berger_rounds, round_count, round_robin_round
    from .seeding import (
        Entrant,
        bracket_order,
        seed_by_draw,
        seed_by_hand,
        seed_by_rating,
        snake_groups,
    )
    from .single_elim import bracket_size, single_elimination
    from .swiss import recommended_rounds, swiss_round
    from .tables import assign_tables, draw_first_dealer

#: The module of each public name, loaded when the name is first used.
_HOMES = {
    "bracket": (
        "Bracket BracketMatch BracketResult BracketState LoserOf MatchState Seed WinnerOf "
        "bracket_state placements ready_pairings"
    ),
    "double_elim": "double_elimination",
    "groups": "knockout_from_groups knockout_seeds",
    "lives": "BuyBack LivesRules LivesState lives_final_round lives_round lives_state",
    "model": "Bye FormatError Game Pairing RoundPairing RuleWarning Standing Walkover",
    "override": "check_override",
    "round_robin": "berger_rounds round_count round_robin_round",
    "seeding": "Entrant bracket_order seed_by_draw seed_by_hand seed_by_rating snake_groups",
    "single_elim": "bracket_size single_elimination",
    "swiss": "recommended_rounds swiss_round",
    "tables": "assign_tables draw_first_dealer",
}
_LAZY = {name: module for module, names in _HOMES.items() for name in names.split()}
__getattr__ = lazy_names(__name__, {name: f"{__name__}.{home}" for name, home in _LAZY.items()})


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Bracket",
    "BracketMatch",
    "BracketResult",
    "BracketState",
    "BuyBack",
    "Bye",
    "Entrant",
    "FormatError",
    "Game",
    "LivesRules",
    "LivesState",
    "LoserOf",
    "MatchState",
    "Pairing",
    "RoundPairing",
    "RuleWarning",
    "Seed",
    "Standing",
    "Walkover",
    "WinnerOf",
    "assign_tables",
    "berger_rounds",
    "bracket_order",
    "bracket_size",
    "bracket_state",
    "check_override",
    "double_elimination",
    "draw_first_dealer",
    "knockout_from_groups",
    "knockout_seeds",
    "lives_final_round",
    "lives_round",
    "lives_state",
    "placements",
    "ready_pairings",
    "recommended_rounds",
    "round_count",
    "round_robin_round",
    "seed_by_draw",
    "seed_by_hand",
    "seed_by_rating",
    "single_elimination",
    "snake_groups",
    "swiss_round",
]
