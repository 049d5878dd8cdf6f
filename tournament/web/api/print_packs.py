"""``/api/v1/tournaments/{tid}/print-packs``: PDFs to print, rendered away from the request.

``POST`` asks for a pack (``standings``, ``crosstable``, or a round's ``pairings``,
``table-cards`` or ``scoresheets``) of the tournament as it is now and answers ``202``
with the pack's status at once; the PDF renders in a worker (in a thread of this process
on a laptop). ``GET .../print-packs/{id}`` says how far it is; ``GET
.../print-packs/{id}/pdf`` is the PDF when done. Asking again for the same pack of the
same version in the same language gives the same pack: nothing renders twice.

A pack is German or English (``lang``). Without one it is the language of the page that
asks (a signed-in browser session: its ``?lang``/cookie/``Accept-Language``, as the pages
choose it), else German -- the clubs are Austrian; a script with a token gets German
unless it says ``"lang": "en"``.
"""

from __future__ import annotations

import logging
import threading
from typing import Literal

from flask import Response, current_app, jsonify
from flask_openapi3.models.tag import Tag
from pydantic import ConfigDict, Field

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain.model.errors import NotFoundError
from tournament.domain.views.roundview import drawn_round
from tournament.printing.language import DEFAULT
from tournament.printing.packs import ROUND_KINDS
from tournament.web.api.blueprint import APIBlueprint
from tournament.web.api.models import TID, Model, TournamentPath
from tournament.web.auth import caller, requires
from tournament.web.i18n import current_language
from tournament.web.live import live
from tournament.web.problems import Problem, documented, invalid
from tournament.web.public_url import qr_base

log = logging.getLogger(__name__)

# The print queue (tournament.printing.queue: SQLAlchemy) is imported in the views that
# use it: serve starts without it (speed P10).
api = APIBlueprint(
    "print_packs",
    __name__,
    url_prefix="/api/v1",
    abp_tags=[Tag(name="print", description="print packs (PDF), rendered in the background")],
)

PDF = "application/pdf"


class PackRequest(Model):
    # A round goes with the kinds of a round only, which the schema says (attack F14).
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "anyOf": [
                {"required": ["kind"], "properties": {"kind": {"enum": list(ROUND_KINDS)}}},
                {"properties": {"round": {"type": "null"}}},
            ]
        },
    )

    kind: Literal["standings", "pairings", "table-cards", "scoresheets", "crosstable"] = Field(
        description="standings: the table now with its tie-breaks; pairings: a round's "
        "tables; table-cards: a card per table of a round (number, players, who deals "
        "first, the public page's QR code); scoresheets: a blank scoresheet per table of a "
        "round; crosstable: who played whom (a matrix in a round robin, else per round)"
    )
    round: int | None = Field(
        None,
        ge=1,
        le=10_000,
        description="pairings, table-cards, scoresheets: the round (default: the current one)",
    )
    lang: Literal["de", "en"] | None = Field(
        None,
        description="the pack's language, German or English (default: the asking page's "
        "language for a signed-in browser session, else de); the same pack in the other "
        "language is another pack",
    )


class PackPath(Model):
    tid: str = TID
    pack_id: str = Field(min_length=36, max_length=36, description="the pack's id (a UUID)")


class PackStatus(Model):
    id: str
    tournament_id: str
    kind: str
    round: int | None
    version: int = Field(description="the tournament's version the pack shows")
    lang: Literal["de", "en"] = Field(description="the pack's language")
    status: Literal["queued", "rendering", "done", "failed"]
    pages: int | None
    seal: str | None = Field(description="the log's seal printed on every page")
    error: str | None
    requested_by: str
    requested_at: str
    done_at: str | None
    size: int | None = Field(description="the PDF's size in bytes, once done")
    pdf: str | None = Field(description="where the PDF is, once done")


@api.post(
    "/tournaments/<tid>/print-packs",
    summary="Ask for a print pack (PDF) of the tournament as it is now; renders in the background",
    responses={202: PackStatus, **documented([404, 422])},
)
@requires(Role.ORGANISER)
def request_print_pack(path: TournamentPath, body: PackRequest) -> Response:
    from tournament.printing.queue import request_pack

    service = services().tournaments
    t = service.state(path.tid)
    number = body.round
    if body.kind in ROUND_KINDS:
        try:
            number = drawn_round(t, body.round).number
        except NotFoundError as error:
            raise invalid("body.round", error.message, rule=error.rule) from None
    elif body.round is not None:
        raise invalid("body.round", f"a round goes with kind {', '.join(ROUND_KINDS)} only")
    who = caller()
    lang = body.lang or (current_language() if who.by_session else DEFAULT)
    pack, new = request_pack(
        services().store.engine, path.tid, body.kind, number, t.version, who.actor, lang
    )
    if new:
        # The table cards' QR code links the public page on the host the organiser used.
        _dispatch(pack.id, qr_base(find_lan=False) if body.kind == "table-cards" else None)
    return _status(path.tid, pack.id, 202)


@api.get(
    "/tournaments/<tid>/print-packs/<pack_id>",
    summary="How far a print pack is: queued, rendering, done (with the PDF's link), failed",
    responses={200: PackStatus, **documented([404])},
)
@requires(Role.ORGANISER)
def print_pack_status(path: PackPath) -> Response:
    return _status(path.tid, path.pack_id, 200)


@api.get(
    "/tournaments/<tid>/print-packs/<pack_id>/pdf",
    summary="The print pack's PDF (409 while it is not rendered yet)",
    responses={
        200: {"content": {PDF: {"schema": {"type": "string", "format": "binary"}}}},
        **documented([404, 409]),
    },
)
@requires(Role.ORGANISER)
def print_pack_pdf(path: PackPath) -> Response:
    from tournament.printing.queue import FAILED, get_pack, pack_pdf

    engine = services().store.engine
    pack = get_pack(engine, path.tid, path.pack_id)
    if pack is None:
        raise _no_pack(path.pack_id)
    pdf = pack_pdf(engine, path.tid, path.pack_id)
    if pdf is None:
        raise Problem(
            409,
            "Not rendered",
            f"print pack {path.pack_id} is {pack.status}"
            + (f": {pack.error}" if pack.status == FAILED else "; ask again in a moment"),
            headers={"Retry-After": "1"} if pack.status != FAILED else None,
        )
    response = Response(pdf, mimetype=PDF)
    round_part = f"-{pack.round}" if pack.round else ""
    name = f"{path.tid}-{pack.kind}{round_part}-{pack.version}-{pack.lang}"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}.pdf"'
    return response


def _status(tid: str, pack_id: str, status: int) -> Response:
    from tournament.printing.queue import DONE, FAILED, get_pack

    pack = get_pack(services().store.engine, tid, pack_id)
    if pack is None:
        raise _no_pack(pack_id)
    data = pack.to_json()
    data["pdf"] = (
        f"/api/v1/tournaments/{tid}/print-packs/{pack_id}/pdf" if pack.status == DONE else None
    )
    response = jsonify(data)
    response.status_code = status
    response.headers["Location"] = f"/api/v1/tournaments/{tid}/print-packs/{pack_id}"
    if pack.status not in (DONE, FAILED):
        response.headers["Retry-After"] = "1"
    return response


def _no_pack(pack_id: str) -> NotFoundError:
    return NotFoundError("pack_id", "T-input", f"there is no print pack {pack_id!r}")


def _dispatch(pack_id: str, base_url: str | None = None) -> None:
    """Render in a worker when there are workers (in this process if Redis is away), in a
    thread of this process on a laptop; at once under ``PROJECTIONS=inline`` (tests).
    ``base_url``: where the table cards' QR code points (``PUBLIC_URL``, else this server
    as the client reached it: :func:`tournament.web.public_url.qr_base`)."""
    from tournament.printing.queue import render_pack

    found = services()
    secret = str(current_app.config["SECRET_KEY"]).encode()  # the table codes' (T-code)
    if live().mode == "workers":
        from workers.printing import render_print_pack

        try:
            render_print_pack.apply_async((pack_id, base_url), retry=False)
            return
        except Exception as error:  # Redis away: render here rather than not at all
            log.warning("print pack %s not queued (rendering here): %s", pack_id, error)

    def run() -> None:
        render_pack(found.store, found.tournaments, pack_id, base_url, secret)

    if current_app.config.get("PROJECTIONS") == "inline":
        run()
    else:
        threading.Thread(target=run, name="print-pack", daemon=True).start()
