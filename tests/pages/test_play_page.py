"""The table a player plays on (T-online): ``/play/<code>`` on a phone, no account.

Each seat's page shows its own cards and never the other's (checked against the deck the
server dealt, in the store); a move is a form post (T-online); a double post with the same
version stores one move (the second is told, quietly, that the table moved on); an illegal
move is refused with its rule in German and in English; ``/r/<code>`` of an online match
leads to the table; a wrong code is handled as ``/r`` handles it (T-code)."""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

from flask.testing import FlaskClient

from engine import Action, HandState
from engine.actions import Kind
from engine.cards import ALL_CARDS
from tests.pages.markup import unlabelled
from tests.web.conftest import Web
from tests.web.played import state
from tests.web.test_sign_in import csrf_of
from tournament.app.play import Hand
from tournament.domain.commands.tablecodes import match_codes
from tournament.domain.views.onlineview import TableMoment
from tournament.web.live import play_service

SECRET = b"test-secret"
CARD = re.compile(r'data-card="([ATKQJ][CDHS])"')


def phone(web: Web, code: str) -> FlaskClient:
    """The phone of the player whose code is ``code``: each player their own (P1)."""
    phones: dict[str, FlaskClient] = web.__dict__.setdefault("phones", {})
    if code not in phones:
        phones[code] = web.app.test_client()
    return phones[code]


def take_seat(client: FlaskClient, code: str, lang: str = "en") -> Any:
    """Open the link, then tap *Take my seat* (a POST): the answer of the tap."""
    html = client.get(f"/play/{code}?lang={lang}").get_data(as_text=True)
    if 'name="csrf_token"' not in html:  # refused: a form of this phone's session still
        html = client.get("/login").get_data(as_text=True)
    return client.post(f"/play/{code}/seat?lang={lang}", data={"csrf_token": csrf_of(html)})


def online_match(web: Web, tid: str) -> tuple[str, str, str]:
    """The round's first match, played online from now on; its two codes (seat 0, 1)."""
    t = state(web, tid)
    mid = t.rounds[-1].matches[0]
    with web.app.app_context():
        play_service().start(tid, mid, move_seconds=None)
    a, b = match_codes(SECRET, state(web, tid), t.matches[mid])
    for code in (a, b):  # both players take their seats, each on their own phone
        assert take_seat(phone(web, code), code).status_code == 303
    return mid, a, b


def moment(web: Web, tid: str, mid: str) -> TableMoment:
    with web.app.app_context():
        return play_service().moment(tid, mid)


def current_hand(web: Web, tid: str, mid: str) -> Hand:
    number = moment(web, tid, mid).number
    with web.app.app_context():
        return play_service().hand_at(tid, mid, number)[1]


def played(move: Action) -> str:
    assert move.card is not None
    return move.card.code


def cards_in(html: str) -> set[str]:
    return set(CARD.findall(html))


def page(web: Web, code: str, lang: str = "en") -> str:
    reply = phone(web, code).get(f"/play/{code}?lang={lang}")
    assert reply.status_code == 200, reply.get_data(as_text=True)
    return str(reply.get_data(as_text=True))


def device_cookies(reply: Any) -> list[str]:
    """The device cookies a reply sets (T-online)."""
    return [c for c in reply.headers.getlist("Set-Cookie") if c.startswith("device=")]


def version_of(html: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', html)
    assert found is not None, "the page offers no move"
    return found.group(1)


def seat_to_act(state_: HandState) -> int:
    return state_.to_act[0]


def legal_play(state_: HandState, seat: int) -> Action:
    return next(a for a in state_.legal_actions() if a.seat == seat and a.kind == Kind.PLAY)


def test_each_seat_sees_its_own_five_cards_and_none_of_the_others(web: Web, club: str) -> None:
    mid, a, b = online_match(web, club)
    hand = current_hand(web, club, mid)
    deck = list(hand.events[0].payload["deck"])
    assert sorted(deck) == sorted(c.code for c in ALL_CARDS)  # the deal, as stored
    assert hand.state.turnup is not None
    turnup = hand.state.turnup.code
    for seat, code in ((0, a), (1, b)):
        html = page(web, code)
        own = {c.code for c in hand.state.cards_of(seat)}
        other = {c.code for c in hand.state.cards_of(1 - seat)}
        hidden = set(deck) - own - {turnup}
        shown = cards_in(html)
        assert own <= shown, "the seat's own hand is on its page"
        assert shown <= own | {turnup}, f"only own cards and the turn-up: {shown - own}"
        assert not shown & hidden and not shown & other
        assert (b if seat == 0 else a) not in html, "the other seat's code never appears"
        assert "Your cards" in html and not unlabelled(html)


def test_a_move_by_form_post_is_stored_and_the_page_follows(web: Web, club: str) -> None:
    mid, a, b = online_match(web, club)
    before = moment(web, club, mid)
    assert before.state is not None
    seat = seat_to_act(before.state)
    code = (a, b)[seat]
    html = page(web, code)
    assert "Your turn" in html and "<title>Your turn" in html
    assert re.findall(r'class="card play-card" data-card="\w\w" data-key="\d">', html)
    move = legal_play(before.state, seat)
    reply = phone(web, code).post(
        f"/play/{code}/move",
        data={"action": played(move), "version": version_of(html), "csrf_token": csrf_of(html)},
    )
    assert reply.status_code == 303 and reply.headers["Location"].endswith(f"/play/{code}")
    after = moment(web, club, mid)
    assert after.version == before.version + 1
    assert after.state is not None and after.state.lead_card == move.card
    other_page = page(web, (a, b)[1 - seat])
    assert f'data-card="{played(move)}"' in other_page, "the led card is on the table"
    assert "Your turn" in other_page


def test_an_htmx_move_answers_the_tables_fragment(web: Web, club: str) -> None:
    mid, a, b = online_match(web, club)
    before = moment(web, club, mid)
    assert before.state is not None
    seat = seat_to_act(before.state)
    code = (a, b)[seat]
    html = page(web, code)
    move = legal_play(before.state, seat)
    reply = phone(web, code).post(
        f"/play/{code}/move",
        data={"action": played(move), "version": version_of(html), "csrf_token": csrf_of(html)},
        headers={"HX-Request": "true"},
    )
    fragment = reply.get_data(as_text=True)
    assert reply.status_code == 200 and "<html" not in fragment
    assert 'class="seat-table status-wait"' in fragment


def test_a_double_post_with_the_same_version_stores_one_move(web: Web, club: str) -> None:
    mid, a, b = online_match(web, club)
    before = moment(web, club, mid)
    assert before.state is not None
    seat = seat_to_act(before.state)
    code = (a, b)[seat]
    html = page(web, code)
    move = legal_play(before.state, seat)
    form = {"action": played(move), "version": version_of(html), "csrf_token": csrf_of(html)}
    first = phone(web, code).post(f"/play/{code}/move", data=form, headers={"HX-Request": "true"})
    second = phone(web, code).post(f"/play/{code}/move", data=form, headers={"HX-Request": "true"})
    assert first.status_code == 200 and second.status_code == 200
    note = second.get_data(as_text=True)
    assert "The table moved on: this is its newest state." in note
    assert 'role="alert"' not in note, "a second click is no error"
    assert moment(web, club, mid).version == before.version + 1
    assert len(current_hand(web, club, mid).events) == before.version + 1
    without_js = phone(web, code).post(f"/play/{code}/move", data=form)
    assert without_js.status_code == 303 and "note=moved" in without_js.headers["Location"]
    assert "The table moved on" in phone(web, code).get(without_js.headers["Location"]).get_data(
        as_text=True
    )


def test_an_illegal_move_is_refused_with_its_rule_in_german_and_english(
    web: Web, club: str
) -> None:
    mid, a, b = online_match(web, club)
    before = moment(web, club, mid)
    assert before.state is not None
    seat = seat_to_act(before.state)
    code = (a, b)[seat]
    other = next(c.code for c in before.state.cards_of(1 - seat))  # not in this seat's hand
    for lang, words in (("en", "is not allowed"), ("de", "ist nicht erlaubt")):
        html = page(web, code, lang)
        reply = phone(web, code).post(
            f"/play/{code}/move",
            data={"action": other, "version": version_of(html), "csrf_token": csrf_of(html)},
        )
        body = reply.get_data(as_text=True)
        assert reply.status_code == 422, body
        assert words in body and "(R" in body, body  # the rule id, e.g. R0 or R5
        assert 'role="alert"' in body
    assert moment(web, club, mid).version == before.version, "nothing stored"


def test_a_move_out_of_turn_is_refused_naming_r0(web: Web, club: str) -> None:
    mid, a, b = online_match(web, club)
    before = moment(web, club, mid)
    assert before.state is not None
    waiting = 1 - seat_to_act(before.state)
    code = (a, b)[waiting]
    html = page(web, code, "de")
    assert "ist dran" in html
    card = next(c.code for c in before.state.cards_of(waiting))
    reply = phone(web, code).post(
        f"/play/{code}/move",
        data={"action": card, "version": version_of(html), "csrf_token": csrf_of(html)},
    )
    assert reply.status_code == 422 and "R0" in reply.get_data(as_text=True)
    assert moment(web, club, mid).version == before.version


def test_the_report_link_of_an_online_match_leads_to_its_table(web: Web, club: str) -> None:
    _, a, _ = online_match(web, club)
    reply = web.client.get(f"/r/{a}")
    assert reply.status_code == 303 and reply.headers["Location"].endswith(f"/play/{a}")


def test_a_code_of_a_match_on_paper_leads_to_the_report_page(web: Web, club: str) -> None:
    t = state(web, club)
    mid = t.rounds[-1].matches[1]
    a, _ = match_codes(SECRET, t, t.matches[mid])
    reply = web.client.get(f"/play/{a}")
    assert reply.status_code == 303 and reply.headers["Location"].endswith(f"/r/{a}")


def test_a_wrong_code_is_refused_as_the_report_page_refuses_it(web: Web, club: str) -> None:
    online_match(web, club)
    for lang in ("en", "de"):
        mine = web.client.get(f"/play/ZZZZZZ?lang={lang}")
        theirs = web.client.get(f"/r/ZZZZZZ?lang={lang}")
        assert mine.status_code == theirs.status_code == 404
        assert 'role="alert"' in mine.get_data(as_text=True)
        assert "T-code" in mine.get_data(as_text=True)
    assert web.client.get("/play/ZZZZZZ/events").status_code == 404


def test_wrong_codes_share_the_report_pages_limit(web: Web, club: str) -> None:
    _, a, _ = online_match(web, club)
    for n in range(10):
        path = "/play/ZZZZZZ" if n % 2 else "/r/ZZZZZZ"
        assert web.client.get(path).status_code == 404
    assert web.client.get("/play/ZZZZZZ").status_code == 429
    assert web.client.get(f"/play/{a}").status_code == 429, "the right one too, for a while"


def test_guessing_codes_through_the_table_fragment_counts_as_guessing(web: Web, club: str) -> None:
    online_match(web, club)
    for _ in range(10):
        assert web.client.get("/play/ZZZZZZ/table").status_code == 404
    assert web.client.get("/play/ZZZZZZ/table").status_code == 429


def test_every_route_that_takes_a_table_code_shares_the_wrong_code_limit(web: Web) -> None:
    app = web.client.application
    taking_a_code = {rule.endpoint for rule in app.url_map.iter_rules() if "code" in rule.arguments}
    assert taking_a_code, "the table-code routes are registered"
    assert taking_a_code <= app.extensions["table_code_endpoints"], (
        taking_a_code - app.extensions["table_code_endpoints"]
    )


def test_the_clock_counts_down_and_says_when_time_is_up(web: Web, club: str) -> None:
    t = state(web, club)
    mid = t.rounds[-1].matches[0]
    with web.app.app_context():
        service = play_service()
        service.start(club, mid, move_seconds=30)
    a, b = match_codes(SECRET, state(web, club), t.matches[mid])
    # T-clock: nothing runs while the other seat was never opened (T-online).
    names = [t.players[p].name for p in t.matches[mid].players]
    take_seat(phone(web, a), a)
    html = page(web, a)
    assert 'data-status="joining"' in html and 'class="clock"' not in html
    assert f"Waiting for {names[1]} to open their seat" in html
    service.now = lambda: datetime.now(UTC) + timedelta(hours=1)  # an hour later...
    take_seat(phone(web, b), b)  # ... the second player takes the seat: now the clock runs
    html = page(web, b)
    assert 'class="clock" data-deadline="' in html and "Time for this move:" in html
    html = page(web, a)
    assert 'class="clock" data-deadline="' in html and "Time for this move:" in html
    later = service.now() + timedelta(seconds=31)
    service.now = lambda: later  # T-clock: the seat to act let its time run out
    for code in (a, b):
        html = page(web, code, "de")
        assert "Die Zeit ist um – die Turnierleitung entscheidet" in html
        assert 'data-status="time"' in html
        enabled = re.findall(r'class="card play-card" data-card="\w\w" data-key="\d">', html)
        assert html.count("play-card") == 5 and not enabled, "no card may be played now"


def test_after_the_last_trick_its_winner_may_decline_to_claim(web: Web, club: str) -> None:
    """R16: the tenth trick's winner sees "claim" and "no claim"; no claim deals the next
    hand, the provisional result standing."""
    mid, a, b = online_match(web, club)
    with web.app.app_context():
        service = play_service()
        now = service.moment(club, mid)
        while now.state is not None and not now.state.is_over:
            seat = now.state.to_act[0]
            move = legal_play(now.state, seat)
            now = service.act(club, mid, seat, played(move), now.version)
    assert now.number == 1 and now.state is not None
    winner = now.state.to_act[0]
    code = (a, b)[winner]
    html = page(web, code)
    assert 'data-status="claim"' in html and "No claim" in html and "Claim: 66" in html
    assert "No claim" not in page(web, (a, b)[1 - winner])
    reply = phone(web, code).post(
        f"/play/{code}/no-claim", data={"version": version_of(html), "csrf_token": csrf_of(html)}
    )
    assert reply.status_code == 303
    html = page(web, code)
    assert 'data-hand="2"' in html and "Last hand:" in html


def test_once_online_play_is_stopped_the_report_link_reports_on_paper_again(
    web: Web, club: str
) -> None:
    """T-online: the organiser stops online play, the rest of the match is on paper."""
    mid, a, _ = online_match(web, club)
    with web.app.app_context():
        play_service().stop(club, mid, by="organiser", reason="a phone died")
    assert web.client.get(f"/r/{a}").status_code == 200
    html = page(web, a)
    assert 'data-status="stopped"' in html and "played on paper" in html


def test_after_a_marriage_lead_the_leader_waits_and_may_claim_quietly_R12b(
    web: Web, club: str
) -> None:
    """R12b: after a marriage lead it is the replier's turn; the leader's page says so and
    offers the claim as a side option, not as the call to act; the room names the
    replier only."""
    mid, a, b = online_match(web, club)
    with web.app.app_context():
        service = play_service()
        now = service.moment(club, mid)
        for _ in range(400):
            st = now.state
            assert st is not None
            if st.lead_is_marriage and not st.is_over:
                break
            if st.is_over:
                now = service.decline_claim(club, mid, st.to_act[0], now.version)
                continue
            seat = seat_to_act(st)
            legal = [a_ for a_ in st.legal_actions() if a_.seat == seat]
            marriage = [a_ for a_ in legal if a_.kind == Kind.PLAY and a_.marriage]
            plays = [a_ for a_ in legal if a_.kind == Kind.PLAY]
            now = service.act(club, mid, seat, (marriage or plays)[0].to_json(), now.version)
    st = now.state
    assert st is not None and st.lead_is_marriage, "no marriage lead came up"
    leader, replier = st.leader, 1 - st.leader
    t = state(web, club)
    names = [t.players[p].name for p in t.matches[mid].players]
    lead_page = page(web, (a, b)[leader])
    assert 'data-status="wait"' in lead_page and "Your turn" not in lead_page
    assert f"{names[replier]}&#39;s turn" in lead_page or f"{names[replier]}'s turn" in lead_page
    assert "Claim 66 now (R12b)" in lead_page and "Claim: 66" not in lead_page
    reply_page = page(web, (a, b)[replier])
    assert 'data-status="turn"' in reply_page and "Claim" not in reply_page
    room = web.client.get(f"/t/{club}/matches/{mid}/table?lang=en").get_data(as_text=True)
    labels = t.matches[mid].labels  # the room names players with their seeds
    assert room.count('class="turn-mark"') == 1 and f"{labels[replier]} to play." in room


def test_a_wrong_code_and_time_up_are_said_in_german_T_code_T_clock(web: Web, club: str) -> None:
    """A wrong code is refused in the reader's language (T-code); the time-up refusal is a
    sentence, not a field name ("Uhr:") before it (T-clock)."""
    from tournament.domain.model.errors import ConflictError
    from tournament.web.pages.messages import describe

    online_match(web, club)
    german = web.client.get("/play/ZZZZZZ?lang=de").get_data(as_text=True)
    assert "this is not a code" not in german and "Tisch" in german and "T-code" in german
    with web.app.test_request_context("/?lang=de"):
        words = describe(ConflictError("clock", "T-clock", code="online.time_ran_out"))
    assert not words.startswith("Uhr") and words.endswith("(T-clock)") and words[0].isupper()


def test_once_the_match_is_over_the_pages_show_the_result_and_links_not_a_hand_R20(
    web: Web, club: str
) -> None:
    """R20: once the match is decided, the seat's page shows the result, the Bummerl and
    links to each hand's replay and the standings; no leftover cards of the last hand.
    The room's page links the standings and shows no table of the last hand either."""
    mid, a, b = online_match(web, club)
    with web.app.app_context():
        service = play_service()
        now = service.moment(club, mid)
        for _ in range(3000):
            if now.match.decided:
                break
            st = now.state
            assert st is not None
            if st.is_over:
                now = service.decline_claim(club, mid, st.to_act[0], now.version)
                continue
            seat = seat_to_act(st)
            now = service.act(club, mid, seat, played(legal_play(st, seat)), now.version)
        now = service.moment(club, mid)
    assert now.match.decided
    for code in (a, b):
        html = page(web, code)
        assert 'data-status="over"' in html and "Match over:" in html
        assert "holds" not in html and "Your cards" not in html and "play-card" not in html
        assert f'href="/t/{club}"' in html
        for n in range(1, now.number + 1):
            assert f'href="/t/{club}/matches/{mid}/hands/{n}"' in html
        assert "Bummerl won" in html
    room = web.client.get(f"/t/{club}/matches/{mid}/table?lang=en").get_data(as_text=True)
    assert "The match is over" in room and f'href="/t/{club}"' in room
    assert "Tricks of this hand" not in room


def test_the_opponent_opening_my_code_is_refused_and_sees_no_card(web: Web, club: str) -> None:
    """T-online: both codes lie on one table card; the first phone keeps the seat."""
    mid, a, _ = online_match(web, club)  # each seat taken on its player's phone
    hand = current_hand(web, club, mid)
    mine = {c.code for c in hand.state.cards_of(0)}
    other_phone = web.app.test_client()
    for lang, words in (
        ("en", "This seat is already open on another phone."),
        ("de", "Dieser Platz ist schon auf einem anderen Handy offen."),
    ):
        reply = other_phone.get(f"/play/{a}?lang={lang}")
        html = reply.get_data(as_text=True)
        assert reply.status_code == 409 and words in html
        assert not cards_in(html) and not any(card in html for card in mine)
        taking = take_seat(other_phone, a, lang)
        assert taking.status_code == 409 and words in taking.get_data(as_text=True)
    csrf = csrf_of(other_phone.get("/login").get_data(as_text=True))
    sent = {"action": "AH", "version": "1", "csrf_token": csrf}
    moved = other_phone.post(f"/play/{a}/move", data=sent)
    assert moved.status_code == 409 and not cards_in(moved.get_data(as_text=True))
    stream = other_phone.get(f"/play/{a}/events")
    assert stream.status_code == 409 and stream.mimetype == "text/html"
    assert current_hand(web, club, mid).version == hand.version  # nothing stored
    assert mine <= cards_in(page(web, a))  # the seat's own phone still plays


def test_the_device_cookie_is_http_only_lax_and_seen_by_both_seats_paths(
    web: Web, club: str
) -> None:
    """The phone is known by one cookie (path ``/``): both seats' pages, ``/r`` and the
    room's view of the table see it, so the same phone is recognised at the other seat
    (P1). The tournament keeps only its hash."""
    t = state(web, club)
    mid = t.rounds[-1].matches[0]
    with web.app.app_context():
        play_service().start(club, mid, move_seconds=None)
    a, _ = match_codes(SECRET, state(web, club), t.matches[mid])
    reply = web.client.get(f"/play/{a}")
    (cookie,) = device_cookies(reply)
    assert "Path=/;" in cookie + ";" and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert not device_cookies(web.client.get(f"/play/{a}"))  # kept, not renewed
    assert device_cookies(web.app.test_client().get(f"/r/{a}")), "/r gives one too"
    typed = web.client.get(f"/play/{a.lower()}?lang=de")  # typed by hand: the printed form
    assert typed.status_code == 303 and typed.headers["Location"].endswith(f"/play/{a}?lang=de")
    assert take_seat(web.client, a).status_code == 303
    with web.app.app_context():
        devices = play_service().tournaments.state(club).online[mid].devices
    token = cookie.split(";")[0].split("=", 1)[1]
    assert token not in str(devices) and len(devices[0]) == 64  # its SHA-256 only


def test_after_a_release_the_next_phone_takes_the_seat(web: Web, club: str) -> None:
    mid, a, _ = online_match(web, club)
    new_phone = web.app.test_client()
    assert new_phone.get(f"/play/{a}").status_code == 409
    with web.app.app_context():
        play_service().release_seat(club, mid, 0, by="Eva")
    assert take_seat(new_phone, a).status_code == 303
    assert new_phone.get(f"/play/{a}").status_code == 200
    assert phone(web, a).get(f"/play/{a}").status_code == 409  # the old phone is out now


def test_one_phone_is_refused_the_other_seat_of_its_table_in_german_and_english(
    web: Web, club: str
) -> None:
    """P1: both codes lie on one card. The phone that took one seat is refused the other
    (409, nothing of the seat, nothing stored); the opponent's own phone then takes it."""
    t = state(web, club)
    mid = t.rounds[-1].matches[0]
    with web.app.app_context():
        play_service().start(club, mid, move_seconds=None)
    a, b = match_codes(SECRET, state(web, club), t.matches[mid])
    names = [t.players[p].name for p in t.matches[mid].players]
    mine = phone(web, a)
    assert take_seat(mine, a).status_code == 303
    hand = current_hand(web, club, mid)
    theirs = {c.code for c in hand.state.cards_of(1)}
    before = state(web, club).version
    for lang, words in (
        ("en", f"This phone already holds the other seat of this table ({names[0]})."),
        ("de", f"Dieses Handy hält schon den anderen Platz dieses Tisches ({names[0]})."),
    ):
        opened = mine.get(f"/play/{b}?lang={lang}")
        taken = take_seat(mine, b, lang)
        for reply in (opened, taken):
            html = reply.get_data(as_text=True)
            assert reply.status_code == 409 and words in html, html
            assert not cards_in(html) and not any(card in html for card in theirs)
    assert state(web, club).version == before, "nothing stored"
    assert mine.get(f"/play/{b}/events").status_code == 409
    assert take_seat(phone(web, b), b).status_code == 303  # the opponent's own phone
    assert theirs <= cards_in(page(web, b))


def test_opening_a_seat_link_takes_nothing_until_take_my_seat_is_tapped(
    web: Web, club: str
) -> None:
    """AE-1: a link preview or a prefetch (a GET, without the page's button) takes no
    seat; the player's own phone then takes it with *Take my seat* (a POST)."""
    t = state(web, club)
    mid = t.rounds[-1].matches[0]
    with web.app.app_context():
        play_service().start(club, mid, move_seconds=None)
    a, _ = match_codes(SECRET, state(web, club), t.matches[mid])
    names = [t.players[p].name for p in t.matches[mid].players]
    before = state(web, club).version
    preview = web.app.test_client()  # a chat app fetching the shared link
    for path in (f"/r/{a}", f"/play/{a}", f"/play/{a}?lang=de"):
        reply = preview.get(path, follow_redirects=True)
        assert reply.status_code == 200 and not cards_in(reply.get_data(as_text=True))
    assert state(web, club).version == before and not state(web, club).online[mid].devices
    html = phone(web, a).get(f"/play/{a}?lang=de").get_data(as_text=True)
    assert f"Meinen Platz nehmen ({names[0]})" in html and 'method="post"' in html
    assert take_seat(phone(web, a), a).status_code == 303
    assert list(state(web, club).online[mid].devices) == [0]
    assert "Your cards" in page(web, a)


def test_a_seat_holder_is_refused_the_room_view_of_its_own_table(web: Web, club: str) -> None:
    """The room's view of a table (spectator page, projector view, stream) shows more
    than a seat may: refused to a phone holding a seat there; open to anybody else."""
    mid, a, _ = online_match(web, club)
    base = f"/t/{club}/matches/{mid}/table"
    for path in (base, f"{base}/projector", f"{base}/events", f"{base}?lang=de"):
        reply = phone(web, a).get(path)
        assert reply.status_code == 409, path
        assert not cards_in(reply.get_data(as_text=True))
    german = phone(web, a).get(f"{base}?lang=de").get_data(as_text=True)
    assert "Dieses Handy hält einen Platz an diesem Tisch" in german
    assert web.client.get(f"{base}?lang=en").status_code == 200  # a spectator's phone


def release_and_take(web: Web, tid: str, mid: str, code: str, status: list[int]) -> None:
    """The organiser releases ``code``'s seat and a new phone takes it (the status of
    the tap into ``status``)."""
    seat = match_codes(SECRET, state(web, tid), state(web, tid).matches[mid]).index(code)
    with web.app.app_context():
        play_service().release_seat(tid, mid, seat, by="Eva")
    status.append(int(take_seat(web.app.test_client(), code).status_code))


def test_a_released_phone_s_live_table_drops_your_turn_P11(web: Web, club: str) -> None:
    """P11: the old phone's live page, after the organiser released its seat and another
    phone took it, shows the refusal with its own title and no "Your turn" above it."""
    mid, a, b = online_match(web, club)
    before = moment(web, club, mid)
    assert before.state is not None
    code = (a, b)[seat_to_act(before.state)]
    reply = phone(web, code).get(f"/play/{code}/events?lang=en", buffered=False)
    assert reply.status_code == 200
    chunks = iter(reply.response)
    messages: list[str] = []
    buffer = ""
    try:
        while len(messages) < 2:
            chunk = next(chunks)
            buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            while "\n\n" in buffer:
                message, buffer = buffer.split("\n\n", 1)
                if message.startswith("event: table"):
                    messages.append(message)
                    if len(messages) == 1:  # the organiser releases; a new phone takes it
                        # (in a thread of its own: this one is inside the stream's request)
                        taken: list[int] = []
                        worker = threading.Thread(
                            target=release_and_take, args=(web, club, mid, code, taken)
                        )
                        worker.start()
                        worker.join(60)
                        assert taken == [303]
    finally:
        reply.close()
    assert "Your turn" in messages[0]
    assert "Your turn" not in messages[1] and "already open on another phone" in messages[1]
    assert 'data-title="Seat already open"' in messages[1] and not cards_in(messages[1])


def test_a_phone_that_took_its_seat_before_the_upgrade_keeps_it(web: Web, club: str) -> None:
    """An older version gave each seat its own cookie (``seat``, path ``/play/<code>``):
    a phone holding a seat by it still plays after the upgrade, nothing to take again."""
    t = state(web, club)
    mid = t.rounds[-1].matches[0]
    with web.app.app_context():
        play_service().start(club, mid, move_seconds=None)
        old_token = play_service().join(club, mid, 0, None)
    a, _ = match_codes(SECRET, state(web, club), t.matches[mid])
    old_phone = web.app.test_client()
    old_phone.set_cookie("seat", old_token, path=f"/play/{a}")
    html = old_phone.get(f"/play/{a}?lang=en").get_data(as_text=True)
    assert "Your cards" in html and len(cards_in(html)) >= 5
