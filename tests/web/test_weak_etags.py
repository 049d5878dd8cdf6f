"""Operator F3: a conditional GET matches its ETag by the weak comparison (RFC 9110
13.1.2), so a client behind a compressing proxy, which sends back ``W/"74-json"`` for the
app's ``"74-json"``, gets its 304 on every read that answers one."""

from __future__ import annotations

import pytest

from tests.web.conftest import Web
from tests.web.helpers import register

BASE = "/api/v1/tournaments/club"
#: Every read that tags its answer with the tournament's version.
READS = (
    BASE,
    f"{BASE}/standings",
    f"{BASE}/players",
    f"{BASE}/players/1",
    f"{BASE}/rounds",
    f"{BASE}/rounds/1",
    f"{BASE}/matches",
    f"{BASE}/matches/1.1",
    f"{BASE}/events",
)


@pytest.fixture
def drawn(web: Web) -> Web:
    web.tournament("club")
    register(web, "club", 4)
    web.ok("POST", f"{BASE}/rounds", {})
    return web


@pytest.mark.parametrize("path", READS)
def test_operator_f3_the_weak_form_of_the_etag_gets_a_304(drawn: Web, path: str) -> None:
    first = drawn.get(path)
    assert first.status_code == 200, first.get_data(as_text=True)
    tag = first.headers["ETag"]
    assert tag.startswith('"'), tag  # the app's own tags are strong
    for sent in (tag, f"W/{tag}", f'"other", W/{tag}', "*"):
        again = drawn.get(path, headers={"If-None-Match": sent})
        assert again.status_code == 304, (path, sent)
        assert again.headers["ETag"] == tag
        assert again.get_data() == b""


@pytest.mark.parametrize("path", (f"{BASE}/standings", f"{BASE}/matches/1.1"))
def test_operator_f3_another_versions_tag_weak_or_strong_gets_the_body(
    drawn: Web, path: str
) -> None:
    tag = drawn.get(path).headers["ETag"]
    older = tag.replace('"', '"0', 1)  # "74-json" -> "074-json": another tag
    for sent in (older, f"W/{older}"):
        assert drawn.get(path, headers={"If-None-Match": sent}).status_code == 200, sent
