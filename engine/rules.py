"""Rulesets: the docs/rules.md defaults plus any of the named variants.

>>> from engine.rules import Ruleset
>>> Ruleset()                      # the defaults of docs/rules.md
Ruleset()
>>> rs = Ruleset.from_names(["no-close-at-two", "marriage-king-lead"])
>>> rs.names
('marriage-king-lead', 'no-close-at-two')
>>> rs.no_close_at_two, rs.schneiderbummerl
(True, True)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from typing import Final

from engine.errors import RecordFormatError

#: Variant name -> Ruleset field it switches on (see the variants table of docs/rules.md).
VARIANTS: Final = {
    "no-first-trick-marriage": "no_first_trick_marriage",
    "marriage-king-lead": "marriage_king_lead",
    "no-first-trick-exchange": "no_first_trick_exchange",
    "no-exchange-at-two": "no_exchange_at_two",
    "no-close-at-two": "no_close_at_two",
    "false-claim-mirror": "false_claim_mirror",
    "no-schneiderbummerl": "no_schneiderbummerl",
    "own-tricks-hidden": "own_tricks_hidden",
    "first-tricks-visible": "first_tricks_visible",
}

#: One-line explanation of each variant, for error messages, docs and settings pages.
VARIANT_DESCRIPTIONS: Final = {
    "no-first-trick-marriage": "no marriage on the first lead of a hand (R10)",
    "marriage-king-lead": "a marriage must be led with the king (R10)",
    "no-first-trick-exchange": "no trump jack exchange on the first lead of a hand (R8)",
    "no-exchange-at-two": "no exchange when the talon counts 2 cards (R8)",
    "no-close-at-two": "no closing when the talon counts 2 cards (R9)",
    "false-claim-mirror": (
        "a false claim gives the opponent what a correct claim would have given the claimer "
        "(R13 judged on the opponent), instead of R15"
    ),
    "no-schneiderbummerl": "a Bummerl always counts 1 (R19 off)",
    "own-tricks-hidden": "a player sees only the last trick of its own pile (player views)",
    "first-tricks-visible": "a player sees the first trick of its own pile (player views)",
}


@dataclasses.dataclass(frozen=True, slots=True)
class Ruleset:
    """Which variants are on. All off is the docs/rules.md default."""

    no_first_trick_marriage: bool = False
    marriage_king_lead: bool = False
    no_first_trick_exchange: bool = False
    no_exchange_at_two: bool = False
    no_close_at_two: bool = False
    false_claim_mirror: bool = False
    no_schneiderbummerl: bool = False
    own_tricks_hidden: bool = False
    first_tricks_visible: bool = False

    def __post_init__(self) -> None:
        if self.own_tricks_hidden and self.first_tricks_visible:
            raise RecordFormatError(
                "format",
                "variants own-tricks-hidden and first-tricks-visible exclude each other",
            )

    @classmethod
    def from_names(cls, names: Iterable[str]) -> Ruleset:
        """Build a ruleset from variant names; an unknown name is a :class:`RecordFormatError`."""
        key = tuple(names)
        try:
            return _ruleset_of(key)  # records repeat a handful of variant lists
        except TypeError:  # an unhashable entry: the careful path names it
            return cls._build(key)

    @classmethod
    def _build(cls, names: tuple[str, ...]) -> Ruleset:
        flags: dict[str, bool] = {}
        for name in names:
            if not isinstance(name, str) or name not in VARIANTS:
                known = ", ".join(VARIANTS)
                raise RecordFormatError("format", f"unknown variant {name!r} (known: {known})")
            flags[VARIANTS[name]] = True
        return cls(**flags)

    @property
    def names(self) -> tuple[str, ...]:
        """The variant names that are on, sorted (the form written to records)."""
        return tuple(sorted(name for name, field in VARIANTS.items() if getattr(self, field)))

    @property
    def schneiderbummerl(self) -> bool:
        """R19: a Bummerl won while the loser is still at 7 counts 2 (on unless switched off)."""
        return not self.no_schneiderbummerl

    def __repr__(self) -> str:
        on = ", ".join(f"{VARIANTS[n]}=True" for n in self.names)
        return f"Ruleset({on})"


@functools.lru_cache(maxsize=256)
def _ruleset_of(names: tuple[str, ...]) -> Ruleset:
    return Ruleset._build(names)


DEFAULT_RULES: Final = Ruleset()
