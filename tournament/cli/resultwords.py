"""``results show`` and ``results missing`` in words: a match's results with where their
hands fell and their history, tallies as the sheet shows them, the open matches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from tournament.cli.columns import ljust, width
from tournament.domain import events as ev
from tournament.domain.matchstate import Entry
from tournament.domain.state import Tournament
from tournament.domain.tally import tally_text


def print_open(t: Tournament, matches: Sequence[Any]) -> None:
    """One line per open match: table, id, players, where it stands."""
    wide_id = max(len(m.match_id) for m in matches)
    wide = max(width(label) for m in matches for label in m.labels)
    for m in matches:
        table = f"table {m.table:>3}" if m.table else "walkover "
        click.echo(
            f"  {table}  {m.match_id:<{wide_id}}  {ljust(m.labels[0], wide)}  v  "
            f"{ljust(m.labels[1], wide)}  {_open_state(t, m)}"
        )


def _open_state(t: Tournament, m: Any) -> str:
    """Where an open match stands, short: ``nothing entered``, ``Bummerl 1:0``, ``live``."""
    if t.live_in_progress(m.match_id):
        return "live hand in progress"
    if not m.entries:
        return "nothing entered"
    a, b = m.summary.bummerl
    return f"Bummerl {a}:{b}, {m.next_place()} next"


def what(m: Any, kind: str, p: dict[str, Any] | None, places: Sequence[str] = ()) -> str:
    """One result payload in words, players by name; ``places`` say where its hands fell."""
    if p is None:
        return "VOID (does not count)"
    if kind == "forfeit":
        if p.get("winner") is None:
            return f"forfeit: both absent ({p.get('reason')})"
        return f"forfeit: {m.label(p['winner'])} wins ({p.get('reason')})"
    if kind == "tally":
        return _tally(m, p, places)
    where = f"{places[0]}: " if places else ""
    return (
        f"{where}{m.label(p['winner'])} wins {p['game_points']}"
        + (f", dealt by {m.label(p['dealer'])}" if p.get("dealer") is not None else "")
        + (f", {p['reason']}" if p.get("reason") else "")
        + (", talon closed" if p.get("closed") else "")
        + (
            f", card points {p['card_points'][0]}:{p['card_points'][1]}"
            if p.get("card_points")
            else ""
        )
        + (" (live)" if kind == "live" else "")
    )


def _tally(m: Any, p: dict[str, Any], places: Sequence[str]) -> str:
    """A tally as the sheet shows it. Rows (both counts after every hand) give the order
    of the hands; columns (each player's own counts) do not, so they are shown as the two
    columns, each step with the number ``results strike --hand`` takes, and no order is
    made up between them."""
    hands = Entry("", "tally", p).hands(m.players, False)
    bummerl = next((w.split(" hand")[0] for w in places if w.startswith("Bummerl")), "")
    struck = [where == "struck" for where in [*places, *[""] * len(hands)]]
    head = f"tally {tally_text(p['tally'])} ({m.labels[0]} / {m.labels[1]})" + (
        f", {bummerl}" if bummerl else ""
    )
    if not places:  # shown as it was before a correction: the sheet's text is enough
        return head
    indent = "\n" + " " * 18
    if "rows" in p["tally"]:
        steps = "; ".join(
            f"{n} {_short(m.labels[seat])} +{gp}" + (" (struck)" if struck[n - 1] else "")
            for n, (seat, gp, _, _) in enumerate(hands, 1)
        )
        return head + f"{indent}hands in order: {steps}"
    lines = [head]
    wide = max(width(label) for label in m.labels)
    for seat, column in enumerate(p["tally"]["columns"]):
        steps = ", ".join(
            f"#{n} +{gp}" + (" struck" if struck[n - 1] else "")
            for n, (who, gp, _, _) in enumerate(hands, 1)
            if who == seat
        )
        counts = " ".join(map(str, column))
        lines.append(f"{ljust(m.labels[seat], wide)}  {counts:<15} {steps or 'nothing struck off'}")
    lines.append("(columns give no order between the players' hands; #N: strike --hand N)")
    return indent.join(lines)


def history(events: Sequence[Any], m: Any) -> dict[str, list[str]]:
    """Per result id of match ``m``: when and by whom it was entered, corrected, struck."""
    kinds = {ev.HAND_RECORDED: "hand", ev.TALLY_RECORDED: "tally", ev.MATCH_FORFEITED: "forfeit"}
    kinds[ev.LIVE_HAND_RECORDED] = "live"
    out: dict[str, list[str]] = {}
    for e in events:
        p = e.payload
        if p.get("match_id") != m.match_id or "result_id" not in p:
            continue
        when = f"event {e.version}, {e.recorded_at.astimezone():%a %H:%M},"
        actor = e.metadata.get("actor") or "?"
        lines = out.setdefault(p["result_id"], [])
        if e.type in kinds:
            source = e.metadata.get("source") or "entered"
            lines.append(f"{when} {source} by {actor}")
        elif e.type == ev.RESULT_CORRECTED:
            kind = _kind_of(m, p["result_id"])
            before = what(m, kind, p.get("previous"))
            after = what(m, kind, p.get("replacement"))
            lines.append(
                f"{when} CORRECTED by {p['by']} ({actor}): {p['reason']!r}: {before} -> {after}"
            )
        elif e.type == ev.HAND_STRUCK:
            lines.append(
                f"{when} hand {p.get('hand') or 1} STRUCK by {p['by']} ({actor}): {p['reason']!r}"
            )
    return out


def _short(label: str) -> str:
    """``Anna Huber (12)`` -> ``Anna Huber``: where the match's header already numbers them."""
    return label.rsplit(" (", 1)[0]


def _kind_of(m: Any, result_id: str) -> str:
    """What result ``result_id`` of match ``m`` is: hand, tally, forfeit or live."""
    return next((e.kind for e in m.entries if e.result_id == result_id), "hand")


def print_conflicts(t: Tournament, matches: Sequence[Any]) -> None:
    """Under the open matches, each bracket match among them that no longer fits the
    bracket after a correction: what to do, as `round start` will say."""
    if not any(m.bracket for m in matches):
        return
    from tournament.domain.knockout import misfit_why

    for m in matches:
        why = misfit_why(t, m) if m.bracket else None
        if why:
            click.echo(f"  CONFLICT {m.match_id} {why}")


def void_in(t: Tournament, number: int) -> list[Any]:
    """Bracket matches of round ``number`` that are settled without a result: voided, or
    never played and no longer in the bracket after a correction."""
    matches = [t.matches[mid] for mid in t.rounds[number - 1].matches]
    return [m for m in matches if t.settled(m) and not (m.decided or m.dropped)]
