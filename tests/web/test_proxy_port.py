"""Operator F2: behind the deploy's proxy on a port other than 443, a browser signs in
and the printed QR codes carry the port; a form the CSRF check refuses answers a page in
the reader's language with a way back, while the API keeps problem+json.

The proxy is simulated the way deploy/nginx.conf sets its headers (read from the file:
``$http_host`` is the Host the browser sent, port included; ``$host`` is without it),
into the app's ProxyFix (``SCHNAPSEN_PROXY_HOPS=1``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.deploy.files import nginx
from tests.web.conftest import Web, make_web
from tests.web.played import swiss

PUBLIC = "club.example:8443"  # the browser's address bar: https://club.example:8443/
ORIGIN = f"https://{PUBLIC}"
PASSWORD = "a long password 1"


def proxied_headers(browser_host: str = PUBLIC) -> dict[str, str]:
    """The headers deploy/nginx.conf's server block sends for a browser at
    ``https://<browser_host>/``, its variables worked out as nginx does."""
    (server,) = [
        s for s in nginx().children("http")[0].children("server") if s.first("ssl_certificate")
    ]
    variables = {
        "$http_host": browser_host,
        "$host": browser_host.split(":")[0],
        "$scheme": "https",
        "$proxy_add_x_forwarded_for": "203.0.113.7",
        "$schnapsen_request_id": "f2-proxy-port",
    }
    sent = {name: variables[value] for name, value in server.all("proxy_set_header")}
    assert sent.get("X-Forwarded-Proto") == "https"
    return sent


@pytest.fixture
def behind_proxy(tmp_path: Path) -> Web:
    web = make_web(f"sqlite:///{tmp_path / 'proxy.sqlite3'}", tmp_path, PROXY_HOPS=1)
    web.admin()
    return web


def sign_in_form(web: Web, headers: dict[str, str]) -> str:
    page = web.client.get("/login", headers=headers, base_url="http://127.0.0.1:8000")
    assert page.status_code == 200
    found = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
    assert found is not None
    return found.group(1)


def post_sign_in(web: Web, headers: dict[str, str], token: str) -> object:
    return web.client.post(
        "/login",
        data={"email": "admin@club.at", "password": PASSWORD, "csrf_token": token},
        headers={**headers, "Referer": f"{ORIGIN}/login", "Origin": ORIGIN},
        base_url="http://127.0.0.1:8000",  # gunicorn's bind: the proxy's upstream
    )


def test_operator_f2_a_sign_in_through_the_proxy_on_port_8443_reaches_the_desk(
    behind_proxy: Web,
) -> None:
    headers = proxied_headers()
    assert headers["Host"] == PUBLIC and headers["X-Forwarded-Host"] == PUBLIC
    reply = post_sign_in(behind_proxy, headers, sign_in_form(behind_proxy, headers))
    assert reply.status_code == 303, reply.get_data(as_text=True)  # type: ignore[attr-defined]
    desk = behind_proxy.client.get("/desk", headers=headers, base_url="http://127.0.0.1:8000")
    assert desk.status_code == 200


@pytest.mark.parametrize(
    ("language", "words", "back"),
    [("de", "nicht angenommen", "Zurück"), ("en", "not accepted", "Back")],
)
def test_operator_f2_a_refused_form_is_a_page_in_the_readers_language_with_a_way_back(
    behind_proxy: Web, language: str, words: str, back: str
) -> None:
    """The proxy of the finding ($host: no port) made the app see another host than the
    browser's Referer: the refusal is a page, not problem+json."""
    headers = {**proxied_headers(), "X-Forwarded-Host": "club.example", "Host": "club.example"}
    headers["Accept-Language"] = language
    headers["Accept"] = "text/html,application/xhtml+xml"
    reply = post_sign_in(behind_proxy, headers, sign_in_form(behind_proxy, headers))
    assert reply.status_code == 403  # type: ignore[attr-defined]
    assert reply.mimetype == "text/html"  # type: ignore[attr-defined]
    html = reply.get_data(as_text=True)  # type: ignore[attr-defined]
    assert words in html and f">{back}</a>" in html
    assert f'href="{ORIGIN}/login"' in html  # back to the form it came from


def test_operator_f2_the_api_keeps_problem_json_for_a_csrf_refusal(behind_proxy: Web) -> None:
    headers = proxied_headers()
    reply = post_sign_in(behind_proxy, headers, sign_in_form(behind_proxy, headers))
    assert reply.status_code == 303  # type: ignore[attr-defined]
    # A signed-in browser session writing to the API without its CSRF token.
    api = behind_proxy.client.post(
        "/api/v1/tournaments",
        json={"name": "Cup", "id": "cup", "format": "swiss", "best_of": 3},
        headers={**headers, "Referer": f"{ORIGIN}/desk"},
        base_url="http://127.0.0.1:8000",
    )
    assert api.status_code == 403 and api.mimetype == "application/problem+json"
    assert api.get_json()["type"].endswith("/csrf")


def test_operator_f2_the_qr_codes_keep_the_port(behind_proxy: Web) -> None:
    from tests.printing.helpers import pdf_text, require_weasyprint

    tid = swiss(behind_proxy, rounds=1)
    headers = proxied_headers()
    projector = behind_proxy.client.get(
        f"/t/{tid}/projector", headers=headers, base_url="http://127.0.0.1:8000"
    )
    assert f"{ORIGIN}/t/{tid}" in projector.get_data(as_text=True)
    require_weasyprint()
    status = behind_proxy.ok(
        "POST", f"/api/v1/tournaments/{tid}/print-packs", {"kind": "table-cards"},
        headers=headers, base_url="http://127.0.0.1:8000",
    )  # fmt: skip
    assert status["status"] == "done", status
    text = "".join(pdf_text(behind_proxy.get(status["pdf"]).data).split())  # lines wrap
    assert f"{ORIGIN}/t/{tid}" in text and f"{ORIGIN}/r/" in text
