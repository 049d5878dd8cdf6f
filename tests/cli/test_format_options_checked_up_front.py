"""Options that cannot give a tournament are one line at `create`, and nothing is stored."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("fmt", "option", "said"),
    [
        ("groups_knockout", "advance=0", "advance must be 1 or more"),
        ("lives", "final_players=1", "final_players must be 2 or more (a final is played"),
    ],
)
def test_an_option_that_gives_no_tournament_is_refused(cli, fmt, option, said) -> None:  # type: ignore[no-untyped-def]
    out = cli("create", "Cup", "--format", fmt, "--option", option, ok=False)
    assert out.exit_code == 1 and "Traceback" not in out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and lines[0].endswith("(T-settings)")
    assert "there is no tournament store" in cli("list", ok=False).output
