"""The domain's own words on the desk in the reader's language (issue 11): a round's stage,
a manual pairing's broken format rules (T-override), a later match's flag after a
correction (R17), why nobody may buy back a life (T-lives). English as the domain says it,
German from the catalog: both from one code (tournament/domain/words/wording.py)."""

from __future__ import annotations

from tests.pages.test_desk_rounds import manual_form, page, signed_in
from tests.web.conftest import Web
from tests.web.played import NAMES, register, run, state, swiss
from tests.web.test_sign_in import csrf_of
from tournament.domain.commands.corrections import correct_result
from tournament.domain.commands.results import record_forfeit
from tournament.domain.commands.rounds import start_round
from tournament.domain.words.readback import STAGE_TEMPLATES, WARNING_TEMPLATES, read_back


def test_the_round_s_stage_reads_in_either_language(web: Web, club: str) -> None:
    signed_in(web)
    english = page(web, f"/desk/t/{club}/rounds?lang=en")
    assert "Stage: Swiss round 3 of 3" in english
    german = page(web, f"/desk/t/{club}/rounds?lang=de")
    assert "Schweizer System, Runde 3 von 3" in german and "Swiss round" not in german


def test_the_next_round_s_preview_names_its_stage_in_german(web: Web) -> None:
    tid = swiss(web, "club", rounds=2)
    signed_in(web)
    german = page(web, f"/desk/t/{tid}/rounds/preview?lang=de")
    assert "Schweizer System, Runde 3 von 3" in german
    assert "Swiss round 3 of 3" in page(web, f"/desk/t/{tid}/rounds/preview?lang=en")


def test_a_manual_pair_s_broken_rule_reads_in_german_t_override(web: Web) -> None:
    tid = swiss(web, "club", rounds=2)
    signed_in(web)
    met = state(web, tid).matches["1.1"].players  # they met in round 1: a repeat pairing
    others = [p for p in range(1, 9) if p not in met]
    pairs = [(met[0], met[1]), (others[0], others[1]), (others[2], others[3])]
    pairs.append((others[4], others[5]))
    token = csrf_of(page(web, f"/desk/t/{tid}/rounds/manual?lang=en"))
    shown = {}
    for lang in ("en", "de"):
        reply = web.client.post(
            f"/desk/t/{tid}/rounds/manual?lang={lang}",
            data=manual_form(pairs, token, action="preview"),
        )
        assert reply.status_code == 200
        shown[lang] = reply.get_data(as_text=True)
    a, b = met  # the format names players by start number
    assert f"repeat_pairing: {a} and {b} met before" in shown["en"]
    assert f"repeat_pairing: {a} und {b} haben schon gegeneinander gespielt" in shown["de"]
    assert "met before" not in shown["de"]


def test_a_flag_on_a_later_match_reads_in_german_r17(web: Web, club: str) -> None:
    t = state(web, club)
    last = t.matches["2.1"].entries[-1].result_id  # its deciding Bummerl: open again
    run(web, club, lambda t: correct_result(t, last, None, by="desk", reason="wrong sheet"))
    signed_in(web)
    english = page(web, f"/desk/t/{club}/queue?lang=en")
    assert (
        "result of match 2.1 (round 2) changed after this match was drawn: "
        "corrected by desk: wrong sheet"
    ) in english
    german = page(web, f"/desk/t/{club}/queue?lang=de")
    assert (
        "Ergebnis der Partie 2.1 (Runde 2) nach der Auslosung dieser Partie geändert: "
        "korrigiert von desk: wrong sheet"
    ) in german
    assert "changed after this match" not in german


def test_why_nobody_buys_back_a_life_reads_in_german_t_lives(web: Web) -> None:
    tid = web.tournament("cup", format="lives", options={"buy_backs": 1})
    signed_in(web)
    page(web, f"/desk/t/{tid}/players?lang=en")  # nobody registered: no facts yet
    register(web, tid, NAMES[:4])
    assert "nobody is out of lives" in page(web, f"/desk/t/{tid}/players?lang=en")
    german = page(web, f"/desk/t/{tid}/players?lang=de")
    assert "niemand hat alle Leben verloren" in german and "out of lives" not in german


def test_a_stored_text_of_no_known_shape_is_shown_as_it_is() -> None:
    assert read_back("round 4 as typed", STAGE_TEMPLATES) == "round 4 as typed"
    assert read_back("a warning of tomorrow", WARNING_TEMPLATES) == "a warning of tomorrow"


def test_a_draw_states_the_stage_from_its_template(web: Web) -> None:
    """The English a draw stores is its template filled in: read back to the same code."""
    tid = swiss(web, "club", rounds=0)
    run(web, tid, lambda t: start_round(t))
    stage = state(web, tid).rounds[0].stage
    assert stage == "Swiss round 1 of 3"
    phrase = read_back(stage, STAGE_TEMPLATES)
    assert not isinstance(phrase, str) and phrase.code == "stage.swiss" and str(phrase) == stage


def test_a_double_no_show_drawn_again_is_told_in_german_t_forfeit(web: Web) -> None:
    tid = web.tournament("cup", format="swiss", best_of=1, seed=3, options={"rounds": 3})
    register(web, tid, NAMES)
    run(web, tid, lambda t: start_round(t))
    t = state(web, tid)
    first, *rest = t.rounds[0].matches
    run(web, tid, lambda t: record_forfeit(t, first, winner=None))
    for mid in rest:
        run(web, tid, lambda t, m=mid: record_forfeit(t, m, winner=min(t.matches[m].players)))
    run(web, tid, lambda t: start_round(t))
    signed_in(web)
    english = page(web, f"/desk/t/{tid}/rounds?lang=en")
    assert f"match {first}: both players were absent;" in english
    assert "drawn again in round 2" in english
    german = page(web, f"/desk/t/{tid}/rounds?lang=de")
    assert f"Partie {first}: beide Spieler waren nicht da;" in german
    assert "Runde 2" in german and "both players were absent" not in german


def test_every_word_of_the_domain_has_its_german_with_the_same_placeholders() -> None:
    import re
    from pathlib import Path

    from babel.messages.pofile import read_po

    from tournament.domain.words.wording import TEXT_TEMPLATES

    po = Path(__file__).resolve().parents[2] / "tournament/translations/de/LC_MESSAGES/messages.po"
    with po.open("rb") as file:
        catalog = read_po(file, locale="de")
    placeholder = re.compile(r"%\((\w+)\)s")
    for code, template in TEXT_TEMPLATES.items():
        entry = catalog.get(template)
        assert entry is not None and entry.string and not entry.fuzzy, code
        assert set(placeholder.findall(str(entry.string))) == set(placeholder.findall(template))


def test_why_a_round_cannot_be_cancelled_reads_in_german_t_round(web: Web) -> None:
    tid = swiss(web, "club", rounds=2)
    signed_in(web)
    english = page(web, f"/desk/t/{tid}/rounds?lang=en")
    assert "match 2.1 already has a tally result" in english
    german = page(web, f"/desk/t/{tid}/rounds?lang=de")
    assert "Partie 2.1 hat schon eine Bummerl-Abrechnung" in german
    assert "a tally result" not in german


def test_why_the_next_round_cannot_be_drawn_reads_in_german_t_round(web: Web, club: str) -> None:
    signed_in(web)
    # The rounds page lists the tables for people (O-L9); the draw's refusal says it.
    english = page(web, f"/desk/t/{club}/rounds/preview?lang=en", 409)
    assert "round 4 cannot be drawn: round 3 is not complete: no result yet for 3.1" in english
    german = page(web, f"/desk/t/{club}/rounds/preview?lang=de", 409)
    assert "Runde 4 kann nicht ausgelost werden: Runde 3 ist nicht vollständig" in german
    assert "noch kein Ergebnis für 3.1" in german and "cannot be drawn" not in german


def test_the_preview_s_next_draw_heading_reads_in_german(web: Web) -> None:
    from tournament.domain.words.previewwords import NEXT_ROUND_TEMPLATES
    from tournament.web.pages.messages import say

    english = (
        "round 4 would be drawn differently at 2 of 4 tables and the bye "
        "(old pairing -> new pairing):"
    )
    phrase = read_back(english, NEXT_ROUND_TEMPLATES)
    assert str(phrase) == english
    with web.app.test_request_context("/?lang=de"):
        assert say(phrase) == (
            "Runde 4 würde anders ausgelost bei 2 von 4 Tischen und dem Freilos "
            "(alte Paarung -> neue Paarung):"
        )
