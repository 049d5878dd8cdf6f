"""What is typed is what is stored: every bad value on the command line is one line and
exit status 1 with nothing stored (a usage error stays click's exit 2), hostile text stays
harmless, and the help says how values are written (docs/tournaments.md)."""

from __future__ import annotations

import doctest
from pathlib import Path

import click
import pytest

import tournament.cli.common
from tests.cli.helpers import state, stored
from tournament.cli import main
from tournament.domain.model.settings import FORMATS, OPTION_DEFAULTS, Settings

LATIN1_JOERG = "J\udcf6rg"  # "Jörg" from a Latin-1 terminal: the byte 0xf6, not UTF-8


def eight_players(cli) -> None:  # type: ignore[no-untyped-def]
    """Swiss ``cup``, best of 3, eight players, round 1 drawn: 1.1 is 1 v 5."""
    cli("create", "Cup", "--id", "cup", "--seed", "1", "--first-dealer", "higher_seed")
    for name in ("Anna", "Berti", "Carla", "Doris", "Emil", "Franz", "Gerd", "Hanna"):
        cli("players", "add", name)
    cli("round", "start")


def refused(cli, *args: str) -> str:  # type: ignore[no-untyped-def]
    """The one line a refused command prints; checks exit 1, no usage, nothing stored."""
    before = count()
    out = cli(*args, ok=False)
    assert out.exit_code == 1, out.output
    assert "Traceback" not in out.output and "Usage:" not in out.output, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), out.output
    assert count() == before
    return lines[0]


def count() -> int:
    """Events of tournament ``cup`` in the store (0 before there is a store)."""
    try:
        return len(stored())
    except Exception:
        return 0


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (("players", "add", LATIN1_JOERG), "NAME"),  # the command's argument, by its name
        (("players", "add", "--club", "SC", LATIN1_JOERG), "NAME"),
        (("players", "add", "--actor=x", "--missed-rounds-score", "0", LATIN1_JOERG), "NAME"),
        (("results", "correct", LATIN1_JOERG, "--by", "x", "--why", "y"), "RESULT_ID"),
        (("players", "add", "Jörg", "--club", LATIN1_JOERG), "--club"),
        (("players", "add", "Jörg", f"--category={LATIN1_JOERG}"), "--category"),
        (("players", "add", "Jörg", "--actor", LATIN1_JOERG), "--actor"),
        (("show", "-t", LATIN1_JOERG), "-t"),
        (("standings", "--category", LATIN1_JOERG), "--category"),
        (("results", "correct", "abc", "--by", LATIN1_JOERG, "--why", "x", "--yes"), "--by"),
        (("results", "correct", "abc", "--by", "x", "--why", LATIN1_JOERG, "--yes"), "--why"),
    ],
)
def test_an_argument_that_is_not_utf8_is_refused_once_naming_its_option(
    cli, args: tuple[str, ...], where: str
) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup")
    line = refused(cli, *args)
    assert line == (
        f"Error: {where}: 'J\\xf6rg' is not UTF-8 text: set your terminal to UTF-8 (nothing stored)"
    )
    assert state().players == {}


def test_a_user_name_that_is_not_utf8_is_refused_where_it_is_the_actor(
    cli, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup")
    monkeypatch.setenv("USER", LATIN1_JOERG)
    assert "not UTF-8 text: set your terminal to UTF-8" in refused(cli, "players", "add", "Anna")
    cli("players", "add", "Anna", "--actor", "Jörg")  # named on the command line: fine


@pytest.mark.parametrize(
    "args",
    [
        ("results", "enter", "1.1", "--forfeit", "²"),
        ("results", "enter", "1.1", "--forfeit", "٣"),
        ("results", "enter", "1.1", "--winner", "1", "--points", "2", "--card-points", "²:1"),
        ("results", "enter", "1.1", "--winner", "١", "--points", "2"),
        ("results", "enter", "1.1", "--winner", "1", "--points", "２"),
        ("results", "enter", "².1", "--winner", "1", "--points", "2"),
        ("results", "enter", "1.1", "--tally", "٧ ٤ ١ ٠ / ٧"),
        ("results", "show", "².1"),
        ("results", "sign", "1.1", "١"),
        ("players", "checkin", "²"),
        ("players", "checkin", "1-٣"),
        ("players", "withdraw", "٣"),
        ("players", "add", "Ida", "--rating", "١٥٠٠"),
        ("round", "start", "--table", "²=1"),
        ("round", "show", "²"),
        ("standings", "--as-of", "٣"),
        ("create", "X", "--id", "x2", "--forfeit-score", "²:0"),
        ("create", "X", "--id", "x2", "--bye-score", "2:⁰"),
        ("create", "X", "--id", "x2", "--option", "rounds=٣"),
        ("create", "X", "--id", "x2", "--seed", "٣"),
    ],
)
def test_unicode_digits_are_refused_everywhere_not_crashed_on_or_misread(
    cli, args: tuple[str, ...]
) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    refused(cli, *args)


def test_unicode_digits_in_a_manual_draw_are_refused(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--seed", "1")
    for name in ("Anna", "Berti", "Carla"):
        cli("players", "add", name)
    refused(cli, "round", "start", "--pair", "²-1")
    refused(cli, "round", "start", "--pair", "1-2", "--bye", "³")
    refused(cli, "players", "seed", "--by", "manual", "--order", "3,²,1")
    assert state().current_round == 0


def test_an_absurd_range_is_checked_against_the_registered_players_before_it_is_built(
    cli,
) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    line = refused(cli, "players", "checkin", "1-999999999999")
    assert (
        line == "Error: start numbers: '1-999999999999': there is no player 999999999999 "
        "(start numbers 1 to 8)"
    )
    assert "there is no player 9 " in refused(cli, "players", "checkin", "1,9")
    assert "there is no player 0 " in refused(cli, "players", "checkin", "0-3")
    assert "a range runs upwards, e.g. 3-5" in refused(cli, "players", "checkin", "5-3")
    line = refused(cli, "players", "seed", "--by", "manual", "--order", "1-99999999999999")
    assert "there is no player 99999999999999" in line


def test_hostile_names_are_refused_naming_the_field_and_the_position(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup")
    assert refused(
        cli, "players", "add", "Evil\x1b]0;PWNED\x07\x1b[2J\x1b[31mX", "--club", "A"
    ) == (
        "Error: name: control character U+001B (ESCAPE) at position 5; a name is plain text "
        "(T-player)"
    )
    line = refused(cli, "players", "add", "Anna", "--club", "A\nFake line: 1. Champion")
    assert line.startswith("Error: club: control character U+000A (LINE FEED) at position 2")
    assert "bidi control U+202E" in refused(cli, "players", "add", "\u202eannA")
    assert "(101 characters) is longer than 100" in refused(cli, "players", "add", "x" * 101)
    cli("players", "add", "Anna", "--club", "A")
    for look_alike in ("Anna\u200b", "\u0410nna", "ANNA"):
        assert "registered as player 1" in refused(cli, "players", "add", look_alike, "--club", "a")
    sheet = tmp_path / "players.csv"
    sheet.write_text('name,club\nBerti,B\n"Carla\x1b[2J",B\n', encoding="utf-8")
    out = cli("players", "import", str(sheet), ok=False)
    assert out.exit_code == 1 and "line 3: name: control character U+001B" in out.output
    assert list(state().players) == [1]


def test_a_tournament_name_and_the_free_text_of_a_command_are_plain_text(cli) -> None:  # type: ignore[no-untyped-def]
    line = refused(cli, "create", "Cup\x1b[2J", "--id", "cup")
    assert line.startswith("Error: name: control character U+001B (ESCAPE) at position 4")
    eight_players(cli)
    line = refused(cli, "round", "cancel", "--why", "misdraw\x1b[31m")
    assert line.startswith("Error: --why: control character U+001B (ESCAPE) at position 8")
    line = refused(cli, "players", "withdraw", "3", "--reason", "x" * 501)
    assert "is longer than 500 characters" in line
    line = refused(cli, "standings", "--category", "\x1b[2J")  # printed in the heading
    assert line.startswith("Error: --category: control character U+001B (ESCAPE) at position 1")


def test_a_refused_value_is_exit_1_without_usage_and_a_usage_error_is_exit_2(cli) -> None:  # type: ignore[no-untyped-def]
    assert refused(cli, "show").startswith("Error: there is no tournament store at ")
    cli("db", "upgrade")  # a store, with no tournament in it yet
    assert (
        refused(cli, "show")
        == "Error: there is no tournament in this store yet: `tournament create`"
    )
    assert refused(cli, "standings").startswith("Error: there is no tournament in this store yet")
    eight_players(cli)
    assert refused(cli, "players", "add", "Ida", "--rating", "1.530") == (
        "Error: --rating: '1.530' is not a whole number (digits 0-9; without a thousands "
        "separator: 1530)"
    )
    assert refused(cli, "create", "X", "--option", "rounds=fünf") == (
        "Error: --option: 'rounds=fünf': the value is a whole number (digits 0-9), true or false"
    )
    assert "--format: 'swis' is not one of" in refused(cli, "create", "X", "--format", "swis")
    for usage in (("players", "add", "Ida", "--ratin", "1"), ("players", "add"), ("plyers",)):
        out = cli(*usage, ok=False)
        assert out.exit_code == 2 and "Usage:" in out.output and "Traceback" not in out.output
    out = cli("results", "enter", "1.1", "--winner", ok=False)  # click gives no usage here
    assert out.exit_code == 2 and "Option '--winner' requires an argument" in out.output


def test_a_huge_bad_value_is_quoted_as_a_short_excerpt(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    for args in (("results", "enter", "1.1", "--winner", "B" * 1_000_000, "--points", "2"),
                 ("results", "enter", "B" * 1_000_000, "--forfeit", "1"),
                 ("results", "enter", "1.1", "--forfeit", "B" * 1_000_000),
                 ("create", "X", "--option", "B" * 1_000_000 + "=1"),
                 ("players", "checkin", "B" * 1_000_000)):  # fmt: skip
        line = refused(cli, *args)
        assert len(line) < 300 and "(1,000,000 characters)" in line


def test_a_file_path_is_quoted_whole(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    missing = str(tmp_path / ("sheets-of-the-friday-evening-" * 4) / "results.csv")
    assert missing in refused(cli, "results", "import", missing)


def test_no_message_carries_a_raw_control_character(cli) -> None:  # type: ignore[no-untyped-def]
    line = refused(cli, "create", "X", "--option", "\r\rdy\x10=1")
    assert "\\x10" in line and all(ch.isprintable() for ch in line)
    eight_players(cli)
    for args in (("results", "enter", "\x1b[2J1.1", "--forfeit", "1"),
                 ("results", "enter", "1.1", "--reason", "\x1b[31mclaim"),
                 ("results", "show", "1.1\u202e")):  # fmt: skip
        assert all(ch.isprintable() for ch in refused(cli, *args))


def test_a_date_is_accepted_as_austrians_write_it_and_stored_iso(cli) -> None:  # type: ignore[no-untyped-def]
    out = cli("create", "Test", "--date", "27.11.2026")
    assert "created tournament test-2026-11-27 (Test)" in out.output
    assert state("test-2026-11-27").settings.date == "2026-11-27"
    assert refused(cli, "create", "Test", "--date", "27.11.26") == (
        "Error: date: '27.11.26': write the year in full, 27.11.2026 (T-settings)"
    )
    assert "is not a day of the calendar" in refused(cli, "create", "T", "--date", "2026-02-30")


def test_a_tournament_id_is_ascii_letters_digits_and_dashes(cli) -> None:  # type: ignore[no-untyped-def]
    assert "is not an id (letters a-z" in refused(cli, "create", "X", "--id", "²cup")


def test_other_commands_refuse_options_they_would_ignore(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli)
    assert "--order goes with --by manual" in refused(cli, "players", "seed", "--order", "1-8")
    assert "--by manual needs --order" in refused(cli, "players", "seed", "--by", "manual")
    assert "give --csv or --json, not both" in refused(cli, "standings", "--csv", "--json")
    assert refused(cli, "log", "--limit", "0") == "Error: --limit: at least 1 event, not 0"
    line = refused(cli, "create", "RR", "--format", "round_robin", "--option", "double=true")
    assert "double round robin" in line


def test_byes_without_a_manual_draw_are_refused(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--seed", "1")
    for name in ("Anna", "Berti", "Carla"):
        cli("players", "add", name)
    assert "--bye goes with --pair" in refused(cli, "round", "start", "--bye", "3")
    assert state().current_round == 0


def test_checking_in_twice_says_already(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup")
    for name in ("Anna", "Berti", "Carla", "Doris", "Emil"):
        cli("players", "add", name)
    assert cli("players", "checkin", "5").output == "checked in: 5\n"
    before = len(stored())
    assert cli("players", "checkin", "5").output == "already checked in: 5; nothing stored\n"
    out = cli("players", "checkin", "1-5,5").output
    assert out == "checked in: 1-4\nalready checked in: 5\n"
    assert len(stored()) == before + 4  # one event per newly checked-in player, none twice


def test_help_says_how_values_are_written(cli) -> None:  # type: ignore[no-untyped-def]
    assert "1-38,40" in cli("players", "checkin", "--help").output
    assert "ranges" in cli("players", "seed", "--help").output
    start = cli("round", "start", "--help").output
    assert "7-9" in start and "PLAYER=TABLE" in start
    create = cli("create", "--help").output
    for fmt, options in OPTION_DEFAULTS.items():
        assert fmt in create
        for key, default in options.items():
            if key not in ("double", "buy_back"):  # kept for stored tournaments only
                assert f"{key}={str(default).lower()}" in create, key
    # The default first dealer per format, as Settings fills it in.
    words = " ".join(create.split())
    for fmt in FORMATS:
        default = Settings.from_payload({"name": "x", "format": fmt}).first_dealer
        named = f"balanced in {words.split('balanced in ')[1].split(';')[0]}"
        assert (fmt in named) == (default == "balanced"), (fmt, default)
    assert "higher_seed in the knockouts]" in words
    assert "27.11.2026" in create
    enter = " ".join(cli("results", "enter", "--help").output.split())
    assert "repeat it for the sheet's Bummerl in order" in enter
    assert "only with the entry that decides the match" in enter


@pytest.mark.parametrize(
    "command", [("results", "correct"), ("results", "strike"), ("results", "enter"),
                ("create",), ("players", "add"), ("players", "seed"), ("round", "start")]
)  # fmt: skip
def test_every_option_has_help(command: tuple[str, ...]) -> None:
    cmd: click.Command = main
    for name in command:
        assert isinstance(cmd, click.Group)
        found = cmd.get_command(click.Context(cmd), name)
        assert found is not None
        cmd = found
    undocumented = [
        p.name for p in cmd.params if isinstance(p, click.Option) and not p.help and not p.hidden
    ]
    assert undocumented == []


def test_the_cli_parsers_doctests() -> None:
    assert doctest.testmod(tournament.cli.common).failed == 0
