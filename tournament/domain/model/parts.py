"""The plain values a tournament's state is made of: players, their running totals, rounds.

Kept apart from :class:`tournament.domain.model.state.Tournament` and the fold's handlers
(:mod:`tournament.domain.model.handlers`), which both build them.
"""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass(slots=True)
class Player:
    id: int
    name: str
    club: str = ""
    category: str = ""
    rating: int | None = None
    seed: int | None = None  # 1 is the top seed
    checked_in: bool = False
    late: bool = False
    withdrawn: int | None = None  # the last round the player was in, once withdrawn
    withdrawal: str = ""  # the withdrawal's policy: "forfeit" or "drop" (remaining games)
    lives_bought: int = 0
    missed: int = 0  # a late entry: rounds drawn before it entered (T-late-entry)
    missed_score: str = "zero"  # what each missed round scores: "zero" or "bye"

    @property
    def active(self) -> bool:
        return self.withdrawn is None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(slots=True)
class Stats:
    """A player's running totals, kept up to date match by match (decided matches only)."""

    played: int = 0  # decided matches, forfeits included
    wins: int = 0  # matches won at the table
    forfeit_wins: int = 0
    losses: int = 0
    byes: int = 0
    bummerl_won: int = 0
    bummerl_lost: int = 0
    gp_won: int = 0
    gp_lost: int = 0
    schneider: int = 0

    @property
    def points(self) -> int:
        """Match points: a win, a forfeit win and a bye count 1 each."""
        return self.wins + self.forfeit_wins + self.byes


@dataclasses.dataclass(slots=True)
class Round:
    number: int
    matches: list[str]
    byes: list[int]
    seed: int
    stage: str = ""
    warnings: list[str] = dataclasses.field(default_factory=list)
    override: bool = False
    info: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: Active players the round gave nothing: their group finished, or their game dropped
    #: with a withdrawn opponent (``idle`` in ``round.started``).
    idle: list[int] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(slots=True)
class OnlineTable:
    """A match played online (T-online, :mod:`tournament.domain.commands.online`)."""

    match_id: str
    move_seconds: int | None = None  # the time per move (T-clock); None: no clock
    hands: list[str] = dataclasses.field(default_factory=list)  # hand streams, in deal order
    closed: set[str] = dataclasses.field(default_factory=set)  # no claim after the last trick
    clock_from: dict[str, str] = dataclasses.field(default_factory=dict)  # hand -> restart time
    stopped: bool = False  # the organiser ended online play: the rest is paper
    #: seat -> SHA-256 (hex) of the device token that holds it (T-online)
    devices: dict[int, str] = dataclasses.field(default_factory=dict)
    #: when both seats were first taken: the first hand's clock runs from then (T-clock)
    joined_at: str | None = None
    #: seat -> where its device took it from (device and address hashes, as reports keep)
    origins: dict[int, dict[str, str]] = dataclasses.field(default_factory=dict)
    #: seat -> who released it while a hand was in play (until the seat is taken again)
    released_in_hand: dict[int, str] = dataclasses.field(default_factory=dict)
    #: what the organiser should look at, oldest first (:mod:`tournament.domain.commands.online`)
    flags: list[SeatFlag] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True, slots=True)
class SeatFlag:
    """A seat taken in a way that proves no second person, or after a release during a
    hand (T-online): ``flag`` names it, ``by`` the organiser who released the seat."""

    seat: int
    flag: str
    by: str | None = None
