"""``Idempotency-Key`` on every POST: a retry gets the first answer, the same key with
another request gets 422; nothing is stored twice (issue 9)."""

from __future__ import annotations

from tests.web.conftest import Web


def test_a_retried_create_gets_the_first_answer_and_stores_once(web: Web) -> None:
    body = {"name": "Club Cup", "date": "2026-11-27"}
    key = {"Idempotency-Key": "6f1d7c3e-create"}
    first = web.post("/api/v1/tournaments", body, headers=key)
    again = web.post("/api/v1/tournaments", body, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    listed = web.ok("GET", "/api/v1/tournaments")["tournaments"]
    assert [t["id"] for t in listed] == ["club-cup-2026-11-27"]


def test_the_same_key_with_another_body_is_422_and_stores_nothing(web: Web) -> None:
    key = {"Idempotency-Key": "k-1"}
    web.ok("POST", "/api/v1/tournaments", {"name": "Club Cup"}, headers=key)
    other = web.post("/api/v1/tournaments", {"name": "Other Cup"}, headers=key)
    assert other.status_code == 422
    assert other.get_json()["field"] == "Idempotency-Key"
    assert len(web.ok("GET", "/api/v1/tournaments")["tournaments"]) == 1


def test_keys_of_two_accounts_never_meet(web: Web) -> None:
    """Two clients that happen to pick the same key each get their own answer."""
    key = {"Idempotency-Key": "same-key"}
    web.ok("POST", "/api/v1/tournaments", {"name": "Club Cup"}, headers=key)
    other = web.token("org@club.at")
    made = web.post("/api/v1/tournaments", {"name": "Other Cup"}, headers=key, token=other)
    assert made.status_code == 201
    assert made.get_json()["id"] == "other-cup"


def test_a_key_that_is_not_printable_ascii_is_422(web: Web) -> None:
    reply = web.post("/api/v1/tournaments", {"name": "Cup"}, headers={"Idempotency-Key": "a b"})
    assert reply.status_code == 422
    assert reply.get_json()["field"] == "Idempotency-Key"


def test_the_creator_of_a_tournament_owns_it(web: Web) -> None:
    web.admin()
    token = web.token("org@club.at")
    web.ok("POST", "/api/v1/tournaments", {"name": "Cup", "id": "cup"}, token=token)
    me = web.ok("GET", "/api/v1/me", token=token)
    assert me["roles"] == {"cup": "owner"}
    made = web.ok("GET", "/api/v1/tournaments/cup")
    assert made["version"] == 1 and made["progress"]["status"] == "open"


def test_an_admin_who_creates_a_tournament_owns_it_too_opfix_6c(web: Web) -> None:
    """Operator trial of main, 6c: api.md says the creator becomes its owner, but an
    admin who created a tournament through the API had no role (`accounts list`: -)."""
    token = web.admin()
    web.ok("POST", "/api/v1/tournaments", {"name": "Cup", "id": "cup"}, token=token)
    me = web.ok("GET", "/api/v1/me", token=token)
    assert me["admin"] is True and me["roles"] == {"cup": "owner"}
