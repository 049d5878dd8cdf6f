"""deploy/env.example and deploy/owner.env.example: every setting the compose file, the
units, the gunicorn configs and the migration read is there, explained, without a real
secret; and nothing is there that nothing reads."""

from __future__ import annotations

import re

from tests.deploy.files import (
    DEPLOY,
    ENV_EXAMPLE,
    OWNER_ENV_EXAMPLE,
    REPO,
    UNITS,
    env_settings,
    url_user,
)

COMPOSE_TEXT = (DEPLOY / "docker-compose.yml").read_text()
GUNICORN = [DEPLOY / "gunicorn" / "web.py", DEPLOY / "gunicorn" / "live.py"]
MIGRATE = DEPLOY / "migrate.py"
#: Set by systemd for a unit, not by the operator.
SYSTEMD_OWN = {"MAINPID"}


def documented() -> set[str]:
    return set(env_settings(ENV_EXAMPLE)) | set(env_settings(OWNER_ENV_EXAMPLE))


def read_by(path_text: str, *patterns: str) -> set[str]:
    return {name for pattern in patterns for name in re.findall(pattern, path_text)}


def test_every_variable_compose_interpolates_is_in_env_example() -> None:
    # Compose fills ${NAME} from deploy/.env: the copy of env.example.
    used = read_by(COMPOSE_TEXT, r"(?<!\$)\$\{([A-Z][A-Z0-9_]*)")
    assert used, "the test reads the ${...} it means to check"
    assert used <= set(env_settings(ENV_EXAMPLE))


def test_every_variable_a_unit_expands_is_in_env_example() -> None:
    used: set[str] = set()
    unit_own: set[str] = set()  # set by the unit itself and only there (BACKUP_DIR)
    for path in UNITS.glob("*.service"):
        for line in path.read_text().splitlines():
            if line.startswith("Exec"):
                used |= read_by(line, r"\$\{?([A-Z][A-Z0-9_]*)")
            if line.startswith("Environment="):
                unit_own |= read_by(line, r"[= ]([A-Z][A-Z0-9_]*)=")
    assert "WORKER_CONCURRENCY" in used
    unit_own -= {"WORKER_CONCURRENCY"}  # the unit's default of a setting env.example lists
    assert used - SYSTEMD_OWN - unit_own <= set(env_settings(ENV_EXAMPLE))


def test_every_variable_the_gunicorn_configs_read_is_in_env_example() -> None:
    for path in GUNICORN:
        used = read_by(
            path.read_text(), r"environ\.get\(\"([A-Z0-9_]+)\"", r"_number\(\"([A-Z0-9_]+)\""
        )
        assert used, path
        assert used <= set(env_settings(ENV_EXAMPLE)), path


def test_every_variable_the_migration_reads_is_in_an_example() -> None:
    used = read_by(MIGRATE.read_text(), r"connection\(\"([A-Z_]+)\"", r"env\.get\(\"([A-Z_]+)\"")
    assert {"ADMIN_DATABASE_URL", "OWNER_DATABASE_URL", "DATABASE_URL", "POSTGRES_PASSWORD"} <= used
    assert used <= documented()


def test_every_variable_in_the_examples_is_read_by_something() -> None:
    readers = [
        COMPOSE_TEXT,
        *(path.read_text() for path in UNITS.iterdir()),
        *(path.read_text() for path in [*GUNICORN, MIGRATE]),
        *(
            path.read_text()
            for folder in ("tournament", "workers")
            for path in (REPO / folder).rglob("*.py")
        ),
    ]
    text = "\n".join(readers)
    unread = {name for name in documented() if not re.search(rf"\b{name}\b", text)}
    assert not unread, f"nothing reads {sorted(unread)}"


def test_every_variable_is_explained() -> None:
    for path in (ENV_EXAMPLE, OWNER_ENV_EXAMPLE):
        for setting in env_settings(path).values():
            assert setting.documented, f"{path.name}: {setting.name} has no comment"


def test_the_examples_hold_no_real_secret() -> None:
    for path in (ENV_EXAMPLE, OWNER_ENV_EXAMPLE):
        for setting in env_settings(path).values():
            secret = re.search(r"PASSWORD|SECRET|_KEY$", setting.name)
            password = re.match(r"[a-z+]+://[^:/@]+:([^@]+)@", setting.value)
            if secret and not setting.optional:
                assert setting.value.startswith("change-me"), setting.name
            if password:
                assert password.group(1).startswith("change-me"), setting.name


def test_the_three_urls_name_one_database_and_two_roles() -> None:
    app = env_settings(ENV_EXAMPLE)["DATABASE_URL"].value
    owner = env_settings(OWNER_ENV_EXAMPLE)["OWNER_DATABASE_URL"].value
    admin = env_settings(OWNER_ENV_EXAMPLE)["ADMIN_DATABASE_URL"].value
    assert {url.rsplit("/", 1)[1] for url in (app, owner, admin)} == {"schnapsen"}
    assert url_user(app) != url_user(owner)
    assert url_user(admin) == "postgres"
