"""deploy/docker-compose.yml, read as compose reads it (no Docker engine here): which
process runs where, in which order, as which database role (issue 10, "deploy/")."""

from __future__ import annotations

import re
import runpy

import pytest

from tests.deploy.files import (
    APP_SERVICES,
    DEPLOY,
    ENV_EXAMPLE,
    OWNER_ENV_EXAMPLE,
    REPO,
    command,
    compose,
    env_settings,
    services,
    url_user,
)

WSGI_APP = "tournament.web.wsgi:app"


def test_the_app_and_the_migration_run_the_image_built_from_this_repository() -> None:
    for name in (*APP_SERVICES, "migrate"):
        service = services()[name]
        assert service["image"] == "schnapsen-tournament:local", name
        build = service["build"]
        assert (DEPLOY / build["context"]).resolve() == REPO, name
        assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == (
            DEPLOY / "Dockerfile"
        ), name


def test_pages_and_api_run_under_gunicorn_gthread_with_the_web_config() -> None:
    assert command(services()["web"]) == ["gunicorn", "-c", "deploy/gunicorn/web.py", WSGI_APP]
    assert runpy.run_path(str(DEPLOY / "gunicorn" / "web.py"))["worker_class"] == "gthread"


def test_live_streams_run_under_gunicorn_gevent_with_the_live_config() -> None:
    assert command(services()["live"]) == ["gunicorn", "-c", "deploy/gunicorn/live.py", WSGI_APP]
    assert runpy.run_path(str(DEPLOY / "gunicorn" / "live.py"))["worker_class"] == "gevent"


def test_the_worker_uses_the_prefork_pool_never_gevent() -> None:
    words = command(services()["worker"])
    # --quiet: no start banner in plain text among the JSON lines (operator F11)
    assert words[:5] == ["celery", "--quiet", "-A", "workers", "worker"]
    assert words[words.index("--pool") + 1] == "prefork"
    assert "--concurrency" in words
    assert not {"gevent", "eventlet", "-P"} & set(words)
    assert not any(word.startswith("--pool=") for word in words)


def test_exactly_one_beat_keeping_its_schedule_in_the_instance_volume() -> None:
    beats = [name for name, service in services().items() if "beat" in command(service)]
    assert beats == ["beat"]
    beat = services()["beat"]
    words = command(beat)
    assert words[:5] == ["celery", "--quiet", "-A", "workers", "beat"]
    assert words[words.index("--schedule") + 1].startswith("/var/lib/schnapsen/")
    assert "instance:/var/lib/schnapsen" in beat["volumes"]
    assert beat.get("deploy", {}).get("replicas", 1) == 1


def test_the_migration_is_one_shot_and_every_app_service_waits_for_it_to_succeed() -> None:
    migrate = services()["migrate"]
    assert command(migrate) == ["python", "deploy/migrate.py"]
    assert migrate["restart"] == "no"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in APP_SERVICES:
        depends = services()[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
        assert depends["redis"]["condition"] == "service_healthy", name


@pytest.mark.parametrize("name,port", [("web", 8000), ("live", 8001)])
def test_web_and_live_are_checked_on_healthz_at_the_port_they_listen_on(
    name: str, port: int
) -> None:
    service = services()[name]
    probe = " ".join(service["healthcheck"]["test"])
    assert f"http://127.0.0.1:{port}/healthz" in probe
    bind = service["environment"]["WEB_BIND" if name == "web" else "LIVE_BIND"]
    assert bind == f"0.0.0.0:{port}"
    assert service["ports"] == [f"127.0.0.1:{port}:{port}"]  # the proxy, not the world


def test_the_databases_and_the_worker_have_health_checks_and_beat_says_it_has_none() -> None:
    assert "pg_isready" in " ".join(services()["postgres"]["healthcheck"]["test"])
    assert services()["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    worker = " ".join(services()["worker"]["healthcheck"]["test"])
    assert "inspect ping" in worker
    # operator F14: the bare app and the broker's URL, not the project's imports (-A).
    assert '--broker "$$REDIS_URL"' in worker and "-A" not in worker.split()
    # The image's own check asks port 8000, where beat listens to nothing.
    assert services()["beat"]["healthcheck"] == {"disable": True}


def test_images_from_elsewhere_are_pinned_to_a_version_on_docker_hub() -> None:
    for name, service in services().items():
        if "build" in service:
            continue
        repository, _, tag = service["image"].rpartition(":")
        assert re.fullmatch(r"\d+(\.\d+)*", tag), f"{name}: {service['image']} (not latest)"
        assert "." not in repository.split("/")[0], f"{name}: from Docker Hub, no other registry"


def test_the_app_reads_dot_env_and_only_the_migration_and_postgres_read_owner_env() -> None:
    for name in APP_SERVICES:
        assert services()[name]["env_file"] == [".env"], name
    assert services()["migrate"]["env_file"] == [".env", "owner.env"]
    assert services()["postgres"]["env_file"] == ["owner.env"]
    assert ENV_EXAMPLE.is_file() and OWNER_ENV_EXAMPLE.is_file()


def test_the_app_connects_as_the_app_role_and_never_as_the_owner() -> None:
    app = env_settings(ENV_EXAMPLE)
    owner = env_settings(OWNER_ENV_EXAMPLE)
    assert url_user(app["DATABASE_URL"].value) == "schnapsen_app"
    assert url_user(owner["OWNER_DATABASE_URL"].value) == "schnapsen_owner"
    assert "schnapsen_owner" not in ENV_EXAMPLE.read_text()
    assert "OWNER_DATABASE_URL" not in app and "POSTGRES_PASSWORD" not in app
    for name in APP_SERVICES:
        environment = services()[name].get("environment", {})
        assert not {"DATABASE_URL", "OWNER_DATABASE_URL"} & set(environment), name


def test_the_live_processes_may_open_a_descriptor_per_connection() -> None:
    connections = runpy.run_path(str(DEPLOY / "gunicorn" / "live.py"))["worker_connections"]
    assert services()["live"]["ulimits"]["nofile"]["soft"] >= connections


def test_the_proxy_is_optional_and_serves_the_repository_nginx_conf() -> None:
    proxy = services()["proxy"]
    assert proxy["profiles"] == ["proxy"]
    assert "./nginx.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]


def test_the_volumes_are_declared() -> None:
    assert set(compose()["volumes"]) == {"pgdata", "instance"}
