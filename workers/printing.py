"""The workers' print packs: render a queued pack (tournament/printing/queue.py)."""

from __future__ import annotations

from celery import shared_task
from flask import current_app

from tournament.app.services import services
from tournament.printing.queue import render_pack


@shared_task(
    name="workers.printing.render_print_pack",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def render_print_pack(pack_id: str, base_url: str | None = None) -> str:
    """Render pack ``pack_id`` if it is still queued (a redelivery renders it again, with
    the same bytes); ``base_url``: where the table cards' QR code points. Its status
    afterwards."""
    found = services()
    # The worker runs in the app's context (workers.celery_app): the same SECRET_KEY
    # works out the table cards' codes (T-code), never sent through the broker.
    secret = str(current_app.config["SECRET_KEY"]).encode()
    return render_pack(found.store, found.tournaments, pack_id, base_url, secret)
