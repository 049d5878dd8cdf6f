"""Request bodies are capped before they are parsed (issue 21, trial 2 F3 and F5): a
body too big is 413, one too deep or too wide is 422, each answered at once as
problem+json, never 500 and never a minute of CPU, and nothing is stored. Anonymous
routes first: ``POST /api/v1/tokens`` and a seat's moves need no account."""

from __future__ import annotations

import io
import time

import pytest

from tests.web.conftest import Web
from tournament.web.body_caps import LIMITS
from tournament.web.problems import MAX_ERRORS

#: Routes anyone may POST JSON to, and one of an organiser.
ANONYMOUS = ["/api/v1/tokens", "/api/v1/play/ABCDEF/actions"]
#: "A few seconds" on a loaded 2-core machine: the trial's answers took 49-74 s.
FAST = 5.0


def posted(web: Web, path: str, body: bytes, **headers: str) -> tuple[int, dict, float]:
    started = time.perf_counter()
    reply = web.client.post(
        path, data=body, headers={"Content-Type": "application/json", **headers}
    )
    took = time.perf_counter() - started
    assert reply.mimetype == "application/problem+json", reply.get_data(as_text=True)[:300]
    return reply.status_code, reply.get_json(), took


def million_keys() -> bytes:
    return ("{" + ",".join(f'"k{i}":1' for i in range(1_000_000)) + "}").encode()


@pytest.mark.parametrize("path", ANONYMOUS)
def test_a_body_of_a_million_keys_is_refused_at_once_as_too_large(web: Web, path: str) -> None:
    status, problem, took = posted(web, path, million_keys())
    assert status == 413
    assert problem["field"] == "body"
    assert took < FAST
    assert web.accounts.count() == 0


@pytest.mark.parametrize("path", ANONYMOUS)
@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_a_body_nested_100000_deep_is_422_not_500(web: Web, path: str, opening: str) -> None:
    status, problem, took = posted(web, path, (opening * 100_000).encode())
    assert status == 422
    assert "nested deeper than" in problem["detail"]
    assert took < FAST


def test_a_body_nested_deeper_than_the_limit_but_well_formed_is_422(web: Web) -> None:
    depth = LIMITS["JSON_MAX_DEPTH"] + 1
    body = ("[" * depth + "]" * depth).encode()
    status, problem, _ = posted(web, "/api/v1/tokens", body)
    assert status == 422
    assert problem["field"] == "body"


def test_a_body_with_too_many_keys_under_the_size_limit_is_422(web: Web) -> None:
    keys = LIMITS["JSON_MAX_MEMBERS"] + 1
    body = ("{" + ",".join(f'"k{i}":1' for i in range(keys)) + "}").encode()
    assert len(body) < LIMITS["BODY_LIMIT"]
    status, problem, took = posted(web, "/api/v1/tokens", body)
    assert status == 422
    assert "keys and items" in problem["detail"]
    assert took < FAST


def test_a_refusal_lists_at_most_twenty_errors_and_counts_the_rest(web: Web) -> None:
    tid = web.tournament()
    unknown = ",".join(f'"k{i}":1' for i in range(500))
    body = ('{"name": "Anna", ' + unknown + "}").encode()
    status, problem, _ = posted(
        web, f"/api/v1/tournaments/{tid}/players", body, Authorization=f"Bearer {web.admin()}"
    )
    assert status == 422
    assert len(problem["errors"]) == MAX_ERRORS
    assert "(and 499 more)" in problem["detail"] or "more)" in problem["detail"]
    players = web.get(f"/api/v1/tournaments/{tid}/players").get_json()["players"]
    assert players == []


def test_an_oversized_body_is_413_on_an_organisers_route_and_stores_nothing(web: Web) -> None:
    tid = web.tournament()
    body = b'{"name": "' + b"x" * (LIMITS["BODY_LIMIT"] + 1) + b'"}'
    status, problem, took = posted(
        web, f"/api/v1/tournaments/{tid}/players", body, Authorization=f"Bearer {web.admin()}"
    )
    assert status == 413
    assert "at most" in problem["detail"]
    assert took < FAST
    assert web.get(f"/api/v1/tournaments/{tid}/players").get_json()["players"] == []


def test_a_players_csv_may_be_bigger_than_a_json_body_but_not_without_limit(web: Web) -> None:
    tid = web.tournament()
    token = web.admin()
    path = f"/api/v1/tournaments/{tid}/players/import"
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "text/csv"}
    # Bigger than a JSON body may be: read, and refused by its rows, not by its size.
    rows = "name,club\n" + "".join(f"Player {i},Club\n" for i in range(80_000))
    assert LIMITS["BODY_LIMIT"] < len(rows) < LIMITS["CSV_BODY_LIMIT"]
    read = web.client.post(path, data=rows.encode(), headers=headers)
    assert read.status_code != 413
    huge = rows * 4
    assert len(huge) > LIMITS["CSV_BODY_LIMIT"]
    started = time.perf_counter()
    refused = web.client.post(path, data=huge.encode(), headers=headers)
    assert refused.status_code == 413
    assert time.perf_counter() - started < FAST


def test_a_chunked_body_without_a_length_is_cut_at_the_limit(web: Web) -> None:
    body = io.BytesIO(b" " * (LIMITS["BODY_LIMIT"] + 10_000))
    reply = web.client.post(
        "/api/v1/tokens",
        input_stream=body,
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        # A server that de-chunks (waitress, gunicorn) says the stream ends on its own.
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert reply.status_code == 413


def test_a_csv_upload_too_big_for_the_desk_says_so_on_a_page_in_german(web: Web) -> None:
    from tests.web.test_sign_in import PASSWORD, csrf_of

    tid = web.tournament()
    web.admin()
    page = web.client.get("/login").get_data(as_text=True)
    web.client.post("/login", data={"email": "admin@club.at", "password": PASSWORD,
                                    "csrf_token": csrf_of(page)})  # fmt: skip
    form = web.client.get(f"/desk/t/{tid}/players/import").get_data(as_text=True)
    big = "name\n" + "Anna\n" * (LIMITS["CSV_BODY_LIMIT"] // 5 + 10)
    reply = web.client.post(
        f"/desk/t/{tid}/players/import?lang=de",
        data={"csrf_token": csrf_of(form), "csv": big},
    )
    assert reply.status_code == 413
    assert reply.mimetype == "text/html"
    assert "Die Datei ist zu groß: höchstens 4 MB." in reply.get_data(as_text=True)
