"""``tournament serve`` (``./dev serve``): the web service under waitress, its printed
URLs, the club network's address and QR code, and the one-time setup link -- through
the app's test client and through a real server in a process of its own."""

from __future__ import annotations

import http.cookiejar
import ipaddress
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Web
from tournament.web.serve_limits import HEAD_SECONDS, PER_ADDRESS
from tournament.web.server import STREAMS, THREADS, lan_address, qr_code, setup_link

REPO = Path(__file__).resolve().parents[2]
BASE = "http://127.0.0.1:8080/"


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, html
    return found.group(1)


def token_of(link: str) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["token"][0]


def submit_setup(web: Web, link: str, email: str, password: str, token: str | None = None) -> Any:
    """Open the setup link as a browser does, then send its form."""
    path = link.removeprefix(BASE.rstrip("/"))
    page = web.client.get(path)
    form = {"csrf_token": csrf_of(page.get_data(as_text=True)), "email": email}
    form |= {"password": password, "token": token if token is not None else token_of(link)}
    return web.client.post("/setup", data=form)


# -- the setup link, through the test client ------------------------------------------


def test_the_setup_link_creates_the_first_organiser_once(web: Web) -> None:
    link = setup_link(web.app, BASE)
    assert link is not None and link.startswith(f"{BASE}setup?token=")

    created = submit_setup(web, link, "anna@club.at", "a long password 1")
    assert created.status_code == 303 and created.headers["Location"] == "/desk"
    anna = web.accounts.by_email("anna@club.at")
    assert anna is not None and anna.admin
    assert web.client.get("/api/v1/me").get_json()["email"] == "anna@club.at"  # signed in

    again = submit_setup(web, link, "mallory@club.at", "another password 2")
    assert again.status_code == 410
    assert web.accounts.by_email("mallory@club.at") is None
    assert web.accounts.count() == 1
    assert setup_link(web.app, BASE) is None  # a restart prints no link any more


def test_the_setup_link_works_only_with_its_token(web: Web) -> None:
    link = setup_link(web.app, BASE)
    assert link is not None
    for wrong in ("", "guessed", token_of(link)[:-1] + "x", "x" * 5000):
        refused = submit_setup(web, link, "mallory@club.at", "a long password 1", token=wrong)
        assert refused.status_code == 422, wrong
        assert "this setup link is not valid or was used already" in refused.get_data(as_text=True)
    assert web.accounts.count() == 0
    # A refusal does not use the link up; a typo in the form does not either.
    typo = submit_setup(web, link, "anna@club.at", "short")
    assert typo.status_code == 422 and web.accounts.count() == 0
    assert submit_setup(web, link, "anna@club.at", "a long password 1").status_code == 303


def test_no_setup_link_once_there_is_an_account(web: Web) -> None:
    web.admin()
    assert setup_link(web.app, BASE) is None
    assert web.client.get("/setup?token=anything").status_code == 410


# -- what serve prints ----------------------------------------------------------------


def test_the_club_network_address_is_not_loopback_and_reaches_this_machine() -> None:
    address = lan_address()
    if address is None:
        pytest.skip("this machine has no network but loopback")
    ip = ipaddress.ip_address(address)
    assert ip.version == 4 and not ip.is_loopback and not ip.is_unspecified
    with socket.socket() as listener:  # an address of this machine: it can listen on it
        listener.bind((address, 0))


def test_without_a_route_the_address_comes_from_the_host_name() -> None:
    expected = None
    try:
        names = socket.gethostbyname_ex(socket.gethostname())[2]
        expected = next((n for n in names if not n.startswith("127.")), None)
    except OSError:
        pass
    assert lan_address(probes=()) == expected


def test_the_qr_code_is_a_compact_block_picture_for_a_terminal() -> None:
    picture = qr_code("http://192.168.1.23:8080/")
    rows = picture.splitlines()
    assert len(rows) >= 15 and len({len(row) for row in rows}) == 1  # square-ish, even
    assert set(picture) <= {"█", "▀", "▄", " ", "\n"}
    assert len(rows) < len(rows[0])  # compact: two modules per character row


def test_the_default_threads_and_streams_are_the_documented_ones() -> None:
    """Speed P12: 16 request threads and a budget of 512 live streams of their own."""
    from tournament.cli.serve import serve

    defaults = {p.name: p.default for p in serve.params}
    assert defaults["threads"] == THREADS == 16
    assert defaults["streams"] == STREAMS == 512
    assert defaults["max_per_address"] == PER_ADDRESS == 32
    assert defaults["head_timeout"] == HEAD_SECONDS == 10.0


# -- a real server --------------------------------------------------------------------


def clean_environment() -> dict[str, str]:
    """This environment without what would point serve elsewhere than its defaults."""
    settings = ("DATABASE_URL", "REDIS_URL", "PORT", "SECRET_KEY", "SCHNAPSEN_SECURE_COOKIES")
    return {name: value for name, value in os.environ.items() if name not in settings}


class Served:
    """``python -m tournament serve ARGS`` in a process of its own, its output in files."""

    def __init__(self, folder: Path, *args: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.out_file, self.err_file = folder / "stdout", folder / "stderr"
        env = {**clean_environment(), "SCHNAPSEN_INSTANCE": str(folder / "instance")}
        with self.out_file.open("w") as out, self.err_file.open("w") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tournament", "serve", *args],
                stdout=out,
                stderr=err,
                cwd=REPO,
                env=env,
            )
        self.url = self.wait_for(r"Schnapsen tournament service: (http://\S+)")

    @property
    def out(self) -> str:
        return self.out_file.read_text()

    @property
    def err(self) -> str:
        return self.err_file.read_text()

    def wait_for(self, pattern: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if "Ctrl-C stops the service" in self.out:
                found = re.search(pattern, self.out)
                assert found, self.out + self.err
                return found.group(1)
            assert self.process.poll() is None, self.out + self.err
            time.sleep(0.05)
        raise AssertionError("serve did not start: " + self.out + self.err)

    def stop(self, how: int = signal.SIGINT) -> int:
        self.process.send_signal(how)
        return self.process.wait(20)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path / "serve", "--port", "0")
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait(10)


def browser() -> urllib.request.OpenerDirector:
    """A client that keeps cookies as a browser does (a Secure cookie never goes back
    over http) and does not follow redirects."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect())


def fetch(
    opener: urllib.request.OpenerDirector,
    url: str,
    form: dict[str, str] | None = None,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, str, Any]:
    data = None
    sent = dict(headers or {})
    if form is not None:
        data = urllib.parse.urlencode(form).encode()
    elif body is not None:
        data, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
    request = urllib.request.Request(url, data=data, headers=sent)
    try:
        with opener.open(request, timeout=20) as reply:
            return reply.status, reply.read().decode(), reply.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.headers


def test_a_real_server_answers_and_its_setup_link_creates_the_first_organiser_once(
    served: Served,
) -> None:
    url = served.url
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url)
    assert f"API docs: {url}docs/" in served.out
    link = served.wait_for(r"\n  (http://\S+/setup\?token=\S+)\n")
    assert link.startswith(f"{url}setup?token=")

    status, body, headers = fetch(browser(), url + "healthz")
    assert (status, json.loads(body)["status"]) == (200, "ok")
    assert headers["Server"] == "schnapsen"

    anna = browser()
    status, page, headers = fetch(anna, link)
    assert status == 200
    assert "Secure" not in headers["Set-Cookie"] and "HttpOnly" in headers["Set-Cookie"]
    form = {"csrf_token": csrf_of(page), "email": "anna@club.at", "password": "a long password 1"}
    status, refused, _ = fetch(anna, url + "setup", form | {"token": token_of(link)[::-1]})
    assert status == 422 and "this setup link is not valid" in refused
    status, _, headers = fetch(anna, url + "setup", form | {"token": token_of(link)})
    assert status == 303 and headers["Location"] == "/desk"
    status, me, _ = fetch(anna, url + "api/v1/me")  # signed in by the session cookie
    assert json.loads(me)["email"] == "anna@club.at" and json.loads(me)["admin"] is True

    mallory = browser()
    status, page, _ = fetch(mallory, link)
    assert status == 410
    form = {"csrf_token": csrf_of(page), "token": token_of(link), "email": "mallory@club.at"}
    status, _, _ = fetch(mallory, url + "setup", form | {"password": "another password 2"})
    assert status == 410
    login = {"email": "mallory@club.at", "password": "another password 2", "name": "x"}
    status, _, _ = fetch(mallory, url + "api/v1/tokens", body=login)
    assert status == 401

    assert served.stop(signal.SIGINT) == 0
    assert served.out.endswith("Stopped.\n")
    assert "Traceback" not in served.err
    logged = [json.loads(line) for line in served.err.splitlines() if line.startswith("{")]
    requests = [(line["method"], line["path"], line["status"]) for line in logged]
    assert ("GET", "/healthz", 200) in requests
    assert ("POST", "/setup", 303) in requests
    assert len(logged) == len(served.err.splitlines())  # every line of stderr is JSON


def test_a_real_server_on_the_default_host_is_not_on_the_club_network(served: Served) -> None:
    address = lan_address()
    if address is None:
        pytest.skip("this machine has no network but loopback")
    port = urllib.parse.urlsplit(served.url).port
    with pytest.raises(OSError), socket.create_connection((address, port), 2):
        pass


def test_serve_lan_prints_the_club_address_with_a_qr_code_and_answers_there(
    tmp_path: Path,
) -> None:
    address = lan_address()
    if address is None:
        pytest.skip("this machine has no network but loopback")
    served = Served(tmp_path, "--lan", "--port", "0")
    try:
        club = served.wait_for(r"On the club network: (http://\S+)")
        port = urllib.parse.urlsplit(served.url).port
        assert club == f"http://{address}:{port}/"
        assert "▀" in served.out or "▄" in served.out  # the QR code
        assert f"\n  {club}setup?token=" in served.out  # the setup link opens from a phone
        for where in (club, served.url):
            status, _body, _ = fetch(browser(), where + "healthz")
            assert status == 200, where
        assert served.stop(signal.SIGTERM) == 0  # as systemd or docker stop it
        assert served.out.endswith("Stopped.\n")
    finally:
        if served.process.poll() is None:
            served.process.kill()
            served.process.wait(10)


def test_serve_refuses_a_port_in_use_in_one_line(served: Served, tmp_path: Path) -> None:
    port = str(urllib.parse.urlsplit(served.url).port)
    done = subprocess.run(
        [sys.executable, "-m", "tournament", "serve", "--port", port],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**clean_environment(), "SCHNAPSEN_INSTANCE": str(tmp_path / "other")},
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"Error: cannot listen on http://127.0.0.1:{port}/: the port is in use "
        "(is the service running already? --port picks another)"
    )
