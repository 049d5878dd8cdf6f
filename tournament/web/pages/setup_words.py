"""What the new-tournament form says of each setting, in the reader's language: a label
and a one-line hint naming the rule the setting means (R-ids of docs/rules.md, T-rules of
docs/tournaments.md). The settings themselves, their values and defaults are the
domain's (:mod:`tournament.domain.model.settings`); only their words are here."""

from __future__ import annotations

from typing import Final

from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

#: Per setting of the form: (label, hint with its rule).
SETTINGS: Final[dict[str, tuple[LazyString, LazyString]]] = {
    "name": (_l("Name"), _l("Printed on every sheet and page (T-settings).")),
    "id": (
        _l("Id"),
        _l(
            "In the addresses of the pages: a-z, 0-9, - and _. "
            "Left empty, it is made from the name and the date (T-settings)."
        ),
    ),
    "date": (_l("Date"), _l("2026-11-27 or 27.11.2026, the year in full (T-settings).")),
    "venue": (_l("Venue"), _l("Where it is played; printed on the sheets (T-settings).")),
    "format": (_l("Format"), _l("How players are paired and ranked (T-format).")),
    "best_of": (
        _l("Best of"),
        _l("Bummerl per match: the first to win (N+1)/2 Bummerl wins the match (R20)."),
    ),
    "variants": (
        _l("Rules variants"),
        _l(
            "Each changes one rule of the game for this tournament (the rule number is the"
            " rulebook's); none ticked: the standard rules."
        ),
    ),
    "tiebreaks": (
        _l("Tie-breaks"),
        _l("In this order they separate players on the same points (T-settings)."),
    ),
    "first_dealer": (_l("First dealer"), _l("Who deals first in a match (R18).")),
    "withdrawal": (
        _l("When a player withdraws"),
        _l("What happens to the withdrawn player's open matches (T-withdrawal)."),
    ),
    "late_entry_score": (
        _l("Late entries score"),
        _l("For each round a late entry missed; Swiss only (T-late-entry)."),
    ),
}

VARIANTS: Final[dict[str, LazyString]] = {
    "no-first-trick-marriage": _l("No marriage on the first lead of a hand (R10)."),
    "marriage-king-lead": _l("A marriage must be led with the king (R10)."),
    "no-first-trick-exchange": _l("No trump jack exchange on the first lead of a hand (R8)."),
    "no-exchange-at-two": _l("No exchange when the talon counts 2 cards (R8)."),
    "no-close-at-two": _l("No closing when the talon counts 2 cards (R9)."),
    "false-claim-mirror": _l(
        "A false claim gives the opponent what a correct claim would have given (instead of R15)."
    ),
    "no-schneiderbummerl": _l("No Schneiderbummerl: a Bummerl always counts 1 (R19 off)."),
    "own-tricks-hidden": _l("A player sees only the last trick of their own pile."),
    "first-tricks-visible": _l("A player sees the first trick of their own pile."),
}

FIRST_DEALERS: Final[dict[str, LazyString]] = {
    "higher_seed": _l("The better seed"),
    "seeded_draw": _l("A recorded draw per match"),
    "as_entered": _l("As entered with the first result"),
    "balanced": _l("Balanced by the format"),
}

WITHDRAWALS: Final[dict[str, LazyString]] = {
    "forfeit": _l("Forfeited to the opponents"),
    "drop": _l("Dropped: they count for nobody"),
}

LATE_ENTRY_SCORES: Final[dict[str, LazyString]] = {
    "zero": _l("Nothing (an unplayed round)"),
    "bye": _l("A bye"),
}

#: Per format option (OPTION_DEFAULTS of the domain): label and hint.
OPTIONS: Final[dict[str, tuple[LazyString, LazyString]]] = {
    "rounds": (_l("Rounds"), _l("0: as many as the number of players needs (T-format).")),
    "groups": (_l("Groups"), _l("Players are spread over this many groups (T-format).")),
    "advance": (_l("Advance per group"), _l("Players of each group into the knockout (T-format).")),
    "third_place": (
        _l("Match for third place"),
        _l("The semi-final losers play for third (T-format)."),
    ),
    "grand_final_reset": (
        _l("Grand final reset"),
        _l("A second grand final when the loser-bracket player wins the first (T-format)."),
    ),
    "lives": (_l("Lives"), _l("Lives per player: 2 or 3 (T-lives).")),
    "buy_backs": (_l("Buy-backs"), _l("Lives a player may buy back; 0: none (T-lives).")),
    "buy_back_until": (
        _l("Buy back until round"),
        _l("The last round a buy-back may come before; 0: any round (T-lives)."),
    ),
    "final_players": (_l("Players in the final"), _l("2 or more play the final (T-lives).")),
}
#: Options the form leaves out: ``buy_back`` is the older spelling of ``buy_backs``, and
#: a double round robin is refused by the domain (nothing would act on it).
HIDDEN_OPTIONS: Final = frozenset({"buy_back", "double"})
