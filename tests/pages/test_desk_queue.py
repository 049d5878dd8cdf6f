"""The organiser's queue (``/desk/t/<tid>/queue``): differing reports side by side, disputes
with their reason, flagged matches; accept a report, enter the sheet, dismiss; the round's
table codes, revoked per match or for the round (T-code)."""

from __future__ import annotations

from tests.pages.markup import elements, unlabelled
from tests.web.conftest import Web
from tests.web.played import run, state
from tests.web.test_sign_in import csrf_of, sign_in
from tournament.domain.commands.reports import dispute_report, reports_of, submit_report
from tournament.domain.commands.tablecodes import match_codes

SECRET = b"test-secret"
SHEET = ["7 4 1 0 / 7 6", "7 5 2 0 / 7 6"]
OTHER = ["7 4 1 0 / 7 6", "7 6 / 7 4 1 0", "7 5 2 0 / 7 6"]


def organiser(web: Web) -> None:
    web.admin()
    assert sign_in(web) == 303


def codes(web: Web, tid: str, mid: str) -> tuple[str, str]:
    t = state(web, tid)
    return match_codes(SECRET, t, t.matches[mid])


def differing(web: Web, tid: str) -> str:
    """The first match of the round, reported two ways: in the queue."""
    mid = state(web, tid).rounds[-1].matches[0]
    a, b = codes(web, tid, mid)
    run(web, tid, lambda t: submit_report(t, SECRET, a, SHEET))
    run(web, tid, lambda t: submit_report(t, SECRET, b, OTHER))
    return mid


def page(web: Web, tid: str) -> str:
    reply = web.client.get(f"/desk/t/{tid}/queue?lang=en")
    assert reply.status_code == 200, reply.get_data(as_text=True)
    html: str = reply.get_data(as_text=True)
    return html


def test_the_queue_needs_an_organiser(web: Web, club: str) -> None:
    reply = web.client.get(f"/desk/t/{club}/queue")
    # (303 to /login once the desk's 401 answers as a page; the role check runs first)
    assert reply.status_code in (303, 401)
    assert "Disputes" not in reply.get_data(as_text=True)


def test_differing_reports_stand_side_by_side_with_their_actions(web: Web, club: str) -> None:
    organiser(web)
    mid = differing(web, club)
    match = state(web, club).matches[mid]
    html = page(web, club)
    assert "The reports differ" in html
    assert "7 4 1 0 / 7 6" in html and "7 6 / 7 4 1 0" in html
    buttons = [e.text.strip() for e in elements(html) if e.tag == "button"]
    names = [state(web, club).players[p].name for p in match.players]
    assert f"Accept the report of {names[0]}" in buttons
    assert f"Accept the report of {names[1]}" in buttons
    assert f'href="/desk/t/{club}/sheets?table={match.table}"' in html
    assert not unlabelled(html)


def test_accepting_a_report_records_it_and_empties_the_queue(web: Web, club: str) -> None:
    organiser(web)
    mid = differing(web, club)
    html = page(web, club)
    reply = web.client.post(
        f"/desk/t/{club}/queue/accept",
        data={"match_id": mid, "seat": "1", "csrf_token": csrf_of(html)},
    )
    assert reply.status_code == 303
    match = state(web, club).matches[mid]
    assert match.decided and match.summary.bummerl == (2, 1)
    assert "Nothing waits for you." in page(web, club)


def test_a_dispute_shows_its_reason_and_can_be_dismissed(web: Web, club: str) -> None:
    organiser(web)
    mid = state(web, club).rounds[-1].matches[1]
    a, _ = codes(web, club, mid)
    run(web, club, lambda t: dispute_report(t, SECRET, a, "my opponent left early"))
    html = page(web, club)
    assert "my opponent left early" in html
    reply = web.client.post(
        f"/desk/t/{club}/queue/dismiss", data={"match_id": mid, "csrf_token": csrf_of(html)}
    )
    assert reply.status_code == 303
    t = state(web, club)
    assert not reports_of(t, t.matches[mid]).queued


def test_a_refused_action_says_why_and_stores_nothing(web: Web, club: str) -> None:
    organiser(web)
    html = page(web, club)
    version = state(web, club).version
    reply = web.client.post(
        f"/desk/t/{club}/queue/accept",
        data={"match_id": "9.9", "seat": "0", "csrf_token": csrf_of(html)},
    )
    assert reply.status_code == 422
    assert "T-match" in reply.get_data(as_text=True)
    assert state(web, club).version == version


def test_the_round_codes_are_listed_and_revoked_per_table_or_for_the_round(
    web: Web, club: str
) -> None:
    organiser(web)
    t = state(web, club)
    first, second = t.rounds[-1].matches[:2]
    old = codes(web, club, first)
    other = codes(web, club, second)
    html = page(web, club)
    assert old[0] in html and old[1] in html
    web.client.post(
        f"/desk/t/{club}/codes/revoke", data={"match_id": first, "csrf_token": csrf_of(html)}
    )
    new = codes(web, club, first)
    assert set(new).isdisjoint(old) and codes(web, club, second) == other
    assert web.client.get(f"/r/{old[0]}?lang=en").status_code == 409  # revoked
    html = page(web, club)
    web.client.post(f"/desk/t/{club}/codes/revoke", data={"csrf_token": csrf_of(html)})
    assert set(codes(web, club, second)).isdisjoint(other)
