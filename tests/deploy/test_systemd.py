"""deploy/systemd: the club server's units, read as INI (systemd's own checker is
`systemd-analyze verify`, which needs the installed paths): the same processes as docker
compose, as the service's user, confined, restarted, in order after the migration."""

from __future__ import annotations

import runpy
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.deploy.files import DEPLOY, REPO, command, service_units, services, unit

VENV_BIN = "/opt/schnapsen/.venv/bin/"
APP_UNITS = {
    "schnapsen-web.service": "web",
    "schnapsen-live.service": "live",
    "schnapsen-worker.service": "worker",
    "schnapsen-beat.service": "beat",
}
HARDENING = {
    "NoNewPrivileges": "yes",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
    "ReadWritePaths": "/var/lib/schnapsen",
}


#: The one-shot jobs their timers start (operator F14): what the docs said "from cron".
TIMED = {
    "schnapsen-backup": ["tournament export", "tournament accounts export"],
    # strict, as operations.md wants it for cron (operator trial of main, 2)
    "schnapsen-verify": ["tournament verify --require-authenticated"],
    "schnapsen-expire-keys": ["tournament db expire-keys"],
}


def test_every_process_of_compose_has_a_unit_and_the_migration_too() -> None:
    timed = [f"{name}.service" for name in TIMED]
    assert service_units() == sorted([*APP_UNITS, "schnapsen-migrate.service", *timed])
    assert (DEPLOY / "systemd" / "schnapsen.target").is_file()


@pytest.mark.parametrize("name", [*APP_UNITS, "schnapsen-migrate.service"])
def test_every_unit_runs_as_schnapsen_confined_from_the_checkout(name: str) -> None:
    confined(name)
    assert unit(name).value("Install", "WantedBy") == "schnapsen.target"
    assert unit(name).value("Unit", "PartOf") == "schnapsen.target"


def confined(name: str) -> None:
    service = unit(name)
    assert service.value("Service", "User") == "schnapsen"
    assert service.value("Service", "Group") == "schnapsen"
    assert service.value("Service", "WorkingDirectory") == "/opt/schnapsen"
    assert "/etc/schnapsen/env" in service.values("Service", "EnvironmentFile")
    for key, value in HARDENING.items():
        assert service.value("Service", key) == value, f"{name}: {key}"
    assert service.value("Service", "CapabilityBoundingSet") == ""


@pytest.mark.parametrize("name", APP_UNITS)
def test_app_units_restart_on_failure_and_start_after_a_successful_migration(name: str) -> None:
    service = unit(name)
    assert service.value("Service", "Restart") == "on-failure"
    assert "schnapsen-migrate.service" in str(service.value("Unit", "Requires")).split()
    after = str(service.value("Unit", "After")).split()
    assert {"schnapsen-migrate.service", "postgresql.service", "redis-server.service"} <= set(after)
    # The owner's credentials are the migration's only.
    assert service.values("Service", "EnvironmentFile") == ["/etc/schnapsen/env"]


@pytest.mark.parametrize("name,compose_service", APP_UNITS.items())
def test_units_run_the_same_command_as_compose(name: str, compose_service: str) -> None:
    words = unit(name).words("ExecStart")
    assert words[0].startswith(VENV_BIN)
    expected = command(services()[compose_service])
    expected = [
        "${WORKER_CONCURRENCY}" if word.startswith("${WORKER_CONCURRENCY") else word
        for word in expected
    ]
    assert [words[0].removeprefix(VENV_BIN), *words[1:]] == expected


def test_gunicorn_units_tell_systemd_when_they_are_ready_and_stop_gracefully() -> None:
    for name, config in [("schnapsen-web.service", "web"), ("schnapsen-live.service", "live")]:
        service = unit(name)
        assert service.value("Service", "Type") == "notify"
        assert service.value("Service", "KillMode") == "mixed"
        graceful = runpy.run_path(str(DEPLOY / "gunicorn" / f"{config}.py"))["graceful_timeout"]
        assert int(service.value("Service", "TimeoutStopSec") or 0) > graceful, name


def test_the_live_unit_may_open_a_descriptor_per_connection() -> None:
    connections = runpy.run_path(str(DEPLOY / "gunicorn" / "live.py"))["worker_connections"]
    assert int(unit("schnapsen-live.service").value("Service", "LimitNOFILE") or 0) >= connections


def test_the_worker_uses_prefork_and_gets_time_for_a_warm_shutdown() -> None:
    service = unit("schnapsen-worker.service")
    words = service.words("ExecStart")
    assert words[words.index("--pool") + 1] == "prefork"
    assert "gevent" not in words
    # SIGTERM to Celery's main process only; it stops its pool itself.
    assert service.value("Service", "KillMode") == "mixed"
    assert int(service.value("Service", "TimeoutStopSec") or 0) >= 60
    # ${WORKER_CONCURRENCY} is one word, never empty: the unit has a default.
    assert "WORKER_CONCURRENCY=2" in service.values("Service", "Environment")


def test_beat_keeps_its_schedule_in_the_state_directory() -> None:
    service = unit("schnapsen-beat.service")
    words = service.words("ExecStart")
    assert words[words.index("--schedule") + 1].startswith("/var/lib/schnapsen/")
    assert service.value("Service", "StateDirectory") == "schnapsen"


def test_the_migration_is_one_shot_roles_then_upgrade_then_roles() -> None:
    service = unit("schnapsen-migrate.service")
    assert service.value("Service", "Type") == "oneshot"
    assert service.value("Service", "RemainAfterExit") == "yes"
    before, during, after = (
        service.words(key) for key in ("ExecStartPre", "ExecStart", "ExecStartPost")
    )
    assert before[-2:] == after[-2:] == ["/opt/schnapsen/deploy/migrate.py", "roles"]
    assert before[:4] == ["/usr/sbin/runuser", "-u", "postgres", "--"]
    # The superuser steps run as root ("+") to become postgres; the migration as schnapsen.
    assert str(service.value("Service", "ExecStartPre")).startswith("+")
    assert str(service.value("Service", "ExecStartPost")).startswith("+")
    assert during == [VENV_BIN + "python", "/opt/schnapsen/deploy/migrate.py", "upgrade"]


def test_only_a_host_with_the_owners_credentials_migrates() -> None:
    service = unit("schnapsen-migrate.service")
    assert service.values("Service", "EnvironmentFile") == [
        "/etc/schnapsen/env",
        "/etc/schnapsen/owner.env",
    ]
    assert service.value("Unit", "ConditionPathExists") == "/etc/schnapsen/owner.env"


@pytest.mark.parametrize("name", TIMED)
def test_backup_verify_and_expire_keys_ship_as_timers_operator_f14(name: str) -> None:
    confined(f"{name}.service")
    service = unit(f"{name}.service")
    assert service.value("Service", "Type") == "oneshot"
    assert service.values("Service", "EnvironmentFile") == ["/etc/schnapsen/env"]  # the app's
    commands = " ".join(service.values("Service", "ExecStart"))
    for wanted in TIMED[name]:
        assert wanted.replace("tournament", VENV_BIN + "tournament", 1) in commands
    timer = unit(f"{name}.timer")
    assert str(timer.value("Timer", "OnCalendar")).startswith("*-*-* ")
    assert timer.value("Timer", "Persistent") == "true"  # a night the host was off: at boot
    assert timer.value("Install", "WantedBy") == "timers.target"


def test_the_backup_keeps_both_files_of_a_day_apart_from_the_state() -> None:
    service = unit("schnapsen-backup.service")
    commands = service.values("Service", "ExecStart")
    assert any('"$$BACKUP_DIR/events-$$(date +%%F).jsonl"' in c for c in commands)
    assert any('"$$BACKUP_DIR/accounts-$$(date +%%F).json"' in c for c in commands)
    assert "schnapsen/backups" in str(service.value("Service", "StateDirectory")).split()


def test_systemd_analyze_verify_finds_nothing_in_the_timed_units(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    names = [f"{name}.{kind}" for name in TIMED for kind in ("service", "timer")]
    for name in names:  # the installed paths, as the guide's checkout would have them
        text = (DEPLOY / "systemd" / name).read_text().replace("/opt/schnapsen", str(REPO))
        (tmp_path / name).write_text(text)
    done = subprocess.run(
        [analyze, "verify", *(f"./{name}" for name in names)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 and not (done.stdout + done.stderr).strip(), done.stderr
