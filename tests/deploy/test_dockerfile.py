"""deploy/Dockerfile, read line by line (no Docker engine here): one image for every
process, run as a user of its own, with what the migration and the print packs need."""

from __future__ import annotations

import json
import re

from tests.deploy.files import DEPLOY, REPO

TEXT = (DEPLOY / "Dockerfile").read_text()


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments left out."""
    code = "\n".join(line for line in TEXT.splitlines() if not line.lstrip().startswith("#"))
    joined = re.sub(r"\\\n", " ", code)
    found = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            found.append((word.upper(), " ".join(rest.split())))
    return found


def arguments(instruction: str) -> list[str]:
    return [args for word, args in instructions() if word == instruction]


def test_the_base_is_python_3_11_slim_with_its_debian_named() -> None:
    (base,) = arguments("FROM")
    assert re.fullmatch(r"python:3\.11-slim-[a-z]+", base)


def test_it_runs_as_a_user_of_its_own_not_root() -> None:
    assert arguments("USER") == ["schnapsen"]
    assert "useradd --system --uid 10001" in TEXT


def test_it_installs_psql_and_what_weasyprint_needs_and_no_dev_extras() -> None:
    (apt,) = [args for args in arguments("RUN") if "apt-get install" in args]
    for package in ("postgresql-client", "fonts-dejavu-core", "libpango-1.0-0"):
        assert package in apt.split()
    assert "rm -rf /var/lib/apt/lists/*" in apt
    assert "[dev]" not in TEXT and ".[" not in TEXT


def test_the_dependencies_are_the_locks_exact_versions_checked_by_hash() -> None:
    # operator F7: not whatever is newest on the build day.
    copied = [args for args in arguments("COPY") if "requirements/" in args]
    assert copied == ["requirements/run.txt /tmp/requirements.txt"]
    assert any(
        "pip install --require-hashes -r /tmp/requirements.txt" in args for args in arguments("RUN")
    )
    assert "tomllib" not in TEXT  # the old way: pyproject's ranges, resolved at build time


def test_the_package_is_installed_in_place_with_its_migrations_inside() -> None:
    # operator F10: the migrations travel inside the package (tournament/migrations).
    copied = {source for args in arguments("COPY") for source in args.split()[:-1]}
    assert {"tournament", "engine", "workers", "deploy", "pyproject.toml", "LICENSE"} <= copied
    assert "migrations" not in copied
    assert any("pip install --no-deps -e ." in args for args in arguments("RUN"))
    assert (REPO / "tournament" / "migrations" / "env.py").is_file()


def test_its_health_check_asks_healthz_with_the_standard_library() -> None:
    (check,) = arguments("HEALTHCHECK")
    assert "urllib.request.urlopen('http://127.0.0.1:8000/healthz'" in check
    assert "curl" not in check and "wget" not in check  # neither is in the image


def test_by_default_it_serves_the_pages_under_gunicorn_gthread() -> None:
    (cmd,) = arguments("CMD")
    assert json.loads(cmd) == [
        "gunicorn",
        "-c",
        "deploy/gunicorn/web.py",
        "tournament.web.wsgi:app",
    ]


def test_the_instance_folder_is_the_services_and_writable_by_it() -> None:
    assert "SCHNAPSEN_INSTANCE=/var/lib/schnapsen" in " ".join(arguments("ENV"))
    assert "install -d -o schnapsen -g schnapsen -m 0750 /var/lib/schnapsen" in TEXT


def test_the_settings_files_with_secrets_never_go_into_the_image() -> None:
    # COPY deploy deploy would take them: the build context leaves them out.
    ignored = (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
    assert {"deploy/.env", "deploy/owner.env", "deploy/tls", ".venv", "instance"} <= set(ignored)
