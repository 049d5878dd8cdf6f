"""The request and response models of the results routes (:mod:`tournament.web.api.results`):
the API's contract for entering, signing, correcting and striking results.

Values the rules decide (game points, tally counts, card points) are only typed here,
not bounded: the domain refuses them naming the hand and the rule (R13, R17 ...), which
a schema error could not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import ConfigDict, Field

from tournament.domain.model.handpoints import PAPER_REASONS
from tournament.web.api.models import Model

if TYPE_CHECKING:
    Reason = str
else:
    Reason = Literal[PAPER_REASONS]

#: The largest start number the API takes (as the players' routes).
MAX_START = 1_000_000


class TallyColumns(Model):
    """A Bummerl tally as the sheet's two columns, in pairing order: each player's count
    each time it changes, from 7 down; the winner's ends at 0 (R17)."""

    model_config = ConfigDict(extra="forbid")

    first: list[int] = Field(
        max_length=30, description="the first player's counts", examples=[[7, 5, 4, 1, 0]]
    )
    second: list[int] = Field(
        max_length=30, description="the second player's counts", examples=[[7, 6, 3]]
    )


#: A tally as the CLI's text (columns '7 5 4 1 0 / 7 6 3' or rows '7:7 5:7 ...') or columns.
Tally = Annotated[str, Field(max_length=400)] | TallyColumns


class HandIn(Model):
    """One paper hand (R13-R18)."""

    model_config = ConfigDict(extra="forbid")

    winner: int = Field(description="the hand's winner (start number)", ge=1, le=MAX_START)
    game_points: int = Field(description="1, 2 or 3 game points (R13-R16)")
    dealer: int | None = Field(
        None, description="who dealt it: checked, the deal alternates (R18)", ge=1, le=MAX_START
    )
    reason: Reason | None = Field(
        None, description="why it ended (R13-R16); 'closed': a claim with the talon closed"
    )
    closed: bool = Field(False, description="the talon was closed (R14)")
    card_points: tuple[int, int] | None = Field(
        None, description="both players' card points (R11), pairing order, e.g. [66, 40]"
    )


class ForfeitIn(Model):
    model_config = ConfigDict(extra="forbid")

    winner: int = Field(description="who wins by forfeit (start number)", ge=1, le=MAX_START)


class ResultIn(Model):
    """One of ``tallies``, ``hands`` or ``forfeit`` (T-result), as ``tournament results
    enter`` takes them."""

    model_config = ConfigDict(extra="forbid")

    tallies: list[Tally] | None = Field(
        None,
        min_length=1,
        max_length=7,
        description="the sheet's Bummerl in order, one action, all or none: each as the CLI's "
        "text '7 5 4 1 0 / 7 6 3' (or rows '7:7 5:7 ...') or as columns (R17)",
    )
    hands: list[HandIn] | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="hands in the sheet's order, one action, all or none (R13-R18)",
    )
    forfeit: ForfeitIn | Literal["both"] | None = Field(
        None, description="a forfeit: its winner, or 'both' absent (a loss for each)"
    )
    first_dealer: int | None = Field(
        None, description="who dealt first, when the draw did not say (R18)", ge=1, le=MAX_START
    )
    scorer: int | None = Field(
        None, description="who kept the sheet (a player of the match)", ge=1, le=MAX_START
    )
    signed: bool = Field(
        False,
        description="both players signed the sheet: only with the entry that decides the "
        "match, not with a forfeit (T-sheet)",
    )
    again: bool = Field(
        False,
        description="another hand or Bummerl exactly like the match's last entry; without "
        "it such an entry is refused as a retry (T-repeat)",
    )


class ResultStored(Model):
    """What an entry stored, and where its match stands after it."""

    match_id: str
    result_ids: list[str]
    players: list[int] = Field(description="the match's players, pairing order")
    bummerl: list[int] = Field(description="Bummerl won after this entry, pairing order (R19)")
    game_points: list[int] = Field(description="game points struck off, pairing order (R17)")
    decided: bool
    winner: int | None
    forfeit: bool
    signed: list[int] = Field(description="who signed with this entry (T-sheet)")
    version: int
    events: list[dict[str, Any]]


class SignaturesIn(Model):
    model_config = ConfigDict(extra="forbid")

    players: list[int] | None = Field(
        None,
        min_length=1,
        max_length=2,
        description="who signs [default: both players of the match] (T-sheet)",
    )


class SignaturesStored(Model):
    match_id: str
    signed: list[int] = Field(description="who signed now (none: they had signed already)")
    version: int | None = None
    events: list[dict[str, Any]]


#: Text stored in the log: a sentence, no line breaks (checked by the domain, T-input).
WHY = Field(min_length=1, max_length=500, description="why, as the log keeps it")


class CorrectionIn(Model):
    """What changes (a hand's fields, or ``tally``), or ``void``, or ``undo``
    (T-correction). Who corrects is the signed-in account."""

    model_config = ConfigDict(extra="forbid")

    why: str = WHY
    winner: int | None = Field(None, description="a hand: the right winner", ge=1, le=MAX_START)
    game_points: int | None = Field(None, description="a hand: the right game points (R13)")
    dealer: int | None = Field(None, description="a hand: who really dealt it", ge=1, le=MAX_START)
    reason: Reason | None = Field(None, description="a hand: why it ended (R13-R16)")
    closed: bool | None = Field(None, description="a hand: whether the talon was closed (R14)")
    card_points: tuple[int, int] | None = Field(None, description="a hand: card points (R11)")
    tally: Tally | None = Field(None, description="a tally: the whole Bummerl as the sheet has it")
    void: bool = Field(False, description="the result should not be there at all")
    undo: bool = Field(False, description="reverse the latest correction of this result")


class SheetCorrectionIn(Model):
    """The whole sheet of a match in one correction (T-correction): ``swap`` the players'
    columns of every Bummerl, or ``tallies``, every Bummerl as the sheet really has it,
    in order (a Bummerl fewer than recorded is voided, a further one entered). One
    correction: one flag per later match, never an interim open match."""

    model_config = ConfigDict(extra="forbid")

    why: str = WHY
    swap: bool = Field(False, description="swap the players' columns of every Bummerl")
    tallies: list[Tally] | None = Field(
        None, max_length=15, description="every Bummerl of the sheet, in order"
    )


class StrikeIn(Model):
    """Strike a hand a sheet error left unresolved: its game points no longer count
    (R17), it still counts for the deal (R18). Who strikes is the signed-in account."""

    model_config = ConfigDict(extra="forbid")

    why: str = WHY
    hand: int | None = Field(
        None,
        ge=1,
        le=1000,
        description="which hand of a tally, as the match lists them (needed when it holds "
        "several) (T-strike)",
    )


class Amended(Model):
    """What a correction or strike stored."""

    result_id: str
    match_id: str
    version: int
    events: list[dict[str, Any]]


class PreviewOut(Model):
    matches: list[dict[str, Any]]
    reopened: list[str]
    flagged: list[str]
    bracket: list[str]
    standings: list[dict[str, Any]]
    next_round: list[str]
    lines: list[str] = Field(description="the preview as the command line prints it")


class DryRun(Model):
    """``dry_run=true``: what would be stored and what it would change; nothing stored."""

    dry_run: Literal[True]
    version: int = Field(description="the tournament's version the preview is made on")
    would_store: list[dict[str, Any]]
    preview: PreviewOut


class FlagCleared(Model):
    match_id: str
    cleared: bool = Field(description="false: the match had no flag; nothing stored")
    version: int | None = None
