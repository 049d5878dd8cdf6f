"""The registered players as lists show them: ``players list``/``show`` and the API's
``/players`` give the same facts in the same words, worked out here once.

    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import registered
    >>> t = fold(registered(3))
    >>> [p["player_id"] for p in players_json(t)], players_json(t)[0]["status"]
    ([1, 2, 3], '')
    >>> player_json(t, 2)["checked_in"]
    False
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tournament.domain.commands.buyback import may_buy_back
from tournament.domain.commands.registration import player
from tournament.domain.model.parts import Player
from tournament.domain.model.state import Tournament
from tournament.domain.standings.lives import lives_left
from tournament.domain.views.history import RoundLine, player_rounds, round_words

if TYPE_CHECKING:
    from tournament.domain.standings import Row

#: ``players list``'s status of a player the seeding left out (not checked in then).
UNSEEDED = "not seeded: drawn after the seeded players, by rating"
#: The same, for a player who is not checked in while check-in is in use.
UNSEEDED_ABSENT = "not seeded: if checked in, drawn after the seeded players, by rating"


def checking_in(t: Tournament) -> bool:
    """Whether check-in is in use: once anybody is checked in, only they are drawn."""
    return any(p.checked_in for p in t.players.values())


def flags(t: Tournament, p: Player, checking: bool) -> list[str]:
    """What ``players list`` says of a player besides the details: checked in, late,
    withdrawn, not seeded (``checking``: :func:`checking_in`)."""
    unseeded = UNSEEDED_ABSENT if checking and not p.checked_in else UNSEEDED
    return [
        x
        for x, on in (
            ("checked in", p.checked_in),
            ("late", p.late),
            ("withdrawn", not p.active),
            # Drawn all the same once checked in, as seed_order places them: the list
            # says so rather than leave a drawn player's "-" unexplained.
            (unseeded, t.seeding is not None and p.seed is None and p.active and not p.late),
        )
        if on
    ]


def players_json(t: Tournament) -> list[dict[str, Any]]:
    """Every registered player by start number (:func:`player_json`)."""
    checking = checking_in(t)
    lives = lives_left(t)
    buyers = set(may_buy_back(t)[0]) if lives is not None else set()
    return [_json(t, p, checking, lives, buyers) for p in t.players.values()]


def player_json(t: Tournament, player_id: int) -> dict[str, Any]:
    """One player: start number, name, club, category, rating, seed, checked in, late
    entry (its missed rounds and what they score), withdrawn (after which round, how),
    the status words of ``players list``; in the lives format also lives left, lives
    bought back, and whether the player may buy one back now."""
    p = player(t, player_id)
    lives = lives_left(t)
    buyers = set(may_buy_back(t)[0]) if lives is not None else set()
    return _json(t, p, checking_in(t), lives, buyers)


def _json(
    t: Tournament, p: Player, checking: bool, lives: dict[int, int] | None, buyers: set[int]
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "player_id": p.id,
        "name": p.name,
        "club": p.club,
        "category": p.category,
        "rating": p.rating,
        "seed": p.seed,
        "checked_in": p.checked_in,
        "late": p.late,
        "missed_rounds": p.missed,
        "missed_rounds_score": p.missed_score if p.late else None,
        "withdrawn": not p.active,
        "withdrawn_after_round": p.withdrawn,
        "withdrawal": p.withdrawal or None,
        "status": ", ".join(flags(t, p, checking)),
    }
    if lives is not None:
        out["lives_left"] = lives.get(p.id, 0)
        out["lives_bought"] = p.lives_bought
        out["may_buy_back"] = p.id in buyers
    return out


def standing(t: Tournament, player_id: int) -> tuple[Row, int] | None:
    """The player's line in the standings and how many lines there are, once a round is
    drawn (None before, or for a player the standings leave out)."""
    if not t.rounds:
        return None
    # The draws' code (places of a bracket) only here: `players list` does not need it.
    from tournament.domain.standings import standings
    from tournament.domain.standings.pairing import places

    rows = standings(t, places=places(t), lives=lives_left(t))
    row = next((r for r in rows if r.player_id == player_id), None)
    return None if row is None else (row, len(rows))


def player_detail(t: Tournament, player_id: int) -> dict[str, Any]:
    """:func:`player_json` with the player's rounds (as ``players show`` lists them) and
    line in the standings."""
    out = player_json(t, player_id)
    out["rounds"] = [round_json(t, line) for line in player_rounds(t, player_id)]
    found = standing(t, player_id)
    if found is None:
        out["standing"] = None
    else:
        row, of = found
        out["standing"] = {
            "rank": row.rank,
            "of": of,
            "points": row.points,
            "wins": row.wins + row.forfeit_wins,
            "losses": row.losses,
            "bummerl": [row.bummerl_won, row.bummerl_lost],
            "game_points": [row.gp_won, row.gp_lost],
        }
    return out


def round_json(t: Tournament, line: RoundLine) -> dict[str, Any]:
    """One round of a player: what it was (a match, a bye, a round missed by a late
    entry, none), its outcome, the match seen from the player's seat, and the words
    ``players show`` prints for it."""
    out: dict[str, Any] = {"round": line.round, "kind": line.kind, "outcome": line.outcome}
    m = line.match
    if m is not None:
        seat, s = line.seat, m.summary
        dealer = None if line.void else m.first_dealer
        out["match"] = {
            "match_id": m.match_id,
            "table": m.table or None,  # 0: a walkover, at no table
            "opponent": m.players[1 - seat],
            "first_dealer": None if dealer is None else m.players[dealer],
            "bummerl": [s.bummerl[seat], s.bummerl[1 - seat]],
            "game_points": [s.game_points[seat], s.game_points[1 - seat]],
            "forfeit": s.forfeit,
        }
    elif line.kind == "missed":
        out["scored_as_bye"] = line.scored_as_bye
    out["text"] = round_words(t, line)
    return out
