"""A live hand as text: what one seat may see, or what a spectator may see.

Built only from the engine's views (:mod:`engine.views`), never from the hand itself, so a
spectator's text can hold no hidden card and a seat's text none of the opponent's. Seats
are named with their players (``seat 1 Franz (2)``): the actions are typed by seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.actions import Action, Kind
from engine.hand import Trick
from engine.views import PlayerView, TableView

#: ``who(seat)``: the seat with its player, e.g. ``seat 1 Franz (2)``.
Who = Callable[[int], str]


def spectator_lines(table: TableView, who: Who) -> list[str]:
    """The public table, then whose turn it is (no hand, no talon order)."""
    counts = f"{table.card_counts[0]} and {table.card_counts[1]} cards in hand"
    return [*_table_lines(table, who), f"{counts} ({who(0)}, {who(1)})", status_line(table, who)]


def player_lines(view: PlayerView, who: Who) -> list[str]:
    """What ``view.seat`` sees: the table, their cards and tricks, and what they may do."""
    table, seat = view.table, view.seat
    lines = [f"{who(seat)} sees:", *_table_lines(table, who)]
    lines.append(f"your hand: {_cards(view.hand)}")
    lines.append(f"{who(1 - seat)} holds {table.card_counts[1 - seat]} cards")
    tricks = " ".join(f"{t.lead.code}+{t.reply.code}" for t in view.visible_own_tricks)
    points = "" if view.own_points is None else f" ({view.own_points} points)"
    lines.append(f"your tricks you may look at: {tricks or 'none'}{points}")
    lines.append(status_line(table, who))
    if view.legal_actions:
        lines.append(f"you may: {legal_text(view.legal_actions)}")
    return lines


def legal_text(actions: Sequence[Action]) -> str:
    """Legal actions in the record notation ``live play`` takes: plays first, then the rest."""
    ordered = sorted(actions, key=lambda a: (a.kind != Kind.PLAY, str(a)))
    return " ".join(str(a) for a in ordered)


def status_line(table: TableView, who: Who) -> str:
    """Whose turn it is and what is asked of them, in public terms only: which cards or
    whether an exchange or a marriage is possible would show what the seat holds."""
    if table.outcome is not None:
        o = table.outcome
        if o.winner is None:
            return "hand over"
        return f"hand over: {who(o.winner)} wins {o.game_points} ({o.reason})"
    seats = " or ".join(who(n) for n in table.to_act)
    if table.lead is not None:
        marriage = " (marriage declared)" if table.lead_is_marriage else ""
        return f"to act: {seats}, to answer {table.lead.code}{marriage}"
    return f"to act: {seats}, to lead"


def _table_lines(table: TableView, who: Who) -> list[str]:
    lines = [f"dealer {who(table.dealer)}; trump {table.trump.letter} ({table.trump.symbol})"]
    lines.append(_talon(table, who))
    if table.lead is not None:
        marriage = " declaring a marriage" if table.lead_is_marriage else ""
        lines.append(f"on the table: {table.lead.code}, led by {who(table.leader)}{marriage}")
    if table.last_trick is not None:
        lines.append(f"last trick: {_trick(table.last_trick, who)}")
    lines.append(f"tricks won: {table.tricks_won[0]}:{table.tricks_won[1]}")
    for m in table.marriages:
        shown = f", {m.shown.code} still shown" if m.shown is not None else ""
        lines.append(
            f"marriage: {who(m.seat)} declared {m.suit.letter} ({m.value}) leading "
            f"{m.led.code}{shown}"
        )
    return lines


def _talon(table: TableView, who: Who) -> str:
    if table.closed_by is not None:
        return f"talon closed by {who(table.closed_by)} ({table.talon_count} cards left)"
    if table.turnup is None:
        return "talon: used up"
    return f"talon: {table.talon_count} cards, turn-up {table.turnup.code} face up under it"


def _trick(trick: Trick, who: Who) -> str:
    return (
        f"{trick.lead.code} led by {who(trick.leader)}, {trick.reply.code} in reply; "
        f"won by {who(trick.winner)}"
    )


def _cards(cards: Sequence[object]) -> str:
    return " ".join(str(c) for c in cards) or "none"
