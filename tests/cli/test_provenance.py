"""Every event says who appended it, where its content came from, and which organiser
action it belongs to (one correlation id per command), on a real SQLite file."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.cli.helpers import stored
from tournament.cli import main

SOURCES = {"paper", "live", "import", "system"}


@pytest.fixture
def cli(cli, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("USER", "desk")  # the actor of every event
    return cli


def actions() -> list[list[Any]]:
    """The tournament's events grouped by correlation id, in the order of the actions."""
    groups: dict[str, list[Any]] = defaultdict(list)
    for e in stored():
        groups[e.metadata["correlation_id"]].append(e)
    return list(groups.values())


def a_round_of_four(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "7")
    players = tmp_path / "players.csv"
    players.write_text("name,rating\nAnna,1600\nBerti,1500\nCarla,1400\nDoris,1300\n")
    cli("players", "import", str(players))
    cli("round", "start")


def test_each_command_links_its_events_with_one_fresh_correlation_id(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    a_round_of_four(cli, tmp_path)
    results = tmp_path / "results.csv"
    results.write_text("match,tally\n1.1,7 4 1 0 / 7 6\n1.2,7 6 / 7 5 3 1 0\n")
    cli("results", "import", str(results))

    create, players, round_, imported = actions()
    assert [e.type for e in create] == ["tournament.created"]
    assert [e.type for e in players] == ["player.registered"] * 4
    assert [e.type for e in round_] == ["round.started"]
    assert [e.type for e in imported] == ["result.bummerl_tally_recorded"] * 2
    for e in stored():
        assert re.fullmatch(r"[0-9a-f]{32}", e.metadata["correlation_id"])
        assert e.metadata["actor"] == "desk"
        assert e.metadata["source"] in SOURCES


def test_the_source_says_where_the_content_came_from(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    a_round_of_four(cli, tmp_path)
    cli("results", "enter", "1.1", "--tally", "7 4 1 0 / 7 6")
    cli("players", "withdraw", "2")  # Berti's open match 1.2 is forfeited to his opponent
    source = {(e.type, e.payload.get("match_id")): e.metadata["source"] for e in stored()}
    assert source[("tournament.created", None)] == "paper"
    assert source[("player.registered", None)] == "import"
    assert source[("round.started", None)] == "system"  # the format drew it
    assert source[("result.bummerl_tally_recorded", "1.1")] == "paper"
    assert source[("player.withdrawn", None)] == "paper"
    assert source[("match.forfeited", "1.2")] == "system"  # nobody entered it
    withdrawal = actions()[-1]
    assert [e.type for e in withdrawal] == ["player.withdrawn", "match.forfeited"]


def test_a_correction_and_what_it_replaces_are_two_actions(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    a_round_of_four(cli, tmp_path)
    cli("results", "enter", "1.1", "--tally", "7 4 1 0 / 7 6")
    rid = stored()[-1].payload["result_id"]
    cli("results", "correct", rid, "--void", "--by", "referee", "--why", "wrong table", "--yes")
    entered, corrected = actions()[-2:]
    assert [e.type for e in corrected] == ["result.corrected"]
    assert entered[0].metadata["correlation_id"] != corrected[0].metadata["correlation_id"]


def test_manual_pairings_are_the_organisers_not_the_systems(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "7")
    for name in ("Anna", "Berti"):
        cli("players", "add", name)
    cli("round", "start", "--pair", "2-1")
    assert stored()[-1].metadata["source"] == "paper"


def test_a_live_hand_carries_its_actions_correlation_id_in_both_streams(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--first-dealer", "higher_seed")
    cli("players", "add", "Anna", "--rating", "1500")
    cli("players", "add", "Berti", "--rating", "1400")
    cli("round", "start")
    hand = cli("live", "deal", "1.1", "--seed", "5").output.split()[0]
    [dealt] = stored(hand)
    [started] = actions()[-1]
    assert started.type == "match.live_hand_started"
    assert dealt.metadata["correlation_id"] == started.metadata["correlation_id"]
    assert dealt.metadata["source"] == started.metadata["source"] == "live"


def test_the_log_shows_each_action_and_filters_by_it(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    a_round_of_four(cli, tmp_path)
    short = actions()[1][0].metadata["correlation_id"][:8]
    log = cli("log").output.splitlines()
    assert sum(f" {short} " in line for line in log) == 4
    assert all(" import " in line for line in log if f" {short} " in line)
    header, *only = cli("log", "--action", short).output.splitlines()
    assert header.split()[:3] == ["event", "recorded", "action"]
    assert len(only) == 4 and all("player.registered" in line for line in only)
    missing = CliRunner().invoke(main, ["log", "--action", "ffffffff"])
    assert missing.exit_code == 1
    assert missing.output.strip() == "Error: action: no event belongs to an action 'ffffffff'"
