"""Tournaments of every format for the public pages' tests, set up through the app's own
service (tests/web/played.py), and reading a page as the tests of /t/<tid> do."""

from __future__ import annotations

import random

from tests.web.conftest import Web
from tests.web.played import NAMES, play_round, register


def page(web: Web, path: str, status: int = 200) -> str:
    reply = web.client.get(path)
    assert reply.status_code == status, reply.get_data(as_text=True)
    assert reply.mimetype == "text/html"
    html: str = reply.get_data(as_text=True)
    return html


def played(web: Web, tid: str, fmt: str, rounds: int, **options: int) -> str:
    """Eight players in format ``fmt``, best of 3, ``rounds`` rounds played: the first by
    forfeit (the lower start number wins), the rest with Bummerl and hands."""
    web.tournament(tid, format=fmt, best_of=3, seed=5, options=options)
    register(web, tid, NAMES)
    rng = random.Random(5)
    for number in range(rounds):
        play_round(web, tid, rng, forfeits=number == 0)
    return tid
