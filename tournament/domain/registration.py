"""Commands for a tournament and its players: create, register, check in, seed, buy a life.

Each command is a pure function ``(state, ...) -> list[NewEvent]``: it validates against
the folded state and raises :class:`DomainError` before anything is written.

    >>> from tournament.domain.state import fold
    >>> events = create_tournament("t1", {"name": "Cup", "seed": 7})
    >>> events += register_player(fold(events), "Anna Huber", club="SC Ried", rating=1520)
    >>> [e.type for e in events]
    ['tournament.created', 'player.registered']
    >>> register_player(fold(events), "Anna Huber", club="SC Ried")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.errors.ConflictError: name: Anna Huber (SC Ried) is already registered ...
"""

from __future__ import annotations

import hashlib
import random
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from tournament.domain import events as ev
from tournament.domain.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.lives import buy_back_closed, lives_left
from tournament.domain.settings import Settings
from tournament.domain.state import Player, Tournament
from tournament.eventstore.api import NewEvent
from tournament.formats.seeding import Entrant, seed_by_draw

#: Formats whose draw is fixed by round 1: nobody can join after it.
FIXED_FIELD = (
    "single_elimination",
    "double_elimination",
    "round_robin",
    "groups_knockout",
    "lives",
)


def create_tournament(
    tournament_id: str, settings: Mapping[str, Any], *, actor: str | None = None
) -> list[NewEvent]:
    """``tournament.created`` with the validated settings; a master seed is drawn and recorded
    when none is given, so every later draw can be re-run."""
    if not tournament_id or not tournament_id.replace("-", "").replace("_", "").isalnum():
        raise DomainError(
            "tournament_id",
            "T-settings",
            f"{tournament_id!r} is not an id (letters, digits, - and _)",
        )
    data = dict(settings)
    if data.get("seed") is None:
        data["seed"] = random.SystemRandom().randrange(2**31)
    valid = Settings.from_payload(data)
    return [
        ev.make_event(
            ev.TOURNAMENT_CREATED,
            {"tournament_id": tournament_id, "settings": valid.to_payload()},
            actor=actor,
        )
    ]


def require_created(t: Tournament) -> Settings:
    if t.settings is None:
        raise NotFoundError("tournament", "T-settings", "no such tournament (create it first)")
    return t.settings


def player(t: Tournament, player_id: int, field: str = "player") -> Player:
    """The player with that start number, or a :class:`NotFoundError` naming the field."""
    found = t.players.get(player_id)
    if found is None:
        raise NotFoundError(field, "T-player", f"there is no player {player_id}")
    return found


def register_player(
    t: Tournament,
    name: str,
    *,
    club: str = "",
    category: str = "",
    rating: int | None = None,
    actor: str | None = None,
) -> list[NewEvent]:
    """Register a player under the next start number; after round 1 it is a late entry."""
    settings = require_created(t)
    name = " ".join(nfc(name).split())
    if not name:
        raise DomainError("name", "T-player", "a player needs a name")
    club, category = nfc(club).strip(), nfc(category).strip()
    for other in t.players.values():
        if same_text(other.name, name) and same_text(other.club, club):
            where = f" ({club})" if club else ""
            raise ConflictError(
                "name", "T-player", f"{name}{where} is already registered as player {other.id}"
            )
    if rating is not None and not (0 <= rating <= 4000):
        raise DomainError("rating", "T-player", f"a rating is between 0 and 4000, not {rating}")
    late = t.current_round > 0
    if late and settings.format in FIXED_FIELD:
        raise ConflictError(
            "player",
            "T-late-entry",
            f"the {settings.format.replace('_', ' ')} draw is fixed once round 1 has started; "
            "late entry is possible in Swiss only",
        )
    payload: dict[str, Any] = {"player_id": max(t.players, default=0) + 1, "name": name}
    if club:
        payload["club"] = club
    if category:
        payload["category"] = category
    if rating is not None:
        payload["rating"] = rating
    if late:
        payload["late"] = True
    return [ev.make_event(ev.PLAYER_REGISTERED, payload, actor=actor)]


def nfc(text: str) -> str:
    """Text in Unicode NFC: "Jürgen" typed on Windows and written by macOS (NFD: u and a
    combining diaeresis) is then one string, in the duplicate check and in the store."""
    return unicodedata.normalize("NFC", text)


def same_text(a: str, b: str) -> bool:
    """Equal names or clubs: case and Unicode form aside (players stored before names
    were normalised may still be NFD)."""
    return nfc(a).casefold() == nfc(b).casefold()


def check_in(t: Tournament, player_id: int, *, actor: str | None = None) -> list[NewEvent]:
    """Check a player in; once anybody is checked in, only checked-in players are drawn."""
    require_created(t)
    p = player(t, player_id)
    if not p.active:
        raise ConflictError("player", "T-player", f"player {player_id} ({p.name}) has withdrawn")
    if p.checked_in:
        return []
    return [ev.make_event(ev.PLAYER_CHECKED_IN, {"player_id": player_id}, actor=actor)]


def seed_order(t: Tournament) -> list[int]:
    """Player ids best seed first: seeds set by hand or rating, then the rest by rating, id."""
    return sorted(
        t.players,
        key=lambda pid: (
            t.players[pid].seed is None,
            t.players[pid].seed or 0,
            -(t.players[pid].rating or 0),
            pid,
        ),
    )


def seed_players(
    t: Tournament,
    method: str = "rating",
    order: Sequence[int] | None = None,
    *,
    seed: int | None = None,
    actor: str | None = None,
) -> list[NewEvent]:
    """Seed by rating (highest first; unrated last, by start number), by hand (``order``
    lists every registered player once, top seed first) or by draw (a random order from a
    seed recorded in the event: ``seed``, or derived from the tournament's master seed, so
    anybody can draw it again: :func:`draw_seed`). Only before round 1."""
    settings = require_created(t)
    if t.current_round > 0:
        raise ConflictError("seeding", "T-seeding", "seeding is fixed once round 1 has started")
    if seed is not None and method != "draw":
        raise DomainError("seed", "T-seeding", f"a seed is for seeding by draw, not by {method}")
    payload: dict[str, Any] = {"method": method}
    if method == "rating":
        ranked = sorted(t.players, key=lambda pid: (-(t.players[pid].rating or -1), pid))
    elif method == "manual":
        ranked = list(order or ())
        for pid in ranked:
            player(t, pid, "order")
        missing = sorted(set(t.players) - set(ranked))
        if len(set(ranked)) != len(ranked):
            raise DomainError("order", "T-seeding", "a player is listed twice")
        if missing:
            raise DomainError(
                "order",
                "T-seeding",
                f"every player needs a seed; missing: {', '.join(map(str, missing))}",
            )
    elif method == "draw":  # withdrawn players are never drawn, so not seeded either
        entrants = [
            Entrant(str(pid), registration_no=pid) for pid, p in t.players.items() if p.active
        ]
        if not entrants:
            raise ConflictError("seeding", "T-seeding", "there is nobody to seed yet")
        payload["seed"] = draw_seed(settings.seed) if seed is None else seed
        ranked = [int(pid) for pid in seed_by_draw(entrants, payload["seed"])]
    else:
        raise DomainError(
            "method", "T-seeding", f"seeding is by 'rating', 'manual' or 'draw', not {method!r}"
        )
    source = ev.PAPER if method == "manual" else ev.SYSTEM  # typed by hand, or computed
    payload["order"] = ranked
    return [ev.make_event(ev.PLAYERS_SEEDED, payload, actor=actor, source=source)]


def draw_seed(master: int) -> int:
    """The seed of a seeding by draw, derived from the tournament's master seed: the first
    4 bytes (big-endian) of SHA-256 of ``seeding:<master seed>``. The order is
    :func:`tournament.formats.seeding.seed_by_draw` of the start numbers with it.

    >>> draw_seed(42)
    3507749787
    """
    digest = hashlib.sha256(f"seeding:{master}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def buy_life(t: Tournament, player_id: int, *, actor: str | None = None) -> list[NewEvent]:
    """Preisschnapsen: a player out of lives buys one back between rounds, at most
    ``buy_backs`` times and not after round ``buy_back_until`` (options of the format), and
    never into the final: once it is drawn its players are fixed (T-lives)."""
    require_created(t)
    refusal = buy_back_closed(t) or _cannot_buy_back(t, player(t, player_id), lives_left(t))
    if refusal:
        raise ConflictError("player", "T-lives", refusal)
    payload = {"player_id": player_id, "before_round": t.current_round + 1}
    return [ev.make_event(ev.LIFE_BOUGHT, payload, actor=actor)]


def _cannot_buy_back(t: Tournament, p: Player, left: Mapping[int, int] | None) -> str | None:
    """Why this player may not buy back a life now, whatever the round: withdrawn, bought
    back as often as allowed, never in the field, or still in with a life (``left``:
    lives left per player, :func:`lives_left`)."""
    settings = require_created(t)
    allowed = int(settings.options.get("buy_backs", 0))
    if not p.active:
        return f"player {p.id} ({p.name}) has withdrawn"
    if p.lives_bought >= allowed:
        return (
            f"player {p.id} ({p.name}) has bought back {p.lives_bought} "
            f"{'life' if p.lives_bought == 1 else 'lives'} already, the most this tournament "
            f"allows (buy_backs={allowed})"
        )
    if left is None or p.id not in left:
        return f"player {p.id} ({p.name}) was not in the draw of round 1, so not in the field"
    if left[p.id] > 0:
        return f"player {p.id} ({p.name}) still has a life"
    return None


def may_buy_back(t: Tournament) -> tuple[list[int], str | None]:
    """Who may buy back a life now (start numbers), and why nobody may when nobody may.

    >>> from tournament.domain.testing import registered
    >>> from tournament.domain.state import fold
    >>> may_buy_back(fold(registered(4, format="lives", options={"buy_backs": 1})))
    ([], 'nobody is out of lives')
    """
    require_created(t)
    closed = buy_back_closed(t)
    if closed:
        return [], closed
    left = lives_left(t) or {}
    players = [p.id for p in t.players.values() if _cannot_buy_back(t, p, left) is None]
    if players:
        return players, None
    if any(left.get(p.id, 1) <= 0 for p in t.players.values() if p.active):
        allowed = int(t.settings.options["buy_backs"]) if t.settings else 0
        return [], f"everybody out of lives has bought back already (buy_backs={allowed})"
    return [], "nobody is out of lives"
