"""What a correction (or strike, or withdrawal) would change, before it is stored.

Everything is said in names, the way the organiser reads the room: the match's result
(winner, Bummerl, game points), later matches that would be flagged, bracket slots that
would change, every player whose standings line would change (rank, points, record,
Bummerl, game points won and lost, tie-breaks), and how the next round's draw would change.

>>> from tournament.domain.commands.corrections import correct_result
>>> from tournament.domain.testing import Builder, registered, play_round
>>> import random
>>> b = Builder(registered(players=4, seed=2))
>>> play_round(b, random.Random(2)); play_round(b, random.Random(3))
>>> first = b.state.matches["1.1"]
>>> rid = first.entries[-1].result_id
>>> loser = first.players[1 - first.summary.winner]
>>> fix = correct_result(b.state, rid, {"winner": loser, "game_points": 3}, by="ref", reason="x")
>>> p = preview(b.events, fix)
>>> [c["match_id"] for c in p.matches], len(p.flagged) > 0
(['1.1'], True)
>>> print(p.lines()[0].replace(" -> ", "\\n  -> "))
match 1.1 (Player 1 (1) v Player 3 (3)): Player 1 (1) wins, Bummerl 1:0, game points 7:3
  -> open, Bummerl 0:0, game points 5:6
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Final

from tournament.domain.model.errors import DomainError
from tournament.domain.model.events import EventLike
from tournament.domain.model.matchstate import schneider_note
from tournament.domain.model.state import Tournament, fold
from tournament.domain.standings import Row, standings
from tournament.domain.words.messages import Param, Phrase, english
from tournament.domain.words.previewwords import (
    NEXT_ROUND_TEMPLATES,
    REOPENED_TEMPLATES,
    Line,
    flag_line,
    match_line,
    moved_line,
    quiet_line,
    standing_line,
)
from tournament.domain.words.readback import read_back
from tournament.formats.model import FormatError

#: Places at the top of the standings whose every change the preview names.
TOP = 8


@dataclasses.dataclass(frozen=True)
class Preview:
    """Changes downstream of some new events, for the organiser to confirm."""

    matches: list[dict[str, Any]]  # match results touched: match_id, players, before, after
    flagged: list[str]  # later matches that would be flagged for the organiser
    bracket: list[str]  # bracket slots that would change
    standings: list[dict[str, Any]]  # every player whose standings line changes
    next_round: list[str]  # how the next round's draw would change (not drawn yet)
    #: Matches the change leaves undecided again, with what they still need.
    reopened: list[str] = dataclasses.field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (
            self.matches or self.flagged or self.bracket or self.standings or self.next_round
        )

    def lines(self, top: int = TOP) -> list[str]:
        """The preview for the organiser: every change to the matches, flags and bracket;
        in the standings the lines that matter (the players of the match, players changing
        score group, the top ``top`` places) and the rest in a sentence; the next round's
        draw as a table of old -> new pairings."""
        return [_PREFIXES[section] + str(line) for section, line in self.sections(top)]

    def sections(self, top: int = TOP) -> list[Line]:
        """:meth:`lines` with their section and their codes (tournament/domain/
        previewwords.py), for a page that says them in the reader's language."""
        out: list[Line] = [("match", match_line(m)) for m in self.matches]
        out += [("match", read_back(r, REOPENED_TEMPLATES)) for r in self.reopened]
        out += [("flag", flag_line(*f)) for f in self._flag_parts]
        out += [("bracket", b) for b in self.bracket]
        out += [("standings", line) for line in self._standings_lines(top)]
        if self.next_round:
            out.append(("next", read_back(self.next_round[0], NEXT_ROUND_TEMPLATES)))
            out += [("table", line) for line in self.next_round[1:]]
        return out or [("match", Phrase("preview.nothing"))]

    @property
    def _flag_parts(self) -> list[tuple[str, str, str]]:
        """Each flag line's match, players and flag (as _flags words them)."""
        parts = []
        for f in self.flagged:
            head, _, flag = f.partition(" would be flagged: ")
            match_id, _, players = head.removeprefix("match ").partition(" (")
            parts.append((match_id, players.removesuffix(")"), flag))
        return parts

    def to_json(self) -> dict[str, Any]:
        """The preview as data (the web API's dry run), with its :meth:`lines` as the
        organiser reads them."""
        return {
            "matches": [dict(m) for m in self.matches],
            "reopened": list(self.reopened),
            "flagged": list(self.flagged),
            "bracket": list(self.bracket),
            "standings": [
                {
                    **{k: v for k, v in s.items() if k != "fields"},
                    "fields": [
                        {"what": what, "before": a, "after": b} for what, a, b in s["fields"]
                    ],
                }
                for s in self.standings
            ],
            "next_round": list(self.next_round),
            "lines": self.lines(),
        }

    def _standings_lines(self, top: int) -> list[Phrase]:
        focus = {pid for m in self.matches for pid in m.get("player_ids", ())}
        out: list[Phrase] = []
        shifts: list[int] = []  # places moved by players summed up in one sentence
        quiet = 0  # players who keep their place and points: only tie-breaks change
        what: dict[str, None] = {}  # ... and which
        for s in self.standings:
            before, after = s["rank_before"], s["rank_after"]
            if (
                s["player_id"] in focus
                or before is None
                or s["points_before"] != s["points_after"]
                or min(before, after) <= top
            ):
                out.append(standing_line(s))
            elif before != after:
                shifts.append(abs(after - before))
            else:
                quiet += 1
                what.update(dict.fromkeys(field for field, _, _ in s["fields"]))
        if shifts:
            out.append(moved_line(shifts))
        if quiet:
            out.append(quiet_line(quiet, list(what)))
        return out


#: What each section's English line starts with (Preview.lines).
_PREFIXES: Final[dict[str, str]] = {
    "match": "",
    "flag": "flag: ",
    "bracket": "bracket: ",
    "standings": "standings: ",
    "next": "next round: ",
    "table": "  ",
}


def preview(events: Sequence[EventLike], new: Sequence[EventLike]) -> Preview:
    """Fold ``events`` with and without ``new`` and list the differences."""
    before = fold(events)
    after = fold([*events, *new])
    matches = _matches(before, after, new)
    return Preview(
        matches,
        _flags(before, after),
        _bracket_changes(before, after),
        _standings_changes(before, after),
        _next_round(before, after),
        _reopened(before, after, [m["match_id"] for m in matches]),
    )


# --- the matches ----------------------------------------------------------------------------
def _matches(
    before: Tournament, after: Tournament, new: Sequence[EventLike]
) -> list[dict[str, Any]]:
    """Matches whose result changes, and the matches the new events name even if their
    result stays (so a correction that changes nothing says so)."""
    touched = [_match_of(before, e) for e in new]
    changed = [
        mid
        for mid, m in after.matches.items()
        if mid in before.matches and m.summary != before.matches[mid].summary
    ]
    ids = list(dict.fromkeys([*(m for m in touched if m in before.matches), *changed]))
    return [
        {
            "match_id": mid,
            "players": " v ".join(after.matches[mid].labels),
            "player_ids": list(after.matches[mid].players),
            "before": _describe(before, mid),
            "after": _describe(after, mid),
        }
        for mid in ids
    ]


def _match_of(t: Tournament, event: EventLike) -> str | None:
    p = event.payload
    return p.get("match_id") or t.result_match.get(p.get("result_id", ""))


def _describe(t: Tournament, match_id: str) -> str:
    """A match's result in words; Bummerl and game points in seat order, as its header."""
    m = t.matches[match_id]
    s = m.summary
    if s.dropped:
        return english("preview.dropped", {})
    score: dict[str, Param] = {
        "b0": s.bummerl[0], "b1": s.bummerl[1], "g0": s.game_points[0], "g1": s.game_points[1],
    }  # fmt: skip
    if not s.decided:
        return english("preview.open", score)
    if m.winner is None:
        return english("preview.both_absent", {})
    won: dict[str, Param] = {"winner": t.label(m.winner), **score}
    if s.forfeit:
        return english("preview.wins_by_forfeit", won)
    note = schneider_note(s, m.schneiderbummerl)  # R19: the same words, with a code
    if not note:
        return english("preview.wins", won)
    count = sum(s.schneider)
    if count == 1:
        return english("preview.wins_schneider_one", won)
    return english("preview.wins_schneider", {**won, "count": count})


def _reopened(before: Tournament, after: Tournament, match_ids: Sequence[str]) -> list[str]:
    """The matches the change leaves undecided again: what each needs, and that no round
    is drawn until then (T-round)."""
    from tournament.domain.standings.progress import still_needed_phrase  # see _bracket_changes

    out = []
    for mid in match_ids:
        m = after.matches[mid]
        if before.matches[mid].decided and not after.settled(m):
            needed = still_needed_phrase(m)
            out.append(english("preview.reopened", {"match_id": mid, "needed": needed}))
    return out


def _flags(before: Tournament, after: Tournament) -> list[str]:
    out = []
    for mid, m in after.matches.items():
        if mid in after.vacated():
            continue  # never played and out of the bracket: the bracket lines say so
        old = before.matches.get(mid)
        for flag in m.flags[len(old.flags) if old else 0 :]:
            out.append(f"match {mid} ({' v '.join(m.labels)}) would be flagged: {flag}")
    return out


# --- the bracket ----------------------------------------------------------------------------
def _bracket_changes(before: Tournament, after: Tournament) -> list[str]:
    # The draw's code (pairing, progress, the formats) is loaded by a preview that needs
    # it, not by every command that imports this module (entering a result).
    from tournament.domain.standings.pairing import bracket_of, bracket_results, withdrawn
    from tournament.formats.bracket import bracket_state

    bracket = bracket_of(after)
    if bracket is None:
        return []
    old = bracket_state(bracket, bracket_results(before), withdrawn(before))
    new = bracket_state(bracket, bracket_results(after), withdrawn(after))
    out = []
    for mid, state in new.matches.items():
        if state.players != old.matches[mid].players:
            was, now = _pair(after, old.matches[mid].players), _pair(after, state.players)
            out.append(f"{mid}: {was} -> {now}")
    if new.champion != old.champion:
        out.append(f"champion: {_name(after, old.champion)} -> {_name(after, new.champion)}")
    return out + _misfits(before, after)


def _misfits(before: Tournament, after: Tournament) -> list[str]:
    """Recorded bracket matches that would no longer fit their slot, and what that means."""
    from tournament.domain.standings.pairing import bracket_view, slot_match_id, void_command

    was, now = bracket_view(before), bracket_view(after)
    if now is None:
        return []
    old = was[1] if was else {}
    out = []
    for slot, m in now[1].items():
        if slot in old:
            continue
        shown = now[0].matches[slot]
        result = _describe(after, m.match_id)
        out.append(
            f"{slot}: recorded match {m.match_id} ({' v '.join(m.labels)}, {result}) no "
            f"longer fits: the bracket now gives {_pair(after, shown.players)}. It stays as "
            "played and counts in the standings with its recorded players; nobody advances "
            f"from it, and `round start` draws the slot again (as {slot_match_id(after, slot)}) "
            f"only after you void {m.match_id}: {void_command(m)}"
        )
    return out + _vacated(before, after)


def _vacated(before: Tournament, after: Tournament) -> list[str]:
    """Recorded bracket matches never played that the change takes out of the bracket
    (void by themselves: their slot is drawn again) or puts back into it (undone)."""
    from tournament.domain.standings.pairing import vacated_why

    was, now = before.vacated(), after.vacated()
    out = []
    for mid, m in now.items():
        if mid not in was:
            out.append(
                f"{m.bracket['id']}: recorded match {mid} ({' v '.join(m.labels)}) was never "
                f"played and no longer fits: {vacated_why(after, m)}. Nothing is recorded in "
                f"{mid}, so nothing needs voiding: it is void by itself and takes no result"
            )
    for mid, m in was.items():
        if mid not in now and mid in after.matches:
            out.append(
                f"{m.bracket['id']}: recorded match {mid} ({' v '.join(m.labels)}) fits the "
                "bracket again: it is played as drawn"
            )
    return out


def _pair(t: Tournament, players: Sequence[str | None]) -> str:
    return " v ".join(_name(t, p) for p in players)


def _name(t: Tournament, pid: str | int | None) -> str:
    return "?" if pid is None else t.label(int(pid))


# --- the standings ----------------------------------------------------------------------------
def _table(t: Tournament) -> dict[int, Row]:
    from tournament.domain.standings.pairing import lives_left, places

    return {r.player_id: r for r in standings(t, places=places(t), lives=lives_left(t))}


def _standings_changes(before: Tournament, after: Tournament) -> list[dict[str, Any]]:
    """Every player whose line in the standings changes, with what changes, best first."""
    old_rows = _table(before)
    out = []
    for r in _table(after).values():
        old = old_rows.get(r.player_id)
        fields = _row_fields(old, r)
        changes = (
            [f"{what} {a} -> {b}" for what, a, b in fields]
            if old is not None
            else [f"new in the standings at rank {r.rank}"]
        )
        if fields or old is None:
            out.append(
                {
                    "player_id": r.player_id,
                    "name": r.name,
                    "rank_before": old.rank if old else None,
                    "rank_after": r.rank,
                    "points_before": old.points if old else None,
                    "points_after": r.points,
                    "changes": changes,
                    "fields": fields,
                }
            )
    return out


def _row_fields(old: Row | None, new: Row) -> list[tuple[str, str, str]]:
    """What changes in one standings line, in the table's words: (what, before, after)."""
    if old is None:
        return []
    fields = [
        ("rank", old.rank, new.rank),
        ("points", old.points, new.points),
        ("W-L", _wl(old), _wl(new)),
        ("lives", old.lives, new.lives),
        ("Bummerl", _bummerl(old), _bummerl(new)),
        ("game points", _game_points(old), _game_points(new)),
        ("Schneider", old.schneider, new.schneider),
    ]  # fmt: skip
    fields += [
        (
            _TIEBREAK_WORDS.get(tb, tb.replace("_", " ")),
            _value(old.tiebreaks.get(tb)),
            _value(value),
        )
        for tb, value in new.tiebreaks.items()
    ]
    return [(what, str(a), str(b)) for what, a, b in fields if a != b]


#: Tie-breaks named as the organiser knows them (the rest: their id in words).
_TIEBREAK_WORDS = {
    "buchholz": "Buchholz",
    "buchholz_cut1": "Buchholz cut 1",
    "median_buchholz": "median Buchholz",
    "sonneborn_berger": "Sonneborn-Berger",
}


def _wl(r: Row) -> str:
    return f"{r.wins + r.forfeit_wins}-{r.losses}"


def _bummerl(r: Row) -> str:
    return f"{r.bummerl_won}:{r.bummerl_lost}"


def _game_points(r: Row) -> str:
    return f"{r.gp_won}:{r.gp_lost}"  # won and lost: a change in either is shown


def _value(value: float | None) -> str:
    """A tie-break value as the table shows it (3, not 3.0; blank shown as '-')."""
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else str(value)


# --- the next draw ----------------------------------------------------------------------------
def _next_round(before: Tournament, after: Tournament) -> list[str]:
    """The next round's draw before and after, when the current round is complete: a
    heading, then one line per table that changes (old pairing -> new pairing) and the
    bye."""
    from tournament.domain.standings.progress import draw_refusal

    if not after.rounds or draw_refusal(after) or before.settings is None:
        return []  # not drawable yet: an open match (T-round)
    from tournament.domain.standings.pairing import next_draw, round_seed

    number = after.current_round + 1
    seed = round_seed(before.settings.seed, number, redraw=len(before.cancellations))
    try:
        old = next_draw(before, number, seed, {})
        new = next_draw(after, number, seed, {})
    except (DomainError, FormatError):
        return []
    was = {p.table: p for p in old.pairing.pairings}
    now = {p.table: p for p in new.pairing.pairings}
    rows = []
    for table in sorted(set(was) | set(now)):
        a, b = was.get(table), now.get(table)
        if a is None or b is None or set(a.players) != set(b.players):
            rows.append((f"table {table:>3}", _pairing(after, a), _pairing(after, b)))
    if set(old.pairing.byes) != set(new.pairing.byes):
        rows.append(("bye      ", _names(after, old.pairing.byes), _names(after, new.pairing.byes)))
    if not rows:
        return []
    tables = sum(1 for where, _, _ in rows if where.startswith("table"))
    changes: Phrase = Phrase("preview.the_bye")
    if tables:
        code = "preview.tables_and_bye" if len(rows) > tables else "preview.tables"
        changes = Phrase(code, {"count": tables, "all": len(now)})
    wide = max(len(old_) for _, old_, _ in rows)
    return [
        english("preview.drawn_differently", {"round": number, "changes": changes}),
        *(f"{where}  {old_}{' ' * (wide - len(old_))}  ->  {new_}" for where, old_, new_ in rows),
    ]


def _pairing(t: Tournament, p: Any) -> str:
    return "-" if p is None else f"{_name(t, p.player_a)} v {_name(t, p.player_b)}"


def _names(t: Tournament, players: Sequence[str]) -> str:
    return ", ".join(_name(t, p) for p in players) or "nobody"
