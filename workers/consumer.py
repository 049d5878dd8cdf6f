"""A worker's connection to the broker that comes back as soon as Redis does.

Celery's consumer reconnects with kombu's default back-off (2, 4, 6 ... up to 30 s between
tries), so after an outage of a minute a worker could sit idle for half a minute more; the
standings would stay stale that long. This consumer tries every half second instead (a
connection attempt to a Redis that is not there costs nothing), so a worker is back within
about a second of Redis (issue 10: caught up within 5 s), however long Redis was away.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.worker.consumer import Consumer

log = logging.getLogger(__name__)


class QuickReconnectConsumer(Consumer):  # type: ignore[misc]  # Celery is untyped
    first_connection_attempt: bool
    broker_connection_retry_attempt: int

    def ensure_connected(self, conn: Any) -> Any:
        from celery.worker.state import maybe_shutdown

        if self.first_connection_attempt and not self.app.conf.broker_connection_retry_on_startup:
            return super().ensure_connected(conn)

        tries = 0

        def _error_handler(exc: Exception, interval: float) -> None:
            nonlocal tries
            tries += 1
            if tries == 1 or tries % 60 == 0:  # a line when it starts, then every 30 s
                log.error(
                    "consumer: cannot reach %s (%d tries): %s; trying every %.1fs",
                    conn.as_uri(), tries, exc, 0.5,
                )  # fmt: skip

        conn = conn.ensure_connection(
            _error_handler,
            # Forever: Celery's limit (broker_connection_max_retries, 100) was made for
            # its back-off, where 100 tries last most of an hour; at two tries a second
            # it would end the worker ("Unrecoverable error") after 50 s without Redis.
            None,
            interval_start=0,
            interval_step=0.5,
            interval_max=0.5,
            callback=maybe_shutdown,
        )
        self.first_connection_attempt = False
        self.broker_connection_retry_attempt = 0
        return conn
