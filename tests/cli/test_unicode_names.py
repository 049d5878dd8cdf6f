"""Names as macOS writes them (NFD) are the same names (NFC), and columns line up by what
a terminal shows, not by code points."""

from __future__ import annotations

import doctest
import unicodedata
from pathlib import Path

import tournament.cli.columns
from tests.cli.helpers import state
from tournament.cli.columns import width

NFC = "Jürgen Größ"
NFD = unicodedata.normalize("NFD", NFC)


def test_an_nfd_csv_row_is_the_nfc_player_already_registered(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert NFD != NFC
    cli("create", "Cup", "--id", "cup")
    cli("players", "add", NFC, "--club", "SC Wörgl")
    players = tmp_path / "players.csv"
    club = unicodedata.normalize("NFD", "SC Wörgl")
    players.write_text(f"name,club\nAnna,SC Ried\n{NFD},{club}\n", encoding="utf-8")
    out = cli("players", "import", str(players), ok=False)
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "Jürgen Größ (SC Wörgl) is already registered as player 1" in out.output
    assert len(state().players) == 1  # all or nothing


def test_names_clubs_and_categories_are_stored_in_nfc(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup")
    cli("players", "add", NFD, "--club", unicodedata.normalize("NFD", "Wörgl"),
        "--category", unicodedata.normalize("NFD", "Ü60"))  # fmt: skip
    p = state().players[1]
    assert (p.name, p.club, p.category) == (NFC, "Wörgl", "Ü60")


def test_columns_line_up_by_display_width(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup")
    for name in (NFC, "Anna Huber", "王芳"):
        cli("players", "add", name, "--club", "SC Ried")
    lines = cli("players", "list").output.splitlines()[1:]  # under the header row
    # The club column starts at the same terminal column on every line.
    starts = {width(line[: line.index("SC Ried")]) for line in lines}
    assert len(starts) == 1
    start_list = cli("standings").output.splitlines()[2:5]  # before round 1: seed order
    assert len({width(line[: line.index("SC Ried")]) for line in start_list}) == 1
    cli("round", "start")
    table = cli("standings").output.splitlines()[2:5]
    assert len({width(line[: line.index("-", line.index(")"))]) for line in table}) == 1


def test_columns_doctests() -> None:
    assert doctest.testmod(tournament.cli.columns).failed == 0
