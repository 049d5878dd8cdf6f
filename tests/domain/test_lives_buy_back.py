"""Lives format: buy-back at most ``buy_backs`` times per player and not after round
``buy_back_until`` (docs/formats.md); ``buy_back=true`` of older tournaments means one."""

from __future__ import annotations

import pytest

from tournament.domain import commands as c
from tournament.domain.model.errors import DomainError
from tournament.domain.model.settings import Settings
from tournament.domain.standings.pairing import lives_left, lives_rules
from tournament.domain.testing import Builder, registered


def lives_cup(**options: object) -> Builder:
    return Builder(registered(8, format="lives", options={"lives": 2, **options}))


def play_round(b: Builder) -> None:
    """The lower start number wins every match: player 8 loses whenever it plays."""
    b.add(c.start_round(b.state))
    for mid in b.state.rounds[-1].matches:
        m = b.state.matches[mid]
        if not m.decided:
            b.add(c.record_forfeit(b.state, mid, winner=min(m.players)))


def play_until_out(b: Builder, player: int = 8) -> None:
    while lives_left(b.state)[player] > 0:
        play_round(b)


def test_a_player_buys_back_as_often_as_buy_backs_allows_and_no_more() -> None:
    b = lives_cup(buy_backs=2)
    for _ in range(2):
        play_until_out(b)
        b.add(c.buy_life(b.state, 8))
        assert lives_left(b.state)[8] == 1
        play_round(b)  # the draw (lives format) accepts the second buy-back too
    play_until_out(b)
    with pytest.raises(DomainError) as refused:
        c.buy_life(b.state, 8)
    assert "bought back 2 lives already" in refused.value.line()
    assert "(buy_backs=2)" in refused.value.line()


def test_no_buy_back_after_buy_back_until() -> None:
    b = lives_cup(buy_backs=2, buy_back_until=3)
    play_round(b)
    play_round(b)
    assert lives_left(b.state)[8] == 0
    b.add(c.buy_life(b.state, 8))  # before round 3: still allowed
    play_round(b)
    assert lives_left(b.state)[8] == 0
    with pytest.raises(DomainError) as refused:
        c.buy_life(b.state, 8)  # before round 4: closed
    assert refused.value.line() == (
        "player: buy-back closed: the last was before round 3 (buy_back_until=3) (T-lives)"
    )


def test_buy_back_true_of_older_tournaments_means_one() -> None:
    s = Settings.from_payload({"name": "Old", "format": "lives", "options": {"buy_back": True}})
    assert (s.options["buy_backs"], s.options["buy_back_until"]) == (1, 0)
    rules = lives_rules(s)
    assert (rules.max_buy_backs, rules.last_buy_back_round) == (1, None)
    off = Settings.from_payload({"name": "Old", "format": "lives"})
    assert (off.options["buy_back"], off.options["buy_backs"]) == (False, 0)


def test_buy_backs_alone_sets_buy_back_and_the_last_round() -> None:
    s = Settings.from_payload(
        {"name": "New", "format": "lives", "options": {"buy_backs": 3, "buy_back_until": 5}}
    )
    assert s.options["buy_back"] is True
    assert (lives_rules(s).max_buy_backs, lives_rules(s).last_buy_back_round) == (3, 5)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"buy_back": False, "buy_backs": 2}, "buy_back=false contradicts buy_backs=2"),
        ({"buy_back": True, "buy_backs": 0}, "buy_back=true contradicts buy_backs=0"),
        ({"buy_back_until": 4}, "buy_back_until needs buy_backs=1 or more"),
        ({"buy_backs": 1, "buy_back_until": 1}, "buy_back_until must be 2 or more"),
        ({"buy_backs": -1}, "buy_backs must be a whole number >= 0"),
    ],
)
def test_inconsistent_buy_back_options_are_refused(options: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(DomainError) as refused:
        Settings.from_payload({"name": "Cup", "format": "lives", "options": options})
    line = refused.value.line()
    assert line.startswith("options: ") and message in line and "\n" not in line
