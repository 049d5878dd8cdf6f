"""A refusal of the domain on a page reads in the reader's language (issue 11): describe()
renders the error's code and params from the catalog, the rule id cited as line() does."""

from __future__ import annotations

import pytest

from tests.web.conftest import Web
from tournament.domain.errors import DomainError
from tournament.domain.tally import tally_payload
from tournament.web.pages.messages import describe


def refused_tally(text: str) -> DomainError:
    with pytest.raises(DomainError) as caught:
        tally_payload(text)
    return caught.value


def test_a_count_dropping_by_4_is_refused_in_german_naming_hand_seat_and_r13(web: Web) -> None:
    error = refused_tally("7 5 1 0 / 7")
    with web.app.test_request_context("/?lang=de"):
        assert describe(error) == (
            "tally: Spiel 2, Spieler der ersten Spalte: der Stand geht von 5 auf 1, "
            "ein Schritt von 4; ein Spiel bringt 1, 2 oder 3 Punkte (R13)"
        )


def test_the_same_refusal_in_english_is_the_domain_s_own_line(web: Web) -> None:
    error = refused_tally("7 5 1 0 / 7")
    with web.app.test_request_context("/?lang=en"):
        assert describe(error) == error.line()
        assert "a step of 4" in describe(error) and describe(error).endswith("(R13)")


def test_a_template_citing_its_rule_is_not_cited_twice(web: Web) -> None:
    error = DomainError(
        "dealer",
        "R18",
        code="results.match_deals_first_r",
        params={"match_id": "1.3", "label": "Anna (1)"},
    )
    with web.app.test_request_context("/?lang=de"):
        assert describe(error) == (
            "dealer: Partie 1.3: Anna (1) gibt zuerst (R18: wer zuerst gibt, ist schon eingetragen)"
        )


def test_names_and_what_was_typed_are_shown_as_they_are(web: Web) -> None:
    error = refused_tally("7 5 x / 7")
    assert error.code == "tally.not_a_tally"
    with web.app.test_request_context("/?lang=de"):
        line = describe(error)
    assert line.startswith("tally: '7 5 x / 7' ist kein Spielbericht wie") and "(T-tally)" in line


def test_an_error_without_a_code_falls_back_to_its_english_line(web: Web) -> None:
    error = DomainError("player", "T-player", "an old refusal in English")
    with web.app.test_request_context("/?lang=de"):
        assert describe(error) == "player: an old refusal in English (T-player)"
