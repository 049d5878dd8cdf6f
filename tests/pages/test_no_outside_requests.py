"""No page and no static file fetches anything from outside the service: a club room often
has no internet, and a phone there must not wait for a CDN (issue 11). Every URL in a
page or a hand-written static file is the service's own; the vendored files hold only the
URLs listed here, none of which a browser fetches."""

from __future__ import annotations

import re
from pathlib import Path

from tests.web.conftest import Web
from tournament.web import i18n

STATIC = Path(i18n.__file__).parent / "static"
URL = re.compile(r"https?://[^\s\"'<>()`]+")

#: URLs in the vendored files, and why none of them is a request.
VENDORED_URLS = {
    "http://www.w3.org/2000/svg": "axe-core: the SVG namespace (a name, never fetched)",
    "https://github.com/zloirock/core-js": "axe-core: core-js's licence comment",
    "https://github.com/zloirock/core-js/blob/v3.51.0/LICENSE": "axe-core: licence comment",
    "https://github.com/dequelabs/axe-core/blob/master/doc/context.md": "axe-core: an error "
    "message's pointer to its documentation",
    "https://dequeuniversity.com/rules/": "axe-core: the helpUrl of its findings (shown, not "
    "fetched)",
    "http://mozilla.org/MPL/2.0/.": "axe-core: the licence header",
}


def outside(text: str, own: str = "http://localhost") -> list[str]:
    return [url for url in URL.findall(text) if not url.startswith(own)]


def test_no_page_names_an_outside_url(web: Web) -> None:
    from tests.web.played import swiss

    tid = swiss(web, "club", rounds=1)
    for path in (f"/t/{tid}", f"/t/{tid}/standings-fragment", "/t/nope"):
        for lang in ("de", "en"):
            html = web.client.get(f"{path}?lang={lang}").get_data(as_text=True)
            assert outside(html) == [], (path, lang)


#: The favicon's image (a picture, no text to name a URL in; polish 1 of the browser trial).
BINARY = {".ico"}
#: The SVG namespace the favicon.svg must declare: a name, never fetched.
SVG_NAMESPACE = "http://www.w3.org/2000/svg"


def test_hand_written_static_files_name_no_url() -> None:
    files = [p for p in STATIC.rglob("*") if p.is_file() and "vendor" not in p.parts]
    assert {p.name for p in files} >= {"app.css", "live.js", "favicon.svg"}
    for path in files:
        if path.suffix in BINARY:
            continue
        assert [url for url in URL.findall(path.read_text()) if url != SVG_NAMESPACE] == [], path


def test_vendored_files_hold_only_urls_no_browser_fetches() -> None:
    vendored = [p for p in (STATIC / "vendor").iterdir() if p.suffix == ".js"]
    assert {p.name for p in vendored} == {"htmx.min.js", "sse.js", "axe.min.js"}
    for path in vendored:
        unknown = set(URL.findall(path.read_text())) - set(VENDORED_URLS)
        assert unknown == set(), path


def test_the_static_files_are_served(web: Web) -> None:
    for name in ("app.css", "live.js", "vendor/htmx.min.js", "vendor/sse.js"):
        reply = web.client.get(f"/static/{name}")
        assert reply.status_code == 200, name
        reply.close()
