"""Rounds at the desk (issue 11): the draw previewed before it is stored (T-round), the
pairings by table with who deals first (R18), results missing at a glance, cancelling a
round nothing is recorded in, manual pairs whose broken format rules must be confirmed
(T-override), print shortcuts, and a scorer who sees the rounds but draws nothing."""

from __future__ import annotations

import random
import re
from functools import partial

from tests.pages.markup import elements, unlabelled, words
from tests.web.conftest import Web
from tests.web.played import NAMES, play_round, register, run, state, swiss
from tests.web.test_sign_in import csrf_of, sign_in
from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain.commands.registration import edit_player
from tournament.domain.commands.results import record_tally
from tournament.domain.commands.rounds import start_round
from tournament.domain.testing import random_tally
from tournament.domain.views.roundview import draw_record, round_view


def signed_in(web: Web, email: str = "admin@club.at") -> None:
    web.admin()
    assert sign_in(web, email) == 303


def page(web: Web, path: str, status: int = 200) -> str:
    reply = web.client.get(path)
    assert reply.status_code == status, reply.get_data(as_text=True)
    html: str = reply.get_data(as_text=True)
    return html


def previewed_tables(html: str) -> list[str]:
    """The preview's rows: table, player A, player B, as shown."""
    rows = [e for e in elements(html) if e.tag == "tr"]
    return [words(r.text) for r in rows[1:]]


def version_of(html: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', html)
    assert found, html
    return found.group(1)


def stored_tables(web: Web, tid: str) -> list[tuple[int, int, int, int | None]]:
    with web.app.app_context():
        view = round_view(state(web, tid))
    return [
        (
            x.table,
            x.players[0].id,
            x.players[1].id,
            x.first_dealer.id if x.first_dealer else None,
        )
        for x in view.tables
    ]


def event_count(web: Web, tid: str) -> int:
    return state(web, tid).version


def test_the_preview_shows_the_format_s_draw_and_stores_nothing(web: Web) -> None:
    tid = swiss(web, "club", rounds=2)
    signed_in(web)
    before = event_count(web, tid)
    html = page(web, f"/desk/t/{tid}/rounds/preview?lang=en")
    assert "Round 3 as the format draws it" in html
    assert len(previewed_tables(html)) == 4 and "(deals first)" in html  # R18
    assert event_count(web, tid) == before and state(web, tid).current_round == 2
    assert not unlabelled(html)


def test_draw_stores_exactly_the_previewed_pairing(web: Web) -> None:
    tid = swiss(web, "club", rounds=2)
    signed_in(web)
    preview = page(web, f"/desk/t/{tid}/rounds/preview?lang=en")
    reply = web.client.post(
        f"/desk/t/{tid}/rounds/draw",
        data={"csrf_token": csrf_of(preview), "version": version_of(preview)},
    )
    assert reply.status_code == 303 and reply.headers["Location"].endswith(f"/desk/t/{tid}/rounds")
    assert state(web, tid).current_round == 3
    shown = previewed_tables(preview)
    with web.app.app_context():
        names = {p.id: p.name for p in state(web, tid).players.values()}
    for table, a, b, dealer in stored_tables(web, tid):
        mark = " (deals first)"
        row = (
            f"{table} {a} · {names[a]}{mark if dealer == a else ''} "
            f"{b} · {names[b]}{mark if dealer == b else ''}"
        )
        assert row in shown
    rounds = page(web, f"/desk/t/{tid}/rounds?lang=en")
    assert "Round 3 is drawn: 4 tables, 0 byes." in rounds
    listed = [words(e.text) for e in elements(rounds) if e.tag == "td" and "@" in e.text]
    assert listed and listed[-1].endswith("· admin@club.at")  # who drew round 3, and when


def test_a_log_that_moved_since_the_preview_gives_a_fresh_preview_and_stores_nothing(
    web: Web,
) -> None:
    tid = swiss(web, "club", rounds=2)
    signed_in(web)
    preview = page(web, f"/desk/t/{tid}/rounds/preview?lang=en")
    run(web, tid, lambda t: edit_player(t, 1, {"name": "Anna Huber-Maier"}))
    reply = web.client.post(
        f"/desk/t/{tid}/rounds/draw",
        data={"csrf_token": csrf_of(preview), "version": version_of(preview)},
    )
    html = reply.get_data(as_text=True)
    assert reply.status_code == 409
    assert "The tournament changed since the preview" in html
    assert "Anna Huber-Maier" in html  # the new preview, from the state now
    assert version_of(html) == str(event_count(web, tid))
    assert state(web, tid).current_round == 2


def test_a_round_with_nothing_recorded_is_cancelled_and_drawn_again(web: Web, club: str) -> None:
    signed_in(web)
    html = page(web, f"/desk/t/{club}/rounds?lang=en")
    assert "Cancel round 3" in html
    refused = web.client.post(
        f"/desk/t/{club}/rounds/3/cancel", data={"csrf_token": csrf_of(html), "why": ""}
    )
    assert refused.status_code == 422 and state(web, club).current_round == 3
    assert "say why the round is cancelled (T-round)" in refused.get_data(as_text=True)
    reply = web.client.post(
        f"/desk/t/{club}/rounds/3/cancel",
        data={"csrf_token": csrf_of(html), "why": "a late arrival"},
    )
    assert reply.status_code == 303
    assert state(web, club).current_round == 2
    assert "Round 3 is cancelled: draw it again." in page(web, f"/desk/t/{club}/rounds?lang=en")
    assert "Round 3 as the format draws it" in page(web, f"/desk/t/{club}/rounds/preview?lang=en")


def test_a_round_with_a_result_cannot_be_cancelled(web: Web, club: str) -> None:
    signed_in(web)
    first, second, _ = random_tally(random.Random(1))
    run(web, club, lambda t: record_tally(t, "3.1", {"columns": [first, second]}))
    html = page(web, f"/desk/t/{club}/rounds?lang=en")
    assert "cannot be cancelled" in html and 'name="why"' not in html
    reply = web.client.post(
        f"/desk/t/{club}/rounds/3/cancel", data={"csrf_token": csrf_of(html), "why": "oops"}
    )
    assert reply.status_code == 409 and state(web, club).current_round == 3
    assert "(T-round)" in reply.get_data(as_text=True)


def test_results_missing_at_a_glance_link_each_open_table_to_its_sheet(web: Web, club: str) -> None:
    signed_in(web)
    rng = random.Random(1)
    while not state(web, club).matches["3.1"].decided:
        tally = {"columns": list(random_tally(rng)[:2])}
        run(web, club, partial(record_tally, match_id="3.1", tally=tally))
    html = page(web, f"/desk/t/{club}/rounds?lang=en")
    assert "3 of 4 results missing" in html
    missing = next(e for e in elements(html) if e.attrs.get("class") == "missing")
    assert words(missing.text).endswith("tables 2, 3, 4")
    for n in (2, 3, 4):
        assert f'href="/desk/t/{club}/sheets?table={n}"' in html
    assert f'href="/desk/t/{club}/sheets?match=3.1"' in html
    open_rows = [e for e in elements(html) if e.tag == "tr" and e.attrs.get("class") == "open"]
    assert len(open_rows) == 3
    assert "3 von 4 Ergebnissen fehlen" in page(web, f"/desk/t/{club}/rounds?lang=de")


def manual_form(pairs: list[tuple[int, int]], token: str, **extra: str) -> dict[str, str]:
    data = {"csrf_token": token, **extra}
    for row, (a, b) in enumerate(pairs, 1):
        data[f"a{row}"], data[f"b{row}"] = str(a), str(b)
    return data


def test_manual_pairs_that_break_a_format_rule_need_confirming(web: Web) -> None:
    tid = swiss(web, "club", rounds=2)
    signed_in(web)
    met = state(web, tid).matches["1.1"].players  # they met in round 1: a repeat pairing
    others = [p for p in range(1, 9) if p not in met]
    pairs = [(met[0], met[1]), (others[0], others[1]), (others[2], others[3])]
    pairs.append((others[4], others[5]))
    form = page(web, f"/desk/t/{tid}/rounds/manual?lang=en")
    assert not unlabelled(form) and form.count("<select") == 8
    token = csrf_of(form)
    preview = web.client.post(
        f"/desk/t/{tid}/rounds/manual?lang=en", data=manual_form(pairs, token, action="preview")
    )
    html = preview.get_data(as_text=True)
    assert preview.status_code == 200
    assert "These pairs break the format's rules (T-override):" in html
    assert 'id="confirm"' in html and state(web, tid).current_round == 2
    version = version_of(html)
    previewed = re.search(r'name="previewed" value="([^"]*)"', html)
    assert previewed is not None
    shown = previewed.group(1)
    # Pairs chosen anew after the preview are previewed again, not stored unseen.
    swapped = [pairs[0], (others[0], others[2]), (others[1], others[3]), pairs[3]]
    changed = web.client.post(
        f"/desk/t/{tid}/rounds/manual?lang=en",
        data=manual_form(swapped, token, action="draw", version=version, previewed=shown),
    )
    assert changed.status_code == 409 and state(web, tid).current_round == 2
    assert "The pairs changed since the preview" in changed.get_data(as_text=True)
    unconfirmed = web.client.post(
        f"/desk/t/{tid}/rounds/manual?lang=en",
        data=manual_form(pairs, token, action="draw", version=version, previewed=shown),
    )
    assert unconfirmed.status_code == 422 and state(web, tid).current_round == 2
    assert "tick the box" in unconfirmed.get_data(as_text=True)
    confirmed = web.client.post(
        f"/desk/t/{tid}/rounds/manual?lang=en",
        data=manual_form(
            pairs, token, action="draw", version=version, previewed=shown, confirm="yes"
        ),
    )
    assert confirmed.status_code == 303
    t = state(web, tid)
    assert t.current_round == 3 and t.rounds[-1].override and t.rounds[-1].warnings
    assert sorted(tuple(sorted(t.matches[m].players)) for m in t.rounds[-1].matches) == sorted(
        tuple(sorted(p)) for p in pairs
    )


def test_a_half_chosen_pair_is_refused_naming_the_pair(web: Web) -> None:
    tid = swiss(web, "club", rounds=2)
    signed_in(web)
    token = csrf_of(page(web, f"/desk/t/{tid}/rounds/manual?lang=en"))
    reply = web.client.post(
        f"/desk/t/{tid}/rounds/manual?lang=en",
        data={"csrf_token": token, "a1": "1", "b1": "", "action": "preview"},
    )
    assert reply.status_code == 422
    assert "pair 1: choose both players or neither (T-override)" in reply.get_data(as_text=True)
    assert state(web, tid).current_round == 2


def test_a_scorer_sees_the_rounds_but_cannot_draw(web: Web, club: str) -> None:
    web.caller(Role.SCORER, club)
    signed_in(web, "scorer@club.at")
    html = page(web, f"/desk/t/{club}/rounds?lang=en")
    assert "Round 3: pairings by table" in html
    assert "Preview draw" not in html and "Cancel round" not in html
    token = csrf_of(page(web, "/login"))
    assert web.client.get(f"/desk/t/{club}/rounds/preview").status_code == 403
    assert web.client.get(f"/desk/t/{club}/rounds/manual").status_code == 403
    printed = web.client.post(
        f"/desk/t/{club}/rounds/print", data={"csrf_token": token, "kind": "pairings"}
    )
    assert printed.status_code == 403
    refused = web.client.post(f"/desk/t/{club}/rounds/3/cancel", data={"csrf_token": token})
    assert refused.status_code == 403 and state(web, club).current_round == 3


def test_a_print_shortcut_asks_for_the_pack_and_links_its_pdf(web: Web, club: str) -> None:
    signed_in(web)
    html = page(web, f"/desk/t/{club}/rounds?lang=en")
    assert "Pairings list (PDF)" in html and "Table cards (PDF)" in html
    reply = web.client.post(
        f"/desk/t/{club}/rounds/print",
        data={"csrf_token": csrf_of(html), "kind": "pairings", "round": "3"},
    )
    assert reply.status_code == 303
    status = page(web, reply.headers["Location"] + "?lang=en")
    link = next(e for e in elements(status) if e.attrs.get("id") == "pack-pdf")
    pdf = web.client.get(link.attrs["href"])
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


def test_a_knockout_s_first_round_is_previewed_as_its_bracket_draws_it(web: Web) -> None:
    tid = web.tournament("cup", format="single_elimination")
    register(web, tid, NAMES[:6])  # six players: two byes into the semi-finals
    signed_in(web)
    html = page(web, f"/desk/t/{tid}/rounds/preview?lang=en")
    assert "Round 1 as the format draws it" in html
    assert len(previewed_tables(html)) == 2 and "Byes:" in html
    preview_version = version_of(html)
    reply = web.client.post(
        f"/desk/t/{tid}/rounds/draw",
        data={"csrf_token": csrf_of(html), "version": preview_version},
    )
    assert reply.status_code == 303
    t = state(web, tid)
    assert t.current_round == 1 and len(t.rounds[0].byes) == 2


def test_a_draw_from_the_desk_is_recorded_as_coming_from_a_page(web: Web) -> None:
    tid = swiss(web, "club", rounds=2)
    signed_in(web)
    preview = page(web, f"/desk/t/{tid}/rounds/preview")
    web.client.post(
        f"/desk/t/{tid}/rounds/draw",
        data={"csrf_token": csrf_of(preview), "version": version_of(preview)},
    )
    with web.app.app_context():
        last = services().tournaments.events(tid)[-1]
    assert last.type == "round.started"
    assert last.metadata["via"] == "page" and last.metadata["account"] == "admin@club.at"


def test_the_pack_status_is_a_fragment_for_htmx(web: Web, club: str) -> None:
    signed_in(web)
    html = page(web, f"/desk/t/{club}/rounds?lang=en")
    reply = web.client.post(
        f"/desk/t/{club}/rounds/print",
        data={"csrf_token": csrf_of(html), "kind": "table-cards", "round": "3"},
    )
    fragment = web.client.get(reply.headers["Location"], headers={"HX-Request": "true"})
    text = fragment.get_data(as_text=True)
    assert fragment.status_code == 200 and "<html" not in text and 'id="pack-status"' in text
    refused = web.client.post(
        f"/desk/t/{club}/rounds/print",
        data={"csrf_token": csrf_of(html), "kind": "standings-of-the-moon"},
    )
    assert refused.status_code == 422


def test_a_double_elimination_s_next_round_is_previewed_as_the_domain_draws_it(
    web: Web,
) -> None:
    tid = web.tournament("de", format="double_elimination")
    register(web, tid, NAMES[:4])
    play_round(web, tid, random.Random(3))
    signed_in(web)
    rounds = page(web, f"/desk/t/{tid}/rounds?lang=en")
    assert "Every result of round 1 is in." in rounds
    html = page(web, f"/desk/t/{tid}/rounds/preview?lang=en")
    expected = draw_record(start_round(state(web, tid)))  # decided here, stored nowhere
    assert f"Stage: {expected.stage}" in html
    assert len(previewed_tables(html)) == len(expected.tables)
    reply = web.client.post(
        f"/desk/t/{tid}/rounds/draw",
        data={"csrf_token": csrf_of(html), "version": version_of(html)},
    )
    assert reply.status_code == 303 and state(web, tid).current_round == 2


def test_the_rounds_page_has_one_line_per_pairing_and_one_play_online_form(
    web: Web, club: str
) -> None:
    """O-L9: no online-play controls in the pairing rows; one "Play a table online" form
    behind a disclosure, its table chosen in a select, starts the chosen table."""
    web.admin()
    assert sign_in(web) == 303
    html = web.client.get("/desk/t/club/rounds?lang=en").get_data(as_text=True)
    rows = html.split("<tbody>")[1].split("</tbody>")[0]
    assert "<form" not in rows and "Seconds per move" not in rows
    assert html.count("<details") == 1 and "Play a table online" in html
    reply = web.client.post(
        "/desk/t/club/rounds/online",
        data={"csrf_token": csrf_of(html), "match": "3.2", "move_seconds": ""},
    )
    assert reply.status_code == 303 and reply.headers["Location"].endswith("#table-3.2")
    assert "3.2" in state(web, club).online


def test_the_next_round_waits_for_tables_said_for_people_with_links_to_their_sheets(
    web: Web, club: str
) -> None:
    """O-L9: which tables still miss their result, each a link to the sheets page; never
    the CLI's `tournament results missing`."""
    web.admin()
    assert sign_in(web) == 303
    for lang, said in (("en", "Round 4 can be drawn once"), ("de", "Runde 4 kann ausgelost")):
        html = web.client.get(f"/desk/t/club/rounds?lang={lang}").get_data(as_text=True)
        assert said in html
        assert 'href="/desk/t/club/sheets?match=3.1"' in html
        assert "`tournament results" not in html and "`results missing`" not in html
        assert "`round start`" not in html and "(T-round)</p>" not in html


def test_the_desk_prints_in_its_language_or_the_one_chosen(web: Web, club: str) -> None:
    """O-L6: an English desk prints English unless German is chosen beside the buttons
    (docs/organisers.md and docs/api.md say the same)."""
    from tournament.printing.queue import get_pack

    signed_in(web)
    html = page(web, f"/desk/t/{club}/rounds?lang=en")
    assert 'id="print-lang"' in html and '<option value="en" selected>' in html
    langs = []
    for chosen in ("", "de"):
        reply = web.client.post(
            f"/desk/t/{club}/rounds/print?lang=en",
            data={"csrf_token": csrf_of(html), "kind": "pairings", "round": "3", "lang": chosen},
        )
        assert reply.status_code == 303
        pack_id = reply.headers["Location"].rsplit("/", 1)[1]
        with web.app.app_context():
            langs.append(get_pack(services().store.engine, club, pack_id).lang)
    assert langs == ["en", "de"]
