"""Dates in the reader's form (O-L6): German 07.12.26, English day before month (en-GB),
never the US month-day order that made "12/7/26" read as 12 July."""

from __future__ import annotations

import datetime as dt
import re

from tests.pages.test_desk_rounds import signed_in
from tests.web.conftest import Web
from tournament.web.i18n import local_date, local_datetime

#: 7 December 2026, 03:28 in Vienna.
MOMENT = dt.datetime(2026, 12, 7, 2, 28, tzinfo=dt.UTC)


def test_an_english_page_writes_the_day_before_the_month(web: Web) -> None:
    with web.app.test_request_context("/?lang=en"):
        assert local_datetime(MOMENT, "short") == "07/12/2026, 03:28"
        assert local_date(MOMENT.date(), "medium") == "7 Dec 2026"
        assert local_date(MOMENT.date(), "long") == "7 December 2026"


def test_a_german_page_writes_dates_the_german_way(web: Web) -> None:
    with web.app.test_request_context("/?lang=de"):
        assert local_datetime(MOMENT, "short") == "07.12.26, 03:28"
        assert local_date(MOMENT.date(), "medium") == "07.12.2026"
        assert local_date(MOMENT.date(), "long") == "7. Dezember 2026"


def test_a_moment_without_a_zone_is_utc_as_sqlite_gives_it(web: Web) -> None:
    with web.app.test_request_context("/?lang=de"):
        assert local_datetime(MOMENT.replace(tzinfo=None)) == "07.12.26, 03:28"


def test_the_desk_s_round_list_dates_each_draw_in_the_reader_s_form(web: Web, club: str) -> None:
    signed_in(web)
    en = web.client.get("/desk/t/club/rounds?lang=en").get_data(as_text=True)
    de = web.client.get("/desk/t/club/rounds?lang=de").get_data(as_text=True)
    today = dt.datetime.now(dt.UTC)
    assert re.search(rf"<td>\d\d/\d\d/{today.year}, \d\d:\d\d", en)
    assert not re.search(r"\d{1,2}/\d{1,2}/\d\d, \d{1,2}:\d\d [AP]M", en)
    assert re.search(r"<td>\d\d\.\d\d\.\d\d, \d\d:\d\d", de)
