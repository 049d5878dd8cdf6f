"""What a process remembers briefly of its accounts: whose a token is, and an account's
role in a tournament (never a session's generation: a sign-out counts at once). Every
API request asked the database twice (the token, then the role) before its own work
began: 21 % of a result POST's CPU (trial 9, P1/P2).

How long a change takes to reach a process that remembers:

- in the process that made it (a revoked token, a role granted or taken back through the
  same :class:`~tournament.accounts.service.Accounts`): at once, since every write
  forgets everything remembered;
- in another process (another gunicorn worker or host, the ``tournament`` command): at
  most ``seconds`` later (the web app's ``AUTH_CACHE_SECONDS``, 5 by default; 0 turns
  remembering off).

Only what exists is remembered: an unknown token, and an account's lack of a role in a
tournament, are asked for again each time (a token made or a role granted to an account
that had none, in another process, works at once; a role raised there, from scorer to
organiser, within ``seconds``).

    >>> memory = Remembered(5.0, clock=lambda: 100.0)
    >>> before = memory.generation
    >>> memory.put(("role", 1, "cup"), 2, before)
    >>> memory.get(("role", 1, "cup"))
    2
    >>> memory.forget()
    >>> memory.get(("role", 1, "cup")) is None
    True
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import Any


class Remembered:
    """Values by key for ``seconds`` each, all forgotten at once by :meth:`forget`."""

    #: Entries kept at most: past it everything is forgotten (a flood of distinct tokens
    #: must not grow the process).
    LIMIT = 10_000

    def __init__(self, seconds: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._entries: dict[Hashable, tuple[float, Any]] = {}
        self._lock = threading.Lock()
        #: Moves on with every :meth:`forget`: a value read from the database before a
        #: write (in another thread) is not remembered after it.
        self.generation = 0

    def get(self, key: Hashable) -> Any | None:
        if self.seconds <= 0:
            return None
        found = self._entries.get(key)
        if found is None:
            return None
        until, value = found
        if self._clock() >= until:
            return None
        return value

    def put(self, key: Hashable, value: Any, generation: int) -> None:
        """Remember ``value``, read while :attr:`generation` was ``generation``."""
        if self.seconds <= 0:
            return
        with self._lock:
            if generation != self.generation:
                return  # a write came between the read and now: the value may be old
            if len(self._entries) >= self.LIMIT:
                self._entries.clear()
            self._entries[key] = (self._clock() + self.seconds, value)

    def forget(self) -> None:
        with self._lock:
            self.generation += 1
            self._entries.clear()
