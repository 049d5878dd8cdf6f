"""Print packs asked for, rendered once, kept: ``proj_print_packs``.

A request stores a queued pack and returns at once; the rendering happens in a Celery
worker on a server (``workers.tasks.render_print_pack``) or in a background thread of the
web process on a laptop, never in the request (a federation's standings or a round of
five hundred tables takes seconds). The same pack asked again for the same version of the
tournament in the same language is the same pack: nothing is rendered twice (German and
English of one version are two packs, each rendered once). A rendering run may be delivered
twice (a worker killed mid-way); it renders only a pack still queued or rendering, and the
last write wins with identical bytes.
"""

from __future__ import annotations

import dataclasses
import logging
import uuid
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from tournament.domain import events as ev
from tournament.domain.service import TournamentService
from tournament.domain.tablecodes import round_codes
from tournament.eventstore.sheet_seal import seal_for_sheet
from tournament.eventstore.store import SQLEventStore
from tournament.printing.language import DEFAULT, LANGUAGES, language
from tournament.printing.packs import KINDS, document, render
from tournament.projections.tables import print_packs

log = logging.getLogger(__name__)

QUEUED, RENDERING, DONE, FAILED = "queued", "rendering", "done", "failed"


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
) -> tuple[Pack, bool]:
    """The pack of ``kind`` for ``tid`` at ``version`` in language ``lang``: the one
    asked for before (not failed), or a new queued one; and whether it is new."""
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
            return Pack(**found._mapping), False
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
    pack = get_pack(engine, tid, pack_id)
    assert pack is not None
    return pack, True


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
) -> str:
    """Render a queued pack and store its PDF; its status afterwards. ``base_url``: where
    the public pages are, for the table cards' QR code (without it they print none);
    ``secret``: the key the table codes are worked out with (T-code; the app's
    ``SECRET_KEY``), so the table cards print each seat's code (without it, none)."""
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
    try:
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
        pdf, pages = render(found, footer)
    except Exception as error:  # the request's status says what went wrong
        log.warning("print pack %s of %s failed: %s", pack_id, tid, error)
        with engine.begin() as conn:
            conn.execute(
                sa.update(print_packs)
                .where(p.id == pack_id)
                .values(status=FAILED, error=str(error)[:2000], done_at=datetime.now(UTC))
            )
        return FAILED
    with engine.begin() as conn:
        conn.execute(
            sa.update(print_packs)
            .where(p.id == pack_id)
            .values(status=DONE, pdf=pdf, pages=pages, seal=seal, done_at=datetime.now(UTC))
        )
    return DONE
