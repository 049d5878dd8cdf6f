"""Online tables at the desk (issue 12): the organiser starts a match online from the
rounds page (T-online, with an optional time per move, T-clock), sees every online table
without a single card (the desk may be in view of the players), and decides when a clock
runs out: restart the clock, abandon the hand (the same dealer deals again, R18), or stop
online play (the rest on paper). A scorer may do none of it.

Time-ups are made with the PlayService's own clock (``now``), set on the app's service
for the test: the service is not replaced, only the time it reads."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.pages.markup import elements, unlabelled, words
from tests.web.conftest import Web
from tests.web.played import state
from tests.web.test_sign_in import csrf_of, sign_in
from tournament.accounts.roles import Role
from tournament.app.play import PlayService
from tournament.app.services import services
from tournament.domain.model import events as ev
from tournament.web.live import play_service


def signed_in(web: Web, role: Role | None = None, tid: str = "club") -> None:
    if role is None:
        web.admin()
        assert sign_in(web, "admin@club.at") == 303
        return
    web.caller(role, tid)
    assert sign_in(web, f"{role.name.lower()}@club.at") == 303


def page(web: Web, path: str, status: int = 200) -> str:
    reply = web.client.get(path)
    assert reply.status_code == status, reply.get_data(as_text=True)
    html: str = reply.get_data(as_text=True)
    return html


def play(web: Web) -> PlayService:
    with web.app.app_context():
        return play_service()


def start(
    web: Web, tid: str, mid: str, seconds: str = "", lang: str = "en", join: bool = True
) -> Any:
    """The rounds page's "Play online", as the organiser clicks it; with ``join`` both
    players then open their seats on their phones (T-online: the clock starts)."""
    rounds = page(web, f"/desk/t/{tid}/rounds?lang={lang}")
    reply = web.client.post(
        f"/desk/t/{tid}/rounds/{mid}/online?lang={lang}",
        data={"csrf_token": csrf_of(rounds), "move_seconds": seconds},
    )
    if join and reply.status_code == 303:
        with web.app.app_context():
            for seat in (0, 1):
                play_service().join(tid, mid, seat, None)
    return reply


def later(web: Web, seconds: int) -> None:
    """The service's clock ``seconds`` ahead of the wall clock (T-clock time-ups)."""
    play(web).now = lambda: datetime.now(UTC) + timedelta(seconds=seconds)


def events_of(web: Web, tid: str) -> list[str]:
    with web.app.app_context():
        return [e.type for e in services().tournaments.events(tid)]


def current_deck(web: Web, tid: str, mid: str) -> list[str]:
    """The cards of the table's hand in play, read from the store (its ``hand.dealt``)."""
    t = state(web, tid)
    stream = t.online[mid].hands[-1]
    with web.app.app_context():
        dealt = services().store.read_stream(stream)[0]
    assert dealt.type == "hand.dealt"
    deck: list[str] = dealt.payload["deck"]
    return deck


def cards_in(html: str, deck: list[str]) -> list[str]:
    """The card codes (``AH``, ``TS``) standing alone in the page, the CSRF token aside."""
    text = re.sub(r'name="csrf_token" value="[^"]*"', "", html)
    return [c for c in deck if re.search(rf"(?<![A-Za-z0-9]){c}(?![A-Za-z0-9])", text)]


@pytest.fixture
def organiser(web: Web, club: str) -> Iterator[str]:
    signed_in(web)
    yield club


def test_play_online_from_the_rounds_page_starts_the_table_and_deals(
    web: Web, organiser: str
) -> None:
    tid = organiser
    rounds = page(web, f"/desk/t/{tid}/rounds?lang=en")
    # One "Play online" form for the round (O-L9), its select offers each open table.
    assert rounds.count(">Play online</button>") == 1
    assert rounds.count('<option value="3.') == 4
    assert not unlabelled(rounds)
    reply = start(web, tid, "3.1", "60")
    assert reply.status_code == 303
    assert reply.headers["Location"].endswith(f"/desk/t/{tid}/online#table-3.1")
    t = state(web, tid)
    assert t.online["3.1"].move_seconds == 60 and len(t.online["3.1"].hands) == 1  # dealt
    with web.app.app_context():
        started = [e for e in services().tournaments.events(tid) if e.type == ev.ONLINE_STARTED]
    assert started[0].metadata["via"] == "page"
    assert started[0].metadata["account"] == "admin@club.at"
    rounds = page(web, f"/desk/t/{tid}/rounds?lang=en")
    assert "Played online" in rounds and rounds.count('<option value="3.') == 3


def test_no_clock_when_the_field_is_left_empty(web: Web, organiser: str) -> None:
    assert start(web, organiser, "3.2").status_code == 303
    assert state(web, organiser).online["3.2"].move_seconds is None
    html = page(web, f"/desk/t/{organiser}/online?lang=en")
    assert "no clock" in html and "Restart the clock" not in html


@pytest.mark.parametrize("typed", ["5", "3601", "ten", "١٢"])
def test_a_time_per_move_out_of_range_is_refused_beside_the_field(
    web: Web, organiser: str, typed: str
) -> None:
    before = events_of(web, organiser)
    reply = start(web, organiser, "3.1", typed)
    html = reply.get_data(as_text=True)
    assert reply.status_code == 422
    error = next(e for e in elements(html) if e.attrs.get("id") == "move-seconds-3.1-error")
    assert "the time per move is 10 to 3600 seconds" in error.text and "(T-clock)" in error.text
    assert f'value="{typed}"' in html  # what was typed stays in the field
    assert events_of(web, organiser) == before and "3.1" not in state(web, organiser).online


def test_a_refusal_in_german_on_the_rounds_page(web: Web, organiser: str) -> None:
    reply = start(web, organiser, "3.1", "5", lang="de")
    html = reply.get_data(as_text=True)
    assert reply.status_code == 422 and "Online spielen" in html
    error = next(e for e in elements(html) if e.attrs.get("id") == "move-seconds-3.1-error")
    assert words(error.text) == (
        "Zeit pro Zug: die Zeit pro Zug ist 10 bis 3600 Sekunden, nicht 5 (T-clock)"
    )


def test_a_match_not_in_the_round_is_refused_naming_it(web: Web, organiser: str) -> None:
    reply = start(web, organiser, "9.9", "30")
    assert reply.status_code == 404 and "(T-match)" in reply.get_data(as_text=True)
    assert state(web, organiser).online == {}


def test_a_match_already_online_is_not_started_twice(web: Web, organiser: str) -> None:
    assert start(web, organiser, "3.1", "30").status_code == 303
    before = events_of(web, organiser)
    token = csrf_of(page(web, f"/desk/t/{organiser}/rounds?lang=en"))
    reply = web.client.post(
        f"/desk/t/{organiser}/rounds/3.1/online?lang=en",
        data={"csrf_token": token, "move_seconds": "30"},
    )
    assert reply.status_code == 409
    assert "match 3.1 is played online already (T-online)" in reply.get_data(as_text=True)
    assert events_of(web, organiser) == before


def test_the_online_page_lists_the_table_without_a_single_card(web: Web, organiser: str) -> None:
    tid = organiser
    assert start(web, tid, "3.1", "60").status_code == 303
    t = state(web, tid)
    match = t.matches["3.1"]
    html = page(web, f"/desk/t/{tid}/online?lang=en")
    row = next(e for e in elements(html) if e.attrs.get("id") == "status-3.1")
    text = words(row.text)
    assert match.labels[0] in text and match.labels[1] in text
    assert "Round 3, table 1" in text and "0:0" in text  # hand 1, no Bummerl yet
    assert "s left (until" in text and "in play" in text
    dealer = match.engine.next_dealer
    assert dealer is not None
    assert f"{match.labels[1 - dealer]}: to play" in text  # the dealer's opponent leads
    assert f'href="/t/{tid}/matches/3.1/table"' in html  # the spectators' page
    assert cards_in(html, current_deck(web, tid, "3.1")) == []
    fragment = page(web, f"/desk/t/{tid}/online/status?lang=en")
    assert "<html" not in fragment and 'hx-trigger="every 3s"' in fragment
    assert cards_in(fragment, current_deck(web, tid, "3.1")) == []
    assert not unlabelled(html)


def test_after_moves_the_page_still_shows_no_card(web: Web, organiser: str) -> None:
    tid = organiser
    assert start(web, tid, "3.1", "60").status_code == 303
    service = play(web)
    with web.app.app_context():
        for _ in range(3):  # three cards played: one trick and a lead on the table
            moment = service.moment(tid, "3.1")
            assert moment.state is not None
            action = moment.state.legal_actions()[0]
            service.act(tid, "3.1", action.seat, action.to_json(), moment.version)
    html = page(web, f"/desk/t/{tid}/online?lang=en")
    assert cards_in(html, current_deck(web, tid, "3.1")) == []


def test_a_time_up_shows_by_itself_highlighted_and_in_the_queue(web: Web, organiser: str) -> None:
    tid = organiser
    assert start(web, tid, "3.1", "30").status_code == 303
    assert "time is up" not in page(web, f"/desk/t/{tid}/online/status?lang=en")
    later(web, 31)
    fragment = page(web, f"/desk/t/{tid}/online/status?lang=en")
    row = next(e for e in elements(fragment) if e.attrs.get("id") == "status-3.1")
    assert row.attrs.get("class") == "time-up" and "time is up (since" in row.text
    assert "time is up (T-clock)" in row.text
    match = state(web, tid).matches["3.1"]
    to_act = match.labels[1 - (match.engine.next_dealer or 0)]  # the dealer's opponent leads
    assert words(row.text).count(": time is up (T-clock)") == 1  # only the seat to act
    assert f"{to_act}: time is up (T-clock)" in words(row.text)
    queue = page(web, f"/desk/t/{tid}/queue?lang=en")
    assert "Online tables: time is up" in queue
    assert f'href="/desk/t/{tid}/online#table-3.1"' in queue
    german = page(web, f"/desk/t/{tid}/online/status?lang=de")
    assert "Zeit ist abgelaufen" in german


def test_restarting_the_clock_stores_who_decided_and_the_time_runs_again(
    web: Web, organiser: str
) -> None:
    tid = organiser
    assert start(web, tid, "3.1", "30").status_code == 303
    later(web, 31)
    html = page(web, f"/desk/t/{tid}/online?lang=en")
    refused = web.client.post(
        f"/desk/t/{tid}/online/3.1/clock?lang=en", data={"csrf_token": csrf_of(html), "by": " "}
    )
    assert refused.status_code == 422
    error = next(e for e in elements(refused.get_data(as_text=True))
                 if e.attrs.get("id") == "clock-by-3.1-error")  # fmt: skip
    assert "restarting the clock says who decides (T-clock)" in error.text
    assert ev.ONLINE_CLOCK_RESTARTED not in events_of(web, tid)
    reply = web.client.post(
        f"/desk/t/{tid}/online/3.1/clock", data={"csrf_token": csrf_of(html), "by": "Referee Eva"}
    )
    assert reply.status_code == 303
    with web.app.app_context():
        last = services().tournaments.events(tid)[-1]
    assert last.type == ev.ONLINE_CLOCK_RESTARTED and last.payload["by"] == "Referee Eva"
    assert last.metadata["via"] == "page"
    fragment = page(web, f"/desk/t/{tid}/online/status?lang=en")
    assert "time is up" not in fragment and "30 s left" in fragment


def test_a_table_without_a_clock_has_no_clock_to_restart(web: Web, organiser: str) -> None:
    tid = organiser
    assert start(web, tid, "3.1").status_code == 303
    token = csrf_of(page(web, f"/desk/t/{tid}/online?lang=en"))
    reply = web.client.post(
        f"/desk/t/{tid}/online/3.1/clock?lang=en", data={"csrf_token": token, "by": "Eva"}
    )
    assert reply.status_code == 409
    assert "match 3.1 has no clock running (T-clock)" in reply.get_data(as_text=True)


def test_abandoning_the_hand_never_counts_it_and_the_same_dealer_deals_again(
    web: Web, organiser: str
) -> None:
    tid = organiser
    assert start(web, tid, "3.1", "30").status_code == 303
    first = state(web, tid).online["3.1"].hands[-1]
    with web.app.app_context():
        dealt = services().store.read_stream(first)[0].payload["dealer"]
    later(web, 31)
    token = csrf_of(page(web, f"/desk/t/{tid}/online?lang=en"))
    refused = web.client.post(
        f"/desk/t/{tid}/online/3.1/abandon?lang=en",
        data={"csrf_token": token, "by": "Eva", "why": ""},
    )
    assert refused.status_code == 422 and "(T-live)" in refused.get_data(as_text=True)
    assert state(web, tid).online["3.1"].hands == [first]
    reply = web.client.post(
        f"/desk/t/{tid}/online/3.1/abandon",
        data={"csrf_token": token, "by": "Eva", "why": "a player's phone died"},
    )
    assert reply.status_code == 303
    t = state(web, tid)
    assert first in t.live_abandoned and len(t.online["3.1"].hands) == 2
    abandoned = [e for e in events_of(web, tid) if e == ev.LIVE_HAND_ABANDONED]
    assert len(abandoned) == 1
    with web.app.app_context():
        again = services().store.read_stream(t.online["3.1"].hands[-1])[0].payload["dealer"]
    assert again == dealt  # R18: the same dealer deals again
    html = page(web, f"/desk/t/{tid}/online?lang=en")
    assert "Hand" in html and cards_in(html, current_deck(web, tid, "3.1")) == []


def test_stopping_online_play_asks_who_and_why_and_leaves_the_rest_to_paper(
    web: Web, organiser: str
) -> None:
    tid = organiser
    assert start(web, tid, "3.1", "30").status_code == 303
    token = csrf_of(page(web, f"/desk/t/{tid}/online?lang=en"))
    refused = web.client.post(
        f"/desk/t/{tid}/online/3.1/stop?lang=en", data={"csrf_token": token, "by": "Eva"}
    )
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422
    error = next(e for e in elements(html) if e.attrs.get("id") == "stop-why-3.1-error")
    assert "stopping online play says who decides and why (T-online)" in error.text
    assert not state(web, tid).online["3.1"].stopped
    reply = web.client.post(
        f"/desk/t/{tid}/online/3.1/stop",
        data={"csrf_token": token, "by": "Eva", "why": "the screens failed"},
    )
    assert reply.status_code == 303
    t = state(web, tid)
    assert t.online["3.1"].stopped and t.online["3.1"].hands[-1] in t.live_abandoned
    html = page(web, f"/desk/t/{tid}/online?lang=en")
    assert "stopped: the rest on paper" in html and 'id="table-3.1"' not in html
    again = web.client.post(
        f"/desk/t/{tid}/online/3.1/stop?lang=en",
        data={"csrf_token": token, "by": "Eva", "why": "twice"},
    )
    assert again.status_code == 409
    assert "match 3.1 is not played online (T-online)" in again.get_data(as_text=True)


def test_a_match_that_is_not_online_has_nothing_to_decide(web: Web, organiser: str) -> None:
    token = csrf_of(page(web, "/login"))
    reply = web.client.post(
        f"/desk/t/{organiser}/online/3.2/abandon?lang=en",
        data={"csrf_token": token, "by": "Eva", "why": "no reason"},
    )
    assert reply.status_code == 404
    assert "match 3.2 is not played online (T-online)" in reply.get_data(as_text=True)


def test_a_scorer_may_neither_start_nor_decide(web: Web, club: str) -> None:
    signed_in(web)
    assert start(web, club, "3.1", "30").status_code == 303
    signed_in(web, Role.SCORER, club)
    rounds = page(web, f"/desk/t/{club}/rounds?lang=en")
    assert "Play online" not in rounds and f"/desk/t/{club}/online" not in rounds
    assert web.client.get(f"/desk/t/{club}/online").status_code == 403
    assert web.client.get(f"/desk/t/{club}/online/status").status_code == 403
    token = csrf_of(page(web, "/login"))
    before = events_of(web, club)
    for path, data in [
        ("rounds/3.2/online", {"move_seconds": "30"}),
        ("online/3.1/clock", {"by": "me"}),
        ("online/3.1/abandon", {"by": "me", "why": "why not"}),
        ("online/3.1/stop", {"by": "me", "why": "why not"}),
    ]:
        reply = web.client.post(f"/desk/t/{club}/{path}", data={"csrf_token": token, **data})
        assert reply.status_code == 403, path
    assert events_of(web, club) == before


def test_a_decision_without_the_csrf_token_is_refused(web: Web, organiser: str) -> None:
    assert start(web, organiser, "3.1", "30").status_code == 303
    before = events_of(web, organiser)
    reply = web.client.post(
        f"/desk/t/{organiser}/online/3.1/stop", data={"by": "Eva", "why": "a forged post"}
    )
    assert reply.status_code in (400, 403)
    assert events_of(web, organiser) == before


def test_the_online_page_in_german(web: Web, organiser: str) -> None:
    assert start(web, organiser, "3.1", "30").status_code == 303
    html = page(web, f"/desk/t/{organiser}/online?lang=de")
    for german in ("Online-Tische", "Uhr neu starten", "Dieses Spiel abbrechen",
                   "Online-Spiel beenden", "Wer entscheidet", "Zuschauerseite"):  # fmt: skip
        assert german in html, german
    assert "Restart the clock" not in html


def test_the_nav_links_the_online_page_for_organisers(web: Web, organiser: str) -> None:
    html = page(web, f"/desk/t/{organiser}/rounds?lang=en")
    nav = html[html.index('<nav class="desk-nav"') :]
    nav = nav[: nav.index("</nav>")]
    assert f'href="/desk/t/{organiser}/online"' in nav and "Online tables" in nav


def test_the_desk_shows_who_joined_and_no_clock_before_both_did(web: Web, organiser: str) -> None:
    """T-online, T-clock: the table waits for both players; their seats show no code."""
    tid = organiser
    assert start(web, tid, "3.1", "30", join=False).status_code == 303
    later(web, 600)  # ten minutes after the deal: still no time-up
    match = state(web, tid).matches["3.1"]
    fragment = page(web, f"/desk/t/{tid}/online/status?lang=en")
    row = next(e for e in elements(fragment) if e.attrs.get("id") == "status-3.1")
    text = words(row.text)
    assert "time is up" not in text and "waiting for the players" in text
    assert text.count("(not joined yet)") == 2
    with web.app.app_context():
        play_service().join(tid, "3.1", 0, None)
    row = next(
        e
        for e in elements(page(web, f"/desk/t/{tid}/online/status?lang=de"))
        if e.attrs.get("id") == "status-3.1"
    )
    assert f"{match.labels[0]} (da)" in words(row.text)
    assert f"{match.labels[1]} (noch nicht da)" in words(row.text)
    assert "wartet auf die Spieler" in words(row.text)


def test_releasing_a_seat_asks_who_decides_and_frees_it(web: Web, organiser: str) -> None:
    tid = organiser
    assert start(web, tid, "3.1", "30").status_code == 303
    html = page(web, f"/desk/t/{tid}/online?lang=en")
    assert html.count(">Release seat</button>") == 2
    assert "Platz freigeben" in page(web, f"/desk/t/{tid}/online?lang=de")
    path = f"/desk/t/{tid}/online/3.1/release"
    sent = {"csrf_token": csrf_of(html), "seat": "1"}
    refused = web.client.post(f"{path}?lang=en", data={**sent, "by": " "})
    assert refused.status_code == 422
    assert "releasing a seat says who decides (T-online)" in refused.get_data(as_text=True)
    assert ev.ONLINE_SEAT_RELEASED not in events_of(web, tid)
    nonsense = web.client.post(f"{path}?lang=en", data={**sent, "seat": "7", "by": "Eva"})
    assert nonsense.status_code == 422 and "a seat is 0 or 1, not 7" in nonsense.get_data(True)
    reply = web.client.post(path, data={**sent, "by": "Referee Eva"})
    assert reply.status_code == 303
    with web.app.app_context():
        last = services().tournaments.events(tid)[-1]
    assert last.type == ev.ONLINE_SEAT_RELEASED
    assert (last.payload["seat"], last.payload["by"]) == (1, "Referee Eva")
    after = page(web, f"/desk/t/{tid}/online?lang=en")
    assert after.count(">Release seat</button>") == 1
    assert "(not joined yet)" in page(web, f"/desk/t/{tid}/online/status?lang=en")
    assert not unlabelled(after)
