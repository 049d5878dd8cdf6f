"""What the room sees of an online table (T-online), and a finished hand's replay and
record: the spectator page and its live fragment show the cards played, the turn-up and
declared marriages, never a card of either hand or of the talon; a hand's replay and
its ``schnapsen-record/1`` are given only once the hand is over for good (R16: after the
last trick its winner may still claim), in German and English."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest

from engine import HandState
from engine.record import GameRecord
from tests.pages.table_cards import CARD, assert_no_hidden_card, cards_shown
from tests.pages.table_cards import hidden as hidden_cards
from tests.web.conftest import Web
from tournament.app.services import services
from tournament.domain.commands.online import current_hand, table_of
from tournament.domain.model.hands import HAND_DEALT
from tournament.domain.views.onlineview import TableMoment
from tournament.web.live import live, play_service

MATCH = "3.1"  # Anna Huber (1) against Bernd Maier (2), table 1


@pytest.fixture
def online(web: Web, club: str) -> str:
    """Match 3.1 of the club's round 3 at an online table, its first hand dealt."""
    with web.app.app_context():
        play_service().start(club, MATCH, move_seconds=None)
        for seat in (0, 1):  # both players opened their seats (T-online)
            play_service().join(club, MATCH, seat, None)
    return club


def moment(web: Web, tid: str) -> TableMoment:
    with web.app.app_context():
        return play_service().moment(tid, MATCH)


def step(web: Web, tid: str) -> TableMoment:
    """The seat to act plays a card, declaring a marriage when it can (R10); it claims
    only when nothing else is legal, so hands run to the last trick and the R16 window."""
    now = moment(web, tid)
    assert now.state is not None
    legal = now.state.legal_actions()
    plays = [a for a in legal if a.kind.word == "play"]
    plays = [a for a in plays if a.marriage] + plays or legal
    action = plays[0]
    with web.app.app_context():
        return play_service().act(tid, MATCH, action.seat, action.to_json(), now.version)


def hidden(web: Web, tid: str) -> set[str]:
    """The cards nobody in the room may see now (the table's current hand)."""
    now = moment(web, tid)
    assert now.state is not None
    return hidden_cards(now.state)


def deck_in_store(web: Web, tid: str) -> list[str]:
    """The deck of the table's current hand, as the store holds it."""
    with web.app.app_context():
        t = services().tournaments.state(tid)
        stream = current_hand(t, MATCH)
        assert stream is not None
        events = services().store.read_stream(stream)
    dealt = [e for e in events if e.type == HAND_DEALT]
    return list(dealt[0].payload["deck"])


def sse_messages(web: Web, tid: str, count: int) -> Iterator[str]:
    """The first ``count`` ``table`` messages of the table's stream (as a browser gets them)."""
    reply = web.client.get(f"/t/{tid}/matches/{MATCH}/table/events?lang=en", buffered=False)
    assert reply.status_code == 200
    assert reply.mimetype == "text/event-stream"
    got = 0
    buffer = ""
    try:
        for chunk in reply.response:
            buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            while "\n\n" in buffer:
                message, buffer = buffer.split("\n\n", 1)
                if message.startswith("event: table"):
                    yield "\n".join(
                        line[6:] for line in message.split("\n") if line.startswith("data: ")
                    )
                    got += 1
                    if got >= count:
                        return
    finally:
        reply.close()


def play_hand_out(web: Web, tid: str, *, check: bool = True) -> int:
    """Moves until the table's first hand is over for good; at each moment the page and
    its fragment hold no hidden card. The moves made."""
    moves = 0
    while True:
        now = moment(web, tid)
        if now.number != 1 or now.final:
            return moves
        if check:
            secret = hidden(web, tid)
            page = web.client.get(f"/t/{tid}/matches/{MATCH}/table?lang=en").get_data(True)
            assert_no_hidden_card(page, secret)
        if now.state is not None and now.state.is_over:  # the R16 window: decline
            with web.app.app_context():
                seat = now.state.legal_actions()[0].seat
                play_service().decline_claim(tid, MATCH, seat, now.version)
            moves += 1
            continue
        step(web, tid)
        moves += 1


def test_the_table_page_shows_the_players_the_turn_up_and_the_talon_count_but_no_hand(
    web: Web, online: str
) -> None:
    deck = deck_in_store(web, online)
    reply = web.client.get(f"/t/{online}/matches/{MATCH}/table?lang=en")
    html = reply.get_data(as_text=True)
    assert reply.status_code == 200
    assert "Anna Huber (1)" in html and "Bernd Maier (2)" in html
    assert "10 cards" in html  # the talon's count, the turn-up included (R2)
    assert "game points still to go (R17)" in html
    assert ">Points<" not in html  # no card points on the wall while the hand is played
    # R2: the deck's seventh card is the turn-up, face up; the other 19 are hidden.
    turnup = deck[6]
    assert turnup in cards_shown(html)
    assert_no_hidden_card(html, set(deck) - {turnup})
    assert "to play." in html
    german = web.client.get(f"/t/{online}/matches/{MATCH}/table?lang=de").get_data(True)
    assert "ist am Zug." in german and "10 Karten" in german
    assert "Spielpunkte noch abzustreichen (R17)" in german
    assert_no_hidden_card(german, set(deck) - {turnup})
    # No table code: the page holds no link to a seat.
    assert "/play/" not in html and "code" not in html.lower().replace("qr code", "")


def test_during_a_hand_the_room_sees_only_the_last_trick_and_no_points(
    web: Web, online: str
) -> None:
    """T-watch (F9): the spectator page may be open on a player's phone beside the seat,
    so during a hand it shows what both players may see: the last trick while it lies
    open, never the tricks won before it (a player would follow both piles)."""
    while len(moment(web, online).state.tricks) < 3:  # type: ignore[union-attr]
        secret = hidden(web, online)
        html = web.client.get(f"/t/{online}/matches/{MATCH}/table?lang=de").get_data(True)
        assert_no_hidden_card(html, secret)
        step(web, online)
    now = moment(web, online)
    assert now.state is not None and now.state.lead_card is None  # the last trick lies open
    html = web.client.get(f"/t/{online}/matches/{MATCH}/table?lang=en").get_data(True)
    # Tricks won before the last are hidden, but a declared marriage's two cards were
    # shown to both players (R10) and stay on the table's view.
    declared = {c.code for m in now.state.marriages for c in (m.led, m.shown)}
    earlier = {c.code for t in now.state.tricks[:-1] for c in (t.lead, t.reply)} - declared
    last = now.state.tricks[-1]
    assert {last.lead.code, last.reply.code} <= cards_shown(html)
    assert_no_hidden_card(html, hidden(web, online) | earlier)
    assert 'class="won-by"' not in html and ">Points<" not in html
    assert "The won tricks are shown when the hand is over" in html and "(T-watch)" in html
    german = web.client.get(f"/t/{online}/matches/{MATCH}/table?lang=de").get_data(True)
    assert_no_hidden_card(german, hidden(web, online) | earlier)
    assert "Die gewonnenen Stiche" in german


def test_once_the_hand_is_over_the_room_sees_every_trick_and_the_points(
    web: Web, online: str
) -> None:
    """The full hand once it is over: the replay and the record (as before), and the
    outcome with its points under the table."""
    play_hand_out(web, online, check=False)
    html = web.client.get(f"/t/{online}/matches/{MATCH}/table?lang=en").get_data(True)
    assert "Previous hand: won by" in html and "points" in html
    replay = web.client.get(f"/t/{online}/matches/{MATCH}/hands/1?lang=en")
    assert replay.status_code == 200


def test_while_the_last_tricks_winner_may_still_claim_the_room_shows_no_outcome(
    web: Web, online: str
) -> None:
    """F3: after the last trick its winner may still claim 66 (R16): nobody knows the
    hand's result yet, so the room's JSON, page and live fragment show no outcome (api.md:
    the outcome appears once nobody is left to act); once the winner said "no claim", the
    finished hand's outcome is there."""

    def claim_window() -> bool:
        state = moment(web, online).state
        return state is not None and state.is_over and bool(state.to_act)

    while not claim_window():
        step(web, online)
    now = moment(web, online)
    assert now.state is not None and len(now.state.to_act) == 1  # the R16 window
    winner = now.state.to_act[0]
    room = web.client.get(f"/api/v1/tournaments/{online}/matches/{MATCH}/table").get_json()
    assert (room["status"], room["final"]) == ("wait", False)
    assert room["view"]["to_act"] == [winner] and room["view"]["outcome"] is None
    assert room["view"]["points"] is None
    html = web.client.get(f"/t/{online}/matches/{MATCH}/table?lang=en").get_data(True)
    fragment = next(sse_messages(web, online, 1))
    for shown in (html, fragment):
        assert "may still claim 66 (R12a, R16)" in shown
        assert "This hand: won by" not in shown and "game points:" not in shown
    german = web.client.get(f"/t/{online}/matches/{MATCH}/table?lang=de").get_data(True)
    assert "R16" in german
    with web.app.app_context():
        play_service().decline_claim(online, MATCH, winner, now.version)
    hands = web.client.get(f"/api/v1/tournaments/{online}/matches/{MATCH}/hands").get_json()
    assert hands[0]["final"] and hands[0]["outcome"]["winner"] == winner


def test_the_live_fragment_holds_no_hidden_card_either(web: Web, online: str) -> None:
    first = next(sse_messages(web, online, 1))
    assert 'class="table-live"' in first
    assert_no_hidden_card(first, hidden(web, online))
    for _ in range(3):
        step(web, online)
    fragment = next(sse_messages(web, online, 1))
    assert_no_hidden_card(fragment, hidden(web, online))
    lead = moment(web, online).state
    assert lead is not None and lead.lead_card is not None
    assert lead.lead_card.code in cards_shown(fragment)  # the card on the table is open


def test_the_replay_is_refused_while_the_hand_is_played(web: Web, online: str) -> None:
    step(web, online)
    deck = set(deck_in_store(web, online))
    for lang, words in (("en", "still being played"), ("de", "wird noch gespielt")):
        reply = web.client.get(f"/t/{online}/matches/{MATCH}/hands/1?lang={lang}")
        html = reply.get_data(as_text=True)
        assert reply.status_code == 409
        assert words in html
        assert not cards_shown(html) and not set(CARD.findall(html)) & deck
    record = web.client.get(f"/t/{online}/matches/{MATCH}/hands/1/record.json")
    assert record.status_code == 409
    assert record.get_json()["rule"] == "T-online"
    assert not set(CARD.findall(record.get_data(as_text=True))) & deck


def test_after_the_hand_the_replay_steps_through_it_and_the_record_replays_to_its_outcome(
    web: Web, online: str
) -> None:
    deck = deck_in_store(web, online)
    play_hand_out(web, online)
    with web.app.app_context():
        _, hand = play_service().hand_at(online, MATCH, 1)
    outcome = hand.state.outcome()
    assert outcome.complete

    # The record: schnapsen-record/1 as a download, replaying to the same outcome.
    reply = web.client.get(f"/t/{online}/matches/{MATCH}/hands/1/record.json")
    assert reply.status_code == 200
    assert reply.headers["Content-Disposition"].startswith("attachment;")
    record = GameRecord.loads(reply.get_data(as_text=True))
    assert [c.code for c in record.deck] == deck
    assert record.outcome() == outcome
    assert record.extra["outcome"] == outcome.to_json()
    assert record.extra["players"] == ["Anna Huber (1)", "Bernd Maier (2)"]

    # The replay: the deal with every card open, then each step, then the outcome.
    steps = len(record.actions)
    deal = web.client.get(f"/t/{online}/matches/{MATCH}/hands/1?lang=en").get_data(True)
    assert set(deck) == cards_shown(deal)  # both hands, the turn-up, the talon's order
    assert "Step 0 of" in deal and 'rel="next"' in deal and 'rel="prev"' not in deal
    middle = web.client.get(f"/t/{online}/matches/{MATCH}/hands/1?step=3&lang=en").get_data(True)
    position = HandState.deal(deck, record.dealer).apply_all(record.actions[:3])
    held = [c.code for c in position.cards_of(0)]
    assert all(code in cards_shown(middle) for code in held)
    assert "The position after step 3" in middle and 'rel="prev"' in middle
    with web.app.app_context():
        t = services().tournaments.state(online)
        declined = hand.stream in table_of(t, MATCH).closed
    if declined:  # R16: the winner's "no claim" is the replay's last step
        steps += 1
    end = web.client.get(f"/t/{online}/matches/{MATCH}/hands/1?step={steps}&lang=en")
    html = end.get_data(as_text=True)
    assert end.status_code == 200 and 'rel="next"' not in html
    assert ("no claim (R16)" in html) == declined
    winner = ["Anna Huber (1)", "Bernd Maier (2)"][outcome.winner or 0]
    assert f"Won by {winner} (game points: {outcome.game_points}," in html
    german = web.client.get(f"/t/{online}/matches/{MATCH}/hands/1?step={steps}&lang=de")
    assert f"Gewonnen von {winner} (Spielpunkte: {outcome.game_points}," in german.get_data(True)
    # A step beyond the hand is refused with the field named, and the deal shown.
    wrong = web.client.get(f"/t/{online}/matches/{MATCH}/hands/1?step={steps + 1}&lang=en")
    assert wrong.status_code == 400 and "step:" in wrong.get_data(True)

    # The table lists the hand for its replay, and its outcome; hand 2 is hidden again.
    table = web.client.get(f"/t/{online}/matches/{MATCH}/table?lang=en").get_data(True)
    assert f"/t/{online}/matches/{MATCH}/hands/1" in table
    assert "Previous hand:" in table
    assert_no_hidden_card(table, hidden(web, online))


def test_pairings_and_the_player_page_link_an_online_table(web: Web, online: str) -> None:
    link = f"/t/{online}/matches/{MATCH}/table"
    for lang, words in (("en", "Live table"), ("de", "Live-Tisch")):
        pairings = web.client.get(f"/t/{online}/pairings?lang={lang}").get_data(True)
        assert link in pairings and words in pairings
        player = web.client.get(f"/t/{online}/players/1?lang={lang}").get_data(True)
        assert link in player and words in player
    # The tournament page's pairings, and what its live stream fetches again, too.
    assert link in web.client.get(f"/t/{online}?lang=en").get_data(True)
    assert link in web.client.get(f"/t/{online}/round-fragment?lang=en").get_data(True)
    # Another match of the round is played on paper: no link.
    assert f"/t/{online}/matches/3.2/table" not in pairings


def test_a_match_not_played_online_has_no_table_page(web: Web, club: str) -> None:
    reply = web.client.get(f"/t/{club}/matches/3.2/table?lang=en")
    assert reply.status_code == 404
    assert "not played at an online table" in reply.get_data(as_text=True)
    assert web.client.get("/t/nowhere/matches/3.2/table").status_code == 404
    assert web.client.get(f"/t/{club}/matches/3.2/hands/1/record.json").status_code == 404


def test_the_projector_shows_the_table_without_navigation(web: Web, online: str) -> None:
    for path in ("/table?projector=1&lang=en", "/table/projector?lang=en"):
        html = web.client.get(f"/t/{online}/matches/{MATCH}{path}").get_data(True)
        assert 'class="projector"' in html
        assert 'class="tabs"' not in html
        assert "projector=1" in html  # its stream renders the projector's fragment
        assert_no_hidden_card(html, hidden(web, online))


def test_when_the_clock_runs_out_the_room_reads_that_the_organiser_decides(
    web: Web, club: str
) -> None:
    with web.app.app_context():
        play = play_service()
        play.start(club, MATCH, move_seconds=30)
        html = web.client.get(f"/t/{club}/matches/{MATCH}/table?lang=en").get_data(True)
        assert "Waiting for the players to open their seats (T-online)." in html
        for seat in (0, 1):
            play.join(club, MATCH, seat, None)
        html = web.client.get(f"/t/{club}/matches/{MATCH}/table?lang=en").get_data(True)
        assert "Time per move: 30 s (T-clock)." in html and "Time is up" not in html
        later = play.now() + timedelta(minutes=5)
        play.now = lambda: later  # T-clock: five minutes without a move
    for lang, words in (
        ("en", "Time is up — the organiser decides (T-clock)."),
        ("de", "Die Zeit ist um – die Turnierleitung entscheidet (T-clock)."),
    ):
        html = web.client.get(f"/t/{club}/matches/{MATCH}/table?lang={lang}").get_data(True)
        assert words in html
        assert 'data-status="time"' in html


def test_online_play_stopped_the_hand_abandoned_can_be_replayed_and_never_counts(
    web: Web, online: str
) -> None:
    for _ in range(3):
        step(web, online)
    with web.app.app_context():
        play_service().stop(online, MATCH, by="Turnierleitung", reason="a screen failed")
    html = web.client.get(f"/t/{online}/matches/{MATCH}/table?lang=en").get_data(True)
    assert "The organiser stopped online play" in html
    assert "abandoned, does not count (R18)" in html
    replay = web.client.get(f"/t/{online}/matches/{MATCH}/hands/1?step=3&lang=de")
    assert replay.status_code == 200
    assert "Die Turnierleitung hat dieses Spiel abgebrochen" in replay.get_data(True)
    record = GameRecord.loads(
        web.client.get(f"/t/{online}/matches/{MATCH}/hands/1/record.json").get_data(True)
    )
    assert len(record.actions) == 3 and record.extra["abandoned"] is True
    assert not record.extra["outcome"]["complete"]


def test_over_the_cap_of_streams_the_table_stream_is_refused_for_a_while(
    web: Web, online: str
) -> None:
    with web.app.app_context():
        live().hub.cap = 1  # the process's cap of live streams (LIVE_MAX_STREAMS)
    held = web.client.get(f"/t/{online}/matches/{MATCH}/table/events", buffered=False)
    try:
        assert held.status_code == 200
        refused = web.client.get(f"/t/{online}/matches/{MATCH}/table/events?lang=en")
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == "10"
    finally:
        held.close()
    again = web.client.get(f"/t/{online}/matches/{MATCH}/table/events", buffered=False)
    assert again.status_code == 200  # the closed stream gave its place back
    again.close()


@pytest.mark.parametrize(
    ("reason", "winner", "closed_by", "rule"),
    [
        ("last_trick", 0, None, "R16"),
        ("claim", 0, None, "R13"),
        ("claim", 0, 0, "R14"),  # the closer's correct claim
        ("claim", 1, 0, "R14"),  # the opponent claims first in a closed hand: closer fails
        ("false_claim", 1, None, "R15"),
        ("false_claim", 1, 1, "R15"),  # the closer's opponent claimed falsely
        ("false_claim", 1, 0, "R14"),  # the closer claimed falsely
        ("closer_failed", 1, 0, "R14"),
    ],
)
def test_finished_hands_cite_the_rule_that_scored_them(
    web: Web, reason: str, winner: int, closed_by: int | None, rule: str
) -> None:
    from tournament.web.pages.public_play import reason_words

    with web.app.test_request_context("/?lang=en"):
        words = reason_words(reason, winner, closed_by)
    assert words.endswith(f"({rule})"), words


def test_a_hand_that_is_not_a_number_is_the_public_not_found_page(web: Web, online: str) -> None:
    for lang, words in (("en", "not found"), ("de", "nicht gefunden")):
        reply = web.client.get(f"/t/{online}/matches/{MATCH}/hands/abc?lang={lang}")
        assert reply.status_code == 404 and reply.mimetype == "text/html"
        assert words in reply.get_data(as_text=True).lower()


def test_the_room_s_cards_wear_the_seat_page_s_four_suit_colours(web: Web, online: str) -> None:
    html = web.client.get(f"/t/{online}/matches/{MATCH}/table?lang=en").get_data(True)
    assert re.search(r'class="card suit-[CDHS]"', html) and "card red" not in html
