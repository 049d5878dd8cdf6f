"""Players report from the table (T-code): ``/r`` and ``/r/<code>`` on a phone, no account.
A report waits for the opponent; the opponent confirms and the result is recorded (source
players); a dispute goes to the queue; wrong codes are refused and rate-limited."""

from __future__ import annotations

from pathlib import Path

from tests.pages.markup import elements, unlabelled
from tests.web.conftest import Web, make_web
from tests.web.played import state
from tests.web.test_sign_in import csrf_of
from tournament.app.services import services
from tournament.domain.commands.reports import reports_of
from tournament.domain.commands.tablecodes import match_codes
from tournament.domain.model import events as ev

SECRET = b"test-secret"
#: Seat 0 wins 2:0, the opponent scoring in both Bummerl.
SHEET = {"bummerl_1": "7 4 1 0 / 7 6", "bummerl_2": "7 5 2 0 / 7 6", "bummerl_3": ""}


def codes(web: Web, tid: str, mid: str) -> tuple[str, str]:
    t = state(web, tid)
    return match_codes(SECRET, t, t.matches[mid])


def first_match(web: Web, tid: str) -> str:
    return state(web, tid).rounds[-1].matches[0]


def post(web: Web, code: str, data: dict[str, str], lang: str = "en") -> tuple[int, str]:
    page = web.client.get(f"/r/{code}?lang={lang}").get_data(as_text=True)
    reply = web.client.post(f"/r/{code}", data={**data, "csrf_token": csrf_of(page)})
    if reply.status_code == 303:
        reply = web.client.get(reply.headers["Location"])
    return reply.status_code, reply.get_data(as_text=True)


def test_the_code_page_shows_the_match_and_the_sheet_form_without_an_account(
    web: Web, club: str
) -> None:
    mid = first_match(web, club)
    a, _ = codes(web, club, mid)
    reply = web.client.get(f"/r/{a}?lang=en")
    html = reply.get_data(as_text=True)
    assert reply.status_code == 200, html
    match = state(web, club).matches[mid]
    assert f"<h1>Table {match.table}</h1>" in html
    assert "best of 3" in html
    names = [state(web, club).players[p].name for p in match.players]
    assert all(name in html for name in names)
    assert [e.attrs["name"] for e in elements(html) if e.tag == "input" and e.attrs.get("id")] == [
        "bummerl_1", "bummerl_2", "bummerl_3"
    ]  # fmt: skip
    assert not unlabelled(html)


def test_the_code_form_opens_a_typed_code_in_small_letters(web: Web, club: str) -> None:
    a, _ = codes(web, club, first_match(web, club))
    reply = web.client.get(f"/r?code={a[:3].lower()}+{a[3:].lower()}")
    assert reply.status_code == 303 and reply.headers["Location"].endswith(f"/r/{a}")
    form = web.client.get("/r?lang=de").get_data(as_text=True)
    assert "Code" in form and not unlabelled(form)


def test_a_report_and_the_opponents_confirmation_record_the_result_with_source_players(
    web: Web, club: str
) -> None:
    mid = first_match(web, club)
    a, b = codes(web, club, mid)
    status, html = post(web, a, {"action": "report", **SHEET})
    assert status == 200 and "Your report is stored." in html
    assert not state(web, club).matches[mid].entries
    html = web.client.get(f"/r/{b}?lang=en").get_data(as_text=True)
    assert "7 4 1 0 / 7 6" in html and "Confirm" in html
    status, html = post(web, b, {"action": "confirm"})
    assert status == 200 and "Confirmed: the result is recorded." in html
    match = state(web, club).matches[mid]
    assert match.decided and match.summary.bummerl == (2, 0)
    with web.app.app_context():
        stored = services().tournaments.events(club)
    tallies = [e for e in stored if e.type == ev.TALLY_RECORDED and e.payload["match_id"] == mid]
    assert len(tallies) == 2
    assert {e.metadata["source"] for e in tallies} == {"players"}
    assert {e.metadata["via"] for e in tallies} == {"phone"}  # a player's phone (O-L12)
    # The same confirmation again stores nothing (a result reported twice is stored once).
    before = len(stored)
    post(web, b, {"action": "confirm"})
    with web.app.app_context():
        assert len(services().tournaments.events(club)) == before


def test_a_sheet_the_rules_refuse_is_shown_with_its_rule_and_nothing_is_stored(
    web: Web, club: str
) -> None:
    mid = first_match(web, club)
    a, _ = codes(web, club, mid)
    version = state(web, club).version
    status, html = post(web, a, {"action": "report", "bummerl_1": "7 4 0 / 7"})
    assert status == 422
    assert "R13" in html and 'role="alert"' in html
    assert 'value="7 4 0 / 7"' in html  # what was typed stays in the form
    assert state(web, club).version == version


def test_a_dispute_goes_to_the_organisers_queue(web: Web, club: str) -> None:
    mid = first_match(web, club)
    a, b = codes(web, club, mid)
    post(web, a, {"action": "report", **SHEET})
    status, html = post(web, b, {"action": "dispute", "reason": "we played three Bummerl"})
    assert status == 200 and "Your dispute is with the organiser." in html
    t = state(web, club)
    assert reports_of(t, t.matches[mid]).queued


def test_a_wrong_code_is_refused_as_a_page_and_rate_limited(tmp_path: Path) -> None:
    web = make_web(
        f"sqlite:///{tmp_path / 'w.sqlite3'}",
        tmp_path,
        PROJECTION_WAIT=0,
        REPORT_CODE_RATE_LIMIT="3 per minute",
    )
    from tests.web.played import swiss

    tid = swiss(web, "club", rounds=0)
    from tests.web.played import run
    from tournament.domain.commands.rounds import start_round

    run(web, tid, lambda t: start_round(t))
    right, _ = codes(web, tid, first_match(web, tid))
    assert web.client.get(f"/r/{right}").status_code == 200  # right codes use up nothing
    for _ in range(3):
        reply = web.client.get("/r/AAAAAA?lang=en")
        assert reply.status_code == 404
        assert "not a code of a table in play" in reply.get_data(as_text=True)
    refused = web.client.get(f"/r/{right}?lang=de")
    assert refused.status_code == 429
    assert refused.mimetype == "text/html"
    assert "<h1>" in refused.get_data(as_text=True)
