"""A refusal of the domain on a page reads in the reader's language (issue 11): describe()
renders the error's code and params from the catalog, the rule id cited as line() does."""

from __future__ import annotations

import io

import pytest

from tests.web.conftest import Web
from tests.web.played import state
from tournament.domain.commands.csvio import CsvImportError, import_players
from tournament.domain.commands.results import record_hand
from tournament.domain.commands.rounds import start_round
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import fold
from tournament.domain.model.tally import tally_payload
from tournament.domain.model.text import whole_number
from tournament.domain.testing import registered
from tournament.domain.words.messages import Phrase
from tournament.web.pages.messages import describe, describe_rows


def refused_tally(text: str) -> DomainError:
    with pytest.raises(DomainError) as caught:
        tally_payload(text)
    return caught.value


def test_a_count_dropping_by_4_is_refused_in_german_naming_hand_seat_and_r13(web: Web) -> None:
    error = refused_tally("7 5 1 0 / 7")
    with web.app.test_request_context("/?lang=de"):
        assert describe(error) == (
            "Spielbericht: Spiel 2, Spieler der ersten Spalte: der Stand geht von 5 auf 1, "
            "ein Schritt von 4; ein Spiel bringt 1, 2 oder 3 Punkte (R13)"
        )


def test_the_same_refusal_in_english_is_the_domain_s_own_line(web: Web) -> None:
    error = refused_tally("7 5 1 0 / 7")
    with web.app.test_request_context("/?lang=en"):
        assert describe(error) == error.line()
        assert "a step of 4" in describe(error) and describe(error).endswith("(R13)")


def test_a_template_citing_its_rule_is_not_cited_twice(web: Web) -> None:
    error = DomainError(
        "first_dealer",
        "R18",
        code="matchstate.in_match",
        params={"match_id": "1.3", "refusal": Phrase("results.deals_first", {"label": "Anna (1)"})},
    )
    assert error.line() == (
        "first_dealer: match 1.3: Anna (1) deals first (R18: the first dealer is recorded already)"
    )
    with web.app.test_request_context("/?lang=de"):
        assert describe(error) == (
            "Erster Geber: Partie 1.3: Anna (1) gibt zuerst "
            "(R18: wer zuerst gibt, ist schon eingetragen)"
        )


def test_a_refused_hand_names_match_and_place_on_the_sheet_in_german(web: Web, club: str) -> None:
    """T-match: the winner must play in the match; the place is where the hand would go."""
    t = state(web, club)
    match = next(m for m in t.matches.values() if m.match_id.startswith("3."))
    with pytest.raises(DomainError) as caught:
        record_hand(t, match.match_id, winner=99, game_points=1)
    error = caught.value
    assert error.code == "results.at_place"
    a, b = match.labels
    assert error.message == (
        f"match {match.match_id}, Bummerl 1 hand 1: player 99 does not play here ({a} v {b})"
    )
    with web.app.test_request_context("/?lang=de"):
        assert describe(error) == (
            f"Sieger: Partie {match.match_id}, Bummerl 1 Spiel 1: "
            f"Spieler 99 spielt hier nicht ({a} gegen {b}) (T-match)"
        )


def test_names_and_what_was_typed_are_shown_as_they_are(web: Web) -> None:
    error = refused_tally("7 5 x / 7")
    assert error.code == "tally.not_a_tally"
    with web.app.test_request_context("/?lang=de"):
        line = describe(error)
    assert line.startswith("Spielbericht: '7 5 x / 7' ist kein Spielbericht wie")
    assert "(T-tally)" in line


def test_an_error_without_a_code_falls_back_to_its_english_line(web: Web) -> None:
    error = DomainError("player", "T-player", "an old refusal in English")
    with web.app.test_request_context("/?lang=de"):
        assert describe(error) == "player: an old refusal in English (T-player)"


def test_a_refused_csv_import_lists_each_bad_row_in_german(web: Web) -> None:
    """T-csv: all or nothing, every bad row by its line; T-player: a player needs a name."""
    rows = io.StringIO("name,club,rating\nAnna,SC,1500\n,SC,1\n")
    with pytest.raises(CsvImportError) as caught:
        import_players(registered(players=1), rows)
    error = caught.value
    assert error.to_json()[0]["code"] == "registration.player_needs_name"
    with web.app.test_request_context("/?lang=de"):
        assert describe_rows(error) == [(3, "Name: ein Spieler braucht einen Namen (T-player)")]
    with web.app.test_request_context("/?lang=en"):
        assert describe_rows(error) == error.problems


def test_a_file_s_own_shape_problem_reads_in_german_too(web: Web) -> None:
    """O-L6: read back from its English into the page's language (no code of its own)."""
    with pytest.raises(CsvImportError) as caught:
        import_players(registered(players=1), io.StringIO("nom,club\nAnna,SC\n"))
    with web.app.test_request_context("/?lang=de"):
        [(line, said)] = describe_rows(caught.value)
        assert line == 1 and said.startswith("die Kopfzeile braucht die Spalte(n) name")
    with web.app.test_request_context("/?lang=en"):
        assert describe_rows(caught.value) == caught.value.problems


def test_a_number_with_a_thousands_separator_is_refused_in_german_with_the_hint(
    web: Web,
) -> None:
    with pytest.raises(DomainError) as caught:
        whole_number("1.530", "rating", "T-player")
    assert caught.value.message == (
        "'1.530' is not a whole number (digits 0-9; without a thousands separator: 1530)"
    )
    with web.app.test_request_context("/?lang=de"):
        assert describe(caught.value) == (
            "rating: '1.530' ist ungültig als ganze Zahl "
            "(Ziffern 0-9; ohne Tausendertrennzeichen: 1530) (T-player)"
        )


def test_a_translation_that_does_not_fit_its_params_falls_back_to_english(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A catalog merged by hand with a wrong placeholder never fails the page."""
    import tournament.web.pages.messages as messages

    monkeypatch.setattr(messages, "gettext", lambda text: "Spiel %(hnad)s")
    error = refused_tally("7 5 1 0 / 7")
    with web.app.test_request_context("/?lang=de"):
        assert describe(error) == error.line()


def test_a_format_s_refusal_of_a_pinned_table_reads_in_german(web: Web) -> None:
    """T-format: a table pinned for a player is 1 or more."""
    with pytest.raises(DomainError) as caught:
        start_round(fold(registered(4)), fixed_tables={1: 0})
    with web.app.test_request_context("/?lang=de"):
        assert describe(caught.value) == (
            "fixed_tables['1']: ein Tisch muss 1 oder mehr sein, angegeben ist 0 (T-format)"
        )
