"""Group formats: one standings table per group (or one group with --group); groups ->
knockout shows the group tables as the group stage left them, then the bracket."""

from __future__ import annotations

import re

from tests.cli.helpers import create_cup, play_round, state, unsealed


def eight_players(cli, fmt: str, *options: str) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, fmt, *options)
    for n in range(1, 9):
        cli("players", "add", f"Spieler {n}")


def tables(output: str) -> dict[str, list[int]]:
    """Per 'Group N' heading: the start numbers in the order the table lists them."""
    out: dict[str, list[int]] = {}
    heading = ""
    for line in output.splitlines():
        if line.startswith(("Group", "Knockout")):
            heading = line
            out[heading] = []
        elif heading.startswith("Group") and (
            m := re.match(r"\s+\d+\*?\s+Spieler \d+ \((\d+)\)", line)
        ):
            out[heading].append(int(m.group(1)))
    return out


def test_a_round_robin_in_groups_shows_one_table_per_group(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli, "round_robin", "groups=2")
    play_round(cli)
    groups = [sorted(int(p) for p in g) for g in state().rounds[0].info["groups"]]
    shown = tables(cli("standings").output)
    assert list(shown) == ["Group 1", "Group 2"]
    assert [sorted(v) for v in shown.values()] == groups
    one = tables("Group 2\n" + cli("standings", "--group", "2").output)
    assert sorted(one["Group 2"]) == groups[1]


def test_a_group_that_is_not_there_is_named(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli, "round_robin", "groups=2")
    play_round(cli)
    out = cli("standings", "--group", "3", ok=False)
    assert out.exit_code != 0, out.output
    assert out.output.strip() == "Error: group: there are groups 1 to 2, not 3 (T-format)"
    cli("create", "Other", "--id", "other")  # a Swiss: no groups
    out = cli("standings", "--group", "1", "-t", "other", ok=False)
    assert out.exit_code != 0, out.output
    assert out.output.strip() == "Error: group: this tournament has no groups (T-format)"


def test_the_csv_of_one_group_holds_that_group(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli, "round_robin", "groups=2")
    play_round(cli)
    rows = cli("standings", "--group", "1", "--csv").output.splitlines()[1:]
    group = {int(p) for p in state().rounds[0].info["groups"][0]}
    assert {int(r.split(",")[1]) for r in rows} == group


def test_groups_then_knockout_shows_the_group_tables_then_the_bracket(cli) -> None:  # type: ignore[no-untyped-def]
    eight_players(cli, "groups_knockout", "groups=2", "advance=2")
    for _ in range(3):  # the group stage: three rounds of four players a group
        play_round(cli)
    before = unsealed(cli("standings").output)
    play_round(cli)  # the knockout's first round
    after = unsealed(cli("standings").output)
    assert "Knockout" in after and "Semi-finals" in after
    # The knockout matches do not count in the group tables.
    assert after.split("Knockout")[0].split("\n", 1)[1] == before.split("\n", 1)[1]
