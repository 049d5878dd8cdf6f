"""The lives format's buy-back options from the command line (docs/formats.md)."""

from __future__ import annotations

from tests.cli.helpers import create_cup, state


def test_show_states_the_buy_back_rule(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "lives", "buy_backs=2", "buy_back_until=4")
    assert "2 lives; buy-back: at most 2 per player, before round 4 at the latest" in (
        cli("show").output
    )
    assert state().settings.options["buy_backs"] == 2  # stored in tournament.created


def test_a_bad_buy_back_option_is_one_line_and_stores_nothing(cli) -> None:  # type: ignore[no-untyped-def]
    out = cli("create", "Cup", "--format", "lives", "--option", "buy_back_until=1",
              "--option", "buy_backs=1", ok=False)  # fmt: skip
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert out.output.strip().splitlines() == [
        "Error: options: buy_back_until must be 2 or more (a buy-back comes before round 2 "
        "at the earliest), or 0 for any round (T-settings)"
    ]
    assert "there is no tournament store" in cli("list", ok=False).output  # not even a file
