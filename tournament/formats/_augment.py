"""Pair the players a round has left over by augmenting paths (Edmonds' blossom algorithm,
cardinality only), without a weighted matching of the whole field.

The pairing engine (:mod:`._matching`) makes its games locally; when that leaves players
over, their partners have to come from games already made. An *augmenting path* from a
free player runs through games alternately broken and made until it reaches another free
player: flipping it pairs both, and everybody paired before stays paired. Berge's theorem
makes this exact: when no augmenting path is left, no pairing of the same players pairs
more of them (so "no repeat-free round exists" is proved, not guessed).

Why not a weighted matching of the whole field: networkx's takes ~35 s for 1,024 players.
A search here scans each player's possible opponents at most once and shrinks blossoms
with a union-find, so it costs O(players²) allowed-pair checks at worst (a search that
fails), and usually a few hundred:

- neighbours are scanned nearest place first (below, then above), so the games that change
  are near the free player, low in the ranking if it is at the bottom;
- every new branch of the search is checked at once against the other free players, so the
  usual short path (free - paired - paired - free) is found without growing the tree;
- a free player who may play nobody, or the last free player, is not searched from at
  all: such a search could only fail, after visiting the whole field.

The graph is implicit: `allowed(u, v)` says whether u may play v (no repeat, no dealing
clash, or whatever the caller forbids).

>>> order = ["a", "b", "c", "d"]
>>> games, free = augment(order, [("b", "c")], ["a", "d"], lambda u, v: {u, v} != {"a", "d"})
>>> sorted(tuple(sorted(g)) for g in games), free
([('a', 'b'), ('c', 'd')], [])
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence


def augment(
    order: Sequence[str],
    games: Iterable[tuple[str, str]],
    free: Sequence[str],
    allowed: Callable[[str, str], bool],
) -> tuple[list[tuple[str, str]], list[str]]:
    """Pair as many of `free` as possible by augmenting paths through `games`.

    `order`: every player who may take part, best placed first (nearness is measured in
    it); `games`: the games made so far among them; `free`: the players of `order` in no
    game, tried in this order. Returns all games afterwards and the players still free;
    these could not be paired in any way (the matching is then maximum).
    """
    index = {p: i for i, p in enumerate(order)}
    mate = [-1] * len(order)
    for a, b in games:
        mate[index[a]], mate[index[b]] = index[b], index[a]
    ends = [p for p in free if any(allowed(p, q) for q in order if q != p)]
    left = [p for p in free if p not in set(ends)]
    for p in ends:
        root = index[p]
        if mate[root] != -1:
            continue  # paired already, as the other end of an earlier path
        if all(q == p or mate[index[q]] != -1 for q in ends):
            left.append(p)  # the last free end: no path can end anywhere
            continue
        if not _Search(order, mate, allowed, root).run():
            left.append(p)
    out = [(order[i], order[j]) for i, j in enumerate(mate) if i < j]
    return out, left


class _Search:
    """One breadth-first search for an augmenting path from `root` (Edmonds): even
    vertices are the root and the partners of odd ones; an edge between two even vertices
    of different blossoms closes an odd cycle (a new blossom), which is shrunk to its base
    and all of whose vertices are even. On success the path is flipped in `mate`.

    Each player enters the tree once: a popped even vertex scans only the players still
    outside it (`_Gaps`), then one vertex of each other blossom it may play, so in a field
    where most pairs are allowed a search costs about O(players) checks even when it fails.
    """

    def __init__(
        self, order: Sequence[str], mate: list[int], allowed: Callable[[str, str], bool], root: int
    ) -> None:
        self.order = order
        self.mate = mate
        self.allowed = allowed
        self.parent: dict[int, int] = {}  # odd vertex -> the even vertex that reached it
        self.uf: dict[int, int] = {}  # union-find towards the base of each blossom
        self.members: dict[int, list[int]] = {root: [root]}  # base -> its even vertices
        self.even = {root}
        self.queue = deque([root])
        self.outside = _Gaps(len(order))
        self.outside.take(root)
        self.free = [i for i, m in enumerate(mate) if m == -1 and i != root]

    def base(self, v: int) -> int:
        """The base of v's blossom (v itself when it is in none)."""
        uf = self.uf
        top = v
        while top in uf:
            top = uf[top]
        while v != top:  # path compression
            uf[v], v = top, uf[v]
        return top

    def run(self) -> bool:
        mate, order, allowed, parent = self.mate, self.order, self.allowed, self.parent
        while self.queue:
            v = self.queue.popleft()
            if self._to_free(v):
                return True
            for to in self.outside.nearest(v):  # grow: nearest players first
                if not allowed(order[v], order[to]):
                    continue
                parent[to] = v
                if mate[to] == -1:
                    return self._flip(to)
                w = mate[to]
                self.outside.take(to)
                self.outside.take(w)
                self.even.add(w)
                self.members[w] = [w]
                self.queue.append(w)
                if self._to_free(w):
                    return True
            for b in list(self.members):  # close a blossom with each other one
                if b not in self.members or b == self.base(v):
                    continue
                u = next((u for u in self.members[b] if allowed(order[v], order[u])), None)
                if u is not None:
                    self._shrink(v, u)
        return False

    def _to_free(self, w: int) -> bool:
        """End the path at a free player the even vertex w may play, if there is one."""
        for f in self.free:
            if (
                self.mate[f] == -1
                and f not in self.parent
                and self.allowed(self.order[w], self.order[f])
            ):
                self.parent[f] = w
                return self._flip(f)
        return False

    def _flip(self, end: int) -> bool:
        """Flip the path end - parent - its mate - ... - root."""
        mate, parent = self.mate, self.parent
        while end != -1:
            via = parent[end]
            nxt = mate[via]
            mate[end], mate[via] = via, end
            end = nxt
        return True

    def _shrink(self, v: int, to: int) -> None:
        """The edge v-to between two even vertices closes a blossom: its odd vertices become
        even (searched from too), and all of it gets the base where the two paths meet."""
        top = self._meet(v, to)
        odd: list[int] = []
        bases: set[int] = set()
        self._walk(v, top, to, bases, odd)
        self._walk(to, top, v, bases, odd)
        inside = self.members[top]
        for b in bases - {top}:
            self.uf[b] = top
            more = self.members.pop(b, [])
            if len(more) > len(inside):  # merge the smaller list into the larger
                inside, more = more, inside
            inside.extend(more)
        for u in odd:
            if u not in self.even:
                self.even.add(u)
                inside.append(u)
                self.queue.append(u)
        self.members[top] = inside

    def _meet(self, a: int, b: int) -> int:
        """The base where the tree paths of a and b towards the root meet."""
        mate, parent = self.mate, self.parent
        seen: set[int] = set()
        while True:
            a = self.base(a)
            seen.add(a)
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = self.base(b)
            if b in seen:
                return b
            b = parent[mate[b]]

    def _walk(self, v: int, top: int, child: int, bases: set[int], odd: list[int]) -> None:
        """From v down to the blossom's base: collect the bases passed and the odd vertices,
        pointing each odd vertex back along the cycle (a path may leave the blossom there)."""
        mate, parent = self.mate, self.parent
        while self.base(v) != top:
            bases.add(self.base(v))
            bases.add(self.base(mate[v]))
            odd.append(mate[v])
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]


class _Gaps:
    """The places 0..n-1 not taken yet, walked nearest first past those taken (union-find
    skip pointers each way, so taking and skipping cost next to nothing)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.up = list(range(n + 1))  # up[i]: towards the first place >= i not taken (n: none)
        self.down = list(range(n + 1))  # down[i + 1]: towards the last place <= i (0: none)

    def take(self, i: int) -> None:
        self.up[i] = i + 1
        self.down[i + 1] = i

    def above(self, i: int) -> int:
        """The first place >= i not taken, or n."""
        return _find(self.up, i)

    def below(self, i: int) -> int:
        """The last place <= i not taken, or -1."""
        return _find(self.down, i + 1) - 1

    def nearest(self, v: int) -> Iterator[int]:
        """The places not taken, nearest to v first, the lower-placed side first; places
        taken while walking are skipped."""
        a, b = self.above(v + 1), self.below(v - 1)
        while a < self.n or b >= 0:
            if a < self.n and (b < 0 or a - v <= v - b):
                yield a
                a = self.above(a + 1)
            else:
                yield b
                b = self.below(b - 1)


def _find(link: list[int], i: int) -> int:
    top = i
    while link[top] != top:
        top = link[top]
    while link[i] != top:  # path compression
        link[i], i = top, link[i]
    return top
