"""A process remembers a token's account and an account's role for AUTH_CACHE_SECONDS
(trial 9, P1/P2: two queries per authenticated request). What must hold: a change made
through the same process counts at once; a change made elsewhere (another gunicorn worker,
another host, the ``tournament`` command: here a second ``Accounts`` on the same database)
counts for every request that starts once AUTH_CACHE_SECONDS have passed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher

from tests.web.conftest import Web, make_web
from tournament.accounts.roles import Role
from tournament.accounts.service import Accounts
from tournament.app.services import services

BOUND = 0.5  # AUTH_CACHE_SECONDS of these apps: short, so the tests wait little
MEMBERS = "/api/v1/tournaments/club/members"


@pytest.fixture
def web(tmp_path: Path) -> Web:
    return make_web(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path, AUTH_CACHE_SECONDS=BOUND)


@pytest.fixture
def elsewhere(web: Web) -> Iterator[Accounts]:
    """The accounts as another process sees them: its own object on the same database."""
    with web.app.app_context():
        url = services().url
    other = Accounts(url, hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    yield other
    other.close()


def account_queries(web: Web) -> list[str]:
    """Every statement the app's accounts send from now on (appended as they go)."""
    sent: list[str] = []
    with web.app.app_context():
        engine = services().accounts.engine

    def note(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement)

    sa.event.listen(engine, "before_cursor_execute", note)
    return sent


def after_the_bound(changed_at: float) -> None:
    """Wait (on the clock, not a fixed sleep) until AUTH_CACHE_SECONDS have passed since
    ``changed_at``."""
    while time.monotonic() < changed_at + BOUND:
        time.sleep(0.02)


def test_a_remembered_token_and_role_cost_no_query_on_the_next_request(web: Web) -> None:
    web.tournament("club")
    token = web.caller(Role.ORGANISER, "club", email="org@club.at")
    sent = account_queries(web)

    def lookups() -> int:
        """The token's lookup and the role's (the members list reads roles of its own)."""
        found = [s for s in sent if "token_hash =" in s or "acct_accounts.admin, acct_tou" in s]
        sent.clear()
        return len(found)

    assert web.get(MEMBERS, token=token).status_code == 200
    assert lookups() == 2  # asked once, then remembered
    assert web.get(MEMBERS, token=token).status_code == 200
    assert lookups() == 0


def test_a_token_revoked_through_the_same_process_stops_at_once(web: Web) -> None:
    web.tournament("club")
    token = web.caller(Role.ORGANISER, "club", email="org@club.at")
    assert web.get(MEMBERS, token=token).status_code == 200
    web.accounts.revoke_token("org@club.at", "tests")
    reply = web.get(MEMBERS, token=token)
    assert reply.status_code == 401 and "revoked" in reply.get_json()["detail"]


def test_a_role_taken_back_through_the_same_process_counts_at_once(web: Web) -> None:
    web.tournament("club")
    token = web.caller(Role.ORGANISER, "club", email="org@club.at")
    assert web.get(MEMBERS, token=token).status_code == 200
    assert web.accounts.revoke_role("org@club.at", "club")
    assert web.get(MEMBERS, token=token).status_code == 403


def test_a_token_revoked_by_another_process_stops_within_the_bound(
    web: Web, elsewhere: Accounts
) -> None:
    web.tournament("club")
    token = web.caller(Role.ORGANISER, "club", email="org@club.at")
    assert web.get(MEMBERS, token=token).status_code == 200
    elsewhere.revoke_token("org@club.at", "tests")
    after_the_bound(time.monotonic())
    reply = web.get(MEMBERS, token=token)
    assert reply.status_code == 401 and "revoked" in reply.get_json()["detail"]


def test_a_role_taken_back_by_another_process_counts_within_the_bound(
    web: Web, elsewhere: Accounts
) -> None:
    web.tournament("club")
    token = web.caller(Role.ORGANISER, "club", email="org@club.at")
    assert web.get(MEMBERS, token=token).status_code == 200
    assert elsewhere.revoke_role("org@club.at", "club")
    after_the_bound(time.monotonic())
    assert web.get(MEMBERS, token=token).status_code == 403


def test_a_token_made_by_another_process_works_at_once(web: Web, elsewhere: Accounts) -> None:
    """Unknown tokens are never remembered: a refusal is not kept for the bound."""
    web.tournament("club")
    web.caller(Role.ORGANISER, "club", email="org@club.at")
    _, secret = elsewhere.create_token("org@club.at", "second")
    assert web.get(MEMBERS, token=secret).status_code == 200


def test_a_role_granted_by_another_process_counts_within_the_bound(
    web: Web, elsewhere: Accounts
) -> None:
    web.tournament("club")
    token = web.caller(Role.SCORER, "club", email="helper@club.at")
    assert web.get(MEMBERS, token=token).status_code == 403
    elsewhere.grant("helper@club.at", "club", Role.ORGANISER, by="admin@club.at")
    after_the_bound(time.monotonic())
    assert web.get(MEMBERS, token=token).status_code == 200


def test_a_role_granted_by_another_process_to_an_account_without_one_works_at_once(
    web: Web, elsewhere: Accounts
) -> None:
    """No role is never remembered (docs/operations.md: a granted role works at once):
    the organiser grants a helper a role with the command line while the helper's
    script is already being refused."""
    web.tournament("club")
    token = web.caller(None, "club", email="helper@club.at")
    assert web.get(MEMBERS, token=token).status_code == 403
    elsewhere.grant("helper@club.at", "club", Role.ORGANISER, by="admin@club.at")
    assert web.get(MEMBERS, token=token).status_code == 200


def test_a_read_that_began_before_a_write_is_not_remembered_after_it() -> None:
    """A value read from the database before a write of this process (another thread)
    must not be remembered once the write has forgotten everything."""
    from tournament.accounts.remembered import Remembered

    memory = Remembered(60.0)
    began = memory.generation  # a reader starts asking the database ...
    memory.forget()  # ... a write ends meanwhile ...
    memory.put(("role", 1, "club"), Role.OWNER, began)  # ... and the old answer arrives
    assert memory.get(("role", 1, "club")) is None
