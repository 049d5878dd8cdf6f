"""A writer in its own process, for the multi-process and SIGKILL tests.

Every mode opens the store the way its test does: WAY ``url`` (a SQLite file by its URL,
through the sqlite3 module) or ``engine`` (an engine from make_engine; SCHEMA, unless
``-``, is PostgreSQL's search path).

python tests/eventstore/_worker.py race WAY URL SCHEMA STREAM WRITER COUNT
    append COUNT events to STREAM, each with the version just read, retrying on
    ConcurrencyError; prints {"wins": COUNT, "conflicts": n} at the end
python tests/eventstore/_worker.py decide WAY URL SCHEMA STREAM WRITER COUNT
    append COUNT events to STREAM with append_decided, each recording (metadata
    "decided_on") the stream version its decision saw; prints {"appended": COUNT,
    "conflicts": n} (n must be 0: under the stream's lock nobody appends in between)
python tests/eventstore/_worker.py once WAY URL SCHEMA STREAM KEY
    append two events to STREAM with idempotency key KEY; prints their event ids
python tests/eventstore/_worker.py spread WAY URL SCHEMA WRITER COUNT STREAMS
    append COUNT events over STREAMS streams of its own (WRITER-0 ...), each append with
    the expected version and an idempotency key, every fifth a batch of 3; seals the log
    as the service does (every 1,000 events); prints {"appended": COUNT}
python tests/eventstore/_worker.py batches WAY URL SCHEMA BATCH
    append batches of BATCH events to fresh streams forever, printing
    "ack STREAM VERSION POSITION" after each append returns (until killed)
"""

from __future__ import annotations

import json
import sys
import uuid

import sample  # noqa: F401  (run as a script: registers the sample event types)

from tournament.db import make_engine
from tournament.eventstore import ConcurrencyError, NewEvent, SQLEventStore, StoredEvent


def event(writer: str, n: int) -> NewEvent:
    return NewEvent("sample.moved", {"seat": n % 2, "action": "close"}, {"actor": writer})


def main(argv: list[str]) -> None:
    mode, way, url, schema, *args = argv
    kwargs = {"connect_args": {"options": f"-csearch_path={schema}"}} if schema != "-" else {}
    store = SQLEventStore(make_engine(url, **kwargs) if way == "engine" else url)
    if mode == "race":
        stream, writer, count = args[0], args[1], int(args[2])
        wins = conflicts = 0
        while wins < count:
            version = store.stream_version(stream)
            try:
                store.append(stream, [event(writer, wins)], expected_version=version)
                wins += 1
            except ConcurrencyError:
                conflicts += 1
        print(json.dumps({"wins": wins, "conflicts": conflicts}), flush=True)
    elif mode == "decide":
        stream, writer, count = args[0], args[1], int(args[2])
        seen, appended, conflicts = 0, 0, 0

        def decide(since: list[StoredEvent]) -> list[NewEvent]:
            nonlocal seen
            seen = since[-1].version if since else seen
            return [NewEvent(
                "sample.moved", {"seat": 0, "action": "close"},
                {"actor": writer, "decided_on": seen},
            )]  # fmt: skip

        while appended < count:
            try:
                seen = store.append_decided(stream, decide, after_version=seen).events[-1].version
                appended += 1
            except ConcurrencyError:
                conflicts += 1
        print(json.dumps({"appended": appended, "conflicts": conflicts}), flush=True)
    elif mode == "spread":
        from tournament.eventstore.seals import SealPolicy

        store.sealing = SealPolicy.from_environment()
        writer, count, streams = args[0], int(args[1]), int(args[2])
        versions = [0] * streams
        appended = n = 0
        while appended < count:
            i = n % streams
            size = min(3 if n % 5 == 4 else 1, count - appended)
            batch = [event(writer, appended + j) for j in range(size)]
            store.append(f"{writer}-{i}", batch, versions[i], idempotency_key=f"{writer}:{n}")
            versions[i] += size
            appended += size
            n += 1
        print(json.dumps({"appended": appended}), flush=True)
    elif mode == "once":
        stream, key = args[0], args[1]
        stored = store.append(stream, [event("once", 0), event("once", 1)], None, key)
        print(json.dumps([str(e.event_id) for e in stored]), flush=True)
    elif mode == "batches":
        size = int(args[0])
        print("ready", flush=True)
        while True:
            stream = f"crash-{uuid.uuid4().hex[:8]}"
            stored = store.append(stream, [event("crash", i) for i in range(size)], 0)
            print(f"ack {stream} {stored[-1].version} {stored[-1].position}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
