"""The desk's nav shows each page only to the roles it opens for (issue 11 review): a
scorer keeps Overview, Players, Rounds and Scoresheets (reading, entering results) but
sees no Queue or Audit log, which would only refuse them; an organiser sees them all."""

from __future__ import annotations

from tests.pages.markup import elements
from tests.pages.test_desk_setup import signed_in_as
from tests.web.conftest import Web
from tournament.accounts.roles import Role

SCORER_SEES = ["", "/players", "/rounds", "/sheets"]
ORGANISER_ALSO = ["/queue", "/online", "/audit"]


def nav_links(web: Web, path: str) -> list[str]:
    reply = web.client.get(f"{path}?lang=en")
    assert reply.status_code == 200, path
    html = reply.get_data(as_text=True)
    start = html.index('<nav class="desk-nav"')
    end = html.index("</nav>", start)
    return [e.attrs["href"] for e in elements(html[start:end]) if e.tag == "a"]


def test_a_scorer_sees_only_the_desk_pages_a_scorer_may_open(web: Web, club: str) -> None:
    signed_in_as(web, "scorer@club.at", club, Role.SCORER)
    desk = f"/desk/t/{club}"
    for page in (desk, f"{desk}/players", f"{desk}/rounds"):
        links = nav_links(web, page)
        assert links == [desk + path for path in SCORER_SEES] + [f"/t/{club}"], page
    for path in ORGANISER_ALSO:  # what is left out would refuse them (or is not there)
        assert web.client.get(desk + path).status_code in (403, 404)


def test_an_organiser_sees_every_desk_page(web: Web, club: str) -> None:
    signed_in_as(web, "organiser@club.at", club, Role.ORGANISER)
    desk = f"/desk/t/{club}"
    expected = [desk + path for path in SCORER_SEES + ORGANISER_ALSO] + [f"/t/{club}"]
    assert nav_links(web, f"{desk}/players") == expected
    assert web.client.get(f"{desk}/queue").status_code == 200
