"""A registered player who never checked in (check-in in use) is marked absent in the
standings, not shown as a 0-0 player like the others."""

from __future__ import annotations

import json
import re

from tests.cli.helpers import unsealed


def test_never_checked_in_is_marked_absent(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "3")
    for name in ("Anna", "Berti", "Carla", "Doris", "Emil"):
        cli("players", "add", name)
    cli("players", "checkin", "1-4")
    cli("round", "start")
    out = unsealed(cli("standings").output).splitlines()
    marked = [x for x in out[2:-2] if "[absent]" in x]
    assert len(marked) == 1 and "Emil (5) [absent]" in marked[0]
    assert out[-1] == (
        "[absent]: registered but never checked in, so never drawn; listed last, not ranked (-)"
    )
    players = [x for x in out if re.search(r"\(\d\)", x)]
    assert players[-1] == marked[0] and marked[0].lstrip().startswith("- ")  # last, unranked
    csv_lines = cli("standings", "--csv").output.splitlines()[1:]
    csv_rows = {r.split(",")[2]: r.split(",")[5] for r in csv_lines}
    assert csv_rows == {"Anna": "active", "Berti": "active", "Carla": "active",
                        "Doris": "active", "Emil": "absent"}  # fmt: skip
    rows = json.loads(cli("standings", "--json").output)["rows"]
    assert {r["name"]: r["status"] for r in rows}["Emil"] == "absent"


def test_without_check_in_nobody_is_absent(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "3")
    for name in ("Anna", "Berti", "Carla"):
        cli("players", "add", name)
    cli("round", "start")
    assert "absent" not in cli("standings").output
