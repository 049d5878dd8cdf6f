"""``results show`` and ``results missing`` in words: a match's results with where their
hands fell and their history, tallies as the sheet shows them, the open matches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from tournament.cli.columns import ljust, width
from tournament.domain.model.matchstate import Entry
from tournament.domain.model.state import Tournament
from tournament.domain.model.tally import tally_text
from tournament.domain.views.matchview import open_progress
from tournament.domain.views.resultlog import result_history


def print_open(t: Tournament, matches: Sequence[Any]) -> None:
    """One line per open match: table, id, players, where it stands."""
    wide_id = max(len(m.match_id) for m in matches)
    wide = max(width(label) for m in matches for label in m.labels)
    for m in matches:
        table = f"table {m.table:>3}" if m.table else "walkover "
        click.echo(
            f"  {table}  {m.match_id:<{wide_id}}  {ljust(m.labels[0], wide)}  v  "
            f"{ljust(m.labels[1], wide)}  {open_progress(t, m)}"
        )


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
    """Per result id of match ``m``: when and by whom it was entered, corrected, struck
    (:func:`tournament.domain.views.resultlog.result_history`, in words)."""
    out: dict[str, list[str]] = {}
    for result_id, done in result_history(events, m.match_id).items():
        lines = out.setdefault(result_id, [])
        for x in done:
            when = f"event {x.version}, {x.at.astimezone():%a %H:%M},"
            actor = x.actor or "?"
            if x.what == "entered":
                lines.append(f"{when} {x.source or 'entered'} by {actor}")
            elif x.what == "corrected":
                kind = _kind_of(m, result_id)
                before = what(m, kind, _plain(x.previous))
                after = what(m, kind, _plain(x.replacement))
                lines.append(
                    f"{when} CORRECTED by {x.by} ({actor}): {x.reason!r}: {before} -> {after}"
                )
            else:
                lines.append(f"{when} hand {x.hand} STRUCK by {x.by} ({actor}): {x.reason!r}")
    return out


def _plain(payload: Any) -> dict[str, Any] | None:
    return None if payload is None else dict(payload)


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
    from tournament.domain.standings.knockout import misfit_why

    for m in matches:
        why = misfit_why(t, m) if m.bracket else None
        if why:
            click.echo(f"  CONFLICT {m.match_id} {why}")


def void_in(t: Tournament, number: int) -> list[Any]:
    """Bracket matches of round ``number`` that are settled without a result: voided, or
    never played and no longer in the bracket after a correction."""
    matches = [t.matches[mid] for mid in t.rounds[number - 1].matches]
    return [m for m in matches if t.settled(m) and not (m.decided or m.dropped)]
