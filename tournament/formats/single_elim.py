"""Single elimination with standard seeding, byes to the top seeds, optional 3rd place.

The bracket has the next power of two slots; seeds are placed by `bracket_order` (1 v 16,
8 v 9, ...), so seeds 1 and 2 can meet only in the final and seeds 1-4 only in the semis.
Slots above the field size are byes, which therefore go to the top seeds. Match ids are
"R<round>-<match>" (round 1 first, matches top to bottom) and "3P" for third place.

>>> b = single_elimination(["a", "b", "c", "d", "e"], third_place=True)
>>> [m.match_id for m in b.matches]
['R1-1', 'R1-2', 'R1-3', 'R1-4', 'R2-1', 'R2-2', 'R3-1', '3P']
>>> b.match("R1-3").winner_to, b.match("R2-1").loser_to
('R2-2', '3P')
"""

from __future__ import annotations

from collections.abc import Sequence

from .bracket import Bracket, BracketMatch, LoserOf, Seed, Source, WinnerOf
from .model import FormatError, check_unique
from .seeding import bracket_order


def bracket_size(player_count: int) -> int:
    """Smallest power of two that holds everybody."""
    size = 1
    while size < player_count:
        size *= 2
    return size


def single_elimination(seeds: Sequence[str], *, third_place: bool = False) -> Bracket:
    """The bracket for `seeds` (best first). A third-place match needs 4+ slots."""
    check_unique(seeds, "seeds")
    if len(seeds) < 2:
        raise FormatError(
            "seeds",
            code="formats.double_elim.knockout_needs_least_players",
            params={"seeds_count": len(seeds)},
        )
    size = bracket_size(len(seeds))
    order = bracket_order(size)
    feeders: list[tuple[Source, Source]] = [
        (Seed(order[i]), Seed(order[i + 1])) for i in range(0, size, 2)
    ]
    rounds: list[list[tuple[str, Source, Source]]] = []
    r = 1
    while feeders:
        ids = [f"R{r}-{k + 1}" for k in range(len(feeders))]
        rounds.append([(mid, a, b) for mid, (a, b) in zip(ids, feeders, strict=True)])
        feeders = [(WinnerOf(ids[k]), WinnerOf(ids[k + 1])) for k in range(0, len(ids) - 1, 2)]
        r += 1
    with_third = third_place and len(rounds) >= 2
    matches: list[BracketMatch] = []
    for r, games in enumerate(rounds, start=1):
        for k, (mid, a, b) in enumerate(games):
            last = r == len(rounds)
            semi = r == len(rounds) - 1
            matches.append(
                BracketMatch(
                    match_id=mid,
                    section="R",
                    round_no=r,
                    source_a=a,
                    source_b=b,
                    winner_to=None if last else f"R{r + 1}-{k // 2 + 1}",
                    loser_to="3P" if (semi and with_third) else None,
                )
            )
    final = rounds[-1][0][0]
    if with_third:
        semis = [mid for mid, _, _ in rounds[-2]]
        matches.append(BracketMatch("3P", "3P", len(rounds), LoserOf(semis[0]), LoserOf(semis[1])))
    return Bracket("single", tuple(seeds), tuple(matches), (final,))
