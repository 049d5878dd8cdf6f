"""The global log under a federation's Saturday (PostgreSQL): 8 writer processes append
at once while a reader tails the log, and the reader sees every event exactly once, in
position order, although appends to different streams commit side by side and take their
positions before they commit (migration 0003; docs/event-store.md, "Concurrent appends").
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict

import pytest

from tests.eventstore.conftest import StoreDatabase
from tests.eventstore.test_concurrency import _worker
from tournament.eventstore import SQLEventStore
from tournament.eventstore.seals import available_key
from tournament.eventstore.verify import verify

#: 8, not 16: each writer holds two connections (its pool's and the append one), and the
#: suite stays under 40 PostgreSQL connections with the other xdist worker's test beside it.
WRITERS = 8
EACH = 4_800  # 38,400 events in all
STREAMS = 4  # per writer

#: A reliability test of ~80 s: run by CI's slow set (.ci/run), not by `./dev test`.
pytestmark = pytest.mark.slow


def test_a_tailing_reader_sees_every_event_once_in_order_while_8_processes_append(
    pg_db: StoreDatabase,
) -> None:
    db = StoreDatabase(**{**pg_db.__dict__, "through_engine": True})
    store = SQLEventStore(db.engine())
    seen: list[int] = []
    done = threading.Event()
    errors: list[BaseException] = []

    def tail() -> None:
        after = 0
        try:
            while True:
                finished = done.is_set()  # read once more after the writers ended
                page = store.read_all(after, 1000)
                seen.extend(e.position for e in page)
                after = page[-1].position if page else after
                if finished and not page:
                    return
        except BaseException as error:  # pragma: no cover
            errors.append(error)

    reader = threading.Thread(target=tail, daemon=True)
    reader.start()
    writers = [_worker(db, "spread", f"w{i}", str(EACH), str(STREAMS)) for i in range(WRITERS)]
    outputs = [json.loads(w.communicate(timeout=600)[0]) for w in writers]
    assert [w.returncode for w in writers] == [0] * WRITERS
    assert sum(o["appended"] for o in outputs) == WRITERS * EACH
    done.set()
    reader.join(timeout=120)
    assert not reader.is_alive() and not errors, errors

    log = list(store.iter_all(batch_size=5000))
    assert len(seen) == len(set(seen)) == WRITERS * EACH  # 0 skipped, 0 duplicated
    assert seen == sorted(seen)  # in position order
    assert seen == [e.position for e in log]
    versions: dict[str, list[int]] = defaultdict(list)
    for e in log:
        versions[e.stream_id].append(e.version)
    assert len(versions) == WRITERS * STREAMS
    assert all(v == list(range(1, len(v) + 1)) for v in versions.values())  # dense
    # The writers sealed the log as they went: every seal matches it.
    report = verify(store, key=available_key())
    assert report.ok and report.seals >= 1 and not report.unchecked, report.broken[:3]
    store.engine.dispose()
