"""What the service cannot refuse at an online table, it flags for the organiser (T-online).

The same browser is refused the table's other seat (P1). A private tab or a second
browser on the same phone has a cookie jar of its own: it is not refused, but both seats
taken from one address are flagged on the desk's online page, in the queue and in the
audit log, as a paper confirmation from the reporting address is (O-M2). A seat the
organiser releases during a hand in play shows that hand to the next phone that takes
it: the release form says so, the seat taken again is flagged, and the other seat's page
says who released it."""

from __future__ import annotations

from html import unescape

from flask.testing import FlaskClient

from tests.pages.test_desk_online import page, signed_in
from tests.pages.test_play_page import SECRET, cards_in, take_seat
from tests.web.conftest import Web
from tests.web.played import state
from tests.web.test_sign_in import csrf_of
from tournament.domain.commands.tablecodes import match_codes
from tournament.web.live import play_service

PHONE, CLUB_WIFI = "10.0.0.7", "10.0.0.8"
ONE_ADDRESS = {
    "en": "Both seats were taken from the same network address",
    "de": "Beide Plätze wurden von derselben Netzwerkadresse genommen",
}


def phone_at(web: Web, address: str) -> FlaskClient:
    """A browser of its own (a fresh cookie jar) at ``address``."""
    client = web.app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def online_table(web: Web, tid: str) -> tuple[str, str, str, list[str]]:
    """The round's first match played online: its id, codes and players' names."""
    t = state(web, tid)
    mid = t.rounds[-1].matches[0]
    with web.app.app_context():
        play_service().start(tid, mid, move_seconds=None)
    a, b = match_codes(SECRET, state(web, tid), t.matches[mid])
    names = [t.players[p].name for p in t.matches[mid].players]
    return mid, a, b, names


def test_a_private_tab_on_one_phone_takes_the_other_seat_flagged_on_desk_queue_and_log(
    web: Web, club: str
) -> None:
    signed_in(web)
    mid, a, b, _ = online_table(web, club)
    assert take_seat(phone_at(web, PHONE), a).status_code == 303
    private_tab = phone_at(web, PHONE)  # no cookie of the first: a device new here
    assert take_seat(private_tab, b).status_code == 303  # not refused: flagged
    for lang in ("en", "de"):
        status = page(web, f"/desk/t/{club}/online/status?lang={lang}")
        assert ONE_ADDRESS[lang] in status
        queue = page(web, f"/desk/t/{club}/queue?lang={lang}")
        assert ONE_ADDRESS[lang] in queue and f'id="seat-flags-{mid}"' in queue
    assert "Online tables: how the seats were taken" in page(web, f"/desk/t/{club}/queue?lang=en")
    assert "both seats taken from one address" in page(web, f"/desk/t/{club}/audit?lang=en")
    assert "beide Plätze von derselben Adresse" in page(web, f"/desk/t/{club}/audit?lang=de")


def test_two_phones_at_two_addresses_are_not_flagged(web: Web, club: str) -> None:
    signed_in(web)
    mid, a, b, _ = online_table(web, club)
    assert take_seat(phone_at(web, PHONE), a).status_code == 303
    assert take_seat(phone_at(web, CLUB_WIFI), b).status_code == 303
    assert ONE_ADDRESS["en"] not in page(web, f"/desk/t/{club}/online/status?lang=en")
    assert f'id="seat-flags-{mid}"' not in page(web, f"/desk/t/{club}/queue?lang=en")


def test_a_seat_released_in_a_hand_and_taken_again_is_flagged_and_the_opponent_told(
    web: Web, club: str
) -> None:
    """Finding 2: the organiser releases a seat during a hand and takes it with its code.
    The release form warns first; afterwards the desk and the queue flag the table, and
    the other seat's page names who released the seat (de/en)."""
    signed_in(web)
    mid, a, b, names = online_table(web, club)
    mine, theirs = phone_at(web, PHONE), phone_at(web, CLUB_WIFI)
    assert take_seat(mine, a).status_code == 303 and take_seat(theirs, b).status_code == 303
    desk = page(web, f"/desk/t/{club}/online?lang=en")
    assert "the next phone to take this seat sees this seat's cards of the hand" in desk
    assert "das nächste Handy, das diesen Platz nimmt, sieht die Karten" in page(
        web, f"/desk/t/{club}/online?lang=de"
    )
    reply = web.client.post(
        f"/desk/t/{club}/online/{mid}/release",
        data={"csrf_token": csrf_of(desk), "seat": "1", "by": "Organiser Eva"},
    )
    assert reply.status_code == 303
    organisers_phone = phone_at(web, "10.0.0.9")
    assert take_seat(organisers_phone, b).status_code == 303
    assert cards_in(organisers_phone.get(f"/play/{b}").get_data(as_text=True))  # as warned
    told = {
        "en": f"{names[1]}'s seat was released by Organiser Eva during a hand and taken by "
        "another phone",
        "de": f"Der Platz von {names[1]} wurde während eines Spiels von Organiser Eva "
        "freigegeben und von einem anderen Handy genommen",
    }
    for lang, words in told.items():
        assert words in unescape(mine.get(f"/play/{a}?lang={lang}").get_data(as_text=True))
    assert "released by" not in organisers_phone.get(f"/play/{b}").get_data(as_text=True)
    label = state(web, club).matches[mid].labels[1]  # the desk names players by label
    flagged = f"{label}'s seat was released by Organiser Eva during a hand"
    assert flagged in unescape(page(web, f"/desk/t/{club}/online/status?lang=en"))
    assert flagged in unescape(page(web, f"/desk/t/{club}/queue?lang=en"))
    log = page(web, f"/desk/t/{club}/audit?lang=en")
    assert "seat taken again after a release during a hand" in log
