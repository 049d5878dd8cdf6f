"""The request and response models of ``/api/v1/tournaments/{tid}/players`` and
``/seeding`` (:mod:`tournament.web.api.players`): the API's contract, not the tables.

Text fields are checked by the domain as ``tournament players add`` checks them (plain
text, at most 100 characters after spaces are made one, no look-alike of a registered
player: T-player), so a refusal names the same field and rule on both; the models only
bound what no valid request exceeds.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from tournament.web.api.models import Model

#: Longer than any valid value (100 characters, T-player): the domain says why.
TEXT = 400


class PlayerCreate(Model):
    """What ``tournament players add`` takes (docs/tournaments.md, T-player)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(
        max_length=TEXT,
        description="plain text, at most 100 characters; a name and club that look the same "
        "as a registered player's are refused (T-player)",
        examples=["Anna Huber"],
    )
    club: str = Field("", max_length=TEXT, description="at most 100 characters (T-player)")
    category: str = Field(
        "", max_length=TEXT, description="a category with its own ranking, e.g. W (T-player)"
    )
    rating: int | None = Field(None, description="a whole number 0-4000, for seeding (T-player)")
    missed_rounds_score: Literal["zero", "bye"] | None = Field(
        None,
        description="a late entry (after round 1 is drawn): what each missed round scores "
        "[default: the tournament's late_entry_score] (T-late-entry)",
    )


#: Text that is changed when sent: null is no text (left out, it stays as it is).
SentText = Annotated[str, Field(max_length=TEXT)] | SkipJsonSchema[None]


def _unsent(schema: dict[str, Any]) -> None:
    """A field that is left out when unchanged has no default a client could send."""
    schema.pop("default", None)


class PlayerEdit(Model):
    """What ``tournament players edit`` corrects: name, club and category at any time, the
    rating before round 1 (it decides the seeding, T-seeding). Only the fields sent are
    changed; ``"rating": null`` removes the rating."""

    # At least one field; name, club and category are text when sent (null is refused:
    # '' clears club and category), which the schema says (attack F14).
    model_config = ConfigDict(extra="forbid", json_schema_extra={"minProperties": 1})

    name: SentText = Field(
        None,
        description="the corrected name (T-player)",
        json_schema_extra=_unsent,
    )
    club: SentText = Field(
        None,
        description="the corrected club; '' for none",
        json_schema_extra=_unsent,
    )
    category: SentText = Field(
        None,
        description="the corrected category; '' for none",
        json_schema_extra=_unsent,
    )
    rating: int | None = Field(
        None, description="the corrected rating, 0-4000, before round 1 only (T-seeding)"
    )


class Withdrawal(Model):
    """``tournament players withdraw``: open matches are forfeited or dropped (T-withdrawal)."""

    model_config = ConfigDict(extra="forbid")

    reason: str = Field(
        "", max_length=2000, description="why, for the log (at most 500 characters)"
    )
    policy: Literal["forfeit", "drop"] | None = Field(
        None,
        description="forfeit: open matches go to the opponents; drop: they count for nobody "
        "[default: the tournament's] (T-withdrawal)",
    )


class SeedingRequest(Model):
    """``tournament players seed``: before round 1 only (T-seeding)."""

    # order goes with method manual only (T-seeding), which the schema says (attack F14).
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "anyOf": [
                {"required": ["method"], "properties": {"method": {"const": "manual"}}},
                {"properties": {"order": {"type": "null"}}},
            ]
        },
    )

    method: Literal["rating", "manual", "draw"] = Field(
        "rating",
        description="rating: highest first, unrated last by start number; manual: as "
        "`order` lists them; draw: a random order from a seed recorded with it (T-seeding)",
    )
    order: list[int] | None = Field(
        None,
        max_length=100_000,
        description="with method manual: every start number, top seed first (withdrawn "
        "players may be left out; with check-in in use, those not checked in too)",
        examples=[[3, 1, 2, 4]],
    )
    seed: int | None = Field(
        None,
        ge=0,
        le=2**63 - 1,
        description="with method draw: the seed [default: derived from the tournament's]",
    )


class ImportQuery(Model):
    only_new: bool = Field(
        False,
        description="leave out the rows of players registered already (a list that grew "
        "since it was imported); a look-alike of a registered player is still refused",
    )


class Player(Model):
    """A registered player, as ``tournament players list`` shows them."""

    model_config = ConfigDict(extra="allow")

    player_id: int = Field(description="the start number")
    name: str
    club: str
    category: str
    rating: int | None
    seed: int | None = Field(description="1 is the top seed; null: not seeded")
    checked_in: bool
    late: bool = Field(description="registered after round 1 was drawn (T-late-entry)")
    missed_rounds: int
    missed_rounds_score: Literal["zero", "bye"] | None
    withdrawn: bool
    withdrawn_after_round: int | None = Field(description="the last round the player was in")
    withdrawal: Literal["forfeit", "drop"] | None
    status: str = Field(description="what `players list` says: checked in, late, withdrawn ...")
    lives_left: int | None = Field(None, description="lives format only (T-lives)")
    lives_bought: int | None = Field(None, description="lives format only: lives bought back")
    may_buy_back: bool | None = Field(None, description="lives format only: may buy one now")


class PlayerList(Model):
    players: list[Player]
    version: int


class PlayerMatch(Model):
    match_id: str
    table: int | None = Field(description="null: a walkover, at no table")
    opponent: int
    first_dealer: int | None = Field(description="the start number of who dealt first (R18)")
    bummerl: list[int] = Field(description="[the player's, the opponent's] (R19)")
    game_points: list[int] = Field(description="[the player's, the opponent's] (R17)")
    forfeit: bool


class PlayerRound(Model):
    round: int
    kind: Literal["match", "bye", "missed", "none"]
    outcome: str = Field(description="won, lost, open, dropped, both absent, void, or the kind")
    match: PlayerMatch | None = None
    scored_as_bye: bool | None = None
    text: str = Field(description="the round as `players show` prints it")


class Standing(Model):
    rank: int
    of: int
    points: int
    wins: int
    losses: int
    bummerl: list[int]
    game_points: list[int]


class PlayerDetail(Player):
    rounds: list[PlayerRound]
    standing: Standing | None


class Written(Model):
    """What a write stored (its events; the tournament's version after them is the
    ETag). ``changed: false`` and no events: nothing needed storing (already so)."""

    model_config = ConfigDict(extra="allow")

    version: int
    events: list[dict[str, Any]]


class Registered(Written):
    player: dict[str, Any] = Field(description="the player as registered (the event's payload)")


class Imported(Written):
    imported: int
    player_ids: list[int]


class Seeded(Written):
    method: str
    order: list[int]
    dry_run: bool = False
