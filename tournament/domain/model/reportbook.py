"""What the fold keeps of the players' reports from the table (T-code): per match, the
reports of each seat, the disputes, and the generation of its table codes.

The fold's handlers for the report events live here (``handlers.py`` registers them), so
the tournament's state needs one attribute, :class:`ReportBook`, and nothing else.
Reports are kept per match and per *draw* of its round (a round cancelled and drawn again
reuses its match ids; what was reported for the cancelled draw is no longer read).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tournament.domain.model.state import Tournament


@dataclasses.dataclass(frozen=True)
class Report:
    """One seat's report of a match: the sheet's Bummerl as typed, and as read."""

    seat: int
    player_id: int
    texts: tuple[str, ...]  # each Bummerl as the player typed it
    tallies: tuple[Mapping[str, Any], ...]  # each Bummerl as read (match seat order)
    confirmed_by: int | None = None  # the seat that confirmed it
    #: Where it was sent from: ``device`` (a hash of the browser's device token) and
    #: ``address`` (a keyed hash of the network address), never the address itself.
    origin: Mapping[str, str] | None = None


@dataclasses.dataclass(frozen=True)
class Dispute:
    """A match for the organiser: the players' reports differ, or one disputes."""

    seat: int | None  # who disputed (None: the reports differ)
    reason: str


@dataclasses.dataclass
class MatchReports:
    """Everything reported from the table of one match (of one draw of its round)."""

    draw: int
    reports: dict[int, Report] = dataclasses.field(default_factory=dict)  # per seat
    disputes: list[Dispute] = dataclasses.field(default_factory=list)
    recorded: bool = False  # the confirmed reports were recorded as the result
    settled: str = ""  # how the organiser settled the queue's item ("accepted", "dismissed")
    #: A confirmation sent from where the report came from (``same_device``,
    #: ``same_address``): a confirmation that proves no second person, for the organiser.
    flags: tuple[str, ...] = ()

    @property
    def queued(self) -> bool:
        """Whether the match waits in the organiser's queue."""
        return bool(self.disputes) and not self.settled


@dataclasses.dataclass
class ReportBook:
    """Every match's reports, and the codes' generations (bumped by a revocation)."""

    matches: dict[str, MatchReports] = dataclasses.field(default_factory=dict)
    generations: dict[str, int] = dataclasses.field(default_factory=dict)  # match id -> n

    def of(self, match_id: str, draw: int) -> MatchReports:
        """The match's reports of draw ``draw`` (empty when none, or of another draw)."""
        found = self.matches.get(match_id)
        return found if found is not None and found.draw == draw else MatchReports(draw)

    def _for(self, p: Mapping[str, Any]) -> MatchReports:
        found = self.of(p["match_id"], p.get("draw", 1))
        self.matches[p["match_id"]] = found
        return found


def draw_of(t: Tournament, round_number: int) -> int:
    """Which draw of round ``round_number`` is the one standing: 1, or one more for each
    time the round was cancelled (its match ids are reused by the next draw)."""
    return 1 + sum(1 for c in t.cancellations if c.get("round") == round_number)


def on_submitted(t: Tournament, p: Mapping[str, Any]) -> None:
    found = t.reports._for(p)
    seat = p["seat"]
    found.reports[seat] = Report(
        seat, p["player_id"], tuple(p["texts"]), tuple(p["tallies"]), None, p.get("origin")
    )
    if found.settled and not found.recorded:  # a new report after the queue was settled
        found.settled = ""


def on_confirmed(t: Tournament, p: Mapping[str, Any]) -> None:
    found = t.reports._for(p)
    other = 1 - p["seat"]
    report = found.reports[other]
    found.reports[other] = dataclasses.replace(report, confirmed_by=p["seat"])
    found.recorded = True
    found.flags = tuple(p.get("flags", ()))
    if found.disputes and not found.settled:  # the players agreed in the end
        found.settled = "confirmed"


def on_disputed(t: Tournament, p: Mapping[str, Any]) -> None:
    found = t.reports._for(p)
    # Two reports that differ are nobody's dispute: the seat is the one that came second.
    seat = None if p.get("mismatch") else p.get("seat")
    found.disputes.append(Dispute(seat, p.get("reason", "")))
    found.settled = ""


def on_settled(t: Tournament, p: Mapping[str, Any]) -> None:
    found = t.reports._for(p)
    found.settled = p.get("how", "dismissed")
    if p.get("how") == "accepted":
        found.recorded = True


def on_revoked(t: Tournament, p: Mapping[str, Any]) -> None:
    generations = t.reports.generations
    ids = [p["match_id"]] if p.get("match_id") else list(t.rounds[p["round"] - 1].matches)
    for mid in ids:
        generations[mid] = generations.get(mid, 0) + 1
