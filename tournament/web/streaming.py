"""Which views answer a long-lived Server-Sent Events stream (``text/event-stream``).

Every such view carries :func:`event_stream` (under its route decorator), so that the
app itself says which of its routes are streams: the deploy's proxy must send exactly
those to the gevent stream processes (deploy/nginx.conf, docs/deploy.md "Routing"), and
a test reads the URL map with :func:`is_event_stream` and checks each route against the
proxy's locations. A stream route without the mark would be sent to the gthread
processes, where each stream holds a thread for hours (operator F1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

#: The media type of a Server-Sent Events stream.
EVENT_STREAM = "text/event-stream"
#: The attribute :func:`event_stream` sets on a view (kept through ``functools.wraps``).
MARK = "answers_event_stream"

View = TypeVar("View", bound=Callable[..., Any])


def event_stream(view: View) -> View:
    """Mark ``view`` as one that answers a long-lived ``text/event-stream``."""
    setattr(view, MARK, True)
    return view


def is_event_stream(view: Callable[..., Any]) -> bool:
    """Whether ``view`` (or a view it wraps) carries :func:`event_stream`."""
    seen: Any = view
    while seen is not None:
        if getattr(seen, MARK, False):
            return True
        seen = getattr(seen, "__wrapped__", None)
    return False
