"""Small defects a browser trial found on the German pages (organiser at 1366x768, phones
at 390x844), one test each, named after it (polish 2-6; polish 1, the favicon, is
tests/pages/test_favicon.py): English inside a German refusal (R19, R20), "Best of" on the
phone, a plural for one table, raw event names and words in the audit log, and a refusal
naming the wrong Bummerl (T-tally)."""

from __future__ import annotations

from tests.pages.markup import elements, words
from tests.pages.test_desk_sheets import SHEETS, STRAIGHT, shown, signed_in
from tests.pages.test_play_page import online_match, phone
from tests.web.conftest import Web
from tests.web.played import run, state
from tournament.domain.commands.results import record_hand
from tournament.domain.model.events import SCHEMA_VERSIONS
from tournament.web.pages.desk_audit import KINDS

#: Bummerl 1 won without the opponent's first hand: a Schneiderbummerl, counting 2 (R19),
#: so in a best of 3 it decides the match 2:0 on its own (R20).
SCHNEIDER = "7 4 1 0 / 7"


def missing_line(web: Web, club: str, lang: str) -> str:
    """The rounds page's line of results missing, as the reader sees it (no tags)."""
    html = web.client.get(f"/desk/t/{club}/rounds?lang={lang}").get_data(as_text=True)
    return words(next(e for e in elements(html) if e.attrs.get("class") == "missing").text)


def sheet(web: Web, token: str, table: str, key: str, *lines: str) -> dict[str, str]:
    boxes = {f"bummerl_{n}": text for n, text in enumerate(lines, 1)}
    return {"csrf_token": token, "key": key * 32, "table": table, **shown(web, table), **boxes}


def test_polish_2_the_schneider_note_of_a_decided_match_reads_german_r19_r20(
    web: Web, club: str
) -> None:
    token = signed_in(web)
    form = sheet(web, token, "1", "a", SCHNEIDER, STRAIGHT, "")
    german = words(web.client.post(f"{SHEETS}?lang=de", data=form).get_data(as_text=True))
    assert "hat 2:0 Bummerl gewonnen (ein Schneiderbummerl zählt 2, R19); danach wird" in german
    assert "counts 2" not in german
    english = words(web.client.post(f"{SHEETS}?lang=en", data=form).get_data(as_text=True))
    assert "won 2:0 Bummerl (a Schneiderbummerl counts 2, R19); nothing is entered" in english


def test_polish_3_the_phone_says_best_of_in_german(web: Web, club: str) -> None:
    mid, a, _ = online_match(web, club)
    seat = words(phone(web, a).get(f"/play/{a}?lang=de").get_data(as_text=True))
    assert "Bummerl 1 · Best-of 3" in seat and "Best of" not in seat
    watched = web.client.get(f"/t/{club}/matches/{mid}/table?lang=de")
    assert watched.status_code == 200
    assert "Best of" not in words(watched.get_data(as_text=True))


def test_polish_4_one_table_missing_is_singular_in_german(web: Web, club: str) -> None:
    token = signed_in(web)
    for table, key in (("1", "b"), ("2", "c"), ("3", "d")):
        stored = web.client.post(SHEETS, data=sheet(web, token, table, key, STRAIGHT, STRAIGHT))
        assert stored.status_code == 303
    sheets = words(web.client.get(f"{SHEETS}?lang=de").get_data(as_text=True))
    assert "Runde 3: Ergebnis fehlt am Tisch 4." in sheets
    assert missing_line(web, club, "de") == "1 von 4 Ergebnissen fehlt: Tisch 4"
    rounds = web.client.get(f"/desk/t/{club}/rounds?lang=de").get_data(as_text=True)
    assert f'Tisch <a href="/desk/t/{club}/sheets?table=4">4</a>' in rounds  # a link, unescaped
    assert missing_line(web, club, "en") == "1 of 4 results missing: table 4"
    assert "Round 3: result missing at table 4." in words(
        web.client.get(f"{SHEETS}?lang=en").get_data(as_text=True)
    )


def test_polish_4_several_tables_missing_stay_plural_in_german(web: Web, club: str) -> None:
    signed_in(web)
    sheets = words(web.client.get(f"{SHEETS}?lang=de").get_data(as_text=True))
    assert "Runde 3: Ergebnisse fehlen an den Tischen 1, 2, 3, 4." in sheets
    assert missing_line(web, club, "de") == "4 von 4 Ergebnissen fehlen: Tische 1, 2, 3, 4"


def test_polish_5_the_audit_log_names_online_events_hand_reasons_and_formats_in_german(
    web: Web, club: str
) -> None:
    online_match(web, club)  # match.online_started, two match.online_seat_taken
    m = state(web, club).matches["3.2"]
    run(web, club, lambda t: record_hand(t, "3.2", winner=m.players[0], game_points=1,
                                         reason="last_trick"))  # fmt: skip
    signed_in(web)
    german = words(web.client.get(f"/desk/t/{club}/audit?lang=de").get_data(as_text=True))
    for raw in ("match.online_started", "match.online_seat_taken", "last_trick", "swiss,"):
        assert raw not in german
    assert "Online-Tisch eröffnet" in german and "Platz belegt" in german
    assert "letzter Stich" in german and "Schweizer System, Best-of 3" in german


def test_polish_6_a_bad_line_after_a_deciding_schneider_names_its_own_bummerl_t_tally(
    web: Web, club: str
) -> None:
    token = signed_in(web)
    form = sheet(web, token, "1", "e", SCHNEIDER, "7 4 / 7 6 / 3", "")
    reply = web.client.post(f"{SHEETS}?lang=de", data=form)
    german = words(reply.get_data(as_text=True))
    assert reply.status_code == 422
    assert "Partie 3.1, Bummerl 2:" in german and "nicht 3 (T-tally)" in german
    assert "Bummerl 1:" not in german


def test_polish_5_every_event_kind_has_a_title_in_the_audit_log() -> None:
    """No event kind is left to show its raw name (``match.online_started``)."""
    assert set(SCHEMA_VERSIONS) - set(KINDS) == set()
