"""deploy/gunicorn: gthread for pages and API, gevent for the streams; both configs load
in gunicorn with the app (``gunicorn --check-config``)."""

from __future__ import annotations

import ast
import importlib
import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.deploy.files import DEPLOY, REPO

WEB = DEPLOY / "gunicorn" / "web.py"
LIVE = DEPLOY / "gunicorn" / "live.py"
SETTINGS = (
    "WEB_CONCURRENCY",
    "WEB_THREADS",
    "WEB_BIND",
    "LIVE_BIND",
    "LIVE_CONCURRENCY",
    "SCHNAPSEN_LIVE_MAX_STREAMS",
    "FORWARDED_ALLOW_IPS",
)


@pytest.fixture(autouse=True)
def _no_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)


def config(path: Path) -> dict[str, Any]:
    return runpy.run_path(str(path))


def app_env(config_: dict[str, Any]) -> dict[str, str]:
    return dict(entry.split("=", 1) for entry in config_["raw_env"])


def test_pages_and_api_run_in_gthread_processes() -> None:
    web = config(WEB)
    assert web["worker_class"] == "gthread"
    assert web["threads"] == 8
    assert 1 <= web["workers"] <= 8
    assert web["accesslog"] is None  # the app logs JSON lines itself
    assert web["timeout"] > 0
    assert web["forwarded_allow_ips"] == "127.0.0.1,::1"


def test_web_concurrency_sets_the_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    monkeypatch.setenv("WEB_THREADS", "4")
    web = config(WEB)
    assert (web["workers"], web["threads"]) == (3, 4)


def test_a_stream_that_reaches_a_page_process_may_not_take_more_than_half_its_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SCHNAPSEN_LIVE_MAX_STREAMS", "2500")
    assert app_env(config(WEB)) == {"SCHNAPSEN_LIVE_MAX_STREAMS": "4"}
    monkeypatch.setenv("SCHNAPSEN_LIVE_MAX_STREAMS", "1")
    assert app_env(config(WEB)) == {"SCHNAPSEN_LIVE_MAX_STREAMS": "1"}


def test_streams_run_in_gevent_processes_whose_connections_exceed_the_apps_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    live = config(LIVE)
    assert live["worker_class"] == "gevent"
    assert live["preload_app"] is False  # the app is imported after gevent's patch
    assert app_env(live) == {"SCHNAPSEN_LIVE_MAX_STREAMS": "2500"}
    assert live["worker_connections"] >= 3000
    monkeypatch.setenv("SCHNAPSEN_LIVE_MAX_STREAMS", "4000")
    live = config(LIVE)
    assert app_env(live) == {"SCHNAPSEN_LIVE_MAX_STREAMS": "4000"}
    assert live["worker_connections"] > 4000  # the app refuses (503) before gunicorn stalls


def test_bind_and_proxies_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEB_BIND", "0.0.0.0:8000")
    monkeypatch.setenv("LIVE_BIND", "0.0.0.0:8001")
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")
    assert config(WEB)["bind"] == ["0.0.0.0:8000"]
    assert config(LIVE)["bind"] == ["0.0.0.0:8001"]
    assert config(LIVE)["forwarded_allow_ips"] == "*"


@pytest.mark.parametrize("path", [WEB, LIVE])
def test_gunicorn_has_the_worker_class_each_config_names(path: Path) -> None:
    # --check-config below does not load it: a worker does, when it starts.
    load_class = importlib.import_module("gunicorn.util").load_class
    assert load_class(config(path)["worker_class"]).__module__.startswith("gunicorn.workers.")


def _imports(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names = {f"{node.module}.{alias.name}" for alias in node.names}
            modules |= {name for name in names if name.startswith("tournament.")} or {
                node.module or ""
            }
    return modules


@pytest.mark.parametrize("path", [WEB, LIVE])
def test_the_configs_import_only_the_standard_library(path: Path) -> None:
    # gunicorn loads them in the master, before gevent patches a worker: the standard
    # library, and the package's metrics folder helper, itself standard library only.
    imported = _imports(path)
    ours = {name for name in imported if name.startswith("tournament")}
    assert ours <= {"tournament.metrics_dir"}
    helper = REPO / "tournament" / "metrics_dir.py"
    for name in (imported - ours) | _imports(helper):
        assert name.split(".")[0] in sys.stdlib_module_names, name


@pytest.mark.parametrize("path", [WEB, LIVE])
def test_gunicorns_own_lines_are_json_and_the_metrics_folder_is_kept_per_kind(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Operator F5, F11: the logger class writes JSON; the hooks empty this kind's folder
    at the start and drop a dead worker's per-process gauges (its counters stay)."""
    monkeypatch.setenv("SCHNAPSEN_METRICS_DIR", str(tmp_path))
    # Empty counts as unset; set through monkeypatch, the value the config writes is undone
    # after the test (else every later app in this process would think it shares files).
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "")
    loaded = config(path)
    assert loaded["logger_class"] == "tournament.gunicorn_logging.JsonLogger"
    folder = tmp_path / path.stem
    assert os.environ["PROMETHEUS_MULTIPROC_DIR"] == str(folder)
    assert folder.is_dir()  # made when the config is loaded
    (folder / "counter_7.db").write_text("stale")
    loaded["on_starting"](None)
    assert list(folder.iterdir()) == []
    (folder / "counter_8.db").write_text("")
    (folder / "gauge_liveall_8.db").write_text("")
    loaded["child_exit"](None, type("Worker", (), {"pid": 8})())
    assert sorted(found.name for found in folder.iterdir()) == ["counter_8.db"]


@pytest.mark.parametrize("path", [WEB, LIVE])
def test_the_docstrings_say_why_gthread_for_pages_and_gevent_for_streams(path: Path) -> None:
    assert "gthread for pages and API, gevent for" in " ".join(
        (ast.get_docstring(ast.parse(path.read_text())) or "").split()
    )


def test_gunicorn_accepts_both_configs_and_loads_the_app(tmp_path: Path) -> None:
    def env(name: str) -> dict[str, str]:
        # A store each: loading the app makes and migrates it, and the two run at once.
        return {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp_path / name}.sqlite3",
            "SCHNAPSEN_INSTANCE": str(tmp_path / name),
        }

    gunicorn = Path(sys.executable).with_name("gunicorn")
    checks = {
        path.name: subprocess.Popen(
            [str(gunicorn), "--check-config", "-c", str(path), "tournament.web.wsgi:app"],
            cwd=REPO,
            env=env(path.stem),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for path in (WEB, LIVE)
    }
    for name, check in checks.items():
        output, _ = check.communicate(timeout=60)
        assert check.returncode == 0, f"{name}:\n{output}"
