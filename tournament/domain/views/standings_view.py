"""Which standings a reader asks for, worked out once for ``tournament standings`` and the
API's ``GET /tournaments/{tid}/standings``: now, as of an event, or at the end of a round;
the whole field, one category or one group of a group format.

The table is a pure function of the tournament's events: ``as_of=N`` folds the first N
events, ``round=N`` the events before the draw of round N + 1 that stands now (with a
note when results of those rounds were entered or corrected after it), and a group of
groups -> knockout is ranked on the group stage only. Before round 1 the rows are the
players in seed order.

    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import played, registered
    >>> events = registered(players=4)
    >>> view = standings_view(fold(events), lambda: events)
    >>> view.describe(), [r.rank for r in view.rows], view.rows[1].decided_by
    ('before round 1 (in seed order)', [1, 2, 3, 4], 'seed')
    >>> standings_view(fold(events), lambda: events, as_of=9)
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: as_of: tournament test has events 1 to 5 \
(see `tournament log`), not 9 (T-input)
    >>> standings_view(played(players=6, rounds=2), lambda: []).describe()
    'after round 2'
    >>> standings_view(played(players=4, rounds=2), lambda: []).describe()  # 2 rounds of 2
    'final (after round 2)'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from tournament.domain.model import events as ev
from tournament.domain.model.errors import DomainError
from tournament.domain.model.events import EventLike
from tournament.domain.model.state import Tournament, fold
from tournament.domain.standings import Row, standings
from tournament.domain.standings.field import seed_order
from tournament.domain.standings.pairing import finished, lives_left, places
from tournament.domain.standings.progress import Stage, changed_since, end_of_round

#: The tournament's events, oldest first, read only when a table needs them (as of an
#: event, the end of a round, the group stage of groups -> knockout).
Events = Callable[[], Sequence[EventLike]]


@dataclasses.dataclass
class StandingsView:
    """A table of standings and what it is."""

    #: The tournament as the table shows it: now, as of event N, or at the end of round N.
    state: Tournament
    rows: list[Row]
    #: ``now``, ``as_of`` (event N) or ``round`` (the end of round N).
    kind: str
    as_of: int | None = None
    round: int | None = None
    group: int | None = None
    category: str | None = None
    #: The groups of a group format, as drawn (start numbers; empty: no groups).
    groups: list[list[int]] = dataclasses.field(default_factory=list)
    #: With ``per_group``: each group's own table, in group order.
    group_rows: list[list[Row]] = dataclasses.field(default_factory=list)
    #: For the end of a round: when, and what was entered or corrected since.
    note: str = ""
    #: For the end of a round N that is not now: N + 1, the round whose draw ended it
    #: (None: the table is now's), and how many results of rounds 1..N were entered or
    #: corrected since -- the note's two numbers, for a page to say in its own words.
    drawn: int | None = None
    changed: int = 0

    @property
    def heading(self) -> str:
        """``after round 2``, ``during round 3: 7 of 19 matches decided``, ... (the
        printed heading's words, :meth:`tournament.domain.standings.progress.Stage.heading`)."""
        return Stage.of(self.state).heading()

    @property
    def final(self) -> bool:
        """The final standings: the tournament is over and the table shows it now."""
        return self.kind == "now" and finished(self.state)

    def describe(self) -> str:
        """What the table is, in a few words: ``final``, ``after round 3``, ``as of event
        120: after round 2``, ``at the end of round 2`` (and the note, if any)."""
        if self.kind == "as_of":
            text = f"as of event {self.as_of}: {self.heading}"
        elif self.kind == "round":
            text = f"at the end of round {self.round}" + (f" ({self.note})" if self.note else "")
        elif self.final:
            text = f"final ({self.heading})"
        else:
            text = self.heading
        return text


def standings_view(
    now: Tournament,
    events: Events,
    *,
    as_of: int | None = None,
    round: int | None = None,
    group: int | None = None,
    category: str | None = None,
    per_group: bool = False,
) -> StandingsView:
    """The table asked for, from the tournament ``now`` and its ``events`` (up to now).

    ``round`` and ``as_of`` are not given together (the caller refuses that, in its own
    terms). Refusals are :class:`DomainError` naming ``as_of``, ``round``, ``group`` or
    ``category``; their messages say the range that there is. ``per_group``: each
    group's table too (:attr:`StandingsView.group_rows`), as a printout shows them."""
    kind, note, end = "now", "", RoundEnd(None, None, 0)
    if round is not None:
        kind = "round"
        end = round_ending(now, events, round)
        as_of, note = end.cut, end.note(round)
    elif as_of is not None:
        kind = "as_of"
        check_as_of(now, as_of)
    t = now if as_of is None else fold(_upto(events, now), upto=as_of)
    if category is not None:
        check_category(t, category)
    found = groups_of(t)
    view = StandingsView(
        t, [], kind, as_of, round, group, category, found, note=note, drawn=end.drawn,
        changed=end.changed,
    )  # fmt: skip
    if group is not None:
        check_group(found, group)
        view.rows = _group_rows(group_stage(t, events), found, group, category)
    else:
        view.rows = standings(t, category=category, places=places(t), lives=lives_left(t))
        if per_group and found:
            stage = group_stage(t, events)
            view.group_rows = [
                _group_rows(stage, found, number, category) for number in range(1, len(found) + 1)
            ]
    if not t.rounds:  # nothing played: the order is the seeding's, not the lot's
        view.rows = in_seed_order(t, view.rows)
    return view


def _upto(events: Events, now: Tournament) -> Sequence[EventLike]:
    """The events up to ``now`` (a store read later may hold more)."""
    return events()[: now.version]


def check_as_of(now: Tournament, as_of: int) -> None:
    """``as_of`` within the tournament's events 1..latest; anything else is refused
    rather than silently showing the latest state or claiming there is no tournament."""
    if not 1 <= as_of <= now.version:
        raise DomainError(
            "as_of",
            "T-input",
            code="standings_view.tournament_events_see_tournament",
            params={"id": now.id, "version": now.version, "as_of": as_of},
        )


@dataclasses.dataclass(frozen=True)
class RoundEnd:
    """Where round N ended: ``cut`` events make it up (None: now, round N + 1 is not
    drawn), ``drawn`` the round whose draw ended it, ``changed`` the results of rounds
    1..N entered or corrected after that draw (the table does not count them)."""

    cut: int | None
    drawn: int | None
    changed: int

    def note(self, number: int) -> str:
        """The heading's note, as ``tournament standings --round N`` prints it."""
        if self.drawn is None:
            return ""
        note = f"as it stood when round {self.drawn} was drawn"
        since = self.changed
        if since:
            rounds = "round 1" if number == 1 else f"rounds 1-{number}"
            one = since == 1
            note += (
                f"; {since} result{'' if one else 's'} of {rounds} {'was' if one else 'were'} "
                f"entered or corrected since: `tournament standings` counts "
                f"{'it' if one else 'them'}"
            )
        return note


def round_end(now: Tournament, events: Events, number: int) -> tuple[int | None, str]:
    """The end of round ``number``: how many events make it up (None: now, the next
    round is not drawn), and a note for the heading when results of those rounds were
    entered or corrected after it."""
    end = round_ending(now, events, number)
    return end.cut, end.note(number)


def round_ending(now: Tournament, events: Events, number: int) -> RoundEnd:
    """The end of round ``number`` (:class:`RoundEnd`); a round not drawn is refused."""
    if not 1 <= number <= now.current_round:
        drawn = f"rounds 1 to {now.current_round} drawn" if now.current_round else "no round drawn"
        raise DomainError(
            "round",
            "T-round",
            code="standings_view.tournament_round_t_round",
            params={"id": now.id, "drawn": drawn, "number": number},
        )
    if now.current_round <= number:
        return RoundEnd(None, None, 0)
    history = _upto(events, now)
    cut = end_of_round(history, now, number)
    if cut is None:
        return RoundEnd(None, None, 0)
    return RoundEnd(cut, number + 1, changed_since(history[cut:], now, number))


def check_category(t: Tournament, category: str) -> None:
    """Refuse a category nobody has: a typo would show an empty table as if nobody of
    that category had played."""
    known = sorted({p.category for p in t.players.values() if p.category}, key=str.casefold)
    if not any(c.casefold() == category.casefold() for c in known):
        these = f"categories here: {', '.join(known)}" if known else "no player has a category"
        raise DomainError(
            "category",
            "T-player",
            code="standings_view.player_category",
            params={"category": repr(category), "these": these},
        )


def groups_of(t: Tournament) -> list[list[int]]:
    """The groups of a group format, as drawn in round 1 (none: no groups)."""
    from tournament.domain.views.roundview import tournament_groups

    return tournament_groups(t)


def group_stage(t: Tournament, events: Events) -> Tournament:
    """The tournament as the group stage left it: in groups -> knockout, the state before
    the first knockout round, so knockout matches do not count in the group tables."""
    first_ko = next((r.number for r in t.rounds if "seeds" in r.info), None)
    if first_ko is None:
        return t
    history = _upto(events, t)
    started = max(  # the last draw of that round: an earlier one may have been cancelled
        number
        for number, e in enumerate(history, 1)
        if e.type == ev.ROUND_STARTED and e.payload["round"] == first_ko
    )
    return fold(history, upto=started - 1)


def _group_rows(
    stage: Tournament, groups: list[list[int]], group: int, category: str | None
) -> list[Row]:
    """Group ``group``'s own table, ranked on the group stage ``stage`` alone."""
    return standings(stage, category=category, players=groups[group - 1])


def check_group(groups: list[list[int]], group: int) -> None:
    """``group`` is one of the tournament's groups."""
    if not groups:
        raise DomainError("group", "T-format", code="standings_view.tournament_groups_t_format")
    if not 1 <= group <= len(groups):
        raise DomainError(
            "group",
            "T-format",
            code="standings_view.there_groups_t_format",
            params={"groups_count": len(groups), "group": group},
        )


def in_seed_order(t: Tournament, rows: Sequence[Row]) -> list[Row]:
    """Before round 1 nobody has played: the players in seed order, ranked by it; a
    withdrawn player, never seeded nor drawn, last (not between the seeded and the rest)."""
    position = {pid: i for i, pid in enumerate(seed_order(t))}
    ordered = sorted(rows, key=lambda r: (r.status == "withdrawn", position[r.player_id]))
    for number, r in enumerate(ordered, 1):
        r.rank = number
        r.decided_by = "seed" if number > 1 else None
    return ordered
