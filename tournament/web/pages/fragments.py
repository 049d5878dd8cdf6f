"""Parts of pages rendered once per version of what they show (trial 9, P1 and section
7): the public standings table of 200 players was two thirds of its page's 82 ms of CPU,
rendered anew for every phone although it changes only with a result.

A key names everything the part depends on -- the tournament, the versions it shows, the
reader's language, the query that shapes it -- so a part is never shown for another
state than the one it was rendered from; a new version is a new key, and the oldest
keys make room (a bounded number per process).

    >>> parts = Fragments(size=2)
    >>> parts.get(("standings", "cup", 12, "de"), lambda: "<table>12</table>")
    Markup('<table>12</table>')
    >>> parts.get(("standings", "cup", 12, "de"), lambda: "made again?")
    Markup('<table>12</table>')
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import current_app, request
from flask_babel import get_locale
from markupsafe import Markup

KEY = "schnapsen_fragments"


class Fragments:
    """The last ``size`` parts rendered, by key."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._parts: OrderedDict[Hashable, Markup] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, render: Callable[[], str]) -> Markup:
        with self._lock:
            part = self._parts.get(key)
            if part is not None:
                self._parts.move_to_end(key)
                return part
        part = Markup(render())  # outside the lock: two first readers may both render
        with self._lock:
            self._parts[key] = part
            while len(self._parts) > self.size:
                self._parts.popitem(last=False)
        return part


def fragment(key: tuple[Hashable, ...], render: Callable[[], str]) -> Markup:
    """``render()`` once per ``key`` and reader's language (and where the app is mounted:
    the part's links), in this app."""
    parts: Fragments = current_app.extensions.setdefault(KEY, Fragments())
    return parts.get((*key, str(get_locale()), request.script_root), render)
