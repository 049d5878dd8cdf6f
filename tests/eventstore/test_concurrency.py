"""Reliability under concurrency: racing writers, several processes, a tailing reader.

Run on SQLite and PostgreSQL. Nothing here asserts timings.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.databases import Database
from tests.eventstore.conftest import StoreDatabase
from tournament.eventstore import ConcurrencyError, NewEvent, SQLEventStore, pg_append
from tournament.eventstore.postgres_backend import _append_result, _es_append_params
from tournament.eventstore.sqlite_backend import SQLiteBackend

WORKER = Path(__file__).with_name("_worker.py")


def event(writer: int | str, n: int = 0) -> NewEvent:
    return NewEvent("sample.moved", {"seat": n % 2, "action": "close"}, {"actor": str(writer)})


def test_twenty_threads_race_for_each_version(store: SQLEventStore) -> None:
    """All 20 threads append with the version they read: exactly one wins each round."""
    threads, rounds = 20, 5
    barrier = threading.Barrier(threads, timeout=60)
    outcomes: list[tuple[int, str]] = []  # (round, "win" | "conflict")
    errors: list[BaseException] = []
    lock = threading.Lock()

    def writer(i: int) -> None:
        try:
            for r in range(rounds):
                barrier.wait()
                version = store.stream_version("race")
                barrier.wait()  # everyone has read the same version before anyone appends
                try:
                    store.append("race", [event(i, r)], expected_version=version)
                    result = "win"
                except ConcurrencyError as error:
                    assert error.expected == version and error.actual == version + 1
                    result = "conflict"
                with lock:
                    outcomes.append((r, result))
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
            barrier.abort()

    pool = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert not errors, errors
    per_round = Counter(r for r, result in outcomes if result == "win")
    assert per_round == dict.fromkeys(range(rounds), 1)
    assert sum(1 for _, result in outcomes if result == "conflict") == rounds * (threads - 1)
    assert [e.version for e in store.read_stream("race")] == list(range(1, rounds + 1))


def test_twenty_threads_free_running(store: SQLEventStore) -> None:
    """Retry on conflict until each thread got its events in: no version lost or doubled."""
    threads, each = 20, 4
    conflicts = Counter[int]()
    errors: list[BaseException] = []

    def writer(i: int) -> None:
        try:
            wins = 0
            while wins < each:
                version = store.stream_version("free")
                try:
                    store.append("free", [event(i, wins)], expected_version=version)
                    wins += 1
                except ConcurrencyError:
                    conflicts[i] += 1
        except BaseException as error:  # pragma: no cover
            errors.append(error)

    pool = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert not errors, errors
    events = store.read_stream("free")
    assert [e.version for e in events] == list(range(1, threads * each + 1))
    assert Counter(e.metadata["actor"] for e in events) == {str(i): each for i in range(threads)}


def _worker(db: StoreDatabase, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKER), args[0], db.way, db.url, db.schema or "-", *args[1:]],
        stdout=subprocess.PIPE,
        text=True,
    )


def test_processes_race_on_one_stream(db: StoreDatabase, store: SQLEventStore) -> None:
    processes, each = 4, 15
    workers = [_worker(db, "race", "procs", f"p{i}", str(each)) for i in range(processes)]
    results = [json.loads(w.communicate(timeout=120)[0]) for w in workers]
    assert all(w.returncode == 0 for w in workers)
    assert all(r["wins"] == each for r in results)
    events = store.read_stream("procs")
    assert [e.version for e in events] == list(range(1, processes * each + 1))
    assert Counter(e.metadata["actor"] for e in events) == {f"p{i}": each for i in range(processes)}


def test_processes_deciding_under_the_stream_lock_never_conflict(
    db: StoreDatabase, store: SQLEventStore
) -> None:
    """Each decision is made on the stream's newest version: nobody appends in between,
    so no writer ever loses a race (no ConcurrencyError, no retry)."""
    processes, each = 4, 15
    workers = [_worker(db, "decide", "decided", f"p{i}", str(each)) for i in range(processes)]
    results = [json.loads(w.communicate(timeout=120)[0]) for w in workers]
    assert all(w.returncode == 0 for w in workers)
    assert results == [{"appended": each, "conflicts": 0}] * processes
    events = store.read_stream("decided")
    assert [e.metadata["decided_on"] for e in events] == list(range(processes * each))


def test_threads_deciding_under_the_stream_lock_see_every_earlier_append(
    store: SQLEventStore,
) -> None:
    threads, each = 12, 5
    errors: list[BaseException] = []

    def writer(i: int) -> None:
        seen = 0

        def decide(since: list[Any]) -> list[NewEvent]:
            nonlocal seen
            seen = since[-1].version if since else seen
            return [NewEvent("sample.moved", {"seat": 1, "action": "close"},
                             {"actor": str(i), "decided_on": seen})]  # fmt: skip

        try:
            for _ in range(each):
                seen = store.append_decided("t", decide, after_version=seen).events[-1].version
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    pool = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert not errors, errors
    events = store.read_stream("t")
    assert [e.metadata["decided_on"] for e in events] == list(range(threads * each))


def test_a_stream_lock_holds_up_no_other_stream(pg_db: Database) -> None:
    """PostgreSQL: a decision in progress on one tournament keeps nobody else waiting
    (SQLite has a single writer: there every write waits)."""
    store = SQLEventStore(pg_db.engine())
    deciding, release = threading.Event(), threading.Event()

    def slow(since: list[Any]) -> list[NewEvent]:
        deciding.set()
        release.wait(10)
        return [event("slow")]

    holder = threading.Thread(target=store.append_decided, args=("a", slow))
    holder.start()
    assert deciding.wait(10)
    try:
        store.append_decided("b", lambda since: [event("quick")])  # not blocked by "a"
        store.append("c", [event("plain")], None)
        assert [e.stream_id for e in store.read_all()] == ["b", "c"]
    finally:
        release.set()
        holder.join(10)
    assert [e.stream_id for e in store.read_all()] == ["b", "c", "a"]
    store.engine.dispose()


def test_a_plain_append_waits_for_a_decision_on_its_stream_and_then_conflicts(
    pg_db: Database,
) -> None:
    """PostgreSQL: every append takes its stream's lock, so a plain append with an
    expected version waits while another writer decides on that stream, and then finds
    the stream moved (409), instead of slipping in between the read and the append."""
    store = SQLEventStore(pg_db.engine())
    deciding, release = threading.Event(), threading.Event()
    outcome: dict[str, BaseException | None] = {}

    def slow(since: list[Any]) -> list[NewEvent]:
        deciding.set()
        release.wait(10)
        return [event("decided")]

    def run(name: str, call: Callable[[], object]) -> threading.Thread:
        def target() -> None:
            try:
                call()
                outcome[name] = None
            except BaseException as error:
                outcome[name] = error

        thread = threading.Thread(target=target)
        thread.start()
        return thread

    holder = run("decided", lambda: store.append_decided("s", slow))
    assert deciding.wait(10)
    plain = run("plain", lambda: store.append("s", [event("plain")], expected_version=0))
    plain.join(0.3)
    assert plain.is_alive(), "the plain append did not wait for the stream's lock"
    release.set()
    holder.join(10)
    plain.join(10)
    error = outcome["plain"]
    assert outcome["decided"] is None
    assert isinstance(error, ConcurrencyError) and (error.expected, error.actual) == (0, 1)
    assert [e.metadata["actor"] for e in store.read_stream("s")] == ["decided"]
    store.engine.dispose()


def test_idempotency_key_across_processes(db: StoreDatabase, store: SQLEventStore) -> None:
    """A client that retries from a new process (after a crash, a deploy) stores nothing
    twice and gets the first result back."""
    first, again = (
        json.loads(_worker(db, "once", "orders", "key-1").communicate(timeout=60)[0])
        for _ in range(2)
    )
    assert first == again
    assert [str(e.event_id) for e in store.read_stream("orders")] == first


@contextmanager
def before_commit(store: SQLEventStore, pause: Callable[[], object]) -> Iterator[None]:
    """Call ``pause()`` inside each append's transaction, after its INSERTs and before its
    COMMIT: the moment at which a log numbered by a sequence would show a hole."""
    backend = store._backend
    if isinstance(backend, SQLiteBackend):
        original = backend.write

        @contextmanager
        def write() -> Iterator[object]:
            with original() as tx:
                yield tx
                pause()

        backend.write = write  # type: ignore[method-assign]
        try:
            yield
        finally:
            backend.write = original  # type: ignore[method-assign]
        return

    connect = backend._connect
    plain_append = backend.append

    def lingering(
        stream_id: str, events: Any, expected: Any, key: Any, now: Any
    ) -> Any:  # es_append() as the store calls it, in an explicit transaction, paused
        params = _es_append_params(stream_id, events, expected, key)
        with connect() as conn, conn.transaction():
            row = pg_append.call(conn, params)
            pause()
        return _append_result([row])

    backend.append = lingering  # type: ignore[method-assign]
    try:
        yield
    finally:
        backend.append = plain_append  # type: ignore[method-assign]


def test_tailing_reader_never_skips_an_event(store: SQLEventStore) -> None:
    """Writers append to their own streams while a reader tails the global log with a
    checkpoint: the reader must see every position, in order, with no hole."""
    writers, appends = 6, 40
    done = threading.Event()
    seen: list[int] = []
    errors: list[BaseException] = []

    def write(i: int) -> None:
        try:
            rng = random.Random(i)
            for n in range(appends):
                batch = [event(i, k) for k in range(rng.randint(1, 4))]
                store.append(f"w{i}", batch, expected_version=None)
                if n % 7 == 0:
                    time.sleep(0.001)
        except BaseException as error:  # pragma: no cover
            errors.append(error)

    def tail() -> None:
        checkpoint = 0
        try:
            while True:
                finished = done.is_set()  # read before the page: nothing can be left behind
                for e in store.read_all(after_position=checkpoint, limit=50):
                    # Dense positions: the next one must follow the checkpoint directly.
                    assert e.position == checkpoint + 1, (checkpoint, e.position)
                    seen.append(e.position)
                    checkpoint = e.position
                if finished and checkpoint == total[0]:
                    return
        except BaseException as error:
            errors.append(error)

    total = [-1]

    def sometimes() -> None:
        if random.random() < 0.3:
            time.sleep(0.005)

    with before_commit(store, sometimes):
        reader = threading.Thread(target=tail, daemon=True)  # never outlives a failure
        reader.start()
        pool = [threading.Thread(target=write, args=(i,)) for i in range(writers)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        log = store.read_all()
        total[0] = log[-1].position if log else 0
        done.set()
        reader.join(timeout=60)
        assert not reader.is_alive(), "the reader never caught up"
    assert not errors, errors
    log = store.read_all()
    assert seen == [e.position for e in log] == list(range(1, len(log) + 1))
    for i in range(writers):
        assert [e.version for e in store.read_stream(f"w{i}")] == list(
            range(1, store.stream_version(f"w{i}") + 1)
        )


def test_a_tailing_reader_never_skips_a_decided_append(store: SQLEventStore) -> None:
    """Decided appends take the append lock inside the stream's transaction: positions
    stay dense and become visible in order, as for plain appends."""
    writers, appends = 4, 25
    done = threading.Event()
    errors: list[BaseException] = []
    seen: list[int] = []

    def write(i: int) -> None:
        try:
            for n in range(appends):
                store.append_decided(f"d{i % 2}", lambda since, n=n: [event(i, n)])
        except BaseException as error:  # pragma: no cover
            errors.append(error)

    def tail() -> None:
        checkpoint = 0
        try:
            while True:
                finished = done.is_set()
                for e in store.read_all(after_position=checkpoint, limit=50):
                    assert e.position == checkpoint + 1, (checkpoint, e.position)
                    seen.append(e.position)
                    checkpoint = e.position
                if finished and checkpoint == writers * appends:
                    return
        except BaseException as error:
            errors.append(error)

    reader = threading.Thread(target=tail, daemon=True)
    reader.start()
    pool = [threading.Thread(target=write, args=(i,)) for i in range(writers)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    done.set()
    reader.join(timeout=60)
    assert not errors, errors
    assert seen == list(range(1, writers * appends + 1))


def test_an_uncommitted_append_holds_back_later_ones(store: SQLEventStore) -> None:
    """While one append sits between its INSERT and its COMMIT, a reader of the log sees
    nothing after the last event before it, even an append to another stream that has
    committed meanwhile with a later position: that may not become visible first. On
    SQLite the other append waits for the lock; on PostgreSQL it commits (appends to
    different streams share commits) and the reader holds it back."""
    store.append("a", [event(0)], None)
    entered, release = threading.Event(), threading.Event()
    first = threading.Thread(target=store.append, args=("a", [event(1)], None))
    with before_commit(store, lambda: (entered.set(), release.wait(10))):
        first.start()
        assert entered.wait(10)
    second = threading.Thread(target=store.append, args=("b", [event(2)], None))
    second.start()
    second.join(0.3)
    one_writer = isinstance(store._backend, SQLiteBackend)
    assert second.is_alive() is one_writer
    assert [e.position for e in store.read_all()] == [1]
    release.set()
    first.join(10)
    second.join(10)
    assert [(e.stream_id, e.position) for e in store.read_all()] == [("a", 1), ("a", 2), ("b", 3)]


def test_import_takes_the_same_lock_as_append(store: SQLEventStore) -> None:
    """Backend.write() (import's way in) and append serialise on one lock."""
    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        with store._backend.write():
            entered.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert entered.wait(10)
    appender = threading.Thread(target=store.append, args=("s", [event(0)], None))
    appender.start()
    time.sleep(0.2)
    assert appender.is_alive()  # waiting for the lock the holder has
    release.set()
    holder.join(10)
    appender.join(10)
    assert not appender.is_alive()
    assert [e.position for e in store.read_all()] == [1]


def test_an_error_never_leaves_the_append_lock_held_by_a_pooled_connection(
    pg_db: Database,
) -> None:
    """es_append() holds the append lock at session level for a few statements; should an
    error (a cancel) strike among them, the store releases the session's locks before the
    connection goes back to the pool, so no other writer waits forever."""
    store = SQLEventStore(pg_db.engine(pool_size=1, max_overflow=0))
    key = "(1396918350::bigint << 32) | ('es_events'::regclass::oid)::bigint"
    try:
        with store._backend._connect() as conn:
            conn.execute(f"SELECT pg_advisory_lock({key})")
            raise RuntimeError("cancelled between the lock and its release")
    except RuntimeError:
        pass
    other = SQLEventStore(pg_db.engine())
    done = threading.Thread(target=other.append, args=("s", [event(1)], 0))
    done.start()
    done.join(10)
    assert not done.is_alive(), "the append lock leaked with the pooled connection"
    assert [e.version for e in store.read_stream("s")] == [1]
    store.engine.dispose()
    other.engine.dispose()
