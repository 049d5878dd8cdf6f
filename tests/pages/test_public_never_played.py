"""A no-show who never played is marked and listed last without a rank on every table
of the standings: the public page, the projector, the API's JSON and CSV, the PDF
(O-L8, docs/standings.md "Order")."""

from __future__ import annotations

import random

import pytest

from tests.pages.markup import elements, words
from tests.pages.public_formats import page
from tests.pages.test_desk_print_standings import printed
from tests.pages.test_desk_rounds import signed_in
from tests.web.conftest import Web
from tests.web.played import NAMES, register, run, state
from tournament.domain import commands as c
from tournament.domain.testing import random_tally

pypdf = pytest.importorskip("pypdf")


def with_a_no_show(web: Web) -> str:
    """Eight registered, Hans Hofer (8) never checked in; round 1 of the seven played."""
    tid = web.tournament("club", format="swiss", best_of=1, seed=7, options={"rounds": 3})
    register(web, tid, NAMES)
    for pid in range(1, 8):
        run(web, tid, lambda t, p=pid: c.check_in(t, p))
    run(web, tid, lambda t: c.start_round(t))
    rng = random.Random(3)
    for mid in state(web, tid).rounds[0].matches:
        first, second, _ = random_tally(rng)
        run(web, tid, lambda t, m=mid, x={"columns": [first, second]}: c.record_tally(t, m, x))
    return tid


def test_the_public_standings_mark_the_no_show_and_rank_nobody_after_the_players(
    web: Web,
) -> None:
    tid = with_a_no_show(web)
    html = page(web, f"/t/{tid}?lang=de")
    rows = [e for e in elements(html) if e.attrs.get("id", "").startswith("standing-")]
    assert rows[-1].attrs["id"] == "standing-8"
    last = words(rows[-1].text)
    assert last.startswith("–") and "(nicht gespielt)" in last
    assert "nicht gespielt: angemeldet, nie eingecheckt" in words(html)
    english = page(web, f"/t/{tid}?lang=en")
    assert "(did not play)" in english


def test_the_api_gives_no_rank_and_the_csv_an_empty_one(web: Web) -> None:
    tid = with_a_no_show(web)
    rows = web.ok("GET", f"/api/v1/tournaments/{tid}/standings", token=None)["rows"]
    assert (rows[-1]["player_id"], rows[-1]["rank"], rows[-1]["status"]) == (8, None, "absent")
    assert sorted(r["rank"] for r in rows[:-1])[-1] <= 7
    csv = web.get(f"/api/v1/tournaments/{tid}/standings", token=None,
                  headers={"Accept": "text/csv"}).get_data(as_text=True)  # fmt: skip
    last = csv.strip().splitlines()[-1].split(",")
    assert last[0] == "" and last[1] == "8" and "absent" in last


def test_the_standings_pdf_marks_the_no_show(web: Web) -> None:
    tid = with_a_no_show(web)
    signed_in(web)
    _, text = printed(web, tid, "standings", "en")
    assert "Hans Hofer (did not play)" in " ".join(text.split())


def test_the_crosstable_pdf_ranks_the_no_show_with_a_dash_never_none(web: Web) -> None:
    """N-L2: the crosstable PDF gave the no-show's rank as ``None``; the page says ``–``."""
    tid = with_a_no_show(web)
    signed_in(web)
    _, text = printed(web, tid, "crosstable", "en")
    line = next(x for x in text.splitlines() if "Hans Hofer" in x)
    assert "None" not in text and line.split()[0] == "–", line
