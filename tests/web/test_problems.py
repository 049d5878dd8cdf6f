"""Every error is RFC 9457 problem+json naming what is wrong and where (issue 9)."""

from __future__ import annotations

from tests.web.conftest import Web

PROBLEM = "application/problem+json"


def problem(reply: object) -> dict[str, object]:
    assert reply.mimetype == PROBLEM, reply.get_data(as_text=True)  # type: ignore[attr-defined]
    body = reply.get_json()  # type: ignore[attr-defined]
    for member in ("type", "title", "status", "detail", "request_id"):
        assert member in body, (member, body)
    assert body["status"] == reply.status_code  # type: ignore[attr-defined]
    return body  # type: ignore[no-any-return]


def test_a_path_that_is_not_there_is_404(web: Web) -> None:
    reply = web.get("/api/v1/nothing-here")
    assert reply.status_code == 404
    assert "/api/v1/nothing-here" in problem(reply)["detail"]


def test_a_tournament_that_is_not_there_is_404_naming_it(web: Web) -> None:
    reply = web.get("/api/v1/tournaments/nope")
    assert reply.status_code == 404
    body = problem(reply)
    assert body["field"] == "tournament" and "nope" in body["detail"]


def test_a_method_a_route_does_not_have_is_405_with_allow(web: Web) -> None:
    reply = web.call("DELETE", "/api/v1/tournaments")
    assert reply.status_code == 405
    assert set(reply.headers["Allow"].split(", ")) >= {"GET", "POST"}
    assert "DELETE" in problem(reply)["detail"]


def test_a_body_that_is_not_json_is_422_saying_so(web: Web) -> None:
    reply = web.post(
        "/api/v1/tournaments", data="{not json", headers={"Content-Type": "application/json"}
    )
    assert reply.status_code == 422
    assert "not JSON" in problem(reply)["detail"]


def test_a_wrong_field_is_422_naming_each_field(web: Web) -> None:
    reply = web.post("/api/v1/tournaments", {"name": "", "best_of": 4, "colour": "red"})
    assert reply.status_code == 422
    body = problem(reply)
    fields = {e["field"] for e in body["errors"]}  # type: ignore[attr-defined]
    assert {"body.name", "body.best_of", "body.colour"} <= fields


def test_a_refusal_of_the_rules_names_field_and_rule(web: Web) -> None:
    reply = web.post("/api/v1/tournaments", {"name": "Cup", "date": "31.02.2026"})
    assert reply.status_code == 422
    body = problem(reply)
    assert body["field"] == "date" and str(body["rule"]).startswith("T-")


def test_a_refusal_of_the_rules_names_its_code_and_params_for_any_language(web: Web) -> None:
    """issue 11: ``detail`` stays English; ``code`` and ``params`` render it in another."""
    reply = web.post("/api/v1/tournaments", {"name": "Cup", "date": "31.02.2026"})
    body = problem(reply)
    assert body["code"] == "settings.day_calendar"
    assert body["params"] == {"text": "'31.02.2026'"}
    assert body["detail"] == "date: '31.02.2026' is not a day of the calendar (T-settings)"
    assert body["errors"] == [
        {
            "field": "date",
            "rule": "T-settings",
            "message": "'31.02.2026' is not a day of the calendar",
            "code": "settings.day_calendar",
            "params": {"text": "'31.02.2026'"},
        }
    ]


def test_creating_a_tournament_twice_is_409(web: Web) -> None:
    web.tournament("club")
    reply = web.post("/api/v1/tournaments", {"name": "Club Cup", "id": "club"})
    assert reply.status_code == 409
    assert "exists already" in problem(reply)["detail"]


def test_an_unexpected_failure_is_500_with_the_request_id_and_nothing_else(web: Web) -> None:
    @web.app.get("/boom-test-route")
    def boom() -> str:
        raise RuntimeError("secret internals")

    reply = web.get("/boom-test-route", headers={"X-Request-ID": "req-12345678"})
    assert reply.status_code == 500
    body = problem(reply)
    assert body["request_id"] == "req-12345678"
    assert "secret internals" not in reply.get_data(as_text=True)
    assert reply.headers["X-Request-ID"] == "req-12345678"
