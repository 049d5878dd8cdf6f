"""Print packs asked for, rendered once, kept: ``proj_print_packs``.

A request stores a queued pack and returns at once; the rendering happens in a Celery
worker on a server (``workers.tasks.render_print_pack``) or in a background thread of the
web process on a laptop, never in the request (a federation's standings or a round of
five hundred tables takes seconds). The same pack asked again for the same version of the
tournament in the same language is the same pack: nothing is rendered twice (German and
English of one version are two packs, each rendered once). A rendering run may be delivered
twice (a worker killed mid-way); it renders only a pack still queued or rendering, and the
last write wins with identical bytes.

A pack never stays "queued" for ever: a rendering that fails (a busy store, "database is
locked" on SQLite, is the usual cause) is tried again a bounded number of times, then the
pack is marked failed with the reason. Asking again for a failed pack makes a new one, and
asking again for a pack still queued or rendering long after it was asked for (its thread
or worker died before it could say so) renders it again.
"""

from __future__ import annotations

import dataclasses
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from tournament.app.service import TournamentService
from tournament.domain.commands.tablecodes import round_codes
from tournament.domain.model import events as ev
from tournament.eventstore.sheet_seal import seal_for_sheet
from tournament.eventstore.store import SQLEventStore
from tournament.printing.language import DEFAULT, LANGUAGES, language
from tournament.printing.packs import KINDS, document, render
from tournament.projections.tables import print_packs

log = logging.getLogger(__name__)

QUEUED, RENDERING, DONE, FAILED = "queued", "rendering", "done", "failed"

#: The pauses (seconds) between the tries of one rendering: three tries in all. A store
#: busy with another writer is mostly free again a second later.
PAUSES: tuple[float, ...] = (1.0, 4.0)
#: A pack still queued or rendering this long after it was asked for is stuck: asking for
#: it again renders it again (a rendering takes seconds, not minutes).
STALE_AFTER = timedelta(minutes=2)

#: What turns a document into a PDF: ``(document, footer) -> (pdf, pages)``.
Renderer = Callable[[Any, str], tuple[bytes, int]]


@dataclasses.dataclass(frozen=True)
class Pack:
    id: str
    tournament_id: str
    kind: str
    round: int | None
    version: int
    lang: str
    status: str
    pages: int | None
    seal: str | None
    error: str | None
    requested_by: str
    requested_at: datetime
    done_at: datetime | None
    size: int | None

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        for key in ("requested_at", "done_at"):
            moment = data[key]
            if moment is not None:
                if moment.tzinfo is None:
                    moment = moment.replace(tzinfo=UTC)
                data[key] = moment.isoformat().replace("+00:00", "Z")
        return data


_COLUMNS = [c for c in print_packs.c if c.name != "pdf"]


def request_pack(
    engine: sa.Engine,
    tid: str,
    kind: str,
    round: int | None,
    version: int,
    who: str,
    lang: str = DEFAULT,
    *,
    stale_after: timedelta = STALE_AFTER,
) -> tuple[Pack, bool]:
    """The pack of ``kind`` for ``tid`` at ``version`` in language ``lang``: the one
    asked for before (not failed), or a new queued one; and whether it is to be rendered
    (new, or stuck: queued or rendering for longer than ``stale_after``, then queued again
    as if asked for now)."""
    if kind not in KINDS:
        raise ValueError(f"kind: {kind!r} is not one of {', '.join(KINDS)}")
    if lang not in LANGUAGES:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGUAGES)}")
    p = print_packs.c
    with engine.begin() as conn:
        found = conn.execute(
            sa.select(*_COLUMNS, sa.func.length(p.pdf).label("size"))
            .where(
                p.tournament_id == tid,
                p.kind == kind,
                p.round.is_(None) if round is None else p.round == round,
                p.version == version,
                p.lang == lang,
                p.status != FAILED,
            )
            .order_by(p.requested_at)
            .limit(1)
        ).first()
        if found is not None:
            pack = Pack(**found._mapping)
            if pack.status == DONE or _asked_at(pack) > datetime.now(UTC) - stale_after:
                return pack, False
            log.warning(
                "print pack %s of %s was stuck %s: rendering again", pack.id, tid, pack.status
            )
            conn.execute(
                sa.update(print_packs)
                .where(p.id == pack.id)
                .values(status=QUEUED, error=None, requested_at=datetime.now(UTC))
            )
            return dataclasses.replace(pack, status=QUEUED, requested_at=datetime.now(UTC)), True
        pack_id = str(uuid.uuid4())
        conn.execute(
            sa.insert(print_packs).values(
                id=pack_id,
                tournament_id=tid,
                kind=kind,
                round=round,
                version=version,
                lang=lang,
                status=QUEUED,
                requested_by=who,
                requested_at=datetime.now(UTC),
            )
        )
    made = get_pack(engine, tid, pack_id)
    assert made is not None
    return made, True


def _asked_at(pack: Pack) -> datetime:
    moment = pack.requested_at
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def get_pack(engine: sa.Engine, tid: str, pack_id: str) -> Pack | None:
    p = print_packs.c
    with engine.connect() as conn:
        found = conn.execute(
            sa.select(*_COLUMNS, sa.func.length(p.pdf).label("size")).where(
                p.id == pack_id, p.tournament_id == tid
            )
        ).first()
    return Pack(**found._mapping) if found is not None else None


def pack_pdf(engine: sa.Engine, tid: str, pack_id: str) -> bytes | None:
    p = print_packs.c
    with engine.connect() as conn:
        found = conn.execute(
            sa.select(p.pdf).where(p.id == pack_id, p.tournament_id == tid, p.status == DONE)
        ).scalar()
    return bytes(found) if found is not None else None


def render_pack(
    store: SQLEventStore,
    service: TournamentService,
    pack_id: str,
    base_url: str | None = None,
    secret: bytes | None = None,
    *,
    renderer: Renderer = render,
    pauses: Sequence[float] = PAUSES,
) -> str:
    """Render a queued pack and store its PDF; its status afterwards. ``base_url``: where
    the public pages are, for the table cards' QR code (without it they print none);
    ``secret``: the key the table codes are worked out with (T-code; the app's
    ``SECRET_KEY``), so the table cards print each seat's code (without it, none).

    A try that fails (the store busy, the renderer failing) is made again after each of
    ``pauses``; after the last the pack is marked failed with the reason, so nobody waits
    for a pack that will never come."""
    reason = ""
    for attempt, pause in enumerate((*pauses, None), start=1):
        try:
            return _render_once(store, service, pack_id, base_url, secret, renderer)
        except Exception as error:  # tried again; the last reason goes to the pack
            reason = _reason(error)
            log.warning("print pack %s, try %d failed: %s", pack_id, attempt, reason)
        if pause is not None:
            time.sleep(pause)
    _mark_failed(store.engine, pack_id, reason, pauses)
    return FAILED


def _reason(error: Exception) -> str:
    """What went wrong in words: the driver's message, not SQLAlchemy's SQL and link."""
    original = getattr(error, "orig", None)
    return (str(original or error) or type(error).__name__)[:2000]


def _mark_failed(engine: sa.Engine, pack_id: str, reason: str, pauses: Sequence[float]) -> None:
    """Say the pack failed and why; if even that cannot be written (the store still busy)
    the pack stays as it is, and asking for it again after :data:`STALE_AFTER` renders
    it again."""
    p = print_packs.c
    for pause in (*pauses, None):
        try:
            with engine.begin() as conn:
                conn.execute(
                    sa.update(print_packs)
                    .where(p.id == pack_id, p.status != DONE)
                    .values(status=FAILED, error=reason, done_at=datetime.now(UTC))
                )
            return
        except sa.exc.SQLAlchemyError as error:
            log.warning("print pack %s: failed, and that could not be stored: %s", pack_id, error)
        if pause is not None:
            time.sleep(pause)


def _render_once(
    store: SQLEventStore,
    service: TournamentService,
    pack_id: str,
    base_url: str | None,
    secret: bytes | None,
    renderer: Renderer,
) -> str:
    engine = store.engine
    p = print_packs.c
    with engine.begin() as conn:
        row = conn.execute(
            sa.select(p.tournament_id, p.kind, p.round, p.version, p.lang, p.status).where(
                p.id == pack_id
            )
        ).first()
        if row is None or row.status in (DONE, FAILED):
            return row.status if row is not None else FAILED
        conn.execute(sa.update(print_packs).where(p.id == pack_id).values(status=RENDERING))
    tid = row.tournament_id
    t = service.state(tid, as_of=row.version)
    events = service.store.read_stream(ev.stream_id(tid), 1, row.version)
    codes = None
    if secret is not None and row.kind == "table-cards":
        codes = round_codes(secret, t, row.round)  # the codes as of the pack's version
    words = language(row.lang)
    found = document(
        row.kind,
        t,
        lambda: events,
        row.round,
        base_url=base_url,
        codes=codes,
        lang=words.code,
    )
    seal = seal_for_sheet(store, f"print pack {row.kind} of {tid}").short
    footer = f"{tid} @{row.version}"
    if seal:
        footer += "   " + words.gettext("Seal %(seal)s", seal=seal)
    pdf, pages = renderer(found, footer)
    with engine.begin() as conn:
        conn.execute(
            sa.update(print_packs)
            .where(p.id == pack_id)
            .values(status=DONE, pdf=pdf, pages=pages, seal=seal, done_at=datetime.now(UTC))
        )
    return DONE
