"""The bodies and answers of the online-play API (:mod:`tournament.web.api.play`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from tournament.web.api.models import TID, Model


class CodePath(Model):
    code: str = Field(
        description="the seat's table code, the six letters on the table card (T-code)",
        min_length=1,
        max_length=40,
        json_schema_extra={"example": "XDMYNM"},
    )


class TablePath(Model):
    tid: str = TID
    mid: str = Field(
        description="the match: round.table as printed (2.5) or a bracket id (W1.3)",
        min_length=1,
        max_length=40,
    )


class HandPath(TablePath):
    number: int = Field(description="the hand's place at this table (1-based)", ge=1, le=10_000)


class MoveIn(Model):
    model_config = ConfigDict(extra="forbid")

    action: dict[str, Any] | str = Field(
        description="a record action object without its seat "
        '(`{"action": "play", "card": "AH"}`, `{"action": "play", "card": "KS", '
        '"marriage": true}`, `{"action": "exchange"}`, `{"action": "close"}`, '
        '`{"action": "claim"}`; one of the view\'s `legal_actions` as it is), or its '
        'notation: `"AH"`, `"KS+marriage"`, `"exchange"`, `"close"`, `"claim"`',
        json_schema_extra={"example": {"action": "play", "card": "AH"}},
    )
    version: int = Field(
        description="the hand stream's `version` of the view the move was chosen on: a "
        "second click on the same view is refused (409 online.table_moved_on)",
        ge=0,
        le=1_000_000,
    )


class TakeIn(Model):
    """Taking a seat says nothing more than the code and the device (header
    ``Seat-Token``): the body is ``{}`` (JSON, as every write of a script)."""

    model_config = ConfigDict(extra="forbid")


class VersionIn(Model):
    model_config = ConfigDict(extra="forbid")

    version: int = Field(description="the view's `version`", ge=0, le=1_000_000)


class StartIn(Model):
    model_config = ConfigDict(extra="forbid")

    move_seconds: int | None = Field(
        None,
        description="the time per move in seconds (10-3600, T-clock); null: no clock",
        ge=-1_000_000,
        le=1_000_000,
    )


class StopIn(Model):
    model_config = ConfigDict(extra="forbid")

    by: str = Field(description="who decides (the organiser's name)", min_length=1, max_length=120)
    reason: str = Field(description="why, in words", min_length=1, max_length=500)


class ClockIn(Model):
    model_config = ConfigDict(extra="forbid")

    by: str = Field(description="who decides (the organiser's name)", min_length=1, max_length=120)


Status = Literal["joining", "waiting", "turn", "wait", "claim", "over", "stopped", "time"]


class ClockOut(Model):
    move_seconds: int | None = Field(description="the time per move; null: no clock")
    deadline: str | None = Field(description="when the seat to act runs out of time (ISO 8601)")
    expired: bool = Field(description="the time ran out: the organiser decides (T-clock)")


class TableOut(Model):
    """What one screen shows (docs/api.md#online-play)."""

    model_config = ConfigDict(extra="allow")

    tournament: str
    match: dict[str, Any] = Field(
        description="match_id, round, table, players, best_of, bummerl_wins, bummerl, scores, "
        "next_dealer, decided, winner"
    )
    hand_number: int = Field(description="the hand's place at this table; 0 before the first")
    version: int = Field(description="the hand stream's version: a move names it")
    status: Status
    final: bool = Field(description="the hand is over for good")
    clock: ClockOut
    previous: dict[str, Any] | None = Field(description="the hand before: its outcome only")
    view: dict[str, Any] | None = Field(description="the engine's view; null before a deal")


class SeatOut(TableOut):
    seat: int = Field(description="the seat this code plays (0 or 1)", ge=0, le=1)
    opponent_seat_released_by: list[str] = Field(
        [],
        description="who released the other seat while a hand was in play before another "
        "device took it (each time): that device saw the hand and plays the other seat now",
    )
    device_token: str | None = Field(
        None,
        description="only in the answer that takes the seat: the device's token, to send "
        "as header `Seat-Token` on every later call of this seat (T-online)",
    )


class ReleaseIn(Model):
    model_config = ConfigDict(extra="forbid")

    seat: int = Field(description="the seat to release (0 or 1)", ge=0, le=1)
    by: str = Field(description="who decides (the organiser's name)", min_length=1, max_length=120)


class HandLine(Model):
    number: int
    final: bool = Field(description="over for good: its record may be fetched")
    abandoned: bool = Field(description="abandoned: it never counts (R18: dealt again)")
    dealer: int = Field(description="the seat that dealt it")
    outcome: dict[str, Any] | None = Field(
        description="the engine's outcome once final (null while running, or abandoned)"
    )


class SeatFlagOut(Model):
    seat: int = Field(description="the seat taken", ge=0, le=1)
    flag: str = Field(description="what is worth a look (see `seat_flags`)")
    released_by: str | None = Field(description="who released the seat, for a retaken seat")


class OnlineOut(Model):
    """An online table as the organiser sees it: no card."""

    match_id: str
    stopped: bool = Field(description="online play ended: the rest is on paper")
    move_seconds: int | None
    hands: int = Field(description="hands dealt at this table so far")
    hand_number: int
    version: int
    status: Status = Field(description="as the spectators see it (`time`: decide)")
    to_act: list[int] = Field(description="the seats to act in the hand in play")
    clock: ClockOut
    decided: bool
    joined: list[bool] = Field(description="per seat: a device holds it (T-online)")
    seat_flags: list[SeatFlagOut] = Field(
        [],
        description="what the organiser should look at in how the seats were taken, oldest "
        "first: `seats_same_address` (both seats from one network address: a private tab, "
        "a second browser, or two phones on one Wi-Fi), `seats_same_device`, "
        "`seat_retaken_in_hand` (taken again after a release during a hand in play: the "
        "new device saw that hand)",
    )
    tournament_version: int
