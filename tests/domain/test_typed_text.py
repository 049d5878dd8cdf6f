"""What is typed is what is stored: numbers in the digits 0-9, names as plain text, look-alike
names found, dates read as Austrians write them, and bad input quoted short and harmless."""

from __future__ import annotations

import pytest

from tournament.domain import commands as c
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.model.settings import Settings, parse_date
from tournament.domain.model.state import fold
from tournament.domain.model.text import clean, excerpt, plain_text, same_text, whole_number
from tournament.domain.testing import registered


@pytest.mark.parametrize("typed", ["²", "٣", "３", "1²", "1_000", "+5", "5e2", "", " ", "0x10"])
def test_a_number_is_written_with_the_digits_0_to_9_only(typed: str) -> None:
    with pytest.raises(DomainError) as refused:
        whole_number(typed, "winner")
    assert refused.value.field == "winner" and "digits 0-9" in refused.value.message


def test_a_number_may_have_spaces_around_it_and_leading_zeros() -> None:
    assert whole_number(" 12 ", "x") == 12 and whole_number("007", "x") == 7


def test_a_rating_with_a_thousands_separator_says_how_to_write_it() -> None:
    with pytest.raises(DomainError, match="without a thousands separator: 1530"):
        whole_number("1.530", "rating", "T-player")


def test_a_number_longer_than_any_field_needs_is_refused_not_built() -> None:
    with pytest.raises(DomainError, match="too large"):
        whole_number("9" * 5000, "winner")  # int() itself would refuse past 4,300 digits
    assert whole_number("4294967295", "seed", digits=20) == 4294967295


def test_a_signed_number_leaves_the_range_to_the_field() -> None:
    assert whole_number("-5", "rating", signed=True) == -5
    with pytest.raises(DomainError):
        whole_number("-5", "rating")


@pytest.mark.parametrize(
    ("typed", "position", "named"),
    [
        ("Evil\x1b]0;PWNED\x07", 5, "U+001B (ESCAPE)"),
        ("An\x00na", 3, "U+0000 (NUL)"),
        ("Anna\tHuber", 5, "U+0009 (TAB)"),
        ("Anna\nFake line: 1. Champion", 5, "U+000A (LINE FEED)"),
        ("Anna\rX", 5, "U+000D (CARRIAGE RETURN)"),
        ("Anna\x85X", 5, "U+0085 (NEXT LINE)"),
        ("Anna\u2028X", 5, "U+2028 (LINE SEPARATOR)"),
        ("  Ann\x10", 6, "U+0010"),  # counted in the text as typed, spaces included
    ],
)
def test_a_control_character_in_a_name_is_refused_naming_the_field_and_position(
    typed: str, position: int, named: str
) -> None:
    with pytest.raises(DomainError) as refused:
        plain_text(typed, "club", "T-player", what="a club")
    assert refused.value.field == "club" and refused.value.rule == "T-player"
    assert f"control character {named} at position {position}" in refused.value.message


@pytest.mark.parametrize(
    "bidi", ["\u202a", "\u202e", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c"]
)
def test_a_bidi_control_in_a_name_is_refused(bidi: str) -> None:
    with pytest.raises(DomainError, match=r"bidi control U\+.* at position 3 \(it reorders"):
        plain_text(f"An{bidi}na", "name", "T-player")


def test_a_name_is_at_most_100_characters_and_its_spaces_are_made_one() -> None:
    assert plain_text("  Anna \u00a0  Huber ", "name", "T-player") == "Anna Huber"
    assert len(plain_text("x" * 100, "name", "T-player")) == 100
    with pytest.raises(DomainError) as refused:
        plain_text("x" * 60_000, "name", "T-player")
    assert "(60,000 characters) is longer than 100 characters" in refused.value.message
    assert len(refused.value.line()) < 150  # the message quotes an excerpt, not the name


@pytest.mark.parametrize(
    "look_alike",
    [
        "Anna\u200b",  # a zero-width space
        "\u0410nna",  # a Cyrillic capital A
        "\u0430nn\u0430",  # Cyrillic small a's
        "ANNA",
        "\uff21\uff4e\uff4e\uff41",  # full-width letters (NFKC)
        "An\u00adna",  # a soft hyphen
        "A\u200dnna\ufeff",  # a zero-width joiner, a byte order mark
        "\u0391nna",  # a Greek capital alpha
        "Anna  ",
    ],
)
def test_names_that_look_the_same_are_the_same_name(look_alike: str) -> None:
    assert same_text("Anna", look_alike)


def test_a_look_alike_read_only_in_upper_case_is_found_too() -> None:
    # Cyrillic Н and В look like H and B only as capitals: "НАNS" is "HANS" on the sheet.
    assert same_text("Hans", "\u041d\u0410NS") and same_text("BOB", "\u0412\u041e\u0412")


@pytest.mark.parametrize(("a", "b"), [("Anna", "Anne"), ("Jörg", "Jorg"), ("Anna", "Ana")])
def test_names_that_differ_on_the_sheet_stay_different(a: str, b: str) -> None:
    assert not same_text(a, b)


def test_registering_a_look_alike_at_the_same_club_is_refused_as_a_duplicate() -> None:
    t = fold(registered(players=0))
    events = c.register_player(t, "Anna", club="SC Ried")
    t = fold([*registered(players=0), *events])
    for look_alike, club in (("Anna\u200b", "SC Ried"), ("\u0410nna", "sc ried"),
                             ("Anna", "SC R\u0456ed")):  # fmt: skip
        with pytest.raises(ConflictError) as refused:
            c.register_player(t, look_alike, club=club)
        assert refused.value.field == "name" and "registered as player 1" in refused.value.message
    assert c.register_player(t, "\u0410nna", club="SC Wels")  # another club: another player


def test_registration_stores_names_clubs_and_categories_as_plain_text() -> None:
    t = fold(registered(players=0))
    event = c.register_player(t, "  Anna   Huber ", club=" SC  Ried ", category=" W ")[0]
    assert (event.payload["name"], event.payload["club"], event.payload["category"]) == (
        "Anna Huber",
        "SC Ried",
        "W",
    )
    for field, kwargs in (("club", {"club": "A\x1b[31m"}), ("category", {"category": "W\x07X"})):
        with pytest.raises(DomainError) as refused:
            c.register_player(t, "Berti", **kwargs)
        assert refused.value.field == field and "control character" in refused.value.message


def test_a_trailing_line_break_is_space_around_the_name_not_inside_it() -> None:
    assert plain_text("Anna Huber\n", "name", "T-player") == "Anna Huber"


def test_a_tournament_name_and_venue_are_plain_text_too() -> None:
    with pytest.raises(DomainError) as refused:
        c.create_tournament("cup", {"name": "Cup\x1b[2J", "seed": 1})
    assert refused.value.field == "name" and "U+001B" in refused.value.message
    with pytest.raises(DomainError) as refused:
        c.create_tournament("cup", {"name": "Cup", "venue": "Ried\u202e", "seed": 1})
    assert refused.value.field == "venue"


def test_an_option_nothing_would_act_on_is_refused() -> None:
    with pytest.raises(DomainError, match="double round robin"):
        c.create_tournament("cup", {"name": "Cup", "format": "round_robin",
                                    "options": {"double": True}})  # fmt: skip


def test_an_excerpt_is_short_escaped_and_says_how_long_the_input_was() -> None:
    assert excerpt("B" * 1_000_000) == f"'{'B' * 40}…' (1,000,000 characters)"
    assert excerpt("Evil\x1b]0;\x07") == "'Evil\\x1b]0;\\x07'"


def test_a_message_is_cleaned_of_everything_a_terminal_would_act_on() -> None:
    cleaned = clean("unknown option(s) \r\rdy\x10 and \x1b[2J \u202e\nline two")
    assert cleaned == "unknown option(s) \\r\\rdy\\x10 and \\x1b[2J \\u202e\nline two"
    assert all(ch.isprintable() for ch in cleaned.replace("\n", ""))
    assert len(clean("x" * 5000)) < 1100


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("27.11.2026", "2026-11-27"),
        ("1.2.2026", "2026-02-01"),
        ("27. 11. 2026", "2026-11-27"),
        ("27.11.2026.", "2026-11-27"),
        ("2026-11-27", "2026-11-27"),
        (" 2026-11-27 ", "2026-11-27"),
        ("", ""),
    ],
)
def test_a_date_is_typed_iso_or_day_first_and_stored_iso(typed: str, stored: str) -> None:
    assert parse_date(typed) == stored
    assert Settings.from_payload({"name": "x", "date": typed}).date == stored


def test_a_two_digit_year_is_refused_naming_the_full_date() -> None:
    with pytest.raises(DomainError, match=r"'27.11.26': write the year in full, 27.11.2026"):
        parse_date("27.11.26")


@pytest.mark.parametrize("typed", ["2026-02-30", "30.2.2026", "31.04.2026"])
def test_a_day_that_is_not_in_the_calendar_is_refused(typed: str) -> None:
    with pytest.raises(DomainError, match="is not a day of the calendar"):
        parse_date(typed)


@pytest.mark.parametrize("typed", ["27/11/2026", "Nov 27", "²²²²-11-27", "27.11"])
def test_something_that_is_no_date_says_how_a_date_is_written(typed: str) -> None:
    with pytest.raises(DomainError, match=r"is not a date like 2026-11-27 or 27\.11\.2026"):
        parse_date(typed)


def test_a_date_stored_in_the_other_iso_form_still_folds() -> None:
    assert Settings.from_payload({"name": "x", "date": "20261127"}).date == "2026-11-27"
