"""A worker's connection to the broker that comes back as soon as Redis does.

Celery's consumer reconnects with kombu's default back-off (2, 4, 6 ... up to 30 s between
tries), so after an outage of a minute a worker could sit idle for half a minute more; the
standings would stay stale that long. This consumer tries every half second instead (a
connection attempt to a Redis that is not there costs nothing), so a worker is back within
about a second of Redis (issue 10: caught up within 5 s), however long Redis was away.

It also keeps the worker alive when Redis goes away while a task is running (trial 2,
operator F6 / attack F6). With a task unacknowledged (``acks_late``) and a free pool slot,
the task channel has a BRPOP outstanding. When the loss is noticed on another socket first
(the remote-control channel's subscription), Celery's clean-up
(``Consumer.on_connection_error_after_connected``) goes wrong in kombu's Redis transport:
``Connection.collect()`` tries to close the task channel, whose first ``close()`` only
reads the dead BRPOP reply and raises; it then closes the other channels, stops at the
first that cannot delete its fanout binding without Redis, and forgets the broker
(``transport.client = None``). The final ``Connection.close()`` closes the task channel
for real: restoring its unacknowledged message builds a new Redis pool from
``transport.client``, and ``AttributeError: 'NoneType' object has no attribute
'hostname'`` (``_connparams``) escapes Celery's consumer, which ends the worker
("Unrecoverable error"). :func:`close_channels` closes every channel first, while the
transport still knows its broker: each gets a second try, so the task channel gets past
the dead BRPOP and attempts its restore (which fails harmlessly while Redis is away: the
message stays in Redis's unacknowledged set and is delivered again after the visibility
timeout, and the sweep nudges the tournament well before that).
"""

from __future__ import annotations

import logging
from typing import Any

from celery.worker.consumer import Consumer

log = logging.getLogger(__name__)


def close_channels(connection: Any) -> None:
    """Close the channels of a kombu ``connection`` whose broker went away, each tried
    twice, ignoring the errors the broker's absence raises (see the module)."""
    transport = getattr(connection, "_transport", None)  # never make a new one here
    ignored = (*connection.connection_errors, *connection.channel_errors)
    for channel in list(getattr(transport, "channels", ())):
        for _attempt in range(2):
            try:
                channel.close()
                break
            except ignored:
                continue


class QuickReconnectConsumer(Consumer):  # type: ignore[misc]  # Celery is untyped
    first_connection_attempt: bool
    broker_connection_retry_attempt: int
    connection: Any

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        if self.connection is not None:
            close_channels(self.connection)
        super().on_connection_error_after_connected(exc)

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
