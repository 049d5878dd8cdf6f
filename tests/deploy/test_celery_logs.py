"""The Celery worker and beat log JSON lines like the web (one object per line, the same
keys), and nothing per periodic sweep at INFO (operator F11); the worker's figures reach
the host's metrics folder (operator F5). Real processes, started as the deploy files
start them, on the shared Redis (the test's own database number)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.deploy.files import REPO
from tests.deploy.processes import file_samples, free_port, stop, wait_for
from tournament.eventstore import migrate
from tournament.json_logs import CELERY_TASK_LOGGERS, QuietPeriodic

SWEEP = "workers.tasks.sweep_projections"
KEYS = {"event", "level", "timestamp", "logger"}


def json_lines(text: str) -> list[dict[str, Any]]:
    lines = [line for line in text.splitlines() if line.strip()]
    for line in lines:
        assert line.startswith("{"), f"not a JSON line: {line!r}"
    parsed = [json.loads(line) for line in lines]
    for line in parsed:
        assert set(line) >= KEYS, line
    return parsed


def test_worker_and_beat_write_json_lines_and_no_line_per_sweep_at_info_operator_f11(
    tmp_path: Path, redis_url: str
) -> None:
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    migrate.ensure_current(url, may_create=True)
    figures = tmp_path / "metrics"
    env = {key: value for key, value in os.environ.items() if key != "PROMETHEUS_MULTIPROC_DIR"}
    env.update(
        DATABASE_URL=url,
        REDIS_URL=redis_url,
        SCHNAPSEN_INSTANCE=str(tmp_path / "instance"),
        SCHNAPSEN_METRICS_DIR=str(figures),
        SCHNAPSEN_SWEEP_SECONDS="0.5",
        # Celery warns in plain text before any logging exists when it runs as root (the
        # test machine's user); the units run it as the service's own user.
        PYTHONWARNINGS="ignore:You're running the worker with superuser privileges",
    )
    celery = [str(Path(sys.executable).with_name("celery")), "--quiet", "-A", "workers"]
    logs = {name: (tmp_path / f"{name}.err").open("w+b") for name in ("worker", "beat")}
    outs = {name: (tmp_path / f"{name}.out").open("w+b") for name in ("worker", "beat")}
    commands = {
        "worker": [*celery, "worker", "--pool", "prefork", "--concurrency", "1",
                   "--loglevel", "INFO"],
        "beat": [*celery, "beat", "--loglevel", "INFO",
                 "--schedule", str(tmp_path / "celerybeat-schedule")],
    }  # fmt: skip
    started = time.time()
    processes = {
        name: subprocess.Popen(
            command,
            cwd=REPO,
            env=env,
            stdout=outs[name],
            stderr=logs[name],
            start_new_session=True,
        )
        for name, command in commands.items()
    }
    try:
        succeeded = (("outcome", "succeeded"), ("task", SWEEP))
        wait_for(
            "three sweeps run by the worker",
            lambda: file_samples(figures, "schnapsen_worker_tasks_total").get(succeeded, 0) >= 3,
        )
        last = file_samples(figures, "schnapsen_worker_last_success_timestamp_seconds")
        assert last[(("task", SWEEP),)] >= started
        written = {name: (tmp_path / f"{name}.err").read_text() for name in logs}
        printed = {name: (tmp_path / f"{name}.out").read_text() for name in outs}
    finally:
        for process in processes.values():
            stop(process)
    worker, beat = json_lines(written["worker"]), json_lines(written["beat"])
    assert printed == {"worker": "", "beat": ""}  # --quiet: no banner
    assert any(line["event"].endswith("ready.") for line in worker)
    assert any(line["event"].startswith("beat: Starting") for line in beat)
    for line in worker + beat:
        assert SWEEP not in line["event"] and "Sending due task" not in line["event"], line


@pytest.mark.parametrize(
    "name,message",
    [
        ("celery.beat", "Scheduler: Sending due task %s (%s)"),
        ("celery.worker.request", "Discarding revoked task: %s[%s]"),  # an expired sweep
    ],
)
def test_the_sweeps_lines_come_back_at_debug(name: str, message: str) -> None:
    assert name in CELERY_TASK_LOGGERS  # the worker and beat filter it (workers/log_setup.py)
    logger = logging.getLogger(name)
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    quiet, keep = QuietPeriodic(), Keep()
    logger.addFilter(quiet)
    logger.addHandler(keep)
    try:
        for level in (logging.INFO, logging.DEBUG):
            logger.setLevel(level)
            logger.info(message, "sweep-projections", SWEEP)
            logger.info(message, "reconcile", "workers.tasks.x")
    finally:
        logger.removeFilter(quiet)
        logger.removeHandler(keep)
        logger.setLevel(logging.NOTSET)
    assert [(r.levelname, r.args[1]) for r in records if isinstance(r.args, tuple)] == [
        ("INFO", "workers.tasks.x"),
        ("DEBUG", SWEEP),
        ("INFO", "workers.tasks.x"),
    ]


@pytest.fixture(autouse=True)
def _no_stray_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCHNAPSEN_METRICS_DIR", raising=False)


@pytest.mark.parametrize(
    "command",
    [
        ["celery", "--quiet", "-A", "workers", "worker", "--pool", "solo"],
        ["celery", "--quiet", "-A", "workers", "beat"],
        ["gunicorn", "-c", "deploy/gunicorn/web.py", "tournament.web.wsgi:app"],
    ],
    ids=["worker", "beat", "gunicorn"],
)
def test_a_missing_seal_key_stops_the_process_with_one_json_error_line_opfix_3(
    command: list[str], tmp_path: Path, redis_url: str
) -> None:
    """Operator trial of main, 3 and 4: `celery -A workers worker` with a configured seal
    key file missing exited with a 24-line traceback, gunicorn with a plain line among
    its JSON lines. Each says it in one JSON line, "Error: ...", and exits non-zero."""
    key = tmp_path / "on-the-stick" / "seal.key"
    env = {key: value for key, value in os.environ.items() if key != "PROMETHEUS_MULTIPROC_DIR"}
    env.pop("SCHNAPSEN_SEAL_KEY", None)
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'store.sqlite3'}",
        REDIS_URL=redis_url,
        SCHNAPSEN_INSTANCE=str(tmp_path / "instance"),
        SCHNAPSEN_SEAL_KEY_FILE=str(key),
        SCHNAPSEN_METRICS_DIR=str(tmp_path / "metrics"),
        PYTHONWARNINGS="ignore:You're running the worker with superuser privileges",
    )
    program = str(Path(sys.executable).with_name(command[0]))
    bind = ["-b", f"127.0.0.1:{free_port()}"] if command[0] == "gunicorn" else []
    done = subprocess.run(
        [program, *command[1:], *bind],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0
    wanted = f"Error: the seal key file {key} does not exist: the log cannot be sealed"
    # gunicorn: one line per worker, each refusing before it serves
    refusals = [line["event"] for line in json_lines(ours(done.stderr))]
    refusals = [event for event in refusals if "Error:" in event]
    assert refusals and all(event.startswith(wanted) for event in refusals), done.stderr
    assert len(refusals) == 1 or command[0] == "gunicorn"


def ours(stderr: str) -> str:
    """``stderr`` without gunicorn's own traceback at the end, when two workers failed to
    load at once: its shutdown meets the second exit status 4 and raises HaltServer again
    (gunicorn/arbiter.py, reap_workers inside halt; a race, not the app's)."""
    head, found, tail = stderr.partition("Traceback (most recent call last):")
    if found:
        assert "gunicorn.errors.HaltServer: <HaltServer 'App failed to load.' 4>" in tail
        assert "tournament" not in tail, tail
    return head


def test_a_message_with_the_stack_after_it_keeps_one_line_in_event_opfix_5(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Operator trial of main, 5: during a Redis outage beat logged "Message Error" lines
    whose `event` held the whole stack. Its call, as celery/beat.py makes it: the event
    is the first line, the stack and the traceback are in `exception`."""
    import traceback

    from tournament.json_logs import JsonFormatter

    logger = logging.getLogger("celery.beat")
    with caplog.at_level(logging.ERROR, "celery.beat"):
        try:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6390. Connection refused.")
        except ConnectionError as exc:
            logger.error("Message Error: %s\n%s", exc, traceback.format_stack(), exc_info=True)
    [line] = json_lines(JsonFormatter().format(caplog.records[-1]))
    assert line["event"] == (
        "Message Error: Error 111 connecting to 127.0.0.1:6390. Connection refused."
    )
    assert "format_stack" not in line["event"] and "\n" not in line["event"]
    assert "Traceback (most recent call last)" in line["exception"]
    assert "ConnectionError: Error 111" in line["exception"]
