"""Matches, groups and brackets in the organiser's words, shared by several commands."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import click

from tournament.cli.columns import ljust, width
from tournament.domain.matchstate import schneider_note
from tournament.domain.state import Tournament


def result_note(m: Any) -> str:
    """A match's result after its pairing line: `  -> Anna (1) won 2:0`, or nothing while open."""
    s = m.summary
    if s.dropped:
        return "  -> dropped"
    if not s.decided:
        return ""
    if m.winner is None:
        return "  -> both absent"
    seat = s.winner or 0
    how = " by forfeit" if s.forfeit else schneider_note(s, m.schneiderbummerl)
    return f"  -> {m.labels[seat]} won {s.bummerl[seat]}:{s.bummerl[1 - seat]}{how}"


def match_standing(t: Tournament, mid: str) -> str:
    """Where a match stands, in words: who won, or the Bummerl score and the counts to go."""
    m = t.matches[mid]
    s = m.summary
    if m.bracket and (not m.entries or m.void) and mid in t.vacated():
        from tournament.domain.pairing import vacated_why

        how = "never played" if not m.entries else "every result voided"
        return (
            f"void: {how}, and the bracket no longer has it after a correction: {vacated_why(t, m)}"
        )
    if s.dropped:
        return "dropped (withdrawal)"
    if s.decided:
        if m.winner is None:
            return "decided: both absent, a loss for each"
        seat = s.winner or 0
        score = f"{s.bummerl[seat]}:{s.bummerl[1 - seat]}"
        how = " by forfeit" if s.forfeit else schneider_note(s, m.schneiderbummerl)
        return f"decided: {m.labels[seat]} wins {score} Bummerl{how}"
    a, b = s.bummerl
    leader = "" if a == b else f" ({m.labels[0 if a > b else 1]} leads)"
    leader += schneider_note(s, m.schneiderbummerl)
    counts = m.engine.current.scores
    line = (
        f"Bummerl {a}:{b}{leader}; Bummerl {len(m.engine.bummerls)} in play: "
        f"{m.labels[0]} {counts[0]} to go, {m.labels[1]} {counts[1]} to go"
    )
    if m.first_dealer is not None and m.engine.next_dealer is not None:
        line += f"; next hand dealt by {m.labels[m.engine.next_dealer]}"
    return line


def tournament_groups(t: Tournament) -> list[list[int]]:
    """The groups of a group format, as drawn in round 1 (none: no groups)."""
    from tournament.domain.pairing import frozen

    if t.settings is None or t.settings.format not in ("round_robin", "groups_knockout"):
        return []
    return [[int(p) for p in g] for g in frozen(t, "groups") or []]


def print_bracket(t: Tournament, output: Any, preview: Any = None) -> None:
    """Every bracket match by section (named as organisers do: Round of 16, Quarter-finals,
    Final, Winners' final ...), with its players and their seeds, status and winner; then
    each recorded match that no longer fits its slot after a correction, with its own
    players. ``preview``: a bracket not drawn yet (from the seeding), shown as it would be."""
    from tournament.domain.pairing import (
        bracket_of,
        bracket_view,
        latest_drawn,
        slot_holders,
        vacated_why,
        void_command,
    )
    from tournament.domain.pairing import withdrawn as withdrawn_of
    from tournament.formats.bracket import bracket_state

    misfits: dict[str, Any] = {}
    holders: dict[str, Any] = {}
    if preview is not None:  # nothing drawn: no recorded match holds a slot
        b = preview
        state = bracket_state(b, (), withdrawn_of(t))
    else:
        b = bracket_of(t)
        view = bracket_view(t)
        assert b is not None and view is not None
        state, misfits = view
        holders = dict(slot_holders(t))
    seed_of = {pid: n for n, pid in enumerate(b.seeds, 1)}

    def name(pid: str | None) -> str:
        return "?" if pid is None else t.label(int(pid))

    def seeded(pid: str | None) -> str:  # a player in the draw: with the seed, as on a sheet
        return f"[{seed_of[pid]}] {name(pid)}" if pid in seed_of else name(pid)

    heading = None
    sides = {m.match_id: _bracket_sides(m, state.matches[m.match_id], seeded) for m in b.matches}
    wide = max((width(x) for pair in sides.values() for x in pair), default=10)
    last = {
        section: max(m.round_no for m in b.matches if m.section == section)
        for section in {m.section for m in b.matches}
    }
    for m in b.matches:
        if bracket_heading(m, last) != heading:
            heading = bracket_heading(m, last)
            click.echo(heading, file=output)
        s = state.matches[m.match_id]
        winner = f"  -> {name(s.winner)}" if s.winner else ""
        played = holders.get(m.match_id)
        status: str = "CONFLICT" if m.match_id in misfits else s.status.replace("_", " ")
        if played is not None and m.match_id not in misfits and played.match_id != m.match_id:
            status += f" (as {played.match_id})"  # drawn again after a correction
        if s.status == "done" and played is not None and played.winner is not None:
            winner += f" {result_note(played).split(' won ')[-1]}"
        a, b_ = sides[m.match_id]
        click.echo(
            f"  {m.match_id:6} {ljust(a, wide)}  v  {ljust(b_, wide)}  {status}{winner}",
            file=output,
        )
    if state.champion:
        click.echo(f"Champion: {name(state.champion)}", file=output)
    for mid, why in state.conflicts.items():
        click.echo(f"  CONFLICT {mid}: {why}", file=output)
    for slot, played in misfits.items():
        click.echo(
            f"  CONFLICT {slot}: recorded match {played.match_id} (round {played.round}): "
            f"{' v '.join(played.labels)}, {_so_far(t, played)}; "
            "it no longer fits the bracket (flagged), counts as played, and the slot is "
            f"drawn again once you void it: {void_command(played)}",
            file=output,
        )
    vacated = t.vacated() if preview is None else {}
    for gone in vacated.values():
        if latest_drawn(t).get(gone.bracket["id"]) is not gone:
            continue  # drawn again since: the slot's line is about the newer draw
        click.echo(
            f"  VOID {gone.bracket['id']}: recorded match {gone.match_id} (round {gone.round}): "
            f"{' v '.join(gone.labels)}, never played; it no longer fits the bracket after "
            f"a correction and takes no result: {vacated_why(t, gone)}",
            file=output,
        )
    if seed_of:
        click.echo("[N]: seed", file=output)


def _so_far(t: Tournament, m: Any) -> str:
    """What a recorded match holds, for a line about it: ``Anna (1) won 2:0``, or while
    open its Bummerl so far (and a live hand being played)."""
    note = result_note(m).removeprefix("  -> ")
    if note:
        return note
    a, b = m.summary.bummerl
    hands = m.engine.hand_count
    live = ", a live hand in progress" if t.live_in_progress(m.match_id) else ""
    return f"open, {hands} hand{'' if hands == 1 else 's'} entered (Bummerl {a}:{b}){live}"


def _bracket_sides(m: Any, s: Any, name: Callable[[str | None], str]) -> tuple[str, str]:
    """Both players of a bracket match, or where they come from while not known yet
    (``winner of R1-3``), as the draw sheet says it."""
    from tournament.formats.bracket import LoserOf, Seed, WinnerOf

    def side(pid: str | None, source: Any) -> str:
        if pid is not None:
            return name(pid)
        if s.status in ("bye", "void"):  # the feeder is decided: nobody comes from it
            return "(bye)"
        if isinstance(source, WinnerOf):
            return f"winner of {source.match_id}"
        if isinstance(source, LoserOf):
            return f"loser of {source.match_id}"
        return "(bye)" if isinstance(source, Seed) else name(None)  # a seed beyond the field

    return side(s.player_a, m.source_a), side(s.player_b, m.source_b)


def bracket_heading(m: Any, last: Mapping[str, int]) -> str:
    """A bracket match's section as organisers name it: the rounds of a single
    elimination by how many players are left (``Round of 16``, ``Quarter-finals``,
    ``Semi-finals``, ``Final``), the winners' and losers' finals of a double elimination.
    ``last`` is the last round of each section."""
    section, number = m.section, m.round_no
    if section == "3P":
        return "Third-place match"
    if section == "GF":
        return "Grand final (reset)" if m.reset_of else "Grand final"
    to_go = last[section] - number
    if section == "W":
        named = {0: "Winners' final", 1: "Winners' semi-finals"}
        return named.get(to_go, f"Winners bracket, round {number}")
    if section == "L":
        return "Losers' final" if to_go == 0 else f"Losers bracket, round {number}"
    from_end = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
    return from_end.get(to_go, f"Round of {2 ** (to_go + 1)}")


def format_words(t: Tournament) -> str:
    """The format and its options as the organiser says them (``Swiss, 5 rounds``), never
    the options' Python form."""
    from tournament.domain.pairing import frozen

    s = t.settings
    assert s is not None
    o = s.options
    if s.format == "swiss":
        rounds = frozen(t, "rounds") or o.get("rounds")
        if rounds:
            return f"Swiss, {rounds} rounds"
        return "Swiss, the number of rounds set at round 1 from the field (log2, rounded up)"
    if s.format == "single_elimination":
        return "single elimination" + (" with a third-place match" if o.get("third_place") else "")
    if s.format == "double_elimination":
        if o.get("grand_final_reset", True):
            return "double elimination, with a grand-final reset"
        return "double elimination, no grand-final reset"
    groups = int(o.get("groups", 1))
    in_groups = f"{groups} group{'s' if groups != 1 else ''}"
    if s.format == "round_robin":
        return "round robin" + (f" in {in_groups}" if groups > 1 else "")
    if s.format == "groups_knockout":
        third = ", third-place match" if o.get("third_place") else ""
        advance = o.get("advance", 2)
        return f"groups then knockout: {in_groups}, the best {advance} of each go on{third}"
    return f"lives (Preisschnapsen), a final of {o.get('final_players', 2)}"


def buy_back_line(t: Tournament, *, only_if_any: bool = False) -> str:
    """Lives format: who may buy back a life now, or why nobody may (``only_if_any``:
    nothing then, for a printout where that would be noise)."""
    from tournament.domain.buyback import may_buy_back

    players, why = may_buy_back(t)
    if not players:
        return "" if only_if_any else f"no buy-back now: {why}"
    names = ", ".join(t.label(p) for p in players)
    return (
        f"may buy back a life before round {t.current_round + 1}: {names} "
        "(tournament players buy-life N)"
    )


def round_stage(t: Tournament, r: Any) -> str:
    """A round's stage as its header says it; a lives final names its players (the round
    records their start numbers)."""
    if not r.info.get("final"):
        return str(r.stage)
    from tournament.domain.lives import final_start
    from tournament.formats.lives import final_round_count

    final = final_start(t)
    assert final is not None
    start, finalists = final
    rounds = final_round_count(finalists)
    of = f", round {r.number - start + 1} of {rounds}" if rounds > 1 else ""
    return f"final{of}: {', '.join(t.label(int(p)) for p in finalists)}"


def lives_notes(t: Tournament, r: Any) -> dict[int, str]:
    """Lives format: per player of round ``r`` its lives as the round was drawn
    (`` [2 lives]``), as the caller announces them; nothing in the final, where lives no
    longer count, nor in other formats."""
    if t.settings is None or t.settings.format != "lives" or r.info.get("final"):
        return {}
    from tournament.domain.lives import lives_now

    left = lives_now(t, r.number).lives
    return {int(p): f" [{n} {'life' if n == 1 else 'lives'}]" for p, n in left.items() if n > 0}
