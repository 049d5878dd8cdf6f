"""Double elimination: winners bracket, losers bracket, grand final with optional reset.

The winners bracket ("W<round>-<match>") is a single-elimination bracket with standard
seeding. Losers drop into the losers bracket ("L<round>-<match>"):

- L1 pairs the losers of W1 two by two;
- every even losers round L2, L4, ... sets the survivors against the players dropping
  from the next winners round (W2 into L2, W3 into L4, ...);
- every odd losers round from L3 on halves the survivors.

The drop-downs are reversed or half-swapped from one drop round to the next, the usual
way to keep two players from meeting again straight away. The grand final "GF1" is the
winners-bracket champion (slot a) against the losers-bracket champion (slot b); with
`grand_final_reset`, "GF2" is played only if the losers-bracket champion wins GF1, since
only then have both lost once.

>>> b = double_elimination(["a", "b", "c", "d"])
>>> [m.match_id for m in b.matches]
['W1-1', 'W1-2', 'W2-1', 'L1-1', 'L2-1', 'GF1', 'GF2']
>>> b.match("W1-2").loser_to, b.match("W2-1").loser_to, b.match("L2-1").winner_to
('L1-1', 'L2-1', 'GF1')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .bracket import Bracket, BracketMatch, LoserOf, Source, WinnerOf
from .model import FormatError
from .single_elim import single_elimination


def double_elimination(seeds: Sequence[str], *, grand_final_reset: bool = True) -> Bracket:
    """The double-elimination bracket for `seeds` (best first)."""
    if len(seeds) < 2:
        raise FormatError(
            "seeds",
            code="formats.double_elim.knockout_needs_least_players",
            params={"seeds_count": len(seeds)},
        )
    single = single_elimination(seeds)
    wb = [
        replace(m, match_id="W" + m.match_id[1:], section="W", winner_to=_w(m.winner_to))
        for m in single.matches
    ]
    wb = [replace(m, source_a=_ws(m.source_a), source_b=_ws(m.source_b)) for m in wb]
    w_rounds = max(m.round_no for m in wb)

    def w_ids(r: int) -> list[str]:
        return [m.match_id for m in wb if m.round_no == r]

    loser_to: dict[str, str] = {}
    lb: list[BracketMatch] = []
    survivors: list[str] = []  # losers-bracket matches whose winners are still in
    lr = 0
    for r in range(1, w_rounds + 1):
        drops = w_ids(r)
        if r == 1:
            if len(drops) < 2:
                continue
            lr += 1
            pairs: list[tuple[Source, Source]] = [
                (LoserOf(drops[k]), LoserOf(drops[k + 1])) for k in range(0, len(drops), 2)
            ]
        else:
            if len(survivors) > len(drops):  # halve the survivors first (odd L round)
                lr += 1
                pairs = [
                    (WinnerOf(survivors[k]), WinnerOf(survivors[k + 1]))
                    for k in range(0, len(survivors), 2)
                ]
                survivors = _add_round(lb, lr, pairs)
            lr += 1
            order = _drop_order(drops, r)
            pairs = [(WinnerOf(s), LoserOf(d)) for s, d in zip(survivors, order, strict=True)]
        survivors = _add_round(lb, lr, pairs)
    lb = _link_winners(lb)
    for m in lb:
        for src in (m.source_a, m.source_b):
            if isinstance(src, LoserOf):
                loser_to[src.match_id] = m.match_id
    wb = [replace(m, loser_to=loser_to.get(m.match_id)) for m in wb]
    w_final = w_ids(w_rounds)[0]
    lb_champion: Source = WinnerOf(survivors[0]) if survivors else LoserOf(w_final)
    if not survivors:  # two players: the loser of the only match goes to the final
        wb = [replace(m, loser_to="GF1") if m.match_id == w_final else m for m in wb]
    wb = [replace(m, winner_to="GF1") if m.match_id == w_final else m for m in wb]
    if survivors:
        lb = [replace(m, winner_to="GF1") if m.match_id == survivors[0] else m for m in lb]
    gf = [BracketMatch("GF1", "GF", 1, WinnerOf(w_final), lb_champion)]
    if grand_final_reset:
        gf[0] = replace(gf[0], winner_to="GF2", loser_to="GF2")
        gf.append(BracketMatch("GF2", "GF", 2, WinnerOf(w_final), lb_champion, reset_of="GF1"))
    finals = tuple(m.match_id for m in gf)
    return Bracket("double", tuple(seeds), tuple(wb + lb + gf), finals)


def _w(match_id: str | None) -> str | None:
    return None if match_id is None else "W" + match_id[1:]


def _ws(src: Source) -> Source:
    return WinnerOf("W" + src.match_id[1:]) if isinstance(src, WinnerOf) else src


def _drop_order(drops: list[str], w_round: int) -> list[str]:
    """Alternate reversing and half-swapping the drop-downs, to delay rematches."""
    if w_round % 2 == 0:
        return drops[::-1]
    half = len(drops) // 2
    return drops[half:] + drops[:half]


def _add_round(lb: list[BracketMatch], lr: int, pairs: list[tuple[Source, Source]]) -> list[str]:
    ids = [f"L{lr}-{k + 1}" for k in range(len(pairs))]
    lb.extend(BracketMatch(mid, "L", lr, a, b) for mid, (a, b) in zip(ids, pairs, strict=True))
    return ids


def _link_winners(lb: list[BracketMatch]) -> list[BracketMatch]:
    """Fill in winner_to inside the losers bracket from the sources of later matches."""
    to = {
        src.match_id: m.match_id
        for m in lb
        for src in (m.source_a, m.source_b)
        if isinstance(src, WinnerOf)
    }
    return [replace(m, winner_to=to.get(m.match_id, m.winner_to)) for m in lb]
