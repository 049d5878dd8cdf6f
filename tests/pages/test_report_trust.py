"""What a confirmation from the table proves (T-code, O-M2, O-L7, O-L12).

Both codes lie on one table card, so one phone can report with one code and "confirm"
with the other. Such a confirmation still records the result (the paper sheet is the
proof), but it is flagged for the organiser: the events carry where the report and the
confirmation came from (a hash of the phone's device cookie and a keyed hash of its
address, never the address), the desk's queue lists it, and the audit log names a
phone's report as the player's phone's, in the page's language. Once the opponent
reported, a phone may also enter the sheet itself."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from tests.pages.test_report import SHEET, codes, first_match
from tests.web.conftest import Web
from tests.web.played import state
from tests.web.test_sign_in import csrf_of, sign_in
from tournament.app.services import services
from tournament.domain.model import events as ev


def phone(web: Web, address: str = "127.0.0.1") -> FlaskClient:
    """A phone of its own (its own cookies), on the network address ``address``."""
    client = web.app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def send(client: FlaskClient, code: str, data: dict[str, str], lang: str = "en") -> str:
    page = client.get(f"/r/{code}?lang={lang}").get_data(as_text=True)
    reply = client.post(f"/r/{code}?lang={lang}", data={**data, "csrf_token": csrf_of(page)})
    if reply.status_code == 303:
        reply = client.get(reply.headers["Location"])
    return str(reply.get_data(as_text=True))


def confirmed_event(web: Web, tid: str) -> Any:
    with web.app.app_context():
        stored = services().store.read_stream(ev.stream_id(tid))
    (found,) = [e for e in stored if e.type == ev.REPORT_CONFIRMED]
    return found


def queue(web: Web, tid: str, lang: str = "en") -> str:
    web.admin()
    assert sign_in(web) == 303
    reply = web.client.get(f"/desk/t/{tid}/queue?lang={lang}")
    assert reply.status_code == 200
    return str(reply.get_data(as_text=True))


def test_a_confirmation_from_the_reporting_phone_is_flagged_for_the_organiser(
    web: Web, club: str
) -> None:
    mid = first_match(web, club)
    a, b = codes(web, club, mid)
    one = phone(web)
    assert "Your report is stored." in send(one, a, {"action": "report", **SHEET})
    assert "Confirmed: the result is recorded." in send(one, b, {"action": "confirm"})
    assert state(web, club).matches[mid].decided, "recorded all the same"
    confirmed = confirmed_event(web, club)
    assert confirmed.payload["flags"] == ["same_device", "same_address"]
    stored = json.dumps([confirmed.payload, confirmed.metadata])
    assert "127.0.0.1" not in stored, "hashes only, never the address"
    table = state(web, club).matches[mid].table
    html = queue(web, club)
    assert "Confirmed from the reporting phone" in html and f'id="doubtful-{mid}"' in html
    assert f"table {table}" in html and "report and confirmation came from the same phone" in html
    german = web.client.get(f"/desk/t/{club}/queue?lang=de").get_data(as_text=True)
    assert "Vom meldenden Handy bestätigt" in german
    assert "Meldung und Bestätigung kamen vom selben Handy" in german
    audit = web.client.get(f"/desk/t/{club}/audit?lang=en&match={mid}").get_data(as_text=True)
    assert "confirmed from the reporting phone" in audit  # afterwards too, in the log
    audit = web.client.get(f"/desk/t/{club}/audit?lang=de&match={mid}").get_data(as_text=True)
    assert "vom meldenden Handy bestätigt" in audit


def test_a_confirmation_from_the_opponents_own_phone_is_not_flagged(web: Web, club: str) -> None:
    mid = first_match(web, club)
    a, b = codes(web, club, mid)
    send(phone(web, "10.0.0.2"), a, {"action": "report", **SHEET})
    send(phone(web, "10.0.0.3"), b, {"action": "confirm"})
    assert state(web, club).matches[mid].decided
    assert "flags" not in confirmed_event(web, club).payload
    assert "Confirmed from the reporting phone" not in queue(web, club)


def test_the_same_address_alone_is_flagged_as_the_weaker_sign(web: Web, club: str) -> None:
    """Two phones on the club's Wi-Fi share an address: said so, apart from the same phone."""
    mid = first_match(web, club)
    a, b = codes(web, club, mid)
    send(phone(web, "10.0.0.9"), a, {"action": "report", **SHEET})
    send(phone(web, "10.0.0.9"), b, {"action": "confirm"})
    assert confirmed_event(web, club).payload["flags"] == ["same_address"]
    html = queue(web, club)
    assert "came from the same network address" in html
    assert "came from the same phone" not in html


def test_once_the_opponent_reported_the_phone_offers_its_own_sheet_too(web: Web, club: str) -> None:
    """O-L7 (docs/players.md): instead of confirming, the opponent may enter the sheet: the
    same sheet records the result, a different one goes to the organiser."""
    first, second = state(web, club).rounds[-1].matches[:2]
    for mid, sheet, recorded in (
        (first, SHEET, True),
        (second, {**SHEET, "bummerl_2": "7 6 / 7 5 2 0", "bummerl_3": "7 5 2 0 / 7 6"}, False),
    ):
        a, b = codes(web, club, mid)
        send(phone(web, "10.0.1.1"), a, {"action": "report", **SHEET})
        theirs = phone(web, "10.0.1.2")
        html = theirs.get(f"/r/{b}?lang=de").get_data(as_text=True)
        assert "Bestätigen: das ist unser Spielbericht" in html
        assert "Oder den Spielbericht selbst eingeben" in html and 'name="bummerl_1"' in html
        send(theirs, b, {"action": "report", **sheet})
        match = state(web, club).matches[mid]
        assert match.decided is recorded
        if not recorded:
            assert f'id="match-{mid}"' in queue(web, club), "the reports differ: the queue"


def test_the_audit_log_names_a_phone_report_as_the_players_phone_in_its_language(
    web: Web, club: str
) -> None:
    """O-L12: a phone's report and confirmation come from the player's phone by a table
    code, not from "players, desk page"; the player is named, in the page's words."""
    mid = first_match(web, club)
    a, b = codes(web, club, mid)
    send(phone(web, "10.0.2.1"), a, {"action": "report", **SHEET})
    send(phone(web, "10.0.2.2"), b, {"action": "confirm"})
    match = state(web, club).matches[mid]
    name = state(web, club).players[match.players[0]].name
    queue(web, club)  # signed in
    english = web.client.get(f"/desk/t/{club}/audit?lang=en&match={mid}").get_data(as_text=True)
    assert "players, player&#39;s phone (table code)" in english
    assert f"{name} (table code)" in english and "desk page" not in english
    german = web.client.get(f"/desk/t/{club}/audit?lang=de&match={mid}").get_data(as_text=True)
    assert "Spieler, Handy des Spielers (Tischcode)" in german
    assert f"{name} (Tischcode)" in german and "(table code)" not in german
