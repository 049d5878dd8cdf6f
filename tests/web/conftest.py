"""The web app on a fresh store per test, signed-in callers, and a small HTTP helper.

``web`` is the app on a SQLite file; ``web_pg`` the same on a schema of the real
PostgreSQL (skips on a laptop without it, fails in CI). Callers are made through the
accounts service, as ``tournament accounts add`` and ``tokens create`` make them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from flask.testing import FlaskClient

from tests.databases import Database
from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.web import close_app, create_app


class Web:
    """The app under test, its client, and callers with tokens."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.client: FlaskClient = app.test_client()
        self._tokens: dict[str, str] = {}

    @property
    def accounts(self) -> Any:
        with self.app.app_context():
            return services().accounts

    def token(self, email: str = "admin@club.at", *, admin: bool = False) -> str:
        """A token for ``email`` (the account is made first; the first account is the
        admin)."""
        if email not in self._tokens:
            accounts = self.accounts
            if accounts.by_email(email) is None:
                accounts.add(email, "a long password 1", admin=admin)
            _, secret = accounts.create_token(email, "tests")
            self._tokens[email] = secret
        return self._tokens[email]

    def caller(self, role: Role | None, tournament_id: str, email: str | None = None) -> str:
        """A token of an account with ``role`` in ``tournament_id`` (None: no role)."""
        self.admin()  # the first account is the admin: make it before anyone else
        email = email or f"{(role.name if role else 'none').lower()}@club.at"
        secret = self.token(email)
        if role is not None and role != Role.PUBLIC:
            self.accounts.grant(email, tournament_id, role, by="tests")
        return secret

    def admin(self) -> str:
        return self.token("admin@club.at", admin=True)

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str | None = "admin",
        headers: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> Any:
        sent = dict(headers or {})
        if token == "admin":
            token = self.admin()
        if token:
            sent["Authorization"] = f"Bearer {token}"
        if body is not None:
            kwargs["json"] = body
        return self.client.open(path, method=method, headers=sent, **kwargs)

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.call("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        return self.call("POST", path, body, **kwargs)

    def patch(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        return self.call("PATCH", path, body, **kwargs)

    def ok(self, method: str, path: str, body: Any = None, **kwargs: Any) -> Any:
        """The JSON of a call that must succeed (2xx), with the problem shown if not."""
        reply = self.call(method, path, body, **kwargs)
        assert 200 <= reply.status_code < 300, (reply.status_code, reply.get_data(as_text=True))
        return reply.get_json()

    def tournament(self, tid: str = "club", **settings: Any) -> str:
        body = {"name": "Club Cup", "id": tid, "format": "swiss", "best_of": 3, "seed": 7}
        self.ok("POST", "/api/v1/tournaments", {**body, **settings})
        return tid


def make_web(url: str, instance: Path, **config: Any) -> Web:
    app = create_app(
        {
            "DATABASE_URL": url,
            "SECRET_KEY": "test-secret",
            "INSTANCE_PATH": str(instance),
            "SESSION_COOKIE_SECURE": False,
            "METRICS": True,
            "TESTING": True,
            # argon2 at its defaults takes ~50 ms and 64 MiB per password: too slow for
            # the hundreds of accounts the tests make (the service keeps the defaults).
            "PASSWORD_HASHER": PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1),
            # A write projects at once in its own request (no thread per test app); the
            # thread and the workers have tests of their own (tests/live).
            "PROJECTIONS": "inline",
            **config,
        }
    )
    return Web(app)


@pytest.fixture
def web(tmp_path: Path) -> Web:
    """The app on a fresh SQLite store."""
    return make_web(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path)


@pytest.fixture
def web_pg(pg_db: Database, tmp_path: Path) -> Iterator[Web]:
    """The app on a fresh schema of the real PostgreSQL."""
    found = make_web(pg_db.schema_url, tmp_path)
    yield found
    close_app(found.app)  # its threads, the log's and the accounts' connections
