"""The scoresheet desk (issue 11): a sheet typed like the paper tally is checked by the
domain as it is typed (R13, R17: the message names the Bummerl, the hand and the rule, in
German or English), stored whole by Enter -- once, however often Enter is pressed -- and
the page moves on to the next table still missing its result; a refused sheet stores
nothing; undo voids the last entry by corrections (T-correction), deleting nothing.
Issue 21: the sheet goes only to the match the page showed (O-S1), the line being typed
is never a finished Bummerl (O-H1), a refusal puts the cursor on the Bummerl at fault
(O-L5)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest

from tests.web.conftest import Web, make_web
from tests.web.played import run, state, swiss
from tests.web.test_sign_in import csrf_of, sign_in
from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain.commands.rounds import start_round

SHEETS = "/desk/t/club/sheets"
#: A Bummerl the first column's player wins 7 -> 4 -> 1 -> 0 against one hand: no
#: Schneider (R19), so two of them decide a best of 3 2:0.
STRAIGHT = "7 4 1 0 / 7 6"


def signed_in(web: Web) -> str:
    """Signed in as the organiser; the sheets page's CSRF token."""
    web.admin()
    assert sign_in(web) == 303
    return csrf_of(web.client.get(SHEETS).get_data(as_text=True))


def shown(web: Web, table: str) -> dict[str, str]:
    """What the page's panel carries back for a table of round 3: the match it showed
    (id, players, Bummerl recorded); the desk stores only on that match (O-S1)."""
    m = state(web, "club").matches[f"3.{table}"]
    recorded = sum(1 for e in m.entries if e.kind == "tally" and e.payload is not None)
    return {"match": m.match_id, "players": f"{m.players[0]},{m.players[1]}",
            "recorded": str(recorded)}  # fmt: skip


def versions(web: Web) -> int:
    return state(web, "club").version


def test_the_page_suggests_the_first_table_missing_a_result_and_shows_its_match(
    web: Web, club: str
) -> None:
    signed_in(web)
    html = web.client.get(f"{SHEETS}?lang=en").get_data(as_text=True)
    t = state(web, club)
    first = t.matches["3.1"]
    assert 'id="sheet-table"' in html and 'value="1"' in html
    assert t.label(first.players[0]) in html and "Best of" in html
    assert 'name="bummerl_1"' in html


def test_the_rounds_page_link_with_a_table_opens_that_table(web: Web, club: str) -> None:
    signed_in(web)
    html = web.client.get(f"{SHEETS}?table=3&lang=en").get_data(as_text=True)
    t = state(web, club)
    assert t.label(t.matches["3.3"].players[1]) in html
    assert "Table 3:" in html


def test_the_check_names_hand_and_rule_r13_in_english_and_german_and_stores_nothing(
    web: Web, club: str
) -> None:
    token = signed_in(web)
    before = versions(web)
    sheet = {"csrf_token": token, "table": "1", "bummerl_1": "7 5 1 0 / 7"}
    en = web.client.post(f"{SHEETS}/check?lang=en", data=sheet).get_data(as_text=True)
    assert "Bummerl 1: hand 2" in en and "R13" in en and "a step of 4" in en
    assert "Not yet a Bummerl the rules accept" in en
    de = web.client.post(f"{SHEETS}/check?lang=de", data=sheet).get_data(as_text=True)
    assert "R13" in de and "Noch kein Bummerl" in de
    assert "Bummerl 1: Spiel 2" in de and "ein Schritt von 4" in de
    assert versions(web) == before


def test_the_check_stops_at_the_bummerl_that_decides_the_match(web: Web, club: str) -> None:
    token = signed_in(web)
    sheet = {"csrf_token": token, "table": "2", "bummerl_1": STRAIGHT, "bummerl_2": STRAIGHT,
             "bummerl_3": ""}  # fmt: skip
    html = web.client.post(f"{SHEETS}/check?lang=en", data=sheet).get_data(as_text=True)
    assert 'data-inputs="2"' in html and "Decided 2:0" in html


def test_enter_stores_the_whole_sheet_once_and_moves_on_to_the_next_table(
    web: Web, club: str
) -> None:
    token = signed_in(web)
    sheet = {"csrf_token": token, "key": "a" * 32, "table": "1", **shown(web, "1"),
             "bummerl_1": STRAIGHT, "bummerl_2": STRAIGHT, "bummerl_3": ""}  # fmt: skip
    first = web.client.post(SHEETS, data=sheet)
    assert first.status_code == 303 and first.headers["Location"].endswith("?table=2&stored=3.1")
    moved_on = web.client.get(first.headers["Location"] + "&lang=en").get_data(as_text=True)
    assert "Table 1 stored: Bummerl 2:0." in moved_on and 'value="2"' in moved_on
    stored = versions(web)
    assert state(web, club).matches["3.1"].decided
    again = web.client.post(SHEETS, data=sheet)  # Enter pressed twice: the same key
    assert again.status_code == 303
    assert versions(web) == stored


def test_the_same_sheet_typed_again_is_refused_as_a_repeat(web: Web, club: str) -> None:
    token = signed_in(web)
    sheet = {
        "csrf_token": token,
        "key": "b" * 32,
        "table": "1",
        **shown(web, "1"),
        "bummerl_1": STRAIGHT,
    }
    assert web.client.post(SHEETS, data=sheet).status_code == 303
    stored = versions(web)
    again = {**sheet, "key": "c" * 32, **shown(web, "1")}  # the page as it came back
    repeat = web.client.post(f"{SHEETS}?lang=en", data=again)
    assert repeat.status_code == 422 and "T-repeat" in repeat.get_data(as_text=True)
    assert versions(web) == stored


def test_a_bad_sheet_stores_nothing_and_says_which_bummerl_and_rule(web: Web, club: str) -> None:
    token = signed_in(web)
    before = versions(web)
    sheet = {"csrf_token": token, "key": "d" * 32, "table": "2", **shown(web, "2"),
             "bummerl_1": STRAIGHT, "bummerl_2": "7 6 5 / 7"}  # fmt: skip
    reply = web.client.post(f"{SHEETS}?lang=en", data=sheet)
    html = reply.get_data(as_text=True)
    assert reply.status_code == 422
    assert "Bummerl 2: no count ends at 0" in html and "(R17)" in html
    assert 'value="7 6 5 / 7"' in html  # what was typed stays in the form
    assert versions(web) == before


def test_undo_voids_the_last_sheet_by_corrections_and_reopens_the_match(
    web: Web, club: str
) -> None:
    token = signed_in(web)
    sheet = {"csrf_token": token, "key": "e" * 32, "table": "4", **shown(web, "4"),
             "bummerl_1": STRAIGHT, "bummerl_2": STRAIGHT}  # fmt: skip
    web.client.post(SHEETS, data=sheet)
    t = state(web, club)
    assert t.matches["3.4"].decided
    corrections = len(t.corrections)  # the service's state: read now, it moves on
    undone = web.client.post(f"{SHEETS}/undo", data={"csrf_token": token, "version": t.version,
                                                     "confirm": "yes"})  # fmt: skip
    assert undone.status_code == 303 and undone.headers["Location"].endswith("?table=4&undone=3.4")
    after = state(web, club)
    assert not after.matches["3.4"].decided
    assert len(after.corrections) == corrections + 2  # nothing deleted: corrected


def test_undo_without_its_confirmation_stores_nothing_and_asks_by_name(web: Web, club: str) -> None:
    """N-H1: a stray key on Undo only asks, naming the table and players; the store is
    unchanged until "confirm" comes."""
    token = signed_in(web)
    web.client.post(SHEETS, data={"csrf_token": token, "key": "d" * 32, "table": "4",
                                  **shown(web, "4"), "bummerl_1": STRAIGHT,
                                  "bummerl_2": STRAIGHT})  # fmt: skip
    before = versions(web)
    asked = web.client.post(f"{SHEETS}/undo?lang=en", data={"csrf_token": token,
                                                             "version": before})  # fmt: skip
    html = asked.get_data(as_text=True)
    assert asked.status_code == 200 and 'id="undo-confirm"' in html
    assert "Undo table 4:" in html and 'name="confirm" value="yes"' in html
    assert versions(web) == before
    assert state(web, club).matches["3.4"].decided


def test_undo_on_a_page_shown_before_another_entry_undoes_nothing(web: Web, club: str) -> None:
    token = signed_in(web)
    web.client.post(SHEETS, data={"csrf_token": token, "key": "f" * 32,
                                  "table": "1", **shown(web, "1"),
                                  "bummerl_1": STRAIGHT})  # fmt: skip
    old = versions(web)
    web.client.post(SHEETS, data={"csrf_token": token, "key": "0" * 32,
                                  "table": "2", **shown(web, "2"),
                                  "bummerl_1": STRAIGHT})  # fmt: skip
    stale = web.client.post(f"{SHEETS}/undo", data={"csrf_token": token, "version": old})
    assert stale.status_code == 409
    assert state(web, club).matches["3.2"].summary.bummerl == (1, 0)


def test_a_forfeit_and_the_signatures_are_reachable_from_the_same_page(web: Web, club: str) -> None:
    token = signed_in(web)
    t = state(web, club)
    winner = t.matches["3.3"].players[0]
    reply = web.client.post(f"{SHEETS}/forfeit", data={"csrf_token": token, "key": "1" * 32,
                                                      "table": "3", **shown(web, "3"),
                                                      "forfeit": winner})  # fmt: skip
    assert reply.status_code == 303
    assert state(web, club).matches["3.3"].winner == winner
    web.client.post(SHEETS, data={"csrf_token": token, "key": "2" * 32,
                                  "table": "1", **shown(web, "1"),
                                  "bummerl_1": STRAIGHT, "bummerl_2": STRAIGHT})  # fmt: skip
    signed = web.client.post(f"{SHEETS}/sign", data={"csrf_token": token, "key": "3" * 32,
                                                    "table": "1", **shown(web, "1")})  # fmt: skip
    assert signed.status_code == 303
    m = state(web, club).matches["3.1"]
    assert set(m.players) <= m.signed_by


def test_undo_takes_back_nothing_of_an_earlier_round(web: Web, club: str) -> None:
    token = signed_in(web)
    html = web.client.get(f"{SHEETS}?lang=en").get_data(as_text=True)
    assert "Nothing entered yet." in html  # round 2's last sheet is not offered
    before = versions(web)
    reply = web.client.post(f"{SHEETS}/undo?lang=en", data={"csrf_token": token,
                                                             "version": before})  # fmt: skip
    assert reply.status_code == 409 and "no entry to undo" in reply.get_data(as_text=True)
    assert versions(web) == before


def test_a_scorer_enters_sheets_but_corrections_and_the_audit_log_are_the_organisers(
    web: Web, club: str
) -> None:
    web.caller(Role.SCORER, club, email="scorer@club.at")  # an account with that role
    assert sign_in(web, "scorer@club.at") == 303
    token = csrf_of(web.client.get(SHEETS).get_data(as_text=True))
    stored = web.client.post(SHEETS, data={"csrf_token": token, "key": "5" * 32,
                                           "table": "1", **shown(web, "1"),
                                           "bummerl_1": STRAIGHT})  # fmt: skip
    assert stored.status_code == 303
    assert web.client.get(f"{SHEETS}/3.1/correct").status_code == 403
    assert web.client.get("/desk/t/club/audit").status_code == 403
    version = versions(web)  # the scorer takes back their own entry
    undone = web.client.post(f"{SHEETS}/undo", data={"csrf_token": token, "version": version,
                                                     "confirm": "yes"})  # fmt: skip
    assert undone.status_code == 303
    assert state(web, club).matches["3.1"].summary.bummerl == (0, 0)


def test_a_form_sent_again_with_another_sheet_is_refused_not_taken_for_the_first(
    web: Web, club: str
) -> None:
    token = signed_in(web)
    first = {
        "csrf_token": token,
        "key": "6" * 32,
        "table": "1",
        **shown(web, "1"),
        "bummerl_1": STRAIGHT,
    }
    assert web.client.post(SHEETS, data=first).status_code == 303
    stored = versions(web)
    other = web.client.post(f"{SHEETS}?lang=en", data={**first, "table": "2", **shown(web, "2")})
    assert other.status_code == 409 and "sent already" in other.get_data(as_text=True)
    assert versions(web) == stored
    assert not state(web, club).matches["3.2"].entries


def test_enter_with_no_bummerl_typed_says_so_and_stores_nothing(web: Web, club: str) -> None:
    token = signed_in(web)
    before = versions(web)
    sheet = {
        "csrf_token": token,
        "key": "4" * 32,
        "table": "1",
        **shown(web, "1"),
        "bummerl_1": " ",
    }
    reply = web.client.post(f"{SHEETS}?lang=de", data=sheet)
    assert reply.status_code == 422 and "(R17)" in reply.get_data(as_text=True)
    assert versions(web) == before


@pytest.mark.parametrize(
    ("typed", "german"),
    [
        ("7 5 1 0 / 7", "ein Schritt von 4"),  # R13
        ("7 4 5 0 / 7", "er geht nur hinunter"),  # R17
        ("7 4 1 / 7", "kein Stand endet bei 0"),
        ("7 4 1 0 / 7 4 1 0", "beide Stände enden auf 0"),
        ("7 7 4 / 7", "wiederholt 7"),
        ("7 4 1 0 2 / 7", "kann nicht eingetragen werden"),
        ("abc", "ist kein Spielbericht"),
        ("1 / 2 / 3", "zwei Spalten"),
        ("7 9 / 7", "nicht 9"),
    ],
)
def test_every_refusal_of_a_typed_bummerl_reads_in_german_with_its_rule(
    web: Web, club: str, typed: str, german: str
) -> None:
    token = signed_in(web)
    sheet = {"csrf_token": token, "table": "1", "bummerl_1": typed}
    html = web.client.post(f"{SHEETS}/check?lang=de", data=sheet).get_data(as_text=True)
    assert german in html and "Bummerl 1" in html
    assert "(R1" in html or "(T-tally)" in html


def test_the_rounds_page_link_with_a_match_opens_its_table(web: Web, club: str) -> None:
    signed_in(web)
    html = web.client.get(f"{SHEETS}?match=3.2&lang=en").get_data(as_text=True)
    assert 'id="sheet-table"' in html and 'value="2"' in html and "Table 2:" in html
    earlier = web.client.get(f"{SHEETS}?match=1.1&lang=en").get_data(as_text=True)
    assert 'value="1.1"' in earlier and "This match is decided" in earlier


# --- Issue 21: the sheet lands on the match whose names were shown (O-S1, O-H1, O-L5) ---


def autofocus(html: str) -> list[str]:
    """The ids of the inputs the page puts the cursor in."""
    return re.findall(r'<input id="([^"]+)"[^>]*\sautofocus', html)


def test_a_sheet_is_stored_only_on_the_match_the_page_showed(web: Web, club: str) -> None:
    token = signed_in(web)
    before = versions(web)
    sheet = {"csrf_token": token, "key": "7" * 32, "table": "2", **shown(web, "1"),
             "bummerl_1": STRAIGHT, "bummerl_2": STRAIGHT}  # fmt: skip
    reply = web.client.post(f"{SHEETS}?lang=en", data=sheet)
    html = reply.get_data(as_text=True)
    t = state(web, club)
    assert reply.status_code == 422 and versions(web) == before
    assert "Nothing is stored: the sheet was typed beside table 1" in html
    assert t.label(t.matches["3.2"].players[0]) in html  # what table 2 is, named
    assert autofocus(html) == ["sheet-table"] and "data-select" not in html  # not selected
    assert f'value="{STRAIGHT}"' in html  # the sheet is kept


def test_a_form_without_the_match_it_was_shown_for_stores_nothing(web: Web, club: str) -> None:
    token = signed_in(web)
    before = versions(web)
    sheet = {"csrf_token": token, "key": "8" * 32, "table": "1", "bummerl_1": STRAIGHT}
    reply = web.client.post(f"{SHEETS}?lang=de", data=sheet)
    assert reply.status_code == 422 and versions(web) == before
    assert "Nichts gespeichert" in reply.get_data(as_text=True)


def test_a_sheet_typed_before_another_entry_on_its_table_is_refused(web: Web, club: str) -> None:
    token = signed_in(web)
    page_shown = shown(web, "1")  # a second scorer's page, shown before the first stores
    first = {"csrf_token": token, "key": "9" * 32, "table": "1", **page_shown,
             "bummerl_1": STRAIGHT}  # fmt: skip
    assert web.client.post(SHEETS, data=first).status_code == 303
    stored = versions(web)
    second = {**first, "key": "a" * 31 + "b", "bummerl_1": "7 6 / 7 4 1 0"}
    reply = web.client.post(f"{SHEETS}?lang=en", data=second)
    assert reply.status_code == 422 and "got another entry since" in reply.get_data(as_text=True)
    assert versions(web) == stored


def test_a_refused_sheet_puts_the_cursor_on_the_bummerl_at_fault(web: Web, club: str) -> None:
    token = signed_in(web)
    sheet = {"csrf_token": token, "key": "c" * 31 + "d", "table": "2", **shown(web, "2"),
             "bummerl_1": STRAIGHT, "bummerl_2": "7 3 0 / 7 5"}  # fmt: skip
    html = web.client.post(f"{SHEETS}?lang=en", data=sheet).get_data(as_text=True)
    assert "(R13)" in html
    assert autofocus(html) == ["bummerl-2"] and "data-select" not in html
    empty = {**sheet, "key": "e" * 31 + "f", "bummerl_1": "", "bummerl_2": ""}
    html = web.client.post(f"{SHEETS}?lang=en", data=empty).get_data(as_text=True)
    assert autofocus(html) == ["bummerl-1"]


def test_a_bummerl_ending_in_a_slash_is_not_stored(web: Web, club: str) -> None:
    token = signed_in(web)
    before = versions(web)
    sheet = {"csrf_token": token, "key": "f" * 31 + "0", "table": "1", **shown(web, "1"),
             "bummerl_1": "7 4 1 0 /"}  # fmt: skip
    reply = web.client.post(f"{SHEETS}?lang=en", data=sheet)
    html = reply.get_data(as_text=True)
    assert reply.status_code == 422 and versions(web) == before
    assert "Bummerl 1 ends with '/'" in unescape(html) and autofocus(html) == ["bummerl-1"]


@pytest.mark.parametrize(
    ("typed", "decided", "says"),
    [
        ("7 4 1 0 /", "no", "still being typed"),
        ("7 4 1 0", "no", "still being typed"),
        ("7 4 1 0 / 7", "if-it-ends-here", "If this Bummerl ends here: decided 2:0"),
        ("7 4 1 0 / 7 6", "no", "Bummerl 1:0 so far."),
    ],
)
def test_the_line_being_typed_is_never_a_finished_bummerl(
    web: Web, club: str, typed: str, decided: str, says: str
) -> None:
    token = signed_in(web)
    sheet = {"csrf_token": token, "table": "1", "bummerl_1": typed, "bummerl_2": ""}
    html = web.client.post(
        f"{SHEETS}/check?lang=en", data=sheet, headers={"HX-Trigger": "bummerl-1"}
    ).get_data(as_text=True)
    assert f'data-decided="{decided}"' in html and says in html
    assert "Decided 2:0" not in html


def test_a_line_the_cursor_has_left_is_read_whole(web: Web, club: str) -> None:
    token = signed_in(web)
    sheet = {"csrf_token": token, "table": "1", "bummerl_1": "7 4 1 0 / 7", "bummerl_2": "",
             "typing": "2"}  # fmt: skip  # Tab pressed: the cursor is in Bummerl 2
    html = web.client.post(f"{SHEETS}/check?lang=en", data=sheet).get_data(as_text=True)
    assert 'data-decided="yes"' in html and "Decided 2:0" in html  # a Schneider (R19)


def test_a_forfeit_from_a_page_of_another_match_is_refused(web: Web, club: str) -> None:
    token = signed_in(web)
    before = versions(web)
    t = state(web, club)
    old_page = {"match": "2.3", "players": ",".join(map(str, t.matches["2.3"].players))}
    reply = web.client.post(f"{SHEETS}/forfeit?lang=en", data={"csrf_token": token,
                            "key": "2" * 31 + "3", "table": "3", **old_page,
                            "forfeit": t.matches["3.3"].players[0]})  # fmt: skip
    assert reply.status_code == 422 and "Nothing is stored: the page showed table 3" in (
        reply.get_data(as_text=True)
    )
    assert versions(web) == before


def test_a_line_left_with_a_slash_at_its_end_is_still_not_a_bummerl(web: Web, club: str) -> None:
    token = signed_in(web)
    sheet = {"csrf_token": token, "table": "1", "bummerl_1": "7 4 1 0 /", "bummerl_2": "",
             "typing": "2"}  # fmt: skip
    html = web.client.post(f"{SHEETS}/check?lang=en", data=sheet).get_data(as_text=True)
    assert 'data-decided="no"' in html and "still being typed" in html


@pytest.fixture(params=["sqlite", "postgresql"])
def club_on(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Web]:
    """Round 3 of the Swiss on SQLite and on a schema of the real PostgreSQL."""
    if request.param == "sqlite":
        web = request.getfixturevalue("web")
    else:
        pg = request.getfixturevalue("pg_db")
        web = make_web(pg.schema_url, tmp_path, PROJECTION_WAIT=0)
    run(web, swiss(web, "club", rounds=2), lambda t: start_round(t))
    yield web
    if request.param != "sqlite":
        with web.app.app_context():
            services().store.close()


def test_on_either_store_a_sheet_goes_only_to_the_match_shown(club_on: Web) -> None:
    web = club_on
    token = signed_in(web)
    before = versions(web)
    wrong = {"csrf_token": token, "key": "1" * 31 + "2", "table": "2", **shown(web, "1"),
             "bummerl_1": STRAIGHT, "bummerl_2": STRAIGHT}  # fmt: skip
    assert web.client.post(SHEETS, data=wrong).status_code == 422
    assert versions(web) == before
    right = {**wrong, "key": "3" * 31 + "4", **shown(web, "2")}
    assert web.client.post(SHEETS, data=right).status_code == 303
    assert state(web, "club").matches["3.2"].decided
    assert not state(web, "club").matches["3.1"].entries
