"""A writer killed with SIGKILL mid-append: acknowledged events stay, no partial batch."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.eventstore.conftest import StoreDatabase
from tournament.eventstore import SQLEventStore
from tournament.eventstore.verify import verify

WORKER = Path(__file__).with_name("_worker.py")
BATCH = 7


def test_sigkill_mid_append(db: StoreDatabase, store: SQLEventStore) -> None:
    for attempt in range(3):  # three kills at different moments
        writer = subprocess.Popen(
            [sys.executable, str(WORKER), "batches", db.way, db.url, db.schema or "-", str(BATCH)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert writer.stdout is not None
        assert writer.stdout.readline().strip() == "ready"
        acked: list[tuple[str, int, int]] = []
        deadline = time.monotonic() + 30
        while len(acked) < 20 + 7 * attempt and time.monotonic() < deadline:
            _, stream, version, position = writer.stdout.readline().split()
            acked.append((stream, int(version), int(position)))
        writer.send_signal(signal.SIGKILL)  # while it is busy appending the next batch
        writer.wait(10)
        # Acks the writer printed before it died but we had not read yet count too.
        for line in writer.stdout.read().splitlines():
            _, stream, version, position = line.split()
            acked.append((stream, int(version), int(position)))
        assert acked
        for stream, version, position in acked:
            events = store.read_stream(stream)
            assert (
                [e.version for e in events] == list(range(1, BATCH + 1)) == [*range(1, version + 1)]
            )
            assert events[-1].position == position
    versions = {}
    for e in store.read_all():
        versions[e.stream_id] = e.version
    assert set(versions.values()) == {BATCH}  # every batch whole, none partial
    report = verify(store)
    assert report.ok, report.broken
