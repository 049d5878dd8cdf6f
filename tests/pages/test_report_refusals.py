"""A report from the table that does not decide its match (R20) is refused with the rule
named once (issue 11 review: "... (best of 3, R20): enter every Bummerl played (R20)")."""

from __future__ import annotations

from tests.pages.test_report import codes, first_match, post
from tests.web.conftest import Web
from tests.web.played import state


def test_a_sheet_that_decides_nothing_is_refused_naming_r20_once(web: Web, club: str) -> None:
    mid = first_match(web, club)
    a, _ = codes(web, club, mid)
    one_bummerl = {"bummerl_1": "7 4 1 0 / 7 6", "bummerl_2": "", "bummerl_3": ""}
    status, html = post(web, a, {"action": "report", **one_bummerl})
    assert status == 422, html
    assert "the sheet does not decide the match (best of 3): enter every Bummerl played" in html
    assert html.count("R20") == 1
    assert not state(web, club).matches[mid].entries
