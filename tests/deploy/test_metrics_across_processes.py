"""``/metrics`` under gunicorn answers for every process of the host, not for whichever
worker a scrape reaches (operator F5): with ``SCHNAPSEN_METRICS_DIR`` each worker writes
its figures to files (prometheus_client's multiprocess mode), so a counter is the sum over
the processes, dead ones included, and never goes down between scrapes; a dead worker's
per-process gauges go with it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.deploy.files import DEPLOY, REPO
from tests.deploy.processes import free_port, get, samples, stop, wait_for
from tournament.eventstore import migrate

HEALTHZ = (("kind", "web"), ("method", "GET"), ("route", "/healthz"), ("status", "200"))


def test_gunicorns_workers_add_up_to_one_host_and_counters_never_go_down_operator_f5(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    migrate.ensure_current(url, may_create=True)  # made once, not by two workers at once
    figures = tmp_path / "metrics"
    (figures / "web").mkdir(parents=True)
    (figures / "web" / "counter_1.db").write_bytes(b"a previous run's")  # wiped at start
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")
    }
    env.update(
        DATABASE_URL=url,
        SCHNAPSEN_INSTANCE=str(tmp_path / "instance"),
        SCHNAPSEN_METRICS_DIR=str(figures),
        WEB_CONCURRENCY="2",
        WEB_THREADS="2",
        WEB_BIND=f"127.0.0.1:{port}",
    )
    gunicorn = Path(sys.executable).with_name("gunicorn")
    server = subprocess.Popen(
        [str(gunicorn), "-c", str(DEPLOY / "gunicorn" / "web.py"), "tournament.web.wsgi:app"],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "gunicorn.err").open("wb"),
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    answered = 0  # /healthz answers with 200, from whichever worker

    def healthz() -> bool:
        nonlocal answered
        ok = get(base + "/healthz")[0] == 200
        answered += ok
        return ok

    def scrape() -> str:
        status, text = get(base + "/metrics")
        assert status == 200, text
        return text

    def pids() -> set[str]:
        return {dict(key)["pid"] for key in samples(scrape(), "schnapsen_live_streams")}

    try:
        wait_for("gunicorn to answer", healthz)
        assert not (figures / "web" / "counter_1.db").exists()

        def started() -> set[str] | None:
            found = pids()
            return found if len(found) == 2 else None

        first = wait_for("both workers to have started", started)

        def both_answered() -> bool:
            healthz()
            return all((figures / "web" / f"counter_{pid}.db").exists() for pid in first)

        wait_for("a request answered by each worker", both_answered)
        # From here on every request is answered within the client's timeout (a first one,
        # waiting for a worker to load the app, may have been given up by the client).
        answered = int(samples(scrape(), "schnapsen_http_requests_total")[HEALTHZ])
        seen: list[float] = []
        for _ in range(6):
            for _ in range(3):
                healthz()
            seen.append(samples(scrape(), "schnapsen_http_requests_total")[HEALTHZ])
        assert seen == sorted(seen), f"a counter went down between scrapes: {seen}"
        assert seen[-1] == answered  # every answer counted, whichever worker gave it

        gone = sorted(first)[0]
        os.kill(int(gone), signal.SIGTERM)  # a worker of ours exits; gunicorn starts another

        def replaced() -> set[str] | None:
            found = pids()
            return found if len(found) == 2 and gone not in found else None

        after = wait_for("a new worker in place of the one stopped", replaced)
        assert gone not in after  # its per-process gauges went with it (child_exit)
        healthz()
        assert samples(scrape(), "schnapsen_http_requests_total")[HEALTHZ] == answered
    finally:
        stop(server)
    # gunicorn's own lines (operator F11) and the app's, one JSON object each.
    lines = [json.loads(line) for line in (tmp_path / "gunicorn.err").read_text().splitlines()]
    assert {"Starting gunicorn", "Booting worker", "Worker exiting"} <= {
        " ".join(line["event"].split()[:2]) for line in lines if line["logger"] == "gunicorn.error"
    }
