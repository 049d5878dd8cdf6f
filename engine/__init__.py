"""The Schnapsen rules engine: pure, deterministic, standard library only.

    >>> from engine import HandState, Action, Card
    >>> deck = "QS AH TC KC QC JH KH TD AD AS TS JS JD KD QD JC KS QH TH AC".split()
    >>> state = HandState.deal(deck, dealer=0)
    >>> state = state.apply(Action.parse("1:AH"))
    >>> state.to_act
    (0,)

Rule ids (R0..R20) are those of the project's docs/rules.md; every refusal names one.
"""

from engine.actions import Action, Kind
from engine.cards import Card, Rank, Suit
from engine.errors import EngineError, IllegalActionError, IllegalResultError, RecordFormatError
from engine.hand import HandState, Marriage, Trick
from engine.match import Bummerl, HandResult, Match
from engine.outcome import Outcome
from engine.record import GameRecord
from engine.rules import VARIANTS, Ruleset

__all__ = [
    "VARIANTS",
    "Action",
    "Bummerl",
    "Card",
    "EngineError",
    "GameRecord",
    "HandResult",
    "HandState",
    "IllegalActionError",
    "IllegalResultError",
    "Kind",
    "Marriage",
    "Match",
    "Outcome",
    "Rank",
    "RecordFormatError",
    "Ruleset",
    "Suit",
    "Trick",
]
