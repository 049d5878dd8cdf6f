"""Flask-Limiter made on first use (start-up speed, speed P10).

Importing Flask-Limiter brings ``limits`` and ``asyncio`` (~0.12 s of CPU of a
``tournament serve`` start), for limits that only the sign-in and table-code routes
check. :class:`LazyLimiter` stands in its place from the start: the views it limits are
wrapped at once (:meth:`LazyLimiter.decorate`), and the first call of any of them makes the
limiter and the view's limits, before the view runs, so the first request is limited as
every later one. The limiter's own after-request and teardown hooks are this object's,
registered at start (a Flask app takes no new hooks once it served a request); until the
limiter exists they have nothing to do, since no limit was checked.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask import Flask
from werkzeug.wrappers import Response

if TYPE_CHECKING:
    from flask_limiter import Limiter

View = Callable[..., Any]
#: Given the limiter, what wraps a view in its limits.
Limits = Callable[["Limiter"], Callable[[View], View]]


class LazyLimiter:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self._limiter: Limiter | None = None
        self._lock = threading.RLock()
        app.after_request(self._inject_headers)
        app.teardown_request(self._release_context)

    @property
    def limiter(self) -> Limiter:
        """The limiter (made now if not yet): per address, headers on, its storage from
        ``RATELIMIT_STORAGE_URI`` (memory on a laptop, Redis on a server)."""
        with self._lock:
            if self._limiter is None:
                from flask_limiter import Limiter
                from flask_limiter.util import get_remote_address

                made = Limiter(
                    get_remote_address,
                    default_limits=[],
                    headers_enabled=True,
                    storage_uri=self.app.config["RATELIMIT_STORAGE_URI"],
                )
                # Its hooks are this object's: init_app adds none for a limiter it finds
                # among the app's (and would fail to after the first request).
                self.app.extensions.setdefault("limiter", set()).add(made)
                made.init_app(self.app)
                self._limiter = made
            return self._limiter

    def decorate(self, limits: Limits, view: View) -> View:
        """``view`` limited by ``limits(limiter)``, worked out on its first call."""
        wrapped: list[View] = []

        @functools.wraps(view)
        def limited(*args: Any, **kwargs: Any) -> Any:
            if not wrapped:
                with self._lock:
                    if not wrapped:
                        wrapped.append(limits(self.limiter)(view))
            return wrapped[0](*args, **kwargs)

        return limited

    def _inject_headers(self, response: Response) -> Response:
        if self._limiter is None:
            return response
        inject: Callable[[Response], Response] = self._limiter._Limiter__inject_headers  # type: ignore[attr-defined]
        return inject(response)

    def _release_context(self, error: BaseException | None = None) -> None:
        if self._limiter is not None:
            self._limiter._Limiter__release_context(error)  # type: ignore[attr-defined]
