"""Table codes at the edge (T-code): the app's secret for the domain, and which tournament
a code typed on a phone belongs to.

A code names no tournament (six letters fit on a card and a thumb), and nothing is stored
(:mod:`tournament.domain.commands.tablecodes`), so the codes of every tournament's latest two rounds
are worked out here and kept per tournament and version: a look-up is a dict access, and
a tournament's codes are worked out again only after it changed. The list of tournaments
is read again when a code is not found (a tournament created since); wrong codes are
rate-limited per address by the pages (:mod:`tournament.web.pages.report`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Final

from flask import current_app, g
from flask.blueprints import BlueprintSetupState

from tournament.app.services import services
from tournament.domain.commands.tablecodes import RULE, code_for, normalized, resolve
from tournament.domain.model.errors import DomainError, NotFoundError
from tournament.domain.model.reportbook import draw_of
from tournament.domain.model.state import Tournament

#: Wrong codes one address may send (``REPORT_CODE_RATE_LIMIT``) before every code is
#: refused for a while, the right one too: six letters cannot be found by trying.
DEFAULT_LIMIT: Final = "10 per minute"

#: How long the list of tournaments is trusted before a code not found reads it again.
TOURNAMENTS_FRESH: Final = 2.0


def secret() -> bytes:
    """The key the codes are worked out with: the app's ``SECRET_KEY``."""
    return str(current_app.config["SECRET_KEY"]).encode()


class CodeIndex:
    """Code -> tournament id, for every tournament's latest two rounds."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tournaments: list[str] = []
        self._read_at = -TOURNAMENTS_FRESH
        # tid -> (what the codes depend on, the codes): see codes_stamp
        self._codes: dict[str, tuple[tuple[object, ...], frozenset[str]]] = {}

    def tournament_of(self, code: str) -> str:
        """The id of the tournament ``code`` belongs to; NotFoundError when none."""
        wanted = normalized(code)
        found = self._search(wanted)
        if found is None and time.monotonic() - self._read_at > TOURNAMENTS_FRESH:
            self._read_tournaments()
            found = self._search(wanted)
        if found is None:
            raise NotFoundError(
                "code",
                RULE,
                "this is not a code of a table in play: check the letters on the card",
                code="tablecodes.unknown",
            )
        return found

    def _read_tournaments(self) -> None:
        ids = services().tournaments.tournament_ids()
        with self._lock:
            self._tournaments = ids
            self._read_at = time.monotonic()

    def _search(self, wanted: str) -> str | None:
        service = services().tournaments
        for tid in list(self._tournaments):
            try:
                t = service.state(tid)
            except DomainError:
                continue
            known = self._codes.get(tid)
            stamp = codes_stamp(t)
            if known is None or known[0] != stamp:
                with service.reading():
                    known = (stamp, every_code(secret(), t))
                self._codes[tid] = known
            if wanted in known[1]:
                return tid
        return None


def codes_stamp(t: Tournament) -> tuple[object, ...]:
    """What the codes of a tournament's latest two rounds depend on: the rounds drawn (a
    cancelled and redrawn round counts again) and every match's code generation. Not its
    version: a seat taken or a move played changes that, and 200 online tables' seats
    taken one after the other would each work out 400 codes again (speed P5)."""
    generations = t.reports.generations
    return (len(t.rounds), len(t.cancellations), tuple(sorted(generations.items())))


def every_code(key: bytes, t: Tournament) -> frozenset[str]:
    """Every code of the latest two rounds, of every generation so far (so a revoked or
    expired code is told apart from a typo by the domain's :func:`resolve`)."""
    codes: set[str] = set()
    for number in (t.current_round, t.current_round - 1):
        if number < 1:
            continue
        draw = draw_of(t, number)
        for mid in t.rounds[number - 1].matches:
            for gen in range(t.reports.generations.get(mid, 0) + 1):
                for seat in (0, 1):
                    codes.add(code_for(key, t.id, mid, seat=seat, draw=draw, generation=gen))
    return frozenset(codes)


def index() -> CodeIndex:
    """The app's code index (one per app)."""
    found = current_app.extensions.get("table_codes")
    if found is None:
        found = current_app.extensions.setdefault("table_codes", CodeIndex())
    assert isinstance(found, CodeIndex)
    return found


def find(code: str) -> tuple[str, Tournament]:
    """The tournament of ``code`` and its state, after the domain checked the code
    (unknown, revoked, expired: a DomainError naming T-code)."""
    tid = index().tournament_of(code)
    service = services().tournaments
    t = service.state(tid)
    with service.reading():
        resolve(secret(), t, code)
    return tid, t


def wrong_code_limit(
    *endpoints: str, refusal: Callable[[], str]
) -> Callable[[BlueprintSetupState], None]:
    """A blueprint's ``record_once`` hook wrapping ``endpoints`` in the one limit per
    address that every code route shares (scope ``table-codes``: /r, /play, the API's
    seats), used up only by wrong codes (a route sets ``g.wrong_code``); over it,
    ``refusal()`` is the answer's words."""

    def install(state: BlueprintSetupState) -> None:
        app: Any = state.app
        lazy = app.extensions["login_limiter"]  # tournament.web.lazy_limiter
        limit = str(app.config.get("REPORT_CODE_RATE_LIMIT") or DEFAULT_LIMIT)
        shared: list[Any] = []  # one limit, made with the limiter on first use

        def limits(limiter: Any) -> Any:
            if not shared:
                shared.append(
                    limiter.shared_limit(
                        limit,
                        scope="table-codes",
                        deduct_when=lambda response: bool(g.get("wrong_code")),
                        error_message=refusal,
                    )
                )
            return shared[0]

        # Recorded, so that a test can check every route taking a code is behind it.
        guarded = app.extensions.setdefault("table_code_endpoints", set())
        for endpoint in endpoints:
            app.view_functions[endpoint] = lazy.decorate(limits, app.view_functions[endpoint])
            guarded.add(endpoint)

    return install
