"""The projections' reads for the views (:mod:`tournament.web.projected`), whose module is
loaded on the first read: it brings SQLAlchemy and the projections' tables, a fifth of a
second of a ``tournament serve`` start that /healthz does not need (speed P10). A view
module imports these instead, so that importing the view costs nothing of it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

    from tournament.web.projected import Reading


def read_document(tid: str, name: str) -> Reading | None:
    """:func:`tournament.web.projected.read_document`."""
    from tournament.web.projected import read_document as read

    return read(tid, name)


def versions(tid: str) -> tuple[int, int, bool] | None:
    """:func:`tournament.web.projected.versions`."""
    from tournament.web.projected import versions as read

    return read(tid)


def held_fresh(app: Flask, tid: str, name: str) -> Reading | None:
    """:func:`tournament.web.projected.held_fresh`."""
    from tournament.web.projected import held_fresh as read

    return read(app, tid, name)
