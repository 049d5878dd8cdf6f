"""bench/live_fanout.py's baseline: the live process's app with every connecting stream
reading the versions itself, as before the connects of one second shared one reading
(tournament/web/api/live.py, ``_where_on_connect``). Run as ``--live-app
bench.live_fanout_baseline:app``; nothing of the service imports it."""

from __future__ import annotations

from typing import Any

from tournament.web.api import live as live_api
from tournament.web.projected import versions


def _each_its_own(hub: Any, tid: str) -> tuple[int, int, bool] | None:
    return versions(tid)


live_api._where_on_connect = _each_its_own  # type: ignore[assignment]

from tournament.web.wsgi import app  # noqa: E402  (after the patch: the app's view uses it)

__all__ = ["app"]
