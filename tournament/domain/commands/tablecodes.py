"""Table codes (T-code): two short codes per match, one per seat, printed on the table card.

A code is six letters of an alphabet without look-alikes (no I, L, O, 0, 1, no B/8, G/6,
Q, S/5, Z/2), worked out from the service's secret key with an HMAC of the tournament,
the match, its round's draw, the seat and the match's code *generation*. Nothing is
stored: the codes of a match can always be worked out again, a revocation
(``report.codes_revoked``) bumps the generation and so changes them, and without the
secret nobody can work one out::

    >>> code_for(b"secret", "t1", "2.5", seat=0)
    'XDMYNM'
    >>> code_for(b"secret", "t1", "2.5", seat=1) != code_for(b"secret", "t1", "2.5", seat=0)
    True
    >>> normalized(" xdm-ynm ")
    'XDMYNM'

The domain stays pure: the secret is passed in as bytes by the edge (the web app's
``SECRET_KEY``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
from typing import Final

from tournament.domain.model.errors import ConflictError, NotFoundError
from tournament.domain.model.matchstate import MatchState
from tournament.domain.model.reportbook import draw_of
from tournament.domain.model.state import Tournament

#: Letters nobody mistakes for another letter or a digit, on paper or a phone's keyboard.
ALPHABET: Final = "ACDEFHJKMNPRTUVWXY"
LENGTH: Final = 6
RULE: Final = "T-code"


@dataclasses.dataclass(frozen=True)
class TableSeat:
    """What a code opens: one seat of one match."""

    match_id: str
    seat: int
    player_id: int


def code_for(
    secret: bytes, tournament_id: str, match_id: str, *, seat: int, draw: int = 1,
    generation: int = 0,
) -> str:  # fmt: skip
    """The code of one seat of one match (see the module's docstring)."""
    message = f"table-code|{tournament_id}|{match_id}|{draw}|{seat}|{generation}".encode()
    digest = int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest(), "big")
    letters = []
    for _ in range(LENGTH):
        digest, index = divmod(digest, len(ALPHABET))
        letters.append(ALPHABET[index])
    return "".join(letters)


def normalized(text: str) -> str:
    """A code as typed (spaces, dashes, small letters) in its printed form."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def match_codes(secret: bytes, t: Tournament, match: MatchState) -> tuple[str, str]:
    """The two codes of ``match`` now (seat 0, seat 1)."""
    draw = draw_of(t, match.round)
    generation = t.reports.generations.get(match.match_id, 0)
    return (
        code_for(secret, t.id, match.match_id, seat=0, draw=draw, generation=generation),
        code_for(secret, t.id, match.match_id, seat=1, draw=draw, generation=generation),
    )


def round_codes(
    secret: bytes, t: Tournament, number: int | None = None
) -> dict[str, tuple[str, str]]:
    """Per match of round ``number`` (default the current one), its two codes."""
    number = number or t.current_round
    if not 1 <= number <= t.current_round:
        return {}
    return {mid: match_codes(secret, t, t.matches[mid]) for mid in t.rounds[number - 1].matches}


def round_open(t: Tournament, number: int) -> bool:
    """Whether the codes of round ``number`` still take reports: it is the latest round,
    and not complete (a round closes when its last match is settled or the next is drawn)."""
    return number == t.current_round and not t.round_complete(number)


def resolve(secret: bytes, t: Tournament, code: str, *, open_only: bool = True) -> TableSeat:
    """The seat ``code`` opens, or a refusal: unknown (a typo, or a code of a round before
    the last two), revoked (an older generation of a match's code) or expired (its round
    is closed: complete, or the next one drawn). ``open_only=False`` accepts a closed
    round's code (an online table's players still see how their match ended)."""
    wanted = normalized(code)
    latest = t.current_round
    for number in (latest, latest - 1) if len(wanted) == LENGTH else ():
        if number < 1:
            continue
        found = _find(secret, t, number, wanted)
        if found is None:
            continue
        match, seat, revoked = found
        if revoked:
            raise ConflictError(
                "code", RULE, code="tablecodes.revoked", params={"table": match.table}
            )
        if open_only and not round_open(t, number):
            raise ConflictError("code", RULE, code="tablecodes.expired", params={"round": number})
        return TableSeat(match.match_id, seat, match.players[seat])
    raise NotFoundError("code", RULE, code="tablecodes.unknown")


def _find(
    secret: bytes, t: Tournament, number: int, wanted: str
) -> tuple[MatchState, int, bool] | None:
    """The match and seat of round ``number`` whose code (of any generation so far) is
    ``wanted``, and whether that generation was revoked."""
    draw = draw_of(t, number)
    for mid in t.rounds[number - 1].matches:
        generation = t.reports.generations.get(mid, 0)
        for gen in range(generation, -1, -1):
            for seat in (0, 1):
                candidate = code_for(secret, t.id, mid, seat=seat, draw=draw, generation=gen)
                if hmac.compare_digest(candidate, wanted):
                    return t.matches[mid], seat, gen != generation
    return None
