"""Commands for a tournament and its players: create, register, check in, seed, correct.

Each command is a pure function ``(state, ...) -> list[NewEvent]``: it validates against
the folded state and raises :class:`DomainError` before anything is written.

    >>> from tournament.domain.model.state import fold
    >>> events = create_tournament("t1", {"name": "Cup", "seed": 7})
    >>> events += register_player(fold(events), "Anna Huber", club="SC Ried", rating=1520)
    >>> [e.type for e in events]
    ['tournament.created', 'player.registered']
    >>> register_player(fold(events), "Anna Huber", club="SC Ried")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.ConflictError: name: Anna Huber (SC Ried) is already ...
"""

from __future__ import annotations

import hashlib
import random
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from tournament.domain.model import events as ev
from tournament.domain.model import text
from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.model.settings import Settings
from tournament.domain.model.settings import missed_rounds_score as score_of_missed_rounds
from tournament.domain.model.state import Player, Tournament
from tournament.domain.model.text import excerpt, plain_text
from tournament.domain.model.text import look_alike_keys as keys
from tournament.domain.standings.field import eligible
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
#: The longest venue (characters).
VENUE_LIMIT = 200


def create_tournament(
    tournament_id: str, settings: Mapping[str, Any], *, actor: str | None = None
) -> list[NewEvent]:
    """``tournament.created`` with the validated settings; a master seed is drawn and recorded
    when none is given, so every later draw can be re-run."""
    data = dict(settings)
    # The name and venue are printed on every sheet: plain text, as a player's name is.
    data["name"] = plain_text(str(data.get("name") or ""), "name", "T-settings",
                              what="a tournament name")  # fmt: skip
    if data.get("venue"):
        data["venue"] = plain_text(str(data["venue"]), "venue", "T-settings",
                                   limit=VENUE_LIMIT, what="a venue")  # fmt: skip
    if data.get("seed") is None:
        data["seed"] = random.SystemRandom().randrange(2**31)
    valid = Settings.from_payload(data)  # first: a bad date says so, not that the id is bad
    if valid.options.get("double"):  # a setting nothing would act on is refused, not ignored
        raise DomainError(
            "options",
            "T-settings",
            code="registration.double_true_double_round",
        )
    if not (tournament_id.isascii() and tournament_id.replace("-", "").replace("_", "").isalnum()):
        raise DomainError(
            "tournament_id",
            "T-settings",
            code="registration.id_letters_z_digits",
            params={"tournament_id": excerpt(tournament_id)},
        )
    return [
        ev.make_event(
            ev.TOURNAMENT_CREATED,
            {"tournament_id": tournament_id, "settings": valid.to_payload()},
            actor=actor,
        )
    ]


def require_created(t: Tournament) -> Settings:
    if t.settings is None:
        raise NotFoundError(
            "tournament", "T-settings", code="registration.such_tournament_create_first"
        )
    return t.settings


def player(t: Tournament, player_id: int, field: str = "player") -> Player:
    """The player with that start number, or a :class:`NotFoundError` naming the field."""
    found = t.players.get(player_id)
    if found is None:
        raise NotFoundError(
            field, "T-player", code="registration.there_player", params={"player_id": player_id}
        )
    return found


def register_player(
    t: Tournament,
    name: str,
    *,
    club: str = "",
    category: str = "",
    rating: int | None = None,
    missed_rounds_score: str | None = None,
    actor: str | None = None,
) -> list[NewEvent]:
    """Register a player under the next start number; after round 1 it is a late entry,
    which scores ``missed_rounds_score`` (``0`` or ``bye``; default: the tournament's
    ``late_entry_score``) for each round drawn before it entered (T-late-entry)."""
    settings = require_created(t)
    name, club, category = player_fields(name, club, category)
    refuse_duplicate(t, name, club)
    check_rating(rating)
    late = t.current_round > 0
    if late and settings.format in FIXED_FIELD:
        raise ConflictError(
            "player",
            "T-late-entry",
            code="registration.draw_fixed_once_round",
            params={"replace": settings.format.replace("_", " ")},
        )
    if missed_rounds_score is not None and not late:
        raise DomainError(
            "missed_rounds_score",
            "T-late-entry",
            code="registration.late_entry_round_drawn",
            params={"name": name},
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
        payload["missed_rounds"] = t.current_round
        payload["missed_rounds_score"] = (
            settings.late_entry_score
            if missed_rounds_score is None
            else score_of_missed_rounds(missed_rounds_score, "missed_rounds_score")
        )
    return [ev.make_event(ev.PLAYER_REGISTERED, payload, actor=actor)]


def enter_player(
    t: Tournament,
    name: str,
    *,
    club: str = "",
    category: str = "",
    rating: int | None = None,
    missed_rounds_score: str | None = None,
    actor: str | None = None,
) -> list[NewEvent]:
    """``players add`` and the API's registration: :func:`register_player`, and a late
    entry checked in at once when check-in is in use (only checked-in players are drawn,
    and nobody registers after round 1 to sit it out)."""
    events = register_player(
        t,
        name,
        club=club,
        category=category,
        rating=rating,
        missed_rounds_score=missed_rounds_score,
        actor=actor,
    )
    p = events[0].payload
    if p.get("late") and any(x.checked_in for x in t.players.values()):
        # A brand-new player: nothing for check_in to refuse, so the event is made here.
        checkin = {"player_id": p["player_id"]}
        events.append(ev.make_event(ev.PLAYER_CHECKED_IN, checkin, actor=actor, source=ev.SYSTEM))
    return events


def player_fields(name: str, club: str = "", category: str = "") -> tuple[str, str, str]:
    """A player's name, club and category as stored, whichever way they came in (``players
    add``, a CSV row, a correction): plain text of at most 100 characters each, no control
    or bidi character (refused naming the field and the position), spaces made one, in
    Unicode NFC ("Jürgen" typed on Windows and written by macOS, NFD, is one string)."""
    name = plain_text(name, "name", "T-player")
    if not name:
        raise DomainError("name", "T-player", code="registration.player_needs_name")
    club = plain_text(club, "club", "T-player", what="a club")
    category = plain_text(category, "category", "T-player", what="a category")
    return name, club, category


def duplicate_of(
    t: Tournament, name: str, club: str, *, other_than: int | None = None
) -> Player | None:
    """The registered player (other than ``other_than``) whose name and club look the same
    as ``name`` and ``club`` on a pairing sheet (:func:`same_text`), if any."""
    (name_lower, name_upper), (club_lower, club_upper) = keys(name), keys(club)
    for other in t.players.values():  # every registration: kept to a dict lookup a player
        other_lower, other_upper = keys(other.name)
        if other_lower == name_lower or other_upper == name_upper:
            lower, upper = keys(other.club)
            if (lower == club_lower or upper == club_upper) and other.id != other_than:
                return other
    return None


def refuse_duplicate(t: Tournament, name: str, club: str, *, other_than: int | None = None) -> None:
    """Refuse a name and club that look the same as a registered player's (T-player): a
    zero-width space or a Cyrillic "А" must not make a second "Anna" at the same club."""
    other = duplicate_of(t, name, club, other_than=other_than)
    if other is None:
        return
    where = f" ({club})" if club else ""
    if same_entry(other, name, club):
        raise ConflictError(
            "name",
            "T-player",
            code="registration.already_registered",
            params={"name": name, "where": where, "player_id": other.id},
        )
    theirs = f" ({other.club})" if other.club else ""
    raise ConflictError(
        "name",
        "T-player",
        code="registration.looks_the_same",
        params={
            "name": excerpt(name),
            "where": where,
            "other": other.name,
            "theirs": theirs,
            "player_id": other.id,
        },
    )


def same_entry(player: Player, name: str, club: str) -> bool:
    """Whether ``name`` at ``club`` is ``player`` registered already, as typed (case and
    Unicode form aside), not merely a look-alike of it."""
    return (
        nfc(player.name).casefold() == nfc(name).casefold()
        and nfc(player.club).casefold() == nfc(club).casefold()
    )


def check_rating(rating: int | None) -> None:
    if rating is not None and not (0 <= rating <= 4000):
        raise DomainError(
            "rating", "T-player", code="registration.rating_between", params={"rating": rating}
        )


def nfc(text: str) -> str:
    """Text in Unicode NFC: "Jürgen" typed on Windows and written by macOS (NFD: u and a
    combining diaeresis) is then one string, in the duplicate check and in the store."""
    return unicodedata.normalize("NFC", text)


def same_text(a: str, b: str) -> bool:
    """Equal names or clubs as a pairing sheet shows them: case, Unicode form (NFKC),
    invisible characters and look-alike Cyrillic or Greek letters aside (players stored
    before names were normalised may still be NFD)."""
    return text.same_text(a, b)


def check_in(t: Tournament, player_id: int, *, actor: str | None = None) -> list[NewEvent]:
    """Check a player in; once anybody is checked in, only checked-in players are drawn."""
    require_created(t)
    p = player(t, player_id)
    if not p.active:
        raise ConflictError(
            "player",
            "T-player",
            code="registration.player_withdrawn",
            params={"player_id": player_id, "name": p.name},
        )
    if p.checked_in:
        return []
    return [ev.make_event(ev.PLAYER_CHECKED_IN, {"player_id": player_id}, actor=actor)]


def seed_players(
    t: Tournament,
    method: str = "rating",
    order: Sequence[int] | None = None,
    *,
    seed: int | None = None,
    actor: str | None = None,
) -> list[NewEvent]:
    """Seed by rating (highest first; unrated last, by start number), by hand (``order``
    lists every registered player once, top seed first; with check-in in use, every
    checked-in one, those not checked in may be left out) or by draw (a random order from
    a seed recorded in the event: ``seed``, or derived from the tournament's master seed,
    so anybody can draw it again: :func:`draw_seed`). Only before round 1. Withdrawn players
    are never drawn, so they are not seeded: a manual order need not list them (listed,
    they are left out)."""
    settings = require_created(t)
    if t.current_round > 0:
        raise ConflictError("seeding", "T-seeding", code="registration.seeding_fixed_once_round")
    if seed is not None and method != "draw":
        raise DomainError(
            "seed", "T-seeding", code="registration.seed_seeding_draw", params={"method": method}
        )
    payload: dict[str, Any] = {"method": method}
    active = [pid for pid, p in t.players.items() if p.active]
    if method == "rating":
        ranked = rating_order(t, active)
    elif method == "manual":
        ranked = list(order or ())
        for pid in ranked:
            player(t, pid, "order")
        if len(set(ranked)) != len(ranked):
            raise DomainError("order", "T-seeding", code="registration.player_listed_twice")
        ranked = [pid for pid in ranked if t.players[pid].active]
        # With check-in in use, the players the draw takes: a player not (yet) here may
        # be listed, or not (seeded after the listed ones by rating, like a late entry).
        missing = sorted(set(eligible(t)) - set(ranked))
        if missing:
            who = "checked-in player" if any(t.players[p].checked_in for p in active) else "player"
            raise DomainError(
                "order",
                "T-seeding",
                code="registration.every_needs_seed_missing",
                params={"who": who, "map": ", ".join(map(str, missing))},
            )
    elif method == "draw":  # withdrawn players are never drawn, so not seeded either
        entrants = [
            Entrant(str(pid), registration_no=pid) for pid, p in t.players.items() if p.active
        ]
        if not entrants:
            raise ConflictError("seeding", "T-seeding", code="registration.there_nobody_seed_yet")
        payload["seed"] = draw_seed(settings.seed) if seed is None else seed
        ranked = [int(pid) for pid in seed_by_draw(entrants, payload["seed"])]
    else:
        raise DomainError(
            "method",
            "T-seeding",
            code="registration.seeding_rating_manual_draw",
            params={"method": repr(method)},
        )
    source = ev.PAPER if method == "manual" else ev.SYSTEM  # typed by hand, or computed
    payload["order"] = ranked
    return [ev.make_event(ev.PLAYERS_SEEDED, payload, actor=actor, source=source)]


def rating_order(
    t: Tournament, players: Sequence[int], ratings: Mapping[int, int | None] | None = None
) -> list[int]:
    """``players`` by rating, highest first; unrated last, by start number. ``ratings``
    overrides some players' ratings (what a correction would make them)."""
    rated = {pid: t.players[pid].rating for pid in players} | dict(ratings or {})
    return sorted(players, key=lambda pid: (-(rated[pid] or -1), pid))


#: What ``players edit`` may correct, and until when: the rating decides seeding and with it
#: the round-1 pairings, so it is fixed once round 1 is drawn; the rest only names players.
EDITABLE = ("name", "club", "category", "rating")
FIXED_AT_ROUND_1 = ("rating",)


def edit_player(
    t: Tournament,
    player_id: int,
    changes: Mapping[str, Any],
    *,
    actor: str | None = None,
) -> list[NewEvent]:
    """Correct a player's details (``player.edited``, with what it replaces): name, club and
    category at any time, the rating before round 1 only (T-seeding). The same checks as a
    registration. When the players were seeded by rating, the seeding follows the new
    rating (a new ``players.seeded`` in the same action); a manual seeding stays as typed."""
    require_created(t)
    p = player(t, player_id)
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise DomainError(
            unknown[0],
            "T-player",
            code="registration.player_s_can_corrected",
            params={"editable": ", ".join(EDITABLE)},
        )
    if not changes:
        raise DomainError("player", "T-player", code="registration.say_what_correct_name")
    for key in FIXED_AT_ROUND_1:
        if key in changes and t.current_round > 0 and changes[key] != getattr(p, key):
            raise ConflictError(
                key,
                "T-seeding",
                code="registration.fixed_once_round_drawn",
                params={"key": key, "label": t.label(player_id)},
            )
    name, club, category = player_fields(
        changes.get("name", p.name),
        changes.get("club", p.club),
        changes.get("category", p.category),
    )
    refuse_duplicate(t, name, club, other_than=player_id)
    rating = changes.get("rating", p.rating)
    check_rating(rating)
    new = {"name": name, "club": club, "category": category, "rating": rating}
    changed = {k: v for k, v in new.items() if v != getattr(p, k)}
    if not changed:
        return []
    payload = {
        "player_id": player_id,
        "changes": changed,
        "previous": {k: getattr(p, k) for k in changed},
    }
    events = [ev.make_event(ev.PLAYER_EDITED, payload, actor=actor)]
    if "rating" in changed and t.seeding == "rating":
        active = [pid for pid, x in t.players.items() if x.active]
        order = rating_order(t, active, {player_id: rating})
        events.append(
            ev.make_event(
                ev.PLAYERS_SEEDED,
                {"method": "rating", "order": order},
                actor=actor,
                source=ev.SYSTEM,  # the seeding by rating, worked out again
            )
        )
    return events


def check_out(t: Tournament, player_id: int, *, actor: str | None = None) -> list[NewEvent]:
    """Undo a check-in (``player.checked_out``) before the player is drawn: a checked-out
    player is not drawn. Once drawn, the player is withdrawn instead (T-player)."""
    require_created(t)
    p = player(t, player_id)
    if not p.checked_in:
        return []
    drawn = next(
        (
            r.number
            for r in t.rounds
            if player_id in r.byes or any(player_id in t.matches[mid].players for mid in r.matches)
        ),
        None,
    )
    if drawn is not None:
        raise ConflictError(
            "player",
            "T-player",
            code="registration.drawn_round_check_undone",
            params={"label": t.label(player_id), "drawn": drawn, "player_id": player_id},
        )
    return [ev.make_event(ev.PLAYER_CHECKED_OUT, {"player_id": player_id}, actor=actor)]


def draw_seed(master: int) -> int:
    """The seed of a seeding by draw, derived from the tournament's master seed: the first
    4 bytes (big-endian) of SHA-256 of ``seeding:<master seed>``. The order is
    :func:`tournament.formats.seeding.seed_by_draw` of the start numbers with it.

    >>> draw_seed(42)
    3507749787
    """
    digest = hashlib.sha256(f"seeding:{master}".encode()).digest()
    return int.from_bytes(digest[:4], "big")
